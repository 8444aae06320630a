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
# presumes memory.high slows the hog beyond that, to at most half of the
# unlimited speed (stock 6.1 on 2026-12-03: 6% against 94%, skmemcg 79%).
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
if [ $((2 * high_pct)) -le "$free_pct" ]; then
	[ "$(median skmemcg hog_pct)" -gt "$high_pct" ] ||
		fail "the workload's own work was not faster under skmemcg than under memory.high"
else
	what="memory.high did not slow the hog below half its speed with no limit ($high_pct% against $free_pct%)"
	[ "${THROTTLE_PREMISE:-hard}" = soft ] || fail "$what: the scenario does not reproduce"
	note "$what: skmemcg against memory.high not judged (THROTTLE_PREMISE=soft)"
fi
[ "$(min skmemcg udp_burst)" -gt 0 ] || fail "UDP starved under skmemcg"
exit 0
