# SPDX-License-Identifier: GPL-2.0
# What the memcg-exclusive cases share: the global and the memcg socket
# counters, the per-CPU reserve that bounds their agreement, a tight tcp_mem,
# and the check that everything is back after close. Sourced after lib.sh
# and lib_burst.sh.

sockstat_mem() { awk '$1 == "TCP:" { for (i = 2; i < NF; i++) if ($i == "mem") print $(i + 1) }' /proc/net/sockstat; }
memcg_sock() { awk '$1 == "sock" { print $2 }' "$1/memory.stat"; }
ncpu=$(grep -c ^processor /proc/cpuinfo)
reserve=$((256 * ncpu))	# per-CPU forward-alloc reserve, pages

# tcp_mem_tight: tcp_mem "1000 1000 1000", the seed's setting;
# tcp_mem_restore (call it from the case's EXIT trap) puts back the value
# before, which later cases need.
tcp_mem_saved=$(cat /proc/sys/net/ipv4/tcp_mem)
tcp_mem_tight() { echo 1000 1000 1000 > /proc/sys/net/ipv4/tcp_mem; }
tcp_mem_restore() { echo "$tcp_mem_saved" > /proc/sys/net/ipv4/tcp_mem; }

# unload_holding [WHAT-ELSE]: rmmod while the cgroup's exclusive sockets
# hold pages (and WHAT-ELSE is live), noting what was handed back.
unload_holding() {
	held=$(skm_stat exclusive_pages)
	unload
	note "rmmod with $held exclusive pages${1:-} live: $(dmesg | grep 'handed' | tail -n 1)"
	[ "$held" -gt 0 ] || fail "no exclusive pages at rmmod"
}

# expect_baseline WHEN: every socket of cgroup $cg closed, sockstat mem is
# back to $base within the per-CPU reserve and the memcg holds no socket
# memory, within 10 s (closed sockets free their memory in softirq, later
# on a loaded host: a leak never comes back).
expect_baseline() {
	_i=0
	while [ $_i -lt 10 ]; do
		sleep 1
		_i=$((_i + 1))
		m=$(sockstat_mem)
		[ $((m - base)) -le $reserve ] && [ $((base - m)) -le $reserve ] &&
			[ "$(memcg_sock $cg)" = 0 ] && break
	done
	m=$(sockstat_mem)
	note "$1: sockstat_mem=$m (baseline $base) memcg_sock=$(memcg_sock $cg) after ${_i} s"
	[ $((m - base)) -le $reserve ] && [ $((base - m)) -le $reserve ] ||
		fail "$1: sockstat mem $m vs baseline $base"
	expect_eq "$1: memcg sock" "$(memcg_sock $cg)" 0
}
