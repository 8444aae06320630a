// SPDX-License-Identifier: GPL-2.0
/*
 * skm-rmmod NAME: one delete_module(2) call, O_NONBLOCK as busybox rmmod
 * makes it, then print "ok" or the errno name, and the seconds the call
 * took (CLOCK_MONOTONIC around it): the unload alone, without the process
 * start that a shell's timing of rmmod includes (up to a second under load
 * in the guest).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "skm-time.h"

int main(int argc, char **argv)
{
	double t0, secs;
	long ret;

	if (argc != 2) {
		fprintf(stderr, "usage: skm-rmmod NAME\n");
		return 2;
	}
	t0 = skm_now();
	ret = syscall(SYS_delete_module, argv[1], O_NONBLOCK);
	secs = skm_now() - t0;
	if (ret)
		printf("%s %.3f\n", errno == EBUSY ? "EBUSY" : errno == ENOENT ?
		       "ENOENT" : errno == EWOULDBLOCK ? "EWOULDBLOCK" :
		       strerror(errno), secs);
	else
		printf("ok %.3f\n", secs);
	return ret ? 1 : 0;
}
