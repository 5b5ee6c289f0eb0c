/*
 * The worker's read-backs and plan-only replay, for hooks that ask for them
 * (verification, verify.c): reads of offsets the hooks name, through the
 * job's engine and queue depth, never in the measured time.
 */
#include "common.h"
#include "worker.h"
#include "worker_int.h"

#include <errno.h>
#include <string.h>

/* A read-back finished: checked by the hooks, or a failed read. */
static void readback_done(struct worker *w, struct io_u *u)
{
	if (u->res != (int64_t)u->len) {
		if (u->res < 0)
			worker_set_error(w, (int)-u->res, u->offset, IO_READ, false);
		else {
			if (!w->st.err) {
				w->st.short_got = (uint32_t)u->res;
				w->st.short_len = (uint32_t)u->len;
			}
			worker_set_error(w, ENODATA, u->offset, IO_READ, true);
		}
		return;
	}
	int rc = w->hooks->complete(w->hooks->arg, w->thread, u, 0);
	if (rc > 0)
		worker_set_error(w, rc, u->offset, ERR_OP_HOOK, false);
}

/*
 * Read back the offsets the hooks name (verification), through the job's
 * engine with its queue depth, using only free slots: requests prepared but
 * not yet taken by the engine keep theirs.  Not measured.
 */
void worker_readback(struct worker *w, bool final)
{
	const struct engine_ops *e = w->job->engine;
	const struct worker_hooks *h = w->hooks;
	uint64_t off;
	if (e->flags & ENGINE_SYNC) {
		struct io_u *u = &w->ectx.ios[0];
		while (!*w->stop && !w->st.err && h->readback(h->arg, w->thread, final, &off)) {
			u->op = IO_READ;
			u->offset = off;
			u->len = (uint32_t)w->bs;
			if (h->prep)
				h->prep(h->arg, w->thread, u);
			u->res = e->do_io(&w->ectx, u);
			readback_done(w, u);
		}
		return;
	}
	bool more = true;
	while (!w->st.err) {
		unsigned n = 0;
		while (more && w->nfree && !*w->stop) {
			if (!h->readback(h->arg, w->thread, final, &off)) {
				more = false;
				break;
			}
			struct io_u *u = w->free_ios[--w->nfree];
			u->op = IO_READ;
			u->offset = off;
			u->len = (uint32_t)w->bs;
			if (h->prep)
				h->prep(h->arg, w->thread, u);
			w->rbatch[n++] = u;
		}
		for (unsigned k = 0; k < n;) {
			int r = e->submit(&w->ectx, w->rbatch + k, n - k);
			if (r < 0 || (r == 0 && !w->inflight)) {
				worker_set_error(w, r < 0 ? -r : EAGAIN, w->rbatch[k]->offset, IO_READ, false);
				while (k < n)
					w->free_ios[w->nfree++] = w->rbatch[k++];
				break;
			}
			w->inflight += (unsigned)r;
			k += (unsigned)r;
			if (k < n) {
				/* Queue full: make room. */
				int got = e->reap(&w->ectx, 1, w->ectx.depth, w->done);
				for (int i = 0; i < got; i++) {
					readback_done(w, w->done[i]);
					w->free_ios[w->nfree++] = w->done[i];
				}
				w->inflight -= got > 0 ? (unsigned)got : 0;
			}
		}
		if (!w->inflight)
			break;
		int got = e->reap(&w->ectx, 1, w->ectx.depth, w->done);
		if (got < 0 && got != -EINTR) {
			worker_set_error(w, -got, 0, ERR_OP_ENGINE, false);
			break;
		}
		for (int i = 0; i < got; i++) {
			readback_done(w, w->done[i]);
			w->free_ios[w->nfree++] = w->done[i];
		}
		w->inflight -= got > 0 ? (unsigned)got : 0;
	}
}

void worker_readback_now(struct worker *w)
{
	uint64_t t = now_ns();
	w->readback_due = false;
	worker_readback(w, false);
	w->slow_path = worker_slow_wanted(w);
	worker_pause_clock(w, now_ns() - t);
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

