/*
 * Where a rank's I/O goes when several ranks run one job (mpirun): a file
 * per rank (%r in --filename, the rank in the names iogauge makes), or a
 * segment of one shared file.  Alone (one rank) every job stays as it is.
 */
#ifndef IOGAUGE_PLACE_H
#define IOGAUGE_PLACE_H

#include <stdbool.h>
#include <stddef.h>
#include "base/common.h"
#include "model/job.h"

/*
 * A file of a thread of this rank: --filename (the filenum-th of a ':' list,
 * in --directory when relative; %r: the rank), filename_format, or fio's
 * JOBNAME.JOBNUM.FILENUM in --directory.
 */
int place_path(const struct job *j, unsigned thread, unsigned filenum, char *out, size_t len,
	       struct ig_err *e);
/* Files of each thread of the job: nrfiles, or the names of a ':' list in filename. */
unsigned job_nfiles(const struct job *j);
/* Refuses several ranks writing one named file that is not a shared file. */
int place_check(const struct job *j, struct ig_err *e);
/* --shared-file: narrows the job to this rank's segment (span, stride, offset). */
int place_segment(struct job *j, struct ig_err *e);
/*
 * A shared file is created and first laid out by rank 0 alone, a block
 * device opened by its host's first rank alone; the other ranks prepare
 * them after that (each applying the safety interlock again).
 */
bool place_deferred(const struct job *j, const char *path);

#endif
