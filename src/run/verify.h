/*
 * Verification at run time (verify.c, verify_block.c): a job's blocks
 * tracked, the worker's hooks that check them, the bad ones found.  The
 * block format and the figures are model/verify.h.
 */
#ifndef IOGAUGE_RUN_VERIFY_H
#define IOGAUGE_RUN_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/common.h"
#include "model/verify.h"

struct job;
struct worker_hooks;
struct verify_ctx;

/* What verification cannot check, refused before any I/O (status 2). */
int verify_job_check(const struct job *j, struct ig_err *e);
/* A thread's file: its path (verify_dump's names, messages) and its region of it. */
struct verify_file {
	const char *path;
	uint64_t start, size; /* --offset_increment applied; threads sharing it each take a slice of it */
};

/*
 * For a job whose region is known; NULL with e set (status 2: too many
 * blocks to track, a verify_state_load file missing or bad).  files: each
 * thread's nfiles files, files[thread * nfiles + file] (NULL: the job's own
 * region, named by the job); one file's region is the job's (offset, size).
 * first_thread: the run-wide number of the job's first thread, from 1
 * (fio's state file names, the thread in fio's headers).
 */
struct verify_ctx *verify_new(const struct job *j, unsigned nthreads, unsigned nfiles,
			      const struct verify_file *files, unsigned first_thread, struct ig_err *e);
/*
 * Threads of one file whose regions are not evenly apart (fio's percentage
 * offsets, rounded up thread by thread): each thread's start, copied.
 * Threads that split one region keep their slices.
 */
void verify_thread_starts(struct verify_ctx *v, const uint64_t *start);
const struct worker_hooks *verify_hooks(struct verify_ctx *v);

/*
 * A job that reads and verifies (rw=read, randread with --verify) checks
 * each block against its own header: a file iogauge lays out for it is laid
 * out in blocks that carry one, each as the job's own write of that block
 * would be; so is a verifying writer's (what it does not write over, a later
 * reader finds as such).  verify_layout_wanted: the job's layout carries
 * headers where it can; verify_layout_checked: the job's reads check them
 * (it is refused where they cannot be laid out).  verify_layout_unit: the
 * blocks, every *unit bytes from the start of a thread's region (or zone);
 * 0, or -1 with why (one line naming the job) when no such blocks meet the
 * job's reads (reads of several sizes without a --verify_interval dividing
 * them, a pattern's %o with several sizes).
 */
bool verify_layout_wanted(const struct job *j);
bool verify_layout_checked(const struct job *j);
int verify_layout_unit(const struct job *j, uint64_t *unit, char *why, size_t len);
/* The state that makes a layout's blocks: verify_new's for the job's threads (NULL with e set). */
struct verify_ctx *verify_layout_new(const struct job *j, unsigned nthreads, struct ig_err *e);
/* Does verify_layout_block write the block's data itself (random from its seed, the pattern)? */
bool verify_layout_fills(const struct verify_ctx *v);
/*
 * The block [offset, offset + len) of thread's region as the job writes it,
 * in buf (holding the layout's data): its data when the job makes it
 * (verify_layout_fills), its headers through the write path's own stamp;
 * seq numbers the block (distinct blocks, distinct data).
 */
void verify_layout_block(struct verify_ctx *v, unsigned thread, uint64_t seq, void *buf, uint64_t offset,
			 uint32_t len);
/* All threads merged, once they ended; verify_stats gives the same afterwards. */
const struct verify_stats *verify_collect(struct verify_ctx *v);
const struct verify_stats *verify_stats(const struct verify_ctx *v);
/* One thread's own (its first bad blocks in the order found). */
const struct verify_stats *verify_thread_stats(const struct verify_ctx *v, unsigned thread);
int verify_algo(const struct verify_ctx *v);
/* verify_state_save: each thread's state file, after the threads ended.  0, or -1 with e set. */
int verify_save_state(const struct verify_ctx *v, struct ig_err *e);
void verify_free(struct verify_ctx *v);
/* One bad block in words: "misplaced: it holds the block written for offset 4096". */
void verify_describe(const struct verify_bad *b, char *buf, size_t len);
/*
 * fio's own lines for a bad block of a job with fio's headers (`iogauge
 * fio`), path its file: "verify: bad header offset 8192, wanted 4096 at file
 * F offset 4096, length 4096 (requested block: offset=4096, length=4096)",
 * or a checksum's three lines; false for a job with iogauge's headers.
 */
bool verify_describe_fio(const struct verify_bad *b, const char *path, char *buf, size_t len);
/* The job's blocks carry fio's headers. */
bool verify_fio_format(const struct verify_ctx *v);

/* fio's state file of a thread: local-JOBNAME-N-verify.state (N: its number in the run, from 0). */
void verify_state_name(const char *job, unsigned thread_index, char *buf, size_t len);

#endif
