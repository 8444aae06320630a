#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/skmemcg-exporter against a fake /sys/module/skmemcg and
# /sys/kernel/debug/skmemcg (SKMEMCG_SYSFS, SKMEMCG_DEBUGFS), no module
# needed. The fake tree is made from the code, so that a new stats line,
# knob or cgroups column shows up here: the stats names from
# skm_stats_show() (module/debugfs.c) and the functions it calls, the
# stat names of module/stats.c, the knobs and their kinds from
# module_param*() in module/*.c, the cgroups header from the policies'
# cgroup_header in the order of policy_list.h (as skm_memcg_show() prints it). Each value is given in the format the kernel
# prints it.
#
# Checks, each one test:
#   promtool      "promtool check metrics" passes on the output (loaded,
#                 not loaded, debugfs unreadable)
#   help-type     every sample's family has one HELP and one TYPE line
#   stats         every stats line is a metric with the same value:
#                 skmemcg_<name> (gauges), skmemcg_<name>_total (counters),
#                 *_ns as *_seconds_total
#   knobs         every knob: bool 1/0, numbers in base units, text as
#                 skmemcg_knob_info, exclusive_cgroups as a count and a
#                 series per cgroup
#   cgroups       every column of every cgroups line, per cgroup label
#                 (paths with a space, a quote and a backslash)
#   hostile       cgroup names with bytes that are not UTF-8 (0xff, a cut
#                 sequence, a surrogate, an overlong form), control bytes,
#                 valid multibyte UTF-8, a backslash: promtool passes, and
#                 each label reads as the documented escape
#   cap           --max-cgroups 1 of 3: one cgroup's series, and
#                 skmemcg_exporter_cgroups_omitted 2
#   symlink       --output with a link planted at the temporary name (a
#                 stub mktemp names it) and one at FILE: the links' target
#                 is never written
#   not-loaded    no /sys/module/skmemcg: exactly skmemcg_loaded 0, exit 0
#   unreadable    debugfs missing: skmemcg_debugfs_readable 0, the knobs,
#                 no stats or cgroups metrics
#   output        --output FILE: FILE replaced by rename (new inode), same
#                 bytes as stdout, no temporary file left; a failed rename
#                 (a stub mv) leaves the old FILE and no temporary file
#   shells        the output is the same byte for byte under /bin/sh, bash
#                 and busybox sh with busybox's awk, mv and rm only (when
#                 /bin/busybox exists)
#
# SKM_EXPORTER_TEST_BREAK=<check> breaks that check's fixture or input on
# purpose, to show that the check can fail. SKM_EXPORTER_TEST_KEEP=1 keeps
# the fake tree and the outputs (the folder is printed).
#
# Last line: "exporter-test: N passed, N failed". Exit 0 only if none failed.
#
#   scripts/exporter-test.sh
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh disable=SC1091
. "$(dirname "$0")/lib.sh"

exporter=$SKM_ROOT/scripts/skmemcg-exporter
brk=${SKM_EXPORTER_TEST_BREAK:-}
promtool=$(skm_promtool)
[ -n "$promtool" ] || skm_die "no promtool: run scripts/setup.sh (it unpacks Debian's prometheus package)"
tmp=$(mktemp -d)
if [ -n "${SKM_EXPORTER_TEST_KEEP:-}" ]; then
	trap 'echo "NOTE fake tree and outputs kept in $tmp"' EXIT
else
	trap 'rm -rf "$tmp"' EXIT
fi
passed=0
failed=0

pass() {
	echo "PASS $1"
	passed=$((passed + 1))
}

# fail CHECK WHY...
fail() {
	local c=$1
	shift
	echo "FAIL $c: $*"
	failed=$((failed + 1))
}

# ---------------------------------------------------------------- fixture
cd "$SKM_ROOT"
sys=$tmp/sys
dbg=$tmp/dbg
mkdir -p "$sys/parameters" "$dbg"
sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf > "$sys/version"

