/*
 * The one reader of saved results (docs/json.md): the file opened, parsed
 * and its schema checked, its head, jobs, suite and dd part walked into
 * typed structs (result_read.c), the commands' own objects the HTML page
 * draws (result_own.c: scale, tree, steady, fs), and jobs, latencies and
 * whole runs decoded into the writers' own structs (json_read.c).  Everything that
 * renders a saved result (report, compare, the HTML page, a suite's table
 * printed again) reads it through here; the keys are base/result_keys.h's.
 * A root written by a run in this process (--html) reads the same way.
 */
#ifndef IOGAUGE_REPORT_RESULT_READ_H
#define IOGAUGE_REPORT_RESULT_READ_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include "run/runner.h"

/* ---- the file (result_read.c) */

/*
 * A saved result file (any command's JSON): a regular file, JSON, iogauge's
 * (not fio's), of a schema this iogauge reads.  NULL with e set (status 2)
 * and a one-line message when it is not one.
 */
json_t *result_load(const char *path, struct ig_err *e);
/* The same of a document in memory (a stored result), named name in messages. */
json_t *result_parse(const char *buf, size_t len, const char *name, struct ig_err *e);
/* root is an iogauge result of a schema this iogauge reads: 0, or -1 with e set (status 2). */
int result_check(const json_t *root, const char *name, struct ig_err *e);

/*
 * fio's JSON output (result_fio.c) as an iogauge result of command "fio":
 * each job's figures per direction as fio measured them, its settings as
 * `run` (the command given) reads fio's options, and notes that say what is
 * not carried (fio's latency bins are not re-binned into a histogram).  NULL
 * with e set (status 2) when fio is not fio's JSON or holds no job.
 */
struct command;
json_t *result_from_fio(const json_t *fio, const char *name, const struct command *run, struct ig_err *e);
/* Where fio's JSON begins in a file fio wrote (its notes come first): NULL when nowhere. */
const char *result_fio_start(const char *buf);

/* ---- typed walks (result_read.c); strings point into the root, "" when missing */

/* The root's own keys. */
struct result_head {
	const char *command;      /* iogauge.command */
	const char *version;      /* iogauge.version */
	const char *command_line;
	const char *time;         /* when it was written */
	const char *error;        /* the refusal or the first error; "" */
	long long status;         /* the exit status */
	bool interrupted;
	bool has_host;
	const char *host_name, *kernel, *machine;
	long long cpus;
	bool suite;               /* a suite's result: it has "suite" */
	unsigned njobs;
	unsigned ndevs;           /* the run's devices */
	unsigned nnotes;
	const char *imported;     /* another tool's result read as iogauge's: "fio-3.33"; "" for iogauge's own */
};
void result_head(const json_t *root, struct result_head *h);
/* The run's device i ("devices"): false when there is none. */
struct result_device {
	const char *name;
	double read_bytes, write_bytes; /* 0 when missing */
};
bool result_device(const json_t *root, unsigned i, struct result_device *d);
/* iostat -x's columns of a device, over the measured part or one second; 0 when missing. */
struct result_iostat {
	double t_ns; /* a second's end */
	double r_s, w_s, rmb_s, wmb_s, r_await_ms, w_await_ms, aqu_sz, util_pct;
};
/* The run's device with its iostat part (iostat_out.c writes it). */
struct result_devstat {
	const char *name; /* NULL when missing */
	double span_ns;
	bool has_iostat;
	struct result_iostat measured;
	struct result_iostat *series;
	unsigned nseries;
};
unsigned result_devstats(const json_t *root, struct result_devstat **out);
void result_devstats_free(struct result_devstat *d, unsigned n);
/* Another process's I/O while measuring. */
struct result_other {
	long long pid;
	const char *name; /* NULL when missing */
	double read_bytes, write_bytes;
};
/* Other processes' I/O into *out (allocated; free it); -1 when it was not looked at. */
int result_others(const json_t *root, struct result_other **out);
/* A target on a file system without a block device: path and fstype (NULL when missing). */
struct result_nodev {
	const char *path, *fstype;
};
unsigned result_nodevs(const json_t *root, struct result_nodev **out);
/* Note i (i < h.nnotes), "" when it is not a string. */
const char *result_note(const json_t *root, unsigned i);

