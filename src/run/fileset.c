/* File sets: tree geometry, item paths, the root directory and a thread's untimed preparation. */
#include "base/common.h"
#include "base/devinfo.h"
#include "run/fileset.h"
#include "base/stale.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>


void fileset_geometry(struct fileset *fs, const struct job *j)
{
	memset(fs, 0, sizeof(*fs));
	fs->dirfd = -1;
	fs->own = j->nrfiles;
	fs->nitems = j->plan.fileset_items ? j->plan.fileset_items : j->nrfiles;
	fs->first = j->plan.item_first;
	fs->step = j->plan.item_step ? j->plan.item_step : 1;
	fs->per_dir = j->files_per_dir;
	fs->fanout = j->dir_fanout;
	fs->size_lo = j->filesize[0];
	fs->size_hi = j->filesize[1];
	if (!fs->per_dir || !fs->nitems)
		return;
	fs->nleaves = (fs->nitems + fs->per_dir - 1) / fs->per_dir;
	fs->depth = 1;
	if (fs->fanout < 2)
		return;
	for (uint64_t cap = fs->fanout; cap < fs->nleaves; cap *= fs->fanout) {
		fs->depth++;
		if (cap > UINT64_MAX / fs->fanout)
			break; /* fanout^depth already exceeds any count */
	}
}

uint64_t fileset_dirs(const struct fileset *fs)
{
	if (!fs->depth)
		return 0;
	/* Every level holds at most as many directories as there are leaves. */
	return fs->nleaves * fs->depth;
}

