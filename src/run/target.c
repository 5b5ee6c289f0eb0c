/*
 * Preparing a target before a job: the safety interlock for devices, the
 * overwrite interlock for existing files, creating test files and laying
 * out real data in the holes of the parts of the job's region its threads
 * read or write (only there; a verifying job's blocks with their headers),
 * and the O_DIRECT alignment facts.
 */
#include "base/common.h"
#include "model/data.h"
#include "model/job.h"
#include "base/devinfo.h"
#include "model/offsets.h"
#include "run/safety.h"
#include "base/stale.h"
#include "run/target.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#define LAYOUT_CHUNK (1u << 20)

static unsigned page_size(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	return ps > 0 ? (unsigned)ps : 4096;
}

/* STATX_DIOALIGN (Linux 6.1): O_DIRECT offset and buffer alignment; 0 if unknown. */
static void dio_align(int fd, unsigned *mem, unsigned *off)
{
	*mem = 0;
	*off = 0;
#ifdef STATX_DIOALIGN
	struct statx stx;

	memset(&stx, 0, sizeof(stx));
	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) || !(stx.stx_mask & STATX_DIOALIGN))
		return;
	*mem = stx.stx_dio_mem_align;
	*off = stx.stx_dio_offset_align;
#else
	(void)fd;
#endif
}

/* The directory a path lives (or will be created) in. */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

unsigned target_dio_align_hint(const char *path)
{
	char dir[PATH_MAX], dev[64], fs[32], mnt[PATH_MAX];
	unsigned mem, off = 0;
	uint64_t v;
	struct stat st;

	/* Only regular files and devices are opened: never a FIFO. */
	if (!stat(path, &st) && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) {
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0) {
			dio_align(fd, &mem, &off);
			close(fd);
			if (off)
				return off;
		}
	}
	/* A file not yet created: the device beneath its directory decides. */
	dir_of(path, dir, sizeof(dir));
	if (blockdev_of_path(S_ISBLK(st.st_mode) ? path : dir, dev, sizeof(dev), fs, sizeof(fs), mnt,
			     sizeof(mnt)) < 0 || !dev[0])
		return 0;
	if (blockdev_sysfs_u64(dev, "queue/logical_block_size", &v) || v < 512 || v > (1u << 16))
		return 0;
	return (unsigned)v;
}

static bool created_by_us(int fd)
{
	char v[256];
	ssize_t n = fgetxattr(fd, IOGAUGE_XATTR, v, sizeof(v));
	return n > 0 && stale_is_marker(v, (size_t)n);
}

/*
 * The holes of [off, end): ranges without data (never written, punched, or
 * unwritten extents), including everything past the end of the file.  Calls
 * fn for each; returns the bytes in holes.  Where SEEK_DATA is unknown, a
 * file whose blocks do not cover its size is one hole over the region.
 */
typedef int (*hole_fn)(void *arg, uint64_t a, uint64_t b);

static uint64_t region_holes(int fd, const struct stat *st, uint64_t off, uint64_t end, hole_fn fn,
			     void *arg, int *rc)
{
	uint64_t pos = off, total = 0;
	*rc = 0;
	while (pos < end && !*rc) {
		off_t d = lseek(fd, (off_t)pos, SEEK_DATA);
		if (d < 0 && errno == EINVAL) {
			/* No SEEK_DATA here: count blocks. */
			uint64_t blk = st->st_blksize > 0 ? (uint64_t)st->st_blksize : 4096;
			uint64_t dense = (uint64_t)st->st_size & ~(blk - 1);
			uint64_t a = (uint64_t)st->st_blocks * 512 < dense ? pos :
				     (uint64_t)st->st_size > pos ? (uint64_t)st->st_size : pos;
			if (a < end) {
				total += end - a;
				*rc = fn ? fn(arg, a, end) : 0;
			}
			break;
		}
		uint64_t data = d < 0 ? end : (uint64_t)d;
		if (data > pos) {
			uint64_t b = data < end ? data : end;
			total += b - pos;
			*rc = fn ? fn(arg, pos, b) : 0;
		}
		if (data >= end)
			break;
		off_t h = lseek(fd, (off_t)data, SEEK_HOLE);
		pos = h < 0 ? end : (uint64_t)h;
	}
	return total;
}

