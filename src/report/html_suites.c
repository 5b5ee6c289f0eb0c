/*
 * Charts of what a command finds in its figures: scale's IOPS against
 * latency and outstanding I/O with the knee ("scale"), steady's rounds with
 * the steady-state window ("steady"), the window of a run's job that asked
 * for steady state ("steadystate" in a job), and tree's MB/s and time a file
 * takes against the stream count with the best count ("tree").
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "base/units.h"
#include "report/html.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* A step's figure by its field (offsetof(struct result_step, iops)); NAN when missing. */
static double fig(const struct result_step *s, size_t off)
{
	return *(const double *)((const char *)s + off);
}
#define F(field) offsetof(struct result_step, field)

/* One dataset per thread count: y(step) against x(step), in the sweep's order. */
static void per_threads(json_t *c, const struct result_sweep *sw, const char *what, size_t xoff, size_t yoff,
			double yscale, const char *style)
{
	long long done[64];
	unsigned nd = 0;
	for (unsigned i = 0; i < sw->nsteps; i++) {
		long long t = sw->steps[i].numjobs;
		bool seen = false;
		for (unsigned k = 0; k < nd; k++)
			seen |= done[k] == t;
		if (seen || nd == ARRAY_SIZE(done))
			continue;
		done[nd++] = t;
		char label[96];
		snprintf(label, sizeof(label), "%s%s%lld thread%s", what, *what ? ", " : "", t, t == 1 ? "" : "s");
		json_t *ds = chart_dataset(c, label);
		if (style)
			json_object_set_new(ds, "style", json_string(style));
		for (unsigned k = 0; k < sw->nsteps; k++) {
			const struct result_step *x = &sw->steps[k];
			if (x->numjobs == t && x->measured)
				chart_point(ds, result_or0(fig(x, xoff)), result_or0(fig(x, yoff)) / yscale);
		}
	}
}

static void knee_points(json_t *c, const struct result_sweep *sw, size_t xoff, const size_t *yoffs, unsigned ny,
			double yscale)
{
	const struct result_step *knee = &sw->found;
	if (!sw->has_found || !knee->measured)
		return;
	char label[96];
	snprintf(label, sizeof(label), "knee: %s", knee->kase);
	json_t *ds = chart_dataset(c, label);
	json_object_set_new(ds, "style", json_string("knee"));
	for (unsigned i = 0; i < ny; i++)
		chart_point(ds, result_or0(fig(knee, xoff)), result_or0(fig(knee, yoffs[i])) / yscale);
}

static void scale_charts(struct page *p, unsigned r, const json_t *scale)
{
	char key[64], title[PATH_MAX + 64];
	static const size_t lat[] = { F(lat_mean_ns), F(lat_p99_ns) }, iops[] = { F(iops) };
	struct result_sweep *sw;
	unsigned nt = result_sweeps(scale, "knee", &sw);
	fputs("<h3>Scaling: the knee</h3>\n<div class=\"charts\">\n", p->f);
	for (unsigned t = 0; t < nt; t++) {
		const char *path = sw[t].path;
		snprintf(key, sizeof(key), "r%u:scale:lat:t%u", r, t);
		snprintf(title, sizeof(title), "IOPS against mean and p99 latency%s%s", nt > 1 ? ": " : "",
			 nt > 1 && path ? path : "");
		json_t *c = chart_new(p, "xy", key, title, "IOPS", "latency (us)");
		json_object_set_new(c, "ylog", json_true());
		per_threads(c, &sw[t], "mean", F(iops), F(lat_mean_ns), 1e3, NULL);
		per_threads(c, &sw[t], "p99", F(iops), F(lat_p99_ns), 1e3, "dash");
		knee_points(c, &sw[t], F(iops), lat, 2, 1e3);
		snprintf(key, sizeof(key), "r%u:scale:little:t%u", r, t);
		snprintf(title, sizeof(title), "IOPS against outstanding I/O (Little's law: IOPS x mean latency)%s%s",
			 nt > 1 ? ": " : "", nt > 1 && path ? path : "");
		c = chart_new(p, "xy", key, title, "outstanding I/O", "IOPS");
		json_object_set_new(c, "xlog", json_true());
		per_threads(c, &sw[t], "", F(outstanding), F(iops), 1, NULL);
		knee_points(c, &sw[t], F(outstanding), iops, 1, 1);
	}
	fputs("</div>\n", p->f);
	result_sweeps_free(sw, nt);
}

