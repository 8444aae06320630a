// SPDX-License-Identifier: GPL-2.0
/*
 * skm-asuser UID PROG ARGS...: run PROG as user and group UID, with no
 * supplementary groups (and so, from uid 0, no capabilities left). Busybox's
 * setpriv cannot change the uid.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;

	if (argc < 3) {
		fprintf(stderr, "usage: skm-asuser UID PROG ARGS...\n");
		return 2;
	}
	uid = (uid_t)atoi(argv[1]);
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid)) {
		perror("skm-asuser");
		return 2;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
