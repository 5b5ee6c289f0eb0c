/*
 * One workload description.  Every front end (command line, job files,
 * suites) fills struct job through the option table (options.c); the runner
 * only reads it.
 */
#ifndef IOGAUGE_JOB_H
#define IOGAUGE_JOB_H

#include <stdint.h>
#include <stdbool.h>
#include <limits.h>
#include "model/cmdprio_opts.h"
#include "model/cpus.h"
#include "model/errtol.h"
#include "model/data.h"
#include "model/offsets.h"
#include "model/ops.h"

/* The trim modes come last: fio's trim, randtrim, trimwrite (trim a block, then write it), randtrimwrite. */
enum rw_mode { RW_READ = 0, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RW, RW_READWRITE, RW_RANDRW,
	       RW_TRIM, RW_RANDTRIM, RW_TRIMWRITE, RW_RANDTRIMWRITE };

static inline bool rw_is_random(int rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW || rw == RW_RANDTRIM ||
	       rw == RW_RANDTRIMWRITE;
}
static inline bool rw_reads(int rw)
{
	return rw == RW_READ || rw == RW_RANDREAD || rw == RW_RW || rw == RW_READWRITE || rw == RW_RANDRW;
}
/* Issues writes (data); trims alone do not. */
static inline bool rw_writes(int rw)
{
	return rw != RW_READ && rw != RW_RANDREAD && rw != RW_TRIM && rw != RW_RANDTRIM;
}
/* Issues trims (discards on a device, punched holes in a file). */
static inline bool rw_trims(int rw)
{
	return rw >= RW_TRIM;
}
/* Each trim is followed by a write of the same block (fio's trimwrite, randtrimwrite). */
static inline bool rw_trimwrite(int rw)
{
	return rw == RW_TRIMWRITE || rw == RW_RANDTRIMWRITE;
}
static inline bool rw_is_mixed(int rw)
{
	return rw == RW_RW || rw == RW_READWRITE || rw == RW_RANDRW;
}

/* The order of a sequential pattern: forward, backward (iozone's -i 3), a stride (-i 5). */
enum seq_order { SEQ_FORWARD = 0, SEQ_BACKWARD, SEQ_STRIDE };

/* --fileop: a job of metadata operations on a tree of items (engines/fileops.c). */
enum file_op { FILEOP_NONE = 0, FILEOP_CREATE, FILEOP_STAT, FILEOP_OPEN, FILEOP_UNLINK,
	       FILEOP_MKDIR, FILEOP_RMDIR };

enum sync_mode { SYNC_NONE = 0, SYNC_SYNC, SYNC_DSYNC };
enum out_format { OUT_NORMAL = 0, OUT_JSON, OUT_FIO_JSON, OUT_FIO_JSONPLUS, OUT_TERSE, OUT_CSV, OUT_OPENMETRICS };
enum segment_layout { SEG_BLOCK = 0, SEG_INTERLEAVED };
enum rank_results { RANKS_AUTO = 0, RANKS_FULL, RANKS_BRIEF, RANKS_NONE };

#define MAX_PERCENTILES 32
#define JOB_NAME_MAX 64
#define BSSPLIT_MAX 64
#define ZONES_MAX OFFGEN_ZONES

enum { RW_SEQ_SEQUENTIAL = 0, RW_SEQ_IDENTICAL };
enum { EXIT_WHAT_GROUP = 0, EXIT_WHAT_STONEWALL, EXIT_WHAT_ALL };
enum { RATE_LINEAR = 0, RATE_POISSON };
enum { FSERVICE_RR = 0, FSERVICE_SEQ, FSERVICE_RANDOM };
enum { RANDGEN_TAUSWORTHE = 0, RANDGEN_LFSR, RANDGEN_TAUSWORTHE64 };
enum { ZONEMODE_NONE = 0, ZONEMODE_STRIDED, ZONEMODE_ZBD };

struct engine_ops;
struct worker_hooks;
struct iolog;
struct tree_job;

