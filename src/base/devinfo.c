/*
 * The block device beneath a path, the mount table, and the per-device
 * counters in /sys/class/block/<dev>/stat.
 */
#include "base/common.h"
#include "base/devinfo.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static void copy_str(char *dst, size_t len, const char *src)
{
	if (!len)
		return;
	snprintf(dst, len, "%s", src);
}

/* Undo the mountinfo escapes (\040 space, \011 tab, \012 newline, \134 backslash). */
static void unescape(char *dst, size_t len, const char *src)
{
	size_t o = 0;

	while (*src && o + 1 < len) {
		if (src[0] == '\\' && src[1] >= '0' && src[1] <= '3' && src[2] >= '0' &&
		    src[2] <= '7' && src[3] >= '0' && src[3] <= '7') {
			dst[o++] = (char)((src[1] - '0') * 64 + (src[2] - '0') * 8 + (src[3] - '0'));
			src += 4;
		} else {
			dst[o++] = *src++;
		}
	}
	dst[o] = '\0';
}

/* The mount's options, then the file system's own that are not already there (as mount(8) shows them). */
static void join_opts(char *dst, size_t len, const char *mnt, const char *super)
{
	char buf[512];
	size_t k = (size_t)snprintf(dst, len, "%s", mnt);
	snprintf(buf, sizeof(buf), "%s", super);
	char *save = NULL;
	for (char *o = strtok_r(buf, ",", &save); o && k < len; o = strtok_r(NULL, ",", &save)) {
		size_t n = strlen(o);
		const char *p = dst;
		bool dup = false;
		while ((p = strstr(p, o))) {
			if ((p == dst || p[-1] == ',') && (p[n] == ',' || !p[n])) {
				dup = true;
				break;
			}
			p += n;
		}
		if (!dup)
			k += (size_t)snprintf(dst + k, len - k, "%s%s", k ? "," : "", o);
	}
}

static int parse_mountinfo_line(char *line, struct mountent *m)
{
	char *save = NULL, *tok, *mnt = NULL;
	unsigned field = 0;
	bool dash = false;
	char *fstype = NULL, *source = NULL, *opts = NULL, *super = NULL;

	memset(m, 0, sizeof(*m));
	for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		field++;
		if (!dash) {
			if (field == 3) {
				if (sscanf(tok, "%u:%u", &m->major, &m->minor) != 2)
					return -1;
			} else if (field == 5) {
				mnt = tok;
			} else if (field == 6) {
				opts = tok;
			} else if (field > 6 && !strcmp(tok, "-")) {
				dash = true;
				field = 0;
			}
		} else if (field == 1) {
			fstype = tok;
		} else if (field == 2) {
			source = tok;
		} else if (field == 3) {
			super = tok;
			break;
		}
	}
	if (!mnt || !fstype)
		return -1;
	unescape(m->mnt, sizeof(m->mnt), mnt);
	unescape(m->fstype, sizeof(m->fstype), fstype);
	unescape(m->source, sizeof(m->source), source ? source : "");
	join_opts(m->opts, sizeof(m->opts), opts ? opts : "", super ? super : "");
	return 0;
}

int mountinfo_foreach(int (*fn)(const struct mountent *m, void *arg), void *arg)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	struct mountent *m;
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	if (!f)
		return -1;
	m = malloc(sizeof(*m));
	if (!m) {
		fclose(f);
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		if (parse_mountinfo_line(line, m))
			continue;
		ret = fn(m, arg);
		if (ret)
			break;
	}
	free(line);
	free(m);
	fclose(f);
	return ret;
}

int blockdev_name(dev_t rdev, char *name, size_t len)
{
	char link[64], target[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!*base || strlen(base) >= len)
		return -1;
	copy_str(name, len, base);
	return 0;
}

static int read_u64_file(const char *path, uint64_t *val)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%" SCNu64, val) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

int blockdev_sysfs_u64(const char *dev, const char *attr, uint64_t *val)
{
	char path[PATH_MAX];

	if (!*dev || strchr(dev, '/'))
		return -1;
	snprintf(path, sizeof(path), "/sys/class/block/%s/%s", dev, attr);
	if (!read_u64_file(path, val))
		return 0;
	/* A partition has no queue/: /sys/class/block/sda1/.. is the disk. */
	snprintf(path, sizeof(path), "/sys/class/block/%s/../%s", dev, attr);
	return read_u64_file(path, val);
}

