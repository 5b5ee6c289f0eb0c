/*
 * The safety interlock before writing to a block device.
 *
 * Always refused, whatever the options: the device or one of its partitions
 * is mounted, is active swap, has holders (md, dm, bcache, ...), or is held
 * open exclusively by someone else (O_EXCL gives EBUSY: a file system
 * mounted in another namespace, a btrfs member, ...).  A partition target
 * is checked on its own, plus the holders of its disk.
 *
 * Also always refused: a loop device whose backing device is busy, or whose
 * backing file also backs a busy loop device (the image of a mounted file
 * system), and a device (or, safety_check_file, a file) that a busy loop
 * device lies on.
 *
 * Refused unless --allow-destroy: libblkid finds a file system, swap, RAID,
 * LVM or crypto signature, or a partition table, on the device or on one of
 * its partitions; or a GPT header is at LBA 1 or the last LBA where libblkid
 * saw none (no protective MBR, a damaged primary header).
 */
#include "base/common.h"
#include "base/ctx.h"
#include "base/devinfo.h"
#include "base/loopdev.h"
#include "run/safety.h"

#include <blkid/blkid.h>
#include <inttypes.h>
#include <isa-l/crc.h>
#include <linux/fs.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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

/* Attached loop devices, for the checks below. */
struct loops {
	struct loopdev *l;
	unsigned n;
};

static struct bdev loop_bdev(const struct loopdev *l)
{
	struct bdev b = { .rdev = l->rdev };
	snprintf(b.name, sizeof(b.name), "%s", l->name);
	return b;
}

#define LOOP_DEPTH 8 /* loop devices over loop devices: the kernel refuses cycles; a bound all the same */

/*
 * Is b or one of its partitions mounted, swap or held (md, dm), or the
 * backing device of a loop device that is, or is b held open exclusively?
 * Then why, as words after its name ("is mounted on /mnt").
 */
static bool busy(const struct bdev *b, const struct loops *ls, int depth, char *why, size_t len)
{
	struct bdev *all = xcalloc(MAX_PARTS + 1, sizeof(*all));
	struct mount_find *mf = xcalloc(1, sizeof(*mf));
	char holder[256], node[PATH_MAX], was[96], *inner = xcalloc(1, len);
	int n = 1 + list_partitions(b->name, all + 1, MAX_PARTS);
	bool found = false;
	all[0] = *b;
	for (int i = 0; i < n && !found; i++) {
		const struct bdev *x = &all[i];
		if (i)
			snprintf(was, sizeof(was), "has its partition %s", x->name);
		else
			snprintf(was, sizeof(was), "is");
		mf->rdev = x->rdev;
		found = true;
		if (mountinfo_foreach(mount_find_cb, mf) > 0)
			snprintf(why, len, "%s mounted on %s", was, mf->mnt);
		else if (is_swap(x->rdev))
			snprintf(why, len, "%s in use as swap", was);
		else if (first_holder(x->name, holder, sizeof(holder)))
			snprintf(why, len, "%s in use by %s", was, holder);
		else
			found = false;
		for (unsigned k = 0; k < ls->n && !found && depth < LOOP_DEPTH; k++) {
			struct bdev over = loop_bdev(&ls->l[k]);
			if (loopdev_backs(&ls->l[k], 0, 0, x->rdev) && busy(&over, ls, depth + 1, inner, len)) {
				if (i)
					snprintf(why, len, "has its partition %s backing %s, which %s", x->name, over.name, inner);
				else
					snprintf(why, len, "is the backing device of %s, which %s", over.name, inner);
				found = true;
			}
		}
	}
	if (!found && !dev_node(b, node, sizeof(node))) {
		int fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0 && errno == EBUSY) {
			snprintf(why, len, "is held open exclusively (mounted elsewhere, or part of md, dm or btrfs)");
			found = true;
		}
		if (fd >= 0)
			close(fd);
	}
	free(inner);
	free(mf);
	free(all);
	return found;
}

static bool is_ours(dev_t rdev, const struct bdev *ours, int nours)
{
	for (int i = 0; i < nours; i++)
		if (ours[i].rdev == rdev)
			return true;
	return false;
}

/*
 * Loop devices: writing one writes its backing file or device, and writing a
 * file or device writes every loop device over it.  ours: the target, its
 * disk (ndisk: 1, or 0 when it is a disk) and its partitions.  Refused,
 * whatever the options, when a loop device
 * over any of them is busy, or when one of them is a loop device whose
 * backing device is busy or whose backing file also backs a busy loop device.
 */
