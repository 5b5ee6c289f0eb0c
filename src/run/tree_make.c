/*
 * --make-tree: a reproducible tree to read.  Files f<N> in leaf directories
 * of --tree-files-per-dir files, the leaves in directories of
 * --tree-fanout subdirectories (the file set's layout, fileset.h); sizes
 * log-uniform in --tree-filesize (many small files, a few large ones, as in
 * real trees); contents by --data (compress=N% makes compression ratios mean
 * something), every file's drawn from the seed and its number alone.  The
 * tree's directory is new, marked as iogauge's and registered for removal;
 * it is written back (syncfs) before anything is read, so its pages can be
 * dropped.  Not timed.
 */
#include "base/common.h"
#include "run/fileset.h"
#include "base/stale.h"
#include "run/tree.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#define WRITE_BUF (1u << 20)

static uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t tree_make_size(const struct tree_make *m, uint64_t i)
{
	if (m->size_lo >= m->size_hi)
		return m->size_lo;
	/* Log-uniform over [lo + 1, hi + 1], less one: empty files are possible. */
	double u = (double)(mix64(m->seed * 0x100000001b3ULL ^ i) >> 11) / 9007199254740992.0;
	double lo = log((double)m->size_lo + 1), hi = log((double)m->size_hi + 1);
	uint64_t v = (uint64_t)exp(lo + u * (hi - lo)) - 1;
	return v < m->size_lo ? m->size_lo : v > m->size_hi ? m->size_hi : v;
}

/* The file set's layout for these files: the same paths as --fileop's items. */
static void layout(const struct tree_make *m, struct fileset *fs)
{
	struct job j;
	memset(&j, 0, sizeof(j));
	j.nrfiles = m->files;
	j.files_per_dir = m->per_dir;
	j.dir_fanout = m->fanout;
	j.filesize[0] = m->size_lo;
	j.filesize[1] = m->size_hi;
	fileset_geometry(fs, &j);
}

static int check_room(const struct tree_job *t, const struct fileset *fs, struct ig_err *e)
{
	const struct tree_make *m = t->make;
	struct statvfs sv;
	char a[32], b[32];
	uint64_t need = 0;
	if (statvfs(t->root, &sv))
		return err_set(e, EXIT_USAGE, "%s: %s", t->root, strerror(errno));
	uint64_t bsize = sv.f_frsize ? sv.f_frsize : 4096;
	for (uint64_t i = 0; i < m->files; i++)
		need += (tree_make_size(m, i) + bsize - 1) / bsize * bsize;
	uint64_t dirs = fileset_dirs(fs) + 1;
	need += dirs * bsize;
	if (sv.f_files && m->files + dirs > (uint64_t)sv.f_favail)
		return err_set(e, EXIT_IOERR, "%s: not enough free inodes for %" PRIu64 " files: %" PRIu64 " free",
			       t->root, m->files, (uint64_t)sv.f_favail);
	uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (sv.f_blocks && need > avail)
		return err_set(e, EXIT_IOERR, "%s: not enough free space for the tree: %s needed, %s free", t->root,
			       fmt_bytes(a, sizeof(a), (double)need), fmt_bytes(b, sizeof(b), (double)avail));
	return 0;
}

/* Every directory above item i, made where missing. */
static int make_dirs(int rootfd, char *path)
{
	for (char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
		*p = 0;
		int rc = mkdirat(rootfd, path, 0755) && errno != EEXIST ? -errno : 0;
		*p = '/';
		if (rc)
			return rc;
	}
	return 0;
}

static int write_file(int rootfd, const char *path, uint64_t size, struct data_gen *g, unsigned char *buf)
{
	int fd = openat(rootfd, path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	int rc = 0;
	while (size && !rc) {
		size_t n = size < WRITE_BUF ? (size_t)size : WRITE_BUF;
		data_fill(g, buf, n);
		for (size_t off = 0; off < n;) {
			ssize_t w = write(fd, buf + off, n - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				rc = w < 0 ? -errno : -ENOSPC;
				break;
			}
			off += (size_t)w;
		}
		size -= n;
	}
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

static int make_root(struct run_ctx *c, struct tree_job *t, struct ig_err *e)
{
	if (mkdir(t->root, 0755))
		return err_set(e, errno == EEXIST ? EXIT_USAGE : EXIT_IOERR, "cannot create the directory %s: %s",
			       t->root, strerror(errno));
	if (ctx_register_tree(c, t->root)) {
		rmdir(t->root);
		return err_set(e, EXIT_IOERR, "out of memory registering %s for removal", t->root);
	}
	char mark[128];
	struct stat st;
	stale_marker(mark, sizeof(mark));
	setxattr(t->root, IOGAUGE_XATTR, mark, strlen(mark), 0); /* best effort: tmpfs may refuse user.* */
	if (!stat(t->root, &st))
		ctx_claim(c, st.st_dev, st.st_ino);
	return 0;
}

int tree_build(struct run_ctx *c, struct tree_job *t, struct ig_err *e)
{
	const struct tree_make *m = t->make;
	struct fileset fs;
	char path[FILESET_PATH_MAX];
	uint64_t start = now_ns();
	layout(m, &fs);
	if (make_root(c, t, e) || check_room(t, &fs, e))
		return -1;
	int rootfd = open(t->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return err_set(e, EXIT_IOERR, "%s: %s", t->root, strerror(errno));
	unsigned char *buf = xaligned(4096, WRITE_BUF);
	int rc = 0;
	uint64_t leaf = UINT64_MAX;
	for (uint64_t i = 0; i < m->files && !rc; i++) {
		if (c->stop) {
			rc = err_set(e, 128 + (int)c->stop, "interrupted while building the tree %s", t->root);
			break;
		}
		fileset_item_path(&fs, i, path);
		if (fs.per_dir && i / fs.per_dir != leaf) {
			leaf = i / fs.per_dir;
			int r = make_dirs(rootfd, path);
			if (r)
				rc = err_set(e, EXIT_IOERR, "%s/%s: cannot create its directory: %s", t->root, path,
					     strerror(-r));
		}
		struct data_gen g;
		uint64_t size = tree_make_size(m, i);
		data_init(&g, &m->data, mix64(m->seed ^ mix64(i)));
		int r = rc ? 0 : write_file(rootfd, path, size, &g, buf);
		if (r)
			rc = err_set(e, EXIT_IOERR, "%s/%s: %s", t->root, path, strerror(-r));
		t->build_bytes += r ? 0 : size;
	}
	/* Written back before the reads: dirty pages cannot be dropped from the cache. */
	if (!rc && syncfs(rootfd))
		rc = err_set(e, EXIT_IOERR, "%s: syncfs: %s", t->root, strerror(errno));
	free(buf);
	close(rootfd);
	t->build_ns = now_ns() - start;
	t->built = !rc;
	return rc;
}
