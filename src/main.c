/* iogauge: dispatch to a command. */
#include "common.h"
#include "commands.h"
#include "options.h"
#include "runner.h"

#include <stdio.h>
#include <string.h>

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
