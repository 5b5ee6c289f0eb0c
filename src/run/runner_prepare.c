/* A job made ready to run: its targets checked, claimed, created, laid out; its notes. */
#include "base/cluster.h"
#include "base/common.h"
#include "base/devinfo.h"
#include "run/cpus_apply.h"
#include "run/fileset.h"
#include "run/merge.h"
#include "run/percent.h"
#include "model/place.h"
#include "run/safety.h"
#include "options/args.h"
#include "run/runner.h"
#include "base/stale.h"
#include "run/tree.h"
#include "run/verify.h"
#include "run/worker.h"
#include "model/pattern.h"
#include "model/engine.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "run/runner_int.h"
#include "run/layout_plan.h"

/*
 * Alignment is checked before any I/O, even the layout, so O_DIRECT never
 * fails with EINVAL mid-run; again once the target is open (statx knows best).
 */
static int check_alignment(const struct job *j, bool direct, uint64_t offset, unsigned align,
			   const char *path, struct ig_err *e)
{
	if (!direct || !align)
		return 0;
	if (j->bs % align && j->plan.bs_said[0])
		return err_set(e, EXIT_USAGE,
			       "job %s: %s (%" PRIu64 " bytes) is not a multiple of %u, the O_DIRECT alignment of %s",
			       j->name, j->plan.bs_said, j->bs, align, path);
	if (j->bs % align)
		return err_set(e, EXIT_USAGE,
			       "job %s: --bs=%" PRIu64 " is not a multiple of %u, the O_DIRECT alignment of %s",
			       j->name, j->bs, align, path);
	if (!pattern_aligned(j, align))
		return err_set(e, EXIT_USAGE,
			       "job %s: a block size, --blockalign or rw=...:SIZE is not a multiple of %u, the O_DIRECT alignment of %s",
			       j->name, align, path);
	if (offset % align)
		return err_set(e, EXIT_USAGE,
			       "job %s: --offset=%" PRIu64 " is not a multiple of %u, the O_DIRECT alignment of %s",
			       j->name, offset, align, path);
	return 0;
}

/*
 * A file named by --filename (a file per rank: %r) that a killed run
 * created is removed before this run creates it anew (the sweep only knows
 * the names iogauge makes).
 */
static void clean_stale(struct run_result *r, const struct job *j, const char *path)
{
	int pid;
	if (j->filename[0] && stale_path(path, &pid) && !unlink(path))
		runner_note(r, "removed %s, a test file left by iogauge process %d, which is no longer running",
		     path, pid);
}

/*
 * A file set's directory a killed run made (--fileop: the name given, or
 * NAME.files) is removed with its items before this run makes it anew: its
 * creates would meet the old items (EEXIST).
 */
static void clean_stale_tree(struct run_result *r, const char *root)
{
	int pid;
	if (stale_tree(root, &pid) && !ctx_remove_tree(root))
		runner_note(r, "removed %s, a file set left by iogauge process %d, which is no longer running",
			    root, pid);
}


/*
 * One file (or device) of a job: its region [start, start + *size) is
 * checked, and the parts of it the threads read or write laid out (none: the
 * whole region); *size 0 takes the rest of an existing file.
 */
