/*
 * The chart data of the HTML report, computed here from saved results so
 * the page's script only draws: bars with the passes' min-max as error bars,
 * latency percentile curves from the merged histograms (x = 1/(1-p) on a log
 * scale), and per-second bandwidth, IOPS and latency of every job.
 */
#include "base/common.h"
#include "report/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* More cases than this share one percentile chart instead of one each. */
#define PCT_CHARTS_MAX 8

json_t *chart_new(struct page *p, const char *kind, const char *key, const char *title,
		  const char *xlabel, const char *ylabel)
{
	unsigned id = (unsigned)json_array_size(p->charts);
	json_t *c = json_object();
	char cid[32];
	snprintf(cid, sizeof(cid), "chart%u", id);
	json_object_set_new(c, "id", json_string(cid));
	json_object_set_new(c, "kind", json_string(kind));
	json_object_set_new(c, "key", ig_json_text(key));
	json_object_set_new(c, "title", ig_json_text(title));
	json_object_set_new(c, "xlabel", ig_json_text(xlabel));
	json_object_set_new(c, "ylabel", ig_json_text(ylabel));
	json_object_set_new(c, "datasets", json_array());
	json_array_append_new(p->charts, c);
	fprintf(p->f, "<figure class=\"chart %s\"><canvas id=\"%s\" aria-label=\"", kind, cid);
	html_esc(p->f, title);
	fputs("\"></canvas></figure>\n", p->f);
	return c;
}

json_t *chart_dataset(json_t *c, const char *label)
{
	json_t *ds = json_object();
	json_object_set_new(ds, "label", ig_json_text(label));
	json_object_set_new(ds, "data", json_array());
	json_array_append_new(json_object_get(c, "datasets"), ds);
	return ds;
}

void chart_point(json_t *ds, double x, double y)
{
	json_t *pt = json_object();
	json_object_set_new(pt, "x", json_real(x));
	json_object_set_new(pt, "y", json_real(y));
	json_array_append_new(json_object_get(ds, "data"), pt);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void chart_pct_points(json_t *ds, const struct lat_stats *l)
{
	/* The usual marks, then ten points a decade of 1/(1-p), up to the last rank. */
	static const double marks[] = { 50, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 99.9999 };
	double ps[ARRAY_SIZE(marks) + 80];
	unsigned n = 0;
	if (!l->n)
		return;
	for (unsigned i = 0; i < ARRAY_SIZE(marks); i++)
		if (1 / (1 - marks[i] / 100) <= (double)l->n)
			ps[n++] = marks[i];
	for (unsigned k = 0; k < 70 && pow(10, k / 10.0) <= (double)l->n; k++)
		ps[n++] = 100 * (1 - pow(10, -(double)k / 10));
	qsort(ps, n, sizeof(double), cmp_double);
	for (unsigned i = 0; i < n; i++) {
		if (i && ps[i] - ps[i - 1] < 1e-9)
			continue;
		double p = ps[i];
		uint64_t v = p > 0 ? lat_pct(l, p) : l->min;
		chart_point(ds, 1 / (1 - p / 100), (double)v / 1e3);
		json_object_set_new(json_array_get(json_object_get(ds, "data"), json_array_size(json_object_get(ds, "data")) - 1),
				    "p", json_real(p));
	}
	/* The largest sample at its plotting position: rank n of n is p = 1 - 1/(2n). */
	chart_point(ds, 2 * (double)l->n, (double)l->max / 1e3);
	json_t *last = json_array_get(json_object_get(ds, "data"), json_array_size(json_object_get(ds, "data")) - 1);
	json_object_set_new(last, "p", json_real(100));
}

/* ---- over several results and targets */

/* A dataset's name: the result's label and the target, where more than one of each is shown. */
static void ds_label(char *buf, size_t len, const char *result, const char *target, const char *what,
		     bool many_targets)
{
	bool with_target = (many_targets || !*result) && *target;
	snprintf(buf, len, "%s%s%s%s%s", result, *result && with_target ? " " : "", with_target ? target : "",
		 (*result || with_target) && *what ? " " : "", what);
	if (!buf[0])
		snprintf(buf, len, "%s", "this run");
}

struct group {
	const char *result;  /* label */
	const json_t *root;
	const char **targets;
	unsigned ntargets;
	struct result_job *en;
	unsigned nen;
	bool suite;
	struct result_suite su; /* a suite's figures */
};

static void groups_load(struct page *p, const unsigned *which, unsigned n, struct group *g)
{
	for (unsigned i = 0; i < n; i++) {
		memset(&g[i], 0, sizeof(g[i]));
		g[i].root = p->res[which[i]].root;
		g[i].result = n > 1 ? p->res[which[i]].label : "";
		g[i].ntargets = result_targets(g[i].root, &g[i].targets);
		g[i].nen = result_jobs(g[i].root, &g[i].en);
		struct result_head h;
		struct ig_err e = { 0 };
		result_head(g[i].root, &h);
		g[i].suite = h.suite;
		if (h.suite)
			result_suite(g[i].root, &g[i].su, &e); /* its targets and figures even when a case is amiss */
	}
}

static void groups_free(struct group *g, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		free(g[i].targets);
		result_jobs_free(g[i].en, g[i].nen);
		result_suite_free(&g[i].su);
	}
}

