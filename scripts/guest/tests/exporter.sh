# SPDX-License-Identifier: GPL-2.0
# The Prometheus exporter (scripts/skmemcg-exporter, /bin/skmemcg-exporter
# in the guest) as it runs in production, under busybox sh and awk, on a
# loaded module with throttling, instrumentation, a cgroup with a small
# memory.max (throttled) and a memcg-exclusive one with a socket limit
# (sock_limits), under TCP traffic in both, and a limit waiting for its
# cgroup: it runs
# while the counters move; once they rest, every "stats" line is its metric
# with the same value, every "cgroups" line its per-cgroup series, the knobs
# are there; not loaded it prints skmemcg_loaded 0; without debugfs,
# skmemcg_debugfs_readable 0; --output renames into place.
# promtool is not in the guest: the outputs are printed between
# "@@PROM BEGIN <name>" and "@@PROM END" lines, and
# scripts/exporter-promcheck.sh checks them on the host from the console
# log, after the boot.
# shellcheck disable=SC1091 # the guest's helpers
. /tests/lib.sh
. /tests/lib_burst.sh

EXP=/bin/skmemcg-exporter
[ -x $EXP ] || fail "no $EXP in the guest (scripts/vm.sh packs scripts/skmemcg-exporter)"

# prom NAME FILE: FILE for the host's promtool.
prom() {
	echo "@@PROM BEGIN $1"
	cat "$2"
	echo "@@PROM END"
}

# has FILE LINE: is LINE a line of FILE?
has() {
	grep -qxF -- "$2" "$1"
}

# ns_seconds NS: nanoseconds as decimal seconds, as the exporter writes them.
ns_seconds() {
	_v=$1
	while [ ${#_v} -le 9 ]; do _v=0$_v; done
	_i=${_v%?????????}
	_f=${_v#"$_i"}
	while [ -n "$_f" ] && [ "${_f%0}" != "$_f" ]; do _f=${_f%0}; done
	_i=$(echo "$_i" | sed 's/^0*//')
	[ -n "$_i" ] || _i=0
	if [ -n "$_f" ]; then echo "$_i.$_f"; else echo "$_i"; fi
}

# Not loaded.
$EXP > /tmp/exp.notloaded || fail "exporter exited $? with the module not loaded"
expect_eq "not loaded" "$(grep -v '^#' /tmp/exp.notloaded)" "skmemcg_loaded 0"
prom notloaded /tmp/exp.notloaded

echo 16777216 > /proc/sys/net/core/rmem_max
echo 16777216 > /proc/sys/net/core/wmem_max
lim=/sys/fs/cgroup/exp_lim
ex=/sys/fs/cgroup/exp_ex
mkdir "$lim" "$ex"
echo $((32 << 20)) > "$lim/memory.max"
load throttle=1 instrument=1 exclusive_cgroups=+/exp_ex sock_limits=+/exp_ex=512K \
	sock_limits=+/exp_later=1G

# Traffic in both (as throttle_state: 8 connections that do not read,
# under 32 MiB, are throttled within seconds).
# Under traffic: 3 s in, and once /exp_ex has its sockets (a loaded host
# once had none 3 s in). The bursts run until stopped: with a 10 s burst
# a slow exporter run once saw no exclusive socket, the sockets just
# closed (and once on the debug kernel with a third guest beside it,
# 2026-12-03).
trap 'for p in ${b1:-} ${b2:-}; do burst_kill "$p"; done' EXIT
burst_start "$lim" /tmp/burst.lim -c 8 -b 4096
b1=$bg
burst_start "$ex" /tmp/burst.ex -c 4 -b 256
b2=$bg
sleep 3
n=0
until [ "$(skm_stat exclusive_sockets)" -gt 0 ]; do
	n=$((n + 1))
	[ $n -lt 30 ] || fail "no exclusive sockets 6 s into the traffic: $(cat $DBG/stats)"
	sleep 0.1
done
$EXP > /tmp/exp.moving || fail "exporter exited $? under traffic"
has /tmp/exp.moving "skmemcg_cgroup_exclusive{cgroup=\"/exp_ex\"} 1" ||
	fail "/exp_ex not exclusive in the output: $(grep exp_ex /tmp/exp.moving)"
has /tmp/exp.moving 'skmemcg_knob_sock_limit_bytes{cgroup="/exp_ex"} 524288' ||
	fail "/exp_ex's limit not in the output: $(grep sock_limit /tmp/exp.moving)"
has /tmp/exp.moving 'skmemcg_knob_sock_limit{cgroup="/exp_later"} 0' ||
	fail "/exp_later not waiting in the output: $(grep sock_limit /tmp/exp.moving)"
n=$(sed -n 's/^skmemcg_exclusive_sockets //p' /tmp/exp.moving)
[ "${n:-0}" -gt 0 ] || fail "no exclusive sockets under traffic: '$n'"
burst_stop "$b1" /tmp/burst.lim
burst_stop "$b2" /tmp/burst.ex
b1=''
b2=''

# At rest: stats and cgroups the same before and after the exporter ran.
i=0
while :; do
	cat "$DBG"/stats > /tmp/stats.0
	cat "$DBG"/cgroups > /tmp/cgroups.0
	$EXP > /tmp/exp.prom || fail "exporter exited $?"
	cat "$DBG"/stats > /tmp/stats.1
	cat "$DBG"/cgroups > /tmp/cgroups.1
	cmp -s /tmp/stats.0 /tmp/stats.1 && cmp -s /tmp/cgroups.0 /tmp/cgroups.1 && break
	i=$((i + 1))
	[ $i -lt 20 ] || fail "stats or cgroups never stood still for one exporter run"
	sleep 0.5
done
note "stats: $(tr '\n' ' ' < /tmp/stats.0)"
note "cgroups: $(tr '\n' ' ' < /tmp/cgroups.0)"
prom loaded /tmp/exp.prom

[ $(( $(skm_stat throttled_tx) + $(skm_stat throttled_rx) )) -gt 0 ] ||
	fail "no allocation was throttled: the comparison would be of zeros"
has /tmp/exp.prom "skmemcg_loaded 1" || fail "no skmemcg_loaded 1"
has /tmp/exp.prom "skmemcg_debugfs_readable 1" || fail "no skmemcg_debugfs_readable 1"
has /tmp/exp.prom "skmemcg_module_info{version=\"$(cat /sys/module/skmemcg/version)\"} 1" ||
	fail "no skmemcg_module_info with the module's version"

# Every stats line, with its value (the gauges as exporter-test.sh has them).
gauges=" hooks_installed exclusive_sockets exclusive_pages pcpu_rsv_pages pcpu_uncertainty_pages senders_parked_now drift_checks drift_mismatches drift_refused_throttle drift_refused_exclusive drift_refused_reclaim drift_refused_sock_limits drift_allowed_untested hook_entry_direct hooks_direct hooks_ops reclaim_protection_path_by_skmemcg "
n=0
while read -r name value; do
	case $name in
	*_ns) m=skmemcg_${name%_ns}_seconds_total want=$(ns_seconds "$value") ;;
	*) m=skmemcg_${name}_total want=$value ;;
	esac
	case $gauges in *" $name "*) m=skmemcg_$name want=$value ;; esac
	has /tmp/exp.prom "$m $want" ||
		fail "stats $name $value: want '$m $want', got '$(grep "^$m " /tmp/exp.prom)'"
	n=$((n + 1))