/* y(step) against the stream count, the measured steps of one tree target. */
static void tree_line_of(json_t *c, const struct result_sweep *sw, const char *label, size_t yoff, double yscale,
			 const char *style)
{
	json_t *ds = NULL;
	for (unsigned i = 0; i < sw->nsteps; i++) {
		const struct result_step *s = &sw->steps[i];
		double y = fig(s, yoff);
		if (!s->measured || isnan(y))
			continue;
		if (!ds) {
			ds = chart_dataset(c, label);
			if (style)
				json_object_set_new(ds, "style", json_string(style));
		}
		chart_point(ds, result_or0(s->streams), y / yscale);
	}
}

/* tree: MB/s (the stream's and the read alone) and the time a file takes against the stream count, the best marked. */
static void tree_charts(struct page *p, unsigned r, const json_t *tree)
{
	char key[64], title[PATH_MAX + 64];
	static const size_t mbs[] = { F(mb_s) }, p99[] = { F(lat_p99_ns) };
	struct result_sweep *sw;
	unsigned nt = result_sweeps(tree, "best", &sw);
	fputs("<h3>Streams: the best count</h3>\n<div class=\"charts\">\n", p->f);
	for (unsigned t = 0; t < nt; t++) {
		const char *path = sw[t].path;
		snprintf(key, sizeof(key), "r%u:tree:mbs:t%u", r, t);
		snprintf(title, sizeof(title), "MB/s against streams%s%s", nt > 1 ? ": " : "", nt > 1 && path ? path : "");
		json_t *c = chart_new(p, "xy", key, title, "streams", "MB/s");
		tree_line_of(c, &sw[t], "MB/s", F(mb_s), 1, NULL);
		tree_line_of(c, &sw[t], "read alone", F(read_mb_s), 1, "dash");
		knee_points(c, &sw[t], F(streams), mbs, 1, 1);
		snprintf(key, sizeof(key), "r%u:tree:p99:t%u", r, t);
		snprintf(title, sizeof(title), "p99 time a file takes against streams%s%s", nt > 1 ? ": " : "",
			 nt > 1 && path ? path : "");
		c = chart_new(p, "xy", key, title, "streams", "p99 per file (ms)");
		tree_line_of(c, &sw[t], "p99", F(lat_p99_ns), 1e6, NULL);
		tree_line_of(c, &sw[t], "mean", F(lat_mean_ns), 1e6, "dash");
		knee_points(c, &sw[t], F(streams), p99, 1, 1e6);
	}
	fputs("</div>\n", p->f);
	result_sweeps_free(sw, nt);
}

/* A horizontal or sloped line over rounds [a, b]: y(a) and y(b). */
static void segment(json_t *c, const char *label, double a, double ya, double b, double yb)
{
	json_t *ds = chart_dataset(c, label);
	json_object_set_new(ds, "style", json_string("dash"));
	chart_point(ds, a, ya);
	chart_point(ds, b, yb);
}

