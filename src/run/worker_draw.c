/*
 * Where the next request goes when it is not the fast path's one fixed
 * block size in one region (worker_prep_var): several files (fio's
 * file_service_type), fio's patterns (pattern.c), strided zones, trimwrite's
 * pairs, read_iolog's replay.  The plain draw is inline in worker_int.h.
 */
#include "base/common.h"
#include "run/worker.h"
#include "run/worker_int.h"

/* fio's file_service_type: the file the next request goes to. */
static unsigned next_file(struct worker *w)
{
	const struct job *j = w->job;
	if (w->file_count && w->files[w->cur_file].left) {
		w->file_count--;
		return w->cur_file;
	}
	unsigned f = w->cur_file, n = w->nfiles;
	if (j->file_service == FSERVICE_RANDOM) {
		for (unsigned tries = 0; tries < 4 * n; tries++) {
			f = (unsigned)rng_below(&w->rng, n);
			if (w->files[f].left)
				goto found;
		}
	}
	/* In turn (roundrobin moves on, sequential stays until the file is done). */
	if (j->file_service == FSERVICE_RR || !w->files[f].left)
		f = (f + 1) % n;
	while (!w->files[f].left)
		f = (f + 1) % n;
found:
	w->cur_file = f;
	w->file_count = j->file_service_nr > 1 ? j->file_service_nr - 1 : 0;
	return f;
}

/* A request to one of several files; a file is done when its region is, the loop when all are. */
static void prep_files(struct worker *w, struct io_u *u)
{
	unsigned f = next_file(w);
	struct wfile *wf = &w->files[f];
	u->offset = wf->start + offgen_next(&wf->og) * w->bs;
	u->len = (uint32_t)w->bs;
	u->op = w->mixed ? mix_next(&w->mix) : w->op;
	u->fd = w->fds[f];
	u->file = f;
	if (--wf->left == 0 && --w->files_left == 0) {
		/* Every file done: the next loop (or pass, for time or io_size) covers them all again. */
		for (unsigned i = 0; i < w->nfiles; i++)
			w->files[i].left = w->files[i].nblocks;
		w->files_left = w->nfiles;
		if (w->loop_reseed)
			mix_reset(&w->mix);
	}
}

/* Requests beyond one fixed block size: sizes, holes, seeks every N (pattern.c). */
static void prep_pattern(struct worker *w, struct io_u *u)
{
	pattern_next(&w->pat, &w->og, &w->mix, w->op, &u->op, &u->offset, &u->len);
	if (w->pat.done) {
		/* This is the last request: the synchronous loop stops after it (the batch: below). */
		w->var_done = true;
		w->remaining = 1;
	}
	if ((w->pat.pass_end && w->inval_passes) || (w->pat.loop_end && w->loop_verify)) {
		w->pass_end = true;
		w->slow_path = true;
	}
}

/*
 * fio's strided zones (io_u.c's setup_strided_zone_mode, fill_io_u): zonesize
 * bytes of requests in a zone, then the next zone zonerange + zoneskip
 * further, back to the region's start once a zone would start at or past its
 * end; the walk starts over in the zone every zonerange bytes.  A zone the
 * region's end cuts short is walked as far as it goes: a request that would
 * cross the end ends the loop there, as fio's does at the end of the file
 * (a sequential time-based walk starts the zone over instead, as fio's
 * get_next_seq_offset does).  fio then runs another loop from the region's
 * start while --loops last, or io_size bytes are not done (keep_running);
 * else the job ends.  The offset of the request after each one is drawn
 * ahead (znext), so the last one is known when it is prepared.
 */
static uint64_t zone_draw(struct worker *w)
{
	const struct job *j = w->job;
	if (w->zbytes >= j->zonesize) {
		w->zbytes = 0;
		w->zbase = job_zone_next(j, w->region, w->zend, w->zbase);
	}
	if (w->zbytes % j->zonerange == 0)
		offgen_restart(&w->og);
	return w->zbase + offgen_next(&w->og) * w->bs;
}

uint64_t worker_zone_next(struct worker *w)
{
	const struct job *j = w->job;
	uint64_t off = zone_draw(w);
	if (off + w->len <= w->zend)
		return off;
	if (j->time_based && !rw_is_random(j->rw)) {
		offgen_restart(&w->og);
		off = w->zbase + offgen_next(&w->og) * w->bs;
		return off + w->len <= w->zend ? off : ZONE_END;
	}
	bool more = j->time_based || ++w->zloop < (j->loops ? j->loops : 1) ||
		    (j->io_size && w->zmoved + w->len <= j->io_size);
	if (!more || !w->zmoved_loop)
		return ZONE_END; /* no loop left, or a loop that moved nothing would not end */
	/* fio's next loop: clear_io_state (the region's start) and reset_io_counters (zone_bytes). */
	w->zbase = w->region;
	w->zbytes = 0;
	w->zmoved_loop = 0;
	off = zone_draw(w);
	return off + w->len <= w->zend ? off : ZONE_END;
}

static void prep_zone(struct worker *w, struct io_u *u)
{
	u->offset = w->znext;
	u->len = w->len;
	u->op = w->mixed ? mix_next(&w->mix) : w->op;
	w->zbytes += u->len;
	w->zmoved += u->len;
	w->zmoved_loop += u->len;
	w->znext = worker_zone_next(w);
	if (w->znext == ZONE_END) {
		/* This is the last request: the synchronous loop stops after it (the batch: worker.c). */
		w->var_done = true;
		w->remaining = 1;
	}
}

/* rw=trimwrite: the block just trimmed is written (the job's last pair ends with it). */
static void prep_tw_write(struct worker *w, struct io_u *u)
{
	u->offset = w->tw_off;
	u->len = w->tw_len;
	u->op = IO_WRITE;
	w->tw_pending = false;
	if (w->tw_last) {
		w->var_done = true;
		w->remaining = 1;
	}
}

void worker_prep_var(struct worker *w, struct io_u *u)
{
	if (w->replay) {
		worker_replay_next(w, u);
		return;
	}
	if (w->tw_pending) {
		prep_tw_write(w, u);
		return;
	}
	uint64_t remaining = w->remaining;
	if (w->multi)
		prep_files(w, u);
	else if (w->var)
		prep_pattern(w, u);
	else if (w->zoned)
		prep_zone(w, u);
	else
		worker_draw_plain(w, u);
	if (w->trimwrite) {
		/* A trim (w->op); its write comes next, so the last trim is not the last request. */
		w->tw_pending = true;
		w->tw_off = u->offset;
		w->tw_len = u->len;
		w->tw_last = w->var_done;
		if (w->var_done) {
			w->var_done = false;
			w->remaining = remaining; /* the write ends the job (prep_tw_write) */
		}
	}
}

void worker_plan_next(struct worker *w, struct io_u *u)
{
	worker_draw(w, u);
	/* A pass's end, as the run had it: fio's streams start over for the next loop. */
	if (--w->pass_left == 0) {
		w->pass_left = w->nblocks;
		if (w->loop_reseed)
			mix_reset(&w->mix);
	}
}
