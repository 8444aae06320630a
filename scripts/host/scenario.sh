#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host test's scenario, run by skmemcg-host-test.service once a Debian
# host booted with systemd is up (scripts/host-test.sh made the image and
# reads the console). The kernel command line's skmhost= says what to do:
#
#   full    the module loaded at boot from /etc/modules-load.d with the
#           options of /etc/modprobe.d/skmemcg.conf; a service limited by a
#           sock_limits entry, restarted; a slice's exclusive service; the
#           seed-000 burst service, throttled and not killed; two podman
#           containers, one annotated (the OCI hook) and its neighbour;
#           Prometheus asked for the throttle rate and socket bytes by
#           cgroup; the hook's entries gone after both stopped
#   check   after a kernel update: the module loaded with its options, or
#           refused with what it refused visible in Prometheus
#   stock   module_blacklist=skmemcg: the burst service is OOM-killed
#   short   full without the burst and Prometheus (masked by the harness):
#           node_exporter's metrics of the annotated container instead (the
#           test command's)
#
# Prints "@@HOST PASS name", "@@HOST FAIL name: why", "@@HOST SHOW text"
# (what the closing note quotes) and "@@HOST END" before powering off.
set -u
bin=/usr/local/lib/skmemcg-host-test
params=/sys/module/skmemcg/parameters
dbg=/sys/kernel/debug/skmemcg
mode=$(sed -n 's/.*skmhost=\([a-z]*\).*/\1/p' /proc/cmdline)
LIMIT_KIB=2048
# what a limited cgroup may hold past its limit: the slack, 256 KiB per
# connection (docs/cgroup-lists.md)
SLACK_KIB=$((8 * 256))

pass() { echo "@@HOST PASS $1"; }
fail() { echo "@@HOST FAIL $1: $2"; }
show() { sed 's/^/@@HOST SHOW /'; }
check() {	# check NAME WHY CMD...: PASS if CMD succeeds, else FAIL WHY
	local name=$1 why=$2
	shift 2
	if "$@"; then pass "$name"; else fail "$name" "$why"; fi
}

# wait_for SECONDS CMD...: until CMD succeeds, at most SECONDS of the
# clock (not SECONDS tries: one try of a curl on a loaded guest can take
# its whole --max-time).
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 1
	done
}

# step NAME: the guest's uptime as a step begins, so that a run cut short
# by the harness's limit says where the time went
step() { echo "@@HOST SHOW step $1 at uptime $(cut -d' ' -f1 /proc/uptime)s"; }

sock_kib() {	# sock_kib CGROUP-PATH: memory.stat "sock" in KiB
	awk '$1 == "sock" { print int($2 / 1024) }' "/sys/fs/cgroup$1/memory.stat" 2> /dev/null
}

unit_cg() { systemctl show -P ControlGroup "$1"; }

row() {	# row PATH: the debugfs cgroups header and the row of PATH
	awk -v p="$1" 'NR == 1 || $1 == p' "$dbg/cgroups" 2> /dev/null
}

# promq QUERY: the query's result vector from Prometheus's HTTP API, as
# compact JSON ("[]" when empty).
promq() {
	curl -s -G --max-time 10 http://localhost:9090/api/v1/query \
		--data-urlencode "query=$1" | jq -c '.data.result // []' 2> /dev/null
}
prom_has() {
	local r
	r=$(promq "$1")
	[ -n "$r" ] && [ "$r" != "[]" ]
}
# jqt EXPR JSON: is EXPR true of JSON?
jqt() { jq -e "$1" <<< "$2" > /dev/null 2>&1; }
# what Prometheus says of its scrape of node_exporter
prom_targets() {
	curl -s --max-time 10 http://localhost:9090/api/v1/targets |
		jq -c '[.data.activeTargets[] | {scrapeUrl, health, lastError, lastScrape}]' 2> /dev/null
}

held() {	# held UNIT: skm-hold of UNIT printed "ready" since it last started
	journalctl -b -q -o cat -u "$1" --since "@$2" | grep -q '^ready'
}

boot_lines() {
	echo "kernel $(uname -r), $(systemctl is-system-running 2>&1)"
	journalctl -b -o short-monotonic -k -q --grep 'skmemcg' | head -n 20
	journalctl -b -o short-monotonic -q -u systemd-modules-load.service | head -n 5
	echo "dkms: $(dkms status 2> /dev/null | tr '\n' ' ')"
	if [ -d "$params" ]; then
		for k in throttle sock_limits exclusive_cgroups throttle_cgroups; do
			printf '%s: %s\n' "$k" "$(tr '\n' ' ' < "$params/$k")"
		done
	fi
}

