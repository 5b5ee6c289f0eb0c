/*
 * Making file systems to measure (the fs command): what the user asked for
 * ("btrfs:raid0:compress=lzo"), mkfs through fork/exec of mkfs.*, mount(2)
 * and a timed unmount, and loop devices over image files when there are no
 * devices.  Mechanics only: the safety interlock is the caller's.
 */
#ifndef IOGAUGE_FSMAKE_H
#define IOGAUGE_FSMAKE_H

#include "base/common.h"

#include <stdbool.h>
#include <stdint.h>

#define FS_MAX_DEVS 8

struct fs_spec {
	char label[128];     /* as the user wrote it: "btrfs:compress=lzo" */
	char type[16];       /* ext2, ext3, ext4, xfs, btrfs */
	char layout[16];     /* "" (one device), raid0, raid1 (btrfs's own), md-raid0, md-raid1, lvm-stripe */
	char opts[256];      /* the mount options as given, comma-separated */
	unsigned long flags; /* MS_* of the options the VFS knows (noatime) */
	char data[256];      /* the rest, for the file system (compress=lzo, nossd) */
};

/* One "FSTYPE[:OPTION...]"; 0, or -1 with e set (status 2) naming it. */
int fs_spec_parse(const char *s, struct fs_spec *f, struct ig_err *e);
/* Devices the layout spans: 1, or every one given (raid0, raid1, md-*, lvm-*). */
unsigned fs_spec_devices(const struct fs_spec *f, unsigned given);
/* Does the layout need at least two devices? */
bool fs_spec_multi(const struct fs_spec *f);
/*
 * Can this kernel (and iogauge) build the layout?  md RAID needs md
 * (/proc/mdstat), LVM stripes device-mapper: one line naming what is
 * missing.  0, or -1 with e set (status 2).
 */
int fs_layout_check(const struct fs_spec *f, struct ig_err *e);

/* mkfs.TYPE over the devices (forced, quiet); its time in *ns.  0, or -1 with e: mkfs's first line. */
int fs_mkfs(const struct fs_spec *f, char *const *devs, unsigned n, uint64_t *ns, struct ig_err *e);
/* mount(2) on dir (btrfs learns the other devices through device=).  0, or -1 with e. */
int fs_mount(const struct fs_spec *f, char *const *devs, unsigned n, const char *dir, struct ig_err *e);
/* umount(2), timed: the flush of what the file system still holds.  0, or -1 with e. */
int fs_umount(const char *dir, uint64_t *ns, struct ig_err *e);

/*
 * A loop device over a new image file of `size` bytes (sparse): attached
 * with autoclear and the image unlinked at once, so the kernel frees both
 * when the last user (this process's fd, or a mount) goes, even if the
 * process dies.  dev: "/dev/loopN"; *fd held open.  0, or -1 with e.
 */
int loop_make(const char *image, uint64_t size, char *dev, size_t len, int *fd, struct ig_err *e);
/* Detach it now (it is not mounted) and close the fd. */
void loop_drop(int fd);

#endif