struct layout {
	struct run_ctx *c;
	struct target *t;
	const struct target_req *r;
	struct ig_err *e;
	int fd;
	uint8_t *buf;
	size_t chunk; /* bytes a write: LAYOUT_CHUNK, or whole blocks of a stamp */
	struct data_gen gen;
	unsigned thread;   /* the range being laid out: whose, */
	uint64_t p0, p1;   /* ... where, */
	uint64_t done;     /* ... and written up to here */
	bool dry;                       /* only count what would be written */
	uint64_t written, planned;
};

/* Write [a, b) of the current part: the layout's data, and a stamp's blocks. */
static int write_range(struct layout *l, uint64_t a, uint64_t b)
{
	const struct target_stamp *st = l->r->stamp;
	char b1[32], b2[32];
	for (uint64_t off = a; off < b;) {
		size_t len = b - off < l->chunk ? (size_t)(b - off) : l->chunk;
		if (l->c->stop)
			return err_set(l->e, 128 + (int)l->c->stop,
				       "interrupted while laying out %s (%s of %s written)", l->t->path,
				       fmt_bytes(b1, sizeof(b1), (double)l->written),
				       fmt_bytes(b2, sizeof(b2), (double)l->planned));
		/* off is on the stamp's grid (lay_hole): whole blocks from the start of the buffer. */
		size_t whole = st ? len / st->unit * st->unit : 0, from = st && st->fills ? whole : 0;
		/* Deduplicated data is decided block by block (4 KiB, the usual unit). */
		size_t piece = l->gen.spec.dedupe ? 4096 : len;
		for (size_t k = from; k < len; k += piece)
			data_fill(&l->gen, l->buf + k, len - k < piece ? len - k : piece);
		for (size_t k = 0; k < whole; k += st->unit)
			st->fn(st->arg, l->thread, l->buf + k, off + k, (uint32_t)st->unit);
		for (size_t done = 0; done < len;) {
			ssize_t n = pwrite(l->fd, l->buf + done, len - done, (off_t)(off + done));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return err_set(l->e, EXIT_IOERR,
					       "laying out %s failed at offset %" PRIu64 ": %s",
					       l->t->path, off + done, strerror(n < 0 ? errno : ENOSPC));
			done += (size_t)n;
			l->written += (uint64_t)n;
		}
		off += len;
	}
	return 0;
}

/*
 * Fill the hole [a, b) of the current range with fresh data.  A stamp's
 * blocks are written whole: a hole is widened to the blocks it touches
 * inside the range (a block half data, half hole holds no header).
 */
static int lay_hole(void *arg, uint64_t a, uint64_t b)
{
	struct layout *l = arg;
	const struct target_stamp *st = l->r->stamp;
	if (st) {
		a = l->p0 + (a - l->p0) / st->unit * st->unit;
		uint64_t up = l->p0 + (b - l->p0 + st->unit - 1) / st->unit * st->unit;
		b = up < l->p1 ? up : l->p1;
	}
	if (a < l->done)
		a = l->done;
	if (a >= b)
		return 0;
	l->done = b;
	if (l->dry) {
		l->planned += b - a;
		return 0;
	}
	return write_range(l, a, b);
}

/* The m-th range of a part. */
static void part_range(const struct target_part *p, uint64_t m, uint64_t *a, uint64_t *b)
{
	*a = p->start + m * p->step;
	*b = *a + p->len;
	if (p->end && *b > p->end)
		*b = p->end;
}

