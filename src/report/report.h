/*
 * Report writers: results in, text or JSON out.  They never measure.  The
 * command layer calls them; they write to the streams they are given (and
 * report_errors to stderr).
 */
#ifndef IOGAUGE_REPORT_H
#define IOGAUGE_REPORT_H

#include <stdio.h>
#include <jansson.h>
#include "options/args.h"
#include "run/runner.h"

/* ---- text (text.c) */

/* fio-style text for `run`. */
void report_text(FILE *f, const struct run_result *r);
/* The refusal or the jobs' errors, one line each, and the notes, on stderr. */
void report_errors(const struct run_result *r);
/* Its two halves: the notes (fio_silent: leave out what fio does without a word), the errors. */
void report_notes(const struct run_result *r, bool fio_silent);
void report_failures(const struct run_result *r);
/* What a job's numbers may include, in words: O_DIRECT, buffered, fallback. */
const char *report_io_mode(const struct job_result *jr);
/* "12.3", "1.23k" style figures for IOPS. */
const char *fmt_count(char *buf, size_t len, double v);

/* ---- JSON (json.c): the one schema, docs/json.md */

/*
 * The root every command's JSON starts from: {"iogauge": {"version",
 * "command"}, "status", "interrupted", "error"}.  Commands add their keys.
 */
json_t *ig_json_root(const char *command, int status, bool interrupted, const struct ig_err *err);
/*
 * "jobs", "groups", "devices" and "notes" of one run, added to o; each job's
 * "options" as options_json echoes them (groups: the command's; said: a
 * suite case's option string, or NULL).
 */
void ig_json_add_run(json_t *o, const struct run_result *r, unsigned groups, const char *said);
json_t *ig_json_job(const struct job_result *jr, unsigned groups, const char *said);
json_t *ig_json_devices(const struct run_result *r);
/* A latency object: samples, min, max, mean, stddev, sum, percentiles, histogram buckets. */
json_t *ig_json_lat(const struct lat_stats *l, const double *pcts, unsigned npcts);
/* A JSON string of any bytes: non-UTF-8 bytes become "?" so the key is never lost. */
json_t *ig_json_text(const char *s);
/* Integers as JSON integers, above INT64_MAX as reals: never negative. */
json_t *ig_json_u64(uint64_t v);

/* ---- iostat -x and iopp for the measured phase (iostat_out.c) */

/* The devices' iostat -x columns (after the "Disk stats" lines). */
void report_iostat_text(FILE *f, const struct run_result *r);
/* "Disk stats: none: PATH is on tmpfs, which has no block device". */
void report_nodev_text(FILE *f, const struct run_result *r);
/* "other I/O while measuring: PID N name X MB read, Y MB written" or "none". */
void report_other_io_text(FILE *f, const struct run_result *r);
/* A device object's "disk", "iostat" and (this rank's) per-second "series". */
void ig_json_iostat_device(json_t *o, const struct run_result *r, const struct dev_result *d);
/* Root "other_io" and "no_device". */
void ig_json_add_iostat(json_t *o, const struct run_result *r);

/* ---- a run merged from several ranks (cluster.c) */

/* Ranks, hosts, clocks, the spread between ranks and what each had left. */
void report_cluster_text(FILE *f, const struct run_result *r);
/* Root "cluster" object. */
json_t *ig_json_cluster(const struct run_result *r);
/* A merged job's "ranks_n", "rank_spread", "error_rank" and "ranks" (every rank's own job object). */
void ig_json_job_ranks(json_t *o, const struct job_result *jr);

/* ---- fio's formats (fio_stats.c, fio_json.c, terse.c; fio.h) */

/* The options as the user wrote them, for fio's "global options" and "job options". */
struct fio_echo {
	const struct kv_list *global;
	const struct kv_list *jobs; /* by job index */
	unsigned njobs;
};
/* fio 3.x's JSON document (--output-format=fio-json); plus: json+, with the latency bins. */
void report_fio_json(FILE *f, const struct run_result *r, const struct fio_echo *echo, bool plus);
/* fio's terse version 3 (--output-format=terse): a line per thread or group. */
void report_terse(FILE *f, const struct run_result *r);
/* fio's log files (write_bw_log, write_iops_log, write_lat_log) of every job that asks; -1: err says why. */
int report_fio_logs(const struct run_result *r, char *err, size_t errlen);
/* Before the run: refuse log names that are not regular files or new paths (a device, a FIFO). */
int report_fio_logs_check(const struct job *jobs, unsigned njobs, struct ig_err *e);
/* A per-request log that ran out of room (FIOLOG_MAX_RECS requests a thread). */
bool report_fio_logs_dropped(const struct job_result *jr);

/* ---- verification (verify.c) */

/* The job's verify line and its bad blocks (up to VERIFY_REPORT_MAX, then a count). */
void report_verify_text(FILE *f, const struct job_result *jr);
/* One stderr line for a job that verification failed; false when that is not why it failed. */
bool report_verify_error(const struct job_result *jr, const char *name);
json_t *ig_json_verify(const struct job_result *jr);
/*
 * A job's error in words: strerror, what --verify found, or a short
 * transfer's "short read: 0 of 65536 bytes at offset 1048576" (written into buf).
 */
const char *err_text(const struct thread_stats *t, char *buf, size_t len);
/* A short transfer: bytes moved, of how many, and the request's offset; "(end of file)" or "(no space)". */
void short_text(const struct thread_stats *t, char *buf, size_t len);

/* Reading saved results back: report/result_read.h. */

/* ---- HTML (html.c, html_charts.c) */

