/*
 * fio's percentages of a target's size (size, offset, offset_increment=N%)
 * resolved once a job's files and devices are known: each thread's region
 * of each of its files, as each of fio's subjobs makes its own
 * (model/percent.c does the arithmetic).  The job then carries the first
 * thread's offset and size, and the table what every thread does: the
 * runner lays out (runner_prepare.c) and starts each thread (runner.c) from
 * it.
 */
#ifndef IOGAUGE_RUN_PERCENT_H
#define IOGAUGE_RUN_PERCENT_H

#include "base/common.h"
#include "model/job.h"
#include "model/percent.h"

struct pct_table {
	unsigned nthreads, nfiles;
	/* [thread * nfiles + file]: the thread's region of the file (a thread's files: a worker's arrays). */
	uint64_t *start, *size;
	uint64_t *loop; /* [thread]: the bytes its regions hold, a loop's */
	bool uneven;    /* threads cover different amounts (a region cut at the end of a file) */
};

/*
 * The job's table (NULL when no percentage shapes its region): the files
 * (shared: every thread's, else each thread's own) measured, the regions
 * made; j's offset, size and offset_increment become the first threads'.
 * -1 with e set: a file missing, empty, or a region outside it.
 */
int percent_resolve(struct job *j, bool shared, unsigned nfiles, struct pct_table **out, struct ig_err *e);
/* Where a thread's region of a file starts, its size, and where the file's last thread's ends. */
static inline uint64_t pct_start(const struct pct_table *p, unsigned thread, unsigned file)
{
	return p->start[thread * p->nfiles + file];
}
static inline uint64_t pct_size(const struct pct_table *p, unsigned thread, unsigned file)
{
	return p->size[thread * p->nfiles + file];
}
uint64_t pct_span(const struct pct_table *p, unsigned file);
/* A thread's bytes of I/O a loop: its regions, or io_size=N% of each (never more than they hold). */
uint64_t pct_thread_io(const struct job *j, const struct pct_table *p, unsigned thread);
void percent_free(struct pct_table *p);

#endif
