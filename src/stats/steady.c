/* Steady state: the window's statistics and the criteria (steady.h). */
#include "base/common.h"
#include "model/job.h"
#include "stats/steady.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ss_kind_names[] = { "", "iops", "iops_slope", "bw", "bw_slope", NULL };

/* Mean, least-squares slope (x = 0, 1, ... n-1), largest deviation and range. */
static void window_stats(const double *y, unsigned n, struct ss_judgement *j)
{
	double sum = 0, sxy = 0, lo = y[0], hi = y[0];
	for (unsigned i = 0; i < n; i++) {
		sum += y[i];
		sxy += (double)i * y[i];
		lo = y[i] < lo ? y[i] : lo;
		hi = y[i] > hi ? y[i] : hi;
	}
	double dn = n, sx = dn * (dn - 1) / 2, sxx = (dn - 1) * dn * (2 * dn - 1) / 6;
	j->mean = sum / dn;
	j->slope = n > 1 ? (sxy - sx * sum / dn) / (sxx - sx * sx / dn) : 0;
	j->deviation = 0;
	for (unsigned i = 0; i < n; i++)
		j->deviation = fmax(j->deviation, fabs(y[i] - j->mean));
	j->range = hi - lo;
}

void ss_judge_fio(int kind, double limit, bool pct, const double *y, unsigned n, struct ss_judgement *j)
{
	memset(j, 0, sizeof(*j));
	if (!n)
		return;
	window_stats(y, n, j);
	if (n == 1 && ss_kind_slope(kind)) {
		j->met = true; /* no slope in one value: fio's nan passes its test */
		return;
	}
	double v = ss_kind_slope(kind) ? fabs(j->slope) : j->deviation;
	j->criterion = pct ? (j->mean > 0 ? 100 * v / j->mean : INFINITY) : v;
	j->met = j->criterion < limit;
}

bool ss_judge_pts(const double *y, unsigned n, double range_pct, double slope_pct, struct ss_judgement *j)
{
	memset(j, 0, sizeof(*j));
	if (!n)
		return false;
	window_stats(y, n, j);
	if (j->mean <= 0)
		return false;
	double excursion = fabs(j->slope) * (n - 1);
	j->criterion = 100 * j->range / j->mean;
	j->met = j->criterion <= range_pct && 100 * excursion / j->mean <= slope_pct;
	return j->met;
}

void ss_init(struct ss_result *s, const struct job *j, uint64_t measure_start)
{
	double *iops = s->iops, *bw = s->bw;
	memset(s, 0, sizeof(*s));
	s->kind = j->ss_kind;
	s->limit = j->ss_limit;
	s->pct = j->ss_pct;
	s->ramp_ns = j->ss_ramp_ns;
	s->n = (unsigned)(j->ss_dur_ns / NSEC_PER_SEC);
	s->n = s->n > SS_MAX_WINDOW ? SS_MAX_WINDOW : s->n;
	s->dur_ns = (uint64_t)s->n * NSEC_PER_SEC; /* the window used: whole seconds */
	s->start_ns = measure_start + j->ss_ramp_ns;
	/* Allocated once, before the run: a job run again keeps its arrays. */
	s->iops = iops ? iops : xcalloc(s->n ? s->n : 1, sizeof(double));
	s->bw = bw ? bw : xcalloc(s->n ? s->n : 1, sizeof(double));
}

unsigned ss_window(const struct ss_result *s, bool bw, double *out, unsigned max)
{
	unsigned have = s->count < s->n ? s->count : s->n;
	const double *ring = bw ? s->bw : s->iops;
	for (unsigned i = 0; i < have && i < max; i++)
		out[i] = ring[(s->head + i) % s->n];
	return have < max ? have : max;
}

bool ss_feed(struct ss_result *s, uint64_t now, uint64_t ios, uint64_t bytes)
{
	if (!s->n || s->attained || now < s->start_ns)
		return false;
	/* The first reading is the base; a counter that went back (the ramp's reset) starts over. */
	if (!s->have_base || ios < s->last_ios || bytes < s->last_bytes) {
		s->have_base = true;
		s->last_ns = now;
		s->last_ios = ios;
		s->last_bytes = bytes;
		return false;
	}
	if (now - s->last_ns < NSEC_PER_SEC)
		return false;
	double dt = (double)(now - s->last_ns) / 1e9;
	unsigned slot = s->count < s->n ? s->count : s->head;
	s->iops[slot] = (double)(ios - s->last_ios) / dt;
	s->bw[slot] = (double)(bytes - s->last_bytes) / dt;
	if (s->count >= s->n)
		s->head = (s->head + 1) % s->n;
	s->count++;
	s->last_ns = now;
	s->last_ios = ios;
	s->last_bytes = bytes;
	if (s->count < s->n)
		return false;
	double *y = xcalloc(s->n, sizeof(double));
	ss_window(s, ss_kind_bw(s->kind), y, s->n);
	ss_judge_fio(s->kind, s->limit, s->pct, y, s->n, &s->last);
	free(y);
	s->judged = true;
	if (!s->last.met)
		return false;
	s->attained = true;
	s->attained_ns = now > s->start_ns - s->ramp_ns ? now - (s->start_ns - s->ramp_ns) : 0;
	return true;
}

void ss_free(struct ss_result *s)
{
	free(s->iops);
	free(s->bw);
	s->iops = s->bw = NULL;
}

void ss_describe(const struct ss_result *s, char *buf, size_t len)
{
	const char *what = ss_kind_bw(s->kind) ? "bandwidth" : "IOPS";
	const char *unit = ss_kind_bw(s->kind) ? " B/s" : "";
	char lim[64], got[96] = "";
	snprintf(lim, sizeof(lim), s->pct ? "%g%% of the window's mean" : "%g%s%s", s->limit, s->pct ? "" : unit,
		 s->pct || ss_kind_slope(s->kind) ? "" : " of the window's mean");
	if (s->judged && s->pct)
		snprintf(got, sizeof(got), "%.3g%% of the mean (%.4g%s)", s->last.criterion, s->last.mean, unit);
	else if (s->judged)
		snprintf(got, sizeof(got), "%.4g%s (mean %.4g%s)", s->last.criterion, unit, s->last.mean, unit);
	int n = ss_kind_slope(s->kind) ?
			snprintf(buf, len, "the slope of per-second %s under %s a second over a %.0f s window: ",
				 what, lim, (double)s->dur_ns / 1e9) :
			snprintf(buf, len, "every per-second %s value within %s over a %.0f s window: ",
				 what, lim, (double)s->dur_ns / 1e9);
	if (n < 0 || (size_t)n >= len)
		return;
	if (s->attained)
		snprintf(buf + n, len - (size_t)n, "attained after %.1f s measured, then stopped; %s %s",
			 (double)s->attained_ns / 1e9, ss_kind_slope(s->kind) ? "slope" : "largest deviation", got);
	else if (s->judged)
		snprintf(buf + n, len - (size_t)n, "not attained; the last window's %s was %s",
			 ss_kind_slope(s->kind) ? "slope" : "largest deviation", got);
	else
		snprintf(buf + n, len - (size_t)n, "not attained: the job ended before a full window");
}