struct html_result {
	const json_t *root; /* a result as a command writes it (docs/json.md) */
	const char *label;  /* its name on shared charts ("old.json"); "" when it is the only one */
};
/* Where Chart.js is read from: $IOGAUGE_CHARTJS, else Debian's libjs-chart.js. */
const char *html_chartjs_path(void);
/* Chart.js's text, to inline in the page; NULL with e set (status 2) when it is missing. */
char *html_chartjs_load(struct ig_err *e);
/*
 * A saved result's summary as its command prints it, written to f; 0, or -1
 * with e set.  The command layer's (command_saved_summary in cmds/summary.c):
 * report knows no command table and no suite, so it is handed this.
 */
typedef int (*html_summary_fn)(FILE *f, const json_t *root, struct ig_err *e);
/*
 * A saved result's text as its command printed it (the HTML summary box,
 * `iogauge show`): summary's (the command's own and a suite's table), else
 * fio's text of its jobs.  f must be seekable or a memstream (its position
 * tells whether summary wrote).  0, or -1 with e set.
 */
int report_saved_text(FILE *f, const json_t *root, html_summary_fn summary, struct ig_err *e);
/* An imported result's text (text_import.c): its jobs' figures as its tool measured them, and its notes. */
int report_import_text(FILE *f, const json_t *root);
/*
 * One self-contained page (no network: the chart library is inlined) for
 * the results; several are compared on shared charts.  summary: each
 * result's text (what it writes nothing for, and NULL, get fio's text).
 * 0, or -1 when a write failed.
 */
int html_write(FILE *f, const struct html_result *res, unsigned n, const char *chartjs,
	       html_summary_fn summary);

/* A figure of a label's history (report --trend): its value at each run, the band of the runs before. */
struct trend_point {
	long long id;
	const char *when;
	double value;
	double lo, hi; /* the spread of the runs before it; NAN: too few */
};
struct trend_fig {
	const char *name, *target, *unit;
	struct trend_point *points; /* oldest first */
	unsigned npoints;
};
/* The trend page of label (html_trend.c): a chart per figure.  window: the runs a band spans.  0 or -1. */
int html_trend_write(FILE *f, const char *label, const struct trend_fig *figs, unsigned n, unsigned window,
		     const char *chartjs);

/* ---- saved results as compare reads them (saved.c) */

/*
 * A saved result of any command, as `compare` reads it: the command, the
 * settings that must match for two results to be compared, and every
 * test's figures with the spread of its passes.  Suites give a column per
 * target; `run` and `dd` one column.
 */
struct saved_entry {
	char column[PATH_MAX]; /* the target's path within the file; "" without targets */
	char row[256];         /* "SEQ1M Q8T1 read: read MB/s" */
	char job[256];         /* the case or job: "SEQ1M Q8T1 read" */
	char dir[8];           /* "read", "write", "trim", "total"; "" for dd's own rate */
	const char *metric;    /* "mb_s", "iops", "lat_mean_us" ...: the figure's name, in its unit */
	bool judged;           /* one of compare's rows (the rest: with `all`, for the store) */
	const char *unit;      /* "MB/s", "IOPS", "us" */
	int prec;              /* decimals to print */
	bool lower_better;     /* latency */
	double median, min, max;
	unsigned passes;       /* 0: one figure, no spread recorded */
};
struct saved_result {
	char path[PATH_MAX];
	char command[64];
	json_t *settings; /* owned; compared with json_equal */
	struct saved_entry *e;
	unsigned n, cap;
	bool all; /* every figure, not compare's rows alone (saved_from_root) */
	/*
	 * Another tool's result read as iogauge's ("fio-3.33"; "" for iogauge's
	 * own): its settings are only the options it echoed, so only those are
	 * compared (saved_same_settings).
	 */
	char imported[64];
};
/* Read path into r: 0, or -1 with e set (status 2: not a file, not JSON, not iogauge's). */
int saved_load(const char *path, struct saved_result *r, struct ig_err *e);
/*
 * A result already read (root) into r, named name: compare's rows, and with
 * all every figure besides (the store keeps them: latency percentiles,
 * CPU, elapsed time), those with judged false.  0, or -1 with e set.
 */
int saved_from_root(const json_t *root, const char *name, bool all, struct saved_result *r, struct ig_err *e);
void saved_free(struct saved_result *r);
/*
 * 0 when a and b were run with the same settings, else -1 with the first
 * difference in why.  An imported result's settings are only those it
 * names: the other's are compared on those keys alone.
 */
int saved_same_settings(const struct saved_result *a, const struct saved_result *b, char *why, size_t len);
/* Are results of these two commands compared (the same, or `run` and `fio`: one model of jobs)? */
bool saved_same_kind(const char *a, const char *b);

/* ---- outputs (output.c) */

struct settings;
struct outputs {
	FILE *out;  /* results: stdout or --output */
	FILE *json; /* --json FILE, or NULL */
	FILE *html; /* --html FILE, or NULL */
	const char *out_name, *json_name, *html_name;
	char *chartjs; /* read before the run: a missing library is a usage error, not a lost report */
	html_summary_fn summary; /* --html's summary text (html_write) */
};
/*
 * Open --output and --json before the run, so a bad path is a usage error and
 * not a lost result; the two naming one file is refused.  summary: for
 * --html (html_write).  0 or -1 with e set.
 */
int outputs_open(struct outputs *o, const struct settings *s, html_summary_fn summary, struct ig_err *e);
/* Does any output need the JSON root (--output-format=json, --json, --html)? */
bool outputs_want_root(const struct outputs *o, const struct settings *s);
/*
 * Write root as JSON where asked, and as the HTML report with --html (stdout with --output-format=json, --json
 * FILE) and close the files.  Returns status, or 1 when it was 0 and a
 * write failed (with a message).
 */
int outputs_finish(struct outputs *o, const struct settings *s, json_t *root, int status);

#endif