static int prepare_target(struct run_ctx *c, struct run_result *r, struct job_result *jr,
			  struct target *t, const char *path, uint64_t start, uint64_t *size,
			  const struct target_part *parts, unsigned nparts, const struct layout_plan *lp,
			  unsigned file, const struct run_opts *o)
{
	struct job *j = &jr->job;
	struct ig_err *e = &r->err;
	if (check_alignment(j, j->direct, start, target_dio_align_hint(path), path, e))
		return -1;
	/* dd's output, or a job that starts its file anew (--overwrite=0): no layout, cut at offset. */
	bool fresh = job_fresh(j) && !job_copies(j);
	/* An engine that makes the file's extents writes into no layout (a reader's file is laid out, as fio's). */
	bool alloc = j->engine->flags & ENGINE_ALLOC;
	bool grow = (j->plan.grow && !job_copies(j)) || fresh || (alloc && !rw_reads(j->rw)) || j->fill_device;
	/* An interleaved segment's blocks are spread over the whole shared region: all of it is laid out. */
	struct target_req req = {
		.path = path,
		.offset = j->plan.stride ? j->plan.span_offset : start,
		.size = j->plan.stride ? j->plan.span_size : *size,
		/* verify_only reads what an earlier run left: no write, no layout, no new file. */
		.writes = job_writes(j) || alloc,
		.reads = rw_reads(j->rw) && !j->verify_only,
		.must_exist = j->verify_only,
		.readonly = o->readonly,
		.shared = j->shared_file && cluster_size() > 1,
		.direct = j->direct,
		.allow_destroy = o->allow_destroy,
		.allow_overwrite = o->allow_overwrite,
		.grow = grow,
		.truncate = grow && j->plan.truncate && !j->fill_device, /* fio keeps what is there */
		/* A file iogauge did not make keeps what lies past the region, as fio's (it cuts none). */
		.restart = grow && fresh && !j->fill_device,
		.seed = j->randseed ^ 0xda7a,
		.data = &j->data,
		.parts = parts,
		.nparts = nparts,
	};
	struct stamp_arg sa = { .v = lp ? lp->v : NULL, .file = file };
	struct target_stamp stamp;
	if (lp && lp->on) {
		stamp = lp->stamp;
		stamp.arg = &sa;
		req.stamp = &stamp;
	}
	clean_stale(r, j, path);
	if (lp && layout_check_earlier(r, jr, path, req.offset, req.size ? req.offset + req.size : UINT64_MAX, parts, nparts, lp, e))
		return -1;
	if (target_prepare(c, t, &req, e))
		return -1;
	if (!*size)
		*size = t->size > start ? t->size - start : 0;
	if (start + *size > t->size && !(grow && !t->is_blockdev))
		return err_set(e, EXIT_USAGE,
			       "job %s: --offset + --size = %" PRIu64 " is beyond the end of %s (%" PRIu64 " bytes)",
			       j->name, start + *size, path, t->size);
	if (j->direct && !t->direct && !jr->buffered_fallback) {
		jr->buffered_fallback = true;
		runner_note(r, "%s: the file system (%s) refuses O_DIRECT; using buffered I/O with the cache "
			"invalidated before reads%s",
		     path, t->fstype[0] ? t->fstype : "unknown",
		     job_writes(j) ? " and writes timed to the end of fsync" : "");
		j->invalidate = true;
		if (job_writes(j))
			j->end_fsync = true;
	}
	/* A discard takes whole sectors: checked now, not as EINVAL mid-run. */
	unsigned lbs = t->lbs ? t->lbs : 512;
	if (rw_trims(j->rw) && t->is_blockdev && (j->bs % lbs || !pattern_aligned(j, lbs) || start % lbs))
		return err_set(e, EXIT_USAGE,
			       "job %s: a trim of %s discards whole %u-byte sectors: --bs, the block sizes and --offset must be multiples of %u",
			       j->name, path, lbs, lbs);
	return t->direct ? check_alignment(j, j->direct, start, t->lbs, path, e) : 0;
}

/* fio's number (from 1, over the run's jobs in order) of the job's thread. */
static unsigned thread_number(const struct run_result *r, const struct job_result *jr, unsigned thread)
{
	unsigned first = 1;
	for (const struct job_result *p = r->jobs; p < jr; p++)
		first += p->job.numjobs;
	return first + thread;
}

/*
 * A file's size: --filesize (a range: drawn for each file as fio draws it,
 * the thread's files one after another from fio's file-size stream, in
 * whole smallest blocks), or its share of --size.
 */
static uint64_t file_size(const struct job *j, unsigned nfiles, unsigned index, unsigned thread_number)
{
	if (!j->filesize[0])
		return nfiles > 1 ? j->size / nfiles : j->size;
	uint64_t lo = j->filesize[0], hi = j->filesize[1], v = 0, bs = pattern_min_bs(j);
	if (lo == hi)
		return lo;
	struct fio_rand g = { 0 };
	fio_rand_init(&g, fio_seed(j->randseed, thread_number, FIO_SEED_FILE_SIZE),
		      j->random_generator == RANDGEN_TAUSWORTHE64);
	for (unsigned i = 0; i <= index; i++)
		v = lo + (uint64_t)((double)(hi - lo) * ((double)fio_rand(&g) / fio_rand_span(&g)));
	return bs ? v - v % bs : v;
}

