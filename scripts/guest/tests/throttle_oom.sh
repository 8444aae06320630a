# SPDX-License-Identifier: GPL-2.0
# Seed 000 at small scale (lib_burst.sh): stock gets OOM kills, memory.high
# avoids them by slowing the whole cgroup, skmemcg avoids them by throttling
# only the sockets. Configurations interleaved, BURST_ROUNDS rounds each;
# one run with the module loaded but throttle=0 must be killed like stock.
. /tests/lib.sh
. /tests/lib_burst.sh

rounds=${BURST_ROUNDS:-3}
: > /tmp/results
i=0
while [ $i -lt "$rounds" ]; do
	configs="stock high skmemcg"
	[ $i -eq 0 ] && configs="$configs off"
	for config in $configs; do
		line=$(burst_run $config)
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
     "memory.high $(sum high oom_kills), skmemcg $(sum skmemcg oom_kills)"
note "hog speed during the burst, % of quiet (median): stock $(median stock hog_pct)," \
     "memory.high $(median high hog_pct), skmemcg $(median skmemcg hog_pct)"
note "TCP sent MiB (median): stock $(median stock sent_mib), memory.high $(median high sent_mib)," \
     "skmemcg $(median skmemcg sent_mib)"
note "UDP datagrams/s during the burst (median): stock $(median stock udp_burst)," \
     "memory.high $(median high udp_burst), skmemcg $(median skmemcg udp_burst)"
note "throttled: tx $(sum skmemcg throttled_tx), rx $(sum skmemcg throttled_rx);" \
     "module loaded with throttle=0: $(sum off oom_kills) kills"

[ "$stock_runs_killed" -eq "$rounds" ] ||
	fail "stock was OOM-killed in only $stock_runs_killed of $rounds runs: the scenario does not reproduce"
expect_eq "OOM kills with skmemcg" "$(sum skmemcg oom_kills)" 0
[ "$(sum off oom_kills)" -gt 0 ] || fail "with throttle=0 the module did not behave as stock (no kill)"
[ "$(min skmemcg sent_mib)" -gt 0 ] || fail "senders made no progress under skmemcg"
[ $(( $(sum skmemcg throttled_tx) + $(sum skmemcg throttled_rx) )) -gt 0 ] ||
	fail "skmemcg throttled nothing"
[ "$(median skmemcg hog_pct)" -gt "$(median high hog_pct)" ] ||
	fail "the workload's own work was not faster under skmemcg than under memory.high"
[ "$(min skmemcg udp_burst)" -gt 0 ] || fail "UDP starved under skmemcg"
exit 0