# ------------------------------------------------------------------ load
load_checks() {
	local t_mod t_svc
	boot_lines | show
	check loaded "skmemcg is not loaded" test -d "$params"
	[ -d "$params" ] || return 1
	check options "the options of /etc/modprobe.d/skmemcg.conf are not in force" \
		bash -c "grep -qx Y $params/throttle &&
			grep -q '^+/system.slice/skm-limited.service=2097152' $params/sock_limits &&
			grep -q '^+/skm.slice' $params/exclusive_cgroups"
	# systemd-modules-load runs in sysinit.target, before any service
	t_mod=$(systemctl show -P ActiveEnterTimestampMonotonic systemd-modules-load.service)
	t_svc=$(systemctl show -P ExecMainStartTimestampMonotonic skm-limited.service)
	echo "systemd-modules-load active at ${t_mod} us, skm-limited.service started at ${t_svc} us (monotonic)" | show
	check before-services "the module was loaded after the service started" \
		test "${t_mod:-0}" -gt 0 -a "${t_svc:-0}" -gt "${t_mod:-0}"
}

# ------------------------------------------------------------ services
limited_checks() {
	local cg kib ino ino2 t
	cg=$(unit_cg skm-limited.service)
	wait_for 120 held skm-limited.service 0 ||
		{ fail limited "skm-limited.service never held its connections"; return; }
	sleep 2
	kib=$(sock_kib "$cg")
	{
		systemctl show -p ControlGroup skm-limited.service skm-excl.service
		echo "skm-limited.service: memory.stat sock ${kib} KiB (limit $LIMIT_KIB KiB)"
		row "$cg"
		row "$(unit_cg skm-excl.service)"
	} | show
	check limited "sock ${kib} KiB > $LIMIT_KIB + $SLACK_KIB" test "${kib:-99999}" -le $((LIMIT_KIB + SLACK_KIB))
	# in effect: listed, and no longer "waiting" for systemd to make it
	check excl-slice "exclusive_cgroups has no entry in effect for /skm.slice" \
		grep -qx '+/skm.slice' "$params/exclusive_cgroups"

	ino=$(stat -c %i "/sys/fs/cgroup$cg")
	t=$(date +%s)
	systemctl restart skm-limited.service
	wait_for 120 held skm-limited.service "$t" ||
		{ fail restart "skm-limited.service never held its connections after a restart"; return; }
	sleep 2
	ino2=$(stat -c %i "/sys/fs/cgroup$cg")
	kib=$(sock_kib "$cg")
	{
		echo "after systemctl restart: cgroup id $ino -> $ino2, memory.stat sock ${kib} KiB"
		row "$cg"
	} | show
	check restart-new-cgroup "the restart kept the same cgroup ($ino)" test "$ino" != "$ino2"
	check restart-limited "after restart sock ${kib} KiB > $LIMIT_KIB + $SLACK_KIB" \
		test "${kib:-99999}" -le $((LIMIT_KIB + SLACK_KIB))
}

# ------------------------------------------------------------ containers
ctr_cg() { sed -n 's/^0:://p' "/proc/$(podman inspect -f '{{.State.Pid}}' "$1")/cgroup"; }
ctr_ready() { podman logs "$1" 2> /dev/null | grep -q '^ready'; }

