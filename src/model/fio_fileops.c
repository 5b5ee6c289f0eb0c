/* fio's file engines' loop: which files a job opens and what fio counts (fio_fileops.h). */
#include "model/fio_fileops.h"
#include "model/pattern.h"

#include <string.h>

/* Files a loop of n requests reaches: fio's file_service_type over equal files of bpf blocks. */
static uint64_t files_reached(const struct job *j, uint64_t n, uint64_t bpf)
{
	uint64_t files = j->nrfiles ? j->nrfiles : 1, per = j->file_service_nr ? j->file_service_nr : 1;
	uint64_t got;
	if (j->file_service == FSERVICE_SEQ)
		got = (n + bpf - 1) / bpf; /* each file to its end, then the next */
	else if (j->file_service == FSERVICE_RR)
		got = (n + per - 1) / per; /* N requests a file in turn */
	else
		got = n; /* random: at most one new file a request (fio's own draws pick which) */
	return got < files ? got : files;
}

void fio_fileop_plan(const struct job *j, unsigned thread_number, struct fio_fileop_plan *p)
{
	memset(p, 0, sizeof(*p));
	uint64_t files = j->nrfiles ? j->nrfiles : 1;
	p->bs = j->bs ? j->bs : 4096;
	p->fsize = j->filesize[0] ? j->filesize[0] : j->size ? j->size / files : p->bs;
	/* fio's get_next_buflen: a block that does not fit the file's end is not sent. */
	uint64_t bpf = p->fsize / p->bs, per_loop = files * bpf;
	if (!per_loop) {
		/* Nothing to send: fio opens each file once, and its loop ends. */
		p->opens = files;
		p->loops = 1;
		return;
	}
	/* fio's do_io: (io_size or size) x loops bytes in all; size is every file's by default. */
	uint64_t size = j->size ? j->size : files * p->fsize;
	uint64_t limit = j->io_size ? j->io_size : size, loops = j->loops ? j->loops : 1;
	uint64_t left = j->time_based ? per_loop : (limit * loops + p->bs - 1) / p->bs, sent = 0;
	struct fio_mix mix;
	bool mixed = rw_is_mixed(j->rw);
	if (mixed)
		mix_init(&mix, j, thread_number, j->randseed);
	for (uint64_t loop = 0; left; loop++) {
		/* keep_running: the loops asked for, then more while io_size bytes are not done. */
		if (loop >= loops && !(j->io_size && (sent + 1) * p->bs <= j->io_size))
			break;
		uint64_t n = left < per_loop ? left : per_loop;
		p->opens += files_reached(j, n, bpf);
		p->loops++;
		if (mixed) {
			for (uint64_t i = 0; i < n; i++)
				p->ios[mix_next(&mix)]++;
			if (j->randrepeat)
				mix_reset(&mix); /* fio seeds its streams again each loop */
		} else {
			p->ios[rw_reads(j->rw) ? 0 : 1] += n;
		}
		sent += n;
		left -= n;
		if (j->time_based)
			break; /* one loop: the run's time decides how many */
	}
	for (int d = 0; d < 2; d++)
		p->bytes[d] = p->ios[d] * p->bs;
}
