/* Where each rank's I/O goes: a file per rank, or a segment of one shared file. */
#include "base/cluster.h"
#include "model/pattern.h"
#include "model/place.h"

#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* --filename with each %r replaced by the rank; -1 when it does not fit. */
static int expand_rank(const char *in, char *out, size_t len)
{
	size_t k = 0;
	for (const char *p = in; *p; p++) {
		if (p[0] == '%' && p[1] == 'r') {
			int n = snprintf(out + k, len - k, "%u", cluster_rank());
			if (n < 0 || (size_t)n >= len - k)
				return -1;
			k += (size_t)n;
			p++;
		} else if (k + 1 < len) {
			out[k++] = *p;
		} else {
			return -1;
		}
	}
	out[k] = 0;
	return 0;
}

/* The filenum-th name of a ':' list ("\\:" is a colon of the name); false past its end. */
static bool list_entry(const char *list, unsigned filenum, char *out, size_t len)
{
	size_t k = 0;
	for (const char *p = list;; p++) {
		if (*p == '\\' && p[1] == ':') {
			if (!filenum && k + 1 < len)
				out[k++] = ':';
			p++;
			continue;
		}
		if (!*p || *p == ':') {
			if (!filenum) {
				out[k] = 0;
				return k > 0;
			}
			if (!*p)
				return false;
			filenum--;
			continue;
		}
		if (!filenum && k + 1 < len)
			out[k++] = *p;
	}
}

unsigned job_nfiles(const struct job *j)
{
	unsigned n = 0;
	char name[PATH_MAX];
	if (!j->filename[0])
		return j->nrfiles ? (unsigned)j->nrfiles : 1;
	while (list_entry(j->filename, n, name, sizeof(name)))
		n++;
	return n ? n : 1;
}

/* fio's filename_format: $jobname, $jobnum (the thread), $filenum. */
static int format_name(const struct job *j, unsigned thread, unsigned filenum, char *out, size_t len)
{
	size_t k = 0;
	for (const char *p = j->filename_format; *p && k + 1 < len;) {
		char num[32];
		const char *add = NULL;
		if (!strncmp(p, "$jobname", 8)) {
			add = j->name;
			p += 8;
		} else if (!strncmp(p, "$jobnum", 7)) {
			snprintf(num, sizeof(num), "%u", thread);
			add = num;
			p += 7;
		} else if (!strncmp(p, "$filenum", 8)) {
			snprintf(num, sizeof(num), "%u", filenum);
			add = num;
			p += 8;
		}
		if (!add) {
			out[k++] = *p++;
			continue;
		}
		for (; *add && k + 1 < len; add++)
			out[k++] = *add;
	}
	out[k] = 0;
	return k + 1 < len ? 0 : -1;
}

int place_path(const struct job *j, unsigned thread, unsigned filenum, char *out, size_t len,
	       struct ig_err *e)
{
	char name[PATH_MAX], joined[PATH_MAX];
	if (j->filename[0]) {
		if (!list_entry(j->filename, filenum, name, sizeof(name)))
			return err_set(e, EXIT_USAGE, "job %s: --filename: the path is too long", j->name);
		/* As fio: a relative name is in --directory when one is given. */
		if (name[0] != '/' && strcmp(j->directory, ".") &&
		    snprintf(joined, sizeof(joined), "%s/%s", j->directory, name) < (int)sizeof(joined))
			memcpy(name, joined, sizeof(name));
		if (expand_rank(name, out, len))
			return err_set(e, EXIT_USAGE, "job %s: --filename: the path is too long", j->name);
		return 0;
	}
	/* Names iogauge makes carry the rank when ranks share the directory (not one shared file). */
	bool rank = cluster_size() > 1 && !j->shared_file;
	int n;
	if (j->fileop) {
		/* A file set is one directory for all threads (t<thread> below it). */
		n = rank ? snprintf(out, len, "%s/%s.files.r%u", j->directory, j->name, cluster_rank()) :
			   snprintf(out, len, "%s/%s.files", j->directory, j->name);
	} else if (j->filename_format[0]) {
		if (format_name(j, thread, filenum, name, sizeof(name)))
			return err_set(e, EXIT_USAGE, "job %s: --filename_format: the name is too long", j->name);
		n = rank ? snprintf(out, len, "%s/%s.r%u", j->directory, name, cluster_rank()) :
			   snprintf(out, len, "%s/%s", j->directory, name);
	} else {
		/* fio's JOBNAME.JOBNUM.FILENUM. */
		n = rank ? snprintf(out, len, "%s/%s.%u.%u.r%u", j->directory, j->name, thread, filenum,
				    cluster_rank()) :
			   snprintf(out, len, "%s/%s.%u.%u", j->directory, j->name, thread, filenum);
	}
	if (n < 0 || (size_t)n >= len)
		return err_set(e, EXIT_USAGE, "job %s: --directory: the test file's path is too long",
			       j->name);
	return 0;
}

