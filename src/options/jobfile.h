/*
 * fio's job files (jobfile.c).
 */
#ifndef IOGAUGE_JOBFILE_H
#define IOGAUGE_JOBFILE_H

#include "base/common.h"
#include "options/args.h"

/*
 * A job file (fio's ini syntax) into pa: [global] and [jobname] sections.
 * Refuses what the command line refuses, options that are the user's word
 * alone, and anything that is not a small regular text file.
 */
#define JOBFILE_MAX (1u << 20)
int jobfile_parse(const char *path, const struct command *cmd, struct parsed_args *pa,
		  struct ig_err *e);

#endif
