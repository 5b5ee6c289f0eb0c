/*
 * The reader's decoders (report/result_read.h): latency objects with their
 * histogram buckets, and whole jobs and runs, so every writer (text, HTML)
 * renders a saved file as it renders a fresh run.
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "options/options.h"
#include "report/report.h"
#include "report/result_read.h"

#include <limits.h>
#include <math.h>
#include <errno.h>
#include <string.h>
#include <time.h>

static int get_u64(const json_t *o, const char *key, uint64_t *v, struct ig_err *e)
{
	const json_t *x = json_object_get(o, key);
	if (json_is_integer(x) && json_integer_value(x) >= 0)
		*v = (uint64_t)json_integer_value(x);
	else if (json_is_real(x) && json_real_value(x) >= 0)
		*v = (uint64_t)json_real_value(x);
	else
		return err_set(e, EXIT_USAGE, "a latency object has no valid \"%s\"", key);
	return 0;
}

int lat_from_json(const json_t *o, struct lat_stats *l, struct ig_err *e)
{
	uint64_t n, min, max, sum, total = 0, first = UINT64_MAX, last = 0;
	lat_free(l);
	lat_init(l);
	if (!json_is_object(o))
		return err_set(e, EXIT_USAGE, "a latency object is not a JSON object");
	if (get_u64(o, "samples", &n, e) || get_u64(o, "min", &min, e) ||
	    get_u64(o, "max", &max, e) || get_u64(o, "sum", &sum, e))
		return -1;
	const json_t *h = json_object_get(o, "histogram"), *b;
	if (!json_is_array(h))
		return err_set(e, EXIT_USAGE, "a latency object has no \"histogram\" array");
	l->h = xcalloc(1, sizeof(*l->h));
	size_t i;
	json_array_foreach(h, i, b) {
		const json_t *lo = json_array_get(b, 0), *cnt = json_array_get(b, 1);
		if (json_array_size(b) != 2 || !json_is_integer(lo) || !json_is_integer(cnt) ||
		    json_integer_value(lo) < 0 || json_integer_value(cnt) < 0)
			return err_set(e, EXIT_USAGE, "histogram bucket %zu is not [lower bound, count]", i);
		uint64_t v = (uint64_t)json_integer_value(lo);
		unsigned idx = hist_index(v);
		if (hist_bucket_low(idx) != v)
			return err_set(e, EXIT_USAGE,
				       "histogram bucket %zu: %llu is not a bucket boundary of iogauge's histogram",
				       i, (unsigned long long)v);
		l->h->counts[idx] += (uint64_t)json_integer_value(cnt);
		total += (uint64_t)json_integer_value(cnt);
		if (json_integer_value(cnt)) {
			first = idx < first ? idx : first;
			last = idx > last ? idx : last;
		}
	}
	if (total != n)
		return err_set(e, EXIT_USAGE, "histogram counts (%llu) differ from samples (%llu)",
			       (unsigned long long)total, (unsigned long long)n);
	if (n && (hist_index(min) != first || hist_index(max) != last || min > max))
		return err_set(e, EXIT_USAGE, "min %llu or max %llu lies outside the histogram's buckets",
			       (unsigned long long)min, (unsigned long long)max);
	l->n = n;
	l->min = n ? min : UINT64_MAX;
	l->max = max;
	l->sum = sum;
	const char *sq = json_string_value(json_object_get(o, "sumsq"));
	if (!sq || !*sq)
		return err_set(e, EXIT_USAGE, "a latency object has no \"sumsq\" string");
	unsigned __int128 v = 0;
	for (const char *p = sq; *p; p++) {
		if (*p < '0' || *p > '9')
			return err_set(e, EXIT_USAGE, "\"sumsq\" is not a decimal number: %.40s", sq);
		v = v * 10 + (unsigned)(*p - '0');
	}
	l->sumsq = v;
	return 0;
}

int options_from_json(const json_t *o, struct job *j, struct ig_err *e)
{
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)o, key, v) {
		const struct opt_def *d = option_find(key);
		char val[PATH_MAX + 32], err[ERR_MSG_MAX - 64];
		if (!d || d->scope != SCOPE_JOB)
			continue; /* a newer version's option: not ours to read */
		if (json_is_boolean(v))
			snprintf(val, sizeof(val), "%d", json_is_true(v));
		else if (json_is_number(v))
			snprintf(val, sizeof(val), "%llu%s", (unsigned long long)rk_u64_of(v),
				 d->type == OT_TIME ? "ns" : "");
		else if (json_is_string(v))
			snprintf(val, sizeof(val), "%s", json_string_value(v));
		else
			continue;
		if (d->type == OT_STR && !val[0])
			continue; /* an empty name or path: the default stands */
		if (option_apply(d, j, NULL, val, err, sizeof(err)))
			return err_set(e, EXIT_USAGE, "saved options: %s", err);
	}
	return 0;
}

