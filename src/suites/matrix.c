/*
 * `iogauge matrix`: Oracle Orion's method.  Each data point runs a small-I/O
 * job (random, --size-small) and a large-I/O job (random or sequential
 * streams, --size-large) at the same time, at a number of outstanding I/Os
 * each; the run level chooses the points.  A table of cases (one per point,
 * two jobs each) for the executor, Orion's summary on stdout and in
 * NAME_summary.txt, and NAME_iops.csv, NAME_mbps.csv, NAME_lat.csv laid out
 * as Orion lays them out (rows: large levels, columns: small levels).
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "options/command.h"
#include "stats/knee.h"
#include "options/options.h"
#include "options/args.h"
#include "suites/matrix_opts.h"
#include "suite/suite.h"
#include "base/userfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RUN_SIMPLE, RUN_NORMAL, RUN_OLTP, RUN_DSS, RUN_ADVANCED };
enum { M_BASIC, M_DETAILED, M_POINT, M_COL, M_ROW, M_MAX };
#define MAX_LEVELS 64

/* Outstanding-I/O levels up to max: every one to 10, then ten more evenly spaced up to max. */
static unsigned levels(unsigned max, unsigned *out)
{
	unsigned n = 0;
	for (unsigned v = 1; v <= max && v <= (max <= 20 ? 20 : 10); v++)
		out[n++] = v;
	if (max > 20)
		for (unsigned k = 1; k <= 10; k++) {
			unsigned v = 10 + (unsigned)(((uint64_t)k * (max - 10) + 5) / 10);
			if (v > out[n - 1])
				out[n++] = v;
		}
	return n;
}

/* Orion's points: (small, large) outstanding I/Os; 0 means that kind is not run. */
struct point {
	unsigned s, l;
};

static unsigned grid(const unsigned *sl, unsigned ns, const unsigned *ll, unsigned nl,
		     struct point *p)
{
	unsigned n = 0;
	for (unsigned j = 0; j <= nl; j++)
		for (unsigned i = 0; i <= ns; i++)
			if (i || j)
				p[n++] = (struct point){ i ? sl[i - 1] : 0, j ? ll[j - 1] : 0 };
	return n;
}

static unsigned basic(const unsigned *sl, unsigned ns, const unsigned *ll, unsigned nl,
		      struct point *p)
{
	unsigned n = 0;
	for (unsigned i = 0; i < ns; i++)
		p[n++] = (struct point){ sl[i], 0 };
	for (unsigned j = 0; j < nl; j++)
		p[n++] = (struct point){ 0, ll[j] };
	return n;
}

static int points(const struct matrix_opts *m, struct point *p, unsigned *n, struct ig_err *e)
{
	unsigned sl[MAX_LEVELS], ll[MAX_LEVELS], ns, nl, nd = m->num_disks;
	switch (m->run) {
	case RUN_SIMPLE:
		ns = levels(5 * nd, sl);
		nl = levels(2 * nd, ll);
		*n = basic(sl, ns, ll, nl, p);
		return 0;
	case RUN_NORMAL:
		ns = levels(5 * nd, sl);
		nl = levels(2 * nd, ll);
		*n = grid(sl, ns, ll, nl, p);
		return 0;
	case RUN_OLTP:
		ns = levels(20 * nd, sl);
		*n = basic(sl, ns, ll, 0, p);
		return 0;
	case RUN_DSS:
		nl = levels(5 * nd, ll);
		*n = basic(sl, 0, ll, nl, p);
		return 0;
	}
	static const char *const kinds[] = { "basic", "detailed", "point", "col", "row", "max" };
	bool either = m->matrix == M_POINT || m->matrix == M_MAX;
	if ((either && !m->num_small && !m->num_large) || (m->matrix == M_COL && !m->num_small) ||
	    (m->matrix == M_ROW && !m->num_large))
		return err_set(e, EXIT_USAGE, "--matrix=%s needs %s", kinds[m->matrix],
			       either ? "--num-small or --num-large (or both)" :
			       m->matrix == M_COL ? "--num-small" : "--num-large");
	ns = levels(5 * nd, sl);
	nl = levels(2 * nd, ll);
	switch (m->matrix) {
	case M_BASIC:
		*n = basic(sl, ns, ll, nl, p);
		break;
	case M_DETAILED:
		*n = grid(sl, ns, ll, nl, p);
		break;
	case M_POINT:
		p[0] = (struct point){ m->num_small, m->num_large };
		*n = 1;
		break;
	case M_COL: /* the large load varies, the small one stays */
		*n = 0;
		p[(*n)++] = (struct point){ m->num_small, 0 };
		for (unsigned j = 0; j < nl; j++)
			p[(*n)++] = (struct point){ m->num_small, ll[j] };
		break;
	case M_ROW:
		*n = 0;
		p[(*n)++] = (struct point){ 0, m->num_large };
		for (unsigned i = 0; i < ns; i++)
			p[(*n)++] = (struct point){ sl[i], m->num_large };
		break;
	default: /* max: every point up to the given loads */
		ns = m->num_small ? levels(m->num_small, sl) : 0;
		nl = m->num_large ? levels(m->num_large, ll) : 0;
		*n = grid(sl, ns, ll, nl, p);
		break;
	}
	return 0;
}

