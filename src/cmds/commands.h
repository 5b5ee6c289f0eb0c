/*
 * The command table: every command, for dispatch, --help and the man page.
 * A command is one file in src/cmds/ or src/suites/ that defines its struct
 * command (command.h), plus one line in commands.c.  The top layer: main.c,
 * src/cmds/ and the suite executor use it; nothing below does.
 */
#ifndef IOGAUGE_COMMANDS_H
#define IOGAUGE_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>
#include "options/command.h"

struct settings;
struct ig_err;

/* NULL-terminated, in the order --help lists them; the first is the default command. */
extern const struct command *const commands[];
const struct command *command_find(const char *name);
/* `run` (cmds/run.c): fio's JSON is read with fio's options as run reads them (store_cli.c, import.c). */
extern const struct command cmd_run;
/* The --output-format asked is one the command writes?  0, or -1 with e set (status 2). */
int command_check_format(const struct command *c, const struct settings *s, struct ig_err *e);
/* The main of every suite command (cmds/suite_main.c). */
int suite_main(const struct command *c, int argc, char **argv);
/* Runs a command with its arguments (after the command word). */
int command_run(const struct command *c, int argc, char **argv);
/* The binary called as `fio`: `iogauge fio` with argv as fio's (cmds/fio.c). */
int fio_main_as_fio(int argc, char **argv);
/* docs/fio.md's section on iogauge fio's program options (cmds/fio.c). */
void fio_cli_markdown(FILE *f);
/*
 * A saved result's summary as its command prints it (its print_saved, a
 * suite's table), for the HTML report (cmds/summary.c): the callback the
 * command layer hands html_write and outputs_open.  0, or -1 with e set.
 */
int command_saved_summary(FILE *f, const struct json_t *root, struct ig_err *e);

#endif