static int lat_member(const json_t *o, const char *key, struct lat_stats *l, struct ig_err *e)
{
	const json_t *x = json_object_get(o, key);
	if (!x)
		return 0; /* slat of a synchronous engine */
	if (lat_from_json(x, l, e))
		return err_set(e, EXIT_USAGE, "%s: %s", key, e->msg);
	return 0;
}

/* Per-interval points back into cumulative totals, as the worker keeps them. */
static void series_from_json(const json_t *o, struct series *s)
{
	const json_t *pts = json_object_get(o, RK_POINTS), *p;
	struct series_pt sum;
	size_t i;
	memset(&sum, 0, sizeof(sum));
	s->n = 0;
	if (rk_u64(o, "interval_ns"))
		s->interval_ns = rk_u64(o, "interval_ns");
	json_array_foreach(pts, i, p) {
		sum.t_ns = rk_u64(p, "t_ns");
		for (int d = 0; d < DDIR_NR; d++) {
			const json_t *x = json_object_get(p, io_op_names[d]);
			uint64_t ios = rk_u64(x, "ios");
			sum.ios[d] += ios;
			sum.bytes[d] += rk_u64(x, "bytes");
			sum.lat_sum[d] += (uint64_t)llround(rk_num(x, "lat_mean_ns") * (double)ios);
			sum.lat_max[d] = rk_u64(x, "lat_max_ns");
		}
		series_push(s, &sum);
	}
}

int stats_from_json(const json_t *o, struct thread_stats *t, struct ig_err *e)
{
	if (!json_is_object(o))
		return err_set(e, EXIT_USAGE, "a job's statistics are not a JSON object");
	t->elapsed_ns = rk_u64(o, "elapsed_ns");
	t->verify_ns = rk_u64(o, "verify_ns");
	t->verify_ios = rk_u64(o, "verify_ios");
	for (int op = 0; op < IO_OP_NR; op++) {
		const json_t *x = json_object_get(o, io_op_names[op]);
		struct op_stats *s = &t->op[op];
		if (!x)
			continue;
		s->ios = rk_u64(x, "ios");
		s->bytes = rk_u64(x, "bytes");
		if (lat_member(x, "slat_ns", &s->slat, e) || lat_member(x, "clat_ns", &s->clat, e) ||
		    lat_member(x, "lat_ns", &s->lat, e))
			return err_set(e, EXIT_USAGE, "%s: %s", io_op_names[op], e->msg);
		const json_t *pa = json_object_get(x, "prios"), *pe;
		size_t np = json_array_size(pa), k;
		if (op >= DDIR_NR || !np || np > 256)
			continue;
		t->prio[op] = xcalloc(np, sizeof(*t->prio[op]));
		t->nprio[op] = (unsigned)np;
		json_array_foreach(pa, k, pe) {
			struct prio_lat *p = &t->prio[op][k];
			p->ioprio = (uint16_t)((rk_u64(pe, "prioclass") & 7) << 13 | (rk_u64(pe, "prio") & 7));
			lat_init(&p->lat);
			if (lat_member(pe, "clat_ns", &p->lat, e) || lat_member(pe, "lat_ns", &p->lat, e))
				return err_set(e, EXIT_USAGE, "%s: prios: %s", io_op_names[op], e->msg);
		}
	}
	const json_t *cpu = json_object_get(o, "cpu");
	t->cpu.usr_ns = rk_u64(cpu, "usr_ns");
	t->cpu.sys_ns = rk_u64(cpu, "sys_ns");
	t->cpu.ctx = rk_u64(cpu, "ctx");
	t->invalidations = rk_u64(o, "pass_invalidations");
	t->invalidate_ns = rk_u64(o, "pass_invalidate_ns");
	t->lat_depth = (unsigned)rk_u64(json_object_get(o, "latency_target"), "depth");
	t->overlap_held = rk_u64(o, "overlap_held");
	t->interrupted = json_is_true(json_object_get(o, RK_INTERRUPTED));
	const json_t *err = json_object_get(o, RK_ERROR);
	if (json_is_object(err)) {
		t->err = (int)rk_u64(err, "errno");
		t->err_offset = rk_u64(err, "offset");
		rk_strcpy(err, "file", t->err_file, sizeof(t->err_file));
		/* "short read: ..." ("short transfer" before the lengths were kept); a short read has no errno. */
		t->short_io = !strncmp(json_string_value(json_object_get(err, "message")) ?: "", "short ", 6);
		t->short_got = (uint32_t)rk_u64(err, "bytes");
		t->short_len = (uint32_t)rk_u64(err, "length");
		if (t->short_io && !t->err)
			t->err = ENODATA;
		const char *op = json_string_value(json_object_get(err, "op"));
		t->err_op = IO_READ;
		for (int k = 0; op && k < ERR_OP_HOOK + 1; k++)
			if (!strcmp(op, err_op_name(k)))
				t->err_op = k;
	}
	series_from_json(json_object_get(o, RK_SERIES), &t->series);
	return 0;
}