/* A copy's destination: written from scratch (grow) or in place; the source's size decides. */
static int prepare_copy_target(struct run_ctx *c, struct run_result *r, struct job_result *jr,
			       struct target *t, const struct run_opts *o)
{
	struct job *j = &jr->job;
	struct ig_err *e = &r->err;
	const char *path = j->plan.copy.path;
	if (check_alignment(j, j->plan.copy.direct, j->plan.copy.offset, target_dio_align_hint(path), path, e))
		return -1;
	struct target_req req = {
		.path = path,
		.offset = j->plan.copy.offset,
		.size = j->size,
		.writes = true,
		.direct = j->plan.copy.direct,
		.allow_destroy = o->allow_destroy,
		.allow_overwrite = o->allow_overwrite,
		.grow = j->plan.grow,
		.truncate = j->plan.grow && j->plan.truncate,
		.seed = j->randseed ^ 0xc09e,
	};
	if (target_prepare(c, t, &req, e))
		return -1;
	if (j->plan.copy.offset + j->size > t->size && !(j->plan.grow && !t->is_blockdev))
		return err_set(e, EXIT_USAGE,
			       "job %s: the copy's end (%" PRIu64 " bytes) is beyond the end of %s (%" PRIu64 " bytes)",
			       j->name, j->plan.copy.offset + j->size, path, t->size);
	if (j->plan.copy.direct && !t->direct)
		return err_set(e, EXIT_USAGE, "job %s: %s refuses O_DIRECT (the file system is %s)",
			       j->name, path, t->fstype[0] ? t->fstype : "unknown");
	return t->direct ? check_alignment(j, j->plan.copy.direct, j->plan.copy.offset, t->lbs, path, e) : 0;
}

/* fio's engine options the job's engine does not act on: named, never silently dropped. */
static void note_engine_opts(struct run_result *r, const struct job *j)
{
	static const struct {
		const char *name;
		unsigned bit;
		bool def;
	} opts[] = {
		{ "fixedbufs", ENGINE_OPT_FIXEDBUFS, true },
		{ "registerfiles", ENGINE_OPT_REGFILES, true },
		{ "hipri", ENGINE_OPT_HIPRI, false },
		{ "sqthread_poll", ENGINE_OPT_SQPOLL, false },
		{ "userspace_reap", ENGINE_OPT_USERSPACE_REAP, false },
		{ "nowait", ENGINE_OPT_NOWAIT, false },
		{ "uncached", ENGINE_OPT_UNCACHED, false },
	};
	unsigned set = job_engine_opts(j);
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		bool on = set & opts[i].bit;
		if (on != opts[i].def && !(j->engine->honours & opts[i].bit))
			runner_info(r, "job %s: %s=%d is ignored: --ioengine=%s does not act on it", j->name,
			     opts[i].name, on, j->engine->name);
	}
}

void runner_interlock_turn(void *arg)
{
	struct interlock *x = arg;
	for (unsigned i = 0; i < x->r->njobs && !x->r->err.status; i++) {
		const struct job *j = &x->r->jobs[i].job;
		char path[PATH_MAX];
		struct stat st;
		struct ig_err ignore = { 0 };
		bool writes = job_writes(j) || (j->engine->flags & ENGINE_ALLOC);
		if (!j->filename[0] || !writes || place_path(j, 0, 0, path, sizeof(path), &ignore) ||
		    stat(path, &st) || !S_ISBLK(st.st_mode))
			continue;
		safety_check_blockdev(x->c, path, x->o->allow_destroy, &x->r->err);
	}
}

/* The zoned model of the device beneath path ("none", "host-managed", ...), or "" when unknown. */
static void zoned_model(const char *path, char *dev, size_t devlen, char *model, size_t len)
{
	char p[PATH_MAX + 64];
	*model = 0;
	if (blockdev_of_path(path, dev, devlen, NULL, 0, NULL, 0) < 0 || !*dev) {
		*dev = 0;
		return;
	}
	/* A disk has queue/ of its own; a partition's is its disk's. */
	static const char *const where[] = { "/sys/class/block/%s/queue/zoned", "/sys/class/block/%s/../queue/zoned" };
	for (size_t i = 0; i < ARRAY_SIZE(where) && !*model; i++) {
		snprintf(p, sizeof(p), where[i], dev);
		FILE *f = fopen(p, "r");
		if (!f)
			continue;
		if (!fgets(model, (int)len, f))
			*model = 0;
		model[strcspn(model, "\n")] = 0;
		fclose(f);
	}
}

