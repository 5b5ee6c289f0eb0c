/* iogauge-mpi: one rank's stop reaches every rank during the measured phase. */
#include "mpi/mpi_int.h"
#include "ctx.h"

void cluster_poll(struct run_ctx *c, const struct cluster_local *l)
{
	(void)c;
	(void)l;
}

void cluster_group_end(struct run_ctx *c, const struct cluster_local *l)
{
	(void)l;
	if (mpi_g.size < 2)
		return;
	uint64_t in[SYNC_VALS] = { 0 }, out[SYNC_VALS];
	mpi_sync(c, SITE_GROUP_END, in, out);
}
