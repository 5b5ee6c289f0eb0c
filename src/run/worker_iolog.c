/*
 * fio's iologs in the worker: write_iolog notes each request as it is
 * prepared (fio logs a request when it is queued), read_iolog's requests
 * replace the job's own draws, at the log's times unless replay_no_stall.
 * Off the fast path: a job without them never comes here.
 */
#include "base/common.h"
#include "model/iolog.h"
#include "run/worker.h"
#include "run/worker_error.h"
#include "run/worker_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int worker_iolog_setup(struct worker *w)
{
	const struct job *j = w->job;
	if (j->plan.replay) {
		/*
		 * read_iolog=A:B: fio gives clone k (its subjob number: the first
		 * thread 0, the others numjobs-1 down to 1) the log k, round the list.
		 */
		unsigned sub = w->thread ? j->numjobs - w->thread : 0;
		const struct iolog *log = j->plan.nreplays ? j->plan.replays[sub % j->plan.nreplays] : j->plan.replay;
		w->replay = log;
		w->replay_pos = 0;
		w->replay_t0 = 0;
		w->replay_wait_ns = 0;
		w->slow_prep = true;
		w->rate_steer = false; /* the log says each request's direction */
		uint64_t ios = 0;
		for (size_t i = 0; i < log->n; i++)
			ios += log->e[i].kind == IOLOG_IO;
		w->remaining = ios;
	}
	if (j->write_iolog[0]) {
		w->wlog = calloc(1, sizeof(*w->wlog));
		const char *name = j->filename[0] ? j->filename : w->target ? w->target->path : "";
		if (w->wlog && !name[0]) {
			/* No file (the null engine): fio names it as its files, JOB.THREAD.0. */
			snprintf(w->wlog->own, sizeof(w->wlog->own), "%s.%u.0", j->name, w->thread);
			name = w->wlog->own;
		}
		int rc = w->wlog ? iolog_writer_open(w->wlog, j->write_iolog, name) : -ENOMEM;
		if (rc) {
			free(w->wlog);
			w->wlog = NULL;
			worker_set_error(w, -rc, 0, ERR_OP_OPEN, false);
			snprintf(w->st.err_file, sizeof(w->st.err_file), "%s", j->write_iolog);
			return -1;
		}
	}
	w->prep_note = w->rate_on || w->wlog;
	return 0;
}

void worker_iolog_start(struct worker *w)
{
	if (w->wlog)
		iolog_writer_file(w->wlog, "open");
}

void worker_iolog_end(struct worker *w)
{
	if (!w->wlog)
		return;
	iolog_writer_file(w->wlog, "close");
	int rc = iolog_writer_close(w->wlog);
	free(w->wlog);
	w->wlog = NULL;
	if (rc && !w->st.err) {
		worker_set_error(w, -rc, 0, ERR_OP_OPEN, false);
		snprintf(w->st.err_file, sizeof(w->st.err_file), "%s", w->job->write_iolog);
	}
}

void worker_prep_note(struct worker *w, struct io_u *u, bool may_steer)
{
	if (w->rate_on)
		worker_rate_note(w, u, may_steer);
	if (w->wlog)
		iolog_writer_io(w->wlog, u->op, u->offset, u->len);
}

/*
 * The log's next request.  Version 3: at its timestamp (scaled by
 * replay_time_scale) from the first request's; version 2: after its waits.
 */
void worker_replay_next(struct worker *w, struct io_u *u)
{
	const struct iolog *log = w->replay;
	const struct job *j = w->job;
	while (w->replay_pos < log->n && log->e[w->replay_pos].kind == IOLOG_WAIT)
		w->replay_wait_ns += log->e[w->replay_pos++].t_us * 1000;
	if (w->replay_pos == log->n) {
		/* Counted requests never outrun the log; should they, a sync stands in (it moves nothing). */
		u->op = IO_FSYNC;
		u->offset = 0;
		u->len = 0;
		return;
	}
	const struct iolog_entry *x = &log->e[w->replay_pos++];
	u->op = x->op;
	u->offset = x->offset;
	u->len = x->op <= IO_TRIM ? x->len : 0;
	/* A log of several files: the entry's file is the index of the job's (iolog_job.c). */
	if (w->fds && x->file < w->nfiles) {
		u->fd = w->fds[x->file];
		u->file = x->file;
	}
	uint64_t now = now_ns();
	if (!w->replay_t0) {
		w->replay_t0 = now;
		w->replay_first_us = x->t_us;
	}
	if (j->replay_no_stall)
		return;
	uint64_t due = w->replay_t0 + w->replay_wait_ns;
	if (log->version == 3 && x->t_us > w->replay_first_us)
		due += (uint64_t)((unsigned __int128)(x->t_us - w->replay_first_us) * 100000 / j->replay_time_scale);
	if (due > now)
		worker_sleep_until(w, due);
}
