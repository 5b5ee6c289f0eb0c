/* The command table: the one list of commands, for dispatch, --help and the man page. */
#include "common.h"
#include "commands.h"
#include "suite.h"

#include <string.h>

/* One line per command: struct command cmd_NAME, defined in src/cmds/ or src/suites/. */
#define COMMAND_TABLE(X) \
	X(quick)         \
	X(mix)           \
	X(dd)            \
	X(latency)       \
	X(cache)         \
	X(compare)       \
	X(scale)         \
	X(steady)        \
	X(matrix)        \
	X(sweep)         \
	X(bonnie)        \
	X(fs)            \
	X(run)           \
	X(report)

#define DECLARE(n) extern const struct command cmd_##n;
#define ENTRY(n) &cmd_##n,
COMMAND_TABLE(DECLARE)

const struct command *const commands[] = { COMMAND_TABLE(ENTRY) NULL };

const struct command *command_find(const char *name)
{
	for (unsigned i = 0; commands[i]; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

int command_run(const struct command *c, int argc, char **argv)
{
	return c->suite ? suite_main(c, argc, argv) : c->main(c, argc, argv);
}