/* fio's zonemode=zbd drives a zoned block device: refused, saying whether there is one. */
static int refuse_zbd(const struct job *j, struct ig_err *e)
{
	char path[PATH_MAX] = ".", dev[64], model[32];
	struct ig_err ignore = { 0 };
	if (!(j->engine->flags & ENGINE_NO_FILE))
		place_path(j, 0, 0, path, sizeof(path), &ignore);
	zoned_model(path, dev, sizeof(dev), model, sizeof(model));
	if (!*dev)
		return err_set(e, EXIT_USAGE, "job %s: --zonemode=zbd needs a zoned block device; %s is on no block device",
			       j->name, path);
	if (!*model || !strcmp(model, "none"))
		return err_set(e, EXIT_USAGE, "job %s: --zonemode=zbd needs a zoned block device; %s is on %s, which is not zoned",
			       j->name, path, dev);
	return err_set(e, EXIT_USAGE, "job %s: --zonemode=zbd is not supported (%s is on %s, a %s zoned device)",
		       j->name, path, dev, model);
}

/* Known once every target is prepared (a device's size when --size was not given). */
static int check_region(const struct job_result *jr, struct ig_err *e)
{
	const struct job *j = &jr->job;
	unsigned nsrc = job_copies(j) ? jr->ntargets - 1 : jr->ntargets;
	for (unsigned i = 0; i < nsrc && jr->nfiles > 1; i++)
		if (jr->region_size[i] < j->bs)
			return err_set(e, EXIT_USAGE,
				       "job %s: a file's region (%" PRIu64 " bytes) is smaller than --bs=%" PRIu64,
				       j->name, jr->region_size[i], j->bs);
	if (j->size >= pattern_need(j) || (j->plan.short_tail && j->size))
		return 0;
	return err_set(e, EXIT_USAGE, "job %s: the region (%" PRIu64 " bytes) is smaller than --bs=%" PRIu64,
		       j->name, j->size, pattern_need(j));
}

/* Target i of a job: thread i / nfiles, file i % nfiles (all threads share a named file). */
static int target_of(const struct job_result *jr, unsigned i, char *path, size_t len, struct ig_err *e)
{
	unsigned thread = jr->shared_files ? 0 : i / jr->nfiles;
	return place_path(&jr->job, thread, i % jr->nfiles, path, len, e);
}

/*
 * fill_device without a size: the file system's free space (root's, reserved blocks too: fio
 * writes until ENOSPC) plus what the file holds past its offset, in whole blocks, and a queue.
 * The writes end at ENOSPC before that, as fio's; the bound only keeps a file system that takes
 * more (compression) from being written without end.  A block device: its size, as any job's.
 */
static int fill_size(struct job_result *jr, const char *path, uint64_t start, uint64_t *size,
		     struct ig_err *e)
{
	const struct job *j = &jr->job;
	struct stat st;
	char dir[PATH_MAX];
	bool exists = !stat(path, &st);
	if (exists && S_ISBLK(st.st_mode))
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!exists && slash)
		slash[slash == dir] = 0; /* a file to be made: its directory ("/" for "/f") */
	else if (!exists)
		snprintf(dir, sizeof(dir), ".");
	struct statvfs sv;
	if (statvfs(dir, &sv) || !sv.f_blocks)
		return err_set(e, EXIT_USAGE, "job %s: --fill_device: the free space of %s is unknown; give --size",
			       j->name, dir);
	uint64_t free_b = (uint64_t)(geteuid() ? sv.f_bavail : sv.f_bfree) * sv.f_frsize;
	uint64_t have = exists && S_ISREG(st.st_mode) && (uint64_t)st.st_size > start ? (uint64_t)st.st_size - start : 0;
	uint64_t bs = j->bs ? j->bs : 1;
	/* A queue's worth past it: the queue is full when ENOSPC comes, as in fio's unbounded job. */
	*size = (free_b + have) / bs * bs + (uint64_t)j->iodepth * bs;
	if (!*size)
		return err_set(e, EXIT_IOERR, "job %s: --fill_device: %s has no free space", j->name, dir);
	return 0;
}

/*
 * The parts of target i's file its threads read or write, each len bytes
 * from its start: each thread's region (threads of a shared file
 * --offset_increment apart), and of each its strided zones.  The layout
 * writes only there; between them the file stays as it was.  0 parts: the
 * whole region (an interleaved segment's, the rest of an existing file).
 */