# stats: the names in the order skm_stats_show() prints them.
fn_body() { # FILE FUNCTION: the lines of FUNCTION's definition in FILE
	sed -n "/^[a-z].*[ *]$2(/,/^}/p" "$1"
}
show=$(fn_body module/debugfs.c skm_stats_show)
[ -n "$show" ] || skm_die "no skm_stats_show() in module/debugfs.c"
stat_names=()
while IFS= read -r l; do
	case $l in
	*'seq_printf(m, "%s %lu\n", skm_stat_name(stat)'*)
		mapfile -t -O "${#stat_names[@]}" stat_names < <(sed -n \
			's/^\t\[SKM_STAT_[A-Z_]*\][[:space:]]*= "\([a-z_]*\)",$/\1/p' module/stats.c) ;;
	*'seq_printf(m, "'[a-z]*)
		n=${l#*seq_printf(m, \"}
		stat_names+=("${n%% *}") ;;
	*skm_*_show_stats\(m\)\;*)
		f=${l%%(m);*}
		f=${f##*[!a-z_]}
		file=$(grep -l "^void $f(struct seq_file \*m)" module/*.c) ||
			skm_die "no definition of $f() in module/"
		mapfile -t -O "${#stat_names[@]}" stat_names < <(fn_body "$file" "$f" |
			sed -n 's/.*seq_printf(m, "\([a-z_]*\) %.*/\1/p') ;;
	esac
done <<< "$show"
[ "${#stat_names[@]}" -ge 20 ] || skm_die "found only ${#stat_names[@]} stats names in the code: ${stat_names[*]}"

# Gauges; every other stats line is a counter.
gauges=" hooks_installed exclusive_sockets exclusive_pages pcpu_rsv_pages pcpu_uncertainty_pages senders_parked_now drift_checks drift_mismatches drift_refused_throttle drift_refused_exclusive drift_refused_reclaim drift_refused_sock_limits drift_allowed_untested hook_entry_direct hooks_direct hooks_ops reclaim_protection_path_by_skmemcg "
declare -A stat_val=() stat_metric=() stat_want=()
i=0
for n in "${stat_names[@]}"; do
	i=$((i + 1))
	v=$((1000 + i))
	want=$v
	case $n in
	*_ns) v=1234567890123 want=1234.567890123 ;;
	throttled_tx) v=18446744073709551615 want=$v ;;	# no float on the way
	pressure_critical) v=0 want=0 ;;
	esac
	if [[ $gauges == *" $n "* ]]; then
		metric=skmemcg_$n
	else
		metric=skmemcg_${n%_ns}
		[ "$metric" = "skmemcg_$n" ] || metric=${metric}_seconds
		metric=${metric}_total
	fi
	stat_val[$n]=$v
	stat_metric[$n]=$metric
	stat_want[$n]=$want
done
[ "$brk" != stats ] || stat_val[throttled_rx]=12x
for n in "${stat_names[@]}"; do
	printf '%s %s\n' "$n" "${stat_val[$n]}"
done > "$dbg/stats"

# knobs: every module_param*() with a sysfs file (permission not 0), by
# the kind of its ops or type, with a value as its get() prints it.
declare -A knob_kind=() knob_val=() knob_lines=()
while read -r name kind perm; do
	[ "$perm" != 0 ] || continue
	knob_kind[$name]=$kind
