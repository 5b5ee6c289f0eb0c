/*
 * What a command is: its name, help, option groups, defaults, operands and
 * its main (or its suite).  Only the type: the parsers and the help writers
 * (args.c, jobfile.c, option_values.c, docs.c) and the suite executor read a
 * command's description through it without knowing the table of commands
 * (commands.h), which sits above them.
 */
#ifndef IOGAUGE_COMMAND_H
#define IOGAUGE_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "model/job.h"

struct suite;
struct json_t;

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
	/* Either a main of its own (run) or a suite run by the executor (suite_exec.c). */
	int (*main)(const struct command *c, int argc, char **argv);
	const struct suite *suite;
	const struct operand *operands; /* NULL-terminated by name; NULL: none */
	/* --output-format values it writes: 1u << enum out_format each; 0: normal and json. */
	unsigned formats;
	/* A command of its own: a saved result's summary as it prints it (the HTML report); NULL: fio's text. */
	void (*print_saved)(FILE *f, const struct json_t *root);
};

/* The output formats a command writes (1u << enum out_format each). */
static inline unsigned command_formats(const struct command *c)
{
	return c->formats ? c->formats : 1u << OUT_NORMAL | 1u << OUT_JSON;
}

#endif
