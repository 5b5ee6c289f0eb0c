/*
 * fio's continue_on_error and ignore_error: which I/O errors a job counts and
 * goes on past (errtol.c; the options' setters: options/errtol.c).
 */
#ifndef IOGAUGE_ERRTOL_H
#define IOGAUGE_ERRTOL_H

#include <stdbool.h>
#include <stddef.h>

/* fio's error types: a read's, any other request's, a verification's (EILSEQ). */
enum { ERRT_READ, ERRT_WRITE, ERRT_VERIFY, ERRT_NR };
#define ERRT_MAX_LIST 8

/* In struct job: all zero is fio's default (every error stops the job). */
struct job_errtol {
	unsigned coe;                          /* continue_on_error: bit ERRT_* */
	struct {
		int list[ERRT_NR][ERRT_MAX_LIST]; /* ignore_error's errnos per type */
		unsigned nlist[ERRT_NR];          /* 0: fio's default list, EIO and EILSEQ */
	} ig;
};

/*
 * A request of op (enum io_op) failed with errno err.  counts: continue_on_error names its type,
 * so fio counts it (total_err, first_error), gone past or not.  Returns whether the job goes on.
 */
bool errtol_goes_on(const struct job_errtol *t, int op, int err, bool *counts);

#endif