done < <(tr '\n\t' '  ' < <(cat module/*.c) |
	grep -oE 'module_param(_cb|_named)? *\( *[a-z0-9_]+ *,[^;]*\) *;' |
	sed -E 's/^module_param_cb *\( *([a-z0-9_]+) *, *&([a-z0-9_]+) *,.*, *([0-9]+) *\) *;$/\1 \2 \3/;
		s/^module_param(_named)? *\( *([a-z0-9_]+) *,.*, *([a-z]+) *, *([0-9]+) *\) *;$/\2 \3 \4/')
[ "${#knob_kind[@]}" -ge 15 ] || skm_die "found only ${#knob_kind[@]} knobs in the code"
declare -A text_val=([throttle_level]=critical [pressure_source]="psi,headroom"
	[pcpu_rsv]=auto [reclaim_policy]=linear)
bools=0
for name in "${!knob_kind[@]}"; do
	case ${knob_kind[$name]} in
	skm_bool_ops | bool)
		bools=$((bools + 1))
		v=N
		[ $((bools % 2)) -eq 0 ] || v=Y
		knob_val[$name]=$v ;;
	skm_uint_ops | uint | int | ulong)
		case $name in
		*_ms) v=1500 ;;
		*_pct) v=25 ;;
		*) v=7 ;;
		esac
		knob_val[$name]=$v ;;
	skm_fmt_ops | charp)
		[ -n "${text_val[$name]:-}" ] || skm_die "knob $name: the test has no text value for it"
		knob_val[$name]=${text_val[$name]} ;;
	skm_cglist_param_ops)
		# as skm_cglist_param_get() prints it
		case $name in
		sock_limits) knob_lines[$name]=$'+/tenant-a=1048576\n+/later/c"d\\e=4096 waiting\n# 2 more' ;;
		*) knob_lines[$name]=$'+/tenant-a\n+/later/c"d\\e waiting\n# 2 more' ;;
		esac ;;
	*)
		skm_die "knob $name has ops or type ${knob_kind[$name]}, which this test does not know" ;;
	esac
done
[ "$brk" != knobs ] || knob_val[enabled]=maybe
for name in "${!knob_kind[@]}"; do
	if [ -n "${knob_lines[$name]:-}" ]; then
		printf '%s\n' "${knob_lines[$name]}"
	else
		printf '%s\n' "${knob_val[$name]}"
	fi > "$sys/parameters/$name"
done

# cgroups: the header as skm_memcg_show() prints it, three memcgs.
# "# cgroup", then each registered policy's cgroup_header, in the order of
# policy_list.h (main.c's skm_policy_table)
header="# cgroup"
for pol in $(sed -n 's/^SKM_POLICY([A-Z_]*, *\([a-z_]*\))$/skm_policy_\1/p' module/policy_list.h); do
	h=$(sed -n "/^const struct skm_policy $pol = {/,/^};/s/.*\.cgroup_header = \"\([^\"]*\)\",.*/\1/p" module/*.c)
	header="$header$h"
done
[ "$header" != "# cgroup" ] || skm_die "no cgroups header from the policies of module/policy_list.h"
read -ra cols <<< "${header#\# }"
cg_paths=(/ /system.slice/web.service '/a b/c"d\e')
# column -> "value value value" for the three memcgs; and what to expect
declare -A cg_in=(
	[level]="none medium critical"
	[expires_ms]="0 750 1"
	[throttled_tx]="0 12 18446744073709551615"
	[throttled_rx]="0 3 0"
	[exclusive]="no yes no"
	[protection_kib]="0 1024 0"
	[usage_kib]="0 2048 3"
	[scan_pct]="- 12.3 100.0"
	[sock_limit_kib]="- 1024 4"
	[sock_kib]="- 512 9"
	[limited]="- 7 0")
declare -A cg_metric=(
	[level]=skmemcg_cgroup_pressure_level
	[expires_ms]=skmemcg_cgroup_pressure_expires_seconds
	[throttled_tx]=skmemcg_cgroup_throttled_tx_total
	[throttled_rx]=skmemcg_cgroup_throttled_rx_total
	[exclusive]=skmemcg_cgroup_exclusive
	[protection_kib]=skmemcg_cgroup_reclaim_protection_bytes
	[usage_kib]=skmemcg_cgroup_reclaim_usage_bytes
	[scan_pct]=skmemcg_cgroup_reclaim_scan_ratio
	[sock_limit_kib]=skmemcg_cgroup_sock_limit_bytes
	[sock_kib]=skmemcg_cgroup_sock_bytes
	[limited]=skmemcg_cgroup_limited_total)
declare -A cg_want=(
	[level]="0 1 2"
	[expires_ms]="0 0.75 0.001"
	[throttled_tx]="0 12 18446744073709551615"
	[throttled_rx]="0 3 0"
	[exclusive]="0 1 0"
	[protection_kib]="0 1048576 0"
	[usage_kib]="0 2097152 3072"
	[scan_pct]="- 0.123 1"
	[sock_limit_kib]="- 1048576 4096"
	[sock_kib]="- 524288 9216"
	[limited]="- 7 0")
for c in "${cols[@]:1}"; do
	[ -n "${cg_in[$c]:-}" ] || skm_die "cgroups column $c: the test has no values for it"
done
{
	echo "$header"
	for r in 0 1 2; do
		line=${cg_paths[r]}
		for c in "${cols[@]:1}"; do
			read -ra vals <<< "${cg_in[$c]}"
			[ "$brk$r$c" != cgroups1scan_pct ] || continue
			line="$line ${vals[r]}"
		done
		echo "$line"
	done
} > "$dbg/cgroups"

# ---------------------------------------------------------------- runs
# Busybox: a folder with only its applets, so that nothing else is used.
bb=
if [ -x /bin/busybox ]; then
	bb=$tmp/bb
	mkdir -p "$bb"
	for a in sh awk mv rm cat mktemp; do ln -s /bin/busybox "$bb/$a"; done
fi

# run SHELL OUT [ARGS...]: the exporter under SHELL (sh, bash or busybox)
# on the fixture (SKMEMCG_SYSFS and SKMEMCG_DEBUGFS as set by the caller).
run() {
	local shell=$1 out=$2
	shift 2
	case $shell in
	busybox) env PATH="$bb" SKMEMCG_SYSFS="$S" SKMEMCG_DEBUGFS="$D" \
		/bin/busybox sh "$exporter" "$@" > "$out" ;;
	*) SKMEMCG_SYSFS="$S" SKMEMCG_DEBUGFS="$D" "$shell" "$exporter" "$@" > "$out" ;;
	esac
}

