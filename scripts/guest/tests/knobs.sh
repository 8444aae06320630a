# SPDX-License-Identifier: GPL-2.0
# Every knob reads back what was written, through either interface (debugfs
# and /sys/module/skmemcg/parameters); bad writes are refused with EINVAL
# and leave the value as it was. The cgroup lists (exclusive_cgroups,
# throttle_cgroups, sock_limits) have their own checks below.
. /tests/lib.sh

load
n=0
for k in $(knobs); do
	n=$((n + 1))
	[ -f "$DBG/$k" ] || fail "$k: no debugfs twin"
	expect_eq "$k: debugfs and param agree" "$(cat $DBG/$k)" "$(cat $PAR/$k)"
done

# Garbage no knob takes.
COMMON_BAD='yes|yellow|-1|1 1|Y\nN| |99999999999999999999|\377\376|\n|1\n\n|on'
refused=0
checked=""

# check_knob KNOB "value=readback|..." "bad|bad|...": each valid value
# through each interface reads back through the other; each bad value (and
# the common garbage) is refused on both with the last valid value kept.
check_knob() {
	k=$1
	checked="$checked $k"
	echo "$2" | tr '|' '\n' > /tmp/valid
	while IFS= read -r pair; do
		v=${pair%%=*}
		want=${pair#*=}
		r=$(printf '%s\n' "$v" | skm-write "$DBG/$k")
		expect_eq "$k=$v via debugfs" "$r" ok
		expect_eq "$k after debugfs write" "$(cat $PAR/$k)" "$want"
		r=$(printf '%s' "$v" | skm-write "$PAR/$k")
		expect_eq "$k=$v via param" "$r" ok
		expect_eq "$k after param write" "$(cat $DBG/$k)" "$want"
		last=$want
	done < /tmp/valid
	# Each bad value (printf's escapes) written alone, the value read back
	# after each: one process per interface (skm-write -b), not three a value.
	echo "$3|$COMMON_BAD" | tr '|' '\n' > /tmp/bad
	nbad=$(($(wc -l < /tmp/bad)))
	for iface in "$DBG" "$PAR"; do
		r=$(skm-write -b "$iface/$k" "$PAR/$k" "$last" < /tmp/bad) ||
			fail "$iface/$k: a bad value not refused, or the value changed: $r"
		expect_eq "$iface/$k: bad values refused" "$r" "$nbad refused"
		refused=$((refused + nbad))
	done
	for iface in "$DBG" "$PAR"; do
		r=$(head -c 4096 /dev/zero | tr '\0' 1 | skm-write "$iface/$k")
		[ "$r" = ok ] && fail "$iface/$k took a 4096-byte value"
		expect_eq "$k kept after a long write" "$(cat $PAR/$k)" "$last"
	done
	# Empty: debugfs refuses it; sysfs drops an empty write before the setter.
	r=$(printf '' | skm-write "$DBG/$k")
	expect_eq "$DBG/$k <- ''" "$r" EINVAL
	return 0
}

BOOL='0=N|N=N|n=N|1=Y|Y=Y|y=Y'
check_knob enabled "$BOOL" '2|11|Yes|true'
check_knob instrument "$BOOL" '2|11|no'
check_knob throttle "$BOOL|0=N" '2|off'
check_knob throttle_level 'critical=critical|medium=medium' 'none|high|Medium|1|medium critical|medium,critical'
check_knob pressure_source 'psi=psi|events,psi=psi,events|headroom,vmpressure,psi,events=vmpressure,psi,events,headroom|vmpressure,psi,events,headroom=vmpressure,psi,events,headroom' \
	',|psi,|,psi|psi,,events|PSI|none|psi events|all'
check_knob pressure_hold_ms '1=1|60000=60000|250=250|1000=1000' '0|60001|1.5|1e3|0x10|+5|4294967296'
check_knob psi_some_pct '0=0|100=100|10=10' '101|4294967295|1.0'
check_knob psi_full_pct '0=0|100=100|5=5' '101|-0'
check_knob headroom_pct '0=0|50=50|5=5' '51|100'
check_knob exclusive "$BOOL" '2|exclusive'
check_knob exclusive_backstop_pct '0=0|10000=10000|200=200' '10001|-5|2e2'
check_knob pcpu_rsv 'auto=auto|0=auto|1=1|1048576=1048576|100=100|off=off' \
	'1048577|-1|Auto|OFF|1 MB|offf|4096k|auto,off'
check_knob pcpu_rsv_divisor '1=1|1024=1024|8=8' '0|1025|8.0'
check_knob pcpu_drain_ms '600000=600000|10=10|0=0' '600001|-10|1s'
check_knob pcpu_numa "$BOOL" '2|numa'
check_knob reclaim_policy 'cliff=cliff|seed=seed|linear=linear|kernel=kernel' \
	'Linear|none|seed,linear|1|kernel cliff'
check_knob reclaim_gain_pct '0=0|1000=1000|100=100' '1001|-1|1.5'
check_knob reclaim_dither "$BOOL" '2|dither'

# The cgroup lists: exclusive_cgroups, throttle_cgroups, sock_limits.
# "+path" (sock_limits: "+path=size") / "-path" only, one update a write;
# a path that names no cgroup yet waits for it ("... waiting" when read),
# and takes effect when it is made. The debugfs file and the parameter
# share one list.
# check_list LIST ADD READ BAD...: ADD follows "+path" in a write, READ in
# what reading shows; BAD are this list's own refused writes.
check_list() {
	k=$1 add=$2 rd=$3
	shift 3
	checked="$checked $k"
	for iface in "$DBG" "$PAR"; do
		f=$iface/$k
		for v in "+/knobs_ex$add" "+/sys/fs/cgroup/knobs_ex$add\n" '-/knobs_ex' '-/knobs_ex'; do
			expect_eq "$f <- $v" "$(printf "$v" | skm-write $f)" ok
		done
		expect_eq "$f after +/-" "$(cat $f)" ""
	done
	printf "+/knobs_ex$add" | skm-write $DBG/$k > /dev/null
	expect_eq "$k: param lists a debugfs add" "$(cat $PAR/$k)" "+/knobs_ex$rd"
	printf '%s' '-/knobs_ex' | skm-write $PAR/$k > /dev/null
	expect_eq "$k: debugfs after a param remove" "$(cat $DBG/$k)" ""
	printf "+/knobs_ex$add" | skm-write $PAR/$k > /dev/null
	for bad in '+' '-' '/knobs_ex' 'knobs_ex' '*/knobs_ex' "+knobs_ex$add" \
		   "+/knobs_ex x$add" "+/knobs_ex$add\n\n" '+\377' "++/knobs_ex$add" \
		   "+//knobs_ex$add" "+/knobs_ex/$add" "+/a/../knobs_ex$add" "+/./knobs_ex$add" "$@"; do
		for iface in "$DBG" "$PAR"; do
			expect_eq "$iface/$k <- '$bad'" "$(printf "$bad" | skm-write $iface/$k)" EINVAL
			expect_eq "$k kept after '$bad'" "$(cat $PAR/$k)" "+/knobs_ex$rd"
			refused=$((refused + 1))
		done
	done
	# Only debugfs sees the byte count: it refuses an empty write and an
	# embedded NUL; sysfs drops an empty write, and the parameter's string
	# ends at the NUL.
	for bad in '' "+/knobs_ex$add\0/x"; do
		expect_eq "$DBG/$k <- '$bad'" "$(printf "$bad" | skm-write $DBG/$k)" EINVAL
		refused=$((refused + 1))
	done
	expect_eq "$PAR/$k <- '+/knobs_ex$add\0/x'" \
		"$(printf "+/knobs_ex$add\0/x" | skm-write $PAR/$k)" ok
	expect_eq "$k kept (debugfs)" "$(cat $DBG/$k)" "+/knobs_ex$rd"
	expect_eq "$k kept (param)" "$(cat $PAR/$k)" "+/knobs_ex$rd"
	# Waiting: listed before it exists, in effect once made (its policy is
	# on: mem_cgroup_css_online is hooked), waiting again once removed,
	# until "-path".
	expect_eq "$k <- +/knobs_new (not made yet)" \
		"$(printf "+/knobs_new$add" | skm-write $PAR/$k)" ok
	expect_eq "$k lists it waiting" "$(grep knobs_new $DBG/$k)" "+/knobs_new$rd waiting"
	mkdir /sys/fs/cgroup/knobs_new
	expect_eq "$k once it is made" "$(grep knobs_new $PAR/$k)" "+/knobs_new$rd"
	rmdir /sys/fs/cgroup/knobs_new
	wait_list $DBG/$k knobs_new "+/knobs_new$rd waiting"
	printf '%s' '-/knobs_new' | skm-write $DBG/$k > /dev/null
	printf '%s' '-/knobs_ex' | skm-write $DBG/$k > /dev/null
	expect_eq "$k empty again" "$(cat $PAR/$k)" ""
}
mkdir -p /sys/fs/cgroup/knobs_ex
check_list exclusive_cgroups '' '' '+/knobs_ex=1M'
echo 1 > $PAR/throttle		# (off, the list is not watched: no mkdir seen)
check_list throttle_cgroups '' '' '+/knobs_ex=1M'
echo 0 > $PAR/throttle
check_list sock_limits '=1M' '=1048576' '+/knobs_ex' '+/knobs_ex=' '+/knobs_ex=1X' \
	'+/knobs_ex=1M=2M' '-/knobs_ex=1M' '+/knobs_ex=99999999999999999999' '+/knobs_ex=-1'
# A limit changed in place; sizes with each suffix.
for v in '1K=1024' '2m=2097152' '3G=3221225472' '1T=1099511627776' '0=0' '4097=4097'; do
	printf "+/knobs_ex=${v%%=*}" | skm-write $DBG/sock_limits > /dev/null
	expect_eq "sock_limits +/knobs_ex=${v%%=*}" "$(cat $PAR/sock_limits)" "+/knobs_ex=${v#*=}"
done
printf '%s' '-/knobs_ex' | skm-write $DBG/sock_limits > /dev/null
# A list holds at most 1024 entries; the next is ENOSPC.
i=0
while [ $i -lt 1024 ]; do
	echo "+/knobs_w$i" > $DBG/exclusive_cgroups || fail "exclusive_cgroups entry $i refused"
	i=$((i + 1))
done
expect_eq "exclusive_cgroups, entry 1025" \
	"$(printf '+/knobs_w1024' | skm-write $DBG/exclusive_cgroups)" ENOSPC
expect_eq "exclusive_cgroups param read, cut to a page" \
	"$(tail -n 1 $PAR/exclusive_cgroups | sed 's/[0-9][0-9]*//')" "#  more"
i=0
while [ $i -lt 1024 ]; do
	echo "-/knobs_w$i" > $DBG/exclusive_cgroups
	i=$((i + 1))
done
expect_eq "exclusive_cgroups emptied" "$(cat $DBG/exclusive_cgroups)" ""
rmdir /sys/fs/cgroup/knobs_ex

# Every knob has a check above.
for k in $(knobs); do
	echo " $checked " | grep -q " $k " || fail "knob $k has no check"
done

# stats and cgroups are read-only; stats is "name value" lines.
for f in stats cgroups; do
	r=$(printf '1' | skm-write "$DBG/$f")
	[ "$r" = ok ] && fail "$f is writable"
done
awk 'NF != 2 || $2 !~ /^[0-9]+$/ { bad = 1 } END { exit bad }' "$DBG/stats" ||
	fail "stats is not 'name value' lines: $(cat $DBG/stats)"
note "$n knobs checked; $refused bad writes refused with EINVAL, values kept"
unload

# The lists at load: one update per occurrence, made cgroups or not; a
# malformed one fails the load (and the lists built so far are freed with
# the module).
mkdir -p /sys/fs/cgroup/knobs_ex /sys/fs/cgroup/knobs_ex2
load exclusive_cgroups=+/knobs_ex exclusive_cgroups=+/sys/fs/cgroup/knobs_ex2 \
	exclusive_cgroups=+/knobs_later sock_limits=+/knobs_ex=64M throttle_cgroups=+/knobs_later
expect_eq "exclusive_cgroups given at load" \
	"$(sort $PAR/exclusive_cgroups | tr '\n' ' ')" "+/knobs_ex +/knobs_ex2 +/knobs_later waiting "
expect_eq "sock_limits given at load" "$(cat $PAR/sock_limits)" "+/knobs_ex=67108864"
expect_eq "throttle_cgroups given at load" "$(cat $PAR/throttle_cgroups)" "+/knobs_later waiting"
unload
expect_eq "load with a malformed entry" \
	"$(skm-insmod /lib/modules/$(uname -r)/extra/skmemcg.ko \
		exclusive_cgroups=+/knobs_ex exclusive_cgroups=+/knobs_ex//x)" EINVAL
lsmod | grep -q '^skmemcg ' && fail "module left loaded after a bad exclusive_cgroups"
rmdir /sys/fs/cgroup/knobs_ex /sys/fs/cgroup/knobs_ex2
exit 0