static void targets_from_json(const json_t *a, struct job_result *jr)
{
	size_t n = json_array_size(a), i;
	const json_t *o;
	jr->ntargets = n ? (unsigned)n : 1;
	jr->targets = xcalloc(jr->ntargets, sizeof(struct target));
	json_array_foreach(a, i, o) {
		struct target *t = &jr->targets[i];
		rk_strcpy(o, RK_PATH, t->path, sizeof(t->path));
		rk_strcpy(o, "fstype", t->fstype, sizeof(t->fstype));
		rk_strcpy(o, "device", t->device, sizeof(t->device));
		t->is_blockdev = json_is_true(json_object_get(o, RK_BLOCKDEV));
		t->direct = json_is_true(json_object_get(o, RK_DIRECT));
		t->created = json_is_true(json_object_get(o, RK_CREATED));
		t->size = rk_u64(o, "size");
		t->layout_bytes = rk_u64(o, "layout_bytes");
		t->layout_ns = rk_u64(o, "layout_ns");
		rk_strcpy(o, "layout_what", t->layout_what, sizeof(t->layout_what));
		t->fd = -1;
	}
	if (!n)
		jr->targets[0].fd = -1;
}

/* A job's steady state, with its last window, as the runner left it. */
static void steady_from_json(const json_t *o, struct job_result *jr)
{
	struct ss_result *s = &jr->ss;
	const json_t *w = json_object_get(o, RK_WINDOW);
	const json_t *iops = json_object_get(w, "iops"), *bw = json_object_get(w, "bw_bytes");
	if (!json_is_object(o))
		return;
	jr->job.ss_dur_ns = rk_u64(o, "duration_ns");
	jr->job.ss_ramp_ns = rk_u64(o, "ramp_ns");
	jr->job.ss_limit = rk_num(o, "limit");
	jr->job.ss_pct = json_is_true(json_object_get(o, "limit_pct"));
	const char *kind = json_string_value(json_object_get(o, "criterion"));
	for (int k = 1; kind && ss_kind_names[k]; k++)
		if (!strcmp(kind, ss_kind_names[k]))
			jr->job.ss_kind = k;
	ss_init(s, &jr->job, 0);
	s->attained = json_is_true(json_object_get(o, "attained"));
	s->attained_ns = rk_u64(o, "attained_ns");
	s->judged = json_is_true(json_object_get(o, "judged"));
	s->last.criterion = rk_num(o, "value");
	s->last.mean = rk_num(o, "mean");
	s->last.slope = rk_num(o, "slope");
	s->last.deviation = rk_num(o, "max_deviation");
	for (size_t i = 0; i < json_array_size(iops) && i < s->n; i++) {
		s->iops[i] = json_number_value(json_array_get(iops, i));
		s->bw[i] = json_number_value(json_array_get(bw, i));
		s->count = (unsigned)i + 1;
	}
}