/* The tracked case's rounds, its window, the average, the band and the least-squares line. */
static void steady_tracked(struct page *p, unsigned r, unsigned t, const struct result_steady *steady,
			   const struct result_steady_target *x, const char *suffix)
{
	char key[64], title[PATH_MAX + 256], of[160] = "";
	bool reached = x->reached;
	long long first = x->first_round, last = x->last_round;
	const char *tracked = steady->tracked_case;
	if (x->ncases > 1 && tracked)
		snprintf(of, sizeof(of), ", tracked case %s", tracked);
	if (reached)
		snprintf(title, sizeof(title), "Steady state reached at round %lld (window: rounds %lld-%lld)%s%s",
			 last, first, last, of, suffix);
	else
		snprintf(title, sizeof(title), "Steady state not reached in %u rounds%s%s", x->nrounds, of, suffix);
	snprintf(key, sizeof(key), "r%u:steady:t%u", r, t);
	json_t *c = chart_new(p, "xy", key, title, "round", "IOPS");
	json_object_set_new(c, "xint", json_true());
	json_t *all = chart_dataset(c, "IOPS per round");
	for (unsigned i = 0; i < x->nrounds; i++)
		chart_point(all, x->rounds[i].round, x->rounds[i].iops);
	if (!x->has_window)
		return;
	json_t *win = chart_dataset(c, reached ? "steady-state window" : "last window (not steady)");
	json_object_set_new(win, "style", json_string("window"));
	for (unsigned i = 0; i < x->nrounds; i++)
		if (x->rounds[i].round >= (double)first && x->rounds[i].round <= (double)last)
			chart_point(win, x->rounds[i].round, x->rounds[i].iops);
	double mean = x->iops_mean, slope = x->slope, mid = (first + last) / 2.0;
	double half = steady->range_pct_limit / 200;
	segment(c, "window average", (double)first, mean, (double)last, mean);
	/* The band: two segments of one dataset, a gap (y null) between them. */
	char band[64];
	snprintf(band, sizeof(band), "average +/- %g%%", half * 100);
	json_t *b = chart_dataset(c, band);
	json_object_set_new(b, "style", json_string("dash"));
	chart_point(b, (double)first, mean * (1 + half));
	chart_point(b, (double)last, mean * (1 + half));
	json_t *gap = json_object();
	json_object_set_new(gap, "x", json_real((double)last));
	json_object_set_new(gap, "y", json_null());
	json_array_append_new(json_object_get(b, "data"), gap);
	chart_point(b, (double)first, mean * (1 - half));
	chart_point(b, (double)last, mean * (1 - half));
	segment(c, "least-squares line", (double)first, mean + slope * (first - mid), (double)last,
		mean + slope * (last - mid));
}

/*
 * Several cases: as PTS's convergence plot, every block size's rounds at the
 * tracked case's mix (with one block size, every case's), on a log scale:
 * block sizes differ by orders of magnitude.
 */
static void steady_cases(struct page *p, unsigned r, unsigned t, const struct result_steady *steady,
			 const struct result_steady_target *x, const char *suffix)
{
	const char *tracked = steady->tracked_case;
	long long mix = -1;
	unsigned same = 0;
	char key[64], title[PATH_MAX + 96];
	for (unsigned i = 0; i < x->ncases; i++)
		if (tracked && !strcmp(tracked, x->cases[i].name ?: ""))
			mix = x->cases[i].read_pct;
	for (unsigned i = 0; i < x->ncases; i++)
		same += x->cases[i].read_pct == mix;
	if (same < 2)
		mix = -1;
	snprintf(key, sizeof(key), "r%u:steady:cases:t%u", r, t);
	if (mix >= 0)
		snprintf(title, sizeof(title), "IOPS per round, every block size at R/W %lld/%lld%s", mix, 100 - mix,
			 suffix);
	else
		snprintf(title, sizeof(title), "IOPS per round, every case%s", suffix);
	json_t *c = chart_new(p, "xy", key, title, "round", "IOPS");
	json_object_set_new(c, "xint", json_true());
	json_object_set_new(c, "ylog", json_true());
	for (unsigned i = 0; i < x->ncases; i++) {
		const struct result_steady_case *cs = &x->cases[i];
		if (mix >= 0 && cs->read_pct != mix)
			continue;
		json_t *ds = chart_dataset(c, cs->name);
		for (unsigned k = 0; k < cs->nrounds; k++)
			if (cs->rounds[k].iops > 0)
				chart_point(ds, cs->rounds[k].round, cs->rounds[k].iops);
	}
}

