# SPDX-License-Identifier: GPL-2.0
# No unbounded waits: servers blocked with no peer in accept(), recv() and
# connect() (skm-block), in a cgroup that every policy covers, while every
# policy is flipped off and on, and then while the module is unloaded. Each
# flip and the unload must return within FLIP_MAX_S seconds (the write(2)
# or delete_module(2) alone), and every parameter, read again and again
# while a flip runs, within READ_MAX_S. Afterwards every blocked call
# completes once its peer comes, with the module gone.
#
# No hook is on an accept()'s way (exclusive accounting takes an accepted
# child where its memcg is bound, mem_cgroup_sk_alloc(), after the sleep):
# the accept() with SO_RCVTIMEO and the one without sleep in the kernel
# alone, so neither holds a flip or the unload, and neither sees EINTR.
. /tests/lib.sh
. /tests/lib_burst.sh

CG=/sys/fs/cgroup/skm_blocked
FLIP_MAX_S=15
READ_MAX_S=1

rm -f /tmp/skm-block-go-* /tmp/blk-*
mkdir -p "$CG"
# On a failure, release every blocked call.
release_all() {
	touch /tmp/skm-block-go-7102 /tmp/skm-block-go-7103
	_c=""
	for _p in 7101 7104 7105; do
		skm-block client $_p > /dev/null 2>&1 &
		_c="$_c $!"
	done
	wait $_c
}
trap 'release_all' EXIT
load throttle=1 exclusive=1 reclaim_policy=linear \
	throttle_cgroups=+/skm_blocked sock_limits=+/skm_blocked=64M
expect_eq "hooked" "$(hooked_names)" "$(names_of $HOOKED)"
grep -E "^$ACCEPT_FN " "$TRACING/enabled_functions" &&
	fail "$ACCEPT_FN has an ftrace user: an accept() would sleep inside skmemcg"

# awk_lt A B: is A < B (decimals)?
awk_lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

# wait_line FILE PATTERN SECS: until FILE has a line matching PATTERN.
wait_line() {
	_n=0
	while ! grep -q "$2" "$1" 2> /dev/null; do
		_n=$((_n + 1))
		[ $_n -le $(($3 * 10)) ] ||
			fail "no '$2' in $1 within $3 s: $(cat "$1" 2> /dev/null)"
		sleep 0.1
	done
}

# blocked MODE PORT: skm-block MODE PORT in $CG, blocked (output in
# /tmp/blk-PORT, its pid in pid_PORT).
blocked() {
	in_cgroup_bg "$CG" skm-block "$1" "$2" > "/tmp/blk-$2" 2>&1
	eval "pid_$2=$bg"
	wait_line "/tmp/blk-$2" "^$1 blocked" 20
}

# still_blocked PORT: its process alive, its call not returned.
still_blocked() {
	eval "_p=\$pid_$1"
	kill -0 "$_p" 2> /dev/null || fail "skm-block on port $1 exited: $(cat "/tmp/blk-$1")"
	! grep -q " ok \|rror" "/tmp/blk-$1" || fail "port $1 returned early: $(cat "/tmp/blk-$1")"
}

# flip KNOB VALUE: write it while every parameter is read again and again,
# both timed, each bounded.
flip() {
	rm -f /tmp/blk-flip /tmp/blk-reads
	skm-readt -d 2 "$PAR"/* > /tmp/blk-reads 2>&1 &
	sleep 0.5
	printf '%s' "$2" | skm-write -t "$PAR/$1" > /tmp/blk-flip 2>&1 &
	wait_line /tmp/blk-flip . $((FLIP_MAX_S + 5))
	wait_line /tmp/blk-reads . $((READ_MAX_S + 10))
	_f=$(cat /tmp/blk-flip) _r=$(cat /tmp/blk-reads)
	note "flip $1=$2: $_f s; reads meanwhile: $_r"
	case $_f in
	ok\ *) ;;
	*) fail "flip $1=$2: $_f" ;;
	esac
	awk_lt "${_f#ok }" "$FLIP_MAX_S" || fail "flip $1=$2 took ${_f#ok } s"
	case $_r in
	slowest\ *) ;;
	*) fail "reading the parameters during $1=$2: $_r" ;;
	esac
	_s=$(echo "$_r" | awk '{ print $2 }')
	awk_lt "$_s" "$READ_MAX_S" || fail "a parameter read took $_s s during $1=$2: $_r"
}

sysctl -qw net.ipv4.tcp_syn_retries=10	# the blocked connect outlasts the case
blocked accept 7101
blocked recv 7102
blocked connect 7103
blocked accept-timeo 7105
sleep 1

flip exclusive 0
for p in 7101 7102 7103 7105; do still_blocked $p; done

flip exclusive 1
flip throttle 0
flip throttle 1
flip reclaim_policy kernel
flip reclaim_policy linear
flip sock_limits -/skm_blocked
flip sock_limits +/skm_blocked=64M
flip enabled 0
flip enabled 1
for p in 7101 7102 7103 7105; do still_blocked $p; done
expect_eq "hooked after the flips" "$(hooked_names)" "$(names_of $HOOKED)"

# One more accept() made while every policy is on, then the unload.
blocked accept 7104
sleep 1
skm-rmmod skmemcg > /tmp/blk-rmmod 2>&1 &
wait_line /tmp/blk-rmmod . $((FLIP_MAX_S + 5))
r=$(cat /tmp/blk-rmmod)
note "rmmod with 5 blocked calls: $r s"
case $r in
ok\ *) awk_lt "${r#ok }" "$FLIP_MAX_S" || fail "rmmod took ${r#ok } s" ;;
*) fail "rmmod: $r" ;;
esac
grep -q '^skmemcg ' /proc/modules && fail "skmemcg still loaded"

# Traffic: every blocked call completes once its peer comes, the accept()
# with SO_RCVTIMEO with no EINTR.
for p in 7101 7102 7103 7104 7105; do still_blocked $p; done
touch /tmp/skm-block-go-7102 /tmp/skm-block-go-7103
for p in 7101 7104 7105; do
	skm-block client $p > /dev/null || fail "client of $p"
done
for p in 7101 7102 7104 7105; do
	wait_line "/tmp/blk-$p" " ok 65536 0$" 20
done
wait_line /tmp/blk-7103 "connect ok 65536 0$" 60
note "after the unload: $(cat /tmp/blk-7101 /tmp/blk-7102 /tmp/blk-7103 /tmp/blk-7104 /tmp/blk-7105 | grep ok | tr '\n' ';')"

sysctl -qw net.ipv4.tcp_syn_retries=6
cgroup_stop "$CG"
rmdir "$CG"
rm -f /tmp/skm-block-go-* /tmp/blk-*