/* A direction's figures of a job; a number missing (or not one) reads NAN. */
struct result_dir {
	double bytes, ios, bw_bytes, iops;
	double clat_mean;                /* clat_ns.mean */
	double clat_p99;                 /* clat_ns.percentiles."99.000000" */
	double clat_p50, clat_p999;      /* "50.000000", "99.900000" */
	double clat_min, clat_max, clat_stddev;
	const json_t *clat;              /* clat_ns, for lat_from_json; NULL */
};
/* A target of a job (its "targets"). */
struct result_jtarget {
	const char *path, *fstype, *device;
	double size;                     /* 0 when missing */
	bool created;
};
/* A job of a saved result, with where it ran: suites tag jobs with target, case and pass. */
struct result_job {
	const json_t *job;   /* the object, for the decoders below and the per-second series */
	unsigned index;      /* its place in "jobs" */
	const char *name;    /* NULL when it has none */
	const char *target;  /* the target as the user named it: the suite's tag, else the first target's path */
	const char *kase;    /* the suite's case, or the job's name */
	int pass;            /* 1.. (1 when untagged) */
	long long pass_tag;  /* "pass" as saved; 0 when missing */
	struct result_dir dir[DDIR_NR];
	const char *io_mode;
	bool has_resident;   /* resident_before_bytes was measured */
	double resident_before;
	const json_t *options; /* the options echo (options_from_json); NULL */
	double opt_size;     /* options.size, 0 */
	const char *opt_data; /* options.data, "" */
	bool has_steady;     /* it has "steadystate" */
	bool has_dev;        /* a suite's job: its device's counters */
	const char *dev_name;
	double dev_read_bytes, dev_write_bytes;
	struct result_jtarget *targets;
	unsigned ntargets;
	unsigned npoints;    /* per-second points */
	double elapsed_ns;   /* NAN when missing */
};
/* A direction's completion-latency percentiles as saved, in order: up to max into pct (50, 99 ...) and ns. */
unsigned result_clat_percentiles(const struct result_dir *d, double *pct, double *ns, unsigned max);
/* The jobs of a result in order; *out is allocated (free with result_jobs_free). */
unsigned result_jobs(const json_t *root, struct result_job **out);
void result_jobs_free(struct result_job *jobs, unsigned n);
/* A stonewall group of a run ("groups"): its jobs merged, as fio's group reporting sums them. */
struct result_group {
	unsigned index;      /* its "group" number */
	unsigned njobs;      /* the jobs of "jobs" that ran in it */
	struct result_dir dir[DDIR_NR];
};
/* The groups of a result in order into *out (allocated; free it). */
unsigned result_groups(const json_t *root, struct result_group **out);
/* A per-second point of a job's or a rank's series; 0 when missing. */
struct result_point {
	double t_ns, dur_ns;
	double ios[DDIR_NR], bytes[DDIR_NR], lat_mean_ns[DDIR_NR];
};
/* A rank's part of a job (iogauge-mpi). */
struct result_rank {
	long long rank;
	const char *host;    /* NULL when not saved */
	struct result_point *points;
	unsigned npoints;    /* 0: --rank-results=brief|none */
};
/* The per-second series of a job into *out (allocated; free it). */
unsigned result_series(const struct result_job *j, struct result_point **out);
/* The ranks of a job into *out (free with result_ranks_free). */
unsigned result_ranks(const struct result_job *j, struct result_rank **out);
void result_ranks_free(struct result_rank *ranks, unsigned n);
/* A number NAN when missing, as 0: what a chart or a sum shows for it. */
static inline double result_or0(double v)
{
	return v == v ? v : 0;
}

/* A suite's saved part ("suite"). */
struct result_case {
	const char *name, *options;
};
struct result_target {
	const json_t *o;     /* the object, for result_suite_fig */
	const char *path, *file, *fstype, *device, *source, *mount_options;
	const char *refused; /* NULL: measured */
	int rotational;      /* -1: not known */
	uint64_t fs_size, size, layout_ns, prepare_ns, prepare_bytes;
	bool blockdev, shrunk, buffered_fallback;
};
struct result_setting {
	const char *key, *value; /* value NULL: not a string */
};
struct result_suite {
	const json_t *options;  /* the jobs' options echo (options_from_json) */
	struct result_setting *settings; /* the command's own settings, in order */
	unsigned nsettings;
	const json_t *cases_json; /* the cases as saved, compared whole by compare */
	long long passes;       /* 0 when missing */
	struct result_case *cases;
	unsigned ncases;
	struct result_target *targets;
	unsigned ntargets;
};
/*
 * The "suite" object of root into s: 0, or -1 with e set when there is
 * none, its targets or cases are not arrays or a case has no name or
 * options.  Free with result_suite_free (also after -1).
 */
