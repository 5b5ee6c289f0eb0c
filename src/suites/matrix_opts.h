/* matrix's own settings: its rows (src/suites/matrix_opts.c) write them in struct settings' own area. */
#ifndef IOGAUGE_SUITES_MATRIX_OPTS_H
#define IOGAUGE_SUITES_MATRIX_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <limits.h>
#include "model/job.h"

/* matrix (src/suites/matrix.c): Oracle Orion's options */
struct matrix_opts {
	int run;             /* simple, normal, oltp, dss, advanced */
	char testname[128];  /* prefix of the result files */
	unsigned num_disks;  /* scales the outstanding-I/O levels */
	uint64_t size_small, size_large;
	int type;            /* large I/O: random, or sequential streams */
	unsigned write_pct;
	int matrix;          /* advanced: basic, detailed, point, col, row, max */
	unsigned num_small, num_large; /* point, col, row, max (0: not given) */
	unsigned num_streamio; /* requests in flight per sequential stream */
};

SETTINGS_OWN_FITS(struct matrix_opts);

static inline struct matrix_opts *matrix_opts(struct settings *s)
{
	return SETTINGS_OWN(s, struct matrix_opts);
}
static inline const struct matrix_opts *matrix_opts_c(const struct settings *s)
{
	return SETTINGS_OWN(s, const struct matrix_opts);
}

#endif
