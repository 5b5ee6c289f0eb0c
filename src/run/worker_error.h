/* A job's first error, as the reports name it (worker_error.c). */
#ifndef IOGAUGE_WORKER_ERROR_H
#define IOGAUGE_WORKER_ERROR_H

#include <stdbool.h>
#include <stdint.h>

struct worker;

/*
 * Record err (an errno, or a code for the report) at offset for op, with the
 * file it concerns, unless the job has an error already; issuing stops.
 * short_io: the request moved fewer bytes than asked (no errno).
 */
void worker_set_error(struct worker *w, int err, uint64_t offset, int op, bool short_io);

#endif
