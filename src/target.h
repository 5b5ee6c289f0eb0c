/*
 * Targets: the files and block devices a job reads and writes, the safety
 * interlock before any write, laying out files with real data, the device
 * beneath a path and its /sys/block counters, and removing test files.
 */
#ifndef IOGAUGE_TARGET_H
#define IOGAUGE_TARGET_H

#include <stdint.h>
#include <stdbool.h>
#include <limits.h>
#include <sys/types.h>

struct target {
	char path[PATH_MAX];
	bool is_blockdev;
	bool created;     /* iogauge created it in this run: remove at the end */
	bool direct;      /* opened with O_DIRECT (false after a buffered fallback) */
	int fd;           /* opened by target_open; -1 when closed */
	uint64_t size;    /* file size, or device size */
	unsigned lbs;     /* logical block size (device) or fs block size; O_DIRECT alignment */
	unsigned dio_mem_align; /* buffer alignment for O_DIRECT */
	char fstype[32];  /* "ext4", "tmpfs", "" for a raw device */
	char device[64];  /* kernel name of the block device beneath: "loop0", "" if none */
	char mountpoint[PATH_MAX];
	uint64_t layout_ns;    /* time spent writing real data before the run */
	uint64_t layout_bytes;
	uint64_t resident_bytes; /* page-cache resident before reads (mincore) */
	bool excl;        /* fd holds the device exclusively (O_EXCL, a writer) */
	dev_t rdev;       /* block device number when is_blockdev */
};

/* What a job will do with the target; decides which checks apply. */
struct target_req {
	const char *path;
	uint64_t need_size;  /* offset + size the job addresses */
	bool writes;         /* the job writes (or the layout must write) */
	bool reads;          /* reads need real data: lay out if missing or sparse */
	bool direct;
	int sync_flags;      /* O_SYNC / O_DSYNC or 0 */
	bool allow_destroy;
	bool allow_overwrite;
	uint64_t seed;       /* layout data seed */
};

/*
 * Open (creating if needed) and prepare a target: safety checks, layout of
 * real random data when reads need it, O_DIRECT alignment facts.  On refusal
 * or error prints one line naming the path and the reason and returns
 * -EXIT_USAGE (bad request, refused by safety) or -EXIT_IOERR (I/O failure),
 * or -(128 + signal) when g_stop was set during the layout.
 * Registers created files for removal.
 */
int target_prepare(struct target *t, const struct target_req *r);
/*
 * O_DIRECT offset alignment a path will need, known before anything is
 * created or written (statx, else the logical block size of the device
 * beneath); 0 when unknown.
 */
unsigned target_dio_align_hint(const char *path);
/* Reopen for one worker thread with the job's flags; fd or -errno. */
int target_open_fd(const struct target *t, bool direct, int sync_flags, bool writes);
void target_close(struct target *t);

/*
 * Safety interlock for a write to block device `dev` (path).  Returns 0 when
 * allowed, else prints why and returns -1.  Mounted (or partitions/holders
 * mounted, or in use by swap/md/dm/exclusive opener) is refused even with
 * allow_destroy; a file system, partition table, RAID or LVM signature found
 * by libblkid is refused unless allow_destroy.
 */
int safety_check_blockdev(const char *dev, bool allow_destroy);
/*
 * Does this process hold block device rdev open exclusively (a writing job
 * prepared earlier)?  Then its O_EXCL refusal is our own doing, not a mount.
 */
bool target_holds_exclusive(dev_t rdev);

/* The block device beneath path (file, directory or device): kernel name, or -1. */
int blockdev_of_path(const char *path, char *name, size_t len, char *fstype, size_t fslen,
		     char *mnt, size_t mntlen);

/* One line of /proc/self/mountinfo, with octal escapes (\040) undone. */
struct mountent {
	unsigned major, minor; /* st_dev of the mounted file system (anonymous for btrfs) */
	char mnt[PATH_MAX];
	char fstype[32];
	char source[PATH_MAX]; /* "/dev/vda", "tmpfs", ... */
};
/* Calls fn for each mount until it returns non-zero (returned); -1 if unreadable. */
int mountinfo_foreach(int (*fn)(const struct mountent *m, void *arg), void *arg);
/* Kernel name of block device rdev ("sda1") via /sys/dev/block/MAJ:MIN; 0 or -1. */
int blockdev_name(dev_t rdev, char *name, size_t len);
/* A sysfs value of block device `dev` (disk or partition, parent's queue/ for a partition). */
int blockdev_sysfs_u64(const char *dev, const char *attr, uint64_t *val);

/* /sys/block/<dev>/stat (or the partition's) counters. */
struct devstat {
	uint64_t rd_ios, rd_sectors, wr_ios, wr_sectors, io_ticks_ms;
	uint64_t when_ns;
};
int devstat_read(const char *dev, struct devstat *d);

/* Files registered here are unlinked by cleanup_files() (atexit and signals). */
void cleanup_register(const char *path);
void cleanup_files(void); /* async-signal-safe */
void cleanup_keep(bool keep); /* --keep: never remove */

/* Invalidate cached pages of the file (posix_fadvise DONTNEED); ns spent. */
uint64_t target_invalidate(int fd, uint64_t off, uint64_t len);
/* Bytes of [off, off+len) resident in the page cache (mincore); -1 unknown. */
int64_t target_resident(int fd, uint64_t off, uint64_t len);

#endif