static char *point_opts(const struct matrix_opts *m, struct point p)
{
	char buf[512];
	size_t k = 0;
	const char *rr = m->write_pct ? "randrw" : "randread", *sr = m->write_pct ? "rw" : "read";
#define ADD(...) (k += (size_t)snprintf(buf + k, sizeof(buf) - k, __VA_ARGS__))
	ADD("--rwmixwrite=%u", m->write_pct);
	if (p.s)
		ADD(" --name=small --rw=%s --bs=%llu --iodepth=%u --numjobs=1", rr,
		    (unsigned long long)m->size_small, p.s);
	if (p.l && !m->type)
		ADD(" --name=large --rw=%s --bs=%llu --iodepth=%u --numjobs=1", rr,
		    (unsigned long long)m->size_large, p.l);
	else if (p.l)
		ADD(" --name=large --rw=%s --bs=%llu --iodepth=%u --numjobs=%u --group_reporting=1", sr,
		    (unsigned long long)m->size_large, m->num_streamio, p.l);
#undef ADD
	return xstrdup(buf);
}

static int plan(const struct suite_run *sr, struct job *base, struct suite_case **out, unsigned *n,
		struct ig_err *e)
{
	const struct matrix_opts *m = matrix_opts_c(sr->s);
	struct point *p = xcalloc((MAX_LEVELS + 1) * (MAX_LEVELS + 1), sizeof(*p));
	(void)base;
	if (m->run != RUN_ADVANCED && m->matrix != M_BASIC) {
		free(p);
		return err_set(e, EXIT_USAGE, "--matrix is for --run=advanced");
	}
	if (points(m, p, n, e)) {
		free(p);
		return -1;
	}
	struct suite_case *c = xcalloc(*n, sizeof(*c));
	for (unsigned i = 0; i < *n; i++) {
		char name[64];
		snprintf(name, sizeof(name), "Small=%u Large=%u", p[i].s, p[i].l);
		c[i].name = xstrdup(name);
		c[i].opts = point_opts(m, p[i]);
	}
	free(p);
	*out = c;
	return 0;
}

/* ---- the figures of the points */

struct pt {
	unsigned s, l;
	bool done;
	double iops, lat_ms, mbps; /* small IOPS, small mean latency, large MiB/s */
	double liops, llat_ms;     /* large IOPS and mean latency */
};

static void point_of(const struct suite_run *sr, unsigned c, struct pt *q)
{
	if (sscanf(sr->suite->cases[c].name, "Small=%u Large=%u", &q->s, &q->l) != 2)
		q->s = q->l = 0;
	unsigned small = 0, large = q->s ? 1 : 0;
	q->done = false;
	if (q->s) {
		struct fig3 v = suite_fig_job(sr, 0, c, small, FD_TOTAL, FIG_IOPS);
		struct fig3 l = suite_fig_job(sr, 0, c, small, FD_TOTAL, FIG_LAT_MEAN);
		q->done = v.n > 0;
		q->iops = v.median;
		q->lat_ms = l.median / 1e6;
	}
	if (q->l) {
		struct fig3 v = suite_fig_job(sr, 0, c, large, FD_TOTAL, FIG_MBS);
		q->done = v.n > 0 && (q->done || !q->s);
		q->mbps = v.median * 1e6 / (1 << 20);
		q->liops = suite_fig_job(sr, 0, c, large, FD_TOTAL, FIG_IOPS).median;
		q->llat_ms = suite_fig_job(sr, 0, c, large, FD_TOTAL, FIG_LAT_MEAN).median / 1e6;
	}
}