/*
 * fio's queue discipline (option_queue.c): how many requests go to the engine per commit, how
 * many completions a reap waits for and takes, and the depth a full queue drains to before it
 * is refilled.  None given: iogauge's own (every free slot in one commit, up to iodepth reaped,
 * refilled at once); any given: fio's, with fio's defaults for the others.
 */
enum { QB_SUBMIT, QB_CMIN, QB_CMAX, QB_LOW, QB_NR };
struct job_qbatch {
	unsigned given;    /* bit QB_*: given by the user */
	unsigned v[QB_NR]; /* as given */
};
/* What a job's thread does with them (its iodepth applied, as fio's fixup_options). */
struct qbatch_eff {
	unsigned submit, cmin, cmax, low;
	bool poll; /* iodepth_batch_complete_min=0 and _max=0: fio reaps after every request, without waiting */
};
struct job;
void job_qbatch_eff(const struct job *j, struct qbatch_eff *q);

/*
 * A job's plan: what commands, the runner and normalisation (job_normalise)
 * set, never an option.  The options above are what the user said; the plan
 * is how this run carries them out.
 */
struct job_plan {
	const struct worker_hooks *hooks; /* NULL: none */
	/* A tree read (tree.h): every regular file under filename, read whole; NULL: none. */
	struct tree_job *tree;
	/* read_iolog: the requests to replay, loaded and checked by job_normalise (iolog_job.c). */
	const struct iolog *replay;           /* the first log (replays[0]) */
	const struct iolog *const *replays;   /* read_iolog=A:B: the job's logs, a thread each in turn */
	unsigned nreplays;
	unsigned index; /* position in the command */
	/* A copy (dd if=FILE of=FILE): each block read is written to copy.path, both timed. */
	struct job_copy {
		char path[PATH_MAX]; /* empty: no copy */
		uint64_t offset;     /* where the first block goes */
		bool direct;
		int sync;            /* enum sync_mode */
	} copy;
	bool grow;       /* the written file is not laid out: it starts (or is cut) at offset and grows */
	bool truncate;   /* with grow: cut an existing file at offset first (dd without conv=notrunc) */
	bool short_tail; /* the region need not be whole blocks: the last request is shorter (dd) */
	/* The option the block size came from, as the user wrote it ("-s", "blocksize", "-size_small"); "": --bs. */
	char bs_said[32];
	/*
	 * --shared-file with several ranks: the region [span_offset, +span_size)
	 * all ranks share (laid out, cached), and the distance between a
	 * thread's consecutive blocks (interleaved: ranks x bs).  0: the job's
	 * own region, blocks next to each other.
	 */
	uint64_t span_offset, span_size, stride;
	/* Several ranks in one file set (--shared-file, place.c): the tree holds fileset_items;
	 * this rank's k-th item is item_first + k * item_step.  Zero: the thread's own nrfiles. */
	uint64_t fileset_items, item_first, item_step;
	/* --verify's headers are fio 3.33's on-disk format (`iogauge fio`), not iogauge's own. */
	bool fio_verify;
};

