/* sweep's own settings: its rows (src/suites/sweep_opts.c) write them in struct settings' own area. */
#ifndef IOGAUGE_SUITES_SWEEP_OPTS_H
#define IOGAUGE_SUITES_SWEEP_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <limits.h>
#include "model/job.h"

/* sweep (src/suites/sweep.c): iozone's options, sizes in KiB when bare */
#define SWEEP_MAX_LIST 32
struct sweep_opts {
	bool auto_mode;                   /* -a */
	uint64_t sizes[SWEEP_MAX_LIST];   /* -s, repeatable */
	unsigned nsizes;
	uint64_t recs[SWEEP_MAX_LIST];    /* -r, repeatable */
	unsigned nrecs;
	uint64_t min_size, max_size;      /* -n, -g (auto mode) */
	uint64_t min_rec, max_rec;        /* -y, -q (auto mode) */
	unsigned tests;                   /* -i: bit N for test N; 0: all */
	bool direct, fsync, close;        /* -I, -e, -c */
	bool excel, no_crossover, csv;    /* -R, -z, --csv */
	char excel_file[PATH_MAX];        /* -b */
};

SETTINGS_OWN_FITS(struct sweep_opts);

static inline struct sweep_opts *sweep_opts(struct settings *s)
{
	return SETTINGS_OWN(s, struct sweep_opts);
}
static inline const struct sweep_opts *sweep_opts_c(const struct settings *s)
{
	return SETTINGS_OWN(s, const struct sweep_opts);
}

#endif
