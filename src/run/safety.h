/* The safety interlock before writing to a block device. */
#ifndef IOGAUGE_SAFETY_H
#define IOGAUGE_SAFETY_H

#include <stdbool.h>
#include "base/common.h"

#include <sys/stat.h>

struct run_ctx;

/*
 * May block device `dev` (a path) be written?  0 when allowed, else -1 with
 * e set (status 2) saying why.  Mounted (or a partition or holder mounted),
 * in use by swap, md, dm or an exclusive opener other than this run, or
 * tied to such a device through a loop device (above or beneath it, or
 * sharing its backing file): refused even with allow_destroy.  A file
 * system, partition table, RAID, LVM or crypto signature found by libblkid,
 * or a GPT header libblkid missed: refused unless allow_destroy.
 */
int safety_check_blockdev(const struct run_ctx *c, const char *dev, bool allow_destroy,
			  struct ig_err *e);

/*
 * May existing file `path` (stat st) be written?  Refused, whatever the
 * options, when it backs a loop device that is mounted or in use: writing it
 * writes that file system.  0, or -1 with e set (status 2).
 */
int safety_check_file(const char *path, const struct stat *st, struct ig_err *e);

#endif
