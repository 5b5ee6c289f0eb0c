/* A tree read: the walk, the items and their split among streams, opening and uncaching them (tree.h). */
#include "base/common.h"
#include "base/devinfo.h"
#include "run/tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ITEM_WEIGHT 4096 /* a file's open and close, in bytes, when splitting the items */

void tree_job_init(struct tree_job *t)
{
	memset(t, 0, sizeof(*t));
	t->rootfd = -1;
}

void tree_job_free(struct tree_job *t)
{
	if (t->rootfd >= 0)
		close(t->rootfd);
	free(t->items);
	free(t->dirs);
	free(t->arena);
	free(t->digests);
	free(t->have);
	tree_job_init(t);
}

/* ---- opening below the root */

/* openat2 (Linux 5.6) resolves below the root alone; without it, O_NOFOLLOW guards the last step. */
static int no_openat2;

static int open_below(int rootfd, const char *path, int flags)
{
	if (!__atomic_load_n(&no_openat2, __ATOMIC_RELAXED)) {
		struct open_how how = { .flags = (uint64_t)flags,
					.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV };
		long fd = syscall(SYS_openat2, rootfd, path, &how, sizeof(how));
		if (fd >= 0)
			return (int)fd;
		if (errno != ENOSYS)
			return -errno;
		__atomic_store_n(&no_openat2, 1, __ATOMIC_RELAXED);
	}
	int fd = openat(rootfd, path, flags | O_NOFOLLOW);
	return fd < 0 ? -errno : fd;
}

static int open_noatime(int rootfd, const char *path, int flags)
{
	/* O_NOATIME: the owner's or CAP_FOWNER's; anyone else reads without it. */
	int fd = open_below(rootfd, path, flags | O_NOATIME);
	return fd == -EPERM ? open_below(rootfd, path, flags) : fd;
}

