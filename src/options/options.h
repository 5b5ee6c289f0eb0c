/*
 * The one option table.  It drives the command line, job files, --help, the
 * man page, docs/options.md, the JSON echo of a job's options and the text
 * header; nothing else lists the options.  Commands choose which groups of
 * options they take and their own defaults (commands.c), as option strings
 * that go through this same table.  A suite's own rows live in its own file
 * (src/suites/NAME_opts.c) and join the table at link time (OPTION_ROWS).
 */
#ifndef IOGAUGE_OPTIONS_H
#define IOGAUGE_OPTIONS_H

#include <stdio.h>
#include <stdint.h>
#include <jansson.h>
#include "base/common.h"
#include "model/job.h"
#include "options/opt_def.h"

/* The core table (src/options/options.c): the groups' rows, NULL-terminated. */
extern const struct opt_def options[];

/*
 * A command's own rows, registered from the owner's file without touching a
 * core table: OPTION_ROWS(bonnie_rows, .after = "warn-unsupported", .order =
 * 10, .rows = rows) puts a pointer in the linker section ig_opt_rows.  Every
 * walk of the options sees them right after the core row named `after`
 * (blocks there by `order`): that order is the docs' and --help's.
 */
struct opt_rows {
	const char *after;          /* the core row they follow */
	unsigned order;             /* among the blocks after the same row */
	const struct opt_def *rows; /* each with .owner; name NULL ends */
};
#define OPTION_ROWS(id, ...)                                                                        \
	static const struct opt_rows id = { __VA_ARGS__ };                                            \
	static const struct opt_rows *const id##_at __attribute__((used, section("ig_opt_rows"))) = &id

/* Every row, the core table's with each command's own spliced in; NULL-terminated. */
const struct opt_def *const *option_rows(void);
/* for each row o (declares o): OPTIONS_EACH(o) { ... } */
#define OPTIONS_EACH(o) for (const struct opt_def *const *o##_at = option_rows(), *o; (o = *o##_at); o##_at++)
/* Command c takes option o: one of its groups, or its own row. */
bool option_takes(const struct opt_def *o, const struct command *c);
/* Row o is command c's own (c NULL: anyone's). */
bool option_owned(const struct opt_def *o, const struct command *c);
/* By name; '_' and '-' are the same.  NULL when unknown. */
const struct opt_def *option_find(const char *name);
const struct opt_def *option_find_n(const char *name, size_t len);
/*
 * The same, preferring an option of the groups `prefer` (owned rows are in
 * none), or one command c takes: the classic tools' commands reuse one-letter
 * names (bonnie's -s is MiB, iozone's KiB, ioping's bytes).
 */
const struct opt_def *option_find_pref(const char *name, size_t len, unsigned prefer);
const struct opt_def *option_find_cmd(const char *name, size_t len, const struct command *c);

/*
 * Apply "name=value" (value NULL for a bare flag) to job or settings.  On
 * error writes one line (naming the option and what is allowed) to err and
 * returns -1.
 */
int option_apply(const struct opt_def *o, struct job *j, struct settings *s, const char *val,
		 char *err, size_t errlen);
/*
 * Reset job/settings to the table's defaults: the groups' rows; a command's
 * own rows' defaults are applied by args_apply_defaults (its own area holds
 * one command's settings at a time).
 */
void options_defaults(struct job *j, struct settings *s);
/* A field's current value as the user would type it ("4k", "5s", "randread"). */
void option_print(const struct opt_def *o, const struct job *j, const struct settings *s,
		  char *buf, size_t len);
/*
 * A job's options as run, {name: value} (sizes in bytes, times in ns): every
 * job option of `groups` (a command's: run's are all of them), those the
 * option string `said` names (a suite's case, as fio echoes what a job file
 * says; NULL: none), and any other set away from the table's default (a
 * suite's own, dd's operands) or away from `also`'s value (a command's
 * defaults, where a reader starts from them; NULL: none).  An option a result
 * lacks was at its default (options_json_defaults).
 */
json_t *options_json(const struct job *j, unsigned groups, const char *said, const struct job *also);
/* Every job option's echo at the table's defaults: what a reader fills in for a key a result lacks. */
json_t *options_json_defaults(void);

/*
 * Every option name fio knows (fio_names.c, generated from fio itself by
 * scripts/fio-option-names.sh): one the table lacks is an "unsupported fio
 * option", not an unknown word.  alias_of: the option it is another name
 * for; engines: the engines that take it (NULL: a generic option).
 */
struct fio_name {
	const char *name, *alias_of, *engines;
};
extern const struct fio_name fio_names[];
const struct fio_name *fio_name_find(const char *name, size_t len);

#endif
