/*
 * Attached loop devices and their backing files, from /sys/block/loopN/loop/
 * and LOOP_GET_STATUS64 (the backing file's device and inode as the driver
 * holds it: right even when the file was renamed, deleted or lives in another
 * mount namespace).  Where the ioctl is not possible (no /dev node), the
 * backing file's path is stat'ed.
 */
#include "base/common.h"
#include "base/loopdev.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The first line of a sysfs file, without its newline; -1 when unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	bool ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* From the driver: the backing file's identity.  false when the node cannot be opened. */
static bool from_ioctl(struct loopdev *l)
{
	char node[64];
	struct stat st;
	struct loop_info64 li;
	snprintf(node, sizeof(node), "/dev/%s", l->name);
	if (stat(node, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != l->rdev)
		return false;
	int fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	memset(&li, 0, sizeof(li));
	bool ok = ioctl(fd, LOOP_GET_STATUS64, &li) == 0;
	close(fd);
	if (ok) {
		/* The kernel encodes these as stat(2) encodes st_dev. */
		l->dev = (dev_t)li.lo_device;
		l->ino = (ino_t)li.lo_inode;
		l->bdev = (dev_t)li.lo_rdevice;
	}
	return ok;
}

/* From the path sysfs gives, when it still names the file. */
static bool from_path(struct loopdev *l)
{
	char path[PATH_MAX];
	struct stat st;
	snprintf(path, sizeof(path), "%s", l->file);
	size_t n = strlen(path);
	static const char deleted[] = " (deleted)";
	if (n > sizeof(deleted) - 1 && !strcmp(path + n - (sizeof(deleted) - 1), deleted))
		return false; /* another file may have that name now */
	if (stat(path, &st))
		return false;
	l->dev = st.st_dev;
	l->ino = st.st_ino;
	l->bdev = S_ISBLK(st.st_mode) ? st.st_rdev : 0;
	return true;
}

static bool attached(const char *name, struct loopdev *l)
{
	char path[PATH_MAX], num[64];
	unsigned maj, min;
	if (strlen(name) >= sizeof(l->name))
		return false;
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", name);
	if (read_line(path, l->file, sizeof(l->file)))
		return false; /* no loop/ directory: not attached */
	snprintf(path, sizeof(path), "/sys/block/%s/dev", name);
	if (read_line(path, num, sizeof(num)) || sscanf(num, "%u:%u", &maj, &min) != 2)
		return false;
	l->rdev = makedev(maj, min);
	l->known = from_ioctl(l) || from_path(l);
	return true;
}

struct loopdev *loopdev_list(unsigned *n)
{
	struct loopdev *list = NULL;
	unsigned cap = 0;
	struct dirent *de;
	DIR *d = opendir("/sys/block");
	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4) || !isdigit((unsigned char)de->d_name[4]))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			struct loopdev *more = realloc(list, cap * sizeof(*list));
			if (!more)
				break;
			list = more;
		}
		*n += attached(de->d_name, &list[*n]);
	}
	closedir(d);
	if (!*n) {
		free(list);
		list = NULL;
	}
	return list;
}

bool loopdev_backs(const struct loopdev *l, dev_t dev, ino_t ino, dev_t rdev)
{
	return l->known && ((ino && l->dev == dev && l->ino == ino) || (rdev && l->bdev == rdev));
}