struct job {
	char name[JOB_NAME_MAX];
	char filename[PATH_MAX]; /* empty: <directory>/<name>.<job>.<thread> */
	char directory[PATH_MAX];
	uint64_t size;   /* bytes of the file or region each thread covers */
	uint64_t offset; /* start of the region in the file or device */
	/* fio's N% of each file's or device's size (size=50%; 0: none): the runner resolves them (percent.c). */
	uint8_t size_pct, offset_pct, offset_increment_pct, io_size_pct;
	uint64_t offset_align; /* a percentage's offset is rounded up to this (0: the smallest block size) */
	int rw;          /* enum rw_mode */
	unsigned rwmixread; /* percent of reads in mixed modes */
	uint64_t bs;
	unsigned iodepth;
	unsigned numjobs;
	const struct engine_ops *engine;
	bool direct;
	int sync; /* enum sync_mode: O_SYNC / O_DSYNC */
	unsigned fsync_every, fdatasync_every;
	bool end_fsync;
	bool end_fdatasync;
	uint64_t runtime_ns; /* 0: until size*loops is done */
	uint64_t ramp_ns;
	bool time_based;
	unsigned loops;
	uint64_t number_ios; /* stop after this many requests (0: size, loops and runtime decide) */
	bool invalidate;
	bool fadvise_hint; /* POSIX_FADV_RANDOM/SEQUENTIAL on buffered files, as fio */
	int clocksource;   /* enum clock_source (base/clock.h): fio's clocksource */
	bool randrepeat;
	uint64_t randseed;
	bool norandommap;
	int dist; /* enum dist_kind */
	double dist_param;
	uint64_t rate_bps[3], rate_iops[3]; /* per thread and direction (read, write, trim); 0 = unlimited */
	uint64_t thinktime_ns;
	bool group_reporting;
	double percentiles[MAX_PERCENTILES];
	unsigned n_percentiles;
	struct data_spec data; /* what writes (and the layout) put on disk */
	bool refill_buffers;   /* random data: fresh for every write (fio's refill_buffers) */
	bool stonewall;
	char inject[256]; /* --ioengine=inject: the faults to make (engines/inject.c) */
	int verify;              /* enum verify_algo (verify.h): headers and checksums on writes */
	bool do_verify;          /* read back what was written, after the writes */
	bool verify_only;        /* write nothing: check what an earlier run with these options wrote */
	uint64_t verify_backlog; /* also read back every N writes along the way (0: only at the end) */
	uint64_t verify_backlog_batch; /* blocks each of those read-backs checks (0: verify_backlog's) */
	/* fio's other verify options (verify.c). */
	bool verify_pattern;       /* the data pattern (fio's verify_pattern) is checked too */
	bool verify_implied;       /* verify=meta came from verify_pattern alone (fio's header type "pattern") */
	uint64_t verify_interval;  /* a header every this many bytes of a block (0: one a block) */
	bool verify_fatal;         /* the first bad block fails the job at once */
	bool verify_dump;          /* bad blocks, and what was expected there, written to files */
	bool experimental_verify;  /* fio's replay: the first loop is verified, once */
	bool verify_state_save, verify_state_load; /* fio's local-NAME-N-verify.state files */
	/* fio's dedupe_mode (enum dedupe_mode, data.h), its working set's percentage and sharing. */
	int dedupe_mode;
	unsigned dedupe_ws_pct;
	bool dedupe_global;
	bool shared_file;    /* several ranks: segments of one file */
	int segment_layout;  /* enum segment_layout */
	bool stonewall_all;  /* several ranks: the first rank done stops all */
	int rank_results;    /* enum rank_results: each rank's own job objects in the JSON */

	/* fio's block sizes and patterns (pattern.c); all zero: fixed bs, plain rw. */
	uint64_t bs_write;                /* bs=R,W: the writes' block size (0: bs) */
	uint64_t bs_trim;                 /* bs=R,W,T: the trims' block size (0: the writes') */
	uint64_t bsrange[DDIR_NR][2];     /* bsrange=A-B[,C-D]: smallest, largest (0: none) */
	struct bs_split {
		uint64_t bs;
		unsigned pct;
	} bssplit[DDIR_NR][BSSPLIT_MAX];  /* bssplit: in fio's order (by percentage) */
	unsigned nbssplit[DDIR_NR];
	uint64_t blockalign[DDIR_NR];     /* offsets are multiples of this (0: the smallest bs) */
	bool bs_unaligned;
	int64_t rw_skip;                  /* rw=read:8k, write:-8k: bytes between sequential requests */
	unsigned rw_seq_nr;               /* rw=randread:8: a new random offset every 8 requests */
	int rw_sequencer;                 /* RW_SEQ_*: what the other requests do */
	unsigned pct_random[DDIR_NR];     /* percentage_random: random requests of a random pattern */
	int random_generator;             /* RANDGEN_*: fio's name; tausworthe64 widens fio's bs stream */
	struct zone_split zones[ZONES_MAX]; /* random_distribution=zoned: / zoned_abs: */
	unsigned nzones;
	bool zones_abs;
	/* fio's zonemode=strided (worker.c): zonesize bytes in a zone of zonerange bytes, then zoneskip skipped. */
	int zonemode;                     /* ZONEMODE_* */
	uint64_t zonesize, zonerange, zoneskip;

