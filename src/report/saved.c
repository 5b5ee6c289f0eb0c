/*
 * Saved results as `compare` reads them: each test's figure with the spread
 * of its passes, keyed by row name and target, and the settings that must
 * match.  The file is read by result_load (json_read.c).
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "base/ctx.h"
#include "report/report.h"

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
};

static const struct metric suite_metrics[] = {
	{ "mb_s", "MB/s", "MB/s", 1, 2, false },
	{ "iops", "IOPS", "IOPS", 1, 0, false },
	{ "lat_mean_ns", "mean latency us", "us", 1e3, 1, true },
	{ "lat_p99_ns", "p99 latency us", "us", 1e3, 1, true },
	{ NULL, NULL, NULL, 0, 0, false },
};
/* latency (ioping): a request every interval, so rates say nothing; its latencies do. */
static const struct metric latency_metrics[] = {
	{ "lat_min_ns", "min us", "us", 1e3, 1, true },
	{ "lat_mean_ns", "avg us", "us", 1e3, 1, true },
	{ "lat_max_ns", "max us", "us", 1e3, 1, true },
	{ "lat_stddev_ns", "mdev us", "us", 1e3, 1, true },
	{ "lat_p50_ns", "p50 us", "us", 1e3, 1, true },
	{ "lat_p99_ns", "p99 us", "us", 1e3, 1, true },
	{ NULL, NULL, NULL, 0, 0, false },
};

