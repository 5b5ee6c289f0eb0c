/* iogauge: dispatch to a command. */
#include "common.h"
#include "commands.h"
#include "options.h"
#include "runner.h"

#include <stdio.h>
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

static void usage(FILE *f)
{
	fprintf(f, "iogauge %s - an honest storage benchmark\n\nUsage:\n", IOGAUGE_VERSION);
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-40s %s\n", c->usage, c->summary);
	fprintf(f, "\n`iogauge COMMAND --help` lists a command's options.\n");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--help-man")) {
		options_man(stdout);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--help-markdown")) {
		options_markdown(stdout);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("iogauge %s\n", IOGAUGE_VERSION);
		return 0;
	}
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))) {
		usage(stdout);
		return 0;
	}
	runner_install_signals();
	/* No command word: `iogauge [options] [PATH...]` is `iogauge quick`. */
	const struct command *c = argc > 1 ? command_find(argv[1]) : NULL;
	if (c)
		return c->main(argc - 2, argv + 2);
	return cmd_quick(argc - 1, argv + 1);
}
