/*
 * Facts about block devices and mounts: the device beneath a path, the mount
 * table, sysfs attributes and the /sys/block counters.  Read-only; no policy.
 */
#ifndef IOGAUGE_DEVINFO_H
#define IOGAUGE_DEVINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <limits.h>
#include <sys/types.h>

/* The block device beneath path (file, directory or device): kernel name, or -1. */
int blockdev_of_path(const char *path, char *name, size_t len, char *fstype, size_t fslen,
		     char *mnt, size_t mntlen);

/* One line of /proc/self/mountinfo, with octal escapes (\040) undone. */
struct mountent {
	unsigned major, minor; /* st_dev of the mounted file system (anonymous for btrfs) */
	char mnt[PATH_MAX];
	char fstype[32];
	char source[PATH_MAX]; /* "/dev/vda", "tmpfs", ... */
	char opts[512];        /* mount options, then the file system's own: "rw,relatime,discard" */
};
/* Calls fn for each mount until it returns non-zero (returned); -1 if unreadable. */
int mountinfo_foreach(int (*fn)(const struct mountent *m, void *arg), void *arg);
/* The compression a mount applies to new data ("zstd:3" from compress=, "" for none); 0 or -1. */
int mount_compression(const char *mnt, char *out, size_t len);
/* Kernel name of block device rdev ("sda1") via /sys/dev/block/MAJ:MIN; 0 or -1. */
int blockdev_name(dev_t rdev, char *name, size_t len);
/* A sysfs value of block device `dev` (disk or partition, parent's queue/ for a partition). */
int blockdev_sysfs_u64(const char *dev, const char *attr, uint64_t *val);
/*
 * The model and firmware revision of block device `dev` (a partition's:
 * its disk's) from sysfs: device/model, and device/firmware_rev (NVMe) or
 * device/rev (SCSI, SATA).  "" where the driver has none (virtio, loop).
 */
void blockdev_model(const char *dev, char *model, size_t mlen, char *fw, size_t flen);

/*
 * What a target is, for reports: the file system, its mount source and
 * options, the device beneath, whether it spins, and the size of the file
 * system (statvfs) or of the device.  Unknown facts stay empty, -1 or 0.
 */
struct path_facts {
	bool is_dev;
	char fstype[32];
	char source[PATH_MAX];  /* "/dev/vda", "tmpfs" */
	char mnt[PATH_MAX];
	char mntopts[512];
	char device[64];        /* kernel name: "vda", "loop3" */
	int rotational;         /* 1 spins, 0 does not, -1 unknown */
	uint64_t size;
};
int path_facts(const char *path, struct path_facts *f);

/* /sys/block/<dev>/stat (or the partition's) counters. */
struct devstat {
	uint64_t rd_ios, rd_sectors, wr_ios, wr_sectors, io_ticks_ms;
	uint64_t rd_merges, wr_merges, rd_ticks_ms, wr_ticks_ms, in_queue_ms;
	uint64_t when_ns;
};
int devstat_read(const char *dev, struct devstat *d);

#endif