containers_start() {
	podman import -q "$bin/ctr-rootfs.tar" localhost/skm-work > /dev/null ||
		{ fail containers "podman import failed"; return 1; }
	podman run -d --rm --name skm-annotated --network none \
		--annotation io.skmemcg.sock_limit=2M --annotation io.skmemcg.exclusive=true \
		localhost/skm-work /skm-hold -c 8 -k 2048 > /dev/null ||
		{ fail containers "podman run of the annotated container failed"; return 1; }
	podman run -d --rm --name skm-neighbour --network none \
		localhost/skm-work /skm-hold -c 8 -k 2048 > /dev/null ||
		{ fail containers "podman run of the neighbour failed"; return 1; }
	wait_for 120 ctr_ready skm-annotated && wait_for 120 ctr_ready skm-neighbour ||
		{ fail containers "the containers never held their connections"; return 1; }
	sleep 2
	CG_A=$(ctr_cg skm-annotated)
	CG_N=$(ctr_cg skm-neighbour)
	local a n
	a=$(sock_kib "$CG_A")
	n=$(sock_kib "$CG_N")
	{
		echo "annotated (io.skmemcg.sock_limit=2M, io.skmemcg.exclusive=true): $CG_A: memory.stat sock $a KiB"
		echo "neighbour (no annotation): $CG_N: memory.stat sock $n KiB"
		echo "sock_limits: $(tr '\n' ' ' < "$params/sock_limits")"
		echo "exclusive_cgroups: $(tr '\n' ' ' < "$params/exclusive_cgroups")"
		row "$CG_A"
		journalctl -b -q -o cat -t skmemcg-oci-hook | tail -n 3
	} | show
	check ctr-listed "the hook wrote no entry for $CG_A" \
		bash -c "grep -qx '+$CG_A=2097152' $params/sock_limits && grep -qx '+$CG_A' $params/exclusive_cgroups"
	check ctr-limited "annotated sock $a KiB > $LIMIT_KIB + $SLACK_KIB" \
		test "${a:-99999}" -le $((LIMIT_KIB + SLACK_KIB))
	check ctr-neighbour-free "neighbour sock $n KiB is not 1 MiB above the annotated one's $a" \
		test "${n:-0}" -ge $((${a:-99999} + 1024))
}

containers_stop() {
	podman stop -t 2 skm-annotated skm-neighbour > /dev/null 2>&1
	gone() { ! podman container exists skm-annotated && ! podman container exists skm-neighbour; }
	wait_for 60 gone || fail ctr-gone "the containers were not removed"
	cleaned() {
		! grep -q libpod "$params/sock_limits" "$params/exclusive_cgroups" &&
			[ -z "$(ls /run/skmemcg/oci 2> /dev/null)" ]
	}
	check ctr-cleaned "an entry of a stopped container is left after 30 s" wait_for 30 cleaned
	{
		echo "after both stopped: sock_limits: $(tr '\n' ' ' < "$params/sock_limits")"
		echo "exclusive_cgroups: $(tr '\n' ' ' < "$params/exclusive_cgroups")"
		echo "/run/skmemcg/oci: $(ls /run/skmemcg/oci 2> /dev/null | wc -l) state files"
	} | show
}

# ------------------------------------------------------------ prometheus
prom_checks() {
	local cg_b=/system.slice/skm-burst.service cg_l q1 q2 q3 r1 r2 r3
	cg_l=$(unit_cg skm-limited.service)
	# the window reaches back to the burst's start: it ended before the
	# containers were up, which takes minutes on a slow guest
	q1="rate(skmemcg_cgroup_sock_throttled_total{cgroup=\"$cg_b\"}[5m])"
	q2="skmemcg_cgroup_sock_bytes{cgroup=~\"$cg_l|${CG_A:-none}\"}"
	q3="rate(skmemcg_cgroup_sock_throttled_total{cgroup=~\"$cg_l|${CG_A:-none}\"}[5m])"
	two() { [ "$(promq "$q2" | jq length)" = 2 ]; }
	wait_for 90 two || true
	r1=$(promq "$q1")
	r2=$(promq "$q2")
	r3=$(promq "$q3")
	{
		echo "promql: $Q_LOAD"
		echo "  -> $(promq "$Q_LOAD")"
		echo "promql: $q1"
		echo "  -> $r1"
		echo "promql: $q2"
		echo "  -> $r2"
		echo "promql: $q3"
		echo "  -> $r3"
		echo "targets: $(prom_targets)"
	} | show
	check prom-throttle-rate "no throttle rate above 0 of $cg_b in Prometheus" \
		jqt 'length == 1 and (.[0].value[1] | tonumber) > 0' "${r1:-[]}"
	check prom-sock-bytes "not the socket bytes of the service and the container in Prometheus" \
		jqt 'length == 2' "${r2:-[]}"
}

# ------------------------------------------------------------ modes
full() {
	local t_b res
	load_checks || return
	limited_checks
	# the containers first (their hook runs at their start; under the
	# burst a slow guest took over 10 s for it), then the burst while they
	# hold, once Prometheus scrapes (on a slow guest it is ready a minute
	# after the services), so that it sees the burst over several scrapes
	containers_start
	wait_for 240 prom_has skmemcg_loaded ||
		fail prom-up "Prometheus has no skmemcg_loaded after 240 s: $(prom_targets)"
	t_b=$(date +%s)
	systemctl start --no-block skm-burst.service
	burst_done() {
		case $(systemctl show -P ActiveState skm-burst.service) in
		inactive | failed) return 0 ;;
		*) return 1 ;;
		esac
	}
	wait_for 400 burst_done || fail burst-ended "skm-burst.service still running after 400 s"
	res=$(systemctl show -P Result skm-burst.service)
	{
		echo "skm-burst.service (MemoryMax=96M): Result=$res"
		journalctl -b -q -o cat -u skm-burst.service --since "@$t_b" | grep '^burst:'
	} | show
	check burst-not-killed "skm-burst.service: Result=$res" test "$res" = success
	check burst-throttled "skm-burst.service was not throttled" \
		bash -c "journalctl -b -q -o cat -u skm-burst.service | grep -q '^burst: skmemcg throttled_tx=[1-9]'"
	prom_checks
	containers_stop
}

