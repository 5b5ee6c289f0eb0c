/*
 * A completion off the plain path (worker_check_done): a short or failed
 * request, continue_on_error, fill_device, latency_target's count, the hooks,
 * cmdprio's latencies and the per-request log.  The loop calls in only when
 * the request moved fewer bytes than asked or the job has one of these
 * (w->slow_done).
 */
#include "base/common.h"
#include "model/cmdprio.h"
#include "model/errtol.h"
#include "run/admit.h"
#include "run/worker.h"
#include "run/worker_error.h"
#include "run/worker_int.h"
#include "stats/fiolog.h"

#include <errno.h>

/*
 * An error of a type continue_on_error names: counted (and the request among its direction's
 * requests, fio's total_ios, not its bytes).  true: the job goes past it, issuing goes on.
 */
static __attribute__((noinline)) bool gone_past(struct worker *w, const struct io_u *u, bool *counts)
{
	int err = (int)-u->res;
	bool on = errtol_goes_on(&w->job->errtol, u->op, err, counts);
	if (!*counts)
		return false;
	w->st.errs[u->op]++;
	w->st.op[u->op].ios++;
	if (!w->st.first_error)
		w->st.first_error = err;
	return on;
}

/* fill_device: a write the full file system refused, in part or whole, ends the job cleanly. */
static __attribute__((noinline)) bool fill_end(struct worker *w, const struct io_u *u)
{
	if (u->op != IO_WRITE || !(u->res == -ENOSPC || u->res == -EDQUOT ||
				   (u->res >= 0 && u->res < (int64_t)u->len)))
		return false;
	w->st.failed[IO_WRITE]++;
	w->filled = true;
	w->issuing = false;
	return true;
}

bool worker_check_done(struct worker *w, const struct io_u *u, uint64_t lat)
{
	if (unlikely(w->job->fill_device) && fill_end(w, u))
		return false;
	if (u->res < 0) {
		bool counted = false; /* continue_on_error's count has it among total_ios already */
		if (unlikely(w->job->errtol.coe) && gone_past(w, u, &counted))
			return false;
		if (!counted && u->op < IO_OP_NR)
			w->st.failed[u->op]++;
		worker_set_error(w, (int)-u->res, u->offset, u->op, false);
		return false;
	}
	/* A direct read of the short last block asks for whole sectors and gets the rest of the file. */
	bool tail = u->offset == w->tail_off && (uint64_t)u->res == w->tail_len && u->op == IO_READ;
	if (u->res != (int64_t)u->len && !tail) {
		bool rd = u->op == IO_READ || u->op == IO_OPEN;
		if (!w->st.err) {
			w->st.short_got = (uint32_t)u->res;
			w->st.short_len = (uint32_t)u->len;
		}
		if (u->op < IO_OP_NR)
			w->st.failed[u->op]++;
		/* Codes for the report, not errnos: a read stopped at the end of the file, a write by a full disk. */
		worker_set_error(w, rd ? ENODATA : ENOSPC, u->offset, u->op, true);
		return false;
	}
	if (unlikely(w->admit != NULL)) {
		/* latency_target judges fio's total latency: from before the submit call. */
		uint64_t total = w->eng->flags & ENGINE_SYNC ? lat : u->issued - u->start + lat;
		admit_done(w, u, total, u->start + total);
	}
	int rc = w->hooks && w->hooks->complete ? w->hooks->complete(w->hooks->arg, w->thread, u, lat) : 0;
	if (rc == HOOK_READBACK) {
		/* Issuing pauses until what is in flight is done; then slow_path reads back. */
		w->readback_due = true;
		w->slow_path = true;
		rc = 0;
	}
	if (rc) {
		/* The request itself completed (fio counts a block that fails verification): counted. */
		worker_set_error(w, rc, u->offset, ERR_OP_HOOK, false);
		return true;
	}
	if (w->winlog && u->op < FIOLOG_DIRS) {
		/* A window that keeps its maximum: lat is clat for a synchronous engine, as its lines. */
		bool sync = w->eng->flags & ENGINE_SYNC;
		uint64_t slat = sync ? 0 : u->issued - u->start;
		fiolog_max(w->winlog, u->op, slat, lat, slat + lat);
	}
	/* cmdprio: the latency of the request's priority (fio's: lat with lat_percentiles, else clat). */
	if (w->ectx.prio && u->op < DDIR_NR && u->prio_idx < w->st.nprio[u->op])
		lat_add(&w->st.prio[u->op][u->prio_idx].lat, w->job->lat_percentiles ? u->issued - u->start + lat : lat);
	if (w->iolog) {
		/*
		 * fio's per-request log (lat: clat of an asynchronous engine; it ended at issued + clat).
		 * The issue time, as fio's: a synchronous request's before its call, else after the submit.
		 */
		bool sync = w->eng->flags & ENGINE_SYNC;
		uint64_t issue = sync ? u->start : u->issued, end = issue + lat;
		fiolog_io(w->iolog, end - w->measure_start, issue > w->measure_start ? issue - w->measure_start : 0,
			  u->op, u->offset, (uint32_t)u->len, sync ? 0 : u->issued - u->start, lat,
			  w->ectx.prio && u->op < DDIR_NR ? u->ioprio : job_default_ioprio(w->job));
	}
	return true;
}
