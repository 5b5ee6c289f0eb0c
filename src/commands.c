/* The command table: the one list of commands, for dispatch, --help and the man page. */
#include "common.h"
#include "commands.h"
#include "suite.h"

#include <string.h>

extern const struct command cmd_quick, cmd_mix, cmd_run;

const struct command *const commands[] = {
	&cmd_quick,
	&cmd_mix,
	&cmd_run,
	NULL,
};

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