static unsigned file_parts(const struct job_result *jr, unsigned i, uint64_t start, uint64_t len,
			   struct target_part **out)
{
	const struct job *j = &jr->job;
	*out = NULL;
	if (j->plan.stride || !len)
		return 0;
	/* fio's percentages: each thread's own region of the file (percent.c), apart or not. */
	bool apart = jr->shared_files && j->numjobs > 1 && (j->offset_increment || jr->pct);
	unsigned n = apart ? j->numjobs : 1, k = 0;
	struct target_part *p = xcalloc(n, sizeof(*p));
	for (unsigned t = 0; t < n; t++) {
		unsigned thread = apart ? t : jr->shared_files ? 0 : i / jr->nfiles;
		uint64_t a = start + (apart ? (uint64_t)t * j->offset_increment : 0);
		if (jr->pct) {
			a = pct_start(jr->pct, thread, i % jr->nfiles);
			len = pct_size(jr->pct, thread, i % jr->nfiles);
		}
		struct target_part q = { .start = a, .len = len, .count = 1, .thread = thread };
		if (j->zonemode == ZONEMODE_STRIDED) {
			/* The zones the walk visits (worker_draw.c), a span of each. */
			q.len = job_zone_span(j) < len ? job_zone_span(j) : len;
			q.step = j->zonerange + j->zoneskip;
			q.end = a + len;
			q.count = 1;
			for (uint64_t z = a, nz; (nz = job_zone_next(j, a, a + len, z)) > z; z = nz)
				q.count++;
		}
		/* Regions that overlap (an --offset_increment under the size) are one part. */
		if (k && q.count == 1 && p[k - 1].count == 1 && q.start <= p[k - 1].start + p[k - 1].len) {
			if (q.start + q.len > p[k - 1].start + p[k - 1].len)
				p[k - 1].len = q.start + q.len - p[k - 1].start;
			continue;
		}
		p[k++] = q;
	}
	*out = p;
	return k;
}

/*
 * Target i of a job with fio's percentages: its region is its first
 * thread's, the file's span every thread's (the table, percent.c).
 */
static int prepare_pct_file(struct run_ctx *c, struct run_result *r, struct job_result *jr, unsigned i,
			    const char *path, const struct layout_plan *lp, const struct run_opts *o)
{
	const struct pct_table *p = jr->pct;
	unsigned thread = jr->shared_files ? 0 : i / jr->nfiles, f = i % jr->nfiles;
	uint64_t start = pct_start(p, thread, f), size = pct_size(p, thread, f);
	uint64_t whole = (jr->shared_files ? pct_span(p, f) : start + size) - start;
	jr->region_start[i] = start;
	struct target_part *parts;
	unsigned nparts = file_parts(jr, i, start, size, &parts);
	int rc = prepare_target(c, r, jr, &jr->targets[i], path, start, &whole, parts, nparts, lp, i, o);
	free(parts);
	if (rc)
		return -1;
	jr->region_size[i] = size;
	return 0;
}

/* Target i's region (threads of one file --offset_increment apart), laid out and checked. */
static int prepare_file(struct run_ctx *c, struct run_result *r, struct job_result *jr, unsigned i,
			const char *path, const struct layout_plan *lp, const struct run_opts *o)
{
	const struct job *j = &jr->job;
	unsigned thread = jr->shared_files ? 0 : i / jr->nfiles, filenum = i % jr->nfiles;
	if (jr->pct)
		return prepare_pct_file(c, r, jr, i, path, lp, o);
	uint64_t span = jr->shared_files && j->numjobs > 1 ? (j->numjobs - 1) * j->offset_increment : 0;
	uint64_t size = file_size(j, jr->nfiles, filenum, thread_number(r, jr, thread));
	jr->region_start[i] = j->offset + thread * j->offset_increment;
	if (j->fill_device && !size && fill_size(jr, path, jr->region_start[i], &size, &r->err))
		return -1;
	if (j->filesize[0]) {
		/* fio (setup_files): the file is --filesize long, its region starts at the offset inside it. */
		if (jr->region_start[i] >= size)
			return err_set(&r->err, EXIT_USAGE,
				       "job %s: the offset (%" PRIu64 ") is not inside --filesize (%" PRIu64 ")",
				       j->name, jr->region_start[i], size);
		size -= jr->region_start[i];
	}
	uint64_t whole = size ? size + span : 0;
	/* One file's threads cover a smaller --size of it, no more (sum_regions). */
	uint64_t covered = jr->nfiles == 1 && j->size && j->size < size ? j->size : size;
	struct target_part *parts;
	unsigned nparts = file_parts(jr, i, jr->region_start[i], covered, &parts);
	int rc = prepare_target(c, r, jr, &jr->targets[i], path, jr->region_start[i], &whole, parts, nparts, lp, i, o);
	free(parts);
	if (rc)
		return -1;
	jr->region_size[i] = size ? size : whole;
	return 0;
}

