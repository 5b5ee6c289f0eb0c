/*
 * What a job's cmdprio options say (struct job embeds it; the options fill
 * it, option_cmdprio.c): apart from the draws (cmdprio.h), so the job's
 * header needs nothing that needs the job.
 */
#ifndef IOGAUGE_CMDPRIO_OPTS_H
#define IOGAUGE_CMDPRIO_OPTS_H

#include <stdint.h>
#include "model/ops.h"

#define CMDPRIO_SPLIT_MAX 64     /* fio's BSSPLIT_MAX */
#define CMDPRIO_PRIOS_MAX 16     /* distinct priorities a direction keeps statistics for */

/* Which cmdprio options a job gave: refused by name for an engine without them. */
enum {
	CMDPRIO_SAID_PCT = 1 << 0,
	CMDPRIO_SAID_CLASS = 1 << 1,
	CMDPRIO_SAID_LEVEL = 1 << 2,
	CMDPRIO_SAID_BSSPLIT = 1 << 3,
	CMDPRIO_SAID_HIPRI_PCT = 1 << 4, /* pvsync2's hipri_percentage (kept here: the same refusal) */
};

struct cmdprio_split {
	uint64_t bs;
	unsigned pct;
	int prio; /* ioprio value; -1: cmdprio_class/cmdprio's */
};

struct job_cmdprio {
	unsigned pct[DDIR_NR];   /* cmdprio_percentage */
	unsigned cls[DDIR_NR];   /* cmdprio_class; 0: real-time (fio's default) */
	unsigned level[DDIR_NR]; /* cmdprio */
	char bssplit[256];       /* cmdprio_bssplit as given (echoed); parsed into split */
	struct cmdprio_split split[DDIR_NR][CMDPRIO_SPLIT_MAX]; /* non-zero entries, by block size */
	unsigned nsplit[DDIR_NR];
	unsigned said;           /* CMDPRIO_SAID_* */
};

#endif
