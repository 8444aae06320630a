# SPDX-License-Identifier: GPL-2.0
# The README's demo: load skmemcg with parameters, show its knobs, hooks and
# statistics around some loopback TCP traffic, tune it live, unload it.
. /tests/lib.sh

show() {
	echo "\$ $*"
	sh -c "$*" 2>&1 | sed 's/^/  /'
}

show modprobe skmemcg instrument=1
show 'dmesg | grep "skmemcg: loaded"'
show 'grep . /sys/module/skmemcg/parameters/*'
show ls /sys/kernel/debug/skmemcg
show 'grep skm_ /sys/kernel/tracing/enabled_functions'
show skm-tcp -b 32 -c 2
show cat /sys/kernel/debug/skmemcg/stats
show 'echo 0 > /sys/kernel/debug/skmemcg/enabled'
show skm-tcp -b 32 -c 2
show 'cat /sys/kernel/debug/skmemcg/stats   # unchanged: hooks pass through'
show 'echo maybe > /sys/kernel/debug/skmemcg/enabled   # refused, value kept'
show cat /sys/kernel/debug/skmemcg/enabled
show rmmod skmemcg
show 'grep -c skm_ /sys/kernel/tracing/enabled_functions'
exit 0
