/*
 * The suite executor.  A suite is data: a list of cases, each a set of
 * option strings that go through the option table like a fio job
 * ("--rw=randread --bs=4k --iodepth=32"), plus a formatter that draws the
 * suite's familiar table from the figures.  One executor runs targets x
 * passes x cases through the runner, keeps every pass, computes median and
 * min-max, shows one progress line with the time left, and writes the JSON.
 * A suite never loops over I/O or passes itself.
 */
#ifndef IOGAUGE_SUITE_H
#define IOGAUGE_SUITE_H

#include <stdio.h>
#include <jansson.h>
#include "model/job.h"
#include "base/devinfo.h"
#include "run/runner.h"

struct command;
struct parsed_args;

/*
 * A case is one job, or several run at the same time: options before the
 * first --name apply to all of them, each --name starts one
 * ("--rw=randread --name=small --bs=8k --name=large --bs=1m").
 */
struct suite_case {
	const char *name; /* "SEQ1M Q8T1 read": progress, JSON and (one job) the job's name */
	const char *opts; /* what makes the case, through the option table */
};
#define SUITE_MAX_JOBS 4

struct suite_run;
struct suite_target;
struct suite {
	const struct suite_case *cases;
	unsigned ncases;
	/* The suite's own table (several targets: one table or a column group each). */
	void (*print)(FILE *f, const struct suite_run *sr);
	/* Optional, for suites that need more than a table of cases (designated initializers, please). */
	const char *const *warmups; /* per case: an untimed job run just before it on the same target, or NULL */
	bool files;       /* a PATH may be an existing regular file, measured in place */
	bool no_progress; /* the suite shows its own progress (latency's line per request) */
	/*
	 * The options that set the test file's size, by table name, space
	 * separated, in the order they are named when none is given (NULL:
	 * "size").  A size given is refused when it does not fit; the default
	 * shrinks (unless SUITE_EXACT_SIZE).
	 */
	const char *size_opts;
	/* After the options, before anything is checked or run: the suite's own defaults, sr->priv. */
	int (*start)(struct suite_run *sr, struct job *base, struct ig_err *e);
	/* A case's job for a target, just before it runs: hooks, sizes that depend on the target. */
	void (*job)(struct suite_run *sr, struct suite_target *t, unsigned c, struct job *j);
	/* A target is done (measured, refused or interrupted): its part can be printed now. */
	void (*target_done)(FILE *f, struct suite_run *sr, unsigned target);
	void (*end)(struct suite_run *sr); /* frees sr->priv */
	/*
	 * Optional: cases made from the options instead of `cases` (a sweep);
	 * names and options allocated, freed by the executor (suite_cases_free).
	 */
	int (*make_cases)(const struct job *base, struct suite_case **cases, unsigned *n,
			  struct ig_err *e);
	/*
	 * Optional: cases made from the command's settings (the classic tools'
	 * options) by the same rules as make_cases; it may set the base job (the
	 * file size).  Tried after make_cases.
	 */
	int (*plan)(const struct suite_run *sr, struct job *base, struct suite_case **cases,
		    unsigned *n, struct ig_err *e);
	/* Optional: the suite's own JSON object, added to the root under the command's name. */
	json_t *(*json)(const struct suite_run *sr);
	/*
	 * Optional: that object read back from a saved result (suite_from_json, cmds/suite_read.c)
	 * into sr->priv, for what print shows beyond the jobs' figures; end frees
	 * it.  0, or -1 with e set.
	 */
	int (*load)(struct suite_run *sr, const json_t *own, struct ig_err *e);
	/*
	 * Optional: an untimed job (option strings) run once on each target
	 * before its first pass, a precondition; its time and bytes are kept.
	 */
	const char *prepare;
	/* Optional: after each pass over a target's cases; true ends that target's passes early. */
	bool (*pass_done)(const struct suite_run *sr, unsigned target, unsigned pass);
	/*
	 * Optional: after the table, files of the suite's own (Orion's CSVs); 0,
	 * or -1 with e set.  check_only: before anything runs, only refuse a
	 * name that cannot be written (outfile_check: a device, a FIFO).
	 */
	int (*write_files)(const struct suite_run *sr, bool check_only, struct ig_err *e);
	/*
	 * Optional: targets the suite makes itself (fs: a file system each).
	 * start() sets sr->ntargets; target_name() labels each; setup() makes
	 * target t just before it runs and names the directory to test in;
	 * teardown() undoes it after its cases and test files, whatever happened.
	 */
	int (*setup)(struct suite_run *sr, unsigned t, char *dir, size_t len, struct ig_err *e);
	const char *(*target_name)(const struct suite_run *sr, unsigned t); /* its label, from the start */
	void (*teardown)(struct suite_run *sr, unsigned t);
	/* Optional: after each run of a case (measured or not), on target t. */
	void (*case_done)(struct suite_run *sr, unsigned t, unsigned c);
	unsigned flags; /* SUITE_* */
};
void suite_cases_free(struct suite_case *cases, unsigned n);

enum {
	SUITE_ONE_TARGET = 1 << 0, /* one PATH: the method tests one file system or device */
	SUITE_DIRS_ONLY = 1 << 1,  /* a directory, never a device (files of its own) */
	SUITE_EXACT_SIZE = 1 << 2, /* a file that does not fit is refused, not shrunk */
	SUITE_IN_PLACE = 1 << 3,   /* a directory read where it is (tree): no test file, no space needed */
};