int tree_open(const struct tree_job *t, const char *path)
{
	return open_noatime(t->rootfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
}

/* ---- the arena, directories and items */

static uint64_t arena_put(struct tree_job *t, const char *s, size_t n)
{
	if (t->arena_len + n + 1 > t->arena_cap) {
		uint64_t cap = t->arena_cap ? t->arena_cap : 1 << 16;
		while (cap < t->arena_len + n + 1)
			cap *= 2;
		char *a = realloc(t->arena, cap);
		if (!a)
			return UINT64_MAX;
		t->arena = a;
		t->arena_cap = cap;
	}
	uint64_t at = t->arena_len;
	memcpy(t->arena + at, s, n);
	t->arena[at + n] = 0;
	t->arena_len += n + 1;
	return at;
}

static int grow(void **p, uint64_t *cap, uint64_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	uint64_t c = *cap ? *cap * 2 : 1024;
	void *q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static int add_dir(struct tree_job *t, const char *rel, size_t n, uint32_t *idx)
{
	if (t->ndirs >= UINT32_MAX || grow((void **)&t->dirs, &t->capdirs, t->ndirs + 1, sizeof(uint64_t)))
		return -1;
	uint64_t at = arena_put(t, rel, n);
	if (at == UINT64_MAX)
		return -1;
	*idx = (uint32_t)t->ndirs;
	t->dirs[t->ndirs++] = at;
	return 0;
}

/* A regular file: an item per GiB (one for an empty file). */
static int add_file(struct tree_job *t, uint32_t dir, const char *name, uint64_t size)
{
	uint64_t nseg = size ? (size + TREE_SEGMENT - 1) / TREE_SEGMENT : 1;
	if (nseg > TREE_LAST || grow((void **)&t->items, &t->capitems, t->nitems + nseg, sizeof(struct tree_item)))
		return -1;
	uint64_t at = arena_put(t, name, strlen(name));
	if (at == UINT64_MAX)
		return -1;
	for (uint64_t s = 0; s < nseg; s++) {
		struct tree_item *it = &t->items[t->nitems++];
		it->name = at;
		it->dir = dir;
		it->size = s + 1 < nseg ? TREE_SEGMENT : size - s * TREE_SEGMENT;
		it->seg = (uint32_t)s | (s + 1 == nseg ? TREE_LAST : 0);
	}
	t->walk.files++;
	t->walk.bytes += size;
	t->walk.items += nseg;
	return 0;
}

size_t tree_item_path(const struct tree_job *t, uint64_t item, char *buf)
{
	const struct tree_item *it = &t->items[item];
	const char *dir = t->arena + t->dirs[it->dir], *name = t->arena + it->name;
	size_t dl = strlen(dir), nl = strlen(name);
	if (dl + nl + 2 > PATH_MAX)
		return 0;
	if (dl) {
		memcpy(buf, dir, dl);
		buf[dl++] = '/';
	}
	memcpy(buf + dl, name, nl + 1);
	return dl + nl;
}

void tree_describe(const struct tree_job *t, uint64_t item, char *buf, size_t len)
{
	char rel[PATH_MAX];
	if (item >= t->nitems || !tree_item_path(t, item, rel))
		snprintf(buf, len, "%s", t->root);
	else
		snprintf(buf, len, "%s/%s", t->root, rel);
}

/* ---- the walk */

struct walker {
	struct tree_job *t;
	dev_t dev;
	volatile sig_atomic_t *stop;
	struct ig_err *e;
};

static void unreadable(struct tree_job *t, const char *rel, uint64_t *count)
{
	if (!(*count)++ &&
	    (size_t)snprintf(t->walk.first_unreadable, sizeof(t->walk.first_unreadable), "%s/%s", t->root, rel) >=
		    sizeof(t->walk.first_unreadable))
		t->walk.first_unreadable[sizeof(t->walk.first_unreadable) - 4] = 0; /* cut: still says where */
}

/* A directory's names, as readdir gives them ("." and ".." left out): a NUL-separated list. */
static int list_names(int fd, char **names, size_t *len)
{
	DIR *d = fdopendir(fd);
	size_t cap = 4096;
	*len = 0;
	*names = NULL;
	if (!d) {
		close(fd);
		return -errno;
	}
	char *buf = malloc(cap);
	struct dirent *de;
	errno = 0;
	while (buf && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		size_t n = strlen(de->d_name) + 1;
		if (*len + n > cap) {
			char *b = realloc(buf, cap * 2 > *len + n ? cap * 2 : *len + n);
			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
			cap = cap * 2 > *len + n ? cap * 2 : *len + n;
		}
		memcpy(buf + *len, de->d_name, n);
		*len += n;
	}
	int err = !buf ? ENOMEM : errno;
	closedir(d);
	*names = buf;
	return err ? -err : 0;
}

static int walk_dir(struct walker *w, const char *rel, uint32_t dir);

/* One entry of a directory: counted, listed (a file) or entered (a directory). */
static int walk_entry(struct walker *w, const char *rel, size_t rl, const char *name, uint32_t dir)
{
	struct tree_job *t = w->t;
	char path[PATH_MAX];
	struct stat st;
	size_t nl = strlen(name);
	if (rl + nl + 2 > sizeof(path)) {
		unreadable(t, name, &t->walk.unreadable); /* too deep to name */
		return 0;
	}
	memcpy(path, rel, rl);
	if (rl)
		path[rl++] = '/';
	memcpy(path + rl, name, nl + 1);
	if (fstatat(t->rootfd, path, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno == ENOENT || errno == ENOTDIR) {
			t->walk.vanished++;
			return 0;
		}
		unreadable(t, path, &t->walk.unreadable);
		return 0;
	}
	if (S_ISREG(st.st_mode))
		return add_file(t, dir, name, (uint64_t)st.st_size) ? err_set(w->e, EXIT_IOERR, "out of memory listing %s", t->root) : 0;
	if (S_ISDIR(st.st_mode)) {
		if (st.st_dev != w->dev) {
			t->walk.other_fs++;
			return 0;
		}
		return walk_dir(w, path, UINT32_MAX);
	}
	t->walk.symlinks += S_ISLNK(st.st_mode);
	t->walk.fifos += S_ISFIFO(st.st_mode);
	t->walk.sockets += S_ISSOCK(st.st_mode);
	t->walk.chardevs += S_ISCHR(st.st_mode);
	t->walk.blockdevs += S_ISBLK(st.st_mode);
	return 0;
}

/* A directory (rel below the root, "" the root): its files, then (depth first, in place) its directories. */
static int walk_dir(struct walker *w, const char *rel, uint32_t dir)
{
	struct tree_job *t = w->t;
	if (*w->stop)
		return err_set(w->e, 128 + (int)*w->stop, "interrupted while listing %s", t->root);
	int fd = open_noatime(t->rootfd, rel[0] ? rel : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		if (fd == -ENOENT || fd == -ENOTDIR)
			t->walk.vanished++;
		else if (fd == -EXDEV)
			t->walk.other_fs++;
		else
			unreadable(t, rel, &t->walk.unreadable);
		return 0;
	}
	char *names;
	size_t len;
	int rc = list_names(fd, &names, &len);
	if (rc == -ENOMEM)
		return err_set(w->e, EXIT_IOERR, "out of memory listing %s", t->root);
	if (rc) {
		unreadable(t, rel, &t->walk.unreadable);
		free(names);
		return 0;
	}
	t->walk.dirs++;
	if (dir == UINT32_MAX && add_dir(t, rel, strlen(rel), &dir)) {
		free(names);
		return err_set(w->e, EXIT_IOERR, "out of memory listing %s", t->root);
	}
	size_t rl = strlen(rel);
	for (size_t k = 0; k < len && !rc; k += strlen(names + k) + 1)
		rc = walk_entry(w, rel, rl, names + k, dir);
	free(names);
	return rc;
}

int tree_walk(struct tree_job *t, volatile sig_atomic_t *stop, struct ig_err *e)
{
	struct stat st;
	uint64_t start = now_ns();
	if (t->rootfd < 0) {
		int fd = open(t->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOATIME);
		if (fd < 0 && errno == EPERM)
			fd = open(t->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return err_set(e, EXIT_USAGE, "%s: %s", t->root, strerror(errno));
		t->rootfd = fd;
	}
	if (fstat(t->rootfd, &st))
		return err_set(e, EXIT_USAGE, "%s: %s", t->root, strerror(errno));
	struct walker w = { t, st.st_dev, stop, e };
	uint32_t root;
	if (add_dir(t, "", 0, &root))
		return err_set(e, EXIT_IOERR, "out of memory listing %s", t->root);
	int rc = walk_dir(&w, "", root);
	t->walk.walk_ns = now_ns() - start;
	t->walked = !rc;
	return rc;
}

/* ---- the split */

void tree_split(struct tree_job *t, unsigned n)
{
	uint64_t total = t->walk.bytes + t->nitems * ITEM_WEIGHT, acc = 0, i = 0;
	if (n < 1)
		n = 1;
	if (n > TREE_MAX_THREADS)
		n = TREE_MAX_THREADS;
	t->nstreams = n;
	t->bounds[0] = 0;
	for (unsigned th = 1; th < n; th++) {
		uint64_t want = (uint64_t)((unsigned __int128)total * th / n);
		while (i < t->nitems && acc + t->items[i].size + ITEM_WEIGHT <= want)
			acc += t->items[i++].size + ITEM_WEIGHT;
		/* Never inside a file: back to its first item. */
		uint64_t b = i;
		while (b > t->bounds[th - 1] && b < t->nitems && (t->items[b].seg & ~TREE_LAST))
			b--;
		t->bounds[th] = b;
	}
	t->bounds[n] = t->nitems;
}

/* ---- the page cache */

int64_t tree_drop_cache(struct tree_job *t, bool invalidate, const volatile sig_atomic_t *stop,
			uint64_t *ns)
{
	uint64_t start = now_ns();
	int64_t resident = 0;
	bool known = false;
	char path[PATH_MAX];
	for (uint64_t i = 0; i < t->nitems && !*stop; i++) {
		const struct tree_item *it = &t->items[i];
		if (!tree_item_path(t, i, path))
			continue;
		int fd = tree_open(t, path);
		if (fd < 0)
			continue;
		struct stat st;
		uint64_t off = (uint64_t)(it->seg & ~TREE_LAST) * TREE_SEGMENT;
		if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
			if (invalidate)
				posix_fadvise(fd, (off_t)off, (off_t)it->size, POSIX_FADV_DONTNEED);
			int64_t r = target_resident(fd, off, it->size);
			if (r >= 0) {
				resident += r;
				known = true;
			}
		}
		close(fd);
	}
	*ns = now_ns() - start;
	resident = known || !t->nitems ? resident : -1;
	if (t->cur) {
		t->cur->resident = resident;
		t->cur->invalidate_ns = *ns;
	}
	return resident;
}

/* ---- before a tree job */

int tree_prepare(struct run_ctx *c, struct tree_job *t, unsigned nstreams, struct target *tg,
		 struct ig_err *e)
{
	memset(tg, 0, sizeof(*tg));
	tg->fd = -1;
	snprintf(tg->path, sizeof(tg->path), "%s", t->root);
	if (t->make && !t->built && tree_build(c, t, e))
		return -1;
	if (!t->walked && tree_walk(t, &c->stop, e))
		return -1;
	tree_split(t, nstreams);
	if (t->keep_digests && !t->digests && t->nitems) {
		t->digests = xcalloc(t->nitems, DIGEST_MAX);
		t->have = xcalloc(t->nitems, 1);
	}
	tg->size = t->walk.bytes;
	blockdev_of_path(t->root, tg->device, sizeof(tg->device), tg->fstype, sizeof(tg->fstype), tg->mountpoint,
			 sizeof(tg->mountpoint));
	return 0;
}
