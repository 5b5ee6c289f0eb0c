/* tree's own settings: its rows (src/suites/tree_opts.c) write them in struct settings' own area. */
#ifndef IOGAUGE_SUITES_TREE_OPTS_H
#define IOGAUGE_SUITES_TREE_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <limits.h>
#include "model/job.h"

/* tree (src/suites/tree.c): the streams of a tree read, its checksums, compression, a built tree */
#define TREE_MAX_STREAMS 32
struct tree_opts {
	unsigned streams[TREE_MAX_STREAMS]; /* --streams, ascending; none: the default */
	unsigned nstreams;
	int hash;                /* enum tree_hash (tree.h) */
	char hash_out[PATH_MAX]; /* --hash-out: md5sum-style lines ("": none) */
	int compress;            /* enum tree_compress (tree.h) */
	unsigned level;          /* --compress-level; 0: the algorithm's default */
	bool make;               /* --make-tree: build a tree in PATH, read it, remove it */
	uint64_t files;          /* --tree-files */
	uint64_t size_lo, size_hi; /* --tree-filesize: sizes drawn log-uniformly */
	unsigned per_dir, fanout;  /* --tree-files-per-dir, --tree-fanout */
	uint64_t seed;           /* --tree-seed */
};

SETTINGS_OWN_FITS(struct tree_opts);

static inline struct tree_opts *tree_opts(struct settings *s)
{
	return SETTINGS_OWN(s, struct tree_opts);
}
static inline const struct tree_opts *tree_opts_c(const struct settings *s)
{
	return SETTINGS_OWN(s, const struct tree_opts);
}

#endif