static size_t put_u64(char *p, uint64_t v)
{
	char tmp[24];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

/* The directory components of leaf `leaf`, most significant first. */
static unsigned leaf_digits(const struct fileset *fs, uint64_t leaf, uint64_t *d)
{
	if (fs->fanout < 2) {
		d[0] = leaf;
		return 1;
	}
	for (unsigned i = fs->depth; i-- > 0;) {
		d[i] = leaf % fs->fanout;
		leaf /= fs->fanout;
	}
	return fs->depth;
}

size_t fileset_item_path(const struct fileset *fs, uint64_t idx, char *buf)
{
	size_t k = 0;
	if (fs->depth) {
		uint64_t d[64];
		unsigned n = leaf_digits(fs, idx / fs->per_dir, d);
		for (unsigned i = 0; i < n; i++) {
			buf[k++] = 'd';
			k += put_u64(buf + k, d[i]);
			buf[k++] = '/';
		}
	}
	buf[k++] = 'f';
	k += put_u64(buf + k, idx);
	buf[k] = 0;
	return k;
}

uint64_t fileset_item_size(const struct fileset *fs, uint64_t idx)
{
	if (fs->size_lo == fs->size_hi)
		return fs->size_lo;
	/* splitmix64 of the number: the same size every time the item is met. */
	uint64_t z = idx + 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return fs->size_lo + z % (fs->size_hi - fs->size_lo + 1);
}

void fileset_describe(const struct job *j, const char *root, unsigned thread, uint64_t idx,
		      char *buf, size_t len)
{
	struct fileset fs;
	char item[FILESET_PATH_MAX];
	fileset_geometry(&fs, j);
	fileset_item_path(&fs, idx, item);
	snprintf(buf, len, "%s/t%u/%s", root, thread, item);
}

/* ---- the root directory */

/* Created in this run, or marked by an iogauge that created it (stale.h). */
static bool is_ours(const char *path, const struct stat *st, const struct run_ctx *c)
{
	char v[128];
	if (ctx_claimed(c, st->st_dev, st->st_ino))
		return true;
	ssize_t n = getxattr(path, IOGAUGE_XATTR, v, sizeof(v));
	return n > 0 && stale_is_marker(v, (size_t)n);
}

/* A directory (not a link to one) with anything in it. */
static bool dir_holds_any(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	bool any = false;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	for (struct dirent *de; !any && (de = readdir(d));)
		any = strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return any;
}

/*
 * A directory this run did not make that holds a thread's items already (kept
 * with --keep, or another run's still going): creating them would fail on the
 * first (EEXIST) mid-run.  Said before, with what to remove.
 */
static int earlier_items(const char *root, const struct job *j, struct ig_err *e)
{
	if (j->fileop != FILEOP_CREATE && j->fileop != FILEOP_MKDIR)
		return 0;
	for (unsigned t = 0; t < j->numjobs; t++) {
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%s/t%u", root, t);
		if (!dir_holds_any(dir))
			continue;
		return err_set(e, EXIT_USAGE,
			       "job %s: %s holds the items of an earlier run (%s), which --fileop=%s would make again: remove it (rm -r %s) or give another --filename",
			       j->name, root, dir, j->fileop == FILEOP_CREATE ? "create" : "mkdir", root);
	}
	return 0;
}

static int check_room(const char *root, const struct job *j, struct ig_err *e)
{
	struct fileset fs;
	struct statvfs sv;
	char b1[32], b2[32];
	fileset_geometry(&fs, j);
	if (statvfs(root, &sv))
		return err_set(e, EXIT_USAGE, "%s: %s", root, strerror(errno));
	bool files = j->fileop != FILEOP_MKDIR && j->fileop != FILEOP_RMDIR;
	uint64_t items = fs.nitems * j->numjobs, dirs = (fileset_dirs(&fs) + 1) * j->numjobs;
	if (sv.f_files && items + dirs > (uint64_t)sv.f_favail)
		return err_set(e, EXIT_IOERR,
			       "not enough free inodes in %s for %" PRIu64 " items and %" PRIu64
			       " directories: %" PRIu64 " free",
			       root, items, dirs, (uint64_t)sv.f_favail);
	if (!sv.f_blocks)
		return 0; /* no size reported (ramfs): a full disk would show as ENOSPC */
	uint64_t bsize = sv.f_frsize ? sv.f_frsize : 4096;
	uint64_t per_file = files ? (fs.size_hi + bsize - 1) / bsize * bsize : 0;
	uint64_t need = items * per_file + dirs * bsize, avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (need > avail)
		return err_set(e, EXIT_IOERR, "not enough free space in %s for the file set: %s needed, %s free",
			       root, fmt_bytes(b1, sizeof(b1), (double)need), fmt_bytes(b2, sizeof(b2), (double)avail));
	return 0;
}

int fileset_prepare_root(struct run_ctx *c, struct target *t, const char *root,
			 const struct job *j, bool allow_overwrite, struct ig_err *e)
{
	struct stat st;
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (snprintf(t->path, sizeof(t->path), "%s", root) >= (int)sizeof(t->path) - 64)
		return err_set(e, EXIT_USAGE, "job %s: the file set's path is too long", j->name);
	if (!lstat(root, &st)) {
		if (!S_ISDIR(st.st_mode))
			return err_set(e, EXIT_USAGE,
				       "job %s: --fileop works in a directory, and %s is not one", j->name, root);
		if (!is_ours(root, &st, c) && !allow_overwrite)
			return err_set(e, EXIT_USAGE,
				       "refusing to work in %s: the directory exists and was not created by iogauge (use " ALLOW_OVERWRITE_HOW " to create and remove items in it)",
				       root);
		if (!ctx_claimed(c, st.st_dev, st.st_ino) && earlier_items(root, j, e))
			return -1;
	} else if (errno != ENOENT) {
		return err_set(e, EXIT_USAGE, "%s: %s", root, strerror(errno));
	} else {
		if (mkdir(root, 0755))
			return err_set(e, EXIT_USAGE, "cannot create the directory %s: %s", root, strerror(errno));
		if (ctx_register_tree(c, root)) {
			rmdir(root);
			return err_set(e, EXIT_IOERR, "out of memory registering %s for removal", root);
		}
		t->created = true;
		char mark[128];
		stale_marker(mark, sizeof(mark));
		setxattr(root, IOGAUGE_XATTR, mark, strlen(mark), 0); /* best effort: tmpfs may refuse user.* */
		if (!stat(root, &st))
			ctx_claim(c, st.st_dev, st.st_ino);
	}
	if (check_room(root, j, e))
		return -1;
	blockdev_of_path(root, t->device, sizeof(t->device), t->fstype, sizeof(t->fstype),
			 t->mountpoint, sizeof(t->mountpoint));
	return 0;
}

int fileset_follow_root(struct target *t, const char *root, const struct job *j, struct ig_err *e)
{
	struct stat st;
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	snprintf(t->path, sizeof(t->path), "%s", root);
	int rc = lstat(root, &st) ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (rc)
		return err_set(e, EXIT_IOERR, "job %s: %s: the file set's directory, made by rank 0: %s",
			       j->name, root, strerror(rc));
	blockdev_of_path(root, t->device, sizeof(t->device), t->fstype, sizeof(t->fstype),
			 t->mountpoint, sizeof(t->mountpoint));
	return 0;
}

/* ---- a thread's preparation (untimed) */

/* mkdirat, with an existing directory being fine. */
static int make_dir(int dirfd, const char *path)
{
	if (!mkdirat(dirfd, path, 0755) || errno == EEXIST)
		return 0;
	return -errno;
}

/* Every directory of the tree, level by level as the leaf number changes: no repeats. */
static int make_tree(const struct fileset *fs, volatile sig_atomic_t *stop)
{
	uint64_t prev[64], d[64];
	char path[FILESET_PATH_MAX];
	for (uint64_t leaf = 0; leaf < fs->nleaves; leaf++) {
		if (*stop)
			return -EINTR;
		unsigned n = leaf_digits(fs, leaf, d);
		size_t k = 0;
		bool changed = leaf == 0;
		for (unsigned i = 0; i < n; i++) {
			path[k++] = 'd';
			k += put_u64(path + k, d[i]);
			path[k] = 0;
			changed |= d[i] != prev[i];
			if (changed) {
				int rc = make_dir(fs->dirfd, path);
				if (rc)
					return rc;
			}
			prev[i] = d[i];
			path[k++] = '/';
		}
	}
	return 0;
}

static int write_all(int fd, const void *buf, size_t buflen, uint64_t size)
{
	while (size) {
		size_t n = size < buflen ? (size_t)size : buflen;
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -ENOSPC;
		size -= (uint64_t)w;
	}
	return 0;
}

/* The items an operation on existing items needs, made where missing. */
static int make_items(const struct fileset *fs, bool dirs, void *buf, size_t buflen,
		      volatile sig_atomic_t *stop, uint64_t *made)
{
	char path[FILESET_PATH_MAX];
	struct stat st;
	for (uint64_t k = 0; k < fs->own; k++) {
		uint64_t i = fs->first + k * fs->step; /* this thread's (this rank's) own items */
		if (*stop)
			return -EINTR;
		fileset_item_path(fs, i, path);
		if (!fstatat(fs->dirfd, path, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (errno != ENOENT)
			return -errno;
		int rc = 0;
		if (dirs) {
			rc = make_dir(fs->dirfd, path);
		} else {
			int fd = openat(fs->dirfd, path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
			if (fd < 0)
				return -errno;
			rc = write_all(fd, buf, buflen, fileset_item_size(fs, i));
			if (close(fd) && !rc)
				rc = -errno;
		}
		if (rc)
			return rc;
		(*made)++;
	}
	return 0;
}

int fileset_open_thread(struct fileset *fs, const char *root, unsigned thread, int op,
			void *buf, size_t buflen, volatile sig_atomic_t *stop, uint64_t *made)
{
	char dir[32];
	*made = 0;
	int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -errno;
	snprintf(dir, sizeof(dir), "t%u", thread);
	int rc = make_dir(rootfd, dir);
	fs->dirfd = rc ? -1 : openat(rootfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!rc && fs->dirfd < 0)
		rc = -errno;
	close(rootfd);
	if (!rc)
		rc = make_tree(fs, stop);
	if (!rc && op != IO_CREATE && op != IO_MKDIR)
		rc = make_items(fs, op == IO_RMDIR || fs->dir_items, buf, buflen, stop, made);
	return rc;
}