/* PTS's table: each case's average IOPS over the window, block sizes by read/write mixes. */
static void steady_table(struct page *p, const struct result_steady *steady, const struct result_steady_target *x,
			 const char *path)
{
	const char *what = x->table_rounds;
	fprintf(p->f, "<p>Average IOPS by block size and R/W mix over %s (rounds %lld-%lld)%s",
		what && !strcmp(what, "steady window") ? "the steady-state window"
		: what && !strcmp(what, "last window") ? "the last window (steady state NOT reached)"
							: "every round measured (too few for a window)",
		x->table_first, x->table_last, path ? ": " : "");
	if (path)
		html_esc(p->f, path);
	fputs("</p>\n<table class=\"meta steady-table\">\n<tr><th>Block</th>", p->f);
	for (unsigned k = 0; k < steady->nread_pcts; k++) {
		long long rd = steady->read_pcts[k];
		fprintf(p->f, "<th style=\"text-align:right; padding-left:16px\">%lld/%lld</th>", rd, 100 - rd);
	}
	fputs("</tr>\n", p->f);
	for (unsigned i = 0; i < x->nrows; i++) {
		char b[32];
		print_size((uint64_t)x->rows[i].bs, b, sizeof(b));
		fprintf(p->f, "<tr><th>%s</th>", b);
		for (unsigned k = 0; k < x->rows[i].ncells; k++) {
			double cell = x->rows[i].cells[k];
			if (!isnan(cell))
				fprintf(p->f, "<td style=\"text-align:right; padding-left:16px\">%.1f</td>", cell);
			else
				fputs("<td style=\"text-align:right\">-</td>", p->f);
		}
		fputs("</tr>\n", p->f);
	}
	fputs("</table>\n", p->f);
}

static void steady_charts(struct page *p, unsigned r, const json_t *own)
{
	char suffix[PATH_MAX + 8];
	struct result_steady steady;
	result_steady(own, &steady);
	unsigned nt = steady.ntargets;
	fputs("<h3>Steady state: the rounds</h3>\n<div class=\"charts\">\n", p->f);
	for (unsigned t = 0; t < nt; t++) {
		const struct result_steady_target *x = &steady.targets[t];
		snprintf(suffix, sizeof(suffix), "%s%s", nt > 1 ? ": " : "", nt > 1 && x->path ? x->path : "");
		steady_tracked(p, r, t, &steady, x, suffix);
		if (x->ncases > 1)
			steady_cases(p, r, t, &steady, x, suffix);
	}
	fputs("</div>\n", p->f);
	for (unsigned t = 0; t < nt; t++)
		if (steady.targets[t].ncases > 1)
			steady_table(p, &steady, &steady.targets[t], nt > 1 ? steady.targets[t].path : NULL);
	result_steady_free(&steady);
}

/* run: the window of each job that asked for steady state. */
static void run_steady_charts(struct page *p, unsigned r)
{
	char key[64], title[256];
	bool any = false;
	struct result_job *jobs;
	unsigned nj = result_jobs(p->res[r].root, &jobs);
	for (unsigned i = 0; i < nj; i++) {
		struct result_ss ss;
		if (!result_job_ss(&jobs[i], &ss))
			continue;
		bool bw = !strncmp(ss.criterion, "bw", 2);
		const double *w = bw ? ss.bw_bytes : ss.iops;
		unsigned nw = bw ? ss.nbw : ss.niops;
		if (!nw) {
			result_ss_free(&ss);
			continue;
		}
		if (!any)
			fputs("<h3>Steady state</h3>\n<div class=\"charts\">\n", p->f);
		any = true;
		snprintf(key, sizeof(key), "r%u:ss:j%u", r, i);
		snprintf(title, sizeof(title), "%s: the last window (%s), %s", jobs[i].name, ss.criterion,
			 ss.attained ? "steady state attained" : "not attained");
		json_t *c = chart_new(p, "xy", key, title, "second of the window", bw ? "MB/s" : "IOPS");
		json_t *ds = chart_dataset(c, bw ? "MB/s per second" : "IOPS per second");
		json_object_set_new(ds, "style", json_string("window"));
		double sum = 0;
		for (unsigned k = 0; k < nw; k++) {
			double y = w[k] / (bw ? 1e6 : 1);
			chart_point(ds, (double)k + 1, y);
			sum += y;
		}
		double n = (double)nw;
		segment(c, "window mean", 1, sum / n, n, sum / n);
		result_ss_free(&ss);
	}
	if (any)
		fputs("</div>\n", p->f);
	result_jobs_free(jobs, nj);
}

