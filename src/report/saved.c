/*
 * Saved results as `compare` reads them: each test's figure with the spread
 * of its passes, keyed by row name and target, and the settings that must
 * match.  The file is read through report/result_read.h.
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "base/ctx.h"
#include "report/report.h"
#include "report/result_read.h"
#include "options/options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A figure to compare: its key in the saved JSON, how it is shown, which way is better. */
struct metric {
	const char *key;   /* suites: the figure's name; run/dd: see below */
	const char *label; /* "MB/s" */
	const char *unit;
	double scale;      /* saved value / scale = shown value */
	int prec;
	bool lower_better;
	const char *name;  /* the figure in its shown unit, for the store: "lat_mean_us" */
	bool extra;        /* not one of compare's rows: kept by the store alone */
};

static const struct metric suite_metrics[] = {
	{ "mb_s", "MB/s", "MB/s", 1, 2, false, "mb_s", false },
	{ "iops", "IOPS", "IOPS", 1, 0, false, "iops", false },
	{ "lat_mean_ns", "mean latency us", "us", 1e3, 1, true, "lat_mean_us", false },
	{ "lat_p99_ns", "p99 latency us", "us", 1e3, 1, true, "lat_p99_us", false },
	{ "lat_p50_ns", "p50 latency us", "us", 1e3, 1, true, "lat_p50_us", true },
	{ "lat_min_ns", "min latency us", "us", 1e3, 1, true, "lat_min_us", true },
	{ "lat_max_ns", "max latency us", "us", 1e3, 1, true, "lat_max_us", true },
	{ "lat_stddev_ns", "latency stddev us", "us", 1e3, 1, true, "lat_stddev_us", true },
	{ "cpu_pct", "CPU %", "%", 1, 1, true, "cpu_pct", true },
	{ "elapsed_s", "elapsed s", "s", 1, 3, true, "elapsed_s", true },
	{ NULL, NULL, NULL, 0, 0, false, NULL, false },
};
/* latency (ioping): a request every interval, so rates say nothing; its latencies do. */
static const struct metric latency_metrics[] = {
	{ "lat_min_ns", "min us", "us", 1e3, 1, true, "lat_min_us", false },
	{ "lat_mean_ns", "avg us", "us", 1e3, 1, true, "lat_mean_us", false },
	{ "lat_max_ns", "max us", "us", 1e3, 1, true, "lat_max_us", false },
	{ "lat_stddev_ns", "mdev us", "us", 1e3, 1, true, "lat_stddev_us", false },
	{ "lat_p50_ns", "p50 us", "us", 1e3, 1, true, "lat_p50_us", false },
	{ "lat_p99_ns", "p99 us", "us", 1e3, 1, true, "lat_p99_us", false },
	{ NULL, NULL, NULL, 0, 0, false, NULL, false },
};

static void add_entry(struct saved_result *r, const char *column, const char *job, const char *dir,
		      const struct metric *m, double median, double min, double max, unsigned passes)
{
	if (isnan(median) || (m->extra && !r->all))
		return;
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		struct saved_entry *e = realloc(r->e, r->cap * sizeof(*e));
		if (!e) {
			msg_err("out of memory reading %s", r->path);
			ctx_emergency();
			exit(EXIT_IOERR);
		}
		r->e = e;
	}
	struct saved_entry *e = &r->e[r->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->column, sizeof(e->column), "%s", column);
	if (*dir)
		snprintf(e->row, sizeof(e->row), "%s: %s %s", job, dir, m->label);
	else
		snprintf(e->row, sizeof(e->row), "%s: %s", job, m->label);
	snprintf(e->job, sizeof(e->job), "%s", job);
	snprintf(e->dir, sizeof(e->dir), "%s", dir);
	e->metric = m->name;
	e->judged = !m->extra;
	e->unit = m->unit;
	e->prec = m->prec;
	e->lower_better = m->lower_better;
	e->median = median / m->scale;
	e->min = min / m->scale;
	e->max = max / m->scale;
	e->passes = passes;
}

/*
 * The options that must match, without the ones that name the target
 * (compared across targets).  A key a result lacks was at its default: an
 * older result echoes every option, a newer one a suite's own and those set
 * (options_json), so both are completed with the defaults before they meet.
 */
static json_t *settings_of(const json_t *options, bool fill)
{
	/* An imported result's options are the ones its tool echoed: compared alone, not filled in. */
	json_t *o = fill ? options_json_defaults() : json_object();
	if (json_is_object(options))
		json_object_update(o, (json_t *)options);
	json_object_del(o, "filename");
	json_object_del(o, "directory");
	return o;
}

/* A case's figure (job NULL) or, in a case of several jobs, one job's. */
static bool fig_at(const struct result_suite *s, unsigned t, const char *kase, const char *job, const char *dir,
		   const char *fig, struct result_fig *f)
{
	return job ? result_suite_job_fig(s, t, kase, job, dir, fig, f) : result_suite_fig(s, t, kase, dir, fig, f);
}

