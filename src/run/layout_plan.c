/* A job's layout plan: a verifying reader's stamped blocks (layout_plan.h). */
#include "base/common.h"
#include "model/job.h"
#include "run/layout_plan.h"
#include "run/verify.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void stamp_block(void *arg, unsigned thread, void *buf, uint64_t offset, uint32_t len)
{
	const struct stamp_arg *a = arg;
	/* The block's number: distinct blocks of the job's files hold distinct data. */
	verify_layout_block(a->v, thread, (offset / len + 1) ^ ((uint64_t)a->file << 44), buf, offset, len);
}

/* What makes a layout's blocks: equal for two jobs whose layouts are alike. */
static uint64_t layout_sig(const struct job *j, uint64_t unit)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	uint64_t v[] = { (uint64_t)j->verify, unit, j->verify_interval };
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		h = (h ^ v[i]) * 0x100000001b3ULL;
	/* The data counts where the reads check it: a pattern. */
	if (j->data.mode == DATA_PATTERN && (j->verify == VERIFY_PATTERN || j->verify_pattern))
		for (size_t i = 0; i < sizeof(j->data); i++)
			h = (h ^ ((const unsigned char *)&j->data)[i]) * 0x100000001b3ULL;
	return h | 2; /* never 0 (data alone) nor 1 (refused) */
}

int layout_plan_init(struct layout_plan *lp, const struct job *j, struct ig_err *e)
{
	uint64_t unit;
	memset(lp, 0, sizeof(*lp));
	if (!verify_layout_wanted(j))
		return 0;
	lp->checked = verify_layout_checked(j);
	if (verify_layout_unit(j, &unit, lp->why, sizeof(lp->why))) {
		/* A writer's layout is its data alone; a reader is refused where a layout is due. */
		lp->on = lp->checked;
		lp->stamp = (struct target_stamp){ .unit = 1, .refused = lp->why, .sig = 1 };
		return 0;
	}
	lp->v = verify_layout_new(j, j->numjobs, e);
	if (!lp->v)
		return -1;
	lp->on = true;
	if (j->verify == VERIFY_PATTERN)
		snprintf(lp->what, sizeof(lp->what), "the verify pattern");
	else
		snprintf(lp->what, sizeof(lp->what), "data with %s headers", verify_names[j->verify]);
	lp->stamp = (struct target_stamp){
		.unit = unit, .fills = verify_layout_fills(lp->v), .fn = stamp_block, .what = lp->what,
		.sig = layout_sig(j, unit),
	};
	return 0;
}

/*
 * A verifying reader of a file an earlier job of this run laid out: its
 * reads meet that layout's blocks, which must be such as it checks (the same
 * --verify, block size and grid), or they would be reported as corrupt.
 */
int layout_check_earlier(const struct run_result *r, const struct job_result *jr, const char *path,
			  uint64_t start, uint64_t end, const struct target_part *parts, unsigned nparts,
			  const struct layout_plan *lp, struct ig_err *e)
{
	struct stat me, st;
	if (!lp->checked || stat(path, &me))
		return 0;
	uint64_t res = lp->stamp.refused ? UINT64_MAX : target_parts_residue(parts, nparts, start, lp->stamp.unit);
	for (const struct job_result *p = r->jobs; p < jr; p++)
		for (unsigned i = 0; p->targets && i < p->ntargets; i++) {
			const struct target *t = &p->targets[i];
			if (!t->layout_bytes || t->layout_hi <= start || t->layout_lo >= end || stat(t->path, &st) ||
			    st.st_dev != me.st_dev || st.st_ino != me.st_ino)
				continue;
			if (t->layout_sig == lp->stamp.sig && t->layout_residue == res && res != UINT64_MAX)
				continue;
			return err_set(e, EXIT_USAGE,
				       "job %s would verify blocks of %s that job %s laid out in this run %s; give both jobs the same --verify, block size and offsets, or each its own file",
				       jr->job.name, path, p->job.name,
				       t->layout_sig ? "for other blocks than it reads" : "without its verification headers");
		}
	return 0;
}

void layout_plan_free(struct layout_plan *lp)
{
	verify_free(lp->v);
	lp->v = NULL;
}