S=$sys D=$dbg
run sh "$tmp/loaded.prom" || skm_die "exporter exited $? on the fixture"
S=$tmp/nothing D=$dbg
[ "$brk" != not-loaded ] || S=$sys
rc=0
run sh "$tmp/notloaded.prom" || rc=$?
S=$sys D=$tmp/nothing
[ "$brk" != unreadable ] || D=$dbg
run sh "$tmp/unreadable.prom" || skm_die "exporter exited $? with debugfs missing"
out=$tmp/loaded.prom

# has METRIC-AND-LABELS VALUE: is "METRIC-AND-LABELS VALUE" a line of $out?
has() {
	grep -qxF -- "$1 $2" "$out"
}

# ---------------------------------------------------------------- checks
# promtool
bad=
for f in loaded notloaded unreadable; do
	cp "$tmp/$f.prom" "$tmp/$f.check"
	[ "$brk" != promtool ] || sed -i 's/^# TYPE skmemcg_loaded gauge$/# TYPE skmemcg_loaded counter/' "$tmp/$f.check"
	if ! r=$("$promtool" check metrics < "$tmp/$f.check" 2>&1); then
		bad="$bad $f: $r;"
	fi
done
if [ -z "$bad" ]; then pass promtool; else fail promtool "$bad"; fi

