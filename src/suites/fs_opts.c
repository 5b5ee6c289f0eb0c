/* fs's own options: its rows, registered with OPTION_ROWS (no core table lists them). */
#include "base/common.h"
#include "options/options.h"
#include "model/job_names.h"
#include "options/option_values.h"
#include "suites/fs_opts.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define J(f) OPT_FIELD(SCOPE_JOB, struct job, f)
#define S(f) OPT_FIELD(SCOPE_SETTINGS, struct settings, f)
#define OWN(f) OPT_FIELD(SCOPE_OWN, struct fs_opts, f)

const char *const fs_suite_names[] = { "quick", "mix", "bonnie", "dd", NULL };

static const struct opt_def rows[] = {
	/* ---- fs (src/suites/fs.c): the file systems it makes */
	{ .name = "fs", .owner = "fs", .type = OT_STR, OWN(list), .def = "ext4,xfs,btrfs", .arg = "FS[:OPT...],...",
	  .help = "File systems to make and measure, one column each: ext4, xfs or btrfs, each with mount options after colons (ext4:noatime, btrfs:compress=lzo, btrfs:nossd) or a layout across every DEVICE: btrfs:raid0, btrfs:raid1 (btrfs's own, 2 or more devices), FS:md-raid0, FS:md-raid1, FS:lvm-stripe (need the kernel's md or device-mapper)" },
	{ .name = "suite", .owner = "fs", .type = OT_ENUM, OWN(suite), .def = "quick", .values = fs_suite_names,
	  .arg = "quick|mix|bonnie|dd",
	  .help = "The tests run on each file system: quick's (CrystalDiskMark), mix's (YABS), bonnie's block tests, or dd's buffered write and read; each ends with dd's buffered write, whose writeback after it returns is timed" },
	{ .name = "loop-dir", .owner = "fs", .type = OT_STR, OWN(loop_dir), .arg = "DIR",
	  .help = "No DEVICE: make loop devices over image files in DIR (two, for the multi-device layouts), removed at the end; the columns say so (a loop over a file measures that file's file system too, not a device)" },
	{ .name = "image-size", .owner = "fs", .type = OT_SIZE, OWN(image_size), .def = "512m", .min = 300ULL << 20,
	  .max = 1ULL << 40, .arg = "SIZE",
	  .help = "Size of each loop image with --loop-dir (xfs needs 300 MiB)" },
	{ .name = NULL },
};
OPTION_ROWS(fs_rows, .after = "warn-unsupported", .order = 60, .rows = rows);