done < /tmp/stats.0
note "stats: $n lines, each a metric with its value"

# Every cgroups line: the counters and the exclusive flag.
n=0
while read -r line; do
	case $line in "#"*) continue ;; esac
	# shellcheck disable=SC2086 # the fields
	set -- $line
	shift $(($# - 11))
	path=${line% "$1 $2 $3 $4 $5 $6 $7 $8 $9 ${10} ${11}"}
	x=0
	[ "$5" = no ] || x=1
	mvs="throttled_tx_total $3|throttled_rx_total $4|exclusive $x"
	[ "$9" = - ] ||
		mvs="$mvs|sock_limit_bytes $(($9 * 1024))|sock_bytes $((${10} * 1024))|limited_total ${11}"
	# Linux 6.19's name: throttled TX and RX, and what the limit suppressed
	st=$(($3 + $4))
	[ "$9" = - ] || st=$((st + ${11}))
	mvs="$mvs|sock_throttled_total $st"
	IFS='|'
	for mv in $mvs; do
		l="skmemcg_cgroup_${mv% *}{cgroup=\"$path\"} ${mv#* }"
		has /tmp/exp.prom "$l" || fail "cgroups '$line': no '$l'"
	done
	unset IFS
	n=$((n + 1))
done < /tmp/cgroups.0
[ $n -ge 2 ] || fail "only $n cgroups lines: $(cat /tmp/cgroups.0)"
grep -q '^/exp_lim ' /tmp/cgroups.0 || fail "/exp_lim not in cgroups"
[ "$(awk '$1 == "/exp_ex" { print $10 }' /tmp/cgroups.0)" = 512 ] ||
	fail "/exp_ex's limit column: $(grep '^/exp_ex ' /tmp/cgroups.0)"
note "cgroups: $n lines, each with its series"

# Knobs.
for l in "skmemcg_knob_throttle 1" "skmemcg_knob_instrument 1" "skmemcg_knob_enabled 1" \
	"skmemcg_knob_exclusive_cgroups 1" "skmemcg_knob_exclusive_cgroup{cgroup=\"/exp_ex\"} 1" \
	"skmemcg_knob_info{knob=\"throttle_level\",value=\"$(cat "$PAR"/throttle_level)\"} 1" \
	"skmemcg_knob_pressure_hold_seconds $(ns_seconds "$(cat "$PAR"/pressure_hold_ms)000000")"; do
	has /tmp/exp.prom "$l" || fail "no '$l'"
done

# debugfs unreadable; --output.
SKMEMCG_DEBUGFS=/nonexistent $EXP > /tmp/exp.nodebugfs || fail "exporter exited $? without debugfs"
has /tmp/exp.nodebugfs "skmemcg_debugfs_readable 0" || fail "no skmemcg_debugfs_readable 0"
has /tmp/exp.nodebugfs "skmemcg_knob_throttle 1" || fail "no knobs without debugfs"
prom nodebugfs /tmp/exp.nodebugfs
mkdir -p /tmp/textfile
$EXP --output /tmp/textfile/skmemcg.prom || fail "--output exited $?"
if [ ! -s /tmp/textfile/skmemcg.prom ] || [ -e /tmp/textfile/skmemcg.prom.tmp ]; then
	fail "--output: $(ls /tmp/textfile)"
fi

unload
rmdir "$lim" "$ex" 2> /dev/null
exit 0