int job_result_from_json(const json_t *o, struct job_result *jr, struct ig_err *e)
{
	struct settings s;
	memset(jr, 0, sizeof(*jr));
	options_defaults(&jr->job, &s);
	if (!json_is_object(o))
		return err_set(e, EXIT_USAGE, "a job is not a JSON object");
	if (options_from_json(json_object_get(o, RK_OPTIONS), &jr->job, e))
		return -1;
	const json_t *region = json_object_get(o, RK_REGION);
	if (json_is_object(region)) {
		/* The bytes fio's percentages came to (the options keep "50%"). */
		jr->job.offset = rk_u64(region, "offset");
		jr->job.size = rk_u64(region, "size");
		jr->job.offset_increment = rk_u64(region, "offset_increment");
		jr->job.io_size = rk_u64(region, "io_size");
	}
	rk_strcpy(o, RK_NAME, jr->job.name, sizeof(jr->job.name));
	jr->group = (unsigned)rk_u64(o, RK_GROUP);
	jr->nthreads = (unsigned)rk_u64(o, "threads_n");
	jr->nthreads = jr->nthreads ? jr->nthreads : 1;
	jr->buffered_fallback = json_is_true(json_object_get(o, RK_BUFFERED_FALLBACK));
	jr->invalidate_ns = rk_u64(o, "invalidate_ns");
	const json_t *res = json_object_get(o, "resident_before_bytes");
	jr->resident_before = json_is_number(res) ? (int64_t)rk_u64_of(res) : -1;
	const json_t *uns = json_object_get(o, "unsynced_after_bytes");
	jr->unsynced_after = json_is_number(uns) ? (int64_t)rk_u64_of(uns) : -1;
	const json_t *copy = json_object_get(o, "copy");
	if (json_is_object(copy)) {
		rk_strcpy(copy, RK_PATH, jr->job.plan.copy.path, sizeof(jr->job.plan.copy.path));
		jr->job.plan.copy.offset = rk_u64(copy, "offset");
		jr->job.plan.copy.direct = json_is_true(json_object_get(copy, RK_DIRECT));
		const char *sync = json_string_value(json_object_get(copy, "sync"));
		jr->job.plan.copy.sync = !sync ? SYNC_NONE : !strcmp(sync, "sync") ? SYNC_SYNC :
				    !strcmp(sync, "dsync") ? SYNC_DSYNC : SYNC_NONE;
	}
	targets_from_json(json_object_get(o, RK_TARGETS), jr);
	stats_init(&jr->total);
	jr->threads = xcalloc(jr->nthreads, sizeof(struct thread_stats));
	for (unsigned t = 0; t < jr->nthreads; t++)
		stats_init(&jr->threads[t]);
	if (stats_from_json(o, &jr->total, e))
		return err_set(e, EXIT_USAGE, "job %s: %s", jr->job.name, e->msg);
	steady_from_json(json_object_get(o, RK_STEADYSTATE), jr);
	const json_t *th = json_object_get(o, "threads");
	for (unsigned t = 0; t < jr->nthreads && t < json_array_size(th); t++)
		if (stats_from_json(json_array_get(th, t), &jr->threads[t], e))
			return err_set(e, EXIT_USAGE, "job %s, thread %u: %s", jr->job.name, t, e->msg);
	return 0;
}

static void devices_from_json(const json_t *a, struct run_result *r)
{
	size_t i;
	const json_t *o;
	json_array_foreach(a, i, o) {
		if (r->ndevs == MAX_DEVS)
			break;
		struct dev_result *d = &r->devs[r->ndevs++];
		rk_strcpy(o, RK_NAME, d->name, sizeof(d->name));
		d->rd_ios = rk_u64(o, "read_ios");
		d->rd_sectors = rk_u64(o, "read_bytes") / 512;
		d->wr_ios = rk_u64(o, "write_ios");
		d->wr_sectors = rk_u64(o, "write_bytes") / 512;
		d->span_ns = rk_u64(o, "span_ns");
		d->io_ticks_ms = (uint64_t)(rk_num(o, "util_pct") / 100 * (double)d->span_ns / 1e6);
		rk_strcpy(o, "disk", d->disk, sizeof(d->disk));
		/* The counts behind iostat -x's columns, back from the columns (ms are whole). */
		const json_t *c = json_object_get(o, RK_IOSTAT);
		double ms = (double)d->span_ns / 1e6;
		d->rd_ticks_ms = (uint64_t)llround(rk_num(c, "r_await_ms") * (double)d->rd_ios);
		d->wr_ticks_ms = (uint64_t)llround(rk_num(c, "w_await_ms") * (double)d->wr_ios);
		d->in_queue_ms = (uint64_t)llround(rk_num(c, "aqu_sz") * ms);
		d->rd_merges = (uint64_t)llround(rk_num(c, "rrqm_s") * ms / 1e3);
		d->wr_merges = (uint64_t)llround(rk_num(c, "wrqm_s") * ms / 1e3);
		d->ok = true;
	}
}

