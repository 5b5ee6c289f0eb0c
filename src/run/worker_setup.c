/* A worker before and after its loop: the plan of its requests, its files, buffers and engine, what it reports at the end. */
#include "stats/fiolog.h"
#include "base/common.h"
#include "model/cmdprio.h"
#include "model/fio_fileops.h"
#include "run/admit.h"
#include "run/fileset.h"
#include "run/tree.h"
#include "run/worker.h"
#include "run/worker_error.h"
#include "run/worker_int.h"
#include "run/worker_measure.h"
#include "model/iolog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Offload: lat (from the preparation) apart from clat whatever the engine; slat as the engine has it. */
static void want(struct worker *w, int op, bool async)
{
	stats_want(&w->st, op, async);
	if (w->offload && !async)
		stats_want_lat(&w->st, op);
}

/* The histograms this job's thread can fill: allocated now, never in the loop. */
static void want_stats(struct worker *w)
{
	const struct job *j = w->job;
	bool async = !(j->engine->flags & ENGINE_SYNC);
	if (j->fileop) {
		stats_want(&w->st, job_file_op(j), false);
		return;
	}

	/* Reads back for --verify are the job's reads too (fio's accounting). */
	if (rw_reads(j->rw) || (j->plan.hooks && j->plan.hooks->readback))
		want(w, IO_READ, async);
	if (rw_trims(j->rw))
		want(w, IO_TRIM, async);
	if (((rw_writes(j->rw) || j->rewrite_pct) && !j->verify_only) || job_copies(j))
		want(w, IO_WRITE, async);
	if (j->fsync_every || j->end_fsync)
		want(w, IO_FSYNC, async);
	if (j->fdatasync_every || j->end_fdatasync)
		want(w, IO_FDATASYNC, async);
	for (int op = IO_FSYNC; j->plan.replay && op <= IO_FDATASYNC; op++)
		for (unsigned l = 0; l < (j->plan.nreplays ? j->plan.nreplays : 1); l++)
			if (iolog_has_op(j->plan.nreplays ? j->plan.replays[l] : j->plan.replay, op))
				want(w, op, async); /* the syncs of a replayed log */
}

/* A copy's destination: its own descriptor and engine context, sharing the source's buffers. */
static int setup_copy(struct worker *w)
{
	const struct job *j = w->job;
	int sync_flags = j->plan.copy.sync == SYNC_SYNC ? O_SYNC : j->plan.copy.sync == SYNC_DSYNC ? O_DSYNC : 0;
	int fd = target_open_fd(w->copy_target, j->plan.copy.direct && w->copy_target->direct, sync_flags, true);
	if (fd < 0) {
		worker_set_error(w, -fd, 0, ERR_OP_OPEN, false);
		snprintf(w->st.err_file, sizeof(w->st.err_file), "%s", w->copy_target->path);
		return -1;
	}
	w->cctx = w->ectx;
	w->cctx.fd = fd;
	w->cctx.priv = NULL;
	w->cctx.file_size = w->copy_target->size;
	int rc = j->engine->init ? j->engine->init(&w->cctx) : 0;
	if (rc < 0) {
		worker_set_error(w, -rc, 0, ERR_OP_ENGINE, false);
		return -1;
	}
	w->copy_ready = true;
	w->wctx = &w->cctx;
	return 0;
}

