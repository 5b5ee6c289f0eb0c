/*
 * Preparing a target before a job: the safety interlock for devices, the
 * overwrite interlock for existing files, creating test files and laying
 * them out with real random data, and the O_DIRECT alignment facts.
 */
#include "common.h"
#include "target.h"
#include "offsets.h"
#include "runner.h" /* g_stop: SIGINT/SIGTERM seen */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#define CREATED_XATTR "user.iogauge.created"
#define LAYOUT_CHUNK (1u << 20)
#define RESIDENT_CHUNK (1ull << 30)

/*
 * Devices this process holds with O_EXCL, so that a second job writing the
 * same device (or a partition of it) is not refused for our own claim, and
 * files created in this run, so that a second job on the same file needs no
 * --allow-overwrite even where the xattr could not be set.
 */
#define MAX_HELD 64
#define MAX_OWN 4096
static struct {
	dev_t rdev;
	unsigned refs;
} held[MAX_HELD];
static struct {
	dev_t dev;
	ino_t ino;
} own_files[MAX_OWN];
static unsigned n_own;
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;

bool target_holds_exclusive(dev_t rdev)
{
	bool found = false;

	pthread_mutex_lock(&reg_lock);
	for (unsigned i = 0; i < MAX_HELD && !found; i++)
		found = held[i].refs && held[i].rdev == rdev;
	pthread_mutex_unlock(&reg_lock);
	return found;
}

static void hold_exclusive(dev_t rdev, bool on)
{
	unsigned i, free_slot = MAX_HELD;

	pthread_mutex_lock(&reg_lock);
	for (i = 0; i < MAX_HELD; i++) {
		if (held[i].refs && held[i].rdev == rdev)
			break;
		if (!held[i].refs && free_slot == MAX_HELD)
			free_slot = i;
	}
	if (on) {
		if (i == MAX_HELD && free_slot < MAX_HELD) {
			held[free_slot].rdev = rdev;
			held[free_slot].refs = 1;
		} else if (i < MAX_HELD) {
			held[i].refs++;
		}
	} else if (i < MAX_HELD) {
		held[i].refs--;
	}
	pthread_mutex_unlock(&reg_lock);
}

static void own_add(const struct stat *st)
{
	pthread_mutex_lock(&reg_lock);
	if (n_own < MAX_OWN) {
		own_files[n_own].dev = st->st_dev;
		own_files[n_own].ino = st->st_ino;
		n_own++;
	}
	pthread_mutex_unlock(&reg_lock);
}

static bool own_this_run(const struct stat *st)
{
	bool found = false;

	pthread_mutex_lock(&reg_lock);
	for (unsigned i = 0; i < n_own && !found; i++)
		found = own_files[i].dev == st->st_dev && own_files[i].ino == st->st_ino;
	pthread_mutex_unlock(&reg_lock);
	return found;
}

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

unsigned target_dio_align_hint(const char *path)
{
	char dir[PATH_MAX], dev[64], fs[32], mnt[PATH_MAX];
	unsigned mem, off = 0;
	uint64_t v;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		dio_align(fd, &mem, &off);
		close(fd);
		if (off)
			return off;
	}
	/* A file not yet created: the device beneath its directory decides. */
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (fd < 0)
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - dir) + 1 : 1, slash ? path : ".");
	if (blockdev_of_path(dir, dev, sizeof(dev), fs, sizeof(fs), mnt, sizeof(mnt)) < 0 || !dev[0])
		return 0;
	if (blockdev_sysfs_u64(dev, "queue/logical_block_size", &v) || v < 512 || v > (1u << 16))
		return 0;
	return (unsigned)v;
}

static bool created_by_us(int fd)
{
	char v[8];
	ssize_t n = fgetxattr(fd, CREATED_XATTR, v, sizeof(v));
	return n == 1 && v[0] == '1';
}

/* Does [0, limit) contain a hole or an unwritten extent? */
static bool has_holes(int fd, const struct stat *st, uint64_t limit)
{
	uint64_t dense;
	off_t h;

	if (!limit)
		return false;
	h = lseek(fd, 0, SEEK_HOLE);
	if (h >= 0 && (uint64_t)h < limit)
		return true;
	/* File systems without SEEK_HOLE report no hole: count blocks. */
	dense = limit & ~(uint64_t)((st->st_blksize > 0 ? st->st_blksize : 4096) - 1);
	return (uint64_t)st->st_blocks * 512 < dense;
}