/* Other processes' I/O and targets without a device, as the run saw them. */
static void iostat_from_json(const json_t *root, struct run_result *r)
{
	struct iostat_run *io = &r->iostat;
	const json_t *a = json_object_get(root, RK_OTHER_IO), *o;
	size_t i;
	io->others_ok = json_is_array(a);
	if (json_array_size(a))
		io->others = xcalloc(json_array_size(a), sizeof(*io->others));
	json_array_foreach(a, i, o) {
		struct other_io *x = &io->others[io->nothers++];
		x->pid = (int)json_integer_value(json_object_get(o, "pid"));
		rk_strcpy(o, RK_NAME, x->name, sizeof(x->name));
		x->read_bytes = rk_u64(o, "read_bytes");
		x->write_bytes = rk_u64(o, "write_bytes");
	}
	json_array_foreach(json_object_get(root, RK_NO_DEVICE), i, o) {
		if (io->nnodev == sizeof(io->nodev) / sizeof(io->nodev[0]))
			break;
		rk_strcpy(o, RK_PATH, io->nodev[io->nnodev].path, sizeof(io->nodev[0].path));
		rk_strcpy(o, "fstype", io->nodev[io->nnodev++].fstype, sizeof(io->nodev[0].fstype));
	}
}

int run_result_from_json(const json_t *root, struct run_result *r, struct ig_err *e)
{
	const json_t *jobs = json_object_get(root, RK_JOBS), *o;
	size_t i;
	memset(r, 0, sizeof(*r));
	r->njobs = (unsigned)json_array_size(jobs);
	r->jobs = xcalloc(r->njobs ? r->njobs : 1, sizeof(*r->jobs));
	json_array_foreach(jobs, i, o) {
		if (job_result_from_json(o, &r->jobs[i], e))
			return -1;
		r->jobs[i].job.plan.index = (unsigned)i;
	}
	devices_from_json(json_object_get(root, RK_DEVICES), r);
	iostat_from_json(root, r);
	const json_t *notes = json_object_get(root, RK_NOTES);
	json_array_foreach(notes, i, o)
		if (r->nnotes < MAX_NOTES && json_is_string(o))
			snprintf(r->notes[r->nnotes++], sizeof(r->notes[0]), "%s", json_string_value(o));
	r->elapsed_ns = rk_u64(root, "elapsed_ns");
	r->status = (int)json_integer_value(json_object_get(root, RK_STATUS));
	r->interrupted = json_is_true(json_object_get(root, RK_INTERRUPTED));
	const char *err = json_string_value(json_object_get(root, RK_ERROR));
	if (err)
		err_set(&r->err, r->status ? r->status : EXIT_USAGE, "%s", err);
	struct tm tm;
	const char *ts = json_string_value(json_object_get(root, "started"));
	memset(&tm, 0, sizeof(tm));
	if (ts && strptime(ts, "%Y-%m-%dT%H:%M:%SZ", &tm))
		r->started = timegm(&tm);
	return 0;
}

int run_result_of_job(const struct result_job *j, struct run_result *r, struct ig_err *e)
{
	memset(r, 0, sizeof(*r));
	r->jobs = xcalloc(1, sizeof(*r->jobs));
	devices_from_json(json_object_get(j->job, RK_DEVICES), r);
	r->njobs = 1; /* freed with r, also when it is read only in part */
	return job_result_from_json(j->job, &r->jobs[0], e);
}
