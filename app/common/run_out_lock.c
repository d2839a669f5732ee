/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run.out is owned by one run at a time: a lock (flock) on the file
 * .uet-run.lock in the folder, taken before the run clears or opens
 * anything there and held until its last file is closed. A second run
 * into the folder stops before it touches a file, naming the process that
 * holds it; two runs writing one folder at once gave rows out of order
 * and each said the other's files "are not there". The lock goes with the
 * process however it ends (SIGKILL included).
 *
 * The file stays (making and removing a file each run costs a small run
 * more than its loop: uet_outfile.c): a run that ends empties it as it
 * lets go, so every run leaves the same bytes there and two runs'
 * folders compare equal with diff -r. A run that was killed leaves its
 * number in it, unlocked; the next run takes it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "run_private.h"

/* The process that wrote its number into the lock file, and its name
 * (/proc/PID/comm), as words for the message. */
static void lock_holder(int fd, char *buf, size_t len)
{
	char text[32], comm_path[64], comm[32] = "";
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	long pid;
	FILE *f;

	snprintf(buf, len, "another process");
	if (n <= 0)
		return;
	text[n] = '\0';
	pid = strtol(text, NULL, 10);
	if (pid <= 0)
		return;
	snprintf(comm_path, sizeof(comm_path), "/proc/%ld/comm", pid);
	f = fopen(comm_path, "r");
	if (f != NULL) {
		if (fgets(comm, sizeof(comm), f) != NULL)
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	if (comm[0] != '\0')
		snprintf(buf, len, "process %ld (%s)", pid, comm);
	else
		snprintf(buf, len, "process %ld", pid);
}

/* Opens and locks path; the descriptor, -EBUSY when another run holds it
 * (said on stderr), or another -errno (said). */
static int lock_open(struct run *run, const char *path, const char *out)
{
	char who[80];
	int fd, rc;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (fd < 0) {
		rc = -errno;
		fprintf(stderr, "%s: cannot open %s to own %s: %s\n", run->prog,
			path, out, strerror(-rc));
		return rc;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return fd;
	rc = -errno;
	if (rc == -EWOULDBLOCK) {
		lock_holder(fd, who, sizeof(who));
		fprintf(stderr,
			"%s: %s is in use by %s, a run writing its records "
			"there: wait for it to end, or give another --out "
			"(nothing in %s was touched)\n",
			run->prog, out, who, out);
		rc = -EBUSY;
	} else {
		fprintf(stderr, "%s: cannot lock %s: %s\n", run->prog, path,
			strerror(-rc));
	}
	close(fd);
	return rc;
}

int run_lock_out(struct run *run, const char *out)
{
	char path[UET_CONFIG_PATH_MAX + 32], pid[24];
	int fd, n;

	run_out_path(path, sizeof(path), out, RUN_OUT_LOCK_NAME);
	fd = lock_open(run, path, out);
	if (fd < 0)
		return fd;
	/* Who holds it, for the message of a run that finds it held. */
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)n, 0) != n)
		fprintf(stderr, "%s: cannot write %s (the lock holds): %s\n",
			run->prog, path, strerror(errno));
	run->out_lock_fd = fd + 1;
	return 0;
}

void run_unlock_out(struct run *run)
{
	if (run->out_lock_fd == 0)
		return;
	/* Emptied while held: no process number of ours stays behind.
	 * Closing the descriptor then releases the lock. */
	if (ftruncate(run->out_lock_fd - 1, 0) < 0)
		fprintf(stderr, "%s: cannot empty the lock file of %s: %s\n",
			run->prog, run->sc->run.out, strerror(errno));
	close(run->out_lock_fd - 1);
	run->out_lock_fd = 0;
}