/*
 * Write real random data over [0, need) and make it durable.  The seed mixes
 * in the file's identity: files of threads sharing a job seed never hold the
 * same blocks (a deduplicating file system would store them once).
 */
static int layout(struct target *t, const struct target_req *r, int fd, const struct stat *st)
{
	uint64_t off = 0, start, seed = r->seed ^ 0x6c61796f75740a5dULL;
	char b1[32], b2[32];
	struct rng rng;
	uint64_t *buf;
	size_t words, i;
	const char *p;

	for (p = t->path; *p; p++)
		seed = (seed ^ (unsigned char)*p) * 0x100000001b3ULL;
	seed ^= ((uint64_t)st->st_dev << 32) ^ (uint64_t)st->st_ino;
	buf = xaligned(page_size(), LAYOUT_CHUNK);
	rng_seed(&rng, seed);
	start = now_ns();
	while (off < r->need_size) {
		size_t len = r->need_size - off < LAYOUT_CHUNK ? (size_t)(r->need_size - off)
							       : LAYOUT_CHUNK;
		size_t done = 0;

		if (g_stop) {
			msg_err("interrupted while laying out %s (%s of %s written)", t->path,
				fmt_bytes(b1, sizeof(b1), (double)off),
				fmt_bytes(b2, sizeof(b2), (double)r->need_size));
			free(buf);
			return -(128 + (int)g_stop);
		}
		words = (len + 7) / 8;
		for (i = 0; i < words; i++)
			buf[i] = rng_next(&rng);
		while (done < len) {
			ssize_t n = pwrite(fd, (char *)buf + done, len - done, (off_t)(off + done));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				int e = n < 0 ? errno : EIO;
				msg_err("laying out %s failed at offset %" PRIu64 " (%s of %s written): %s",
					t->path, off + done, fmt_bytes(b1, sizeof(b1), (double)(off + done)),
					fmt_bytes(b2, sizeof(b2), (double)r->need_size), strerror(e));
				free(buf);
				return -EXIT_IOERR;
			}
			done += (size_t)n;
		}
		off += len;
	}
	free(buf);
	if (fdatasync(fd)) {
		msg_err("laying out %s failed: fdatasync: %s", t->path, strerror(errno));
		return -EXIT_IOERR;
	}
	t->layout_ns = now_ns() - start;
	t->layout_bytes = r->need_size;
	posix_fadvise(fd, 0, (off_t)r->need_size, POSIX_FADV_DONTNEED);
	return 0;
}

/* Is there room for the bytes the layout will allocate? */
static int check_space(const struct target *t, const struct target_req *r, const struct stat *st)
{
	char mnt[PATH_MAX], dev[64], fs[32], b1[32], b2[32];
	uint64_t have = (uint64_t)st->st_blocks * 512, need, avail;
	struct statvfs sv;

	need = r->need_size > have ? r->need_size - have : 0;
	/* f_blocks 0: the file system does not report its size (ramfs): let ENOSPC speak. */
	if (!need || statvfs(t->path, &sv) || !sv.f_blocks)
		return 0;
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (need <= avail)
		return 0;
	if (blockdev_of_path(t->path, dev, sizeof(dev), fs, sizeof(fs), mnt, sizeof(mnt)) < 0 &&
	    !mnt[0])
		snprintf(mnt, sizeof(mnt), "%s", t->path);
	msg_err("not enough free space on %s for %s: %s free", mnt,
		fmt_bytes(b1, sizeof(b1), (double)r->need_size),
		fmt_bytes(b2, sizeof(b2), (double)avail));
	return -EXIT_IOERR; /* a full disk, like ENOSPC: status 1 */
}

static int lay_out_if_needed(struct target *t, const struct target_req *r, bool needed)
{
	struct stat st;
	int fd, ret;

	if (!needed)
		return 0;
	fd = open(t->path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		msg_err("cannot open %s to lay it out: %s", t->path, strerror(errno));
		return -EXIT_USAGE;
	}
	if (fstat(fd, &st)) {
		msg_err("cannot stat %s: %s", t->path, strerror(errno));
		close(fd);
		return -EXIT_IOERR;
	}
	ret = check_space(t, r, &st);
	if (!ret)
		ret = layout(t, r, fd, &st);
	close(fd);
	return ret;
}