/* Category names: the suites' cases, or the jobs' names, in order of first appearance. */
static json_t *categories(const struct group *g, unsigned n)
{
	json_t *cats = json_array();
	for (unsigned i = 0; i < n; i++) {
		for (unsigned k = 0; k < g[i].nen; k++) {
			const char *c = g[i].en[k].kase;
			size_t m;
			json_t *x;
			bool seen = false;
			json_array_foreach(cats, m, x)
				seen |= !strcmp(json_string_value(x), c);
			if (!seen)
				json_array_append_new(cats, ig_json_text(c));
		}
	}
	return cats;
}

/* run: a job's figure over read and write (MB/s or IOPS), or NAN when no such job. */
static double job_fig(const struct group *g, const char *c, bool mbs)
{
	for (unsigned k = 0; k < g->nen; k++) {
		if (strcmp(g->en[k].kase, c))
			continue;
		const struct result_dir *d = g->en[k].dir;
		double v = mbs ? result_or0(d[0].bw_bytes) + result_or0(d[1].bw_bytes) :
				 result_or0(d[0].iops) + result_or0(d[1].iops);
		return mbs ? v / 1e6 : v;
	}
	return NAN;
}

static void bars(struct page *p, const struct group *g, unsigned n, const char *key, bool mbs)
{
	char k[128], label[PATH_MAX + 128];
	bool many = false;
	for (unsigned i = 0; i < n; i++)
		many |= g[i].ntargets > 1;
	snprintf(k, sizeof(k), "%s:bar:%s", key, mbs ? "mb_s" : "iops");
	json_t *c = chart_new(p, "bar", k, mbs ? "Bandwidth (read + write), median and min-max of the passes" :
					       "IOPS (read + write), median and min-max of the passes",
			      "", mbs ? "MB/s" : "IOPS");
	json_t *cats = categories(g, n);
	json_object_set(c, "labels", cats);
	for (unsigned i = 0; i < n; i++) {
		for (unsigned t = 0; t < g[i].ntargets; t++) {
			ds_label(label, sizeof(label), g[i].result, g[i].targets[t], "", many);
			json_t *ds = chart_dataset(c, label), *err = json_array();
			size_t m;
			json_t *cat;
			json_object_set_new(ds, "err", err);
			json_array_foreach(cats, m, cat) {
				const char *cn = json_string_value(cat);
				json_t *data = json_object_get(ds, "data");
				if (!g[i].suite) {
					double v = job_fig(&g[i], cn, mbs);
					json_array_append_new(data, isnan(v) ? json_null() : json_real(v));
					json_array_append_new(err, json_null());
					continue;
				}
				struct result_fig f;
				bool v = result_suite_fig(&g[i].su, t, cn, "total", mbs ? "mb_s" : "iops", &f);
				json_array_append_new(data, v ? json_real(result_or0(f.median)) : json_null());
				json_t *range = json_array();
				json_array_append_new(range, json_real(v ? result_or0(f.min) : 0));
				json_array_append_new(range, json_real(v ? result_or0(f.max) : 0));
				json_array_append_new(err, v && f.passes > 1 ? range : json_null());
				if (!v || !(f.passes > 1))
					json_decref(range);
			}
		}
	}
	json_decref(cats);
}

