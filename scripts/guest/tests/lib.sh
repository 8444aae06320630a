# SPDX-License-Identifier: GPL-2.0
# Helpers sourced by every guest test case.
set -u

DBG=/sys/kernel/debug/skmemcg
PAR=/sys/module/skmemcg/parameters
TRACING=/sys/kernel/tracing

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 77
}

note() {
	echo "$*"
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# The knobs a loaded module mirrors in debugfs: every writable parameter.
knobs() {
	for f in "$PAR"/*; do
		[ -w "$f" ] && basename "$f"
	done
}

# stat NAME: a value from debugfs stats.
skm_stat() {
	awk -v k="$1" '$1 == k { print $2 }' "$DBG/stats"
}

# hooked_functions: our functions in ftrace's enabled_functions.
hooked_functions() {
	grep -E '^__sk_mem_(raise|reduce)_allocated ' "$TRACING/enabled_functions"
}

load() {
	modprobe skmemcg "$@" || fail "modprobe skmemcg $*"
}

unload() {
	rmmod skmemcg || fail "rmmod skmemcg"
}
