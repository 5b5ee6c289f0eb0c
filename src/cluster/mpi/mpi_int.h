/* iogauge-mpi's own state and helpers, shared by the files of src/cluster/mpi/ only. */
#ifndef IOGAUGE_MPI_INT_H
#define IOGAUGE_MPI_INT_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/cluster.h"

/* A rank asked to stop gives up on peers that never join a collective after this long. */
#define MPI_STOP_GIVE_UP_NS (5ULL * 1000000000ULL)

/* The one MPI world of this process (set once by cluster_init). */
struct mpi_state {
	bool active;            /* MPI_Init was called */
	unsigned rank, size;
	char host[64];
	MPI_Comm node;          /* the ranks on this host */
	unsigned node_rank, node_size;
	int64_t clock_offset_ns; /* this rank's wall clock minus rank 0's, at start */
	int64_t start_wall_ns;  /* wall clock when the last start barrier released this rank */
	bool broken;            /* the ranks were seen on different paths: no more collectives */
	int halt_reason, halt_rank; /* rank 0: why every rank's measured phase was cut short (CLUSTER_HALT_*) */
};
extern struct mpi_state mpi_g;

struct run_ctx;
/* Wait for a request; a rank asked to stop gives up on absent peers (removes its files, exits). */
void mpi_await(struct run_ctx *c, MPI_Request *rq);
/* While waiting for other ranks: a rank asked to stop removes its files, and gives up in the end. */
void mpi_stopped_wait(struct run_ctx *c, uint64_t *since);
void mpi_allreduce(struct run_ctx *c, const void *in, void *out, int n, MPI_Datatype t, MPI_Op op);
int mpi_status_rank(int status);

/*
 * A sync point: every collective of iogauge-mpi starts with one (or follows
 * one in the same function).  All sync points have one shape, so ranks that
 * reached different ones still complete it and see the mismatch: they return
 * false and iogauge-mpi makes no collective call after that.  out is the MAX
 * over ranks of in; a stop request of any rank is set in c->stop.
 */
enum mpi_site { SITE_EXIT = 1, SITE_AGREE, SITE_STOPPING, SITE_START, SITE_GROUP_END, SITE_MERGE };
#define SYNC_VALS 4
bool mpi_sync(struct run_ctx *c, unsigned site, const uint64_t in[SYNC_VALS], uint64_t out[SYNC_VALS]);
int64_t mpi_wall_ns(void);
void mpi_clock_offsets(void);

#endif