/* The clat histograms of one case on one target (every pass merged) for direction d. */
static void merged_lat(const struct group *g, const char *target, const char *kase, int d,
		       struct lat_stats *out)
{
	lat_init(out);
	for (unsigned k = 0; k < g->nen; k++) {
		if ((target && strcmp(g->en[k].target, target)) || (kase && strcmp(g->en[k].kase, kase)))
			continue;
		struct lat_stats l;
		struct ig_err e = { 0 };
		lat_init(&l);
		const json_t *x = g->en[k].dir[d].clat;
		if (x && !lat_from_json(x, &l, &e))
			lat_merge(out, &l);
		lat_free(&l);
	}
}

static void pct_datasets(json_t *c, const struct group *g, const char *kase, bool many, bool name_case)
{
	char label[PATH_MAX + 256], what[160];
	for (unsigned t = 0; t < g->ntargets; t++) {
		json_t *cats = categories(g, 1);
		size_t m;
		json_t *cat;
		json_array_foreach(cats, m, cat) {
			const char *cn = json_string_value(cat);
			if (kase && strcmp(cn, kase))
				continue;
			for (int d = 0; d < DDIR_NR; d++) {
				struct lat_stats l;
				merged_lat(g, g->suite ? g->targets[t] : NULL, cn, d, &l);
				if (l.n) {
					snprintf(what, sizeof(what), "%s%s%s", name_case ? cn : "", name_case ? " " : "",
						 io_op_names[d]);
					ds_label(label, sizeof(label), g->result, g->targets[t], what, many);
					chart_pct_points(chart_dataset(c, label), &l);
				}
				lat_free(&l);
			}
		}
		json_decref(cats);
		if (!g->suite)
			break; /* run: the jobs name their own targets */
	}
}

static void percentiles(struct page *p, const struct group *g, unsigned n, const char *key)
{
	char k[256], title[256];
	bool many = false, suite = true;
	for (unsigned i = 0; i < n; i++) {
		many |= g[i].ntargets > 1 && g[i].suite;
		suite &= g[i].suite;
	}
	json_t *cats = categories(g, n);
	size_t ncats = json_array_size(cats), m;
	json_t *cat;
	if (!suite || ncats > PCT_CHARTS_MAX) {
		/* One chart for everything: each curve names its case or job. */
		snprintf(k, sizeof(k), "%s:pct", key);
		json_t *c = chart_new(p, "pct", k, "Completion latency percentiles", "percentile", "latency (us)");
		for (unsigned i = 0; i < n; i++)
			pct_datasets(c, &g[i], NULL, many, true);
	} else {
		json_array_foreach(cats, m, cat) {
			const char *cn = json_string_value(cat);
			snprintf(k, sizeof(k), "%s:pct:%s", key, cn);
			snprintf(title, sizeof(title), "Completion latency percentiles: %s", cn);
			json_t *c = chart_new(p, "pct", k, title, "percentile", "latency (us)");
			for (unsigned i = 0; i < n; i++)
				pct_datasets(c, &g[i], cn, many, false);
		}
	}
	json_decref(cats);
}

void charts_compare(struct page *p, const unsigned *which, unsigned n)
{
	struct group *g = xcalloc(n, sizeof(*g));
	char key[32];
	groups_load(p, which, n, g);
	snprintf(key, sizeof(key), n > 1 ? "all" : "r%u", which[0]);
	unsigned jobs = 0;
	for (unsigned i = 0; i < n; i++)
		jobs += g[i].nen;
	if (jobs) {
		fputs("<h3>Figures</h3>\n<div class=\"charts\">\n", p->f);
		bars(p, g, n, key, true);
		bars(p, g, n, key, false);
		fputs("</div>\n<h3>Latency percentiles</h3>\n<div class=\"charts\">\n", p->f);
		percentiles(p, g, n, key);
		fputs("</div>\n", p->f);
	}
	groups_free(g, n);
	free(g);
}

