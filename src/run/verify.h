/*
 * Verification at run time (verify.c, verify_block.c): a job's blocks
 * tracked, the worker's hooks that check them, the bad ones found.  The
 * block format and the figures are model/verify.h.
 */
#ifndef IOGAUGE_RUN_VERIFY_H
#define IOGAUGE_RUN_VERIFY_H

#include <stddef.h>
#include "base/common.h"
#include "model/verify.h"

struct job;
struct worker_hooks;
struct verify_ctx;

/* What verification cannot check, refused before any I/O (status 2). */
int verify_job_check(const struct job *j, struct ig_err *e);
/*
 * For a job whose region is known; NULL with e set (status 2: too many
 * blocks to track, a verify_state_load file missing or bad).  paths: each
 * thread's file (verify_dump names its files after it), first_thread: the
 * run-wide number of the job's first thread, from 1 (fio's state file names).
 */
struct verify_ctx *verify_new(const struct job *j, unsigned nthreads, const char *const *paths,
			      unsigned first_thread, struct ig_err *e);
const struct worker_hooks *verify_hooks(struct verify_ctx *v);
/* All threads merged, once they ended; verify_stats gives the same afterwards. */
const struct verify_stats *verify_collect(struct verify_ctx *v);
const struct verify_stats *verify_stats(const struct verify_ctx *v);
int verify_algo(const struct verify_ctx *v);
/* verify_state_save: each thread's state file, after the threads ended.  0, or -1 with e set. */
int verify_save_state(const struct verify_ctx *v, struct ig_err *e);
void verify_free(struct verify_ctx *v);
/* One bad block in words: "misplaced: it holds the block written for offset 4096". */
void verify_describe(const struct verify_bad *b, char *buf, size_t len);

/* fio's state file of a thread: local-JOBNAME-N-verify.state (N: its number in the run, from 0). */
void verify_state_name(const char *job, unsigned thread_index, char *buf, size_t len);

#endif
