# SPDX-License-Identifier: GPL-2.0
# Seed 000's failure at small scale, as one function the throttle test and
# the demo share. A cgroup with memory.max BURST_MAX_MB runs a workload that
# keeps BURST_RESIDENT_MB of anonymous memory and does its own non-socket
# work (skm-hog: map, touch, unmap BURST_WORK_MB, rounds counted); then a
# socket burst starts in the same cgroup (skm-burst: TCP connections whose
# receivers never read) next to loopback UDP that is read (skm-udp).
#
# burst_run CONFIG: CONFIG is stock (no module), high (memory.high
# BURST_HIGH_MB, no module: 72 MiB is what it takes here to avoid the kill),
# skmemcg (modprobe skmemcg throttle=1), off (modprobe skmemcg throttle=0,
# which must behave as stock) or free (no memory.max, no module: what the
# burst costs the hog in CPU alone, with no memory limit to slow it).
# Prints one line:
#   config=C oom_kills=N hog_quiet=R hog_burst=R hog_pct=P sent_mib=M
#   udp_quiet=R udp_burst=R throttled_tx=N throttled_rx=N stall_pct=P
# hog_* and udp_* are per second; hog_pct is hog_burst as a percentage of
# hog_quiet; hog_burst is 0 if the hog was killed. stall_pct: the time some
# task of the cgroup stalled on memory during the burst (memory.pressure's
# "some" total, PSI), as a percentage of the burst's time; -1 without PSI.

BURST_MAX_MB=${BURST_MAX_MB:-96}
BURST_HIGH_MB=${BURST_HIGH_MB:-72}
BURST_RESIDENT_MB=${BURST_RESIDENT_MB:-64}
BURST_WORK_MB=${BURST_WORK_MB:-4}
BURST_CONNS=${BURST_CONNS:-8}
BURST_BUF_KIB=${BURST_BUF_KIB:-4096}
BURST_QUIET_S=${BURST_QUIET_S:-3}
BURST_S=${BURST_S:-8}

# in_cgroup CG CMD...: run CMD inside cgroup CG.
in_cgroup() {
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$@"
}

# in_cgroup_bg CG CMD...: CMD in cgroup CG in the background, its pid in
# $bg. Not "in_cgroup ... &": $! would be the subshell that runs the
# function, and killing that leaves CMD running (busybox ash).
in_cgroup_bg() {
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$@" &
	bg=$!
}

# burst_start CG OUT ARGS...: skm-burst ARGS in cgroup CG in the
# background until burst_stop, its pid in $bg, its output in OUT. Stopped,
# not timed: a case that reads figures under a burst must not see it end
# first, however slow the guest (on the debug kernel reading five figures
# took 2.7 to 6.5 s, after a 4 s burst had closed its sockets, 2026-12-03).
burst_start() {
	_cg=$1 _out=$2
	shift 2
	: > "$_out"
	in_cgroup_bg "$_cg" skm-burst "$@" -t 600 > "$_out"
}
# burst_running OUT: skm-burst prints its total on its way out, then its
# sockets close.
burst_running() { [ ! -s "$1" ]; }
# burst_kill PID: stop it; its sockets are closed once this returns.
burst_kill() {
	{ kill "$1" && wait "$1"; } 2> /dev/null
}
# burst_stop PID OUT: burst_kill, failing if the burst had ended by itself.
burst_stop() {
	burst_running "$2" || fail "the burst ended before it was stopped: $(cat "$2")"
	burst_kill "$1"
}

# psi_some_us CG: CG's memory.pressure "some" total, microseconds; empty
# without PSI (psi=0 on the command line).
psi_some_us() {
	awk '$1 == "some" { for (i = 2; i <= NF; i++) if ($i ~ /^total=/) print substr($i, 7) }' \
		"$1/memory.pressure" 2> /dev/null
}

# field NAME FILE: the value of NAME=value in the last line of FILE that has it.
field() {
	sed -n "s/.*\<$1=\([0-9.]*\).*/\1/p" "$2" | tail -n 1
}