/* ---- the knee of small or large I/O alone, by Little's law as `scale` finds it (knee.c) */

struct alone {
	unsigned n;                     /* levels measured with the other kind not run */
	struct pt p[MAX_LEVELS];        /* in increasing level */
	struct knee_out k;
};

static void alone(const struct suite_run *sr, bool small, struct alone *a)
{
	struct knee_pt kp[MAX_LEVELS];
	a->n = 0;
	for (unsigned c = 0; c < sr->suite->ncases && a->n < MAX_LEVELS; c++) {
		struct pt q;
		point_of(sr, c, &q);
		if (!q.done || (small ? !q.s || q.l : q.s || !q.l))
			continue;
		unsigned i = a->n++;
		for (; i && (small ? a->p[i - 1].s > q.s : a->p[i - 1].l > q.l); i--)
			a->p[i] = a->p[i - 1];
		a->p[i] = q;
	}
	for (unsigned i = 0; i < a->n; i++) {
		double iops = small ? a->p[i].iops : a->p[i].liops, ms = small ? a->p[i].lat_ms : a->p[i].llat_ms;
		kp[i] = (struct knee_pt){ iops, iops * ms / 1e3 };
	}
	knee_find(kp, a->n, &a->k);
}

static void print_knee(FILE *f, const struct suite_run *sr, bool small)
{
	struct alone a;
	alone(sr, small, &a);
	if (a.n < 2)
		return;
	const char *kind = small ? "Small" : "Large";
	const struct pt *q = &a.p[a.k.knee];
	fprintf(f, "Knee of %s I/O alone (Little's law, as iogauge scale): %s=%u, ", small ? "small" : "large",
		kind, small ? q->s : q->l);
	if (small)
		fprintf(f, "%.0f IOPS at %.2f ms", q->iops, q->lat_ms);
	else
		fprintf(f, "%.2f MBPS at %.2f ms", q->mbps, q->llat_ms);
	if (a.k.next < 0) {
		fprintf(f, "; the last level: IOPS still rose by more than latency\n");
		return;
	}
	const struct pt *n = &a.p[a.k.next];
	fprintf(f, "; %s=%u added %.1f IOPS per added outstanding I/O, under the %.1f at which IOPS and latency grow alike\n",
		kind, small ? n->s : n->l, a.k.gain, a.k.threshold);
}

static json_t *knee_json(const struct suite_run *sr, bool small)
{
	struct alone a;
	alone(sr, small, &a);
	if (a.n < 2)
		return json_null();
	const struct pt *q = &a.p[a.k.knee];
	json_t *o = json_object();
	json_object_set_new(o, "level", json_integer(small ? q->s : q->l));
	json_object_set_new(o, "iops", json_real(small ? q->iops : q->liops));
	json_object_set_new(o, "lat_ms", json_real(small ? q->lat_ms : q->llat_ms));
	if (!small)
		json_object_set_new(o, "mbps", json_real(q->mbps));
	json_object_set_new(o, "next_level", a.k.next < 0 ? json_null() :
				 json_integer(small ? a.p[a.k.next].s : a.p[a.k.next].l));
	json_object_set_new(o, "gain_iops_per_io", a.k.next < 0 ? json_null() : json_real(a.k.gain));
	json_object_set_new(o, "threshold_iops_per_io", a.k.next < 0 ? json_null() : json_real(a.k.threshold));
	return o;
}

/* Values as the files print them: the summary's maxima are the files' maxima. */
static long r_iops(double v)
{
	return (long)floor(v + 0.5);
}

static double r2(double v)
{
	return floor(v * 100 + 0.5) / 100;
}

struct best {
	double v;
	unsigned s, l;
	bool any;
};

