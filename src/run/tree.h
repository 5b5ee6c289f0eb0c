/*
 * A tree read: every regular file below a directory, each read whole, the
 * files split among the job's threads (the streams).  The walk lists the
 * files once, before anything is timed, in the order tar meets them (a
 * directory's entries as readdir gives them, subdirectories entered where
 * they stand); it never follows a symbolic link, never enters another file
 * system, and never opens anything but directories (special files are only
 * counted: a FIFO would hang a reader).  The tree is only ever read.
 *
 * A request of a tree job is one item: a file, or one GiB of a larger one
 * (a request's length is 32 bits).  Thread t of N reads the items
 * [bounds[t], bounds[t+1]): runs in walk order with about the same bytes
 * each, never cutting a file (engines/tree.c).
 *
 * --make-tree: the tree is built first (tree_make.c), seeded and
 * reproducible, in a new directory that is removed like a test file.
 */
#ifndef IOGAUGE_TREE_H
#define IOGAUGE_TREE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/common.h"
#include "base/ctx.h"
#include "model/data.h"
#include "base/digest.h"
#include "model/job.h"
#include "run/target.h"

#define TREE_SEGMENT (1ULL << 30) /* a larger file is read as items of at most this */
#define TREE_LAST 0x80000000u     /* tree_item.seg: the file's last item */
#define TREE_MAX_THREADS 256      /* --numjobs's limit */

struct tree_item {
	uint64_t name; /* the file's name in the arena */
	uint64_t size; /* bytes of this item at the walk */
	uint32_t dir;  /* its directory (tree_job.dirs) */
	uint32_t seg;  /* which GiB of the file (| TREE_LAST on its last) */
};

/* What the walk met besides regular files: counted, never opened. */
struct tree_walk {
	uint64_t dirs, files, bytes, items;
	uint64_t symlinks, fifos, sockets, chardevs, blockdevs;
	uint64_t other_fs;    /* directories of another file system (mount points): not entered */
	uint64_t unreadable;  /* directories that could not be listed (EACCES) */
	uint64_t vanished;    /* entries gone between readdir and stat */
	char first_unreadable[PATH_MAX]; /* named once */
	uint64_t walk_ns;
};

/* What a case's streams met while reading, added up by each at its end. */
struct tree_case {
	uint64_t files, bytes;     /* items read whole (or to their changed end), bytes read */
	uint64_t vanished;         /* gone since the walk (ENOENT) */
	uint64_t changed;          /* of another size or kind than at the walk */
	uint64_t unreadable;       /* EACCES, EPERM */
	uint64_t first_unreadable; /* item + 1 of one of them; 0: none */
	uint64_t hash_bytes, hash_ns;   /* bytes checksummed, time spent on it (all streams) */
	uint64_t comp_in, comp_out, comp_ns; /* compressed: bytes in, out, time spent */
	uint64_t comp_failed;      /* files whose compression failed (changed under a zstd frame) */
	int64_t resident;          /* bytes of the files in the page cache before the case; -1 unknown */
	uint64_t invalidate_ns;    /* dropping the cache before the case (not timed) */
	bool done;
};

/* What to build with --make-tree. */
struct tree_make {
	uint64_t files, size_lo, size_hi, seed;
	unsigned per_dir, fanout;
	struct data_spec data;
};

struct tree_job {
	char root[PATH_MAX];     /* the tree */
	const struct tree_make *make; /* build it first (once); NULL: read what is there */
	bool built, walked;
	uint64_t build_ns, build_bytes;
	struct tree_walk walk;
	struct tree_item *items;
	uint64_t nitems, capitems;
	uint64_t *dirs;          /* each directory's path below the root, in the arena ("" the root) */
	uint64_t ndirs, capdirs;
	char *arena;
	uint64_t arena_len, arena_cap;
	int rootfd;              /* held from the walk on: items open below it */
	/* The case being run. */
	unsigned nstreams;
	uint64_t bounds[TREE_MAX_THREADS + 1];
	int hash, compress;      /* enum digest_kind, enum compress_kind */
	unsigned level;
	uint8_t *digests;        /* DIGEST_MAX per item when asked (--hash-out); NULL: not kept */
	uint8_t *have;           /* per item: its digest is there */
	bool keep_digests;
	struct tree_case *cur;   /* where the streams add up what they met */
};

void tree_job_init(struct tree_job *t);
void tree_job_free(struct tree_job *t);

/*
 * Before a tree job runs (the runner): build the tree when asked and not yet
 * built (registered with c for removal), walk it when not yet walked, split
 * its items among nstreams threads, and fill the target's facts.  0, or -1
 * with e set (status 2 for a refused root, 1 for a failed build, 128+N).
 */
int tree_prepare(struct run_ctx *c, struct tree_job *t, unsigned nstreams, struct target *tg,
		 struct ig_err *e);
/* Walk the tree at t->root (tree_prepare calls it).  0, or -1 with e set. */
int tree_walk(struct tree_job *t, volatile sig_atomic_t *stop, struct ig_err *e);
/* Split the items among n threads: bounds[0..n]. */
void tree_split(struct tree_job *t, unsigned n);
/* Thread th's items: first and count. */
static inline void tree_range(const struct tree_job *t, unsigned th, uint64_t *first, uint64_t *count)
{
	*first = t->bounds[th];
	*count = t->bounds[th + 1] - t->bounds[th];
}
/* An item's path below the root ("a/b/name") into buf (PATH_MAX); its length, or 0 if too long. */
size_t tree_item_path(const struct tree_job *t, uint64_t item, char *buf);
/* The same, below the root as the user named it ("ROOT/a/b/name"), for messages. */
void tree_describe(const struct tree_job *t, uint64_t item, char *buf, size_t len);
/*
 * Open an item's file read-only below the root: never through a symbolic
 * link, never another file system, without touching its access time where
 * allowed, never blocking on what was a FIFO.  fd or -errno.
 */
int tree_open(const struct tree_job *t, const char *path);
/*
 * Before a case: drop every file's pages from the page cache (invalidate),
 * then count the bytes still resident (mincore).  Resident bytes, or -1
 * unknown; *ns the time spent.
 */
int64_t tree_drop_cache(struct tree_job *t, bool invalidate, const volatile sig_atomic_t *stop,
			uint64_t *ns);

/* --make-tree (tree_make.c): the tree, in t->root (a new directory), registered with c. */
int tree_build(struct run_ctx *c, struct tree_job *t, struct ig_err *e);
/* The size of file i of a built tree: log-uniform in [lo, hi], by the seed. */
uint64_t tree_make_size(const struct tree_make *m, uint64_t i);

#endif
