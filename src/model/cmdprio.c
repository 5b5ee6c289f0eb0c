/* fio's per-command priorities, per worker thread (cmdprio.h): fio's engines/cmdprio.c. */
#include "model/cmdprio.h"
#include "base/common.h"
#include "model/job.h"
#include "model/engine.h"

#include <stdlib.h>

/* fio's seed slot of the priority stream (fio.h FIO_RAND_PRIO_CMDS). */
#define FIO_SEED_PRIO_CMDS 19

bool job_cmdprio_on(const struct job *j)
{
	const struct job_cmdprio *c = &j->cmdprio;
	return c->pct[0] || c->pct[1] || c->nsplit[0] || c->nsplit[1];
}

uint16_t job_default_ioprio(const struct job *j)
{
	return j->cpus.prio || j->cpus.prioclass ? cmdprio_value(j->cpus.prioclass, j->cpus.prio) : 0;
}

/* The statistics index of prio in direction d, added when new (fio's assign_clat_prio_index). */
static uint8_t prio_index(struct cmdprio *c, int d, uint16_t prio)
{
	for (unsigned i = 0; i < c->nprios[d]; i++)
		if (c->prios[d][i] == prio)
			return (uint8_t)i;
	if (c->nprios[d] == CMDPRIO_PRIOS_MAX)
		return 0; /* refused by job_validate: never reached */
	c->prios[d][c->nprios[d]] = prio;
	return (uint8_t)c->nprios[d]++;
}

static bool dir_used(const struct job *j, int d)
{
	return d == IO_READ ? rw_reads(j->rw) : rw_writes(j->rw);
}

struct cmdprio *cmdprio_new(const struct job *j, unsigned thread_number, uint64_t seed)
{
	const struct job_cmdprio *o = &j->cmdprio;
	if (!job_cmdprio_on(j))
		return NULL;
	struct cmdprio *c = xcalloc(1, sizeof(*c));
	c->bssplit = o->nsplit[0] || o->nsplit[1];
	uint16_t def = job_default_ioprio(j);
	for (int d = 0; d < DDIR_NR; d++) {
		if (!dir_used(j, d) || (c->bssplit ? !o->nsplit[d] : !o->pct[d]))
			continue;
		c->prios[d][0] = def;
		c->nprios[d] = 1;
		uint16_t implicit = cmdprio_value(o->cls[d] ? o->cls[d] : 1, o->level[d]);
		if (!c->bssplit) {
			c->perc[d].pct = o->pct[d];
			c->perc[d].prio = implicit;
			c->perc[d].idx = prio_index(c, d, implicit);
			continue;
		}
		/* Entries of one block size together, in the (sorted) order given. */
		c->bsp[d] = xcalloc(o->nsplit[d], sizeof(*c->bsp[d]));
		for (unsigned i = 0; i < o->nsplit[d]; i++) {
			const struct cmdprio_split *s = &o->split[d][i];
			struct cmdprio_bs *b = c->nbs[d] ? &c->bsp[d][c->nbs[d] - 1] : NULL;
			if (!b || b->bs != s->bs) {
				b = &c->bsp[d][c->nbs[d]++];
				b->bs = s->bs;
			}
			struct cmdprio_entry *e = &b->e[b->n++];
			e->pct = s->pct;
			e->prio = s->prio < 0 ? implicit : (uint16_t)s->prio;
			e->idx = prio_index(c, d, e->prio);
			b->tot += s->pct;
		}
	}
	fio_rand_init(&c->r, j->randrepeat ? fio_seed(j->randseed, thread_number, FIO_SEED_PRIO_CMDS) : seed,
		      false);
	return c;
}

void cmdprio_free(struct cmdprio *c)
{
	if (!c)
		return;
	for (int d = 0; d < DDIR_NR; d++)
		free(c->bsp[d]);
	free(c);
}

bool cmdprio_pick(struct cmdprio *c, struct io_u *u)
{
	int d = u->op;
	u->prio_idx = 0;
	u->ioprio = c->prios[d][0];
	const struct cmdprio_bs *b = NULL;
	unsigned p;
	if (!c->bssplit) {
		p = c->perc[d].pct;
	} else {
		for (unsigned i = 0; i < c->nbs[d] && !b; i++)
			if (c->bsp[d][i].bs == u->len)
				b = &c->bsp[d][i];
		p = b ? b->tot : 0;
	}
	if (!p)
		return false;
	/* fio's rand_between(&td->prio_state, 0, 99). */
	unsigned r = (unsigned)(100.0 * ((double)fio_rand32(&c->r) / 4294967296.0));
	if (r >= p)
		return false;
	if (!b) {
		u->ioprio = c->perc[d].prio;
		u->prio_idx = c->perc[d].idx;
		return true;
	}
	unsigned sum = 0;
	for (unsigned i = 0; i < b->n; i++) {
		sum += b->e[i].pct;
		if (r < sum) {
			u->ioprio = b->e[i].prio;
			u->prio_idx = b->e[i].idx;
			return true;
		}
	}
	return false;
}
