/* fio's percentages of a target's size resolved: each thread's region of each file (percent.h). */
#include "run/percent.h"
#include "base/common.h"
#include "model/pattern.h"
#include "model/place.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file's or device's size, fio's real_file_size: what a percentage is of. */
static int real_size(const struct job *j, const char *said, const char *path, uint64_t *real, struct ig_err *e)
{
	struct stat st;
	*real = 0;
	if (stat(path, &st)) {
		if (errno == ENOENT)
			return err_set(e, EXIT_USAGE,
				       "job %s: %s: %s does not exist; a percentage is of an existing file's or device's size (give the size in bytes to create it)",
				       j->name, said, path);
		return err_set(e, EXIT_USAGE, "job %s: %s: cannot access %s: %s", j->name, said, path, strerror(errno));
	}
	if (S_ISREG(st.st_mode)) {
		*real = (uint64_t)st.st_size;
	} else if (S_ISBLK(st.st_mode)) {
		/* Read-only, closed at once: the target's own open (target.c) claims and checks it. */
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		int rc = fd < 0 ? -1 : ioctl(fd, BLKGETSIZE64, real);
		int err = errno;
		if (fd >= 0)
			close(fd);
		if (rc)
			return err_set(e, EXIT_USAGE, "job %s: %s: cannot read the size of %s: %s", j->name, said, path,
				       strerror(err));
	} else {
		return err_set(e, EXIT_USAGE, "job %s: %s: %s is neither a regular file nor a block device", j->name,
			       said, path);
	}
	if (!*real)
		return err_set(e, EXIT_USAGE, "job %s: %s: %s is empty (0 bytes)", j->name, said, path);
	return 0;
}

void percent_free(struct pct_table *p)
{
	if (!p)
		return;
	free(p->start);
	free(p->size);
	free(p->loop);
	free(p);
}

uint64_t pct_span(const struct pct_table *p, unsigned file)
{
	uint64_t end = 0;
	for (unsigned t = 0; t < p->nthreads; t++)
		if (pct_start(p, t, file) + pct_size(p, t, file) > end)
			end = pct_start(p, t, file) + pct_size(p, t, file);
	return end;
}

uint64_t pct_thread_io(const struct job *j, const struct pct_table *p, unsigned thread)
{
	uint64_t io = 0;
	for (unsigned f = 0; f < p->nfiles; f++)
		io += pct_io(j, pct_size(p, thread, f));
	io = io ? io : 1;
	return io < p->loop[thread] ? io : p->loop[thread];
}

int percent_resolve(struct job *j, bool shared, unsigned nfiles, struct pct_table **out, struct ig_err *e)
{
	char said[48], path[PATH_MAX];
	*out = NULL;
	if (!job_pct_region(j))
		return 0;
	job_pct_said(j, said, sizeof(said));
	struct pct_table *p = xcalloc(1, sizeof(*p));
	p->nthreads = j->numjobs ? j->numjobs : 1;
	p->nfiles = nfiles ? nfiles : 1;
	p->start = xcalloc((size_t)p->nthreads * p->nfiles, sizeof(*p->start));
	p->size = xcalloc((size_t)p->nthreads * p->nfiles, sizeof(*p->size));
	p->loop = xcalloc(p->nthreads, sizeof(*p->loop));
	uint64_t *reals = xcalloc(p->nfiles, sizeof(*reals));
	/* A --size in bytes is shared among the files, as without a percentage (runner_prepare.c's file_size). */
	uint64_t share = j->size_pct || !j->size ? 0 : p->nfiles > 1 ? j->size / p->nfiles : j->size;
	uint64_t need = pattern_need(j);
	int rc = 0;
	for (unsigned t = 0; t < p->nthreads && !rc; t++)
		for (unsigned f = 0; f < p->nfiles && !rc; f++) {
			struct pct_region x, *q = &x;
			/* Threads of a shared file measure it once; each thread's own files, each. */
			if (place_path(j, shared ? 0 : t, f, path, sizeof(path), e) ||
			    ((!shared || !t) && real_size(j, said, path, &reals[f], e)))
				rc = -1;
			else if (pct_region(j, reals[f], t, share, q) && q->start == UINT64_MAX)
				rc = err_set(e, EXIT_USAGE, "job %s: %s: thread %u's offset is beyond the largest file offset",
					     j->name, said, t);
			else if (q->start > reals[f] && !share)
				rc = err_set(e, EXIT_USAGE,
					     "job %s: %s: thread %u's offset (%" PRIu64 ") is beyond the end of %s (%" PRIu64 " bytes)",
					     j->name, said, t, q->start, path, reals[f]);
			else if (q->size < need)
				rc = err_set(e, EXIT_USAGE,
					     "job %s: %s: thread %u's region of %s (%" PRIu64 " bytes from offset %" PRIu64 ") holds no block of %" PRIu64 " bytes",
					     j->name, said, t, path, q->size, q->start, need);
			p->start[t * p->nfiles + f] = q->start;
			p->size[t * p->nfiles + f] = q->size;
			p->loop[t] += q->size;
		}
	free(reals);
	for (unsigned t = 1; t < p->nthreads && !rc; t++)
		p->uneven |= p->loop[t] != p->loop[0];
	if (!rc && p->uneven && (j->verify || j->verify_only))
		rc = err_set(e, EXIT_USAGE,
			     "job %s: --verify: %s gives the job's threads regions of different sizes (one is cut at the end of its file); give the sizes in bytes",
			     j->name, said);
	if (rc) {
		percent_free(p);
		return -1;
	}
	/* What reads one value (validation, segments, reports): the first thread's. */
	j->offset = p->start[0];
	j->size = p->loop[0];
	j->offset_increment = p->nthreads > 1 ? pct_start(p, 1, 0) - p->start[0] : 0;
	*out = p;
	return 0;
}
