/*
 * `iogauge scale`: a sweep of queue depth x threads for one pattern that
 * finds the knee, the last step where more outstanding I/O still raises IOPS
 * by more than it raises latency.  The cases are made from the options (a
 * sweep); the executor (suite_exec.c) runs them; this file turns the figures into
 * the curve, the knee and its explanation.
 *
 * The knee, by Little's law (the rule itself in knee.c).  Steps with the same nominal outstanding I/O
 * (queue depth x threads: 1, 2, 4, ...) are one level; the level's best step
 * (most IOPS) stands for it, the others are marked.  The I/O actually
 * outstanding at a step is N = IOPS x mean latency, so from one level's best
 * step a to the next one's b, N grows by N_b / N_a = (IOPS_b / IOPS_a) x
 * (latency_b / latency_a): IOPS grew by more than latency did exactly when
 * IOPS_b > IOPS_a x sqrt(N_b / N_a), that is when the IOPS added per added
 * outstanding I/O, (IOPS_b - IOPS_a) / (N_b - N_a), reaches the threshold
 * IOPS_a x (sqrt(N_b / N_a) - 1) / (N_b - N_a) (about half the IOPS per
 * outstanding I/O at a).  The knee is the last level reached before the
 * first step under its threshold.
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "options/command.h"
#include "stats/knee.h"
#include "options/options.h"
#include "base/units.h"
#include "model/job_names.h"
#include "suite/suite.h"
#include "model/engine.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the sweep */

/* 1, 2, 4, ... up to max, and max itself. */
static unsigned doublings(unsigned max, unsigned *out, unsigned cap)
{
	unsigned n = 0;
	for (unsigned v = 1; v < max && n + 1 < cap; v *= 2)
		out[n++] = v;
	out[n++] = max;
	return n;
}

static int make_cases(const struct job *base, struct suite_case **cases, unsigned *n,
		      struct ig_err *e)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned maxq = base->iodepth, maxt = base->numjobs, qs[16], ts[16];
	if (cpus > 0 && maxt > (unsigned)cpus)
		maxt = (unsigned)cpus;
	if ((base->engine->flags & ENGINE_SYNC) && maxq > 1)
		return err_set(e, EXIT_USAGE,
			       "--ioengine=%s is synchronous: scale sweeps queue depth (use io_uring or libaio, or --iodepth=1 to sweep threads only)",
			       base->engine->name);
	unsigned nq = doublings(maxq, qs, ARRAY_SIZE(qs)), nt = doublings(maxt, ts, ARRAY_SIZE(ts));
	*cases = xcalloc((size_t)nq * nt, sizeof(**cases));
	*n = 0;
	for (unsigned t = 0; t < nt; t++) {
		for (unsigned q = 0; q < nq; q++) {
			char name[64], opts[96];
			snprintf(name, sizeof(name), "QD%u T%u", qs[q], ts[t]);
			snprintf(opts, sizeof(opts), "--iodepth=%u --numjobs=%u", qs[q], ts[t]);
			(*cases)[*n].name = xstrdup(name);
			(*cases)[*n].opts = xstrdup(opts);
			(*n)++;
		}
	}
	return 0;
}

/* ---- the curve and its knee */

struct step {
	unsigned qd, threads;
	double iops, mbs, mean_ns, p99_ns, little; /* little: IOPS x mean latency */
	bool measured, on_curve;
};

struct knee {
	struct step *steps; /* one per case */
	unsigned n;
	int knee, next;     /* case indexes; -1: none */
	double gain, threshold; /* of the step from the knee to next */
};

static double median(const struct suite_run *sr, unsigned t, unsigned c, int fig)
{
	struct fig3 v = suite_fig(sr, t, c, FD_TOTAL, fig);
	return v.n ? v.median : NAN;
}