	/* fio's amounts, files and run control (runner.c, worker.c). */
	uint64_t io_size;          /* bytes of I/O a loop (0: size); more than size wraps */
	uint64_t filesize[2];      /* each file's size, or a range (0: size); --fileop: bytes of each file */
	uint64_t offset_increment; /* thread N's region starts N * this after offset */
	bool pre_read;             /* read the region into the page cache before the job */
	bool new_group;            /* a new reporting group, still running with the jobs before */
	char wait_for[JOB_NAME_MAX]; /* start when the job of this name has finished */
	uint64_t startdelay_ns[2]; /* wait this long (a range: a random time in it) before starting */
	bool exitall;              /* when this job ends, stop the others (exit_what) */
	int exit_what;             /* EXIT_WHAT_* */
	uint64_t ratemin[3], rate_iops_min[3]; /* per direction: below this in a second, the job fails */
	int rate_process;          /* RATE_LINEAR, RATE_POISSON */
	char filename_format[PATH_MAX]; /* fio's $jobname.$jobnum.$filenum names */
	uint64_t nrfiles;          /* files per thread (a ':' list in filename: its files, shared); --fileop: items per thread */
	int file_service;          /* FSERVICE_*: which file the next request goes to */
	unsigned file_service_nr;  /* ... switching after this many requests */

	/* fio's logs (fiolog.c, report/fio_logs.c): NAME_bw.X.log and the like; empty: none. */
	char bw_log[256], iops_log[256], lat_log[256];
	uint64_t log_avg_ns;       /* window of averaged lines; 0: a line per request */
	bool log_offset;           /* each line also gives the request's offset */
	bool per_job_logs;         /* a file per thread (NAME_bw.X.log); off: one per job, appended */
	bool log_prio;             /* the last column is the request's whole ioprio (0x%04x), not 0/1 */
	bool log_issue_time;       /* a last column: the request's issue time (ns; clat and slat logs, else 0) */
	int log_window;            /* log_window_value: avg, max, both, 0, 1 (fiolog_window_value) */

	/* fio compatibility (docs/fio.md). */
	char description[256];
	bool clat_percentiles, lat_percentiles, slat_percentiles; /* which fio reports show */
	bool fixedbufs, registerfiles, hipri, sqthread_poll, userspace_reap; /* engine options */
	bool nowait, uncached; /* engine options too (pvsync2's RWF_ flags) */
	unsigned hipri_pct;    /* pvsync2: the share of requests hipri sets RWF_HIPRI on */
	struct job_cpus cpus;  /* each thread's CPUs and memory policy (cpus.c) */
	struct job_cmdprio cmdprio; /* fio's per-request priorities (cmdprio.h; io_uring, libaio) */
	struct job_errtol errtol; /* continue_on_error, ignore_error (errtol.c) */
	struct job_qbatch qbatch; /* iodepth_batch_submit, _complete_min/_max, iodepth_low */
	bool fill_device; /* fio's fill_device: write until ENOSPC (size: the free space), not an error */
	bool create_serialize; /* 0: a job sized by a file an earlier group writes is set up when its group starts */
	bool unlink; /* iogauge fio: remove the files iogauge created (fio's unlink=1) */
	/* fio's flow, serialize_overlap and latency_target (admit.c, flow.c, lat_target.c). */
	unsigned flow_id;
	unsigned flow, flow_sleep_us; /* flow: the job's weight among jobs of its flow_id (0: none) */
	bool serialize_overlap;
	int submit_mode;              /* fio's io_submit_mode: 0 inline, 1 offload (job_offload) */
	uint64_t lat_target_ns, lat_window_ns;
	double lat_pct;               /* latency_percentile */
	bool lat_run;
	/* fio options accepted with no effect are validated into these, never read. */
	bool fio_nop_bool;
	int fio_nop_enum;
	unsigned fio_nop_u32;
	uint64_t fio_nop_u64;
	char fio_nop_str[64];

