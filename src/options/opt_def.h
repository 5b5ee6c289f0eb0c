/*
 * What a row of the option table is (struct opt_def): apart from the table
 * and its walks (options.h), so the files of the setters the rows name
 * (option_values.c, fio_opts.c, option_rate.c, iolog_job.c) need nothing
 * that needs them.
 */
#ifndef IOGAUGE_OPT_DEF_H
#define IOGAUGE_OPT_DEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/*
 * Option groups: a command takes the groups it lists (its .groups), and
 * lists (--help, the man page, docs/options.md) exactly the options it
 * takes: a group is cut as finely as the commands differ in what acts for
 * them (tree reads only: it takes --keep for --make-tree's tree, never
 * --allow-destroy, --allow-overwrite or --verify).
 */
enum {
	OG_OUTPUT = 1 << 0,    /* output: where the results go */
	OG_DESTROY = 1 << 1,   /* allow-destroy: a command that may write a block device */
	OG_SUITE = 1 << 2,     /* passes */
	OG_SIZING = 1 << 3,    /* size, runtime, ramp_time */
	OG_ENGINE = 1 << 4,    /* ioengine, direct, buffered */
	OG_QUEUE = 1 << 5,     /* iodepth, numjobs, rwmixread */
	OG_DATA = 1 << 6,      /* data: what writes write */
	OG_FIO = 1 << 7,       /* the rest of fio's job options (run) */
	OG_PATTERN = 1 << 8,   /* rw, bs: a command that runs one chosen pattern (scale) */
	OG_PARALLEL = 1 << 9,  /* shared-file, segment-layout, stonewall-all: ranks of iogauge-mpi */
	OG_FILES = 1 << 10,    /* file operations: fileop, nrfiles, filesize, tree shape (run) */
	OG_FORMAT = 1 << 11,   /* output-format: the results as text or JSON */
	OG_PROGRESS = 1 << 12, /* quiet: a command with a progress line of its own on stderr */
	OG_OVERWRITE = 1 << 13, /* allow-overwrite: a command that may write a file the user named */
	OG_KEEP = 1 << 14,     /* keep: a command whose test files are removed at the end */
	OG_VERIFY = 1 << 15,   /* verify: a command whose writes can be read back and checked */
	OG_SAVE = 1 << 16,     /* save: every measuring command */
	OG_STORE = 1 << 17,    /* db: the measuring commands and those that read the store */
	OG_HTML = 1 << 18,     /* html: a report page besides the text */
	OG_JSON = 1 << 19,     /* json: a JSON copy besides the text */
	OG_ALL = (1 << 20) - 1,
	/* What a measuring command takes: its results to a file, as JSON, its progress line (not a row's). */
	OG_RESULTS = OG_OUTPUT | OG_HTML | OG_FORMAT | OG_JSON | OG_PROGRESS,
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
	/*
	 * OT_SIZE of a job: where the uint8_t is that keeps fio's N% (of the
	 * file's or device's size, 1..100) until the runner knows that size
	 * (run/percent.c); the value is then 0.  0: the row takes no percentage.
	 */
	size_t pct_off;
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
	/* An OT_BOOL the environment may give too (NAME=1; 0 or empty: not given), below the command line. */
	const char *env;
};

#endif
