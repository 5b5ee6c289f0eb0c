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

enum opt_type {
	OT_STR,    /* char[] field */
	OT_BOOL,   /* bool */
	OT_UINT,   /* unsigned, within [min, max] */
	OT_U64,    /* uint64_t plain number */
	OT_SIZE,   /* uint64_t bytes with k/m/g/t suffixes */
	OT_TIME,   /* uint64_t ns with ns/us/ms/s/m/h suffixes */
	OT_ENUM,   /* int, one of values[] */
	OT_SPECIAL /* parsed by set(), printed by print() */
};

/*
 * Where the field lives.  SCOPE_OWN: in the running command's own settings
 * (struct settings' `own` area, as the owner's struct: SETTINGS_OWN), off
 * within that struct; only the owner's rows use it.
 */
enum opt_scope { SCOPE_JOB, SCOPE_SETTINGS, SCOPE_OWN };

/* Option groups: a command takes the groups it lists (commands.c). */
enum {
	OG_OUTPUT = 1 << 0,   /* output, json, output-format, quiet */
	OG_SAFETY = 1 << 1,   /* allow-destroy, allow-overwrite, keep */
	OG_SUITE = 1 << 2,    /* passes */
	OG_SIZING = 1 << 3,   /* size, runtime, ramp_time */
	OG_ENGINE = 1 << 4,   /* ioengine, direct, buffered */
	OG_QUEUE = 1 << 5,    /* iodepth, numjobs, rwmixread */
	OG_DATA = 1 << 6,     /* data */
	OG_FIO = 1 << 7,      /* the rest of fio's job options (run) */
	OG_PATTERN = 1 << 8,  /* rw, bs: a command that runs one chosen pattern (scale) */
	OG_PARALLEL = 1 << 9, /* shared-file, segment-layout, stonewall-all: ranks of iogauge-mpi */
	OG_FILES = 1 << 10,   /* file operations: fileop, nrfiles, filesize, tree shape (run) */
	OG_ALL = (1 << 11) - 1,
	/*
	 * A command's own options (the classic tools', steady's rounds, tree's,
	 * fs's) are no group: each row names its owner (.owner), no other command
	 * takes it, a suite's saved settings echo them, and the classic tools'
	 * one-letter names repeat.  The owner's file registers them (OPTION_ROWS).
	 */
};

/* Flags. */
enum {
	OPT_CLI_ONLY = 1 << 0, /* the user's word on the command line, never from a job file */
	OPT_NO_ECHO = 1 << 1,  /* another name for a field echoed under its own option */
	OPT_NEW_JOB = 1 << 2,  /* --name: starts a job on the command line */
	OPT_NO_EFFECT = 1 << 3, /* fio's: accepted and echoed, changes nothing measured (help says why) */
};

struct opt_def;
typedef int (*opt_setter)(void *obj, const struct opt_def *o, const char *val, char *err,
			  size_t errlen);
typedef void (*opt_printer)(const void *obj, const struct opt_def *o, char *buf, size_t len);

/* A row's field: OPT_FIELD(SCOPE_JOB, struct job, bs); SCOPE_OWN with the owner's struct. */
#define OPT_FIELD(sc, T, f) .scope = (sc), .off = offsetof(T, f), .len = sizeof(((T *)0)->f)

struct command;
struct opt_def {
	const char *name;
	enum opt_type type;
	enum opt_scope scope;
	size_t off, len;    /* field offset and size */
	const char *def;    /* default, as the user would type it; NULL: none */
	uint64_t min, max;  /* OT_UINT/OT_U64/OT_SIZE/OT_TIME range (max 0: unbounded) */
	const char *unit;   /* OT_TIME: unit of a bare number ("s", "us") */
	const char *const *values; /* OT_ENUM: allowed words, index = value */
	const char *bare;   /* value of the bare form (--direct alone); NULL: a value is needed */
	bool invert;        /* OT_BOOL: stores the opposite (--buffered is !direct) */
	opt_setter set;     /* OT_SPECIAL */
	opt_printer print;  /* OT_SPECIAL */
	void (*list_values)(char *buf, size_t len); /* allowed words known elsewhere (engines) */
	/* allowed words that depend on the command (--output-format); c NULL: every command's */
	void (*cmd_values)(const struct command *c, char *buf, size_t len);
	const char *arg;    /* placeholder in help: "SIZE" */
	const char *help;
	unsigned group;     /* OG_*: the commands that take it; 0 for an owned row */
	const char *owner;  /* a command's own option: its name ("bonnie"); NULL: a group's */
	unsigned flags;     /* OPT_* */
	const char *fio;    /* how it differs from fio's option of that name (docs/fio.md) */
};

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
/* Every job option a command takes, as run: {name: value}; sizes in bytes, times in ns. */
json_t *options_json(const struct job *j, unsigned groups);

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
