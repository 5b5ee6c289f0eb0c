/*
 * An I/O engine is a small ops struct; one file per engine.  The worker owns
 * the loop; the engine only moves the bytes (and performs the syncs the
 * worker asks for: IO_FSYNC, IO_FDATASYNC requests with no data).
 *
 * Synchronous engines (ENGINE_SYNC) implement do_io(): perform one request
 * and return bytes moved (0 for a sync) or -errno.  Asynchronous engines
 * implement submit() and reap(); the worker keeps at most depth requests in
 * flight.
 */
#ifndef IOGAUGE_ENGINE_H
#define IOGAUGE_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <signal.h>
#include <sys/types.h>
#include "model/ops.h"

struct io_u {
	void *buf;
	uint64_t offset;
	uint32_t len;
	uint8_t op;      /* enum io_op */
	uint8_t prio_idx; /* cmdprio: the request's priority among its direction's statistics */
	uint16_t ioprio; /* cmdprio: the ioprio it was sent with (set by cmdprio_pick) */
	int64_t res;     /* bytes or -errno, set on completion */
	uint64_t start;  /* before the submit call, ns */
	uint64_t issued; /* after the submit call returned, ns (offload: when its thread issued it) */
	unsigned idx;    /* slot in the worker's array (fixed buffers) */
	int fd;          /* the file of this request (engine_ctx.fds[file]) */
	unsigned file;   /* its index among the job thread's files */
};

struct job;
struct cmdprio;

/* What an engine sees of the worker. */
struct engine_ctx {
	const struct job *job; /* the job's options, for engines that take some (inject) */
	int fd;           /* the first file; requests carry their own (io_u.fd) */
	const int *fds;   /* every file of the job thread (nfiles; fds[0] == fd; NULL: fd alone) */
	unsigned nfiles;
	uint64_t file_size; /* bytes addressable from offset 0 (mmap) */
	unsigned depth;
	struct io_u *ios; /* depth entries, buffers allocated by the worker */
	size_t buf_size;  /* bytes in each ios[i].buf (io_uring fixed buffers); 0 = unknown */
	unsigned opts;    /* ENGINE_OPT_*: fio's engine options the job asks for */
	void *priv;       /* engine state */
	/* For engines that do more than move bytes of one file (fileops). */
	unsigned thread;
	const char *path;             /* the target's path */
	volatile sig_atomic_t *stop;  /* the run's stop request: long setups end early */
	uint64_t prepared, prepare_ns; /* items the engine made before the run (not timed) */
	bool blkdev;      /* the files are block devices: a trim is a discard, else a punched hole */
	/*
	 * Devices this run holds exclusively (O_EXCL): the descriptor holding each,
	 * by file (fds' order; -1: none; NULL: no such device).  A discard goes
	 * through it: from another descriptor the kernel cannot drop the device's
	 * dirty cached pages (a buffered write before) and fails with EBUSY.
	 */
	const int *trim_fds;
	struct cmdprio *prio; /* fio's cmdprio options (cmdprio.h); NULL: none (io_uring, libaio) */
	/* offload: when each slot's request completed, ns, by io_u.idx (set by its init; not in io_u: the inline path's requests stay as small) */
	const uint64_t *end_ns;
};

/* fio's engine options (struct job), for the engines that honour them (engine_ops.honours). */
enum {
	ENGINE_OPT_FIXEDBUFS = 1 << 0,
	ENGINE_OPT_REGFILES = 1 << 1,
	ENGINE_OPT_HIPRI = 1 << 2,
	ENGINE_OPT_SQPOLL = 1 << 3,
	ENGINE_OPT_USERSPACE_REAP = 1 << 4,
	ENGINE_OPT_NOWAIT = 1 << 5,
	ENGINE_OPT_UNCACHED = 1 << 6,
};

enum {
	ENGINE_SYNC = 1 << 0,      /* do_io(); depth > 1 is meaningless */
	ENGINE_NO_FILE = 1 << 1,   /* needs no file (null) */
	ENGINE_NO_DIRECT = 1 << 2, /* O_DIRECT makes no sense (mmap) */
	ENGINE_TRIM = 1 << 3,      /* performs IO_TRIM requests (rw=trim and the like) */
	/*
	 * Changes the file's extents or size whatever the direction (falloc,
	 * ftruncate): opened for writing (and checked as a writer); a file it
	 * writes or trims is not laid out first.
	 */
	ENGINE_ALLOC = 1 << 4,
	ENGINE_WRITES_ONLY = 1 << 5, /* takes writes only (ftruncate) */
};

struct engine_ops {
	const char *name;
	unsigned flags;
	unsigned honours; /* ENGINE_OPT_* it acts on; the others are named as ignored */
	int fileop;       /* fio's file engines (filecreate...): the --fileop they perform; 0: none */
	/* Called once per thread after the file is open; 0 or -errno. */
	int (*init)(struct engine_ctx *ctx);
	void (*cleanup)(struct engine_ctx *ctx);
	/* Sync engines. */
	int64_t (*do_io)(struct engine_ctx *ctx, struct io_u *u);
	/* Async engines: queue n requests, return number accepted or -errno. */
	int (*submit)(struct engine_ctx *ctx, struct io_u **us, unsigned n);
	/*
	 * Optional: what submit queued enters the kernel now (io_uring; its reap enters the rest).
	 * Used by fio's iodepth_batch_submit, one commit per batch.
	 */
	void (*commit)(struct engine_ctx *ctx);
	/* Wait for at least min completions, store up to max in out; count or -errno. */
	int (*reap)(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out);
};

extern const struct engine_ops engine_psync, engine_sync, engine_libaio, engine_io_uring,
	engine_mmap, engine_null, engine_inject, engine_stdio, engine_posixaio, engine_falloc,
	engine_ftruncate, engine_vsync, engine_pvsync, engine_pvsync2;
/* io_submit_mode=offload: a pool of threads in front of the job's engine (not in the registry). */
extern const struct engine_ops engine_offload;
/* fio's null above iodepth=1: asynchronous, completing at once (not in the registry). */
extern const struct engine_ops engine_null_async;

/*
 * One trim, synchronously (as fio does its trims in every engine): BLKDISCARD
 * on a block device, fallocate(PUNCH_HOLE | KEEP_SIZE) on a file.  The length
 * trimmed, or -errno.
 */
int64_t engine_trim(const struct engine_ctx *ctx, const struct io_u *u);

/* The inject engine's --inject value: 0, or -1 with one line in err. */
int inject_parse(const char *spec, char *err, size_t n);
/* Metadata operations of --fileop jobs: chosen by the job, not by --ioengine. */
extern const struct engine_ops engine_fileops;
/* Tree jobs (tree.h): every file of a tree, read whole; chosen by the job, not by --ioengine. */
extern const struct engine_ops engine_tree;
/* fio's file engines: --fileop jobs by fio's names, reported in fio's directions (fileops.c). */
extern const struct engine_ops engine_filecreate, engine_filestat, engine_filedelete, engine_dircreate,
	engine_dirstat, engine_dirdelete;

/* All engines in preference order, NULL-terminated. */
extern const struct engine_ops *const engines[];
const struct engine_ops *engine_by_name(const char *name);
/* io_uring if the kernel allows it, else libaio. */
const struct engine_ops *engine_default(void);
/* "io_uring|libaio|...|auto", from the registry: for --help and error messages. */
void engine_list(char *buf, size_t len);

#endif
