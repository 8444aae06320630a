# SPDX-License-Identifier: GPL-2.0
# Every knob reads back what was written, through either interface; bad
# writes are refused with EINVAL and leave the value as it was.
. /tests/lib.sh

load
n=0
for k in $(knobs); do
	n=$((n + 1))
	[ -f "$DBG/$k" ] || fail "$k: no debugfs twin"
	expect_eq "$k: debugfs and param agree" "$(cat $DBG/$k)" "$(cat $PAR/$k)"
done
[ "$n" -ge 2 ] || fail "only $n knobs found"

# Bool knobs: write each value through one interface, read through both.
for k in enabled instrument; do
	for v in 0 N n 1 Y y; do
		case $v in 0|N|n) want=N ;; *) want=Y ;; esac
		r=$(printf '%s\n' "$v" | skm-write "$DBG/$k")
		expect_eq "$k=$v via debugfs" "$r" ok
		expect_eq "$k after debugfs write" "$(cat $PAR/$k)" "$want"
		r=$(printf '%s' "$v" | skm-write "$PAR/$k")
		expect_eq "$k=$v via param" "$r" ok
		expect_eq "$k after param write" "$(cat $DBG/$k)" "$want"
	done
done

# Refused: garbage, partial, trailing junk, empty, huge, negative, non-UTF8.
refused=0
for k in enabled instrument; do
	printf 'Y' | skm-write "$DBG/$k" >/dev/null
	for iface in "$DBG" "$PAR"; do
		for bad in yes yellow 2 -1 "1 1" "11" "Y\nN" "" " " "on" \
			   "99999999999999999999" "\377\376" "\n"; do
			r=$(printf "$bad" | skm-write "$iface/$k")
			# sysfs turns an empty write into a no-op success.
			[ -z "$bad" ] && [ "$iface" = "$PAR" ] && continue
			expect_eq "$iface/$k <- '$bad'" "$r" EINVAL
			refused=$((refused + 1))
			expect_eq "$k kept after '$bad'" "$(cat $PAR/$k)" Y
		done
		r=$(head -c 4096 /dev/zero | tr '\0' 1 | skm-write "$iface/$k")
		[ "$r" = ok ] && fail "$iface/$k took a 4096-byte value"
		expect_eq "$k kept after a long write" "$(cat $PAR/$k)" Y
	done
done

note "$refused bad writes refused with EINVAL, values kept"

# stats is read-only and lists name/value pairs.
r=$(printf '1' | skm-write "$DBG/stats")
[ "$r" = ok ] && fail "stats is writable"
awk 'NF != 2 || $2 !~ /^[0-9]+$/ { bad = 1 } END { exit bad }' "$DBG/stats" ||
	fail "stats is not 'name value' lines: $(cat $DBG/stats)"
unload
exit 0
