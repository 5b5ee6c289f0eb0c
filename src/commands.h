/* The command table: names, summaries and entry points of every command. */
#ifndef IOGAUGE_COMMANDS_H
#define IOGAUGE_COMMANDS_H

struct command {
	const char *name;
	unsigned bit; /* CMD_* in options.h: which options it takes */
	const char *usage;
	const char *summary;
	const char *description;
	int (*main)(int argc, char **argv);
};

extern const struct command commands[];
const struct command *command_find(const char *name);

int cmd_run(int argc, char **argv);
int cmd_quick(int argc, char **argv);

#endif