/* What a thread covers in a loop is its files' regions (the job's size with several, or no --size). */
static void sum_regions(struct job_result *jr)
{
	struct job *j = &jr->job;
	uint64_t total = 0;
	if (jr->pct)
		return; /* the table's first thread's (percent.c) */
	for (unsigned f = 0; f < jr->nfiles && f < jr->ntargets; f++)
		total += jr->region_size[f];
	/* fio: a --size beyond the files' regions is cut to them; a smaller one stays (with --filesize too). */
	if (!j->size || (j->filesize[0] ? total < j->size : jr->nfiles > 1))
		j->size = total;
	if (jr->nfiles == 1 && !j->plan.stride)
		for (unsigned i = 0; i < jr->ntargets && !job_copies(j); i++)
			jr->region_size[i] = j->size;
}

/*
 * fio's io_size=N%: that share of each of the thread's regions (with a
 * percentage --size, of the files' sizes), a loop's bytes of I/O, never more
 * than --size; the last block is whole (worker_plan rounds up, as fio issues it).
 */
static void apply_io_pct(struct job_result *jr)
{
	struct job *j = &jr->job;
	uint64_t io = 0;
	if (!j->io_size_pct)
		return;
	if (jr->pct) {
		j->io_size = pct_thread_io(j, jr->pct, 0);
		return;
	}
	if (jr->nfiles == 1 || j->plan.stride)
		io = pct_io(j, j->size);
	else
		for (unsigned f = 0; f < jr->nfiles && f < jr->ntargets; f++)
			io += pct_io(j, jr->region_size[f]);
	io = io ? io : 1;
	j->io_size = j->size && io > j->size ? j->size : io;
}

/*
 * --verify's state: each thread's files (verify_dump names after them) and
 * its regions of them, fio's thread numbers.
 */
static int prepare_verify(struct run_result *r, struct job_result *jr)
{
	struct job *j = &jr->job;
	unsigned first = thread_number(r, jr, 0), nf = jr->nfiles ? jr->nfiles : 1;
	struct verify_file *files = xcalloc((size_t)jr->nthreads * nf, sizeof(*files));
	for (unsigned t = 0; t < jr->nthreads; t++)
		for (unsigned f = 0; f < nf; f++) {
			unsigned i = jr->shared_files ? f : t * nf + f;
			if (i >= jr->ntargets)
				i = 0;
			files[t * nf + f] = (struct verify_file){
				.path = jr->targets[i].path,
				.start = jr->region_start[i] + (jr->shared_files ? t * j->offset_increment : 0),
				.size = jr->region_size[i],
			};
			/* fio's percentages: each thread's own region of each file (percent.c). */
			if (jr->pct) {
				files[t * nf + f].start = pct_start(jr->pct, t, f);
				files[t * nf + f].size = pct_size(jr->pct, t, f);
			}
		}
	jr->verify = verify_new(j, jr->nthreads, nf, files, first, &r->err);
	free(files);
	if (!jr->verify)
		return -1;
	if (jr->pct)
		verify_thread_starts(jr->verify, jr->pct->start); /* one file a thread: [thread * 1] */
	j->plan.hooks = verify_hooks(jr->verify);
	return 0;
}

static bool sized_by_earlier(const struct run_result *r, const struct job_result *jr);
static int prepare_targets(struct run_ctx *c, struct run_result *r, struct job_result *jr,
			   const struct run_opts *o);

