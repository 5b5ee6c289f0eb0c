/*
 * A target's pages in the cache: dropped before reads (--invalidate), read
 * in (--pre_read), counted (resident: mincore; not yet written back:
 * cachestat), for the honest labels of cached results.
 */
#include "base/common.h"
#include "base/ctx.h"
#include "run/target.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RESIDENT_CHUNK (1ull << 30)
#define INVALIDATE_SLICE (1ull << 30)

static uint64_t page_bytes(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	return ps > 0 ? (uint64_t)ps : 4096;
}

uint64_t target_invalidate(const struct run_ctx *c, int fd, uint64_t off, uint64_t len)
{
	uint64_t start = now_ns();
	/* Dirty pages cannot be dropped: write them back first (a buffered write just before). */
	if (target_unsynced(fd, off, len) != 0)
		fdatasync(fd);
	for (uint64_t pos = off; pos < off + len && !c->stop; pos += INVALIDATE_SLICE) {
		uint64_t n = off + len - pos < INVALIDATE_SLICE ? off + len - pos : INVALIDATE_SLICE;
		posix_fadvise(fd, (off_t)pos, (off_t)n, POSIX_FADV_DONTNEED);
	}
	return now_ns() - start;
}

uint64_t target_pre_read(const struct run_ctx *c, int fd, uint64_t off, uint64_t len)
{
	enum { SLICE = 1 << 20 };
	char *buf = malloc(SLICE);
	uint64_t got = 0;
	if (!buf)
		return 0;
	/* The descriptor may be O_DIRECT: read through a buffered one of the same file. */
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int bfd = open(path, O_RDONLY | O_CLOEXEC);
	for (uint64_t pos = off; bfd >= 0 && pos < off + len && !c->stop;) {
		size_t n = off + len - pos < SLICE ? (size_t)(off + len - pos) : SLICE;
		ssize_t r = pread(bfd, buf, n, (off_t)pos);
		if (r <= 0)
			break;
		pos += (uint64_t)r;
		got += (uint64_t)r;
	}
	if (bfd >= 0)
		close(bfd);
	free(buf);
	return got;
}

int64_t target_resident(int fd, uint64_t off, uint64_t len)
{
	uint64_t ps = page_bytes(), pos, end = off + len, total = 0;
	unsigned char *vec;

	if (!len)
		return 0;
	vec = malloc(RESIDENT_CHUNK / ps);
	if (!vec)
		return -1;
	for (pos = off & ~(ps - 1); pos < end; pos += RESIDENT_CHUNK) {
		uint64_t n = end - pos < RESIDENT_CHUNK ? end - pos : RESIDENT_CHUNK;
		uint64_t pages = (n + ps - 1) / ps, i;
		void *p = mmap(NULL, (size_t)n, PROT_READ, MAP_SHARED, fd, (off_t)pos);

		if (p == MAP_FAILED) {
			free(vec);
			return -1;
		}
		if (mincore(p, (size_t)n, vec)) {
			munmap(p, (size_t)n);
			free(vec);
			return -1;
		}
		/* Whole pages first (a loop the compiler vectorises), then the parts of the first and last page outside [off, end). */
		uint64_t resident = 0, stop = pos + pages * ps;
		for (i = 0; i < pages; i++)
			resident += vec[i] & 1;
		total += resident * ps;
		if ((vec[0] & 1) && pos < off)
			total -= off - pos;
		if ((vec[pages - 1] & 1) && stop > end)
			total -= stop - end;
		munmap(p, (size_t)n);
	}
	free(vec);
	return (int64_t)total;
}

/* cachestat(2), Linux 6.5: per-file page-cache counts, in pages.  Not in every libc's headers yet. */
#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif
struct ig_cachestat_range {
	uint64_t off, len;
};
struct ig_cachestat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

int64_t target_unsynced(int fd, uint64_t off, uint64_t len)
{
	struct ig_cachestat_range r = { off, len };
	struct ig_cachestat cs;
	memset(&cs, 0, sizeof(cs));
	if (!len)
		return 0;
	if (syscall(__NR_cachestat, fd, &r, &cs, 0))
		return -1;
	/* A page under writeback may be dirty again: count it once, never more than is cached. */
	uint64_t pages = cs.nr_dirty + cs.nr_writeback;
	if (pages > cs.nr_cache)
		pages = cs.nr_cache;
	uint64_t bytes = pages * page_bytes();
	return (int64_t)(bytes < len ? bytes : len);
}