/* A sysfs text attribute, trimmed; "" when missing. */
static void read_attr(const char *path, char *out, size_t len)
{
	out[0] = 0;
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(out, (int)len, f))
		out[0] = 0;
	fclose(f);
	size_t n = strlen(out);
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = 0;
	size_t k = 0;
	while (out[k] == ' ')
		k++;
	memmove(out, out + k, n - k + 1);
}

void blockdev_model(const char *dev, char *model, size_t mlen, char *fw, size_t flen)
{
	char path[PATH_MAX], base[256];
	model[0] = fw[0] = 0;
	if (!dev || !*dev || strchr(dev, '/') || strlen(dev) > 64)
		return;
	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", dev);
	/* A partition's attributes are its disk's: /sys/class/block/sda1/.. */
	snprintf(base, sizeof(base), access(path, F_OK) ? "/sys/class/block/%s" : "/sys/class/block/%s/..", dev);
	snprintf(path, sizeof(path), "%s/device/model", base);
	read_attr(path, model, mlen);
	snprintf(path, sizeof(path), "%s/device/firmware_rev", base);
	read_attr(path, fw, flen);
	if (!fw[0]) {
		snprintf(path, sizeof(path), "%s/device/rev", base);
		read_attr(path, fw, flen);
	}
}

struct mnt_search {
	const char *real;  /* realpath of the target */
	dev_t dev;         /* its st_dev */
	struct mountent best;
	size_t best_len;
	bool best_devmatch;
	bool found;
};

/* Is mount point mnt a prefix of path at a component boundary? */
static size_t mnt_prefix(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (n == 1 && mnt[0] == '/')
		return 1;
	if (strncmp(mnt, path, n) || (path[n] != '/' && path[n] != '\0'))
		return 0;
	return n;
}

static int mnt_search_cb(const struct mountent *m, void *arg)
{
	struct mnt_search *s = arg;
	size_t n = mnt_prefix(m->mnt, s->real);
	bool devmatch = makedev(m->major, m->minor) == s->dev;

	if (!n)
		return 0;
	/*
	 * The longest mount point over the path wins; among equals the later
	 * one (mounted on top).  A mount whose device matches st_dev beats a
	 * mismatching one only at the same length: a shorter matching one is
	 * hidden beneath.  btrfs reports anonymous device numbers, so a
	 * mismatch alone does not disqualify.
	 */
	if (!s->found || n > s->best_len || (n == s->best_len && (devmatch || !s->best_devmatch))) {
		s->best = *m;
		s->best_len = n;
		s->best_devmatch = devmatch;
		s->found = true;
	}
	return 0;
}

int blockdev_of_path(const char *path, char *name, size_t len, char *fstype, size_t fslen,
		     char *mnt, size_t mntlen)
{
	struct mnt_search *s;
	char *real, *tmp = NULL;
	struct stat st, sst;
	int ret = -1;

	copy_str(name, len, "");
	copy_str(fstype, fslen, "");
	copy_str(mnt, mntlen, "");

	if (stat(path, &st)) {
		/* Not created yet: the directory it will be created in. */
		char *slash;
		tmp = strdup(path);
		if (!tmp)
			return -1;
		slash = strrchr(tmp, '/');
		if (!slash)
			strcpy(tmp, ".");
		else if (slash == tmp)
			tmp[1] = '\0';
		else
			*slash = '\0';
		if (stat(tmp, &st)) {
			free(tmp);
			return -1;
		}
		path = tmp;
	}
	if (S_ISBLK(st.st_mode)) {
		ret = blockdev_name(st.st_rdev, name, len);
		free(tmp);
		return ret;
	}

	real = realpath(path, NULL);
	s = calloc(1, sizeof(*s));
	if (!real || !s)
		goto out;
	s->real = real;
	s->dev = st.st_dev;
	if (mountinfo_foreach(mnt_search_cb, s) < 0 || !s->found)
		goto out;
	copy_str(fstype, fslen, s->best.fstype);
	copy_str(mnt, mntlen, s->best.mnt);
	if (s->best.source[0] == '/' && !stat(s->best.source, &sst) && S_ISBLK(sst.st_mode) &&
	    !blockdev_name(sst.st_rdev, name, len))
		ret = 0;
	else if (!blockdev_name(st.st_dev, name, len))
		ret = 0;
out:
	free(s);
	free(real);
	free(tmp);
	return ret;
}

