/*
 * What fio 3.33's file engines (filecreate, filestat, filedelete; dircreate,
 * dirstat and dirdelete after it) do and count.  They are fio's block loop
 * over nrfiles files whose I/O is never done (FIO_FAKEIO): each request is
 * counted (bytes and ios in the job's direction, rwmix's for a mixed job)
 * and the operation is the file's open, timed as the only (clat) sample,
 * when the loop first sends a request to the file.  So the job's size,
 * io_size and loops decide how many files are operated on, as they decide
 * how many blocks a block job moves: the plan below, the one place iogauge
 * works it out (the worker runs `opens` operations, fio-json counts the
 * rest).
 */
#ifndef IOGAUGE_FIO_FILEOPS_H
#define IOGAUGE_FIO_FILEOPS_H

#include <stdbool.h>
#include <stdint.h>
#include "model/job.h"

struct fio_fileop_plan {
	uint64_t opens;      /* operations: a file's first request in each loop */
	uint64_t loops;      /* loops that send a request */
	uint64_t ios[2];     /* requests fio counts, read and write */
	uint64_t bytes[2];
	uint64_t fsize, bs;  /* each file's size; the request size */
};

/* fio's accounting of a file-engine job (j->engine->fileop) for thread thread_number (from 1). */
void fio_fileop_plan(const struct job *j, unsigned thread_number, struct fio_fileop_plan *p);

#endif
