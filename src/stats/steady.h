/*
 * Steady state: judging a window of per-interval figures.  fio's criteria
 * (--steadystate=iops|iops_slope|bw|bw_slope:LIMIT on run: the runner feeds
 * a job's window once a second and stops the job when it is met) and the
 * SNIA PTS criteria of `iogauge steady` (the last rounds' range and the
 * excursion of their least-squares line).  Nothing here runs in the I/O loop.
 */
#ifndef IOGAUGE_STEADY_H
#define IOGAUGE_STEADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct job;

enum ss_kind { SS_NONE = 0, SS_IOPS, SS_IOPS_SLOPE, SS_BW, SS_BW_SLOPE };
/* "", "iops", "iops_slope", "bw", "bw_slope", NULL: option values and JSON. */
extern const char *const ss_kind_names[];

static inline bool ss_kind_bw(int kind)
{
	return kind == SS_BW || kind == SS_BW_SLOPE;
}
static inline bool ss_kind_slope(int kind)
{
	return kind == SS_IOPS_SLOPE || kind == SS_BW_SLOPE;
}

struct ss_judgement {
	double mean;      /* of the window */
	double slope;     /* least-squares slope, per interval */
	double deviation; /* the largest |value - mean| */
	double range;     /* max - min */
	double criterion; /* what is compared with the limit: percent of the mean when the limit is */
	bool met;
};

/*
 * fio's criteria over y[0..n) (oldest first): the largest deviation from the
 * mean (iops, bw) or the absolute least-squares slope (iops_slope,
 * bw_slope), in the window's unit or, with pct, in percent of its mean; met
 * when under limit.  A slope over one value is met at once, as fio 3.33's
 * (whose 0/0 slope it reports as nan).
 */
void ss_judge_fio(int kind, double limit, bool pct, const double *y, unsigned n, struct ss_judgement *j);

/*
 * SNIA PTS: met when the range (max - min) is within range_pct percent of
 * the mean and the fitted line's excursion over the window (|slope| x
 * (n - 1)) within slope_pct percent.  criterion: the range in percent.
 */
bool ss_judge_pts(const double *y, unsigned n, double range_pct, double slope_pct, struct ss_judgement *j);

/*
 * One job's window while it runs: the runner feeds it the job's counters.
 * Whole seconds, as fio counts them (1.5 s is a window of one value, under
 * 1 s none: no detection); fio has no upper bound, a week keeps the window
 * (16 bytes a second) small.
 */
#define SS_MAX_WINDOW (7 * 86400) /* values (seconds) */
struct ss_result {
	int kind;
	double limit;
	bool pct;
	uint64_t dur_ns, ramp_ns;
	unsigned n;              /* values in the window when full: dur / 1 s */
	bool attained;
	uint64_t attained_ns;    /* measured time when it was attained */
	struct ss_judgement last; /* of the last full window */
	bool judged;             /* a full window was judged */
	double *iops, *bw;       /* ring of the last n values (bytes/s for bw) */
	unsigned count, head;    /* values seen; where the oldest is */
	/* Feeding. */
	uint64_t start_ns, last_ns, last_ios, last_bytes;
	bool have_base;
};

/* From the job's options; measure_start: when its measured phase began (ns, monotonic). */
void ss_init(struct ss_result *s, const struct job *j, uint64_t measure_start);
/*
 * The job's completed requests and bytes so far (all its threads).  Takes a
 * value a second once the steady-state ramp is over; true when the window
 * has just met the criterion (then attained and attained_ns are set).
 */
bool ss_feed(struct ss_result *s, uint64_t now, uint64_t ios, uint64_t bytes);
/* The window's values oldest first (bw: bytes/s, else IOPS); returns how many. */
unsigned ss_window(const struct ss_result *s, bool bw, double *out, unsigned max);
void ss_free(struct ss_result *s);
/* One line: the criterion, the window and what came of it ("attained after 12.0 s: ..."). */
void ss_describe(const struct ss_result *s, char *buf, size_t len);

#endif
