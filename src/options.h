/*
 * The one option table.  It drives the command line, job files, --help,
 * the man page and docs/options.md; nothing else lists the options.
 */
#ifndef IOGAUGE_OPTIONS_H
#define IOGAUGE_OPTIONS_H

#include <stdio.h>
#include <stdint.h>
#include "job.h"

enum opt_type {
	OT_STR,    /* char[] field */
	OT_BOOL,   /* bool; a bare flag means true */
	OT_UINT,   /* unsigned, within [min, max] */
	OT_U64,    /* uint64_t plain number */
	OT_SIZE,   /* uint64_t bytes with k/m/g/t suffixes */
	OT_TIME,   /* uint64_t ns with ns/us/ms/s/m/h suffixes */
	OT_ENUM,   /* int, one of values[] */
	OT_SPECIAL /* parsed by set() */
};

/* Where the field lives. */
enum opt_scope { SCOPE_JOB, SCOPE_SETTINGS };

/* Which commands list an option in their --help. */
enum {
	CMD_RUN = 1 << 0,
	CMD_QUICK = 1 << 1,
	CMD_ALL = CMD_RUN | CMD_QUICK,
};

struct opt_def;
typedef int (*opt_setter)(void *obj, const struct opt_def *o, const char *val, char *err,
			  size_t errlen);

struct opt_def {
	const char *name;
	enum opt_type type;
	enum opt_scope scope;
	size_t off, len;    /* field offset and size (strings) */
	const char *def;    /* default, as the user would type it; NULL: none */
	uint64_t min, max;  /* OT_UINT/OT_SIZE/OT_TIME range (max 0: unbounded) */
	const char *unit;   /* OT_TIME: unit of a bare number ("s", "us") */
	const char *const *values; /* OT_ENUM: allowed words, index = value */
	opt_setter set;     /* OT_SPECIAL */
	const char *arg;    /* placeholder in help: "SIZE", "read|write|..." */
	const char *help;
	unsigned cmds;
};

extern const struct opt_def options[];
/* Names of enum rw_mode and enum dist_kind values, NULL-terminated (reports use them too). */
extern const char *const rw_names[];
extern const char *const dist_names[];
const struct opt_def *option_find(const char *name);
/* A bare --name (no value) means 1: booleans, --buffered, --sync. */
bool option_bare_ok(const struct opt_def *o);

/*
 * Apply "name=value" (value NULL for a bare flag) to job or settings.  On
 * error writes one line (naming the option and what is allowed) to err and
 * returns -1.
 */
int option_apply(const struct opt_def *o, struct job *j, struct settings *s, const char *val,
		 char *err, size_t errlen);
/* Reset job/settings to the table's defaults. */
void options_defaults(struct job *j, struct settings *s);

/* Value parsers, exposed for tests and suites.  0 or -1. */
int parse_size(const char *s, uint64_t *out);
int parse_time(const char *s, const char *default_unit, uint64_t *out_ns);
int parse_bool(const char *s, bool *out);
int parse_uint(const char *s, uint64_t *out);

/*
 * Parse a command's arguments: options (--opt=val, --opt val, -opt=val) and
 * positional words.  For `run`, --name starts a new job, options before the
 * first --name are defaults for every job.  Returns the jobs (at least one
 * when want_jobs), exits 2 on a bad option.
 */
struct parsed_args {
	struct job *jobs;
	unsigned njobs;
	struct job global;
	struct settings settings;
	char **words; /* positional arguments */
	unsigned nwords;
	bool help;
};
void args_parse(int argc, char **argv, unsigned cmd, struct parsed_args *pa);
void args_free(struct parsed_args *pa);
/* Job file (fio's ini syntax) into pa: [global] and [jobname] sections. */
void jobfile_parse(const char *path, struct parsed_args *pa);
/* Check a job for combinations no single option can reject; exits 2. */
void job_validate(struct job *j);

/* Generated documentation. */
void options_help(FILE *f, unsigned cmd);
void options_man(FILE *f);
void options_markdown(FILE *f);

#endif
