/* iogauge-mpi: merging every rank's results on rank 0. */
#include "mpi/mpi_int.h"
#include "common.h"
#include "ctx.h"
#include "runner.h"

/* The most serious status of any rank, on every rank. */
static int agree_status(struct run_ctx *c, int status)
{
	uint64_t in[SYNC_VALS] = { (uint64_t)mpi_status_rank(status) << 32 | (uint32_t)status }, out[SYNC_VALS];
	if (!mpi_sync(c, SITE_MERGE, in, out))
		return status ? status : EXIT_USAGE;
	return (int)(uint32_t)out[0];
}

void cluster_merge(struct run_ctx *c, struct run_result *r)
{
	if (mpi_g.size < 2)
		return;
	r->status = agree_status(c, r->status);
}
