/*
 * The safety interlock before writing to a block device.
 *
 * Always refused, whatever the options: the device or one of its partitions
 * is mounted, is active swap, has holders (md, dm, bcache, ...), or is held
 * open exclusively by someone else (O_EXCL gives EBUSY: a file system
 * mounted in another namespace, a btrfs member, ...).  A partition target
 * is checked on its own, plus the holders of its disk.
 *
 * Refused unless --allow-destroy: libblkid finds a file system, swap, RAID,
 * LVM or crypto signature, or a partition table, on the device or on one of
 * its partitions.
 */
#include "common.h"
#include "ctx.h"
#include "devinfo.h"
#include "safety.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_PARTS 256

struct bdev {
	char name[64]; /* kernel name: "loop3", "sda1" */
	dev_t rdev;
};

static int read_devno(const char *path, dev_t *rdev)
{
	unsigned maj, min;
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%u:%u", &maj, &min) == 2;
	fclose(f);
	if (!ok)
		return -1;
	*rdev = makedev(maj, min);
	return 0;
}

/* Partitions of whole disk `disk`: /sys/class/block/<disk>/<disk>*\/dev. */
static int list_partitions(const char *disk, struct bdev *parts, int max)
{
	char dir[128], devfile[PATH_MAX];
	size_t dl = strlen(disk);
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/class/block/%s", disk);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		if (strncmp(de->d_name, disk, dl) || !de->d_name[dl] ||
		    strlen(de->d_name) >= sizeof(parts[n].name))
			continue;
		snprintf(devfile, sizeof(devfile), "%s/%s/dev", dir, de->d_name);
		if (read_devno(devfile, &parts[n].rdev))
			continue;
		memcpy(parts[n].name, de->d_name, strlen(de->d_name) + 1); /* length checked above */
		n++;
	}
	closedir(d);
	return n;
}

static bool is_partition(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", name);
	return access(path, F_OK) == 0;
}

/* Kernel name of the disk holding partition `name`, from the sysfs path. */
static int parent_disk(const char *name, char *parent, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	char *slash;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/class/block/%s", name);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = '\0';
	slash = strrchr(target, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	slash = strrchr(target, '/');
	if (!slash || strlen(slash + 1) >= len)
		return -1;
	snprintf(parent, len, "%s", slash + 1);
	return 0;
}

/* First entry of /sys/class/block/<name>/holders, or false when none. */
static bool first_holder(const char *name, char *holder, size_t len)
{
	char path[PATH_MAX];
	struct dirent *de;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/block/%s/holders", name);
	d = opendir(path);
	if (!d)
		return false;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(holder, len, "%s", de->d_name);
		found = true;
		break;
	}
	closedir(d);
	return found;
}

struct mount_find {
	dev_t rdev;
	char mnt[PATH_MAX];
};

static int mount_find_cb(const struct mountent *m, void *arg)
{
	struct mount_find *f = arg;
	struct stat st;

	if (makedev(m->major, m->minor) == f->rdev ||
	    (m->source[0] == '/' && !stat(m->source, &st) && S_ISBLK(st.st_mode) &&
	     st.st_rdev == f->rdev)) {
		snprintf(f->mnt, sizeof(f->mnt), "%s", m->mnt);
		return 1;
	}
	return 0;
}

static bool is_swap(dev_t rdev)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[PATH_MAX + 128], *sp;
	bool found = false;
	struct stat st;

	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f)) { /* header */
		fclose(f);
		return false;
	}
	while (!found && fgets(line, sizeof(line), f)) {
		sp = strpbrk(line, " \t");
		if (sp)
			*sp = '\0';
		if (line[0] == '/' && !stat(line, &st) && S_ISBLK(st.st_mode) && st.st_rdev == rdev)
			found = true;
	}
	fclose(f);
	return found;
}

