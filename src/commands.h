/*
 * The command table: every command, for dispatch, --help and the man page.
 * A command is one file in src/cmds/ or src/suites/ that defines its struct
 * command, plus one line in commands.c.
 */
#ifndef IOGAUGE_COMMANDS_H
#define IOGAUGE_COMMANDS_H

#include <stdbool.h>

struct suite;

struct command {
	const char *name;
	const char *usage;
	const char *summary;
	const char *description;
	unsigned groups;      /* option groups it takes (OG_* in options.h) */
	const char *defaults; /* its own defaults, as options through the table: "--size=1g" */
	bool jobs;            /* --name starts jobs and words are job files (run) */
	/* Either a main of its own (run) or a suite run by the executor (suite.c). */
	int (*main)(const struct command *c, int argc, char **argv);
	const struct suite *suite;
};

/* NULL-terminated, in the order --help lists them; the first is the default command. */
extern const struct command *const commands[];
const struct command *command_find(const char *name);
/* Runs a command with its arguments (after the command word). */
int command_run(const struct command *c, int argc, char **argv);

#endif