int runner_prepare_job(struct run_ctx *c, struct run_result *r, struct job_result *jr,
			const struct run_opts *o)
{
	struct job *j = &jr->job;
	unsigned depth = j->iodepth; /* a synchronous engine's job leaves validation with 1 */
	if (job_normalise(j, &r->err) || job_validate(j, &r->err) ||
	    percent_resolve(j, j->filename[0] != 0, job_nfiles(j), &jr->pct, &r->err) || place_check(j, &r->err) ||
	    place_segment(j, &r->err) || verify_job_check(j, &r->err))
		return -1;
	if (j->zonemode == ZONEMODE_ZBD)
		return refuse_zbd(j, &r->err);
	char cpu_err[160];
	if (cpus_check(&j->cpus, cpu_err, sizeof(cpu_err)))
		return err_set(&r->err, EXIT_USAGE, "job %s: %s", j->name, cpu_err);
	if (j->engine->flags & ENGINE_ALLOC)
		runner_info(r, "job %s: --ioengine=%s moves no data: its bytes are those of the ranges it allocates, punches or cuts to, as fio counts them",
			    j->name, j->engine->name);
	if ((j->engine->flags & ENGINE_SYNC) && depth > 1 && !job_offload(j))
		runner_info(r, "job %s: --ioengine=%s is synchronous; --iodepth=%u acts as 1", j->name,
		     j->engine->name, depth);
	note_engine_opts(r, j);
	if (j->submit_mode && !job_offload(j))
		runner_report_note(r, "job %s: io_submit_mode=offload runs inline: a %s job's loop is its thread's own",
				   j->name, job_copies(j) ? "copy" : j->fileop ? "file operation" : j->plan.tree ? "tree" :
					    j->rewrite_pct ? "rewrite_pct" : "short last block");
	jr->nthreads = j->numjobs;
	jr->resident_before = -1;
	jr->unsynced_after = -1;
	if (j->plan.tree) {
		/* A tree read: its root is the one target, walked (or built) once, its items split. */
		jr->ntargets = jr->nfiles = 1;
		jr->shared_files = true;
		jr->targets = xcalloc(1, sizeof(struct target));
		jr->region_start = xcalloc(1, sizeof(uint64_t));
		jr->region_size = xcalloc(1, sizeof(uint64_t));
		if (tree_prepare(c, j->plan.tree, j->numjobs, &jr->targets[0], &r->err))
			return -1;
		j->size = jr->region_size[0] = j->plan.tree->walk.bytes;
		return 0;
	}
	if (j->fileop) {
		char root[PATH_MAX];
		jr->ntargets = 1;
		jr->nfiles = 1;
		jr->shared_files = true;
		jr->targets = xcalloc(1, sizeof(struct target));
		jr->region_start = xcalloc(1, sizeof(uint64_t));
		jr->region_size = xcalloc(1, sizeof(uint64_t));
		jr->targets[0].fd = -1;
		if (place_path(j, 0, 0, root, sizeof(root), &r->err))
			return -1;
		if (place_deferred(j, root))
			return 0; /* one file set of every rank: rank 0 makes it (prepare_deferred) */
		clean_stale_tree(r, root);
		return fileset_prepare_root(c, &jr->targets[0], root, j, o->allow_overwrite, &r->err) ? -1 : 0;
	}
	if (sized_by_earlier(r, jr)) {
		jr->late = true; /* its file's size is what the earlier group leaves (runner_prepare_late) */
		return 0;
	}
	return prepare_targets(c, r, jr, o);
}

/*
 * create_serialize=0: a job sized by its file (no --size, --filesize or io_size) whose named
 * file a job of an earlier stonewall group of this run writes.  fio then sets a job's files up
 * in its own thread when it starts, so a reader after a fill_device writer (fio's
 * examples/surface-scan.fio) covers what the writer left.  Its refusals come when its group
 * starts.
 */
static bool sized_by_earlier(const struct run_result *r, const struct job_result *jr)
{
	const struct job *j = &jr->job;
	unsigned me = j->plan.index;
	if (j->create_serialize || j->size || j->filesize[0] || j->io_size || !j->filename[0] || job_copies(j) ||
	    (j->engine->flags & ENGINE_NO_FILE) || j->plan.tree || j->fileop || cluster_size() > 1)
		return false;
	bool walled = false;
	for (unsigned k = me; k-- > 0;) {
		const struct job_result *e = &r->jobs[k];
		walled = walled || r->jobs[k + 1].job.stonewall;
		if (!walled || !job_writes(&e->job))
			continue;
		for (unsigned t = 0; e->targets && t < e->ntargets; t++)
			for (unsigned f = 0; f < job_nfiles(j); f++) {
				char path[PATH_MAX];
				struct ig_err dummy = { 0 };
				if (!place_path(j, 0, f, path, sizeof(path), &dummy) && !strcmp(path, e->targets[t].path))
					return true;
			}
	}
	return false;
}

int runner_prepare_late(struct run_ctx *c, struct run_result *r, struct job_result *jr,
			const struct run_opts *o)
{
	jr->late = false;
	return prepare_targets(c, r, jr, o);
}

