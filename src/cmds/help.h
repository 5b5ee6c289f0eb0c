/*
 * Help, the man page and the docs, generated from the option table (docs.c).
 */
#ifndef IOGAUGE_HELP_H
#define IOGAUGE_HELP_H

#include <stdio.h>

struct command;
/* Generated documentation (docs.c); table: the command table, NULL-terminated. */
void options_help(FILE *f, const struct command *cmd);
void options_man(FILE *f, const struct command *const *table);
void options_markdown(FILE *f, const struct command *const *table);
/* docs/fio.md: fio's options, supported or not, from the option table and fio_names; cli_markdown: iogauge fio's own. */
void options_fio_markdown(FILE *f, void (*cli_markdown)(FILE *f));

#endif
