/*
 * fio's percentages of a file's or device's size (size, offset,
 * offset_increment, io_size=N%): the arithmetic of fio 3.33's
 * get_start_offset and setup_files for one thread's region of one file.  The
 * runner gives it each file's real size (run/percent.c).
 */
#ifndef IOGAUGE_MODEL_PERCENT_H
#define IOGAUGE_MODEL_PERCENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct job;

/* Does the job's region depend on its files' sizes (size, offset or offset_increment=N%)? */
bool job_pct_region(const struct job *j);
/* Any percentage, io_size's too. */
bool job_pct_any(const struct job *j);
/* The first percentage as written ("--size=50%"), for messages; "" when none. */
void job_pct_said(const struct job *j, char *buf, size_t len);

/* fio's td_min_bs: the smallest block size of any direction, used or not. */
uint64_t pct_min_bs(const struct job *j);

/* A thread's region of one file. */
struct pct_region {
	uint64_t start, size;
};

/*
 * Thread `thread` of the job on a file of `real` bytes: its region, as fio
 * makes it.  share: the file's share of a --size in bytes (0: --size is a
 * percentage or not given).  -1 when the offset (out->start) lies past the
 * end of the file, or past the largest offset.
 */
int pct_region(const struct job *j, uint64_t real, unsigned thread, uint64_t share, struct pct_region *out);

/* fio's io_size=N% of a region: its bytes of I/O (not whole blocks: fio issues the last one whole). */
uint64_t pct_io(const struct job *j, uint64_t region);

#endif
