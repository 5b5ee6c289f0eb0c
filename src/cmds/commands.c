/* The command table: the one list of commands, for dispatch, --help and the man page. */
#include "base/common.h"
#include "cmds/commands.h"
#include "suite/suite.h"
#include "options/option_values.h"

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
	X(tree)          \
	X(fs)            \
	X(run)           \
	X(fio)           \
	X(report)        \
	X(history)       \
	X(show)          \
	X(forget)        \
	X(check)         \
	X(import)

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

int command_check_format(const struct command *c, const struct settings *s, struct ig_err *e)
{
	unsigned asked = s->output_formats ? s->output_formats : 1u << s->output_format;
	if (!(asked & ~command_formats(c)))
		return 0;
	char got[64], can[64];
	format_names(asked, ",", got, sizeof(got));
	format_names(command_formats(c), " or ", can, sizeof(can));
	return err_set(e, EXIT_USAGE, "--output-format=%s: %s writes %s (fio's formats come from `iogauge run`)",
		       got, c->name, can);
}

int command_run(const struct command *c, int argc, char **argv)
{
	return c->suite ? suite_main(c, argc, argv) : c->main(c, argc, argv);
}