static void bests(const struct suite_run *sr, struct best *mbps, struct best *iops, struct best *lat)
{
	memset(mbps, 0, sizeof(*mbps));
	memset(iops, 0, sizeof(*iops));
	memset(lat, 0, sizeof(*lat));
	for (unsigned c = 0; c < sr->suite->ncases; c++) {
		struct pt q;
		point_of(sr, c, &q);
		if (!q.done)
			continue;
		if (q.l && (!mbps->any || r2(q.mbps) > mbps->v))
			*mbps = (struct best){ r2(q.mbps), q.s, q.l, true };
		if (q.s && (!iops->any || (double)r_iops(q.iops) > iops->v))
			*iops = (struct best){ (double)r_iops(q.iops), q.s, q.l, true };
		if (q.s && (!lat->any || r2(q.lat_ms) < lat->v))
			*lat = (struct best){ r2(q.lat_ms), q.s, q.l, true };
	}
}

static void print_bests(FILE *f, const struct suite_run *sr)
{
	struct best m, i, l;
	bests(sr, &m, &i, &l);
	if (m.any)
		fprintf(f, "Maximum Large MBPS=%.2f @ Small=%u and Large=%u\n", m.v, m.s, m.l);
	if (i.any)
		fprintf(f, "Maximum Small IOPS=%ld @ Small=%u and Large=%u\n", (long)i.v, i.s, i.l);
	if (l.any)
		fprintf(f, "Minimum Small Latency=%.2f @ Small=%u and Large=%u\n", l.v, l.s, l.l);
}

/* ---- the console */

static void print_matrix(FILE *f, const struct suite_run *sr)
{
	const struct matrix_opts *m = matrix_opts_c(sr->s);
	suite_print_header(f, sr, 0);
	if (sr->targets[0].refused.status)
		return;
	fprintf(f, "ORION-style matrix: %s, %u data point%s, small %llu KiB random, large %llu KiB %s, "
		   "%u%% writes; MBPS in MiB/s, latency in ms\n",
		m->testname, sr->suite->ncases, sr->suite->ncases == 1 ? "" : "s",
		(unsigned long long)(m->size_small >> 10), (unsigned long long)(m->size_large >> 10),
		m->type ? "sequential streams" : "random", m->write_pct);
	print_bests(f, sr);
	print_knee(f, sr, true);
	print_knee(f, sr, false);
	suite_print_device(f, sr, 0);
	fprintf(f, "Files: %s_summary.txt %s_iops.csv %s_mbps.csv %s_lat.csv\n", m->testname, m->testname,
		m->testname, m->testname);
}

/* ---- Orion's files */

/* The levels that appear among the points, sorted, with 0 when with0. */
static unsigned axis(const struct suite_run *sr, bool small, bool with0, unsigned *out)
{
	unsigned n = 0;
	if (with0)
		out[n++] = 0;
	for (unsigned c = 0; c < sr->suite->ncases; c++) {
		struct pt q;
		point_of(sr, c, &q);
		unsigned v = small ? q.s : q.l;
		bool seen = false;
		for (unsigned i = 0; i < n; i++)
			seen |= out[i] == v;
		if (!seen && v)
			out[n++] = v;
	}
	for (unsigned i = 1; i < n; i++) /* insertion sort: a few dozen levels */
		for (unsigned k = i; k > 0 && out[k - 1] > out[k]; k--) {
			unsigned t = out[k];
			out[k] = out[k - 1];
			out[k - 1] = t;
		}
	return n;
}

static bool find(const struct suite_run *sr, unsigned s, unsigned l, struct pt *q)
{
	for (unsigned c = 0; c < sr->suite->ncases; c++) {
		point_of(sr, c, q);
		if (q->s == s && q->l == l)
			return q->done;
	}
	return false;
}

enum { CSV_IOPS, CSV_MBPS, CSV_LAT };

/*
 * Orion's layout: "Large/Small", the column levels as ",%7d"; a row per
 * large level as "%11d" and its values; a row with no value is its label
 * alone, a value missing inside a row is left blank.
 */