	/* Steady state (fio's steadystate, ss_dur, ss_ramp): judged by the runner (steady.c). */
	int ss_kind;       /* enum ss_kind */
	double ss_limit;
	bool ss_pct;       /* the limit is a percentage of the window's mean */
	uint64_t ss_dur_ns, ss_ramp_ns;
	unsigned rewrite_pct;  /* reads followed by a write of the same block (bonnie's rewrite, seeks) */
	bool overwrite;        /* writes into laid-out data; 0: a sequential write starts the file anew */
	int seq_order;         /* sequential patterns: enum seq_order */
	unsigned seq_stride;   /* SEQ_STRIDE: blocks between two requests */
	bool end_close;        /* the close of the file counts in the job's time (iozone's -c) */

	/* File operations: items of a tree under filename (a directory) instead of block I/O. */
	int fileop;             /* enum file_op */
	unsigned files_per_dir; /* items per leaf directory; 0: all in the thread's directory */
	unsigned dir_fanout;    /* subdirectories per directory above the leaves; 0: one level */
	int file_order;         /* 0: by number; 1: random (a permutation: each item once) */

	/* fio's I/O logs (iolog_job.c): write_iolog, read_iolog and its replay_* options. */
	char write_iolog[PATH_MAX], read_iolog[PATH_MAX], replay_redirect[PATH_MAX];
	bool read_iolog_chunked, replay_no_stall;
	uint64_t replay_scale, replay_align;
	unsigned replay_time_scale; /* percent: 200 replays twice as fast */
	unsigned replay_skip;       /* 1 << IO_READ, IO_WRITE, IO_TRIM, IO_FSYNC: left out of the replay */

	struct job_plan plan; /* set by commands and the runner, not by options */
};

/* fio's engine options as ENGINE_OPT_* bits (engines/engine.h). */
static inline unsigned job_engine_opts(const struct job *j)
{
	return (j->fixedbufs ? 1u << 0 : 0) | (j->registerfiles ? 1u << 1 : 0) |
	       (j->hipri ? 1u << 2 : 0) | (j->sqthread_poll ? 1u << 3 : 0) |
	       (j->userspace_reap ? 1u << 4 : 0) | (j->nowait ? 1u << 5 : 0) |
	       (j->uncached ? 1u << 6 : 0);
}

static inline bool job_copies(const struct job *j)
{
	return j->plan.copy.path[0] != 0;
}

/*
 * io_submit_mode=offload in effect: a pool of iodepth threads submits the
 * job's requests (engines/offload.c).  Jobs whose loop is the job thread's
 * own (copies, short tails, rewrites, file and tree operations) run inline.
 */
static inline bool job_offload(const struct job *j)
{
	return j->submit_mode && !job_copies(j) && !j->plan.short_tail && !j->rewrite_pct && !j->fileop &&
	       !j->plan.tree;
}

/* The file region a job's requests fall in (an interleaved segment: the whole shared region). */
static inline uint64_t job_region_offset(const struct job *j)
{
	return j->plan.stride ? j->plan.span_offset : j->offset;
}
static inline uint64_t job_region_size(const struct job *j)
{
	return j->plan.stride ? j->plan.span_size : j->size;
}

/*
 * fio's strided zones (zonemode=strided): where the zone after the one at
 * zbase starts, in a thread's region [region, end): zonerange + zoneskip
 * further, back to the region's start when that zone would not fit.
 */
