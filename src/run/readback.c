/*
 * The worker's read-backs and plan-only replay, for hooks that ask for them
 * (verification, verify.c): reads of the blocks the hooks name, through the
 * job's engine and queue depth.  They are the job's reads, timed and counted
 * as fio counts its verify reads.
 */
#include "base/common.h"
#include "model/iolog.h"
#include "run/worker.h"
#include "run/worker_error.h"
#include "run/worker_int.h"
#include "run/worker_measure.h"

#include <errno.h>
#include <string.h>

static void prep_readback(struct worker *w, struct io_u *u, unsigned file, uint64_t off, uint32_t len)
{
	const struct worker_hooks *h = w->hooks;
	u->op = IO_READ;
	u->offset = off;
	u->len = len;
	/* The block's own file: the slot may have served another of the thread's files. */
	if (w->fds && file < w->nfiles) {
		u->fd = w->fds[file];
		u->file = file;
	}
	if (h->prep)
		h->prep(h->arg, w->thread, u);
	/* fio's write_iolog has its verify reads too, where they come among the writes. */
	if (w->wlog)
		iolog_writer_io(w->wlog, u->op, u->offset, u->len);
}

/* A synchronous engine: one read at a time in the first slot (nothing else is in flight). */
static void readback_sync(struct worker *w, bool final)
{
	const struct engine_ops *e = w->eng;
	const struct worker_hooks *h = w->hooks;
	struct io_u *u = &w->ectx.ios[0];
	uint64_t off;
	uint32_t len;
	unsigned file = 0;
	while (!*w->stop && !w->st.err && h->readback(h->arg, w->thread, final, &file, &off, &len)) {
		prep_readback(w, u, file, off, len);
		u->start = u->issued = now_ns();
		u->res = e->do_io(&w->ectx, u);
		worker_complete(w, u, now_ns());
	}
}

static void reap_some(struct worker *w, unsigned min)
{
	const struct engine_ops *e = w->eng;
	int got = e->reap(&w->ectx, min, w->ectx.depth, w->done);
	if (got < 0 && got != -EINTR) {
		worker_set_error(w, -got, 0, ERR_OP_ENGINE, false);
		return;
	}
	uint64_t now = now_ns();
	for (int i = 0; i < got; i++) {
		worker_complete(w, w->done[i], now);
		w->free_ios[w->nfree++] = w->done[i];
	}
	w->inflight -= got > 0 ? (unsigned)got : 0;
}

/*
 * Read back the blocks the hooks name, through the job's engine with its
 * queue depth, using only free slots: requests prepared but not yet taken by
 * the engine keep theirs.
 */
void worker_readback(struct worker *w, bool final)
{
	const struct engine_ops *e = w->eng;
	const struct worker_hooks *h = w->hooks;
	uint64_t before = w->st.op[IO_READ].ios, off;
	uint32_t len;
	unsigned file = 0;
	bool more = true;
	if (e->flags & ENGINE_SYNC)
		readback_sync(w, final);
	while (!(e->flags & ENGINE_SYNC) && !w->st.err) {
		unsigned n = 0;
		while (more && w->nfree && !*w->stop) {
			if (!h->readback(h->arg, w->thread, final, &file, &off, &len)) {
				more = false;
				break;
			}
			struct io_u *u = w->free_ios[--w->nfree];
			prep_readback(w, u, file, off, len);
			w->rbatch[n++] = u;
		}
		uint64_t t = now_ns();
		for (unsigned i = 0; i < n; i++)
			w->rbatch[i]->start = t;
		for (unsigned k = 0; k < n;) {
			int r = e->submit(&w->ectx, w->rbatch + k, n - k);
			if (r < 0 || (r == 0 && !w->inflight)) {
				worker_set_error(w, r < 0 ? -r : EAGAIN, w->rbatch[k]->offset, IO_READ, false);
				while (k < n)
					w->free_ios[w->nfree++] = w->rbatch[k++];
				break;
			}
			t = now_ns();
			for (int i = 0; i < r; i++)
				w->rbatch[k + (unsigned)i]->issued = t;
			w->inflight += (unsigned)r;
			k += (unsigned)r;
			if (k < n)
				reap_some(w, 1); /* queue full: make room */
		}
		if (!w->inflight)
			break;
		reap_some(w, 1);
	}
	if (final)
		w->st.verify_ios += w->st.op[IO_READ].ios - before;
}

void worker_readback_now(struct worker *w)
{
	bool final = w->readback_final;
	uint64_t t = now_ns();
	w->readback_due = w->readback_final = false;
	worker_readback(w, final);
	w->slow_path = worker_slow_wanted(w);
	if (final) {
		/* The end of a loop: fio's verify phase, not in the loop's time. */
		uint64_t dt = now_ns() - t;
		w->st.verify_ns += dt;
		worker_pause_clock(w, dt, false);
	}
}

void worker_replay(struct worker *w)
{
	struct io_u u;
	memset(&u, 0, sizeof(u));
	while (w->remaining && !*w->stop) {
		w->remaining--;
		worker_plan_next(w, &u);
		w->hooks->prep(w->hooks->arg, w->thread, &u);
	}
}