# whether the module is loaded, and what its drift guard refused
Q_LOAD='{__name__=~"skmemcg_loaded|skmemcg_drift_refused_.*|skmemcg_hooks_installed"}'

# the short form (the test command's): the module, the services, the
# containers and node_exporter's view of them; the burst and Prometheus are
# make host-test's (a loaded CI guest took more than 15 min for "full")
# (only the textfile collector: a scrape of every collector costs a
# loaded one-vCPU guest seconds)
NODE_URL='http://localhost:9100/metrics?collect[]=textfile'
node_has() { curl -s --max-time 30 "$NODE_URL" | grep -qF "$1"; }
short() {
	local m prom=/var/lib/prometheus/node-exporter/skmemcg.prom
	step load
	load_checks || return
	step limited
	limited_checks
	step containers
	containers_start || return
	step node-exporter
	m="skmemcg_cgroup_sock_bytes{cgroup=\"$CG_A\"}"
	wait_for 120 node_has "$m" || true
	{
		echo "node_exporter (curl '$NODE_URL'):"
		curl -s --max-time 30 "$NODE_URL" |
			grep -F -e "cgroup=\"$CG_A\"" -e 'skm-limited.service"' | grep -F -e sock_bytes -e sock_limit_bytes
	} | show
	if ! node_has "$m"; then
		{
			echo "$prom: $(stat -c '%s bytes, changed %z' "$prom" 2>&1), $(grep -cF "$CG_A" "$prom" 2> /dev/null) lines of the container"
			systemctl show -p ActiveState -p Result -p ExecMainStartTimestamp skmemcg-exporter.service
			systemctl list-timers --no-pager skmemcg-exporter.timer
			journalctl -b -q -o short-monotonic -u skmemcg-exporter.service | tail -n 5
		} | show
		fail node-exporter "node_exporter has no $m"
	else
		pass node-exporter
	fi
	step stop
	containers_stop
}

check_mode() {
	local q=$Q_LOAD
	boot_lines | show
	wait_for 120 prom_has 'skmemcg_loaded' || true
	{
		echo "promql: $q"
		echo "  -> $(promq "$q")"
		echo "targets: $(prom_targets)"
	} | show
	if [ -d "$params" ]; then
		check options "the options of /etc/modprobe.d/skmemcg.conf are not in force" \
			bash -c "grep -qx Y $params/throttle && grep -q '^+/system.slice/skm-limited.service=2097152' $params/sock_limits"
	else
		check refused-visible "skmemcg is not loaded and Prometheus does not say so" \
			bash -c "curl -s -G http://localhost:9090/api/v1/query --data-urlencode 'query=skmemcg_loaded == 0' | jq -e '.data.result | length == 1' > /dev/null"
	fi
}

stock() {
	local res
	boot_lines | show
	check stock-no-module "skmemcg is loaded" test ! -d "$params"
	systemctl start skm-burst.service
	res=$(systemctl show -P Result skm-burst.service)
	{
		echo "skm-burst.service (MemoryMax=96M) on the stock kernel: Result=$res"
		journalctl -b -q -o cat -u skm-burst.service | grep -E '^burst:|oom' | tail -n 4
	} | show
	check stock-killed "skm-burst.service: Result=$res, not oom-kill" test "$res" = oom-kill
}

# every line to the console and to a file the harness reads from the image
exec > >(tee /var/log/skmemcg-host-test.log) 2>&1
echo "@@HOST BEGIN $mode $(uname -r) uptime $(cut -d' ' -f1 /proc/uptime)s"
case $mode in
full) full ;;
short) short ;;
check) check_mode ;;
stock) stock ;;
*) fail mode "no skmhost= mode on the command line" ;;
esac
echo "@@HOST END uptime $(cut -d' ' -f1 /proc/uptime)s"
exec >&- 2>&-
wait
sync
systemctl poweroff --no-block