/* The job's files: checked, claimed, created and laid out (fio's setup_files). */
static int prepare_targets(struct run_ctx *c, struct run_result *r, struct job_result *jr,
			   const struct run_opts *o)
{
	struct job *j = &jr->job;
	bool nofile = j->engine->flags & ENGINE_NO_FILE;
	/* A thread's files: its own (JOBNAME.JOBNUM.FILENUM), or the named ones, shared. */
	jr->nfiles = nofile ? 1 : job_nfiles(j);
	jr->shared_files = j->filename[0] || nofile;
	jr->ntargets = jr->shared_files ? jr->nfiles : j->numjobs * jr->nfiles;
	unsigned nsrc = jr->ntargets;
	if (job_copies(j))
		jr->ntargets = 2;
	jr->targets = xcalloc(jr->ntargets, sizeof(struct target));
	jr->region_start = xcalloc(jr->ntargets, sizeof(uint64_t));
	jr->region_size = xcalloc(jr->ntargets, sizeof(uint64_t));
	for (unsigned i = 0; i < jr->ntargets; i++)
		jr->targets[i].fd = -1;
	bool deferred = false;
	struct layout_plan lp;
	if (layout_plan_init(&lp, j, &r->err))
		return -1;
	int rc = 0;
	for (unsigned i = 0; i < nsrc && !rc; i++) {
		struct target *t = &jr->targets[i];
		if (nofile) {
			/* Threads of the null engine's one "file" are also --offset_increment apart. */
			uint64_t span = j->numjobs > 1 ? (j->numjobs - 1) * j->offset_increment : 0;
			jr->region_start[i] = j->offset;
			jr->region_size[i] = file_size(j, 1, 0, thread_number(r, jr, 0));
			t->size = j->offset + jr->region_size[i] + span;
			t->direct = j->direct;
			continue;
		}
		char path[PATH_MAX];
		if (target_of(jr, i, path, sizeof(path), &r->err)) {
			rc = -1;
			break;
		}
		if (place_deferred(j, path)) {
			deferred = true; /* after the rank that makes or holds it (prepare_deferred) */
			continue;
		}
		rc = prepare_file(c, r, jr, i, path, &lp, o);
	}
	layout_plan_free(&lp);
	if (rc)
		return -1;
	if (!deferred) {
		sum_regions(jr);
		apply_io_pct(jr);
	}
	if (job_copies(j) && prepare_copy_target(c, r, jr, &jr->targets[1], o))
		return -1;
	if (j->verify && prepare_verify(r, jr))
		return -1;
	return deferred ? 0 : check_region(jr, &r->err);
}

/*
 * The other ranks' turn: a shared file rank 0 has created and laid out, a
 * device its host's first rank holds (exclusively, to write: this run's own
 * claim, not someone else's).
 */
int runner_prepare_deferred(struct run_ctx *c, struct run_result *r, struct job_result *jr,
			     const struct run_opts *o)
{
	struct job *j = &jr->job;
	bool any = false;
	/* A copy's destination (the last target) is never deferred. */
	unsigned nsrc = job_copies(j) ? jr->ntargets - 1 : jr->ntargets;
	struct layout_plan lp;
	if (layout_plan_init(&lp, j, &r->err))
		return -1;
	int rc = 0;
	bool fileset = false;
	for (unsigned i = 0; jr->targets && i < nsrc && !rc && !fileset; i++) {
		char path[PATH_MAX];
		struct stat st;
		if (target_of(jr, i, path, sizeof(path), &r->err)) {
			rc = -1;
			break;
		}
		if (!place_deferred(j, path))
			continue;
		if (j->fileop) {
			fileset = true;
			rc = fileset_follow_root(&jr->targets[0], path, j, &r->err) ? -1 : 0;
			break;
		}
		any = true;
		bool dev = !stat(path, &st) && S_ISBLK(st.st_mode);
		if (dev)
			ctx_claim(c, st.st_rdev, 0);
		rc = prepare_file(c, r, jr, i, path, &lp, o);
		if (dev)
			ctx_unclaim(c, st.st_rdev, 0);
	}
	layout_plan_free(&lp);
	if (rc || fileset)
		return rc;
	if (any) {
		sum_regions(jr);
		apply_io_pct(jr);
	}
	return any ? check_region(jr, &r->err) : 0;
}