static int prepare_blockdev(struct target *t, const struct target_req *r)
{
	char b1[32], b2[32];
	unsigned mem, off;
	uint64_t size = 0;
	int lbs = 0, fd, flags;
	struct stat st;
	bool excl;

	if (r->writes && safety_check_blockdev(t->path, r->allow_destroy))
		return -EXIT_USAGE;
	t->is_blockdev = true;
	/*
	 * Writers hold the device exclusively: nobody mounts it under the run.
	 * EBUSY here, after the safety check passed, is this process's own
	 * claim (another job on the same device or on its disk/partition).
	 */
	flags = (r->writes ? O_RDWR | O_EXCL : O_RDONLY) | O_CLOEXEC;
	fd = open(t->path, flags);
	excl = fd >= 0 && r->writes;
	if (fd < 0 && r->writes && errno == EBUSY)
		fd = open(t->path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		msg_err("cannot open %s: %s", t->path, strerror(errno));
		return -EXIT_USAGE;
	}
	if (ioctl(fd, BLKGETSIZE64, &size) || ioctl(fd, BLKSSZGET, &lbs) || lbs <= 0) {
		msg_err("cannot read the size of %s: %s", t->path, strerror(errno));
		close(fd);
		return -EXIT_USAGE;
	}
	if (r->need_size > size) {
		msg_err("%s holds %s (%" PRIu64 " bytes) but the job addresses %s (%" PRIu64 " bytes)",
			t->path, fmt_bytes(b1, sizeof(b1), (double)size), size,
			fmt_bytes(b2, sizeof(b2), (double)r->need_size), r->need_size);
		close(fd);
		return -EXIT_USAGE;
	}
	t->size = size;
	t->lbs = (unsigned)lbs;
	dio_align(fd, &mem, &off);
	if (off > t->lbs)
		t->lbs = off;
	t->dio_mem_align = mem ? mem : t->lbs;
	if (fstat(fd, &st)) {
		msg_err("cannot stat %s: %s", t->path, strerror(errno));
		close(fd);
		return -EXIT_IOERR;
	}
	t->rdev = st.st_rdev;
	blockdev_name(st.st_rdev, t->device, sizeof(t->device));
	if (excl)
		hold_exclusive(t->rdev, true);
	t->excl = excl;
	t->fd = fd;
	return 0;
}

static int create_file(struct target *t, const struct target_req *r)
{
	char dir[PATH_MAX], *slash;
	struct stat st;
	int fd;

	snprintf(dir, sizeof(dir), "%s", t->path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		msg_err("cannot create %s: directory %s does not exist", t->path, dir);
		return -EXIT_USAGE;
	}
	fd = open(t->path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0644);
	if (fd < 0) {
		msg_err("cannot create %s: %s", t->path, strerror(errno));
		return -EXIT_USAGE;
	}
	t->created = true;
	cleanup_register(t->path);
	fsetxattr(fd, CREATED_XATTR, "1", 1, 0); /* best effort: tmpfs may refuse user.* */
	if (!fstat(fd, &st))
		own_add(&st);
	close(fd);
	return lay_out_if_needed(t, r, (r->reads || r->writes) && r->need_size > 0);
}

static int prepare_existing_file(struct target *t, const struct target_req *r,
				 const struct stat *st)
{
	/* No size given: the job covers the file as it is, holes included. */
	struct target_req whole = *r;
	if (!whole.need_size)
		whole.need_size = (uint64_t)st->st_size;
	r = &whole;

	uint64_t limit = (uint64_t)st->st_size < r->need_size ? (uint64_t)st->st_size : r->need_size;
	bool own, needs_layout;
	int fd;

	fd = open(t->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		msg_err("cannot open %s: %s", t->path, strerror(errno));
		return -EXIT_USAGE;
	}
	own = created_by_us(fd) || own_this_run(st);
	needs_layout = (r->reads || r->writes) && r->need_size > 0 &&
		       ((uint64_t)st->st_size < r->need_size || has_holes(fd, st, limit));
	close(fd);
	if (!own && !r->allow_overwrite) {
		if (r->writes) {
			msg_err("refusing to write %s: the file exists and was not created by iogauge (use --allow-overwrite to overwrite it)",
				t->path);
			return -EXIT_USAGE;
		}
		if (needs_layout) {
			msg_err("refusing to lay out %s: the file exists, was not created by iogauge and %s (use --allow-overwrite to fill it with test data)",
				t->path,
				(uint64_t)st->st_size < r->need_size ? "is shorter than the job's range"
								     : "has holes or unwritten extents");
			return -EXIT_USAGE;
		}
	}
	return lay_out_if_needed(t, r, needs_layout);
}