/* Did a case (or its job) move bytes in this direction in any pass? */
static bool moved(const struct result_suite *s, unsigned t, const char *kase, const char *job, const char *dir)
{
	struct result_fig f;
	return fig_at(s, t, kase, job, dir, "mb_s", &f) && f.max > 0;
}

/* The figures of a case on target t, or of one of its jobs (named "CASE / JOB"). */
static void case_figs(struct saved_result *r, const struct result_suite *s, unsigned t, const char *kase,
		      const char *job, const struct metric *metrics)
{
	static const char *const dir_names[] = { "read", "write", "total" };
	char name[256];
	if (job)
		snprintf(name, sizeof(name), "%s / %s", kase, job);
	else
		snprintf(name, sizeof(name), "%s", kase);
	bool both = moved(s, t, kase, job, "read") && moved(s, t, kase, job, "write");
	for (unsigned d = 0; d < 3; d++) {
		/* A direction with nothing moved says nothing; the total only adds to a mix. */
		if (!moved(s, t, kase, job, dir_names[d]) || (d == 2 && !both))
			continue;
		for (const struct metric *m = metrics; m->key; m++) {
			struct result_fig f;
			if (!fig_at(s, t, kase, job, dir_names[d], m->key, &f))
				continue;
			add_entry(r, s->targets[t].path, name, dir_names[d], m, f.median, f.min, f.max,
				  f.passes > 1 ? (unsigned)f.passes : 0);
		}
	}
}

/*
 * suite.targets[].cases.NAME.DIR.FIG = {median, min, max, passes}: a column
 * per target.  A case of several jobs at once gives each job's figures
 * (its own keys are its first job's: not counted twice).
 */
static int load_suite(struct saved_result *r, const json_t *root, struct ig_err *e)
{
	struct result_suite s;
	struct ig_err le = { 0 };
	if (result_suite(root, &s, &le)) {
		result_suite_free(&s);
		return err_set(e, le.status, "compare: %s: %s", r->path, le.msg);
	}
	const struct metric *metrics = strcmp(r->command, "latency") ? suite_metrics : latency_metrics;
	r->settings = json_object();
	json_object_set_new(r->settings, RK_OPTIONS, settings_of(s.options, true));
	json_object_set(r->settings, RK_CASES, (json_t *)s.cases_json);
	for (unsigned t = 0; t < s.ntargets; t++) {
		for (unsigned c = 0; c < s.ncases; c++) {
			const char **jobs;
			unsigned nj = result_suite_jobs(&s, t, s.cases[c].name, &jobs);
			if (!nj)
				case_figs(r, &s, t, s.cases[c].name, NULL, metrics);
			for (unsigned k = 0; k < nj; k++)
				case_figs(r, &s, t, s.cases[c].name, jobs[k], metrics);
			free(jobs);
		}
	}
	result_suite_free(&s);
	return 0;
}

/* `run` and `dd`: each job by name; bandwidth, IOPS and completion latency of each direction. */
static void load_dirs(struct saved_result *r, const char *name, const struct result_dir *dirs, bool rates)
{
	static const struct metric bw = { "bw_bytes", "MB/s", "MB/s", 1e6, 2, false, "mb_s", false },
				   iops = { "iops", "IOPS", "IOPS", 1, 0, false, "iops", false },
				   mean = { "mean", "mean latency us", "us", 1e3, 1, true, "lat_mean_us", false },
				   p99 = { "99.000000", "p99 latency us", "us", 1e3, 1, true, "lat_p99_us", false },
				   p50 = { "50.000000", "p50 latency us", "us", 1e3, 1, true, "lat_p50_us", true },
				   p999 = { "99.900000", "p99.9 latency us", "us", 1e3, 1, true, "lat_p999_us", true },
				   lmin = { "min", "min latency us", "us", 1e3, 1, true, "lat_min_us", true },
				   lmax = { "max", "max latency us", "us", 1e3, 1, true, "lat_max_us", true },
				   sd = { "stddev", "latency stddev us", "us", 1e3, 1, true, "lat_stddev_us", true };
	for (unsigned d = 0; d < DDIR_NR; d++) {
		const struct result_dir *op = &dirs[d];
		if (!(op->bytes > 0))
			continue;
		const char *dn = io_op_names[d];
#define ADD(m, val) add_entry(r, "", name, dn, &(m), (val), (val), (val), 0)
		if (rates) {
			ADD(bw, op->bw_bytes);
			ADD(iops, op->iops);
		}
		ADD(mean, op->clat_mean);
		ADD(p99, op->clat_p99);
		ADD(p50, op->clat_p50);
		ADD(p999, op->clat_p999);
		ADD(lmin, op->clat_min);
		ADD(lmax, op->clat_max);
		ADD(sd, op->clat_stddev);
#undef ADD
	}
}

static void load_jobs(struct saved_result *r, const struct result_job *jobs, unsigned n, bool rates)
{
	for (unsigned i = 0; i < n; i++)
		load_dirs(r, jobs[i].name ? jobs[i].name : "?", jobs[i].dir, rates);
}

