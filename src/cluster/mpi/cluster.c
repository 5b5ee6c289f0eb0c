/*
 * iogauge-mpi: joining the ranks (MPI_Init only under mpirun), agreeing on
 * errors and stops, and the barrier before the measured phase.  Only the
 * runner's thread calls MPI (MPI_THREAD_FUNNELED).
 */
#include "cluster/mpi/mpi_int.h"
#include "base/common.h"
#include "base/ctx.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct mpi_state mpi_g;

/* Started by a process manager?  Otherwise this process is alone, exactly like iogauge. */
static bool launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

/* Ranks other than 0 print nothing: rank 0 reports for all (IOGAUGE_RANK_OUTPUT=1 keeps theirs). */
static void silence(void)
{
	const char *keep = getenv("IOGAUGE_RANK_OUTPUT");
	if (keep && *keep == '1')
		return;
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	fflush(stdout);
	fflush(stderr);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
}

void cluster_init(int *argc, char ***argv)
{
	if (gethostname(mpi_g.host, sizeof(mpi_g.host) - 1))
		snprintf(mpi_g.host, sizeof(mpi_g.host), "?");
	mpi_g.size = 1;
	if (!launched())
		return;
	int provided;
	MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
	mpi_g.active = true;
	int r, n;
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	mpi_g.rank = (unsigned)r;
	mpi_g.size = (unsigned)n;
	if (mpi_g.size < 2)
		return;
	/* The ranks on this host: the first of them reads the host's device counters. */
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &mpi_g.node);
	MPI_Comm_rank(mpi_g.node, &r);
	MPI_Comm_size(mpi_g.node, &n);
	mpi_g.node_rank = (unsigned)r;
	mpi_g.node_size = (unsigned)n;
	if (mpi_g.rank)
		silence();
	mpi_clock_offsets();
}

int cluster_exit(int status)
{
	if (!mpi_g.active)
		return status;
	if (mpi_g.size > 1 && !mpi_g.broken) {
		/* The most serious status, and the point where a rank that left early is seen. */
		uint64_t in[SYNC_VALS] = { (uint64_t)mpi_status_rank(status) << 32 | (uint32_t)status },
			 out[SYNC_VALS];
		if (mpi_sync(NULL, SITE_EXIT, in, out))
			status = (int)(uint32_t)out[0];
	}
	MPI_Finalize();
	return status;
}

unsigned cluster_rank(void)
{
	return mpi_g.rank;
}

unsigned cluster_size(void)
{
	return mpi_g.size;
}

const char *cluster_host(void)
{
	return mpi_g.host;
}

unsigned cluster_host_ranks(void)
{
	return mpi_g.node_size ? mpi_g.node_size : 1;
}

bool cluster_host_first(void)
{
	return mpi_g.node_rank == 0;
}

void mpi_stopped_wait(struct run_ctx *c, uint64_t *since)
{
	if (!c || !c->stop)
		return;
	/*
	 * mpirun answers Ctrl-C, or a rank that died, with SIGTERM to every rank
	 * and SIGKILL a second later: test files go now (no I/O is left to do
	 * while a rank waits here), and a rank whose peers never come exits.
	 */
	ctx_remove_files(c);
	uint64_t now = now_ns();
	*since = *since ? *since : now;
	if (now - *since > MPI_STOP_GIVE_UP_NS)
		_exit(128 + c->stop);
}

/*
 * Wait for a non-blocking collective without pinning a CPU the other ranks'
 * workers need.  If this rank was asked to stop and the others never come
 * (they took another path, or died), it gives up after a while: removes its
 * files and exits, as a third signal would.
 */
