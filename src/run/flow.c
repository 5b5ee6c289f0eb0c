/* fio's flow: the shared counters of the jobs of a flow_id (flow.h). */
#include "base/common.h"
#include "run/flow.h"
#include "run/worker_state.h"

#include <stdlib.h>

unsigned flow_budget(uint64_t count, uint64_t total_weight, uint64_t mine, unsigned weight,
		     unsigned want)
{
	/*
	 * Request i (from 0) passes when (mine + i) / (count + i) <= weight / total,
	 * i.e. i * (total - weight) <= weight * count - mine * total.
	 */
	unsigned __int128 have = (unsigned __int128)weight * count, used = (unsigned __int128)mine * total_weight;
	if (used > have)
		return 0;
	if (total_weight <= weight)
		return want; /* alone in its flow */
	unsigned __int128 k = (have - used) / (total_weight - weight) + 1;
	return k < want ? (unsigned)k : want;
}

static struct flow *flow_find(struct flow_set *fs, unsigned id)
{
	for (unsigned i = 0; i < fs->n; i++)
		if (fs->v[i].id == id)
			return &fs->v[i];
	return NULL;
}

void flow_set_build(struct flow_set *fs, struct worker *ws, unsigned n)
{
	fs->n = 0;
	fs->v = NULL;
	unsigned any = 0;
	for (unsigned k = 0; k < n; k++)
		any += ws[k].job->flow != 0;
	if (!any)
		return;
	/* At most one flow per worker: the array never moves once pointers into it are handed out. */
	fs->v = xcalloc(any, sizeof(*fs->v));
	for (unsigned k = 0; k < n; k++) {
		const struct job *j = ws[k].job;
		if (!j->flow)
			continue;
		struct flow *f = flow_find(fs, j->flow_id);
		if (!f) {
			f = &fs->v[fs->n++];
			f->id = j->flow_id;
			f->count = 1;
		}
		f->weight += j->flow;
		ws[k].flow = f;
	}
}

void flow_set_free(struct flow_set *fs)
{
	free(fs->v);
	fs->v = NULL;
	fs->n = 0;
}

void flow_leave(struct flow *f, uint64_t mine, unsigned weight)
{
	__atomic_sub_fetch(&f->count, mine, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&f->weight, weight, __ATOMIC_RELAXED);
}
