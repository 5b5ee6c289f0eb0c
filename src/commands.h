/*
 * The command table: every command, for dispatch, --help and the man page.
 * A command is one file in src/cmds/ or src/suites/ that defines its struct
 * command, plus one line in commands.c.
 */
#ifndef IOGAUGE_COMMANDS_H
#define IOGAUGE_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

struct suite;
struct json_t;
struct settings;
struct ig_err;

/*
 * Words a command takes in a syntax of its own (dd's if=FILE bs=1M): the one
 * table its parser reads and --help and the man page print.
 */
struct operand {
	const char *name;  /* "if" */
	const char *arg;   /* "FILE" */
	const char *help;
	const char *const *words; /* allowed values, NULL-terminated (flags: any of them, comma-separated) */
	int kind;          /* the command's own: how to parse it */
	size_t off;        /* the command's own: where the value goes */
};

struct command {
	const char *name;
	const char *usage;
	const char *summary;
	const char *description;
	unsigned groups;      /* option groups it takes (OG_* in options.h) */
	const char *defaults; /* its own defaults, as options through the table: "--size=1g" */
	bool jobs;            /* --name starts jobs and words are job files (run) */
	bool fio_cli;         /* fio's own reading (fio): job files win over the command line, ${VAR} only */
	/* Either a main of its own (run) or a suite run by the executor (suite.c). */
	int (*main)(const struct command *c, int argc, char **argv);
	const struct suite *suite;
	const struct operand *operands; /* NULL-terminated by name; NULL: none */
	/* --output-format values it writes: 1u << enum out_format each; 0: normal and json. */
	unsigned formats;
	/* A command of its own: a saved result's summary as it prints it (the HTML report); NULL: fio's text. */
	void (*print_saved)(FILE *f, const struct json_t *root);
};

/* NULL-terminated, in the order --help lists them; the first is the default command. */
extern const struct command *const commands[];
const struct command *command_find(const char *name);
/* The output formats a command writes (1u << enum out_format each). */
unsigned command_formats(const struct command *c);
/* The --output-format asked is one the command writes?  0, or -1 with e set (status 2). */
int command_check_format(const struct command *c, const struct settings *s, struct ig_err *e);
/* Runs a command with its arguments (after the command word). */
int command_run(const struct command *c, int argc, char **argv);
/* The binary called as `fio`: `iogauge fio` with argv as fio's (cmds/fio.c). */
int fio_main_as_fio(int argc, char **argv);
/* docs/fio.md's section on iogauge fio's program options (cmds/fio.c). */
void fio_cli_markdown(FILE *f);

#endif