static double num(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void add_entry(struct saved_result *r, const char *column, const char *row, const struct metric *m,
		      double median, double min, double max, unsigned passes)
{
	if (isnan(median))
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
	snprintf(e->row, sizeof(e->row), "%s", row);
	e->unit = m->unit;
	e->prec = m->prec;
	e->lower_better = m->lower_better;
	e->median = median / m->scale;
	e->min = min / m->scale;
	e->max = max / m->scale;
	e->passes = passes;
}

/* The options that must match, without the ones that name the target (compared across targets). */
static json_t *settings_of(const json_t *options)
{
	json_t *o = json_is_object(options) ? json_deep_copy(options) : json_object();
	json_object_del(o, "filename");
	json_object_del(o, "directory");
	return o;
}

/* Did a case move bytes in this direction in any pass? */
static bool moved(const json_t *dirs, const char *dir)
{
	return num(json_object_get(json_object_get(json_object_get(dirs, dir), "mb_s"), "max")) > 0;
}

/* suite.targets[].cases.NAME.DIR.FIG = {median, min, max, passes}: a column per target. */
static int load_suite(struct saved_result *r, const json_t *suite, struct ig_err *e)
{
	const json_t *targets = json_object_get(suite, RK_TARGETS), *t, *cases = json_object_get(suite, RK_CASES);
	if (!json_is_array(targets) || !json_is_array(cases))
		return err_set(e, EXIT_USAGE, "compare: %s: \"suite\" has no targets or cases", r->path);
	const struct metric *metrics = strcmp(r->command, "latency") ? suite_metrics : latency_metrics;
	r->settings = json_object();
	json_object_set_new(r->settings, RK_OPTIONS, settings_of(json_object_get(suite, RK_OPTIONS)));
	json_object_set(r->settings, RK_CASES, (json_t *)cases);
	size_t ti;
	json_array_foreach(targets, ti, t) {
		const char *path = json_string_value(json_object_get(t, RK_PATH));
		const json_t *byname = json_object_get(t, RK_CASES), *kase;
		size_t ci;
		json_array_foreach(cases, ci, kase) {
			const char *name = json_string_value(json_object_get(kase, RK_NAME));
			const json_t *dirs = json_object_get(byname, name ? name : "");
			static const char *const dir_names[] = { "read", "write", "total" };
			bool both = moved(dirs, "read") && moved(dirs, "write");
			for (unsigned d = 0; d < 3 && json_is_object(dirs); d++) {
				const json_t *figs = json_object_get(dirs, dir_names[d]);
				/* A direction with nothing moved says nothing; the total only adds to a mix. */
				if (!json_is_object(figs) || !moved(dirs, dir_names[d]) || (d == 2 && !both))
					continue;
				for (const struct metric *m = metrics; m->key; m++) {
					const json_t *f = json_object_get(figs, m->key);
					char row[256];
					snprintf(row, sizeof(row), "%s: %s %s", name, dir_names[d], m->label);
					json_int_t passes = json_integer_value(json_object_get(f, RK_PASSES));
					add_entry(r, path ? path : "", row, m, num(json_object_get(f, "median")),
						  num(json_object_get(f, "min")), num(json_object_get(f, "max")),
						  passes > 1 ? (unsigned)passes : 0);
				}
			}
		}
	}
	return 0;
}

/* `run` and `dd`: each job by name; bandwidth, IOPS and completion latency of each direction. */
static void load_jobs(struct saved_result *r, const json_t *jobs, bool rates)
{
	static const struct metric bw = { "bw_bytes", "MB/s", "MB/s", 1e6, 2, false },
				   iops = { "iops", "IOPS", "IOPS", 1, 0, false },
				   mean = { "mean", "mean latency us", "us", 1e3, 1, true },
				   p99 = { "99.000000", "p99 latency us", "us", 1e3, 1, true };
	static const char *const dirs[] = { "read", "write" };
	const json_t *j;
	size_t i;
	json_array_foreach(jobs, i, j) {
		const char *name = json_string_value(json_object_get(j, RK_NAME));
		for (unsigned d = 0; d < 2; d++) {
			const json_t *op = json_object_get(j, dirs[d]);
			if (!(num(json_object_get(op, "bytes")) > 0))
				continue;
			const json_t *clat = json_object_get(op, "clat_ns");
			char row[256];
			double v;
#define ADD(m, val)                                                                  \
	do {                                                                         \
		snprintf(row, sizeof(row), "%s: %s %s", name ? name : "?", dirs[d], (m).label); \
		v = (val);                                                           \
		add_entry(r, "", row, &(m), v, v, v, 0);                             \
	} while (0)
			if (rates) {
				ADD(bw, num(json_object_get(op, "bw_bytes")));
				ADD(iops, num(json_object_get(op, "iops")));
			}
			ADD(mean, num(json_object_get(clat, "mean")));
			ADD(p99, num(json_object_get(json_object_get(clat, "percentiles"), "99.000000")));
#undef ADD
		}
	}
}

static int load_run(struct saved_result *r, const json_t *root, struct ig_err *e)
{
	const json_t *jobs = json_object_get(root, RK_JOBS), *j;
	if (!json_is_array(jobs))
		return err_set(e, EXIT_USAGE, "compare: %s: no \"jobs\" array", r->path);
	r->settings = json_object();
	size_t i;
	json_array_foreach(jobs, i, j) {
		const char *name = json_string_value(json_object_get(j, RK_NAME));
		json_object_set_new(r->settings, name ? name : "?", settings_of(json_object_get(j, RK_OPTIONS)));
	}
	load_jobs(r, jobs, true);
	return 0;
}

/* dd: the operands without if= and of= (two disks compared with the same operands), and dd's rate. */
static int load_dd(struct saved_result *r, const json_t *root, struct ig_err *e)
{
	const json_t *dd = json_object_get(root, RK_DD);
	if (!json_is_object(dd))
		return err_set(e, EXIT_USAGE, "compare: %s: no \"dd\" object", r->path);
	r->settings = json_deep_copy(json_object_get(dd, "operands"));
	if (!r->settings)
		r->settings = json_object();
	json_object_del(r->settings, "if");
	json_object_del(r->settings, "of");
	static const struct metric rate = { "bw_bytes", "MB/s (dd)", "MB/s", 1e6, 2, false };
	double v = num(json_object_get(dd, "bw_bytes"));
	add_entry(r, "", "dd: MB/s", &rate, v, v, v, 0);
	load_jobs(r, json_object_get(root, RK_JOBS), false); /* dd's rate is the rate */
	return 0;
}

int saved_load(const char *path, struct saved_result *r, struct ig_err *e)
{
	struct ig_err le = { 0 };
	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", path);
	json_t *root = result_load(path, &le);
	if (!root)
		return err_set(e, le.status, "compare: %s", le.msg);
	const char *cmd = json_string_value(json_object_get(json_object_get(root, RK_IOGAUGE), RK_COMMAND));
	snprintf(r->command, sizeof(r->command), "%s", cmd);
	const json_t *suite = json_object_get(root, RK_SUITE);
	int rc = suite ? load_suite(r, suite, e) : !strcmp(cmd, "dd") ? load_dd(r, root, e) : load_run(r, root, e);
	if (!rc && !r->n)
		rc = err_set(e, EXIT_USAGE, "compare: %s: no measured figures in it", path);
	json_decref(root);
	if (rc)
		saved_free(r);
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

/* The first key where two settings objects differ, as "key: A vs B". */
static bool first_difference(const json_t *a, const json_t *b, const char *prefix, char *why, size_t len)
{
	const char *k;
	json_t *v;
	for (int side = 0; side < 2; side++) {
		const json_t *x = side ? b : a, *y = side ? a : b;
		json_object_foreach((json_t *)x, k, v) {
			const json_t *w = json_object_get(y, k);
			if (w && json_equal(v, w))
				continue;
			char key[256];
			snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", k);
			if (json_is_object(v) && json_is_object(w))
				return first_difference(v, w, key, why, len);
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
	if (json_equal(a->settings, b->settings))
		return 0;
	if (!first_difference(a->settings, b->settings, "", why, len))
		snprintf(why, len, "the settings differ");
	return -1;
}