/* The thread's other files, each with its own descriptor (fds[0] is the first file's). */
static int open_files(struct worker *w, bool direct, int sync_flags, bool writes)
{
	const struct job *j = w->job;
	w->fds = xcalloc(w->nfiles, sizeof(int));
	w->fds[0] = w->ectx.fd;
	for (unsigned f = 1; f < w->nfiles; f++)
		w->fds[f] = -1;
	for (unsigned f = 1; f < w->nfiles; f++) {
		const struct target *t = &w->target[f];
		int fd = target_open_fd(t, direct && t->direct, sync_flags, writes);
		if (fd < 0) {
			worker_set_error(w, -fd, 0, ERR_OP_OPEN, false);
			snprintf(w->st.err_file, sizeof(w->st.err_file), "%s", t->path);
			return -1;
		}
		w->fds[f] = fd;
		if (!direct && j->fadvise_hint)
			posix_fadvise(fd, 0, 0, rw_is_random(j->rw) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
	}
	w->ectx.fds = w->fds;
	w->ectx.nfiles = w->nfiles;
	return 0;
}

/*
 * Every slot's buffer, one region.  From 2 MiB on, aligned to 2 MiB and asked
 * for huge pages (MADV_HUGEPAGE, where the kernel has them to give): the
 * data generator, the kernel's copies and registered buffers then walk one
 * page table entry per 2 MiB, not 512.
 */
#define HUGE_PAGE (2u << 20)
static void alloc_bufs(struct worker *w, size_t align, size_t len)
{
	w->bufs_mapped = false;
	w->bufs_len = len;
	if (len >= HUGE_PAGE && align <= HUGE_PAGE) {
		size_t body = (len + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE, map = body + HUGE_PAGE;
		char *p = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {
			char *a = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
			if (a > p)
				munmap(p, (size_t)(a - p));
			if (p + map > a + body)
				munmap(a + body, (size_t)(p + map - (a + body)));
			madvise(a, body, MADV_HUGEPAGE);
			w->bufs = a;
			w->bufs_len = body;
			w->bufs_mapped = true;
			return;
		}
	}
	w->bufs = xaligned(align, len);
}

int worker_setup(struct worker *w)
{
	const struct job *j = w->job;
	const struct engine_ops *e = j->engine;
	bool writes = job_writes(j) || (e->flags & ENGINE_ALLOC);
	unsigned depth = w->eng->flags & ENGINE_SYNC ? 1 : j->iodepth;

	want_stats(w);
	w->st.log = fiolog_new(w->job);
	w->iolog = w->st.log && !w->st.log->interval_ns ? w->st.log : NULL;
	w->winlog = w->st.log && w->st.log->track_max ? w->st.log : NULL;
	/* completions through worker_check_done(): hooks, a log of each request or window maximum, cmdprio's latencies */
	w->slow_done = w->hooks != NULL || w->iolog != NULL || w->winlog != NULL || w->ectx.prio != NULL;
	w->ectx.fd = -1;
	w->cctx.fd = -1;
	w->wctx = &w->ectx;
	w->ectx.job = j;
	w->ectx.thread = w->thread;
	w->ectx.path = w->target->path;
	w->ectx.stop = w->stop;
	if (!(e->flags & ENGINE_NO_FILE) && !j->fileop && !j->plan.tree) {
		int sync_flags = j->sync == SYNC_SYNC ? O_SYNC : j->sync == SYNC_DSYNC ? O_DSYNC : 0;
		bool direct = j->direct && w->target->direct;
		int fd = target_open_fd(w->target, direct, sync_flags, writes);
		if (fd < 0) {
			worker_set_error(w, -fd, 0, ERR_OP_OPEN, false);
			return -1;
		}
		w->ectx.fd = fd;
		if (!direct && j->fadvise_hint)
			posix_fadvise(fd, 0, 0, rw_is_random(j->rw) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
		w->inval_passes = !direct && j->invalidate && j->time_based && rw_reads(j->rw) && !w->multi;
		if (w->multi && open_files(w, direct, sync_flags, writes))
			return -1;
	}
	w->ectx.file_size = w->target->size;
	w->ectx.blkdev = w->target->is_blockdev;
	if (w->ectx.blkdev && rw_trims(j->rw) && w->ectx.fd >= 0) {
		unsigned n = w->multi ? w->nfiles : 1;
		w->trim_fds = xcalloc(n, sizeof(int));
		for (unsigned f = 0; f < n; f++)
			w->trim_fds[f] = w->target[f].excl ? w->target[f].fd : -1;
		w->ectx.trim_fds = w->trim_fds;
	}
	w->ectx.depth = depth;
	w->ectx.opts = job_engine_opts(j);
	/* A file op's buffer holds a whole small file, or a slice of a large one. */
	uint64_t buf_size = j->fileop ? (j->filesize[1] < 4096 ? 4096 : j->filesize[1] > (1 << 20) ? 1 << 20 : j->filesize[1]) :
					pattern_max_bs(j);
	w->ectx.buf_size = buf_size;
	w->ectx.ios = xcalloc(depth, sizeof(struct io_u));
	w->free_ios = xcalloc(depth, sizeof(struct io_u *));
	w->batch = xcalloc(depth, sizeof(struct io_u *));
	w->done = xcalloc(depth, sizeof(struct io_u *));
	if (j->plan.hooks && j->plan.hooks->readback)
		w->rbatch = xcalloc(depth, sizeof(struct io_u *));
	size_t align = w->target->dio_mem_align > 4096 ? w->target->dio_mem_align : 4096;
	size_t slot = ((size_t)(buf_size ? buf_size : 1) + align - 1) / align * align;
	alloc_bufs(w, align, slot * depth);
	for (unsigned i = 0; i < depth; i++) {
		struct io_u *u = &w->ectx.ios[i];
		u->idx = i;
		u->fd = w->ectx.fd;
		u->buf = (char *)w->bufs + slot * i;
		data_fill(&w->dg, u->buf, buf_size);
		w->free_ios[w->nfree++] = u;
	}
	int rc = w->eng->init ? w->eng->init(&w->ectx) : 0;
	w->st.prepared_items = w->ectx.prepared;
	w->st.prepare_ns = w->ectx.prepare_ns;
	if (rc == -EINTR && *w->stop) {
		w->st.interrupted = true; /* a long preparation cut short: no error */
		return -1;
	}
	if (rc < 0) {
		worker_set_error(w, -rc, 0, ERR_OP_ENGINE, false);
		return -1;
	}
	w->engine_ready = true;
	rc = w->copy_target ? setup_copy(w) : 0;
	return rc ? rc : admit_setup(w);
}

void worker_teardown(struct worker *w)
{
	worker_iolog_end(w);
	for (unsigned f = 1; w->fds && f < w->nfiles; f++)
		if (w->fds[f] >= 0)
			close(w->fds[f]);
	free(w->fds);
	w->fds = NULL;
	free(w->trim_fds);
	w->trim_fds = NULL;
	free(w->files);
	w->files = NULL;
	if (w->copy_ready && w->job->engine->cleanup)
		w->job->engine->cleanup(&w->cctx);
	if (w->cctx.fd >= 0)
		close(w->cctx.fd);
	w->cctx.fd = -1;
	pattern_free(&w->pat);
	/* Offload: its threads are joined here, on every way out of the job (before what they may read goes). */
	if (w->engine_ready && w->eng->cleanup)
		w->eng->cleanup(&w->ectx);
	cmdprio_free(w->ectx.prio);
	w->ectx.prio = NULL;
	if (w->bufs_mapped)
		munmap(w->bufs, w->bufs_len);
	else
		free(w->bufs);
	w->bufs = NULL;
	free(w->ectx.ios);
	free(w->free_ios);
	free(w->batch);
	free(w->done);
	free(w->rbatch);
	admit_free(w);
	if (w->ectx.fd >= 0)
		close(w->ectx.fd);
	w->ectx.fd = -1;
}

/*
 * A region that is not whole blocks (dd's input to its end): one more,
 * shorter request.  A direct read asks for whole sectors and gets the rest of
 * the file; a direct write of a part-sector tail goes out without O_DIRECT.
 */
static void plan_tail(struct worker *w)
{
	const struct job *j = w->job;
	bool reads = rw_reads(j->rw);
	unsigned align = j->direct && w->target->direct && w->target->lbs ? w->target->lbs : 1;
	w->tail_len = j->size % j->bs;
	w->tail_off = w->region + w->nblocks * j->bs;
	w->nblocks++;
	w->tail_req = (uint32_t)(reads ? (w->tail_len + align - 1) / align * align : w->tail_len);
	if (w->tail_req > j->bs)
		w->tail_req = (uint32_t)j->bs;
	const struct target *wt = job_copies(j) ? w->copy_target : reads ? NULL : w->target;
	bool wdirect = job_copies(j) ? j->plan.copy.direct : j->direct;
	unsigned walign = wt && wt->lbs ? wt->lbs : 512;
	w->dio_tail = wt && wdirect && wt->direct && w->tail_len % walign;
}

/* Several files: each its own region and offset generator; fio's file service order. */
static int plan_files(struct worker *w, enum offgen_kind kind, uint64_t seed)
{
	const struct job *j = w->job;
	w->files = xcalloc(w->nfiles, sizeof(*w->files));
	w->files_total = 0;
	bool split = j->plan.hooks && j->plan.hooks->split && j->numjobs > 1;
	for (unsigned f = 0; f < w->nfiles; f++) {
		struct wfile *wf = &w->files[f];
		wf->start = w->region_start[f] + w->region_shift;
		wf->nblocks = wf->left = w->region_size[f] / j->bs;
		if (split) {
			/* --verify: thread t takes the t-th of numjobs slices of each shared file. */
			wf->nblocks = wf->left = wf->nblocks / j->numjobs;
			wf->start += (uint64_t)w->thread * wf->nblocks * j->bs;
		}
		if (offgen_init(&wf->og, kind, j->dist, j->dist_param, wf->nblocks, seed + f))
			return -1;
		w->files_total += wf->nblocks;
	}
	w->files_left = w->nfiles;
	w->cur_file = 0;
	w->file_count = j->file_service_nr > 1 ? j->file_service_nr : 1;
	return 0;
}

/* fio's zoned distributions: the zones' sizes in blocks of this job. */
static int zones_init(struct worker *w, const struct job *j)
{
	unsigned access[ZONES_MAX];
	uint64_t len[ZONES_MAX], blk = j->size / w->nblocks;
	for (unsigned i = 0; i < j->nzones; i++) {
		access[i] = j->zones[i].access_pct;
		len[i] = j->zones_abs ? j->zones[i].size_abs / blk :
					(uint64_t)((unsigned __int128)w->nblocks * j->zones[i].size_pct / 100);
	}
	return offgen_zones(&w->og, access, len, j->nzones);
}

/* Seeds, offsets and the flags that steer the loop. */
int worker_plan(struct worker *w)
{
	const struct job *j = w->job;
	uint64_t seed = j->randrepeat ? j->randseed : now_ns();
	seed ^= ((uint64_t)j->plan.index << 40) ^ ((uint64_t)w->thread << 20);
	rng_seed(&w->rng, seed ^ 0x5bd1e995);
	static const enum offgen_kind seq_kinds[] = { OFFGEN_SEQ, OFFGEN_BACKWARD, OFFGEN_STRIDE };
	double param = j->seq_order == SEQ_STRIDE ? (double)j->seq_stride : j->dist_param;
	/* fio's lfsr visits every block once a pass even with norandommap: so does the permutation. */
	bool repeats = j->norandommap && j->random_generator != RANDGEN_LFSR;
	enum offgen_kind kind = !rw_is_random(j->rw)			 ? seq_kinds[j->seq_order] :
				(repeats || j->dist != DIST_RANDOM) ? OFFGEN_DIST :
								      OFFGEN_PERM;
	w->var = pattern_wanted(j);
	w->multi = w->nfiles > 1;
	w->trimwrite = rw_trimwrite(j->rw) && !j->verify_only;
	w->zoned = j->zonemode == ZONEMODE_STRIDED && !j->fileop;
	w->slow_prep = w->var || w->multi || w->trimwrite || w->zoned;
	w->bs = j->bs;
	w->stride = j->plan.stride ? j->plan.stride : j->bs; /* an interleaved segment: every N-th block */
	w->len = (uint32_t)j->bs;
	w->region = (w->region_start ? w->region_start[0] : j->offset) + w->region_shift;
	/* Offsets in blocks: of the block size, or of the pattern's unit (its alignment). */
	w->nblocks = j->size / (w->var ? pattern_unit(j) : j->bs);
	if (j->plan.hooks && j->plan.hooks->split && j->numjobs > 1) {
		/* Thread t: the t-th of numjobs equal slices (no block is two threads'). */
		w->nblocks /= j->numjobs;
		w->region += (uint64_t)w->thread * w->nblocks * j->bs;
	}
	w->tail_off = UINT64_MAX;
	if (j->plan.short_tail && j->size % j->bs && !w->var && !j->fileop)
		plan_tail(w);
	if (j->fileop) {
		/* A request's offset is an item's number; the engine sets its length. */
		kind = j->file_order ? OFFGEN_PERM : OFFGEN_SEQ;
		w->var = false;
		w->bs = 1;
		w->stride = j->plan.item_step ? j->plan.item_step : 1; /* several ranks in one file set (place.c) */
		w->len = 0;
		w->region = j->plan.item_first;
		w->nblocks = j->nrfiles;
	}
	if (j->plan.tree) {
		/* A tree job: a request is an item of the thread's run of the tree (tree.h). */
		kind = OFFGEN_SEQ;
		w->var = false;
		w->bs = w->stride = 1;
		w->len = 0;
		tree_range(j->plan.tree, w->thread, &w->region, &w->nblocks);
	}
	if (w->zoned) {
		/* The walk covers one zone; the zones move over the region (prep_zone). */
		w->zbase = w->region;
		w->zend = w->region + j->size;
	}
	/* A thread of a tree job may have no item: its loop ends at once. */
	if (offgen_init(&w->og, kind, j->dist, param,
			w->zoned ? j->zonerange / j->bs : (w->nblocks || !j->plan.tree) ? w->nblocks : 1, seed))
		return -1;
	if (j->dist == DIST_ZONED && zones_init(w, j))
		return -1;
	if (w->zoned)
		w->znext = worker_zone_next(w); /* drawn ahead: the last request is known when it is prepared */
	if (w->multi && plan_files(w, kind, seed))
		return -1;
	/* Requests of a size-bound job: its region's blocks (or io_size's worth) each loop. */
	/* Several files: their regions, or a smaller --size (fio stops at it, with --filesize too). */
	/* An io_size short of a whole block: fio issues that last block whole. */
	uint64_t per_loop = j->io_size && !job_io_loops(j) ? (j->io_size + j->bs - 1) / j->bs :
			    w->multi ? (w->files_total < j->size / j->bs ? w->files_total : j->size / j->bs) :
			    w->nblocks;
	w->per_loop = per_loop;
	w->remaining = j->time_based || w->var ? UINT64_MAX : per_loop * job_loops(j);
	/* fio's do_io stops at io_size x loops bytes in all: the last loop of io_size beyond size is cut. */
	uint64_t io_total = j->io_size * (j->loops ? j->loops : 1);
	if (w->remaining != UINT64_MAX && job_io_loops(j) && (io_total + j->bs - 1) / j->bs < w->remaining)
		w->remaining = (io_total + j->bs - 1) / j->bs;
	/* --verify reads back at each loop's end, as fio does (the last one's after the job). */
	w->loop_verify = j->plan.hooks && j->plan.hooks->readback && j->plan.hooks->per_loop && !j->time_based &&
			 job_loops(j) > 1;
	if (j->fileop && j->engine->fileop && !j->time_based) {
		/* fio's file engines: the files fio's loop reaches, once a loop (fio_fileops.h). */
		struct fio_fileop_plan fp;
		fio_fileop_plan(j, w->thread_number, &fp);
		w->remaining = fp.opens;
	}
	if (j->number_ios)
		w->remaining = j->number_ios;
	if (w->zoned && w->znext == ZONE_END)
		w->remaining = 0; /* not one whole block in the region */
	if (w->trimwrite && w->remaining != UINT64_MAX)
		w->remaining *= 2; /* a trim and a write of each block, as fio counts them */
	w->copy_delta = j->plan.copy.offset - j->offset;
	w->op = j->fileop ? (uint8_t)job_file_op(j) : rw_reads(j->rw) ? IO_READ : rw_trims(j->rw) ? IO_TRIM : IO_WRITE;
	w->mixed = rw_is_mixed(j->rw) && !j->fileop;
	mix_init(&w->mix, j, w->thread_number, seed ^ 0x6d6978ULL);
	/* cmdprio: fio's stream and tables; each direction's priorities get their statistics. */
	w->ectx.prio = cmdprio_new(j, w->thread_number, seed ^ 0x7072696fULL);
	for (int d = 0; w->ectx.prio && d < DDIR_NR; d++)
		if (w->ectx.prio->nprios[d])
			stats_want_prio(&w->st, d, w->ectx.prio->prios[d], w->ectx.prio->nprios[d]);
	if (w->var && pattern_init(&w->pat, j, w->thread_number, seed ^ 0x7061747465726eULL))
		return -1;
	w->pat.region_start = w->region; /* this thread's: its file's region, --offset_increment */
	data_init(&w->dg, &j->data, seed ^ 0x6461746121ULL);
	if (j->data.dedupe && j->dedupe_mode == DEDUPE_WORKING_SET) {
		/* fio's working set: PCT% of the region's blocks, the same for every thread of the run. */
		uint64_t bs = pattern_min_bs(j);
		data_working_set(&w->dg, j->size * j->dedupe_ws_pct / 100 / (bs ? bs : 1), j->randseed,
				 j->dedupe_global ? w->dedupe_index : DATA_WS_OWN + w->thread_number,
				 w->dedupe_threads, j->dedupe_global);
	}
	/* Reads into the write buffers (mixed jobs, read-backs along the way) spoil zeros and patterns. */
	bool reads_into = w->mixed || (j->plan.hooks && j->plan.hooks->readback);
	w->refresh = rw_writes(j->rw) && data_needs_refresh(&j->data, j->refill_buffers, reads_into) &&
		     !(j->plan.hooks && j->plan.hooks->fills);
	w->update_threshold = (uint64_t)j->rewrite_pct * (1ULL << 32) / 100;
	w->refresh_rewrites = j->rewrite_pct && data_needs_refresh(&j->data, j->refill_buffers, false);
	w->sync_every = j->fsync_every ? j->fsync_every : j->fdatasync_every;
	w->sync_op = j->fsync_every ? IO_FSYNC : IO_FDATASYNC;
	worker_rate_setup(w);
	w->throttled = w->rate_on || j->thinktime_ns;
	if (worker_iolog_setup(w))
		return -1;
	w->hooks = j->plan.hooks;
	w->slow_path = worker_slow_wanted(w);
	w->issuing = true;
	return 0;
}

void worker_finish(struct worker *w)
{
	const struct job *j = w->job;
	bool wrote = job_writes(j) || job_copies(j);
	for (unsigned f = 0; f < (w->wctx->fds ? w->nfiles : 1); f++) {
		w->cur_file = f;
		if (j->end_fsync && wrote && !w->st.err && w->wctx->fd >= 0)
			worker_sync(w, IO_FSYNC);
	}
	if (j->end_fdatasync && wrote && !w->st.err && w->wctx->fd >= 0)
		worker_sync(w, IO_FDATASYNC);
	if (j->end_close && w->ectx.fd >= 0) {
		/* Timed, not counted as a request: psync and sync keep nothing of the descriptor. */
		if (close(w->ectx.fd) && !w->st.err)
			worker_set_error(w, errno, 0, ERR_OP_ENGINE, false);
		w->ectx.fd = -1;
	}
	uint64_t now = now_ns();
	if (!w->measuring) {
		/* Ended inside the ramp: nothing was measured, so nothing is reported. */
		stats_reset(&w->st);
		return;
	}
	/* A size-bound job stopped early (a signal, an error, another rank's stop): what it had left. */
	if (w->filled)
		w->st.left_bytes = 0; /* fill_device: the file system's end is the job's */
	else if (!j->time_based && !w->var)
		w->st.left_bytes = w->remaining * w->bs;
	else if (!j->time_based && !w->var_done)
		w->st.left_bytes = w->pat.total_left;
	/* The tail interval, when anything completed in it. */
	const struct series *sr = &w->st.series;
	uint64_t last_ios = sr->n ? sr->pts[sr->n - 1].ios[0] + sr->pts[sr->n - 1].ios[1] : 0;
	if (w->st.op[IO_READ].ios + w->st.op[IO_WRITE].ios > last_ios)
		worker_push_point(w, now);
	if (w->next_log != UINT64_MAX)
		fiolog_window(w->st.log, &w->st, now - w->measure_start, true);
	struct cpu_usage end;
	worker_cpu_now(&end);
	w->st.cpu.usr_ns = end.usr_ns - w->cpu_start.usr_ns;
	w->st.cpu.sys_ns = end.sys_ns - w->cpu_start.sys_ns;
	w->st.cpu.ctx = end.ctx - w->cpu_start.ctx;
	w->st.cpu.majf = end.majf - w->cpu_start.majf;
	w->st.cpu.minf = end.minf - w->cpu_start.minf;
	w->st.elapsed_ns = now - w->measure_start;
	/* At once, before writeback goes on: what the clock did not wait for. */
	if (wrote && w->wctx->fd >= 0)
		w->unsynced = target_unsynced(w->wctx->fd, job_copies(j) ? j->plan.copy.offset : j->offset, j->size);
}

void worker_stats_close(struct worker *w)
{
	if (!w->measuring) {
		stats_reset(&w->st); /* nothing measured: nothing reported */
		return;
	}
	if (!(w->eng->flags & ENGINE_SYNC))
		return;
	/* Synchronous engines: lat is clat (no submit call apart from the request). */
	for (int o = 0; o < IO_OP_NR; o++)
		if (w->st.op[o].clat.h)
			lat_copy(&w->st.op[o].lat, &w->st.op[o].clat);
	/* One request per call, one in flight: the distributions without a cost per request. */
	uint64_t n = w->st.op[IO_READ].ios + w->st.op[IO_WRITE].ios + w->st.op[IO_TRIM].ios;
	w->st.depth[0] = n;
	w->st.submit[1] = w->st.complete[1] = n;
}