static bool is_blockdev(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISBLK(st.st_mode);
}

/*
 * Several ranks writing one named file would write each other's blocks:
 * refused unless the name has %r or the file is shared by segments.  A block
 * device is each host's own, so only ranks sharing a host collide on it.
 */
int place_check(const struct job *j, struct ig_err *e)
{
	if (cluster_size() < 2 || j->shared_file || !j->filename[0] || strstr(j->filename, "%r"))
		return 0;
	/* Every rank's threads would make and remove the same items. */
	if (j->fileop)
		return err_set(e, EXIT_USAGE,
			       "job %s: --filename=%s names one directory for %u ranks: put %%r in the name for "
			       "a directory per rank, or give --shared-file for one file set of every rank's items",
			       j->name, j->filename, cluster_size());
	if (!rw_writes(j->rw))
		return 0;
	if (is_blockdev(j->filename) && cluster_host_ranks() < 2)
		return 0;
	return err_set(e, EXIT_USAGE,
		       "job %s: --filename=%s names one file for %u ranks that write: put %%r in the name "
		       "for a file per rank, or give --shared-file for a segment each",
		       j->name, j->filename, cluster_size());
}

/* Bytes of an existing file or device; 0 when there is none. */
static uint64_t existing_size(const char *path)
{
	struct stat st;
	uint64_t size = 0;
	if (stat(path, &st))
		return 0;
	if (S_ISREG(st.st_mode))
		return (uint64_t)st.st_size;
	if (!S_ISBLK(st.st_mode))
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (ioctl(fd, BLKGETSIZE64, &size))
			size = 0;
		close(fd);
	}
	return size;
}

int place_segment(struct job *j, struct ig_err *e)
{
	uint64_t n = cluster_size(), r = cluster_rank();
	if (n < 2 || !j->shared_file)
		return 0;
	if (j->fileop) {
		/* One tree of every rank's items: block, a run of nrfiles each; interleaved, every N-th. */
		if (j->nrfiles > UINT64_MAX / n)
			return err_set(e, EXIT_USAGE, "job %s: --shared-file: %" PRIu64 " ranks x --nrfiles overflow",
				       j->name, n);
		j->plan.fileset_items = n * j->nrfiles;
		j->plan.item_first = j->segment_layout == SEG_INTERLEAVED ? r : r * j->nrfiles;
		j->plan.item_step = j->segment_layout == SEG_INTERLEAVED ? n : 1;
		return 0;
	}
	if (!j->size) {
		/* No --size: the existing file or device from --offset on, split between the ranks. */
		char path[PATH_MAX];
		uint64_t all = 0;
		if (!place_path(j, 0, 0, path, sizeof(path), e))
			all = existing_size(path);
		if (all <= j->offset || (all - j->offset) / n / j->bs == 0)
			return err_set(e, EXIT_USAGE,
				       "job %s: --shared-file: give --size (each rank's share of the file)", j->name);
		j->size = (all - j->offset) / n / j->bs * j->bs;
	}
	/* Strided blocks are of one size: several sizes, holes or seeks have no place in them. */
	if (j->segment_layout == SEG_INTERLEAVED && pattern_wanted(j))
		return err_set(e, EXIT_USAGE,
			       "job %s: --segment-layout=interleaved takes one block size and plain patterns "
			       "(use block segments with bsrange, bssplit or rw=NAME:SIZE)", j->name);
	if (j->segment_layout == SEG_INTERLEAVED && j->size % j->bs)
		return err_set(e, EXIT_USAGE,
			       "job %s: --segment-layout=interleaved: --size=%" PRIu64 " is not a multiple of --bs=%" PRIu64,
			       j->name, j->size, j->bs);
	if (j->size > (UINT64_MAX - j->offset) / n)
		return err_set(e, EXIT_USAGE, "job %s: --shared-file: %" PRIu64 " ranks x --size overflow",
			       j->name, n);
	j->plan.span_offset = j->offset;
	j->plan.span_size = n * j->size;
	if (j->segment_layout == SEG_INTERLEAVED) {
		/* IOR's strided layout: rank r's k-th block is block k*N + r. */
		j->offset += r * j->bs;
		j->plan.stride = n * j->bs;
	} else {
		j->offset += r * j->size;
	}
	return 0;
}

bool place_deferred(const struct job *j, const char *path)
{
	if (cluster_size() < 2)
		return false;
	/* A device: its host's first rank opens it (exclusively, to write) before the others. */
	if (is_blockdev(path))
		return !cluster_host_first();
	return cluster_rank() && j->shared_file;
}
