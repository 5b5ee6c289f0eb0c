/*
 * fio's iodepth_batch_submit, iodepth_batch_complete_min, iodepth_batch_complete_max and
 * iodepth_low: parsed here, applied by the worker's fio-style loop (worker_batch.c).
 */
#include "options/options.h"
#include "base/units.h"

#include <stdio.h>
#include <string.h>

/* Which of the four an option row (or alias) sets, by its name. */
static int qb_index(const char *name)
{
	if (!strcmp(name, "iodepth_low"))
		return QB_LOW;
	if (!strcmp(name, "iodepth_batch_complete_max"))
		return QB_CMAX;
	if (!strncmp(name, "iodepth_batch_complete", 22))
		return QB_CMIN;
	return QB_SUBMIT;
}

int set_qbatch(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	int i = qb_index(o->name);
	uint64_t v;
	if (!*val) { /* a saved echo of none given (print_qbatch): iogauge's own queue */
		memset(&j->qbatch, 0, sizeof(j->qbatch));
		return 0;
	}
	if (parse_uint(val, &v) || v > 65536) {
		snprintf(err, n, "--%s: a whole number from 0 to 65536, not '%s'", o->name, val);
		return -1;
	}
	j->qbatch.given |= 1u << i;
	j->qbatch.v[i] = (unsigned)v;
	return 0;
}

void job_qbatch_eff(const struct job *j, struct qbatch_eff *q)
{
	unsigned depth = j->iodepth ? j->iodepth : 1;
	const struct job_qbatch *b = &j->qbatch;
	if (!b->given) {
		/* iogauge's own: the same model with every slot at once. */
		*q = (struct qbatch_eff){ .submit = depth, .cmin = 1, .cmax = depth, .low = depth };
		return;
	}
	/* fio's defaults (options.c) and fixup_options (init.c). */
	unsigned submit = b->given & (1u << QB_SUBMIT) ? b->v[QB_SUBMIT] : 1;
	unsigned cmin = b->given & (1u << QB_CMIN) ? b->v[QB_CMIN] : 1;
	unsigned cmax = b->given & (1u << QB_CMAX) ? b->v[QB_CMAX] : 0;
	unsigned low = b->given & (1u << QB_LOW) ? b->v[QB_LOW] : 0;
	q->poll = !cmin && !cmax;
	if (low > depth || !low)
		low = depth;
	if (submit > depth || !submit)
		submit = depth;
	if (cmin > cmax)
		cmax = cmin;
	*q = (struct qbatch_eff){ .submit = submit, .cmin = cmin, .cmax = cmax, .low = low, .poll = q->poll };
}

void print_qbatch(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = obj;
	struct qbatch_eff q;
	job_qbatch_eff(j, &q);
	const unsigned v[QB_NR] = { q.submit, q.cmin, q.cmax, q.low };
	int i = qb_index(o->name);
	if (!j->qbatch.given) {
		/* iogauge's own queue: nothing, so a saved echo read back does not turn it into fio's. */
		buf[0] = 0;
		return;
	}
	snprintf(buf, len, "%u", v[i]);
}
