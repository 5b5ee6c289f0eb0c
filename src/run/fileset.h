/*
 * File sets: the tree of items a file-op job (--fileop) works on.
 *
 *   ROOT/t<thread>/[d<a>/d<b>/...]f<item>
 *
 * ROOT is the job's --filename (a directory).  Each thread has its own
 * directory; with --files_per_dir the items sit in leaf directories of that
 * many items each, and with --dir_fanout those leaves sit in a tree of that
 * many subdirectories per level.  An item's path follows from its number
 * alone, so millions of items need no memory beyond a constant.
 */
#ifndef IOGAUGE_FILESET_H
#define IOGAUGE_FILESET_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/common.h"
#include "base/ctx.h"
#include "model/job.h"
#include "run/target.h"

#define FILESET_PATH_MAX 512 /* an item's path below the thread's directory */

struct fileset {
	int dirfd;          /* the thread's directory */
	uint64_t nitems;    /* items of the tree (of every rank sharing it) */
	uint64_t own, first, step; /* this thread's items: first + k * step, k < own */
	uint64_t per_dir;   /* items per leaf directory; 0: flat */
	uint64_t nleaves;
	unsigned fanout;    /* 0: the leaves sit in the thread's directory */
	unsigned depth;     /* directory levels above an item (0: flat) */
	uint64_t size_lo, size_hi;
	bool dir_items;     /* the items a stat needs are directories (fio's dirstat) */
};

/* The shape of a job's tree (dirfd -1). */
void fileset_geometry(struct fileset *fs, const struct job *j);
/* Directories of the tree besides the thread's own (for space checks). */
uint64_t fileset_dirs(const struct fileset *fs);
/* An item's path below the thread's directory: "d3/d17/f123456".  Its length. */
size_t fileset_item_path(const struct fileset *fs, uint64_t idx, char *buf);
/* An item's size: fixed, or drawn from [size_lo, size_hi] by its number. */
uint64_t fileset_item_size(const struct fileset *fs, uint64_t idx);

/*
 * The job's root directory: created (and registered for removal with the
 * tree below it) when missing; an existing one not created by iogauge is
 * refused without allow_overwrite.  Space and inodes for the items are
 * checked.  Fills t (path, file system, device; fd -1).  0 or -1 with e set.
 */
int fileset_prepare_root(struct run_ctx *c, struct target *t, const char *root,
			 const struct job *j, bool allow_overwrite, struct ig_err *e);

/*
 * A thread's part, before it is timed: its directory and the tree of
 * directories (missing ones made), and for operations that need existing
 * items (stat, open, unlink, rmdir) the missing items made too.  Counts the
 * items it made.  0 or -errno (-EINTR when stop was set).
 */
int fileset_open_thread(struct fileset *fs, const char *root, unsigned thread, int op,
			void *buf, size_t buflen, volatile sig_atomic_t *stop, uint64_t *made);

/*
 * Several ranks sharing one file set (--shared-file): rank 0 made the root
 * (fileset_prepare_root); the others find it there.  Fills t.  0 or -1 with e set.
 */
int fileset_follow_root(struct target *t, const char *root, const struct job *j, struct ig_err *e);

/* Path of item idx of a thread for messages: "ROOT/t0/d1/f1234". */
void fileset_describe(const struct job *j, const char *root, unsigned thread, uint64_t idx,
		      char *buf, size_t len);

#endif