# help-type: each sample's family (its name, or the name less _total
# for a counter, as the format allows nothing else here) has one HELP and
# one TYPE, before its samples
cp "$out" "$tmp/ht.check"
[ "$brk" != help-type ] || sed -i '/^# HELP skmemcg_knob_info /d' "$tmp/ht.check"
r=$(awk '
	/^# HELP / { help[$3]++; next }
	/^# TYPE / { type[$3]++; next }
	/^#/ { next }
	{
		m = $0; sub(/[{ ].*/, "", m)
		if (help[m] != 1 || type[m] != 1) print m
	}' "$tmp/ht.check" | sort -u)
if [ -z "$r" ]; then pass help-type; else fail help-type "no single HELP and TYPE before: ${r//$'\n'/ }"; fi

# stats
bad=
for n in "${stat_names[@]}"; do
	m=${stat_metric[$n]}
	type=counter
	[[ $gauges != *" $n "* ]] || type=gauge
	has "$m" "${stat_want[$n]}" || bad="$bad $n->$m=${stat_want[$n]}($(grep "^$m " "$out" || echo none))"
	grep -qx "# TYPE $m $type" "$out" || bad="$bad $n:not-$type"
done
if [ -z "$bad" ]; then pass "stats (${#stat_names[@]} lines)"; else fail stats "$bad"; fi

# knobs
bad=
for name in "${!knob_kind[@]}"; do
	v=${knob_val[$name]:-}
	case ${knob_kind[$name]} in
	skm_bool_ops | bool)
		w=0
		[ "$v" != Y ] || w=1
		has "skmemcg_knob_$name" "$w" || bad="$bad $name" ;;
	skm_uint_ops | uint | int | ulong)
		case $name in
		*_ms) has "skmemcg_knob_${name%_ms}_seconds" 1.5 || bad="$bad $name" ;;
		*_pct) has "skmemcg_knob_${name%_pct}_ratio" 0.25 || bad="$bad $name" ;;
		*) has "skmemcg_knob_$name" 7 || bad="$bad $name" ;;
		esac ;;
	skm_fmt_ops | charp)
		has "skmemcg_knob_info{knob=\"$name\",value=\"$v\"}" 1 || bad="$bad $name" ;;
	skm_cglist_param_ops)
		m=skmemcg_knob_${name%s}
		has "skmemcg_knob_$name" 4 &&
		has "$m{cgroup=\"/tenant-a\"}" 1 &&
		has "$m{cgroup=\"/later/c\\\"d\\\\\\\\e\"}" 0 || bad="$bad $name"
		if [ "$name" = sock_limits ]; then
			has 'skmemcg_knob_sock_limit_bytes{cgroup="/tenant-a"}' 1048576 &&
			has 'skmemcg_knob_sock_limit_bytes{cgroup="/later/c\"d\\\\e"}' 4096 ||
				bad="$bad $name-bytes"
		fi ;;
	esac
done
if [ -z "$bad" ]; then pass "knobs (${#knob_kind[@]})"; else fail knobs "missing or wrong:$bad"; fi

