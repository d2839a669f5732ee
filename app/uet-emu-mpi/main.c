/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-emu-mpi: uet-emu over MPI ranks. `mpirun -np N uet-emu-mpi
 * SCENARIO.yaml` runs one scenario on N ranks, on one machine or many:
 * each rank runs a contiguous share of the switch's parts and of the
 * NICs on its own EAL and lcores, in lockstep with the others; rank 0
 * writes the run's records and captures, the same bytes as uet-emu's
 * (docs/lockstep.md, "Over ranks"). The command line is uet-emu's.
 *
 * A separate program, not uet-emu itself: uet-emu is linked statically
 * for its start-up, and Debian's Open MPI has no static library.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_ranks.h"
#include "uet_run_cli.h"

/* How long a rank waits for the others before it names the one that
 * does not answer: UET_EMU_MPI_TIMEOUT seconds (0: for ever). */
#define RANK_TIMEOUT_S_DEFAULT 60.0

static int rank_timeout(struct mpi_ranks *m)
{
	const char *v = getenv("UET_EMU_MPI_TIMEOUT");
	char *end;
	double s;

	if (v == NULL || v[0] == '\0') {
		m->timeout_ns = (uint64_t)(RANK_TIMEOUT_S_DEFAULT * 1e9);
		return 0;
	}
	errno = 0;
	s = strtod(v, &end);
	if (errno != 0 || *end != '\0' || !(s >= 0.0) || s > 1e6) {
		fprintf(stderr,
			"uet-emu-mpi: UET_EMU_MPI_TIMEOUT = %s: not a number "
			"of seconds from 0 (no limit) to 1000000\n",
			v);
		return -EINVAL;
	}
	m->timeout_ns = (uint64_t)(s * 1e9);
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/*
 * A rank above 0 writes its own files (what rank 0 writes for the run)
 * to a folder of its own, removed when it ends. Under Open MPI's mpirun
 * it is made in the rank's session folder (OMPI_FILE_LOCATION), which
 * mpirun removes when the job ends, so a rank killed before it could
 * remove its own leaves nothing behind; else under $TMPDIR (or /tmp).
 */
static int rank_folder(char *buf, size_t size, int rank)
{
	const char *session = getenv("OMPI_FILE_LOCATION");
	const char *tmp = getenv("TMPDIR");
	const char *base = session != NULL && session[0] != '\0' ? session
			   : tmp != NULL && tmp[0] != '\0'	 ? tmp
								 : "/tmp";

	snprintf(buf, size, "%s/uet-emu-mpi-rank%d-XXXXXX", base, rank);
	return mkdtemp(buf) != NULL ? 0 : -errno;
}

int main(int argc, char **argv)
{
	struct uet_sync_ranks rk;
	struct mpi_ranks m;
	char folder[4096] = "";
	bool together = false;
	int rc, status;

	rc = MPI_Init(&argc, &argv);
	if (rc != MPI_SUCCESS) {
		fprintf(stderr, "uet-emu-mpi: MPI_Init failed (%d)\n", rc);
		return UET_RUN_EXIT_INCOMPLETE;
	}
	if (mpi_ranks_init(&m, MPI_COMM_WORLD, &rk) < 0) {
		fprintf(stderr, "uet-emu-mpi: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, UET_RUN_EXIT_INCOMPLETE);
	}
	if (rank_timeout(&m) < 0)
		MPI_Abort(MPI_COMM_WORLD, UET_RUN_EXIT_INCOMPLETE);
	if (m.rank > 0 && rank_folder(folder, sizeof(folder), m.rank) < 0) {
		fprintf(stderr,
			"uet-emu-mpi: rank %d: cannot make its folder %s: "
			"%s\n",
			m.rank, folder, strerror(errno));
		MPI_Abort(MPI_COMM_WORLD, UET_RUN_EXIT_INCOMPLETE);
	}
	rk.together = &together;
	m.stop = uet_run_cli_stop_flag();
	uet_run_cli_set_ranks(&rk, folder[0] != '\0' ? folder : NULL);
	status = uet_run_cli_main(argc, argv, UET_RUN_EMBEDDED, NULL);
	if (folder[0] != '\0')
		nftw(folder, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	/*
	 * A rank that stopped before the ranks knew together how the run
	 * ends (bad arguments, a scenario that does not load, no EAL,
	 * outputs it cannot open) leaves the others waiting in a
	 * collective: its message is above, and the abort ends every rank.
	 * --help, --version and --print-config make no collective on any
	 * rank and end well.
	 */
	/* A rank that does not answer (hung, stopped) cannot be waited
	 * for in MPI_Finalize either: this rank's files are closed, the
	 * abort ends the job, the hung rank with it. */
	if (status != 0 && m.timed_out) {
		fprintf(stderr,
			"uet-emu-mpi: rank %d of %d: %s: ending every rank\n",
			m.rank, m.size, m.error);
		MPI_Abort(MPI_COMM_WORLD, status);
	}
	if (status != 0 && !together) {
		fprintf(stderr,
			"uet-emu-mpi: rank %d of %d failed before the run "
			"started (exit status %d, its message above): "
			"ending every rank\n",
			m.rank, m.size, status);
		MPI_Abort(MPI_COMM_WORLD, status);
	}
	mpi_ranks_fini(&m);
	MPI_Finalize();
	return status;
}