/* A cell of fs's table: a number of the file system's object, or "-". */
static void fs_cell(FILE *f, double v, int prec)
{
	if (!isnan(v))
		fprintf(f, "<td style=\"text-align:right; padding-left:16px\">%.*f</td>", prec, v);
	else
		fputs("<td style=\"text-align:right; padding-left:16px\">-</td>", f);
}

/* fs: a column per file system (what it adds to the cases: writeback, unmount), and the scaling ratios. */
static void fs_table(struct page *p, const json_t *own)
{
#define C(field) offsetof(struct result_fs_column, field)
	static const struct {
		const char *label;
		size_t off;
		int prec;
	} rows[] = {
		{ "dd write + writeback MB/s", C(dd_to_disk_mb_s), 2 }, { "writeback after return s", C(writeback_s), 3 },
		{ "unmount s", C(unmount_s), 3 },			{ "mkfs s", C(mkfs_s), 3 },
		{ "devices", C(devices), 0 },
	};
#undef C
	struct result_fs fs;
	result_fs(own, &fs);
	fputs("<h3>File systems</h3>\n<table class=\"meta fs-table\">\n<tr><th></th>", p->f);
	for (unsigned i = 0; i < fs.nfs; i++) {
		fputs("<th style=\"text-align:right; padding-left:16px\">", p->f);
		html_esc(p->f, fs.fs[i].label);
		fputs("</th>", p->f);
	}
	fputs("</tr>\n", p->f);
	for (size_t r = 0; r < ARRAY_SIZE(rows); r++) {
		fprintf(p->f, "<tr><th>%s</th>", rows[r].label);
		for (unsigned i = 0; i < fs.nfs; i++)
			fs_cell(p->f, *(const double *)((const char *)&fs.fs[i] + rows[r].off), rows[r].prec);
		fputs("</tr>\n", p->f);
	}
	fputs("</table>\n", p->f);
	for (unsigned i = 0; i < fs.nscaling; i++) {
		const struct result_fs_scaling *x = &fs.scaling[i];
		fputs("<p>Scaling: ", p->f);
		html_esc(p->f, x->target);
		fprintf(p->f, " over %lld devices against ", x->devices);
		html_esc(p->f, x->single);
		fputs(" on one (2.00 would be linear):", p->f);
		for (unsigned k = 0; k < x->nratios; k++) {
			fputs(" ", p->f);
			html_esc(p->f, x->ratios[k].name);
			fprintf(p->f, " x%.2f;", x->ratios[k].v);
		}
		fputs("</p>\n", p->f);
	}
	if (fs.loop_dir) {
		fputs("<p>Loop devices over images in ", p->f);
		html_esc(p->f, fs.loop_dir);
		fputs(": that file system is measured too, not a device.</p>\n", p->f);
	}
	result_fs_free(&fs);
}

void charts_suite(struct page *p, unsigned r)
{
	const json_t *root = p->res[r].root;
	const json_t *scale = result_own(root, RK_SCALE), *steady = result_own(root, RK_STEADY);
	const json_t *tree = result_own(root, RK_TREE), *fs = result_own(root, RK_FS);
	if (json_is_object(scale))
		scale_charts(p, r, scale);
	if (json_is_object(tree))
		tree_charts(p, r, tree);
	if (json_is_object(steady))
		steady_charts(p, r, steady);
	if (json_is_object(fs))
		fs_table(p, fs);
	run_steady_charts(p, r);
}