static int finish_file(struct target *t, const struct target_req *r)
{
	unsigned mem, off;
	uint64_t v;
	struct stat st;
	int fd;

	fd = open(t->path, (r->writes ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0) {
		msg_err("cannot open %s: %s", t->path, strerror(errno));
		return -EXIT_USAGE;
	}
	if (fstat(fd, &st)) {
		msg_err("cannot stat %s: %s", t->path, strerror(errno));
		close(fd);
		return -EXIT_IOERR;
	}
	t->size = (uint64_t)st.st_size;
	blockdev_of_path(t->path, t->device, sizeof(t->device), t->fstype, sizeof(t->fstype),
			 t->mountpoint, sizeof(t->mountpoint));
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

/* O_DIRECT refused with EINVAL (tmpfs, some FUSE): buffered, the caller says so. */
static int check_direct(struct target *t, const struct target_req *r)
{
	int fd;

	t->direct = false;
	if (!r->direct)
		return 0;
	fd = open(t->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && errno == EINVAL)
		return 0;
	if (fd < 0) {
		msg_err("cannot open %s with O_DIRECT: %s", t->path, strerror(errno));
		return -EXIT_USAGE;
	}
	close(fd);
	t->direct = true;
	return 0;
}

int target_prepare(struct target *t, const struct target_req *r)
{
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (!r->path || !r->path[0]) {
		msg_err("no file name for the job's target");
		return -EXIT_USAGE;
	}
	if (strlen(r->path) >= sizeof(t->path)) {
		msg_err("file name too long: %.64s...", r->path);
		return -EXIT_USAGE;
	}
	snprintf(t->path, sizeof(t->path), "%s", r->path);

	if (!stat(t->path, &st)) {
		if (S_ISBLK(st.st_mode)) {
			ret = prepare_blockdev(t, r);
			if (!ret)
				ret = check_direct(t, r);
			if (ret)
				target_close(t);
			return ret;
		}
		if (!S_ISREG(st.st_mode)) {
			msg_err("%s is not a regular file or a block device", t->path);
			return -EXIT_USAGE;
		}
		ret = prepare_existing_file(t, r, &st);
	} else if (errno == ENOENT) {
		ret = create_file(t, r);
	} else {
		msg_err("cannot access %s: %s", t->path, strerror(errno));
		return -EXIT_USAGE;
	}
	if (!ret)
		ret = check_direct(t, r);
	if (!ret)
		ret = finish_file(t, r);
	return ret;
}

int target_open_fd(const struct target *t, bool direct, int sync_flags, bool writes)
{
	int fd = open(t->path,
		      (writes ? O_RDWR : O_RDONLY) | (direct ? O_DIRECT : 0) | sync_flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->excl)
		hold_exclusive(t->rdev, false);
	t->excl = false;
}

uint64_t target_invalidate(int fd, uint64_t off, uint64_t len)
{
	uint64_t start = now_ns();

	posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED);
	return now_ns() - start;
}

int64_t target_resident(int fd, uint64_t off, uint64_t len)
{
	uint64_t ps = page_size(), pos, end = off + len, total = 0;
	unsigned char *vec;

	if (!len)
		return 0;
	vec = malloc(RESIDENT_CHUNK / ps);
	if (!vec)
		return -1;
	for (pos = off & ~(ps - 1); pos < end; pos += RESIDENT_CHUNK) {
		uint64_t n = end - pos < RESIDENT_CHUNK ? end - pos : RESIDENT_CHUNK;
		uint64_t pages = (n + ps - 1) / ps, i, lo, hi;
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
		for (i = 0; i < pages; i++) {
			if (!(vec[i] & 1))
				continue;
			/* Count only the part of the page inside [off, end). */
			lo = pos + i * ps;
			hi = lo + ps;
			if (lo < off)
				lo = off;
			if (hi > end)
				hi = end;
			total += hi - lo;
		}
		munmap(p, (size_t)n);
	}
	free(vec);
	return (int64_t)total;
}