static void analyse(const struct suite_run *sr, unsigned t, struct knee *k)
{
	unsigned n = sr->suite->ncases, *best = xcalloc(n ? n : 1, sizeof(unsigned)), nl = 0;
	k->steps = xcalloc(n ? n : 1, sizeof(struct step));
	k->n = n;
	k->knee = k->next = -1;
	for (unsigned c = 0; c < n; c++) {
		struct step *s = &k->steps[c];
		if (sscanf(sr->suite->cases[c].opts, "--iodepth=%u --numjobs=%u", &s->qd, &s->threads) != 2)
			s->qd = s->threads = 0;
		s->iops = median(sr, t, c, FIG_IOPS);
		s->mbs = median(sr, t, c, FIG_MBS);
		s->mean_ns = median(sr, t, c, FIG_LAT_MEAN);
		s->p99_ns = median(sr, t, c, FIG_LAT_P99);
		s->little = s->iops * s->mean_ns / 1e9;
		s->measured = !isnan(s->iops) && s->iops > 0 && s->little > 0;
	}
	/* The levels in increasing nominal outstanding I/O, each by its best step. */
	for (unsigned level = 1; level; ) {
		unsigned next = 0;
		int b = -1;
		for (unsigned c = 0; c < n; c++) {
			const struct step *s = &k->steps[c];
			unsigned nom = s->qd * s->threads;
			if (s->measured && nom == level && (b < 0 || s->iops > k->steps[b].iops))
				b = (int)c;
			if (s->measured && nom > level && (!next || nom < next))
				next = nom;
		}
		if (b >= 0) {
			k->steps[b].on_curve = true;
			best[nl++] = (unsigned)b;
		}
		level = next;
	}
	struct knee_pt *pts = xcalloc(nl ? nl : 1, sizeof(*pts));
	for (unsigned i = 0; i < nl; i++)
		pts[i] = (struct knee_pt){ k->steps[best[i]].iops, k->steps[best[i]].little };
	struct knee_out ko;
	knee_find(pts, nl, &ko);
	k->knee = ko.knee < 0 ? -1 : (int)best[ko.knee];
	k->next = ko.next < 0 ? -1 : (int)best[ko.next];
	k->gain = ko.gain;
	k->threshold = ko.threshold;
	free(pts);
	free(best);
}

/* ---- text */

