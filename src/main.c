/* iogauge: dispatch to a command. */
#include "cluster.h"
#include "common.h"
#include "commands.h"
#include "options.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "iogauge %s - an honest storage benchmark\n\nUsage:\n", IOGAUGE_VERSION);
	for (unsigned i = 0; commands[i]; i++)
		fprintf(f, "  %-40s %s\n", commands[i]->usage, commands[i]->summary);
	fprintf(f, "\n`iogauge COMMAND --help` lists a command's options.\n");
}

static int dispatch(int argc, char **argv)
{
	/* A link named fio: fio's command line, whatever it says (fio --version is fio's). */
	const char *base = argc ? strrchr(argv[0], '/') : NULL;
	base = base ? base + 1 : argc ? argv[0] : "";
	if (!strcmp(base, "fio"))
		return fio_main_as_fio(argc, argv);
	const char *a = argc > 1 ? argv[1] : "";
	if (!strcmp(a, "--help-man")) {
		options_man(stdout);
		return 0;
	}
	if (!strcmp(a, "--help-markdown")) {
		options_markdown(stdout);
		return 0;
	}
	if (!strcmp(a, "--help-fio-markdown")) {
		options_fio_markdown(stdout);
		return 0;
	}
	if (!strcmp(a, "--version")) {
		printf("iogauge %s\n", IOGAUGE_VERSION);
		return 0;
	}
	if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "help")) {
		usage(stdout);
		return 0;
	}
	/* No command word: `iogauge [options] [PATH...]` is the first command (quick). */
	const struct command *c = argc > 1 ? command_find(argv[1]) : NULL;
	if (c)
		return command_run(c, argc - 2, argv + 2);
	return command_run(commands[0], argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	/* iogauge-mpi under mpirun: every rank runs the same command, rank 0 reports. */
	cluster_init(&argc, &argv);
	return cluster_exit(dispatch(argc, argv));
}