burst_run() {
	config=$1
	cg=/sys/fs/cgroup/burst
	tx0=0 rx0=0
	echo 16777216 > /proc/sys/net/core/rmem_max
	echo 16777216 > /proc/sys/net/core/wmem_max
	mkdir "$cg" || fail "mkdir $cg"
	[ "$config" = free ] || echo $((BURST_MAX_MB << 20)) > "$cg/memory.max"
	[ "$config" = high ] && echo $((BURST_HIGH_MB << 20)) > "$cg/memory.high"
	if [ "$config" = off ]; then
		modprobe skmemcg throttle=0 || fail "modprobe skmemcg throttle=0"
	fi
	if [ "$config" = skmemcg ]; then
		modprobe skmemcg throttle=1 || fail "modprobe skmemcg throttle=1"
	fi
	case $config in skmemcg|off)
		tx0=$(skm_stat throttled_tx)
		rx0=$(skm_stat throttled_rx)
	esac
	kills0=$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events")

	total=$((BURST_QUIET_S + BURST_S))
	in_cgroup "$cg" skm-hog -r "$BURST_RESIDENT_MB" -w "$BURST_WORK_MB" -t "$total" > /tmp/hog.out &
	hog=$!
	while ! grep -q ready /tmp/hog.out && kill -0 $hog 2>/dev/null; do
		sleep 0.1
	done
	in_cgroup "$cg" skm-udp -t "$BURST_QUIET_S" > /tmp/udpq.out
	# The burst starts when the hog's quiet phase ends.
	while ! grep -q "tick=$BURST_QUIET_S " /tmp/hog.out && kill -0 $hog 2>/dev/null; do
		sleep 0.1
	done
	quiet=$(field rounds /tmp/hog.out)
	psi0=$(psi_some_us "$cg")
	t0=$(cut -d' ' -f1 /proc/uptime)
	in_cgroup "$cg" skm-burst -c "$BURST_CONNS" -b "$BURST_BUF_KIB" -t "$BURST_S" > /tmp/burst.out &
	burst=$!
	in_cgroup "$cg" skm-udp -t "$BURST_S" > /tmp/udpb.out
	wait $burst
	psi1=$(psi_some_us "$cg")
	t1=$(cut -d' ' -f1 /proc/uptime)
	stall=-1
	[ -n "$psi0" ] && [ -n "$psi1" ] &&
		stall=$(awk -v a="$psi0" -v b="$psi1" -v t0="$t0" -v t1="$t1" \
			'BEGIN { printf "%d", (t1 > t0 ? (b - a) / 10000 / (t1 - t0) : 0) }')
	wait $hog
	hog_rc=$?

	kills=$(( $(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events") - kills0 ))
	last=$(field rounds /tmp/hog.out)
	if [ "$hog_rc" -eq 0 ]; then
		hog_burst=$(awk -v a="$last" -v b="$quiet" -v s="$BURST_S" 'BEGIN { printf "%.2f", (a - b) / s }')
	else
		hog_burst=0
	fi
	hog_quiet=$(awk -v b="$quiet" -v s="$BURST_QUIET_S" 'BEGIN { printf "%.2f", b / s }')
	sent=$(field sent /tmp/burst.out)
	udpq=$(field received /tmp/udpq.out)
	udpb=$(field received /tmp/udpb.out)
	tx=0 rx=0
	case $config in skmemcg|off)
		tx=$(( $(skm_stat throttled_tx) - tx0 ))
		rx=$(( $(skm_stat throttled_rx) - rx0 ))
		rmmod skmemcg || fail "rmmod skmemcg"
	esac
	echo "config=$config oom_kills=$kills hog_quiet=$hog_quiet hog_burst=$hog_burst" \
	     "hog_pct=$(awk -v a="$hog_burst" -v b="$hog_quiet" 'BEGIN { printf "%d", (b > 0 ? 100 * a / b : 0) }')" \
	     "sent_mib=$(( ${sent:-0} >> 20 ))" \
	     "udp_quiet=$(awk -v n="${udpq:-0}" -v s="$BURST_QUIET_S" 'BEGIN { printf "%d", n / s }')" \
	     "udp_burst=$(awk -v n="${udpb:-0}" -v s="$BURST_S" 'BEGIN { printf "%d", n / s }')" \
	     "throttled_tx=$tx throttled_rx=$rx stall_pct=$stall"

	for p in $(cat "$cg/cgroup.procs"); do kill -9 "$p"; done
	while ! rmdir "$cg" 2>/dev/null; do sleep 0.1; done
}

# hold_start CG NAME [CONNS KIB]: skm-hold in CG (made if missing), CONNS
# connections (default 4) each queueing KIB KiB (default 512) unread, its
# output in /tmp/hold.NAME; its pid in $pid once it printed "ready".
hold_start() {
	mkdir -p "$1"
	in_cgroup_bg "$1" skm-hold -c "${3:-4}" -k "${4:-512}" > "/tmp/hold.$2" 2>&1
	pid=$bg
	_n=0
	until grep -qs ready "/tmp/hold.$2"; do
		_n=$((_n + 1))
		[ $_n -lt 600 ] || fail "skm-hold in $1 not ready: $(cat "/tmp/hold.$2")"
		sleep 0.1
	done
}

# hold_pump PID NAME: the holder drains what is queued and sends again,
# charging its memcg anew (an offline one too)
hold_pump() {
	_want=$(( $(grep -c pumped "/tmp/hold.$2") + 1 ))
	_n=0
	while [ "$(grep -c pumped "/tmp/hold.$2")" -lt $_want ]; do
		[ $((_n % 10)) -eq 0 ] && kill -USR1 "$1"
		_n=$((_n + 1))
		[ $_n -lt 600 ] || fail "skm-hold $2 did not pump"
		sleep 0.1
	done
}