/* Figures of one case in one pass, by direction (read, write, both together). */
enum { FD_READ, FD_WRITE, FD_TOTAL, FD_NR };
/*
 * Figures of one job of a case in one pass.  MB/s is 10^6 bytes/s; latency
 * in ns (clat); CPU in percent of one CPU (all threads) and the seconds
 * measured are the same in every direction.  `total` is every request of the
 * job: reads, writes and file operations (not syncs).
 */
enum { FIG_MBS, FIG_IOPS, FIG_LAT_MEAN, FIG_LAT_P50, FIG_LAT_P99, FIG_LAT_MAX, FIG_LAT_MIN,
       FIG_LAT_STDDEV, FIG_CPU, FIG_SECONDS, FIG_NR };
extern const char *const fig_dir_names[FD_NR];
extern const char *const fig_names[FIG_NR];

struct suite_cell {
	double v[FD_NR][FIG_NR]; /* MB/s is 10^6 bytes/s; latency in ns (clat) */
	bool done;               /* measured (possibly cut short by a signal or an error) */
	int64_t resident;        /* bytes of the region in the page cache before reads; -1 unknown */
	int64_t unsynced;        /* bytes written and not on disk when the clock stopped; -1 unknown */
	uint64_t region;         /* bytes of the case's region */
};

struct suite_target {
	char shown[PATH_MAX];   /* what the user named */
	char file[PATH_MAX];    /* the test file or device */
	char set[PATH_MAX];     /* the directory of file-op cases' items (a directory target) */
	struct target info;     /* fstype, device: from the first run */
	struct path_facts facts; /* file system, mount options, device, rotational: before the run */
	uint64_t size;
	uint64_t whole;         /* a device's or an existing file's size; 0 for a directory */
	uint64_t floor;         /* free space a test file in a directory leaves alone (resolve_target) */
	bool is_dev, is_file, shrunk, fallback, tested;
	uint64_t layout_ns;     /* writing a device's region before the reads (not timed) */
	uint64_t prepare_ns, prepare_bytes; /* the suite's precondition (not timed) */
	struct ig_err refused;  /* why this target was not measured */
	struct suite_cell *cells; /* [pass][case]: the case's first job */
	struct suite_cell *more;  /* [pass][case][SUITE_MAX_JOBS - 1]: its other jobs */
	uint64_t req[DDIR_NR], dev[DDIR_NR]; /* bytes requested / seen by the device */
	bool dev_ok;
};

struct suite_run {
	const struct command *cmd;
	const struct suite *suite;
	const struct job *base;   /* the command's defaults and the user's options */
	const struct settings *s;
	const struct parsed_args *args; /* the command line (how options were typed); NULL: a saved result */
	struct suite_target *targets;
	unsigned ntargets;
	int status;
	FILE *out;         /* where results go (stdout or --output), for suites that print as they run */
	void *priv;        /* the suite's own state (start, end) */
	unsigned pass;     /* the pass being run, for the hooks */
	bool signal_ends;  /* Ctrl-C is the normal end (latency without -c): exit 0 */
	char **words;      /* the command's words (PATHs, DEVICEs) */
	unsigned nwords;
	struct run_ctx *ctx; /* the run's context: its stop flag, the interlock's claims */
	unsigned *case_jobs;      /* jobs in each case */
	char (*job_names)[SUITE_MAX_JOBS][JOB_NAME_MAX]; /* [case][job] */
};

/* Median and min-max of a figure over the passes measured; n 0 when none. */
struct fig3 {
	double median, min, max;
	unsigned n;
};
struct fig3 suite_fig(const struct suite_run *sr, unsigned target, unsigned c, int dir, int fig);
/* The same for job `job` of a case (0: the first; see case_jobs). */
struct fig3 suite_fig_job(const struct suite_run *sr, unsigned target, unsigned c, unsigned job,
			  int dir, int fig);
/* The jobs of case c, as the executor runs them (names, options); 0 or -1 with e set. */
int suite_case_jobs(const struct suite_run *sr, unsigned c, struct job *jobs, unsigned *n,
		    struct ig_err *e);
/* Fill sr->case_jobs and sr->job_names (allocated) from the cases. */
int suite_case_names(struct suite_run *sr, struct ig_err *e);

/* Helpers for formatters: the header line of a target, its device line, a figure or "-". */
void suite_print_header(FILE *f, const struct suite_run *sr, unsigned target);
void suite_print_device(FILE *f, const struct suite_run *sr, unsigned target);
void suite_print_num(FILE *f, const struct fig3 *v, int width, int prec, double scale);
/* Each target measured or refused, by one(), a blank line between them. */
void suite_print_targets(FILE *f, const struct suite_run *sr,
			 void (*one)(FILE *f, const struct suite_run *sr, unsigned target));

/*
 * Several targets side by side: "TITLE, median of N passes:", then a row per
 * item (label() names it) and a column per target as wide as its path
 * (cell() fills one).
 */
typedef void (*suite_cell_fn)(const struct suite_run *sr, unsigned target, unsigned row, char *buf,
			      size_t len);
void suite_print_columns(FILE *f, const struct suite_run *sr, const char *title, const char *corner,
			 unsigned nrows, suite_cell_fn label, suite_cell_fn cell);
/* The suite's object of the JSON root: settings, cases, every target's passes and figures. */
json_t *suite_json(const struct suite_run *sr);

/*
 * One run of case c in pass `pass` on target t: its figures, the bytes asked
 * for and seen by the device, the target's facts.  The executor calls it
 * after each run; suite_from_json calls it for each saved job.
 */
void suite_record(struct suite_run *sr, unsigned t, unsigned pass, unsigned c,
		  const struct run_result *r);

#endif
