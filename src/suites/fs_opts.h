/* fs's own settings: its rows (src/suites/fs_opts.c) write them in struct settings' own area. */
#ifndef IOGAUGE_SUITES_FS_OPTS_H
#define IOGAUGE_SUITES_FS_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <limits.h>
#include "model/job.h"

/* fs (src/suites/fs.c): the file systems it makes and the suite it runs on each */
struct fs_opts {
	char list[512];          /* --fs: FSTYPE[:OPTION...],... */
	int suite;               /* --suite: FS_SUITE_* */
	char loop_dir[PATH_MAX]; /* --loop-dir: loop images here instead of devices */
	uint64_t image_size;     /* --image-size: each loop image */
};
SETTINGS_OWN_FITS(struct fs_opts);

/* --suite: the tests fs runs on each file system. */
extern const char *const fs_suite_names[];
enum { FS_SUITE_QUICK, FS_SUITE_MIX, FS_SUITE_BONNIE, FS_SUITE_DD };

static inline struct fs_opts *fs_opts(struct settings *s)
{
	return SETTINGS_OWN(s, struct fs_opts);
}
static inline const struct fs_opts *fs_opts_c(const struct settings *s)
{
	return SETTINGS_OWN(s, const struct fs_opts);
}

#endif