static void write_csv(FILE *f, const struct suite_run *sr, int kind)
{
	unsigned cols[MAX_LEVELS * 2 + 1], rows[MAX_LEVELS * 2 + 1];
	unsigned nc = axis(sr, true, kind == CSV_MBPS, cols);
	unsigned nr = axis(sr, false, kind != CSV_MBPS, rows);
	fprintf(f, "Large/Small");
	for (unsigned i = 0; i < nc; i++)
		fprintf(f, ",%7u", cols[i]);
	fprintf(f, "\n");
	for (unsigned r = 0; r < nr; r++) {
		int last = -1;
		struct pt q;
		for (unsigned i = 0; i < nc; i++)
			if (find(sr, cols[i], rows[r], &q))
				last = (int)i;
		fprintf(f, "%11u", rows[r]);
		for (int i = 0; i <= last; i++) {
			if (!find(sr, cols[i], rows[r], &q))
				fprintf(f, ",%7s", "");
			else if (kind == CSV_IOPS)
				fprintf(f, ",%7ld", r_iops(q.iops));
			else
				fprintf(f, ",%7.2f", kind == CSV_MBPS ? r2(q.mbps) : r2(q.lat_ms));
		}
		fprintf(f, "\n");
	}
}

static void write_summary(FILE *f, const struct suite_run *sr)
{
	const struct matrix_opts *m = matrix_opts_c(sr->s);
	const struct suite_target *t = &sr->targets[0];
	unsigned cols[MAX_LEVELS * 2 + 1], rows[MAX_LEVELS * 2 + 1], done = 0;
	unsigned nc = axis(sr, true, true, cols), nr = axis(sr, false, true, rows);
	fprintf(f, "ORION VERSION iogauge %s (the method of Oracle Orion)\n\nCommandline:\n", IOGAUGE_VERSION);
	OPTIONS_EACH(o) {
		if (!option_owned(o, sr->cmd) || (o->flags & OPT_NO_ECHO))
			continue;
		char v[256];
		option_print(o, sr->base, sr->s, v, sizeof(v));
		fprintf(f, "-%s %s ", o->name, v);
	}
	fprintf(f, "-duration %g\n\nThis maps to this test:\nTest: %s\n", (double)sr->base->runtime_ns / 1e9,
		m->testname);
	fprintf(f, "Small IO size: %llu KB\nLarge IO size: %llu KB\n",
		(unsigned long long)(m->size_small >> 10), (unsigned long long)(m->size_large >> 10));
	fprintf(f, "IO Types: Small Random IOs, %s\n", m->type ? "Large Sequential Streams" : "Large Random IOs");
	if (m->type)
		fprintf(f, "Number of Concurrent IOs Per Stream: %u\n", m->num_streamio);
	fprintf(f, "Simulated Array Type: CONCAT\nWrite: %u%%\nCache Size: Not Entered\n", m->write_pct);
	fprintf(f, "Duration for each Data Point: %g seconds\n", (double)sr->base->runtime_ns / 1e9);
	fprintf(f, "Small Columns:,");
	for (unsigned i = 0; i < nc; i++)
		fprintf(f, "%s%7u", i ? "," : "", cols[i]);
	fprintf(f, "\nLarge Columns:,");
	for (unsigned i = 0; i < nr; i++)
		fprintf(f, "%s%7u", i ? "," : "", rows[i]);
	for (unsigned c = 0; c < sr->suite->ncases; c++) {
		struct pt q;
		point_of(sr, c, &q);
		done += q.done;
	}
	fprintf(f, "\nTotal Data Points: %u\n\nName: %s  Size: %llu\n1 FILEs found.\n\n", done,
		t->file, (unsigned long long)t->size);
	print_bests(f, sr);
}

static int write_file(const struct suite_run *sr, bool check_only, const char *suffix,
		      void (*fn)(FILE *, const struct suite_run *, int), int kind, struct ig_err *e)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s_%s", matrix_opts_c(sr->s)->testname, suffix);
	if (check_only)
		return outfile_check("--testname", path, e);
	FILE *f = outfile_open("--testname", path, false, e);
	if (!f) {
		e->status = EXIT_IOERR; /* checked before the run: what fails now fails at the end */
		return -1;
	}
	fn(f, sr, kind);
	if (fclose(f))
		return err_set(e, EXIT_IOERR, "cannot write %s: %s", path, strerror(errno));
	return 0;
}

static void summary_file(FILE *f, const struct suite_run *sr, int kind)
{
	(void)kind;
	write_summary(f, sr);
}

static int write_files(const struct suite_run *sr, bool check_only, struct ig_err *e)
{
	return write_file(sr, check_only, "summary.txt", summary_file, 0, e) ||
	       write_file(sr, check_only, "iops.csv", write_csv, CSV_IOPS, e) ||
	       write_file(sr, check_only, "mbps.csv", write_csv, CSV_MBPS, e) ||
	       write_file(sr, check_only, "lat.csv", write_csv, CSV_LAT, e) ? -1 : 0;
}