/* Each range's holes, laid out (or counted when l->dry). */
static int lay_parts(struct layout *l, const struct stat *st, const struct target_part *parts, unsigned n)
{
	int rc = 0;
	for (unsigned i = 0; i < n && !rc; i++)
		for (uint64_t m = 0; m < (parts[i].count ? parts[i].count : 1) && !rc; m++) {
			part_range(&parts[i], m, &l->p0, &l->p1);
			l->thread = parts[i].thread;
			l->done = l->p0;
			region_holes(l->fd, st, l->p0, l->p1, lay_hole, l, &rc);
		}
	return rc;
}

/* Is there room for the bytes the layout will allocate? */
static int check_space(const struct target *t, uint64_t need, struct ig_err *e)
{
	char b1[32], b2[32], dir[PATH_MAX];
	struct statvfs sv;
	dir_of(t->path, dir, sizeof(dir));
	/* f_blocks 0: the file system does not report its size (ramfs): let ENOSPC speak. */
	if (!need || statvfs(t->path, &sv) || !sv.f_blocks)
		return 0;
	uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (need <= avail)
		return 0;
	return err_set(e, EXIT_IOERR, "not enough free space in %s to lay out %s: %s free", dir,
		       fmt_bytes(b1, sizeof(b1), (double)need), fmt_bytes(b2, sizeof(b2), (double)avail));
}

uint64_t target_parts_residue(const struct target_part *parts, unsigned nparts, uint64_t offset, uint64_t unit)
{
	uint64_t res = nparts ? parts[0].start % unit : offset % unit;
	for (unsigned i = 0; i < nparts; i++)
		if (parts[i].start % unit != res || (parts[i].count > 1 && parts[i].step % unit))
			return UINT64_MAX;
	return res;
}

/* A verifying reader whose blocks cannot be laid out: refused before the layout writes. */
static int refuse_stamp(const struct target *t, const struct target_req *r, struct ig_err *e)
{
	return err_set(e, EXIT_USAGE, "refusing to lay out %s: %s", t->path,
		       r->stamp->refused);
}

/*
 * Write real data into the holes of the parts of [off, end) the job reads
 * or writes, make it durable, and make the file end no sooner than end (the
 * size fio makes; what lies between the parts stays a hole).  The seed
 * mixes in the file's identity: files of threads sharing a job seed never
 * hold the same blocks (a deduplicating file system would store them once).
 */
/*
 * Only the size: the space between the parts is no block's, and stays
 * unwritten.  Another rank laying out a later region of a shared file may
 * have made it longer meanwhile: a truncate would cut its blocks off, so a
 * shared file grows by fallocate, which never shrinks one.
 */
static int extend_file(const struct layout *l, uint64_t end, bool shared)
{
	struct stat now;
	if (fstat(l->fd, &now))
		return err_set(l->e, EXIT_IOERR, "cannot stat %s: %s", l->t->path, strerror(errno));
	if ((uint64_t)now.st_size >= end)
		return 0;
	if (shared && !fallocate(l->fd, 0, (off_t)end - 1, 1))
		return 0;
	if (shared && errno != EOPNOTSUPP && errno != ENOSYS)
		return err_set(l->e, EXIT_IOERR, "cannot extend %s to %" PRIu64 " bytes: fallocate: %s",
			       l->t->path, end, strerror(errno));
	if (ftruncate(l->fd, (off_t)end))
		return err_set(l->e, EXIT_IOERR, "cannot extend %s to %" PRIu64 " bytes: %s", l->t->path, end,
			       strerror(errno));
	return 0;
}

static int fill_region(struct run_ctx *c, struct target *t, const struct target_req *r, uint64_t end,
		       struct ig_err *e)
{
	struct layout l = { .c = c, .t = t, .r = r, .e = e, .chunk = LAYOUT_CHUNK };
	struct target_part whole = { .start = r->offset, .len = end - r->offset };
	const struct target_part *parts = r->nparts ? r->parts : &whole;
	unsigned nparts = r->nparts ? r->nparts : 1;
	const struct target_stamp *stamp = r->stamp;
	struct stat st;
	int rc;