static inline uint64_t job_zone_next(const struct job *j, uint64_t region, uint64_t end, uint64_t zbase)
{
	/* As fio: a zone the region's end cuts short is walked too, up to that end. */
	zbase += j->zonerange + j->zoneskip;
	return zbase >= end ? region : zbase;
}
/* The bytes from a zone's start its requests fall in: a forward walk's zonesize, else the zone's blocks. */
static inline uint64_t job_zone_span(const struct job *j)
{
	uint64_t blocks = j->zonerange / j->bs, walk = (j->zonesize + j->bs - 1) / j->bs;
	bool forward = !rw_is_random(j->rw) && j->seq_order == SEQ_FORWARD;
	return (forward && walk < blocks ? walk : blocks) * j->bs;
}

/* Bytes of struct settings' `own` area: the largest command's own struct fits (SETTINGS_OWN_FITS). */
#define SETTINGS_OWN_MAX 8192
#define SETTINGS_OWN(s, T) ((T *)(void *)(s)->own)
#define SETTINGS_OWN_FITS(T)                                                                        \
	_Static_assert(sizeof(T) <= SETTINGS_OWN_MAX && _Alignof(T) <= 16, #T " fits struct settings' own area")

/*
 * --allow-overwrite from the environment, for a script that calls `fio` and
 * cannot add iogauge's option: 1 gives it (0 or empty: not given); never a
 * job file.  --allow-destroy has no such word.  ALLOW_OVERWRITE_HOW is how
 * a refusal names both.
 */
#define ALLOW_OVERWRITE_ENV "IOGAUGE_ALLOW_OVERWRITE"
#define ALLOW_OVERWRITE_HOW "--allow-overwrite or " ALLOW_OVERWRITE_ENV "=1"

/* Options that belong to the command, not to one job. */
struct settings {
	int output_format;        /* the one format, or the first of a list */
	unsigned output_formats;  /* 1 << each enum out_format asked for */
	char output[PATH_MAX]; /* empty: stdout */
	char json[PATH_MAX];   /* --json FILE: JSON copy besides text */
	char html[PATH_MAX];   /* --html FILE: the HTML report besides text */
	bool allow_destroy;
	bool allow_overwrite;
	bool keep;
	unsigned passes;
	bool quiet;
	int eta; /* enum eta_mode (base/progress.h) */
	bool warn_unsupported; /* run: fio options iogauge lacks are warnings, not errors */
	unsigned terse_version;
	bool minimal; /* fio's --minimal: terse */
	/* --save[=LABEL]: the result goes into the store (--db) too; "" not, "@" (bare --save) without a label. */
	char save[72];
	char db[PATH_MAX]; /* --db: the store's file or postgresql:// URL; "": $IOGAUGE_DB or the default */

	/*
	 * The running command's own settings (a suite's struct bonnie_opts,
	 * sweep_opts ..., in its own header; its SCOPE_OWN rows write here):
	 * one command runs per process.  SETTINGS_OWN(s, T) reads it as T.
	 */
	_Alignas(16) unsigned char own[SETTINGS_OWN_MAX];
};

/* The job changes its target: its pattern writes or trims, or --rewrite_pct rewrites. */
static inline bool job_writes(const struct job *j)
{
	return (rw_writes(j->rw) || rw_trims(j->rw) || j->rewrite_pct) && !j->verify_only;
}

/* A sequential write-only job that starts its file anew (--overwrite=0): no layout. */
static inline bool job_fresh(const struct job *j)
{
	return !j->overwrite && !j->verify_only && !rw_reads(j->rw) && !rw_trims(j->rw) && !rw_is_random(j->rw) &&
	       !j->rewrite_pct && j->seq_order == SEQ_FORWARD;
}

/* The operation kind of a file-op job (IO_CREATE...), or -1 for block I/O. */
static inline int job_file_op(const struct job *j)
{
	return j->fileop ? IO_CREATE + j->fileop - 1 : -1;
}

#endif
