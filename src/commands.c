/* The command table: the one list of commands, for dispatch, --help and the man page. */
#include "commands.h"
#include "options.h"

#include <string.h>

const struct command commands[] = {
	{ "quick", CMD_QUICK, "iogauge [quick] [OPTIONS] [PATH...]",
	  "CrystalDiskMark's default profile on a test file in each PATH (default: .)",
	  "SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1 and RND4K Q1T1, each read and write, with O_DIRECT, "
	  "random data, a 1 GiB file and 5 s a test after a 1 s ramp. MB/s for every row; IOPS, "
	  "mean and p99 latency for the random rows. --passes N reports the median and the "
	  "min-max range. The test file is removed at the end.",
	  cmd_quick },
	{ "run", CMD_RUN, "iogauge run [OPTIONS] [JOBFILE...]",
	  "Any workload, with fio's option names and job-file syntax",
	  "Each --name starts a new job; options before the first --name apply to every job. Job "
	  "files use fio's ini syntax ([global] and [job] sections, key=value). All jobs run at "
	  "once unless --stonewall separates them.",
	  cmd_run },
	{ NULL, 0, NULL, NULL, NULL, NULL },
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}
