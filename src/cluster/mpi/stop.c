/*
 * iogauge-mpi: one rank's stop reaches every rank during the measured
 * phase.  A rank that fails, is interrupted, or (--stonewall-all) finishes
 * its size first sends one request to rank 0; rank 0 sends a stop to every
 * other rank, once per stonewall group, and each sets its context's halt.
 * Messages of a group carry its own tag, and every one sent is received
 * before the group ends, so nothing spills into the next.
 */
#include "cluster/mpi/mpi_int.h"
#include "base/common.h"
#include "base/ctx.h"
#include "run/merge.h"

#include <stdlib.h>
#include <string.h>

#define TAG_BASE 1000
#define TAG_SPAN 30000

static struct {
	bool armed;
	unsigned epoch;
	int tag;
	MPI_Request rx;     /* rank 0: the next request; others: rank 0's stop */
	int32_t rxbuf[2];   /* reason, rank */
	bool asked;         /* this rank has asked (rank 0: has acted on its own reason) */
	MPI_Request tx;
	int32_t txbuf[2];
	unsigned got;       /* rank 0: requests received */
	bool stopped;       /* rank 0: the stop went out; others: it came */
	MPI_Request *out;   /* rank 0: the stop to each rank */
	int32_t outbuf[2];
	int reason, by;     /* why every rank stopped, and which rank caused it */
} st;

static void post_rx(void)
{
	if (mpi_g.rank)
		MPI_Irecv(st.rxbuf, 2, MPI_INT32_T, 0, st.tag, MPI_COMM_WORLD, &st.rx);
	else
		MPI_Irecv(st.rxbuf, 2, MPI_INT32_T, MPI_ANY_SOURCE, st.tag + 1, MPI_COMM_WORLD, &st.rx);
}

static void arm(void)
{
	st.armed = true;
	st.epoch++;
	st.tag = TAG_BASE + 2 * (int)(st.epoch % TAG_SPAN);
	st.asked = st.stopped = false;
	st.got = 0;
	st.tx = MPI_REQUEST_NULL;
	post_rx();
}

/* Rank 0: the first request of a group stops every rank. */
static void stop_all(struct run_ctx *c, int reason, int by)
{
	if (st.stopped)
		return;
	st.stopped = true;
	st.reason = reason;
	st.by = by;
	c->halt = 1;
	st.outbuf[0] = reason;
	st.outbuf[1] = by;
	st.out = xcalloc(mpi_g.size, sizeof(MPI_Request));
	st.out[0] = MPI_REQUEST_NULL;
	for (unsigned r = 1; r < mpi_g.size; r++)
		MPI_Isend(st.outbuf, 2, MPI_INT32_T, (int)r, st.tag, MPI_COMM_WORLD, &st.out[r]);
}

/* Take what has arrived: requests (rank 0), the stop (others). */
static void serve(struct run_ctx *c)
{
	for (;;) {
		int done = 0;
		MPI_Test(&st.rx, &done, MPI_STATUS_IGNORE);
		if (!done)
			return;
		if (mpi_g.rank) {
			st.stopped = true;
			st.reason = st.rxbuf[0];
			st.by = st.rxbuf[1];
			c->halt = 1;
			st.rx = MPI_REQUEST_NULL;
			return;
		}
		st.got++;
		stop_all(c, st.rxbuf[0], st.rxbuf[1]);
		post_rx();
	}
}

static int local_reason(const struct run_ctx *c, const struct cluster_local *l)
{
	if (l->failed)
		return CLUSTER_HALT_ERROR;
	if (c->stop)
		return CLUSTER_HALT_SIGNAL;
	/* Done with its size, not because another rank stopped it. */
	if (l->done && l->stonewall && !c->halt)
		return CLUSTER_HALT_STONEWALL;
	return 0;
}

void cluster_poll(struct run_ctx *c, const struct cluster_local *l)
{
	if (mpi_g.size < 2 || mpi_g.broken)
		return;
	if (!st.armed)
		arm();
	int reason = local_reason(c, l);
	if (reason && !st.asked) {
		st.asked = true;
		if (mpi_g.rank) {
			st.txbuf[0] = reason;
			st.txbuf[1] = (int32_t)mpi_g.rank;
			MPI_Isend(st.txbuf, 2, MPI_INT32_T, 0, st.tag + 1, MPI_COMM_WORLD, &st.tx);
		} else {
			stop_all(c, reason, 0);
		}
	}
	serve(c);
}

void cluster_group_end(struct run_ctx *c, const struct cluster_local *l)
{
	if (mpi_g.size < 2 || mpi_g.broken)
		return;
	cluster_poll(c, l);
	/* Wait for every rank, still passing stops on: how many requests went out, and did a stop. */
	uint64_t in[2] = { mpi_g.rank && st.asked, !mpi_g.rank && st.stopped }, out[2];
	MPI_Request rq;
	MPI_Iallreduce(in, out, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &rq);
	for (uint64_t since = 0;;) {
		int done = 0;
		MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
		if (done)
			break;
		serve(c);
		mpi_stopped_wait(c, &since);
		struct timespec ts = { 0, 200 * 1000 };
		nanosleep(&ts, NULL);
	}
	/* Every message of this group is received; the last receive posted is called off. */
	if (!mpi_g.rank) {
		while (st.got < out[0]) {
			MPI_Wait(&st.rx, MPI_STATUS_IGNORE);
			st.got++;
			stop_all(c, st.rxbuf[0], st.rxbuf[1]);
			post_rx();
		}
	} else if (out[1] && !st.stopped) {
		MPI_Wait(&st.rx, MPI_STATUS_IGNORE);
		st.stopped = true;
		st.reason = st.rxbuf[0];
		st.by = st.rxbuf[1];
		st.rx = MPI_REQUEST_NULL;
	}
	if (st.rx != MPI_REQUEST_NULL) {
		MPI_Cancel(&st.rx);
		MPI_Wait(&st.rx, MPI_STATUS_IGNORE);
	}
	MPI_Wait(&st.tx, MPI_STATUS_IGNORE);
	if (st.out) {
		MPI_Waitall((int)mpi_g.size, st.out, MPI_STATUSES_IGNORE);
		free(st.out);
		st.out = NULL;
	}
	if (st.stopped) {
		mpi_g.halt_reason = st.reason;
		mpi_g.halt_rank = st.by;
	}
	st.armed = false;
	/* A sync point: the ranks are all here, and a signal on any is everyone's. */
	uint64_t zero[SYNC_VALS] = { 0 }, res[SYNC_VALS];
	mpi_sync(c, SITE_GROUP_END, zero, res);
}
