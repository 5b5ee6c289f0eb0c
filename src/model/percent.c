/* fio's percentages of a file's or device's size: one thread's region of one file (percent.h). */
#include "model/percent.h"
#include "model/job.h"
#include "model/pattern.h"

#include <stdio.h>

bool job_pct_region(const struct job *j)
{
	return j->size_pct || j->offset_pct || j->offset_increment_pct;
}

bool job_pct_any(const struct job *j)
{
	return job_pct_region(j) || j->io_size_pct;
}

void job_pct_said(const struct job *j, char *buf, size_t len)
{
	const char *name = j->size_pct ? "size" : j->offset_pct ? "offset" :
			   j->offset_increment_pct ? "offset_increment" : j->io_size_pct ? "io_size" : NULL;
	unsigned v = j->size_pct ? j->size_pct : j->offset_pct ? j->offset_pct :
		     j->offset_increment_pct ? j->offset_increment_pct : j->io_size_pct;
	if (name)
		snprintf(buf, len, "--%s=%u%%", name, v);
	else if (len)
		*buf = 0;
}

uint64_t pct_min_bs(const struct job *j)
{
	uint64_t m = UINT64_MAX, mn, mx;
	for (int d = 0; d < DDIR_NR; d++) {
		pattern_sizes(j, d, &mn, &mx);
		m = mn < m ? mn : m;
	}
	/* fio's trims have a block size of their own (bs=R,W,T), and count even in a job that never trims. */
	if (j->bs_trim && j->bs_trim < m)
		m = j->bs_trim;
	return m && m != UINT64_MAX ? m : 1;
}

/* N% of v, without overflow. */
static uint64_t of(uint64_t v, unsigned pct)
{
	return (uint64_t)((unsigned __int128)v * pct / 100);
}

int pct_region(const struct job *j, uint64_t real, unsigned thread, uint64_t share, struct pct_region *out)
{
	uint64_t bs = pct_min_bs(j), align = j->offset_align ? j->offset_align : bs;
	uint64_t inc = j->offset_increment_pct ? of(real, j->offset_increment_pct) : j->offset_increment;
	unsigned __int128 off = (unsigned __int128)(j->offset_pct ? of(real, j->offset_pct) : j->offset) +
				(unsigned __int128)thread * inc;
	/* fio rounds the sum up, not each part: thread t is not t times thread 1's distance on. */
	if (j->offset_pct || j->offset_increment_pct)
		off = (off + align - 1) / align * align;
	out->start = off > INT64_MAX ? UINT64_MAX : (uint64_t)off;
	if (off > INT64_MAX)
		return -1;
	if (share) {
		/* A --size in bytes: the file's share of it, past the end of the file too (a file is extended). */
		out->size = share;
		return 0;
	}
	if (out->start > real)
		return -1; /* fio: "offset extends end" */
	/* No --size, or 100%: the rest of the file; else N% of all of it, no more than the rest, in whole blocks. */
	out->size = real - out->start;
	if (j->size_pct && j->size_pct != 100) {
		uint64_t s = of(real, j->size_pct);
		s = s < out->size ? s : out->size;
		out->size = s - s % bs;
	}
	return 0;
}

uint64_t pct_io(const struct job *j, uint64_t region)
{
	return j->io_size_pct && j->io_size_pct != 100 ? of(region, j->io_size_pct) : region;
}