int result_suite(const json_t *root, struct result_suite *s, struct ig_err *e);
void result_suite_free(struct result_suite *s);
/* A figure of a suite's case on a target: {median, min, max, passes}; NAN when missing. */
struct result_fig {
	double median, min, max, passes;
};
/* suite.targets[t].cases.KASE.DIR.FIG into f: false when that is no object. */
bool result_suite_fig(const struct result_suite *s, unsigned t, const char *kase, const char *dir,
		      const char *fig, struct result_fig *f);
/*
 * A case of several jobs at once (matrix's small and large) keeps each
 * job's figures under cases.KASE.jobs.JOB (its own keys are its first
 * job's): the jobs' names in order into *names (allocated; free it), 0 for
 * a case of one job; and a job's figure as result_suite_fig gives a case's.
 */
unsigned result_suite_jobs(const struct result_suite *s, unsigned t, const char *kase, const char ***names);
bool result_suite_job_fig(const struct result_suite *s, unsigned t, const char *kase, const char *job,
			  const char *dir, const char *fig, struct result_fig *f);
/* The targets of a result as named: the suite's, or the jobs' in order of appearance; *out allocated. */
unsigned result_targets(const json_t *root, const char ***out);
/* A command's own part of root (scale's, steady's, tree's, fs's ...): NULL when it has none. */
const json_t *result_own(const json_t *root, const char *key);
/* dd's own part: its operands, its rate (NAN when missing) and its lines as dd printed them. */
struct result_dd {
	const json_t *operands; /* {"bs": "1M", ...}; NULL */
	double bw_bytes;
	const char *records_in, *records_out, *summary; /* NULL when missing */
	bool noxfer;            /* status=noxfer: dd printed no summary line */
};
/* false when root has no "dd" object. */
bool result_dd(const json_t *root, struct result_dd *dd);

/* A job's steady-state window (a run's --steadystate). */
struct result_ss {
	const char *criterion; /* "iops", "bw_slope", ... */
	bool attained;
	double *iops, *bw_bytes; /* the last window, a value a second (allocated; free both) */
	unsigned niops, nbw;
};
/* false (nothing allocated) when the job has no steady state or no criterion. */
bool result_job_ss(const struct result_job *j, struct result_ss *ss);
void result_ss_free(struct result_ss *ss);

/* ---- the commands' own objects (result_own.c) */

/* A step of scale's or tree's sweep, or the one it found (the knee, the best); NAN when missing. */
struct result_step {
	bool measured;
	long long numjobs;
	const char *kase; /* NULL when missing */
	double iops, lat_mean_ns, lat_p99_ns, outstanding, streams, mb_s, read_mb_s;
};
struct result_sweep {
	const char *path; /* NULL when missing */
	struct result_step *steps;
	unsigned nsteps;
	bool has_found;   /* the knee or best is an object */
	struct result_step found;
};
/* The targets of a sweep's own object (scale's, tree's); found: "knee" or "best". */
unsigned result_sweeps(const json_t *own, const char *found, struct result_sweep **out);
void result_sweeps_free(struct result_sweep *s, unsigned n);

/* steady's own object: rounds per target, the window, PTS's table. */
struct result_round {
	double round, iops; /* 0 when missing */
};
struct result_steady_case {
	const char *name; /* NULL when missing */
	long long read_pct;
	struct result_round *rounds;
	unsigned nrounds;
};
struct result_steady_row {
	long long bs;   /* the block size of the row */
	double *cells;  /* average IOPS by read mix; NAN: not measured */
	unsigned ncells;
};
struct result_steady_target {
	const char *path; /* NULL when missing */
	bool reached;
	bool has_window;
	long long first_round, last_round;
	double iops_mean, slope; /* over the window, IOPS a round */
	struct result_round *rounds;
	unsigned nrounds;
	struct result_steady_case *cases;
	unsigned ncases;
	const char *table_rounds; /* "steady window", "last window", ...; NULL */
	long long table_first, table_last;
	struct result_steady_row *rows;
	unsigned nrows;
};
struct result_steady {
	const char *tracked_case; /* NULL when missing */
	double range_pct_limit;
	long long *read_pcts;
	unsigned nread_pcts;
	struct result_steady_target *targets;
	unsigned ntargets;
};
void result_steady(const json_t *own, struct result_steady *s);
void result_steady_free(struct result_steady *s);