static json_t *best_json(const struct best *b)
{
	if (!b->any)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "value", json_real(b->v));
	json_object_set_new(o, "small", json_integer(b->s));
	json_object_set_new(o, "large", json_integer(b->l));
	return o;
}

static json_t *matrix_json(const struct suite_run *sr)
{
	json_t *o = json_object(), *pts = json_array();
	struct best m, i, l;
	for (unsigned c = 0; c < sr->suite->ncases; c++) {
		struct pt q;
		point_of(sr, c, &q);
		json_t *p = json_object();
		json_object_set_new(p, "small", json_integer(q.s));
		json_object_set_new(p, "large", json_integer(q.l));
		json_object_set_new(p, RK_MEASURED, json_boolean(q.done));
		json_object_set_new(p, "small_iops", q.s && q.done ? json_real(q.iops) : json_null());
		json_object_set_new(p, "small_lat_ms", q.s && q.done ? json_real(q.lat_ms) : json_null());
		json_object_set_new(p, "large_mbps", q.l && q.done ? json_real(q.mbps) : json_null());
		json_array_append_new(pts, p);
	}
	bests(sr, &m, &i, &l);
	json_object_set_new(o, "testname", json_string(matrix_opts_c(sr->s)->testname));
	json_object_set_new(o, RK_POINTS, pts);
	json_object_set_new(o, "max_large_mbps", best_json(&m));
	json_object_set_new(o, "max_small_iops", best_json(&i));
	json_object_set_new(o, "min_small_lat_ms", best_json(&l));
	json_object_set_new(o, "small_knee", knee_json(sr, true));
	json_object_set_new(o, "large_knee", knee_json(sr, false));
	return o;
}

/* A point's small and large I/O sizes are the user's -size_small and -size_large: named so. */
static void name_sizes(struct suite_run *sr, struct suite_target *t, unsigned c, struct job *j)
{
	const char *opt = !strcmp(j->name, "small") ? "size-small" : "size-large";
	const char *typed = args_typed(sr->args, opt);
	(void)t;
	(void)c;
	snprintf(j->plan.bs_said, sizeof(j->plan.bs_said), "%s%s", typed ? "" : "--", typed ? typed : opt);
}

static const struct suite matrix = {
	.print = print_matrix,
	.job = name_sizes,
	.flags = SUITE_ONE_TARGET,
	.plan = plan,
	.write_files = write_files,
	.json = matrix_json,
};

const struct command cmd_matrix = {
	.name = "matrix",
	.usage = "iogauge matrix [OPTIONS] [PATH|DEVICE]",
	.summary = "Oracle Orion's method: small random I/O against large I/O at rising outstanding-I/O levels",
	.description =
		"Each data point runs small random I/Os (--size-small, 8 KiB) and large I/Os "
		"(--size-large, 1 MiB, random or sequential streams) at the same time, each at a number "
		"of outstanding I/Os, for --duration, O_DIRECT on a test file in a directory or on a "
		"device. --run chooses the points: simple (small alone at rising load, then large "
		"alone), normal (every combination), oltp, dss, advanced (--matrix). The levels scale "
		"with --num-disks: small up to 5 per disk (oltp 20), large up to 2 per disk (dss 5), "
		"every level to 10, then ten more evenly spaced. Prints Orion's summary (Maximum Large "
		"MBPS, Maximum Small IOPS, Minimum Small Latency; MBPS in MiB/s, latency in ms) and "
		"writes NAME_summary.txt, NAME_iops.csv, NAME_mbps.csv and NAME_lat.csv (rows: large "
		"levels, columns: small levels) in the current directory.",
	.groups = OG_RESULTS | OG_DESTROY | OG_KEEP | OG_SUITE | OG_SIZING | OG_ENGINE | OG_DATA | OG_VERIFY | OG_SAVE | OG_STORE,
	.defaults = "--size=1g --runtime=60s --ramp_time=0 --direct=1 --ioengine=auto --time_based=1 "
		    "--invalidate=1 --numjobs=1",
	.suite = &matrix,
};