# cgroups
bad=
for c in "${cols[@]:1}"; do
	read -ra wants <<< "${cg_want[$c]}"
	for r in 0 1 2; do
		p=${cg_paths[r]//\\/\\\\\\\\}
		p=${p//\"/\\\"}
		sel="${cg_metric[$c]}{cgroup=\"$p\"}"
		if [ "${wants[r]}" = - ]; then
			! grep -qF -- "$sel " "$out" || bad="$bad $sel(should be absent)"
		else
			has "$sel" "${wants[r]}" || bad="$bad $sel=${wants[r]}"
		fi
	done
done
if [ -z "$bad" ]; then pass "cgroups (${#cols[@]} columns x ${#cg_paths[@]} memcgs)"; else fail cgroups "$bad"; fi

# sock-throttled: the 6.19 memory.events name, throttled TX + RX + limited
bad=
st_want=(0 22 18446744073709551615)
for r in 0 1 2; do
	p=${cg_paths[r]//\\/\\\\\\\\}
	p=${p//\"/\\\"}
	has "skmemcg_cgroup_sock_throttled_total{cgroup=\"$p\"}" "${st_want[r]}" ||
		bad="$bad ${cg_paths[r]}=${st_want[r]}($(grep -F "sock_throttled_total{cgroup=\"$p\"}" "$out" || echo none))"
done
grep -qx '# TYPE skmemcg_cgroup_sock_throttled_total counter' "$out" || bad="$bad not-a-counter"
if [ -z "$bad" ]; then pass sock-throttled; else fail sock-throttled "$bad"; fi

# not-loaded
want=$'# HELP skmemcg_loaded Whether the skmemcg module is loaded (1) or not (0)\n# TYPE skmemcg_loaded gauge\nskmemcg_loaded 0'
if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/notloaded.prom")" = "$want" ]; then
	pass not-loaded
else
	fail not-loaded "exit $rc, output: $(grep -v '^#' "$tmp/notloaded.prom" | head -n 3 | tr '\n' ' ')"
fi

# unreadable
u=$tmp/unreadable.prom
if grep -qx 'skmemcg_debugfs_readable 0' "$u" && grep -qx 'skmemcg_loaded 1' "$u" &&
	grep -q '^skmemcg_knob_' "$u" &&
	! grep -qE '^skmemcg_(cgroup_|hooks_installed|throttled_|stat_)' "$u"; then
	pass unreadable
else
	fail unreadable "$(grep -v '^#' "$u" | head -n 5 | tr '\n' ' ')"
fi

# output
S=$sys D=$dbg
f=$tmp/textfile/skmemcg.prom
mkdir -p "$tmp/textfile"
echo "# old" > "$f"
ino0=$(stat -c %i "$f")
# A stub mv that fails, for the failed write (and, broken, for the first).
mkdir -p "$tmp/failmv"
printf '#!/bin/sh\nexit 1\n' > "$tmp/failmv/mv"
chmod +x "$tmp/failmv/mv"
leftover() { find "$tmp/textfile" -name '.skmemcg-exporter.*' | head -n 1; }
rc=0
if [ "$brk" = output ]; then
	PATH="$tmp/failmv:$PATH" run sh /dev/null --output "$f" 2> "$tmp/output.err" || rc=$?
else
	run sh /dev/null --output "$f" 2> "$tmp/output.err" || rc=$?
fi
if [ "$rc" -eq 0 ] && [ -f "$f" ] && [ -z "$(leftover)" ] && cmp -s "$f" "$out" &&
	[ "$(stat -c %i "$f")" != "$ino0" ]; then
	# and a write that fails leaves the old file
	echo "# old" > "$f"
	rc2=0
	PATH="$tmp/failmv:$PATH" run sh /dev/null --output "$f" 2> /dev/null || rc2=$?
	if [ "$rc2" -ne 0 ] && [ "$(cat "$f")" = "# old" ] && [ -z "$(leftover)" ]; then
		pass output
	else
		fail output "a failed write: exit $rc2, file now: $(head -n 1 "$f"), left: $(leftover)"
	fi
else
	fail output "exit $rc ($(cat "$tmp/output.err")), $f $( [ -f "$f" ] && echo present || echo absent)," \
		"temporary $(leftover), same as stdout: $(cmp -s "$f" "$out" && echo yes || echo no)," \
		"inode $ino0 -> $(stat -c %i "$f" 2>/dev/null)"
fi

# hostile: the bytes of each name, and its label as the exporter's header
# comment documents it (the text format's escapes applied)
hd=$tmp/hostile
mkdir -p "$hd"
names=('/bad\377x' '/e\303\251\342\202\254\360\237\230\200' '/cut\342\202'
	'/surrogate\355\240\200' '/overlong\300\257' '/tab\tx' '/ctl\001y'
	'/bs\\x\\xff"q' '/tenant a/pod\177')
labels=('/bad\\xffx' $'/e\303\251\342\202\254\360\237\230\200' '/cut\\xe2\\x82'
	'/surrogate\\xed\\xa0\\x80' '/overlong\\xc0\\xaf' '/tab\\x09x' '/ctl\\x01y'
	'/bs\\\\x\\\\xff\"q' '/tenant a/pod\\x7f')
{
	echo "# cgroup level"
	for n in "${names[@]}"; do
		printf "$n none\n"
	done
} > "$hd/cgroups"
cp "$dbg/stats" "$hd/stats"
S=$sys D=$hd
run sh "$tmp/hostile.prom" || fail hostile "exit $?"
# broken: a label as an exporter that does not escape would write it
[ "$brk" != hostile ] || sed -i 's|/bad\\\\xffx|/bad\xffx|' "$tmp/hostile.prom"
bad=
if ! r=$("$promtool" check metrics < "$tmp/hostile.prom" 2>&1); then
	bad="promtool: $r;"
fi
for l in "${labels[@]}"; do
	grep -qxF "skmemcg_cgroup_pressure_level{cgroup=\"$l\"} 0" "$tmp/hostile.prom" ||
		bad="$bad no label $l;"
done
if [ -z "$bad" ]; then pass "hostile (${#names[@]} names)"; else fail hostile "$bad"; fi

# cap
S=$sys D=$dbg
cap=1
[ "$brk" != cap ] || cap=3
run sh "$tmp/cap.prom" --max-cgroups "$cap" || fail cap "exit $?"
n=$(grep -c '^skmemcg_cgroup_pressure_level{' "$tmp/cap.prom" || true)
if [ "$n" = 1 ] && grep -qx 'skmemcg_exporter_cgroups_omitted 2' "$tmp/cap.prom"; then
	pass cap
else
	fail cap "$n cgroups exported, $(grep '^skmemcg_exporter_cgroups_omitted' "$tmp/cap.prom")"
fi

# symlink: a link at the temporary name (a stub mktemp prints it) must
# fail the write, under sh and bash (busybox sh runs its own mktemp applet,
# which no stub replaces); a link at FILE is replaced, not followed, under
# every shell
bad=
mkdir -p "$tmp/stubmk"
printf '#!/bin/sh\necho "$SKM_TEST_TMPNAME"\n' > "$tmp/stubmk/mktemp"
chmod +x "$tmp/stubmk/mktemp"
for sh in sh bash ${bb:+busybox}; do
	victim=$tmp/victim-$sh
	d=$tmp/links-$sh
	mkdir -p "$d"
	echo "precious" > "$victim"
	S=$sys D=$dbg
	if [ "$sh" != busybox ]; then
		export SKM_TEST_TMPNAME=$d/.skmemcg-exporter.planted
		ln -sf "$victim" "$SKM_TEST_TMPNAME"
		[ "$brk" != symlink ] || rm -f "$SKM_TEST_TMPNAME"
		rc=0
		PATH="$tmp/stubmk:$PATH" run "$sh" /dev/null --output "$d/skmemcg.prom" 2> /dev/null || rc=$?
		[ "$rc" -ne 0 ] || bad="$bad $sh:wrote-to-a-planted-temporary-name"
		[ "$(cat "$victim")" = precious ] || bad="$bad $sh:victim-overwritten-via-temporary"
		rm -f "$SKM_TEST_TMPNAME" "$d/skmemcg.prom"
	fi
	# a link at FILE
	ln -sf "$victim" "$d/skmemcg.prom"
	rc=0
	run "$sh" /dev/null --output "$d/skmemcg.prom" 2> /dev/null || rc=$?
	[ "$rc" -eq 0 ] && [ ! -L "$d/skmemcg.prom" ] && cmp -s "$d/skmemcg.prom" "$out" ||
		bad="$bad $sh:link-at-FILE(exit $rc)"
	[ "$(cat "$victim")" = precious ] || bad="$bad $sh:victim-overwritten-via-FILE"
done
unset SKM_TEST_TMPNAME
if [ -z "$bad" ]; then pass "symlink (sh bash${bb:+, FILE under busybox too})"; else fail symlink "$bad"; fi

# shells
bad=
shells="bash"
[ -z "$bb" ] || shells="$shells busybox"
for sh in $shells; do
	S=$sys D=$dbg
	if [ "$brk" = shells ] && [ "$sh" = busybox ]; then
		cp -r "$dbg" "$tmp/dbg2"
		sed -i 's/^hooks_installed .*/hooks_installed 1/' "$tmp/dbg2/stats"
		D=$tmp/dbg2
	fi
	for case in loaded notloaded; do
		[ "$case" = loaded ] || S=$tmp/nothing
		run "$sh" "$tmp/$sh-$case.prom" || bad="$bad $sh:$case:exit-$?"
		cmp -s "$tmp/$sh-$case.prom" "$tmp/$case.prom" ||
			bad="$bad $sh:$case: $({ diff "$tmp/$case.prom" "$tmp/$sh-$case.prom" || true; } |
				awk '/^[<>]/ && n++ < 2 { printf "%s ", $0 }')"
	done
done
if [ -z "$bb" ]; then
	echo "NOTE no /bin/busybox: the busybox run is left out"
fi
if [ -z "$bad" ]; then pass "shells (sh = $(readlink -f /bin/sh), $shells)"; else fail shells "$bad"; fi

echo "exporter-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ] || exit 1