static int check_loops(const char *dev, const struct bdev *ours, int ndisk, int nours, struct ig_err *e)
{
	struct loops ls;
	ls.l = loopdev_list(&ls.n);
	char why[PATH_MAX + 256];
	int rc = 0;
	for (unsigned i = 0; i < ls.n && !rc; i++) {
		const struct loopdev *l = &ls.l[i];
		struct bdev over = loop_bdev(l), back = { .rdev = l->bdev };
		if (!l->known)
			continue;
		if (!is_ours(l->rdev, ours, nours)) {
			for (int k = 0; k < nours && !rc; k++)
				if (loopdev_backs(l, 0, 0, ours[k].rdev) && busy(&over, &ls, 1, why, sizeof(why)))
					rc = err_set(e, EXIT_USAGE, "refusing to write %s: %s%s is the backing device of %s, which %s (never overwritten, even with --allow-destroy)",
						     dev, !k ? "it" : k <= ndisk ? "its disk " : "its partition ",
						     k ? ours[k].name : "", l->name, why);
			continue;
		}
		/* One of ours is this loop device: what lies beneath it. */
		if (l->bdev && !blockdev_name(l->bdev, back.name, sizeof(back.name)) &&
		    busy(&back, &ls, 1, why, sizeof(why)))
			rc = err_set(e, EXIT_USAGE, "refusing to write %s: its backing device %s %s (never overwritten, even with --allow-destroy)",
				     dev, back.name, why);
		for (unsigned k = 0; k < ls.n && !rc; k++) {
			over = loop_bdev(&ls.l[k]);
			if (!is_ours(ls.l[k].rdev, ours, nours) && loopdev_backs(&ls.l[k], l->dev, l->ino, l->bdev) &&
			    busy(&over, &ls, 1, why, sizeof(why)))
				rc = err_set(e, EXIT_USAGE, "refusing to write %s: its backing file %s also backs %s, which %s (never overwritten, even with --allow-destroy)",
					     dev, l->file, ls.l[k].name, why);
		}
	}
	free(ls.l);
	return rc;
}

int safety_check_file(const char *path, const struct stat *st, struct ig_err *e)
{
	struct loops ls;
	ls.l = loopdev_list(&ls.n);
	char why[PATH_MAX + 256];
	int rc = 0;
	for (unsigned i = 0; i < ls.n && !rc; i++) {
		struct bdev over = loop_bdev(&ls.l[i]);
		if (loopdev_backs(&ls.l[i], st->st_dev, st->st_ino, 0) && busy(&over, &ls, 1, why, sizeof(why)))
			rc = err_set(e, EXIT_USAGE, "refusing to write %s: it is the backing file of %s, which %s (never written while that is so, even with --allow-overwrite or --allow-destroy)",
				     path, ls.l[i].name, why);
	}
	free(ls.l);
	return rc;
}

static const char *article(const char *word)
{
	return strchr("aeiouxAEIOUX", word[0]) ? "an" : "a";
}

static uint64_t le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;
	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* A valid GPT header at `lba`: signature, size, CRC32 and its own LBA. */
static bool gpt_header(int fd, unsigned lbs, uint64_t lba, unsigned char *hdr)
{
	uint32_t hsize;
	if (pread(fd, hdr, lbs, (off_t)(lba * lbs)) != (ssize_t)lbs || memcmp(hdr, "EFI PART", 8) ||
	    (hsize = (uint32_t)le(hdr + 12, 4)) < 92 || hsize > lbs || le(hdr + 24, 8) != lba)
		return false;
	uint32_t crc = (uint32_t)le(hdr + 16, 4);
	memset(hdr + 16, 0, 4); /* the CRC covers the header with its own field zeroed */
	return crc32_gzip_refl(0, hdr, hsize) == crc;
}

/*
 * A GPT without its protective MBR, or with its primary header damaged, is
 * still a partition table (gdisk and parted recover it), but libblkid reads
 * no GPT without a protective MBR.  A valid header at LBA 1 or at the last
 * LBA (the backup): true, with what was found in `what`.
 */
static bool gpt_without_pmbr(const char *path, char *what, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), lbs = 0;
	uint64_t size = 0;
	bool found = false;
	if (fd < 0)
		return false;
	if (!ioctl(fd, BLKSSZGET, &lbs) && !ioctl(fd, BLKGETSIZE64, &size) && lbs >= 512 && lbs <= 65536 &&
	    size / (unsigned)lbs >= 3) {
		unsigned char *hdr = xcalloc(1, (size_t)lbs);
		uint64_t last = size / (unsigned)lbs - 1;
		if ((found = gpt_header(fd, (unsigned)lbs, 1, hdr)))
			snprintf(what, len, "a GPT partition table (its header at LBA 1; the protective MBR is missing)");
		else if ((found = gpt_header(fd, (unsigned)lbs, last, hdr)))
			snprintf(what, len, "a GPT partition table: its backup header at LBA %" PRIu64 " (the primary is damaged)",
				 last);
		free(hdr);
	}
	close(fd);
	return found;
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
	if (rc == 1 && !gpt_without_pmbr(path, what, sizeof(what))) {
		blkid_free_probe(pr);
		return 0;
	}
	if (rc == 1) {
		/* what says it */
	} else if (rc == -2) {
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
	struct bdev target, *parts = NULL, *mine = NULL;
	char parent[64], holder[256], path[PATH_MAX];
	struct stat st;
	int nparts = 0, nours = 0, nmine = 0, i, ret = -1;
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
	/* The same devices by name, for the loop devices over or beneath them. */
	mine = xcalloc((size_t)nparts + 2, sizeof(*mine));
	mine[nmine++] = target;
	if (has_parent) {
		snprintf(mine[nmine].name, sizeof(mine[nmine].name), "%s", parent);
		mine[nmine++].rdev = parent_rdev;
	}
	for (i = 0; i < nparts; i++)
		mine[nmine++] = parts[i];
	if (check_loops(dev, mine, has_parent, nmine, e))
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
	free(mine);
	free(ours);
	free(parts);
	return ret;
}