/* /dev/<name> when that node exists and is this device; -1 otherwise. */
static int dev_node(const struct bdev *b, char *path, size_t len)
{
	struct stat st;

	snprintf(path, len, "/dev/%s", b->name);
	if (stat(path, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != b->rdev)
		return -1;
	return 0;
}

/* "its partition loop3p1" or "it" when b is the target itself. */
static const char *who(const struct bdev *b, const struct bdev *target, char *buf, size_t len)
{
	if (b == target)
		return "it";
	snprintf(buf, len, "its partition %s", b->name);
	return buf;
}

/* Mounted, swap or held by md/dm: refused even with --allow-destroy. */
static int check_in_use(const char *dev, const struct bdev *b, const struct bdev *target,
			struct ig_err *e)
{
	char w[96], holder[256];
	struct mount_find *mf;
	int rc;

	mf = calloc(1, sizeof(*mf));
	if (!mf) {
		err_set(e, EXIT_USAGE, "refusing to write %s: out of memory while checking mounts", dev);
		return -1;
	}
	mf->rdev = b->rdev;
	rc = mountinfo_foreach(mount_find_cb, mf);
	if (rc < 0) {
		free(mf);
		err_set(e, EXIT_USAGE, "refusing to write %s: cannot read /proc/self/mountinfo: %s", dev,
			strerror(errno));
		return -1;
	}
	if (rc > 0) {
		err_set(e, EXIT_USAGE, "refusing to write %s: %s is mounted on %s (never overwritten, even with --allow-destroy)",
			dev, who(b, target, w, sizeof(w)), mf->mnt);
		free(mf);
		return -1;
	}
	free(mf);
	if (is_swap(b->rdev)) {
		err_set(e, EXIT_USAGE, "refusing to write %s: %s is active swap (never overwritten, even with --allow-destroy)",
			dev, who(b, target, w, sizeof(w)));
		return -1;
	}
	if (first_holder(b->name, holder, sizeof(holder))) {
		err_set(e, EXIT_USAGE, "refusing to write %s: %s is in use by %s (md, dm, bcache or similar; never overwritten, even with --allow-destroy)",
			dev, who(b, target, w, sizeof(w)), holder);
		return -1;
	}
	return 0;
}

/*
 * Held open exclusively by someone else (a mount in another namespace, a
 * btrfs or md member, ...): refused even with --allow-destroy.
 */
static int check_exclusive(const struct run_ctx *c, const char *dev, const struct bdev *b,
			   const struct bdev *target, const dev_t *ours, int nours, struct ig_err *e)
{
	char w[96], path[PATH_MAX];
	int fd, i;

	/* A partition without a /dev node cannot be opened: the other checks remain. */
	if (b == target)
		snprintf(path, sizeof(path), "%s", dev);
	else if (dev_node(b, path, sizeof(path)))
		return 0;
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && errno == EBUSY) {
		/* Held by an earlier job of this run (same device, its disk or a partition)? */
		for (i = 0; i < nours; i++)
			if (ctx_claimed(c, ours[i], 0))
				return 0;
		err_set(e, EXIT_USAGE, "refusing to write %s: %s is in use (held open exclusively, e.g. mounted elsewhere or part of a btrfs, md or dm device; never overwritten, even with --allow-destroy)",
			dev, who(b, target, w, sizeof(w)));
		return -1;
	}
	if (fd < 0 && b == target) {
		err_set(e, EXIT_USAGE, "refusing to write %s: cannot open it: %s", dev, strerror(errno));
		return -1;
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

static const char *article(const char *word)
{
	return strchr("aeiouxAEIOUX", word[0]) ? "an" : "a";
}

/* Signatures found by libblkid: refused unless --allow-destroy. */
static int check_signatures(const char *dev, const char *path, const struct bdev *b,
			    const struct bdev *target, struct ig_err *e)
{
	const char *type = NULL, *usage = NULL, *pttype = NULL;
	char w[96], what[160];
	blkid_probe pr;
	int rc;

	pr = blkid_new_probe_from_filename(path);
	if (!pr) {
		err_set(e, EXIT_USAGE, "refusing to write %s: cannot probe %s for existing data: %s (use --allow-destroy to overwrite it anyway)",
			dev, b == target ? "it" : b->name, strerror(errno ? errno : EIO));
		return -1;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, 0);
	rc = blkid_do_safeprobe(pr);
	if (rc == 1) {
		blkid_free_probe(pr);
		return 0;
	}
	if (rc == -2) {
		snprintf(what, sizeof(what), "several conflicting signatures");
	} else if (rc < 0) {
		snprintf(what, sizeof(what), "data that libblkid cannot probe");
	} else {
		blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
		blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL);
		if (type && usage && !strcmp(usage, "filesystem"))
			snprintf(what, sizeof(what), "%s %s file system", article(type), type);
		else if (type && usage && !strcmp(usage, "raid"))
			snprintf(what, sizeof(what), "a RAID or volume-manager signature (%s)", type);
		else if (type && usage && !strcmp(usage, "crypto"))
			snprintf(what, sizeof(what), "an encrypted volume (%s)", type);
		else if (type && !strcmp(type, "swap"))
			snprintf(what, sizeof(what), "a swap signature");
		else if (type)
			snprintf(what, sizeof(what), "%s %s signature", article(type), type);
		else if (pttype)
			snprintf(what, sizeof(what), "%s %s partition table", article(pttype), pttype);
		else
			snprintf(what, sizeof(what), "an unidentified signature");
	}
	blkid_free_probe(pr);
	err_set(e, EXIT_USAGE, "refusing to write %s: %s carries %s (use --allow-destroy to overwrite it)", dev,
		who(b, target, w, sizeof(w)), what);
	return -1;
}

int safety_check_blockdev(const struct run_ctx *c, const char *dev, bool allow_destroy,
			  struct ig_err *e)
{
	struct bdev target, *parts = NULL;
	char parent[64], holder[256], path[PATH_MAX];
	struct stat st;
	int nparts = 0, nours = 0, i, ret = -1;
	dev_t parent_rdev = 0, *ours = NULL;
	bool has_parent = false;

	if (stat(dev, &st)) {
		err_set(e, EXIT_USAGE, "refusing to write %s: %s", dev, strerror(errno));
		return -1;
	}
	if (!S_ISBLK(st.st_mode)) {
		err_set(e, EXIT_USAGE, "refusing to write %s: not a block device", dev);
		return -1;
	}
	target.rdev = st.st_rdev;
	if (blockdev_name(st.st_rdev, target.name, sizeof(target.name))) {
		err_set(e, EXIT_USAGE, "refusing to write %s: device %u:%u is not in /sys/dev/block", dev,
			major(st.st_rdev), minor(st.st_rdev));
		return -1;
	}

	if (is_partition(target.name)) {
		if (parent_disk(target.name, parent, sizeof(parent)))
			parent[0] = '\0';
		snprintf(path, sizeof(path), "/sys/class/block/%s/dev", parent);
		has_parent = parent[0] && !read_devno(path, &parent_rdev);
		if (parent[0] && first_holder(parent, holder, sizeof(holder))) {
			err_set(e, EXIT_USAGE, "refusing to write %s: its disk %s is in use by %s (never overwritten, even with --allow-destroy)",
				dev, parent, holder);
			return -1;
		}
	} else {
		parts = calloc(MAX_PARTS, sizeof(*parts));
		if (!parts) {
			err_set(e, EXIT_USAGE, "refusing to write %s: out of memory", dev);
			return -1;
		}
		nparts = list_partitions(target.name, parts, MAX_PARTS);
	}

	/* The specific reasons first, then the catch-all exclusive open. */
	if (check_in_use(dev, &target, &target, e))
		goto out;
	for (i = 0; i < nparts; i++)
		if (check_in_use(dev, &parts[i], &target, e))
			goto out;
	for (i = 0; i < nparts; i++) {
		dev_t ours[2] = { parts[i].rdev, target.rdev };
		if (check_exclusive(c, dev, &parts[i], &target, ours, 2, e))
			goto out;
	}
	/* The target, its disk, its partitions: our own claim on any makes it busy. */
	ours = calloc((size_t)nparts + 2, sizeof(*ours));
	if (!ours) {
		err_set(e, EXIT_USAGE, "refusing to write %s: out of memory", dev);
		goto out;
	}
	ours[nours++] = target.rdev;
	if (has_parent)
		ours[nours++] = parent_rdev;
	for (i = 0; i < nparts; i++)
		ours[nours++] = parts[i].rdev;
	if (check_exclusive(c, dev, &target, &target, ours, nours, e))
		goto out;

	if (!allow_destroy) {
		if (check_signatures(dev, dev, &target, &target, e))
			goto out;
		for (i = 0; i < nparts; i++) {
			if (dev_node(&parts[i], path, sizeof(path)))
				continue; /* no node: the disk's probe saw the table */
			if (check_signatures(dev, path, &parts[i], &target, e))
				goto out;
		}
	}
	ret = 0;
out:
	free(ours);
	free(parts);
	return ret;
}
