/*
 * Loop devices and their backing files: which loop devices are attached and
 * what each one reads and writes (a file's device and inode, or a block
 * device).  Read-only facts for the safety interlock (safety.c); no policy.
 */
#ifndef IOGAUGE_LOOPDEV_H
#define IOGAUGE_LOOPDEV_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

struct loopdev {
	char name[32];          /* "loop3" */
	dev_t rdev;             /* the loop device's number */
	char file[PATH_MAX];    /* the backing file as the kernel names it (may be stale or "(deleted)") */
	bool known;             /* dev, ino and bdev below are known */
	dev_t dev;              /* st_dev of the backing file */
	ino_t ino;              /* its inode */
	dev_t bdev;             /* the backing block device's number when it is one, else 0 */
};

/* Every attached loop device; n set, NULL when none (free() the array). */
struct loopdev *loopdev_list(unsigned *n);
/* Does the loop device back onto this file (st_dev, st_ino) or this block device (rdev, 0 for none)? */
bool loopdev_backs(const struct loopdev *l, dev_t dev, ino_t ino, dev_t rdev);

#endif