void mpi_await(struct run_ctx *c, MPI_Request *rq)
{
	uint64_t t0 = now_ns(), stop_since = 0;
	for (unsigned spins = 0;; spins++) {
		int done = 0;
		MPI_Test(rq, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		mpi_stopped_wait(c, &stop_since);
		if (now_ns() - t0 < 2 * NSEC_PER_MSEC) {
			sched_yield();
			continue;
		}
		struct timespec ts = { 0, 200 * 1000 };
		nanosleep(&ts, NULL);
	}
}

void mpi_allreduce(struct run_ctx *c, const void *in, void *out, int n, MPI_Datatype t, MPI_Op op)
{
	MPI_Request rq;
	MPI_Iallreduce(in, out, n, t, op, MPI_COMM_WORLD, &rq);
	mpi_await(c, &rq);
}

/* How serious a status is: a refusal, then a signal, then an I/O error. */
int mpi_status_rank(int status)
{
	return !status ? 0 : status == EXIT_USAGE ? 3 : status >= 128 ? 2 : 1;
}

bool mpi_sync(struct run_ctx *c, unsigned site, const uint64_t in[SYNC_VALS], uint64_t out[SYNC_VALS])
{
	if (mpi_g.broken) {
		memcpy(out, in, SYNC_VALS * sizeof(*out));
		return false;
	}
	/* Every sync point has this one shape, so ranks at different points still meet, and see it. */
	uint64_t a[SYNC_VALS + 3], b[SYNC_VALS + 3];
	a[0] = site;
	a[1] = ~(uint64_t)site;
	a[2] = c ? (uint64_t)c->stop : 0;
	memcpy(a + 3, in, SYNC_VALS * sizeof(*a));
	mpi_allreduce(c, a, b, SYNC_VALS + 3, MPI_UINT64_T, MPI_MAX);
	memcpy(out, b + 3, SYNC_VALS * sizeof(*out));
	if (c && b[2] && !c->stop)
		c->stop = (int)b[2];
	if (b[0] != site || ~b[1] != site) {
		/* Some rank left the common path (a job file or a path only its host lacks). */
		mpi_g.broken = true;
		return false;
	}
	return true;
}

int cluster_agree(struct run_ctx *c, struct ig_err *e)
{
	if (mpi_g.size < 2)
		return e->status;
	/* Highest seriousness first, then the lowest rank. */
	uint64_t in[SYNC_VALS] = { (uint64_t)mpi_status_rank(e->status) << 32 | (UINT32_MAX - mpi_g.rank) },
		 out[SYNC_VALS];
	if (!mpi_sync(c, SITE_AGREE, in, out)) {
		err_set(e, EXIT_USAGE, "the ranks took different paths (an argument, job file or path that "
				       "differs between hosts?): stopped");
		return e->status;
	}
	if (!(out[0] >> 32))
		return 0;
	unsigned who = UINT32_MAX - (uint32_t)out[0];
	uint64_t failed = e->status != 0, nfailed;
	mpi_allreduce(c, &failed, &nfailed, 1, MPI_UINT64_T, MPI_SUM);
	struct {
		int status;
		char host[64];
		char msg[ERR_MSG_MAX];
	} m;
	memset(&m, 0, sizeof(m));
	if (who == mpi_g.rank) {
		m.status = e->status;
		memcpy(m.host, mpi_g.host, sizeof(m.host));
		memcpy(m.msg, e->msg, sizeof(m.msg));
	}
	MPI_Request rq;
	MPI_Ibcast(&m, sizeof(m), MPI_BYTE, (int)who, MPI_COMM_WORLD, &rq);
	mpi_await(c, &rq);
	char others[40] = "";
	if (nfailed > 1)
		snprintf(others, sizeof(others), " and %llu other rank%s",
			 (unsigned long long)nfailed - 1, nfailed > 2 ? "s" : "");
	e->status = m.status;
	/* The message of every rank is the same: rank 0 prints it (named once, when first agreed). */
	char msg[ERR_MSG_MAX];
	snprintf(msg, sizeof(msg), "%s", m.msg);
	unsigned r;
	char sp;
	if (sscanf(msg, "rank %u on%c", &r, &sp) == 2 && sp == ' ')
		snprintf(e->msg, sizeof(e->msg), "%s", msg);
	else
		snprintf(e->msg, sizeof(e->msg), "rank %u on %.63s%s: %.880s", who, m.host, others, msg);
	return e->status;
}

void cluster_host_turns(void (*fn)(void *arg), void *arg)
{
	if (mpi_g.size < 2 || mpi_g.broken) {
		fn(arg);
		return;
	}
	for (unsigned k = 0; k < mpi_g.node_size; k++) {
		if (k == mpi_g.node_rank)
			fn(arg);
		MPI_Barrier(mpi_g.node);
	}
}

bool cluster_stopping(struct run_ctx *c)
{
	if (mpi_g.size < 2)
		return c->stop != 0;
	uint64_t in[SYNC_VALS] = { 0 }, out[SYNC_VALS];
	if (!mpi_sync(c, SITE_STOPPING, in, out))
		return true;
	return c->stop != 0;
}

bool cluster_start(struct run_ctx *c, bool ok)
{
	if (mpi_g.size < 2)
		return ok;
	/* Wait gently for the slowest rank (it may still be laying out), then leave together. */
	uint64_t in[SYNC_VALS] = { !ok }, out[SYNC_VALS];
	if (!mpi_sync(c, SITE_START, in, out))
		return false;
	MPI_Barrier(MPI_COMM_WORLD);
	mpi_g.start_wall_ns = mpi_wall_ns();
	return !out[0] && !c->stop; /* a stop anywhere is everyone's (mpi_sync) */
}

int64_t mpi_wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * (int64_t)NSEC_PER_SEC + ts.tv_nsec;
}

/*
 * Clock offsets between hosts: after a barrier every rank reads its wall
 * clock; the difference to rank 0's reading is its offset, give or take the
 * barrier's exit skew (microseconds on one host).  The median of three rounds.
 */
void mpi_clock_offsets(void)
{
	int64_t off[3];
	for (int round = 0; round < 3; round++) {
		MPI_Barrier(MPI_COMM_WORLD);
		int64_t t = mpi_wall_ns(), t0 = t;
		MPI_Bcast(&t0, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
		off[round] = t - t0;
	}
	int64_t lo = off[0] < off[1] ? off[0] : off[1], hi = off[0] < off[1] ? off[1] : off[0];
	mpi_g.clock_offset_ns = off[2] < lo ? lo : off[2] > hi ? hi : off[2];
	/* Ranks on one host read one clock: they take the first one's offset (rank 0's host: 0). */
	MPI_Bcast(&mpi_g.clock_offset_ns, 1, MPI_INT64_T, 0, mpi_g.node);
}

#ifdef __SANITIZE_ADDRESS__
/*
 * The ASan build of iogauge-mpi: Open MPI keeps memory to the end and unloads
 * its plugins, so the leak report names nothing of ours.  Leaks of iogauge's
 * own code are checked by the plain ASan build and the unit tests.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}
#endif