	l.fd = open(t->path, O_RDWR | O_CLOEXEC);
	if (l.fd < 0)
		return err_set(e, EXIT_USAGE, "cannot open %s to lay it out: %s", t->path, strerror(errno));
	if (fstat(l.fd, &st)) {
		rc = err_set(e, EXIT_IOERR, "cannot stat %s: %s", t->path, strerror(errno));
		goto out;
	}
	l.dry = true;
	rc = lay_parts(&l, &st, parts, nparts);
	l.dry = false;
	if (!rc && l.planned && stamp && stamp->refused)
		rc = refuse_stamp(t, r, e);
	if (rc || check_space(t, l.planned, e)) {
		rc = -1;
		goto out;
	}
	uint64_t start = now_ns();
	if (l.planned) {
		uint64_t seed = r->seed ^ 0x6c61796f75740a5dULL ^ ((uint64_t)st.st_dev << 32) ^ st.st_ino;
		for (const char *p = t->path; *p; p++)
			seed = (seed ^ (unsigned char)*p) * 0x100000001b3ULL;
		static const struct data_spec random_data = { .mode = DATA_RANDOM };
		data_init(&l.gen, r->data ? r->data : &random_data, seed);
		if (stamp)
			l.chunk = stamp->unit >= LAYOUT_CHUNK ? stamp->unit : LAYOUT_CHUNK / stamp->unit * stamp->unit;
		l.buf = xaligned(page_size(), l.chunk);
		rc = lay_parts(&l, &st, parts, nparts);
		free(l.buf);
	}
	if (!rc)
		rc = extend_file(&l, end, r->shared);
	if (!rc && l.written && fdatasync(l.fd))
		rc = err_set(e, EXIT_IOERR, "laying out %s failed: fdatasync: %s", t->path, strerror(errno));
	t->layout_ns = now_ns() - start;
	t->layout_bytes = l.written;
	if (l.written && stamp && !stamp->refused) {
		snprintf(t->layout_what, sizeof(t->layout_what), "%s", stamp->what);
		t->layout_sig = stamp->sig;
		t->layout_residue = target_parts_residue(r->parts, r->nparts, r->offset, stamp->unit);
	}
	if (l.written) {
		t->layout_lo = r->offset;
		t->layout_hi = end;
	}
	if (l.written)
		posix_fadvise(l.fd, (off_t)r->offset, (off_t)(end - r->offset), POSIX_FADV_DONTNEED);
out:
	close(l.fd);
	return rc;
}

static int prepare_blockdev(struct run_ctx *c, struct target *t, const struct target_req *r,
			    struct ig_err *e)
{
	char b1[32], b2[32];
	unsigned mem, off;
	uint64_t size = 0;
	int lbs = 0, fd, flags;
	struct stat st;
	bool excl;

	if (r->writes && safety_check_blockdev(c, t->path, r->allow_destroy, e))
		return -1;
	t->is_blockdev = true;
	/*
	 * Writers hold the device exclusively: nobody mounts it under the run.
	 * EBUSY here, after the safety check passed, is this run's own claim
	 * (another job on the same device or on its disk or a partition).
	 */
	flags = (r->writes ? O_RDWR | O_EXCL : O_RDONLY) | O_CLOEXEC;
	fd = open(t->path, flags);
	excl = fd >= 0 && r->writes;
	if (fd < 0 && r->writes && errno == EBUSY)
		fd = open(t->path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, EXIT_USAGE, "cannot open %s: %s", t->path, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &size) || ioctl(fd, BLKSSZGET, &lbs) || lbs <= 0 || fstat(fd, &st)) {
		err_set(e, EXIT_USAGE, "cannot read the size of %s: %s", t->path, strerror(errno));
		close(fd);
		return -1;
	}
	uint64_t need = r->offset + r->size;
	if (need > size || (!r->size && r->offset >= size)) {
		err_set(e, EXIT_USAGE, "%s holds %s (%" PRIu64 " bytes) but the job addresses %s (%" PRIu64 " bytes)",
			t->path, fmt_bytes(b1, sizeof(b1), (double)size), size,
			fmt_bytes(b2, sizeof(b2), (double)need), need);
		close(fd);
		return -1;
	}
	t->size = size;
	t->lbs = (unsigned)lbs;
	dio_align(fd, &mem, &off);
	if (off > t->lbs)
		t->lbs = off;
	t->dio_mem_align = mem ? mem : t->lbs;
	t->rdev = st.st_rdev;
	blockdev_name(st.st_rdev, t->device, sizeof(t->device));
	if (excl)
		ctx_claim(c, t->rdev, 0);
	t->excl = excl;
	t->fd = fd;
	return 0;
}