static const char *count(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

static void step_name(const struct step *s, char *buf, size_t len)
{
	snprintf(buf, len, "%u thread%s at QD %u", s->threads, s->threads == 1 ? "" : "s", s->qd);
}

static void explain(FILE *f, const struct knee *k)
{
	char a[32], b[32], name[64], nn[64];
	if (k->knee < 0) {
		fprintf(f, "Knee: none (nothing was measured)\n");
		return;
	}
	const struct step *s = &k->steps[k->knee];
	step_name(s, name, sizeof(name));
	fprintf(f, "Knee: %s: %s IOPS at %.1f us mean, %.1f us p99, %.2f I/O outstanding (Little's law: IOPS x mean latency).\n",
		name, count(a, sizeof(a), s->iops), s->mean_ns / 1e3, s->p99_ns / 1e3, s->little);
	if (k->next < 0) {
		fprintf(f, "  Every level up to it raised IOPS by more than it raised mean latency: IOPS still rise\n"
			   "  at the end of the sweep (a larger --iodepth or more threads may go further).\n");
		return;
	}
	step_name(&k->steps[k->next], nn, sizeof(nn));
	fprintf(f, "  The next level's best step, %s, added %s IOPS per added outstanding I/O, under the\n"
		   "  %s at which IOPS and mean latency grow by the same factor: beyond the knee, more\n"
		   "  outstanding I/O raises latency more than IOPS.\n",
		nn, count(a, sizeof(a), k->gain), count(b, sizeof(b), k->threshold));
}

static void print_target(FILE *f, const struct suite_run *sr, unsigned t)
{
	const struct job *b = sr->base;
	char bs[32], a[32];
	suite_print_header(f, sr, t);
	if (sr->targets[t].refused.status)
		return;
	struct knee k;
	analyse(sr, t, &k);
	print_size(b->bs, bs, sizeof(bs));
	fprintf(f, "Pattern: %s %s; queue depth x threads, %u steps; Outstanding: IOPS x mean latency (Little's law),\n"
		   "* not the best step of its queue depth x threads\n",
		rw_names[b->rw], bs, k.n);
	fprintf(f, "%7s %5s %12s %10s %10s %10s %10s\n", "Threads", "QD", "Outstanding", "IOPS", "MB/s",
		"mean us", "p99 us");
	for (unsigned c = 0; c < k.n; c++) {
		const struct step *s = &k.steps[c];
		char out[32] = "-";
		if (s->measured)
			snprintf(out, sizeof(out), "%.2f%s", s->little, s->on_curve ? "" : "*");
		fprintf(f, "%7u %5u %12s %10s", s->threads, s->qd, out, count(a, sizeof(a), s->iops));
		if (s->measured)
			fprintf(f, " %10.2f %10.1f %10.1f", s->mbs, s->mean_ns / 1e3, s->p99_ns / 1e3);
		else
			fprintf(f, " %10s %10s %10s", "-", "-", "-");
		fprintf(f, "%s\n", (int)c == k.knee ? "  <- knee" : "");
	}
	explain(f, &k);
	suite_print_device(f, sr, t);
	free(k.steps);
}

static void print_scale(FILE *f, const struct suite_run *sr)
{
	suite_print_targets(f, sr, print_target);
}

/* ---- JSON: the curve and the knee of each target */

static json_t *ig_json_step(const struct suite_run *sr, const struct knee *k, int c)
{
	if (c < 0)
		return json_null();
	const struct step *s = &k->steps[c];
	json_t *o = json_object();
	json_object_set_new(o, RK_CASE, json_string(sr->suite->cases[c].name));
	json_object_set_new(o, "iodepth", json_integer(s->qd));
	json_object_set_new(o, RK_NUMJOBS, json_integer(s->threads));
	json_object_set_new(o, "outstanding_nominal", json_integer((json_int_t)s->qd * s->threads));
	json_object_set_new(o, RK_MEASURED, json_boolean(s->measured));
	if (s->measured) {
		json_object_set_new(o, "outstanding", json_real(s->little));
		json_object_set_new(o, "iops", json_real(s->iops));
		json_object_set_new(o, "mb_s", json_real(s->mbs));
		json_object_set_new(o, "lat_mean_ns", json_real(s->mean_ns));
		json_object_set_new(o, "lat_p99_ns", json_real(s->p99_ns));
		json_object_set_new(o, "on_curve", json_boolean(s->on_curve));
	}
	return o;
}

static json_t *ig_json_scale(const struct suite_run *sr)
{
	json_t *o = json_object(), *targets = json_array();
	json_object_set_new(o, "rule",
			    json_string("levels of queue depth x threads, each by its best step; outstanding I/O by "
					"Little's law (IOPS x mean latency); the knee is the last level before the first "
					"step whose IOPS per added outstanding I/O fall under the threshold at which IOPS "
					"and mean latency grow by the same factor"));
	for (unsigned t = 0; t < sr->ntargets; t++) {
		json_t *x = json_object(), *steps = json_array();
		struct knee k;
		analyse(sr, t, &k);
		json_object_set_new(x, RK_PATH, ig_json_text(sr->targets[t].shown));
		for (unsigned c = 0; c < k.n; c++)
			json_array_append_new(steps, ig_json_step(sr, &k, (int)c));
		json_object_set_new(x, "steps", steps);
		json_object_set_new(x, "knee", ig_json_step(sr, &k, k.knee));
		json_t *next = ig_json_step(sr, &k, k.next);
		if (k.next >= 0) {
			json_object_set_new(next, "gain_iops_per_io", json_real(k.gain));
			json_object_set_new(next, "threshold_iops_per_io", json_real(k.threshold));
		}
		json_object_set_new(x, "next", next);
		json_array_append_new(targets, x);
		free(k.steps);
	}
	json_object_set_new(o, RK_TARGETS, targets);
	return o;
}

static const struct suite scale = {
	.print = print_scale,
	.make_cases = make_cases,
	.json = ig_json_scale,
};

const struct command cmd_scale = {
	.name = "scale",
	.usage = "iogauge scale [OPTIONS] [PATH|DEVICE...]",
	.summary = "Queue depth x threads sweep of one pattern that finds the knee",
	.description =
		"Runs the pattern (default 4k random reads, O_DIRECT, io_uring) at queue depths 1, 2, 4, "
		"... up to --iodepth (default 256) and with 1, 2, 4, ... threads up to the core count "
		"(at most --numjobs), each step short and time-based, and prints the curve: IOPS, MB/s, "
		"mean and p99 latency and the I/O outstanding by Little's law (IOPS x mean latency). "
		"The knee is the last point where more outstanding I/O still raised IOPS by more than "
		"it raised mean latency: the best step of the next queue depth x threads added fewer IOPS "
		"per added outstanding I/O than the threshold at which both grow by the same factor. A PATH is a directory (a test file is "
		"created there) or a block device (a write pattern needs one without a signature, or "
		"--allow-destroy). --html plots IOPS against mean and p99 latency with the knee.",
	.groups = OG_RESULTS | OG_DESTROY | OG_KEEP | OG_SUITE | OG_SIZING | OG_ENGINE | OG_QUEUE | OG_DATA | OG_VERIFY |
		  OG_PATTERN | OG_SAVE | OG_STORE,
	.defaults = "--rw=randread --bs=4k --size=1g --runtime=2s --ramp_time=0.5s --direct=1 --ioengine=auto "
		    "--iodepth=256 --numjobs=256 --time_based=1 --invalidate=1 --group_reporting=1",
	.suite = &scale,
};
