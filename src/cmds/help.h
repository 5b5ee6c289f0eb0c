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
/*
 * --help fitted to the terminal (help_wrap.c).  The width: stdout's terminal,
 * else $COLUMNS (as GNU tools read it), else 80.
 */
unsigned help_width(void);
/*
 * One paragraph, printed from column col (what the caller printed of the
 * line) and ended with a newline: broken at blanks to fit width, each
 * further line indented by indent; '\n' in text breaks the line there, and
 * HELP_NBSP is a blank no line breaks at ("(default:" stays with its value).
 */
#define HELP_NBSP '\x1f'
#define HELP_NBSP_STR "\x1f"
void help_wrap(FILE *f, unsigned width, unsigned col, unsigned indent, const char *text);
/* "  TERM  TEXT", TEXT in column `column` (under TERM, indented, when the width leaves it too little). */
void help_item(FILE *f, unsigned width, unsigned column, const char *term, const char *text);
/* docs/fio.md: fio's options, supported or not, from the option table and fio_names; cli_markdown: iogauge fio's own. */
void options_fio_markdown(FILE *f, void (*cli_markdown)(FILE *f));

#endif