/* ---- one result over time */

static const char *const series_what[] = { "mb_s", "iops", "lat" };
static const char *const series_title[] = { "Bandwidth per second", "IOPS per second",
					    "Mean completion latency per second" };
static const char *const series_unit[] = { "MB/s", "IOPS", "latency (us)" };

static void series_points(json_t *ds, const struct result_point *pts, unsigned n, int d, int what)
{
	for (unsigned i = 0; i < n; i++) {
		const struct result_point *pt = &pts[i];
		double dur = pt->dur_ns, ios = pt->ios[d];
		if (dur <= 0 || (what == 2 && ios <= 0))
			continue;
		double y = what == 0 ? pt->bytes[d] / dur * 1e3 : what == 1 ? ios / dur * 1e9 : pt->lat_mean_ns[d] / 1e3;
		chart_point(ds, pt->t_ns / 1e9, y);
	}
}

void charts_series(struct page *p, unsigned r)
{
	struct group g;
	unsigned one = r;
	char key[PATH_MAX + 64], title[PATH_MAX + 128], label[256];
	groups_load(p, &one, 1, &g);
	bool any = false;
	for (unsigned k = 0; k < g.nen; k++)
		any |= g.en[k].npoints > 0;
	if (any)
		fputs("<h3>Over time</h3>\n<div class=\"charts\">\n", p->f);
	for (unsigned t = 0; any && t < (g.suite ? g.ntargets : 1); t++) {
		for (int w = 0; w < 3; w++) {
			snprintf(key, sizeof(key), "r%u:time:%s:t%u", r, series_what[w], t);
			snprintf(title, sizeof(title), "%s%s%s", series_title[w], g.suite && g.ntargets > 1 ? ": " : "",
				 g.suite && g.ntargets > 1 ? g.targets[t] : "");
			json_t *c = chart_new(p, "time", key, title, "seconds", series_unit[w]);
			for (unsigned k = 0; k < g.nen; k++) {
				const struct result_job *e = &g.en[k];
				if (g.suite && strcmp(e->target, g.targets[t]))
					continue;
				struct result_point *pts;
				struct result_rank *ranks;
				unsigned npts = result_series(e, &pts), nranks = result_ranks(e, &ranks);
				bool both = result_or0(e->dir[0].ios) > 0 && result_or0(e->dir[1].ios) > 0;
				for (int d = 0; d < DDIR_NR; d++) {
					if (result_or0(e->dir[d].ios) <= 0)
						continue;
					char pass[16] = "";
					if (g.su.passes > 1)
						snprintf(pass, sizeof(pass), " pass %d", e->pass);
					/* The direction is named only where a job has both. */
					snprintf(label, sizeof(label), "%s%s%s%s%s", e->kase, pass, both ? " " : "",
						 both ? io_op_names[d] : "", nranks ? " (all ranks)" : "");
					series_points(chart_dataset(c, label), pts, npts, d, w);
					/* Several ranks (iogauge-mpi): each rank's own series beside the aggregate. */
					for (unsigned ri = 0; ri < nranks; ri++) {
						const struct result_rank *rk = &ranks[ri];
						if (!rk->npoints)
							continue; /* --rank-results=brief|none: the aggregate only */
						snprintf(label, sizeof(label), "%s%s%s%s rank %lld%s%s%s", e->kase, pass,
							 both ? " " : "", both ? io_op_names[d] : "", rk->rank,
							 rk->host ? " (" : "", rk->host ? rk->host : "", rk->host ? ")" : "");
						series_points(chart_dataset(c, label), rk->points, rk->npoints, d, w);
					}
				}
				free(pts);
				result_ranks_free(ranks, nranks);
			}
		}
	}
	if (any)
		fputs("</div>\n", p->f);
	groups_free(&g, 1);
}
