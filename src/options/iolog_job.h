/* A job's fio iolog options (iolog_job.c): the log to replay, loaded and checked before the run. */
#ifndef IOGAUGE_IOLOG_JOB_H
#define IOGAUGE_IOLOG_JOB_H

#include <stddef.h>
#include "base/common.h"
#include "model/job.h"

/* Logs one job may replay (read_iolog=A:B:...: fio gives its threads one each, in turn). */
#define IOLOG_JOB_LOGS 16

/*
 * write_iolog and read_iolog: what a job with them may be (write_iolog: one
 * thread, one file); read_iolog's logs loaded, filtered (replay_skip),
 * scaled and aligned, reads and writes longer than the kernel moves at once
 * cut as fio's resubmission cuts them, and the job made to fit them: its
 * files (the ones the logs name, given as --filename=A:B, or
 * replay_redirect; a file the job was not given is refused), direction,
 * block size and size.  0, or -1 with e set (status 2).
 */
int iolog_job_prepare(struct job *j, struct ig_err *e);

struct opt_def;
int iolog_set_skip(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void iolog_print_skip(const void *obj, const struct opt_def *o, char *buf, size_t len);

#endif
