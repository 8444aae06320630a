# SPDX-License-Identifier: GPL-2.0
# Seed 000 at small scale (lib_burst.sh): stock gets OOM kills, memory.high
# avoids them by slowing the whole cgroup, skmemcg avoids them by throttling
# only the sockets. Configurations interleaved, BURST_ROUNDS rounds each;
# one run with the module loaded but throttle=0 must be killed like stock.
# That run asks only whether the burst is killed, so its burst lasts
# BURST_OFF_S (30 s, against BURST_S 8 s): the burst is bounded in time, and
# a guest slowed by its host may not reach memory.max in 8 s. On 7.3 with
# three guests on two cores (2026-12-03) it ran at 40% of its usual speed,
# sent 17 MiB and was not killed: memory.max (96 MiB) is reached when the
# unread queues (8 x 4 MiB) fill on top of the hog's 64 MiB.
#
# "free" (no memory.max; "unlimited" in the notes) is the reference: what
# the burst costs the hog in CPU alone. Comparing skmemcg with memory.high
# presumes memory.high throttles the cgroup: its tasks stall on memory
# (PSI) for a good part of the burst, where with no limit they do not
# (6.1.0-57 on 2026-12-07: 60-64 % of the burst against 0, skmemcg 0),
# and that costs the hog a quarter of its unlimited speed or more. Until
# 2026-12-07 the premise was the hog at most half its unlimited speed
# under memory.high (stock 6.1 on 2026-12-03: 6% against 94%, skmemcg
# 79%), kept for a kernel without PSI; but with three guests on two cores
# the burst's own CPU cost took the unlimited hog down to 33-50 % of its
# quiet speed in test runs, and to 20 % against memory.high's 13 % on 7.3
# in the test run of fcf037a, which then failed (skmemcg 63 %).
# THROTTLE_PREMISE=hard (default) fails when it does not; soft (make
# check-debug) notes it and leaves that comparison out: on the debug
# kernel the hog ran at 10-25% of its quiet speed during the burst under
# memory.high and skmemcg alike, and at 12-19% with no limit at all
# (2026-12-03): loopback UDP ran at 1/80 of its stock rate, the hog at 1/12.
. /tests/lib.sh
. /tests/lib_burst.sh

rounds=${BURST_ROUNDS:-3}
: > /tmp/results
i=0
while [ $i -lt "$rounds" ]; do
	configs="free stock high skmemcg"
	[ $i -eq 0 ] && configs="$configs off"
	for config in $configs; do
		if [ "$config" = off ]; then
			line=$(BURST_S=${BURST_OFF_S:-30}; burst_run off)
		else
			line=$(burst_run "$config")
		fi
		echo "$line"
		# burst_run runs in a subshell: its fail() ends only that.
		case $line in *FAIL:*) fail "round $i, $config: ${line#*FAIL: }" ;; esac
		echo "$line" >> /tmp/results
	done
	i=$((i + 1))
done

# sum CONFIG FIELD / min / max over the rounds
sum() { grep "config=$1 " /tmp/results | sed -n "s/.*\<$2=\([0-9.]*\).*/\1/p" | awk '{ s += $1 } END { print s + 0 }'; }
min() { grep "config=$1 " /tmp/results | sed -n "s/.*\<$2=\([0-9.]*\).*/\1/p" | sort -n | head -n 1; }
median() { grep "config=$1 " /tmp/results | sed -n "s/.*\<$2=\([0-9.]*\).*/\1/p" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

stock_runs_killed=$(grep "config=stock " /tmp/results | grep -vc "oom_kills=0 ")
note "oom kills: stock $(sum stock oom_kills) in $stock_runs_killed/$rounds runs," \
     "memory.high $(sum high oom_kills), skmemcg $(sum skmemcg oom_kills), unlimited $(sum free oom_kills)"
note "hog speed during the burst, % of quiet (median): unlimited $(median free hog_pct)," \
     "stock $(median stock hog_pct), memory.high $(median high hog_pct), skmemcg $(median skmemcg hog_pct)"
note "TCP sent MiB (median): stock $(median stock sent_mib), memory.high $(median high sent_mib)," \
     "skmemcg $(median skmemcg sent_mib), unlimited $(median free sent_mib)"
note "UDP datagrams/s during the burst (median): stock $(median stock udp_burst)," \
     "memory.high $(median high udp_burst), skmemcg $(median skmemcg udp_burst), unlimited $(median free udp_burst)"
note "memory stall during the burst, % of its time (median, PSI some): unlimited $(median free stall_pct)," \
     "stock $(median stock stall_pct), memory.high $(median high stall_pct), skmemcg $(median skmemcg stall_pct)"
note "throttled: tx $(sum skmemcg throttled_tx), rx $(sum skmemcg throttled_rx);" \
     "module loaded with throttle=0: $(sum off oom_kills) kills"

[ "$stock_runs_killed" -eq "$rounds" ] ||
	fail "stock was OOM-killed in only $stock_runs_killed of $rounds runs: the scenario does not reproduce"
expect_eq "OOM kills with skmemcg" "$(sum skmemcg oom_kills)" 0
[ "$(sum off oom_kills)" -gt 0 ] ||
	fail "with throttle=0 the module did not behave as stock (no kill; the burst sent $(sum off sent_mib) MiB)"
expect_eq "allocations suppressed with throttle=0" \
	"$(( $(sum off throttled_tx) + $(sum off throttled_rx) ))" 0
[ "$(min skmemcg sent_mib)" -gt 0 ] || fail "senders made no progress under skmemcg"
[ $(( $(sum skmemcg throttled_tx) + $(sum skmemcg throttled_rx) )) -gt 0 ] ||
	fail "skmemcg throttled nothing"
expect_eq "OOM kills with no memory limit" "$(sum free oom_kills)" 0
free_pct=$(median free hog_pct)
high_pct=$(median high hog_pct)
# The premise: memory.high throttled the cgroup, by PSI where the kernel
# has it (its tasks stalled on memory THROTTLE_STALL_PCT, 20, % of the
# burst or more; 5 % at most with no limit), and that cost the hog a
# quarter or more of its unlimited speed. Without PSI: half or more.
free_stall=$(median free stall_pct)
high_stall=$(median high stall_pct)
premise=0
if [ -n "$high_stall" ] && [ -n "$free_stall" ]; then
	[ "$high_stall" -ge "${THROTTLE_STALL_PCT:-20}" ] && [ "$free_stall" -le 5 ] &&
		[ $((4 * high_pct)) -le $((3 * free_pct)) ] && premise=1
	what="memory.high did not throttle the cgroup (stalled on memory $high_stall% of the burst, $free_stall% with no limit; the hog at $high_pct% against $free_pct%)"
else
	[ $((2 * high_pct)) -le "$free_pct" ] && premise=1
	what="no PSI, and memory.high did not slow the hog below half its speed with no limit ($high_pct% against $free_pct%)"
fi
if [ $premise = 1 ]; then
	[ "$(median skmemcg hog_pct)" -gt "$high_pct" ] ||
		fail "the workload's own work was not faster under skmemcg than under memory.high"
	[ -z "$high_stall" ] || [ "$(median skmemcg stall_pct)" -lt "$high_stall" ] ||
		fail "the workload stalled on memory as long under skmemcg as under memory.high"
else
	[ "${THROTTLE_PREMISE:-hard}" = soft ] || fail "$what: the scenario does not reproduce"
	note "$what: skmemcg against memory.high not judged (THROTTLE_PREMISE=soft)"
fi
[ "$(min skmemcg udp_burst)" -gt 0 ] || fail "UDP starved under skmemcg"
exit 0
