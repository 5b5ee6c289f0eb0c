/* steady's own settings: its rows (src/suites/steady_opts.c) write them in struct settings' own area. */
#ifndef IOGAUGE_SUITES_STEADY_OPTS_H
#define IOGAUGE_SUITES_STEADY_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <limits.h>
#include "model/job.h"

/* steady (src/suites/steady.c): the block sizes and read/write mixes of a round */
#define STEADY_MAX_LIST 16
struct steady_opts {
	uint64_t bs[STEADY_MAX_LIST];  /* --round-bs, in the order given; none: --bs */
	unsigned nbs;
	unsigned mix[STEADY_MAX_LIST]; /* --round-mix: read percentages; none: --rw's */
	unsigned nmix;
	bool pts;                      /* --pts: SNIA PTS's lists where none is given */
};

SETTINGS_OWN_FITS(struct steady_opts);

static inline struct steady_opts *steady_opts(struct settings *s)
{
	return SETTINGS_OWN(s, struct steady_opts);
}
static inline const struct steady_opts *steady_opts_c(const struct settings *s)
{
	return SETTINGS_OWN(s, const struct steady_opts);
}

#endif