/*
 * The kernel's memory devices that hold no data, which fio's jobs name as
 * files (examples/steadystate.fio): /dev/null (writes go nowhere, reads end
 * at once), /dev/zero (writes go nowhere, reads are zeros) and /dev/full
 * (writes fail with ENOSPC).  Nothing to lay out, no disk beneath; the job's
 * size says how far it goes, as fio needs it to.
 */
static bool memdev(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 &&
	       (minor(st->st_rdev) == 3 || minor(st->st_rdev) == 5 || minor(st->st_rdev) == 7);
}

static int prepare_memdev(struct target *t, const struct target_req *r, struct ig_err *e)
{
	if (!r->size)
		return err_set(e, EXIT_USAGE, "%s has no size: give --size", t->path);
	int fd = open(t->path, (r->writes ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, EXIT_USAGE, "cannot open %s: %s", t->path, strerror(errno));
	t->size = r->offset + r->size;
	t->lbs = 512;
	t->dio_mem_align = page_size();
	t->fd = fd;
	return 0;
}

static int create_file(struct run_ctx *c, struct target *t, const struct target_req *r,
		       struct ig_err *e)
{
	char dir[PATH_MAX];
	struct stat st;
	int fd;

	dir_of(t->path, dir, sizeof(dir));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return err_set(e, EXIT_USAGE, "cannot create %s: directory %s does not exist", t->path, dir);
	if (!r->size)
		return err_set(e, EXIT_USAGE, "%s does not exist; give --size to create it", t->path);
	if (!r->grow && r->stamp && r->stamp->refused)
		return refuse_stamp(t, r, e);
	fd = open(t->path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(e, EXIT_USAGE, "cannot create %s: %s", t->path, strerror(errno));
	t->created = true;
	if (ctx_register_file(c, t->path)) {
		close(fd);
		unlink(t->path);
		return err_set(e, EXIT_IOERR, "out of memory registering %s for removal", t->path);
	}
	/* Who made it: a later run recognises it if this one is killed (stale.c); best effort. */
	char marker[256];
	stale_marker(marker, sizeof(marker));
	fsetxattr(fd, IOGAUGE_XATTR, marker, strlen(marker), 0);
	if (!fstat(fd, &st))
		ctx_claim(c, st.st_dev, st.st_ino);
	close(fd);
	if (r->grow || !fill_region(c, t, r, r->offset + r->size, e))
		return 0;
	/* Refused for space or failed part way: not a test file, even under --keep (fio's files). */
	ctx_remove_file(c, t->path);
	return -1;
}

/* dd without conv=notrunc: the output file ends where the writing starts. */
static int cut_file(const struct target *t, uint64_t at, struct ig_err *e)
{
	int fd = open(t->path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, EXIT_USAGE, "cannot open %s: %s", t->path, strerror(errno));
	int rc = ftruncate(fd, (off_t)at);
	int err = errno;
	close(fd);
	if (rc)
		return err_set(e, EXIT_IOERR, "cannot truncate %s at %" PRIu64 ": %s", t->path, at,
			       strerror(err));
	return 0;
}

/* A user's file with nothing to read in part of the region: how much, and what it is. */
static int refuse_holes(const struct target *t, const struct stat *st, const struct target_req *r, uint64_t end,
			uint64_t holes, struct ig_err *e)
{
	struct target_part whole = { .start = r->offset, .len = end - r->offset };
	const struct target_part *p = r->nparts ? r->parts : &whole;
	uint64_t size = (uint64_t)st->st_size, past = 0, region = 0;
	for (unsigned i = 0; i < (r->nparts ? r->nparts : 1); i++)
		for (uint64_t m = 0; m < (p[i].count ? p[i].count : 1); m++) {
			uint64_t a, b;
			part_range(&p[i], m, &a, &b);
			region += b - a;
			a = a > size ? a : size;
			past += b > a ? b - a : 0;
		}
	char hb[32], rb[32];
	return err_set(e, EXIT_USAGE,
		       "refusing to read %s: %s of the job's %s region %s, and reading it measures no disk; iogauge writes no byte of a file it did not create (use " ALLOW_OVERWRITE_HOW " to fill only that part with test data)",
		       t->path, fmt_bytes(hb, sizeof(hb), (double)holes), fmt_bytes(rb, sizeof(rb), (double)region),
		       !past ? "is holes or unwritten extents" :
		       past == holes ? "lies past the end of the file" :
				       "is holes, unwritten extents or past the end of the file");
}

/* The bytes of the parts of [off, end) the job reads or writes that are holes (or past the end). */
static uint64_t part_holes(int fd, const struct stat *st, const struct target_req *r, uint64_t end)
{
	uint64_t holes = 0;
	int rc;
	if (!r->nparts)
		return region_holes(fd, st, r->offset, end, NULL, NULL, &rc);
	for (unsigned i = 0; i < r->nparts; i++)
		for (uint64_t m = 0; m < (r->parts[i].count ? r->parts[i].count : 1); m++) {
			uint64_t a, b;
			part_range(&r->parts[i], m, &a, &b);
			holes += region_holes(fd, st, a, b, NULL, NULL, &rc);
		}
	return holes;
}

static int prepare_existing_file(struct run_ctx *c, struct target *t, const struct target_req *r,
				 const struct stat *st, struct ig_err *e)
{
	uint64_t end = r->size ? r->offset + r->size : (uint64_t)st->st_size, holes;
	int fd;
	bool own;

	if (!r->size && r->offset >= (uint64_t)st->st_size && !r->grow)
		return err_set(e, EXIT_USAGE, "--offset=%" PRIu64 " is beyond the end of %s (%lld bytes)",
			       r->offset, t->path, (long long)st->st_size);
	fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return err_set(e, EXIT_USAGE, "cannot open %s: %s", t->path, strerror(errno));
	own = created_by_us(fd) || ctx_claimed(c, st->st_dev, st->st_ino);
	holes = part_holes(fd, st, r, end);
	close(fd);
	/* A mounted file system's image (through a loop device) is never written, whatever the options. */
	if (r->writes && safety_check_file(t->path, st, e))
		return -1;
	if (!own && !r->allow_overwrite) {
		if (r->writes)
			return err_set(e, EXIT_USAGE,
				       "refusing to write %s: the file exists and was not created by iogauge (use " ALLOW_OVERWRITE_HOW " to overwrite it)",
				       t->path);
		/* verify_only reads only what the earlier run wrote: a hole there is a bad block to report. */
		if (holes && !r->must_exist)
			return refuse_holes(t, st, r, end, holes, e);
	}
	/* Past its end, between the parts: only a file iogauge may write is made longer (the check after refuses the rest). */
	bool extend = (uint64_t)st->st_size < end && (own || r->allow_overwrite);
	if (r->readonly && (r->grow || ((holes || extend) && (r->reads || r->writes))))
		return err_set(e, EXIT_USAGE,
			       "--readonly: the job's region of %s holds %s, and laying out data there would write",
			       t->path, (uint64_t)st->st_size < end ? "space past the end of the file" : "holes");
	if (r->grow)
		return r->truncate || (r->restart && own) ? cut_file(t, r->offset, e) : 0;
	if (!(holes || extend) || !(r->reads || r->writes))
		return 0;
	return !r->writes && safety_check_file(t->path, st, e) ? -1 : fill_region(c, t, r, end, e);
}

static int finish_file(struct target *t, const struct target_req *r, struct ig_err *e)
{
	unsigned mem, off;
	uint64_t v;
	struct stat st;
	int fd;

	fd = open(t->path, (r->writes ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, EXIT_USAGE, "cannot open %s: %s", t->path, strerror(errno));
	if (fstat(fd, &st)) {
		err_set(e, EXIT_IOERR, "cannot stat %s: %s", t->path, strerror(errno));
		close(fd);
		return -1;
	}
	t->size = (uint64_t)st.st_size;
	blockdev_of_path(t->path, t->device, sizeof(t->device), t->fstype, sizeof(t->fstype),
			 t->mountpoint, sizeof(t->mountpoint));
	mount_compression(t->mountpoint, t->fs_compress, sizeof(t->fs_compress));
	dio_align(fd, &mem, &off);
	if (off)
		t->lbs = off;
	else if (t->device[0] && !blockdev_sysfs_u64(t->device, "queue/logical_block_size", &v) &&
		 v >= 512 && v <= (1u << 16))
		t->lbs = (unsigned)v;
	else
		t->lbs = 512;
	t->dio_mem_align = mem ? mem : page_size();
	t->fd = fd;
	return 0;
}

/* O_DIRECT refused with EINVAL (tmpfs, ramfs, some FUSE): buffered, the caller says so. */
static int check_direct(struct target *t, const struct target_req *r, struct ig_err *e)
{
	t->direct = false;
	if (!r->direct)
		return 0;
	int fd = open(t->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && errno == EINVAL)
		return 0;
	if (fd < 0)
		return err_set(e, EXIT_USAGE, "cannot open %s with O_DIRECT: %s", t->path, strerror(errno));
	close(fd);
	t->direct = true;
	return 0;
}

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory (name it with --directory)" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISCHR(m) ? "a character device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

int target_prepare(struct run_ctx *c, struct target *t, const struct target_req *r,
		   struct ig_err *e)
{
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (!r->path || !r->path[0])
		return err_set(e, EXIT_USAGE, "no file name for the job's target");
	if (strlen(r->path) >= sizeof(t->path))
		return err_set(e, EXIT_USAGE, "file name too long: %.64s...", r->path);
	snprintf(t->path, sizeof(t->path), "%s", r->path);

	/* Decided before any open: a FIFO's open would block, a character device is no disk. */
	if (!stat(t->path, &st)) {
		if (S_ISBLK(st.st_mode)) {
			ret = prepare_blockdev(c, t, r, e);
			if (!ret)
				ret = check_direct(t, r, e);
			if (ret)
				target_close(c, t);
			return ret;
		}
		if (memdev(&st))
			return prepare_memdev(t, r, e);
		if (!S_ISREG(st.st_mode))
			return err_set(e, EXIT_USAGE,
				       "%s is %s: iogauge tests regular files, block devices, the null, zero and full devices, and files it creates in a directory",
				       t->path, file_kind(st.st_mode));
		ret = prepare_existing_file(c, t, r, &st, e);
	} else if (errno == ENOENT && r->readonly) {
		return err_set(e, EXIT_USAGE, "--readonly: %s does not exist, and creating it would write", t->path);
	} else if (errno == ENOENT && r->must_exist) {
		return err_set(e, EXIT_USAGE, "%s does not exist: there is nothing an earlier run wrote to check",
			       t->path);
	} else if (errno == ENOENT) {
		ret = create_file(c, t, r, e);
	} else {
		return err_set(e, EXIT_USAGE, "cannot access %s: %s", t->path, strerror(errno));
	}
	if (!ret)
		ret = check_direct(t, r, e);
	if (!ret)
		ret = finish_file(t, r, e);
	return ret;
}

int target_open_fd(const struct target *t, bool direct, int sync_flags, bool writes)
{
	int fd = open(t->path,
		      (writes ? O_RDWR : O_RDONLY) | (direct ? O_DIRECT : 0) | sync_flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

void target_close(struct run_ctx *c, struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->excl)
		ctx_unclaim(c, t->rdev, 0);
	t->excl = false;
}
