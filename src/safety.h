/* The safety interlock before writing to a block device. */
#ifndef IOGAUGE_SAFETY_H
#define IOGAUGE_SAFETY_H

#include <stdbool.h>
#include "common.h"

struct run_ctx;

/*
 * May block device `dev` (a path) be written?  0 when allowed, else -1 with
 * e set (status 2) saying why.  Mounted (or a partition or holder mounted),
 * in use by swap, md, dm or an exclusive opener other than this run: refused
 * even with allow_destroy.  A file system, partition table, RAID, LVM or
 * crypto signature found by libblkid: refused unless allow_destroy.
 */
int safety_check_blockdev(const struct run_ctx *c, const char *dev, bool allow_destroy,
			  struct ig_err *e);

#endif
