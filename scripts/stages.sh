# SPDX-License-Identifier: GPL-2.0
# Stage bookkeeping shared by scripts/test.sh and scripts/check-debug.sh.
# Each stage appends one line "NAME PASSED FAILED SECONDS" to
# $SKM_RESULTS, so that stages run in parallel subshells (one chain of
# boots per kernel) are counted as well as those run in the script itself.
# Sourced after lib.sh.

SKM_RESULTS=${SKM_RESULTS:-$SKM_OUT/results.tsv}

# skm_results_reset: start counting afresh.
skm_results_reset() {
	: > "$SKM_RESULTS"
}

# skm_result NAME PASSED FAILED T0: record a finished stage begun at T0.
skm_result() {
	echo "$1 $2 $3 $(( $(date +%s) - $4 ))" >> "$SKM_RESULTS"
}

# stage NAME COMMAND...: a host stage that counts as one test; its output
# goes to $SKM_OUT/NAME.log and, if it fails, its last lines to stdout.
stage() {
	local name=$1 t0 rc
	shift
	t0=$(date +%s)
	"$@" > "$SKM_OUT/$name.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		skm_result "$name" 1 0 "$t0"
		echo "$name: PASS"
	else
		skm_result "$name" 0 1 "$t0"
		echo "$name: FAIL (log: $SKM_OUT/$name.log)"
		tail -n 30 "$SKM_OUT/$name.log" | sed 's/^/    /'
	fi
	return $rc
}

# counted NAME COMMAND...: a stage whose last line is "...: N passed, N
# failed"; its output is shown and kept in $SKM_OUT/NAME.log. No such line
# counts as one failure.
counted() {
	local name=$1 t0 last p f
	shift
	t0=$(date +%s)
	"$@" 2>&1 | tee "$SKM_OUT/$name.log"
	last=$(grep -E '[0-9]+ passed, [0-9]+ failed$' "$SKM_OUT/$name.log" | tail -n 1)
	# "N passed, N failed" alone too (a nested report, as matrix.sh's)
	p=$(echo "$last" | sed -E -n 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed$/\2/p')
	f=$(echo "$last" | sed -E -n 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed$/\3/p')
	if [ -z "$p" ]; then
		p=0 f=1
		echo "$name: no result line"
	fi
	skm_result "$name" "$p" "$f" "$t0"
}

# skm_results_report T_ALL: each stage's wall time, the total since T_ALL,
# and the closing "N passed, N failed". Returns 0 only if none failed.
skm_results_report() {
	local t_all=$1 passed failed
	echo
	echo "wall time per stage:"
	awk '{ printf "  %s %ss\n", $1, $4 }' "$SKM_RESULTS"
	echo "  total $(( $(date +%s) - t_all ))s"
	passed=$(awk '{ s += $2 } END { print s + 0 }' "$SKM_RESULTS")
	failed=$(awk '{ s += $3 } END { print s + 0 }' "$SKM_RESULTS")
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