static int load_run(struct saved_result *r, const json_t *root)
{
	struct result_job *jobs;
	unsigned n = result_jobs(root, &jobs);
	r->settings = json_object();
	for (unsigned i = 0; i < n; i++)
		json_object_set_new(r->settings, jobs[i].name ? jobs[i].name : "?",
				    settings_of(jobs[i].options, !*r->imported));
	load_jobs(r, jobs, n, true);
	result_jobs_free(jobs, n);
	/* A group of several jobs (fio's group reporting sums them): its own figures too. */
	struct result_group *g;
	unsigned ng = result_groups(root, &g);
	for (unsigned i = 0; i < ng; i++) {
		char name[64];
		snprintf(name, sizeof(name), "group %u", g[i].index);
		if (g[i].njobs > 1)
			load_dirs(r, name, g[i].dir, true);
	}
	free(g);
	return 0;
}

/* dd: the operands without if= and of= (two disks compared with the same operands), and dd's rate. */
static int load_dd(struct saved_result *r, const json_t *root, struct ig_err *e)
{
	struct result_dd dd;
	if (!result_dd(root, &dd))
		return err_set(e, EXIT_USAGE, "compare: %s: no \"dd\" object", r->path);
	r->settings = json_deep_copy(dd.operands);
	if (!r->settings)
		r->settings = json_object();
	json_object_del(r->settings, "if");
	json_object_del(r->settings, "of");
	static const struct metric rate = { "bw_bytes", "MB/s", "MB/s", 1e6, 2, false, "mb_s", false };
	add_entry(r, "", "dd", "", &rate, dd.bw_bytes, dd.bw_bytes, dd.bw_bytes, 0);
	struct result_job *jobs;
	unsigned n = result_jobs(root, &jobs);
	load_jobs(r, jobs, n, false); /* dd's rate is the rate */
	result_jobs_free(jobs, n);
	return 0;
}

int saved_from_root(const json_t *root, const char *name, bool all, struct saved_result *r, struct ig_err *e)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", name);
	r->all = all;
	struct result_head h;
	result_head(root, &h);
	snprintf(r->command, sizeof(r->command), "%s", h.command);
	snprintf(r->imported, sizeof(r->imported), "%s", h.imported);
	int rc = h.suite ? load_suite(r, root, e) : !strcmp(h.command, "dd") ? load_dd(r, root, e) : load_run(r, root);
	if (!rc && !r->n)
		rc = err_set(e, EXIT_USAGE, "compare: %s: no measured figures in it", name);
	if (rc)
		saved_free(r);
	return rc;
}

int saved_load(const char *path, struct saved_result *r, struct ig_err *e)
{
	struct ig_err le = { 0 };
	memset(r, 0, sizeof(*r));
	json_t *root = result_load(path, &le);
	if (!root)
		return err_set(e, le.status, "compare: %s", le.msg);
	int rc = saved_from_root(root, path, false, r, e);
	json_decref(root);
	return rc;
}

void saved_free(struct saved_result *r)
{
	json_decref(r->settings);
	free(r->e);
	r->settings = NULL;
	r->e = NULL;
	r->n = r->cap = 0;
}

/*
 * The first key where two settings objects differ, as "key: A vs B".  only:
 * at the second level (a job's options), keys that only one of the two
 * names are not compared (an imported result names the options it echoed).
 */
static bool first_difference(const json_t *a, const json_t *b, const char *prefix, bool only, int depth, char *why,
			     size_t len)
{
	const char *k;
	json_t *v;
	for (int side = 0; side < 2; side++) {
		const json_t *x = side ? b : a, *y = side ? a : b;
		json_object_foreach((json_t *)x, k, v) {
			const json_t *w = json_object_get(y, k);
			if (w && json_equal(v, w))
				continue;
			if (!w && only && depth == 1)
				continue;
			char key[256];
			snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", k);
			if (json_is_object(v) && json_is_object(w))
				return first_difference(v, w, key, only, depth + 1, why, len);
			char *sa = json_dumps(side ? w : v, JSON_ENCODE_ANY | JSON_COMPACT);
			char *sb = json_dumps(side ? v : w, JSON_ENCODE_ANY | JSON_COMPACT);
			snprintf(why, len, "%s: %.60s vs %.60s", key, sa ? sa : "(none)", sb ? sb : "(none)");
			free(sa);
			free(sb);
			return true;
		}
	}
	return false;
}

int saved_same_settings(const struct saved_result *a, const struct saved_result *b, char *why, size_t len)
{
	bool only = *a->imported || *b->imported;
	if (!only && json_equal(a->settings, b->settings))
		return 0;
	if (first_difference(a->settings, b->settings, "", only, 0, why, len))
		return -1;
	if (only)
		return 0;
	snprintf(why, len, "the settings differ");
	return -1;
}

bool saved_same_kind(const char *a, const char *b)
{
	bool jobs_a = !strcmp(a, "run") || !strcmp(a, "fio"), jobs_b = !strcmp(b, "run") || !strcmp(b, "fio");
	return !strcmp(a, b) || (jobs_a && jobs_b);
}
