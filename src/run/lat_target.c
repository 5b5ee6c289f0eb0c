/* fio's latency_target search (lat_target.h): depth up while windows pass, down when one fails. */
#include "run/lat_target.h"

void lt_init(struct lat_target *t, uint64_t target_ns, uint64_t window_ns, double pct, bool run,
	     unsigned depth)
{
	*t = (struct lat_target){ .target_ns = target_ns, .window_ns = window_ns, .pct = pct, .run = run,
				  .depth = depth ? depth : 1, .qd = 1, .qd_low = 1 };
	t->qd_high = t->depth;
}

static void new_window(struct lat_target *t, uint64_t now)
{
	t->cycle_start = now;
	t->ios = t->failed = 0;
}

/* A window (or, at percentile 100, one request) beyond the target: bisect down.  False at depth 1. */
static bool step_down(struct lat_target *t)
{
	if (t->qd == 1)
		return false;
	t->qd_high = t->qd;
	if (t->qd == t->qd_low)
		t->qd_low--;
	t->qd = (t->qd + t->qd_low) / 2;
	t->stable = 0;
	t->quiesce = true; /* what went out at the higher depth would fail the next window too */
	return true;
}

static void step_up(struct lat_target *t, uint64_t now)
{
	unsigned was = t->qd;
	t->qd_low = t->qd;
	/* One below a depth that failed: after three such windows, try that depth again. */
	if (t->qd + 1 == t->qd_high && ++t->stable >= 3) {
		t->qd_high++;
		t->stable = 0;
	}
	/* Double until a depth fails, then bisect below it. */
	t->qd = t->qd_high != t->depth ? (t->qd + t->qd_high) / 2 : t->qd * 2;
	if (t->qd > t->depth)
		t->qd = t->depth;
	if (!t->run && t->qd == was) {
		if (t->end_run) {
			t->done = true;
		} else {
			t->end_run = true;
			t->quiesce = t->reset_due = true;
			return;
		}
	}
	new_window(t, now);
}

void lt_complete(struct lat_target *t, uint64_t lat, uint64_t now)
{
	if (t->quiesce || t->done)
		return;
	if (!t->started) {
		t->started = true;
		new_window(t, now);
	}
	t->ios++;
	if (lat > t->target_ns) {
		if (t->pct >= 100.0) {
			if (!step_down(t))
				t->fatal = true;
			return;
		}
		t->failed++;
	}
	if (now - t->cycle_start < t->window_ns)
		return;
	double ok = 100.0 * (double)(t->ios - t->failed) / (double)t->ios;
	if (ok >= t->pct)
		step_up(t, now);
	else
		step_down(t); /* at depth 1 the window goes on, as fio's */
}

bool lt_drained(struct lat_target *t, uint64_t now)
{
	bool reset = t->reset_due;
	t->quiesce = t->reset_due = false;
	new_window(t, now);
	return reset;
}