int devstat_read(const char *dev, struct devstat *d)
{
	char path[PATH_MAX];
	uint64_t v[11];
	FILE *f;
	int n;

	memset(d, 0, sizeof(*d));
	if (!*dev || strchr(dev, '/'))
		return -1;
	snprintf(path, sizeof(path), "/sys/class/block/%s/stat", dev);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fscanf(f,
		   "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
	fclose(f);
	if (n < 10)
		return -1;
	d->rd_ios = v[0];
	d->rd_sectors = v[2];
	d->wr_ios = v[4];
	d->wr_sectors = v[6];
	d->io_ticks_ms = v[9];
	d->rd_merges = v[1];
	d->rd_ticks_ms = v[3];
	d->wr_merges = v[5];
	d->wr_ticks_ms = v[7];
	d->in_queue_ms = n > 10 ? v[10] : 0;
	d->when_ns = now_ns();
	return 0;
}

struct compress_search {
	const char *mnt;
	char *out;
	size_t len;
};

static int compress_cb(const struct mountent *m, void *arg)
{
	struct compress_search *c = arg;
	if (strcmp(m->mnt, c->mnt))
		return 0;
	/* The last mount on a path is the one in effect: keep looking. */
	c->out[0] = 0;
	char opts[sizeof(m->opts)], *save = NULL;
	copy_str(opts, sizeof(opts), m->opts);
	for (char *o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save))
		if (!strncmp(o, "compress=", 9) || !strncmp(o, "compress-force=", 15))
			copy_str(c->out, c->len, strchr(o, '=') + 1);
	return 0;
}

int mount_compression(const char *mnt, char *out, size_t len)
{
	struct compress_search c = { mnt, out, len };
	out[0] = 0;
	if (!mnt[0] || mountinfo_foreach(compress_cb, &c) < 0)
		return -1;
	return 0;
}

struct mnt_find {
	const char *mnt;
	struct mountent m;
	bool found;
};

/* The last mount on mnt is the one that shows. */
static int mnt_find_cb(const struct mountent *m, void *arg)
{
	struct mnt_find *f = arg;
	if (!strcmp(m->mnt, f->mnt)) {
		f->m = *m;
		f->found = true;
	}
	return 0;
}

int path_facts(const char *path, struct path_facts *f)
{
	struct stat st;
	uint64_t v;

	memset(f, 0, sizeof(*f));
	f->rotational = -1;
	if (stat(path, &st))
		return -1;
	if (S_ISBLK(st.st_mode)) {
		f->is_dev = true;
		blockdev_name(st.st_rdev, f->device, sizeof(f->device));
		if (!blockdev_sysfs_u64(f->device, "size", &v))
			f->size = v * 512;
	} else {
		if (blockdev_of_path(path, f->device, sizeof(f->device), f->fstype, sizeof(f->fstype),
				     f->mnt, sizeof(f->mnt)) < 0 && !f->mnt[0])
			return -1;
		struct mnt_find *mf = calloc(1, sizeof(*mf));
		if (!mf)
			return -1;
		mf->mnt = f->mnt;
		if (!mountinfo_foreach(mnt_find_cb, mf) && mf->found) {
			char *real = mf->m.source[0] == '/' ? realpath(mf->m.source, NULL) : NULL;
			copy_str(f->source, sizeof(f->source), real ? real : mf->m.source);
			copy_str(f->mntopts, sizeof(f->mntopts), mf->m.opts);
			free(real);
		}
		free(mf);
		struct statvfs sv;
		if (!statvfs(path, &sv))
			f->size = (uint64_t)sv.f_blocks * sv.f_frsize;
	}
	if (f->device[0] && !blockdev_sysfs_u64(f->device, "queue/rotational", &v))
		f->rotational = v != 0;
	return 0;
}
