# SPDX-License-Identifier: GPL-2.0
#
# make                 build skmemcg.ko against KDIR
# make C=2             the same, with sparse on every file
# make checkpatch      scripts/checkpatch.pl --strict on our sources
# make doccheck        the docs' links, knobs and README length (scripts/doccheck.sh)
# make deb             out/skmemcg-dkms_<version>_all.deb, the Debian DKMS package
#                      (debian/, dh-dkms), without root (scripts/deb.sh)
# make kunit           KUnit suites in UML
# make test            everything the README's test command runs
# make demo            the README's demo in the VM
# make bench           benchmarks in the VM (scripts/bench.sh)
# make check-testbed   the test bed's own check: can this QEMU mode patch
#                      kernel text under load? (scripts/test.sh testbed)
# make matrix         the guest cases on other point releases and flavours
#                      of the supported families (scripts/matrix.sh)
# make fingerprints    record the fingerprints of the kernel functions the
#                      policies copy, from the test command's kernels, in
#                      module/fingerprints.h (scripts/fingerprints.sh)
# make conformance     the kernel's own memcg selftests (test_memcontrol,
#                      test_kmem) on each kernel, stock and with skmemcg in
#                      each policy state (scripts/conformance.sh)
# make host-test       Debian 12 (6.1, 6.12) and 13 (7.3) booted with systemd
#                      from images made with debootstrap and cached outside
#                      the clone: the .deb installed with apt, options from
#                      modprobe.d at boot, services and podman containers by
#                      name and annotation, Prometheus, a kernel ABI update
#                      (scripts/host-test.sh; root)
# make check-debug     the VM suite on a debug kernel (lockdep, KASAN, UBSAN,
#                      kmemleak...) built from linux-source-6.1 and cached
#                      outside the clone (scripts/check-debug.sh)
#
# KDIR defaults to the running kernel's build tree, else the newest installed
# Debian linux-headers-*-amd64.

KDIR ?= $(shell scripts/kdir.sh)

all: modules

modules:
	@test -n "$(KDIR)" || { echo "no kernel headers found: run scripts/setup.sh or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	@test -z "$(KDIR)" || $(MAKE) -C $(KDIR) M=$(CURDIR) clean

checkpatch:
	scripts/checkpatch.sh

doccheck:
	scripts/doccheck.sh

deb:
	scripts/deb.sh

kunit:
	scripts/kunit.sh

test:
	scripts/test.sh

demo:
	scripts/demo.sh

bench:
	scripts/bench.sh

check-debug:
	scripts/check-debug.sh

check-testbed:
	scripts/test.sh testbed

conformance:
	scripts/conformance.sh

matrix:
	scripts/matrix.sh

fingerprints:
	scripts/fingerprints.sh

host-test:
	scripts/host-test.sh

initrd-repro:
	scripts/initrd-repro.sh

.PHONY: all modules clean checkpatch doccheck deb kunit test demo bench check-debug check-testbed conformance matrix fingerprints host-test initrd-repro