/* fs's own object: a column per file system, the scaling ratios. */
struct result_fs_column {
	const char *label; /* NULL when missing */
	/* NAN when not a number (an array: its first) */
	double dd_to_disk_mb_s, writeback_s, unmount_s, mkfs_s, devices;
};
struct result_fs_ratio {
	const char *name;
	double v;
};
struct result_fs_scaling {
	const char *target, *single; /* NULL when missing */
	long long devices;
	struct result_fs_ratio *ratios; /* the numbers only, in order */
	unsigned nratios;
};
struct result_fs {
	struct result_fs_column *fs;
	unsigned nfs;
	struct result_fs_scaling *scaling;
	unsigned nscaling;
	const char *loop_dir; /* NULL: not on loop devices over images */
};
void result_fs(const json_t *own, struct result_fs *f);
void result_fs_free(struct result_fs *f);

/* tree's own object read back for its table: a target's walk, build and runs (0 when missing). */
struct result_tree_walk {
	const char *root;             /* "" when missing */
	const char *first_unreadable; /* NULL when missing */
	uint64_t dirs, files, bytes, items, symlinks, fifos, sockets, chardevs, blockdevs;
	uint64_t other_fs, unreadable, vanished, walk_ns;
};
struct result_tree_built {
	const char *data; /* NULL when missing */
	uint64_t files, size_min, size_max, files_per_dir, fanout, seed, bytes, build_ns;
	bool kept;
};
struct result_tree_run {
	bool saved;                   /* an object: measured */
	const char *first_unreadable; /* NULL when missing */
	uint64_t files, bytes, vanished, changed, unreadable, hash_bytes, hash_ns;
	uint64_t compress_in, compress_out, compress_ns, compress_failed, invalidate_ns;
	int64_t resident;             /* -1: not known */
};
struct result_tree_target {
	bool has_walk, has_built;
	struct result_tree_walk walk;
	struct result_tree_built built;
	struct result_tree_run **runs; /* runs[step][pass] */
	unsigned nsteps;
	unsigned *npasses;             /* a step's */
};
/* false (nothing allocated) when own is no object; else its targets (free with result_tree_free). */
bool result_tree(const json_t *own, struct result_tree_target **out, unsigned *n);
void result_tree_free(struct result_tree_target *t, unsigned n);

/* latency's own object: ioping's statistics of a target (0 when missing). */
struct result_ioping {
	const char *path, *description; /* "" when missing */
	bool writes;
	uint64_t completed, time_ns, bytes, requests, wall_ns;
	uint64_t min_ns, avg_ns, max_ns, mdev_ns, p50_ns, p90_ns, p99_ns, p99_9_ns;
};
/* Its targets in order into *out (allocated; free it). */
unsigned result_ioping(const json_t *own, struct result_ioping **out);

/* compare's own object: the table as saved. */
struct result_cmp_row {
	const char *test, *unit; /* "" when missing */
	double *values;          /* a value a column; NAN: not a number */
	double *change_pct;      /* against the first column; NAN: not a number */
	char *mark;              /* a column's significance: '~' not significant, '?' no spread, 0 */
};
struct result_compare {
	const char *command;     /* the compared results' command; NULL when missing */
	unsigned nfiles;
	const char **file, **target; /* a column's file and target; NULL when missing */
	unsigned ncols;
	struct result_cmp_row *rows; /* each with ncols values */
	unsigned nrows;
};
void result_compare(const json_t *own, struct result_compare *c);
void result_compare_free(struct result_compare *c);

/* ---- decoded into the writers' structs (json_read.c) */

/*
 * A latency object written by ig_json_lat into l (histogram included).  l must
 * be initialised (lat_init, or zeroed); what it held is freed.  0 or -1 with
 * e set.  Counts, min and max must agree with the buckets.
 */
int lat_from_json(const json_t *o, struct lat_stats *l, struct ig_err *e);
/* A job's "options" echo applied to j (unknown keys are skipped: a newer version's). */
int options_from_json(const json_t *o, struct job *j, struct ig_err *e);
/* The statistics keys of a job, thread or group into t (stats_init'ed): histograms, series. */
int stats_from_json(const json_t *o, struct thread_stats *t, struct ig_err *e);
/* A job object into jr: job options, targets, total and threads (free with run_result_free). */
int job_result_from_json(const json_t *o, struct job_result *jr, struct ig_err *e);
/* A whole result's jobs, devices, notes and status into r (free with run_result_free). */
int run_result_from_json(const json_t *root, struct run_result *r, struct ig_err *e);
/* A suite's saved job as the executor's run of its case: the job and its device's counters. */
int run_result_of_job(const struct result_job *j, struct run_result *r, struct ig_err *e);

#endif
