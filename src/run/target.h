/*
 * Targets: the files and block devices a job reads and writes — the safety
 * interlock before any write, laying out files with real data inside the
 * parts of the job's region its threads read or write only, and the
 * O_DIRECT alignment facts.
 */
#ifndef IOGAUGE_TARGET_H
#define IOGAUGE_TARGET_H

#include <stdint.h>
#include <stdbool.h>
#include <limits.h>
#include <sys/types.h>
#include "base/common.h"
#include "base/ctx.h"
#include "model/data.h"

struct target {
	char path[PATH_MAX];
	bool is_blockdev;
	bool created;     /* iogauge created it in this run: removed at the end */
	bool direct;      /* O_DIRECT works (false after a buffered fallback) */
	int fd;           /* held open by target_prepare; -1 when closed */
	uint64_t size;    /* file size, or device size */
	unsigned lbs;     /* logical block size (device) or fs block size; O_DIRECT alignment */
	unsigned dio_mem_align; /* buffer alignment for O_DIRECT */
	char fstype[32];  /* "ext4", "tmpfs", "" for a raw device */
	char device[64];  /* kernel name of the block device beneath: "loop0", "" if none */
	char mountpoint[PATH_MAX];
	char fs_compress[32]; /* the mount compresses new data: "zstd:3"; "" if not */
	uint64_t layout_ns;    /* time spent writing real data before the run (never counted) */
	uint64_t layout_bytes; /* bytes written by the layout, all inside the parts the job reads or writes */
	char layout_what[32];  /* what the layout wrote ("data with crc32c headers"); "" when data alone */
	/* This run's layout of it: its stamp's sig (0: data alone), grid (target_parts_residue) and extent. */
	uint64_t layout_sig, layout_residue, layout_lo, layout_hi;
	bool excl;        /* fd holds the device exclusively (O_EXCL, a writer) */
	dev_t rdev;       /* block device number when is_blockdev */
};

/*
 * Ranges of the file a job's thread reads or writes: [start + m * step,
 * start + m * step + len) for m from 0 to count - 1 (strided zones; count 0
 * is 1).
 */
struct target_part {
	uint64_t start, len, step, count;
	uint64_t end; /* no range passes it (a zone the region's end cuts short); 0: none */
	unsigned thread; /* whose: the job's thread number (verification's headers name it) */
};

/*
 * A verifying reader's blocks: the layout writes each whole `unit` from a
 * part's start as the job's own write of it would be (its data and
 * verification headers), so its reads check real headers.
 */
struct target_stamp {
	uint64_t unit;
	bool fills; /* fn writes the whole block's data: the layout's own data is not made for it */
	void (*fn)(void *arg, unsigned thread, void *buf, uint64_t offset, uint32_t len);
	void *arg;
	const char *what;     /* "data with crc32c headers": for the report's line */
	uint64_t sig;         /* what makes the blocks (kind, unit, pattern): equal sigs lay out alike; never 0 */
	const char *refused;  /* not NULL: no such blocks can be laid out; why, refused before any write */
};

/* What a job will do with the target; decides which checks apply. */
struct target_req {
	const char *path;
	uint64_t offset;     /* the job's region: [offset, offset + size), the file's extent */
	uint64_t size;       /* 0: to the end of an existing file or device */
	/*
	 * The parts of the region the job's threads read or write (threads
	 * --offset_increment apart, strided zones): only they are laid out;
	 * none (nparts 0): the whole region.  A new file is made as long as the
	 * region (as fio makes it) with holes between them.
	 */
	const struct target_part *parts;
	unsigned nparts;
	const struct target_stamp *stamp; /* a verifying reader's layout; NULL: the data alone */
	bool writes;         /* the job writes */
	bool reads;          /* reads need real data: holes in the region are refused or filled */
	bool direct;
	bool allow_destroy;
	bool allow_overwrite;
	bool grow;           /* written from scratch (dd): no layout; the file may end before the region */
	bool truncate;       /* with grow: cut an existing file at offset (dd without conv=notrunc) */
	bool restart;        /* with grow: cut a file iogauge made at offset (--overwrite=0); another's is written in place */
	uint64_t seed;       /* layout data seed */
	const struct data_spec *data; /* what the layout writes; NULL: random */
	bool must_exist;     /* never create it (verify_only: an earlier run wrote it) */
	bool readonly;       /* fio's --readonly: never create, extend or fill it */
	bool shared;         /* other processes lay out other regions of it at once (MPI ranks) */
};

/*
 * Open (creating if needed) and prepare a target: safety checks, layout of
 * real random data in the holes of the parts of the job's region its
 * threads read or write (never outside them; over data only to make a
 * verifying reader's block whole, which a hole cuts), O_DIRECT alignment facts.  0, or -1 with e set: status 2 for a
 * refusal or a bad request, 1 for an I/O failure or a full disk, 128+N when
 * the context was asked to stop by signal N.  Created files are registered
 * with the context for removal.
 */
int target_prepare(struct run_ctx *c, struct target *t, const struct target_req *r,
		   struct ig_err *e);
/*
 * Where parts' blocks of unit bytes start, modulo unit (the whole region
 * from offset when there are none): UINT64_MAX when the parts do not agree.
 */
uint64_t target_parts_residue(const struct target_part *parts, unsigned nparts, uint64_t offset, uint64_t unit);
/*
 * O_DIRECT offset alignment a path will need, known before anything is
 * created or written (statx, else the logical block size of the device
 * beneath); 0 when unknown.
 */
unsigned target_dio_align_hint(const char *path);
/* Reopen for one worker thread with the job's flags; fd or -errno. */
int target_open_fd(const struct target *t, bool direct, int sync_flags, bool writes);
void target_close(struct run_ctx *c, struct target *t);

/*
 * Drop cached pages of [off, off+len) (posix_fadvise DONTNEED), in slices that
 * notice stop, after writing back dirty ones; ns spent.
 */
uint64_t target_invalidate(const struct run_ctx *c, int fd, uint64_t off, uint64_t len);
/* fio's pre_read: read [off, off+len) into the page cache, in slices that notice stop; bytes read. */
uint64_t target_pre_read(const struct run_ctx *c, int fd, uint64_t off, uint64_t len);
/* Bytes of [off, off+len) resident in the page cache (mincore); -1 unknown. */
int64_t target_resident(int fd, uint64_t off, uint64_t len);
/* Bytes of [off, off+len) in the page cache and not yet on disk (dirty or under writeback); -1 unknown. */
int64_t target_unsynced(int fd, uint64_t off, uint64_t len);

#endif
