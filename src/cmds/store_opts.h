/*
 * The store commands' own settings (history, forget, check, import, and
 * report's --trend): their rows (store_opts.c) write them in struct
 * settings' own area; one command runs per process, so they share one struct.
 */
#ifndef IOGAUGE_CMDS_STORE_OPTS_H
#define IOGAUGE_CMDS_STORE_OPTS_H

#include <stdbool.h>
#include "model/job.h"

struct store_opts {
	/* history's filters */
	char label[72], host[256], target[PATH_MAX], command[32];
	char since[32], until[32]; /* as given; history makes them UTC times */
	unsigned limit;
	bool yes;                  /* forget: do not ask */
	double max_drop;           /* check: a fall this many percent or less is not a regression */
	unsigned runs;             /* check, report --trend: the earlier results judged against */
	char trend[72];            /* report --trend LABEL */
};

SETTINGS_OWN_FITS(struct store_opts);

static inline const struct store_opts *store_opts_c(const struct settings *s)
{
	return SETTINGS_OWN(s, const struct store_opts);
}

#endif
