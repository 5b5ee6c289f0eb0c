/* Prepare targets, run groups of jobs on worker threads, merge results. */
#include "base/cluster.h"
#include "base/common.h"
#include "base/devinfo.h"
#include "run/fileset.h"
#include "run/iostat.h"
#include "run/flow.h"
#include "run/merge.h"
#include "run/percent.h"
#include "model/place.h"
#include "run/safety.h"
#include "run/runner.h"
#include "run/runner_int.h"
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
#include <unistd.h>

void runner_note(struct run_result *r, const char *fmt, ...)
{
	if (r->nnotes == MAX_NOTES)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->notes[r->nnotes++], sizeof(r->notes[0]), fmt, ap);
	va_end(ap);
}

void runner_info(struct run_result *r, const char *fmt, ...)
{
	if (r->nnotes == MAX_NOTES)
		return;
	va_list ap;
	va_start(ap, fmt);
	r->info_notes |= 1u << r->nnotes;
	vsnprintf(r->notes[r->nnotes++], sizeof(r->notes[0]), fmt, ap);
	va_end(ap);
}

void runner_report_note(struct run_result *r, const char *fmt, ...)
{
	if (r->nnotes == MAX_NOTES)
		return;
	va_list ap;
	va_start(ap, fmt);
	r->info_notes |= 1u << r->nnotes;
	r->report_only |= 1u << r->nnotes;
	vsnprintf(r->notes[r->nnotes++], sizeof(r->notes[0]), fmt, ap);
	va_end(ap);
}

static void add_device(struct run_result *r, const char *dev)
{
	if (!dev[0])
		return;
	for (unsigned i = 0; i < r->ndevs; i++)
		if (!strcmp(r->devs[i].name, dev))
			return;
	if (r->ndevs == MAX_DEVS)
		return;
	snprintf(r->devs[r->ndevs++].name, sizeof(r->devs[0].name), "%s", dev);
}

/* Before a job: drop cached pages (not timed) and say how much was cached. */
static void pre_job(const struct run_ctx *c, struct job_result *jr)
{
	struct job *j = &jr->job;
	if (j->plan.tree) {
		/* Every file of the tree, each on its own (tree.h). */
		jr->resident_before = tree_drop_cache(j->plan.tree, j->invalidate, &c->stop, &jr->invalidate_ns);
		return;
	}
	/* A copy's destination (the last target) is written, not read: nothing to drop or count. */
	unsigned n = job_copies(j) ? jr->ntargets - 1 : jr->ntargets;
	for (unsigned i = 0; i < n; i++) {
		struct target *t = &jr->targets[i];
		if (t->fd < 0)
			continue;
		/* A shared file's interleaved segment spans the shared region; else each file's own. */
		uint64_t start = j->plan.stride || !jr->region_start ? job_region_offset(j) : jr->region_start[i];
		uint64_t size = j->plan.stride || !jr->region_size ? job_region_size(j) : jr->region_size[i];
		if (!j->plan.stride && jr->shared_files && jr->pct)
			size = pct_span(jr->pct, i) - start; /* every thread's region of the file */
		else if (!j->plan.stride && jr->shared_files && j->numjobs > 1)
			size += (j->numjobs - 1) * j->offset_increment; /* every thread's region of the file */
		if (j->pre_read && !j->direct)
			jr->pre_read_bytes += target_pre_read(c, t->fd, start, size);
		if (j->invalidate && !j->pre_read)
			jr->invalidate_ns += target_invalidate(c, t->fd, start, size);
		if (rw_reads(j->rw)) {
			int64_t res = target_resident(t->fd, start, size);
			if (res >= 0)
				jr->resident_before = (jr->resident_before < 0 ? 0 : jr->resident_before) + res;
		}
	}
}

static uint64_t group_ramp(const struct run_result *r, unsigned first, unsigned last)
{
	uint64_t ramp = 0;
	for (unsigned i = first; i < last; i++)
		if (r->jobs[i].job.ramp_ns > ramp)
			ramp = r->jobs[i].job.ramp_ns;
	return ramp;
}

/*
 * A thread of a job with fio's percentages: its regions from the table
 * (percent.c); when its amounts differ from the first thread's (a region
 * cut at the end of its file), a copy of the job with its own.
 */
static void thread_regions(struct job_result *jr, unsigned t, struct worker *w)
{
	const struct pct_table *p = jr->pct;
	if (jr->shared_files) {
		w->region_start = &p->start[t * p->nfiles];
		w->region_size = &p->size[t * p->nfiles];
		w->region_shift = 0;
	}
	if (!p->uneven)
		return;
	if (!jr->thread_jobs)
		jr->thread_jobs = xcalloc(jr->nthreads, sizeof(*jr->thread_jobs));
	struct job *tj = &jr->thread_jobs[t];
	*tj = jr->job;
	tj->offset = pct_start(p, t, 0);
	tj->size = p->loop[t];
	if (tj->io_size_pct)
		tj->io_size = pct_thread_io(tj, p, t);
	w->job = tj;
}

/* The local workers, for the other ranks: all ended, one failed (read only once it has ended). */
static unsigned local_state(struct worker *ws, unsigned n, struct cluster_local *cl)
{
	unsigned done = 0;
	cl->failed = false;
	for (unsigned k = 0; k < n; k++) {
		if (!__atomic_load_n(&ws[k].finished, __ATOMIC_ACQUIRE))
			continue;
		done++;
		cl->failed |= ws[k].st.err != 0;
	}
	cl->done = done == n;
	return done;
}

/*
 * Steady state (--steadystate_duration): each such job's window is fed the
 * job's counters about once a second; a job whose window meets its
 * criterion is told to stop, which its threads notice at their next
 * request, as fio's.  Nothing of this runs in the I/O loop.
 */
static void feed_steady(struct run_result *r, struct worker *ws, unsigned n, unsigned first,
			unsigned last, uint64_t now)
{
	for (unsigned i = first, k = 0; i < last; k += r->jobs[i].nthreads, i++) {
		struct job_result *jr = &r->jobs[i];
		uint64_t ios = 0, bytes = 0;
		if (!jr->ss.n || jr->ss.attained)
			continue;
		for (unsigned t = k; t < k + jr->nthreads && t < n; t++) {
			for (int d = 0; d < DDIR_NR; d++) {
				ios += __atomic_load_n(&ws[t].st.op[d].ios, __ATOMIC_RELAXED);
				bytes += __atomic_load_n(&ws[t].st.op[d].bytes, __ATOMIC_RELAXED);
			}
		}
		if (ss_feed(&jr->ss, now, ios, bytes))
			for (unsigned t = k; t < k + jr->nthreads && t < n; t++)
				worker_steady(&ws[t]);
	}
}

/*
 * fio's run control inside a group: jobs that wait_for another start when it
 * has ended, and exitall.
 */
struct job_ctl {
	unsigned first_worker, nworkers;
	int waits_for;             /* index of the job it waits for, in this group; -1: none */
	struct start_gate *after;  /* opened when that job has ended */
	bool ended, waiting;       /* waiting: still at its gate, not started */
	bool exited;               /* its exitall has been done */
	unsigned group;            /* its reporting group (new_group), as collect() numbers them */
};

/* Halt job m's workers that still run; how many were. */
static unsigned halt_job(struct worker *ws, const struct job_ctl *jc)
{
	unsigned n = 0;
	for (unsigned k = 0; k < jc->nworkers; k++) {
		struct worker *w = &ws[jc->first_worker + k];
		if (!__atomic_load_n(&w->finished, __ATOMIC_ACQUIRE) && !__atomic_load_n(&w->exit_halt, __ATOMIC_RELAXED))
			n++;
		worker_halt(w);
	}
	return n;
}

/*
 * fio's exitall (exitall_on_terminate: one job's exitall makes every
 * thread's end run it): when a thread of job i ends, job i's exit_what
 * stops the jobs of its reporting group (group), every job of this phase
 * that has started (stonewall: the jobs after the next stonewall still
 * run), or every job, later ones too (all).
 */
static void exit_all(struct run_result *r, struct worker *ws, unsigned first, unsigned last,
		     struct job_ctl *ctl, unsigned i)
{
	const struct job *j = &r->jobs[i].job;
	unsigned halted = 0;
	for (unsigned m = first; m < last; m++) {
		struct job_ctl *mc = &ctl[m - first];
		bool hit = j->exit_what == EXIT_WHAT_ALL ||
			   (j->exit_what == EXIT_WHAT_GROUP && mc->group == ctl[i - first].group) ||
			   (j->exit_what == EXIT_WHAT_STONEWALL && !mc->waiting);
		if (!hit || m == i)
			continue;
		halted += halt_job(ws, mc);
		if (mc->after && mc->waiting) {
			gate_open(mc->after, -1); /* never starts */
			mc->waiting = false;
		}
	}
	halted += halt_job(ws, &ctl[i - first]); /* its other threads, as fio's group holds them */
	bool rest = j->exit_what == EXIT_WHAT_ALL && !r->exit_rest;
	if (j->exit_what == EXIT_WHAT_ALL)
		r->exit_rest = true;
	if (halted || rest)
		runner_info(r, "job %s ended: %s (exitall)", j->name,
			    j->exit_what == EXIT_WHAT_ALL	    ? "every other job is stopped, the later ones too" :
			    j->exit_what == EXIT_WHAT_STONEWALL ? "the running jobs are stopped; those after the next stonewall run" :
								  "the other jobs of its group are stopped");
}

static void control_jobs(struct run_result *r, struct worker *ws, unsigned first, unsigned last,
			 struct job_ctl *ctl, const struct run_ctx *c)
{
	bool exitall = false;
	for (unsigned i = 0; i < r->njobs; i++)
		exitall |= r->jobs[i].job.exitall;
	for (unsigned i = first; i < last; i++) {
		struct job_ctl *jc = &ctl[i - first];
		if (jc->ended)
			continue;
		unsigned fin = 0;
		for (unsigned k = 0; k < jc->nworkers; k++)
			fin += (unsigned)__atomic_load_n(&ws[jc->first_worker + k].finished, __ATOMIC_ACQUIRE);
		if (fin && exitall && !jc->exited) {
			jc->exited = true;
			exit_all(r, ws, first, last, ctl, i);
		}
		if (fin < jc->nworkers)
			continue;
		jc->ended = true;
		for (unsigned m = i + 1; m < last; m++)
			if (ctl[m - first].waits_for == (int)i && ctl[m - first].waiting) {
				gate_open(ctl[m - first].after, 1);
				ctl[m - first].waiting = false;
			}
	}
	if (c->stop)
		for (unsigned m = first; m < last; m++)
			if (ctl[m - first].after)
				gate_open(ctl[m - first].after, -1);
}

/*
 * Wait for the workers, telling the command how far they are about every
 * 100 ms and, with several ranks, the other ranks every 10 ms.
 */
static void wait_workers(struct run_ctx *c, struct run_result *r, struct worker *ws, unsigned n,
			 unsigned first, unsigned last, const struct run_opts *o, struct cluster_local *cl,
			 struct job_ctl *ctl, struct iostat_phase *dev, struct start_gate *gate)
{
	struct run_live l = { .threads = n };
	uint64_t start = now_ns(), tick = cluster_size() > 1 ? 10 : 100, polls = 0;
	unsigned ended = 0;
	for (unsigned i = first; i < last; i++) {
		const struct job *j = &r->jobs[i].job;
		uint64_t t = j->runtime_ns ? j->ramp_ns + j->runtime_ns : 0;
		l.planned_ns = t > l.planned_ns ? t : l.planned_ns;
		if (j->ss_dur_ns)
			ss_init(&r->jobs[i].ss, j, start); /* the measured phase begins about now */
		if (j->ss_dur_ns % NSEC_PER_SEC)
			runner_info(r, "job %s: --steadystate_duration counts whole seconds, as fio's: %s", j->name,
				    j->ss_dur_ns < NSEC_PER_SEC ? "under one, no steady-state detection" :
								  "the window is the whole seconds in it");
	}
	for (;;) {
		unsigned done = local_state(ws, n, cl);
		cluster_poll(c, cl);
		control_jobs(r, ws, first, last, ctl, c);
		if (done == n)
			break;
		/* Device samples stay on their one-second grid: the sleep ends at the next one. */
		uint64_t sleep = iostat_tick(dev, r, now_ns());
		if (sleep > tick * NSEC_PER_MSEC)
			sleep = tick * NSEC_PER_MSEC;
		/* A worker's end wakes this at once: the device counters end with the workers. */
		ended = gate_wait_finished(gate, ended, sleep);
		iostat_tick(dev, r, now_ns());
		feed_steady(r, ws, n, first, last, now_ns());
		if (!o->progress || ++polls % (100 / tick))
			continue;
		l.running = n - done;
		l.elapsed_ns = now_ns() - start;
		l.ios = l.bytes = 0;
		for (unsigned k = 0; k < n; k++) {
			uint64_t ios, bytes;
			worker_live(&ws[k], &ios, &bytes);
			l.ios += ios;
			l.bytes += bytes;
		}
		o->progress(o->progress_arg, &l);
	}
}

/* A bad block's error on stats t (the job's, or its thread's: fio's per-thread error). */
static void verify_error(const struct job_result *jr, struct thread_stats *t, const struct verify_bad *b)
{
	t->err = EILSEQ;
	t->err_op = ERR_OP_HOOK;
	t->err_offset = b->offset;
	unsigned nf = jr->nfiles ? jr->nfiles : 1, i = jr->shared_files ? b->file : b->thread * nf + b->file;
	snprintf(t->err_file, sizeof(t->err_file), "%s", jr->targets[i < jr->ntargets ? i : 0].path);
}

/* Bad blocks fail the job (exit status 1) and the threads that found them, unless something failed first. */
static void verify_failed(struct job_result *jr)
{
	const struct verify_stats *vs = verify_collect(jr->verify);
	if (!vs->bad)
		return;
	for (unsigned k = 0; jr->threads && k < jr->nthreads; k++) {
		const struct verify_stats *ts = verify_thread_stats(jr->verify, k);
		if (ts->nkept && !jr->threads[k].err)
			verify_error(jr, &jr->threads[k], &ts->list[0]);
	}
	if (!jr->total.err)
		verify_error(jr, &jr->total, &vs->list[0]);
}

static void collect(struct run_result *r, struct worker *ws, unsigned first, unsigned last,
		    unsigned *group, const struct run_ctx *c)
{
	unsigned k = 0;
	for (unsigned i = first; i < last; i++) {
		struct job_result *jr = &r->jobs[i];
		jr->threads = xcalloc(jr->nthreads, sizeof(struct thread_stats));
		stats_init(&jr->total);
		/* fio's new_group: a reporting group of its own, running with the jobs before it. */
		if (i > first && jr->job.new_group)
			(*group)++;
		jr->group = *group;
		uint64_t measured_from = 0; /* the job's measured phase: its first thread's start */
		for (unsigned t = 0; t < jr->nthreads; t++, k++) {
			jr->threads[t] = ws[k].st; /* takes over the allocations */
			stats_merge(&jr->total, &ws[k].st);
			if (t == 0 || jr->unsynced_after >= 0)
				jr->unsynced_after = ws[k].unsynced < 0 ? -1 :
						     (t ? jr->unsynced_after : 0) + ws[k].unsynced;
			if (ws[k].measuring && (!measured_from || ws[k].measure_start < measured_from))
				measured_from = ws[k].measure_start;
		}
		ss_rebase(&jr->ss, measured_from);
		if (jr->verify) {
			verify_failed(jr);
			struct ig_err e = { 0 };
			if (verify_save_state(jr->verify, &e))
				runner_note(r, "%s", e.msg);
		}
		if (jr->job.ramp_ns && !jr->total.elapsed_ns && !jr->total.err && !c->stop)
			runner_info(r, "job %s: ended within --ramp_time: nothing was measured", jr->job.name);
	}
}

static int run_group(struct run_ctx *c, struct run_result *r, unsigned first, unsigned last,
		     unsigned *group, const struct run_opts *o)
{
	unsigned nthreads = 0, started = 0;
	for (unsigned i = first; i < last && !c->stop; i++) {
		pre_job(c, &r->jobs[i]);
		nthreads += r->jobs[i].nthreads;
		if (r->jobs[i].pre_read_bytes)
			runner_info(r, "job %s: pre_read: %" PRIu64 " bytes read into the page cache before the job; "
				"its buffered reads may come from the cache, not the device",
			     r->jobs[i].job.name, r->jobs[i].pre_read_bytes);
	}
	if (cluster_stopping(c))
		return 0;
	c->halt = 0; /* a stop of an earlier group's measured phase does not carry over */
	/* Each worker on lines of its own (struct worker is aligned): no thread writes another's line. */
	struct worker *ws = xaligned(_Alignof(struct worker), nthreads * sizeof(*ws));
	memset(ws, 0, nthreads * sizeof(*ws));
	struct iostat_phase *dev = xcalloc(1, sizeof(*dev));
	struct start_gate gate;
	gate_init(&gate);
	uint64_t ramp = group_ramp(r, first, last);
	/* With several ranks, the measured phase after a ramp also starts at a barrier. */
	gate.sync_ramp = ramp && cluster_size() > 1;
	/* fio numbers threads from 1 over the whole run: its seeds depend on it. */
	unsigned number = 1;
	/* fio's dedupe_global: one working set among the threads of the jobs that ask for it. */
	unsigned dd_threads = 0, dd_index = 0;
	for (unsigned i = 0; i < r->njobs; i++)
		dd_threads += r->jobs[i].job.dedupe_global ? r->jobs[i].job.numjobs : 0;
	for (unsigned i = 0; i < first; i++) {
		number += r->jobs[i].job.numjobs;
		dd_index += r->jobs[i].job.dedupe_global ? r->jobs[i].job.numjobs : 0;
	}
	/* wait_for inside the group: those jobs' workers wait at a gate of their own. */
	struct job_ctl *ctl = xcalloc(last - first, sizeof(*ctl));
	for (unsigned i = first, k = 0, g = *group; i < last; i++) {
		struct job_ctl *jc = &ctl[i - first];
		if (i > first && r->jobs[i].job.new_group)
			g++;
		jc->group = g;
		jc->first_worker = k;
		jc->nworkers = r->jobs[i].nthreads;
		jc->waits_for = -1;
		k += jc->nworkers;
		const char *wf = r->jobs[i].job.wait_for;
		for (unsigned m = first; wf[0] && m < i; m++)
			if (!strcmp(r->jobs[m].job.name, wf))
				jc->waits_for = (int)m;
		if (jc->waits_for >= 0) {
			jc->after = xcalloc(1, sizeof(*jc->after));
			gate_init(jc->after);
			jc->waiting = true;
		}
	}
	for (unsigned i = first, k = 0; i < last; i++) {
		struct job_result *jr = &r->jobs[i];
		for (unsigned t = 0; t < jr->nthreads; t++, k++) {
			struct worker *w = &ws[k];
			w->after = ctl[i - first].after;
			w->job = &jr->job;
			w->thread = t;
			w->thread_number = number++;
			if (jr->job.dedupe_global) {
				w->dedupe_threads = dd_threads;
				w->dedupe_index = dd_index++;
			}
			unsigned first_file = jr->shared_files || job_copies(&jr->job) ? 0 : t * jr->nfiles;
			w->target = &jr->targets[first_file];
			w->nfiles = job_copies(&jr->job) ? 1 : jr->nfiles;
			w->region_start = &jr->region_start[first_file];
			w->region_size = &jr->region_size[first_file];
			/* fio: thread t of a job starts t * offset_increment after --offset, in a shared file too. */
			w->region_shift = jr->shared_files ? t * jr->job.offset_increment : 0;
			if (jr->pct)
				thread_regions(jr, t, w);
			w->copy_target = job_copies(&jr->job) ? &jr->targets[1] : NULL;
			w->gate = &gate;
			w->stop = &c->stop;
			w->halt = &c->halt;
			/* exit_what=all ended an earlier group: fio's later jobs start and stop at once, with nothing done. */
			w->exit_halt = r->exit_rest;
			stats_init(&w->st);
		}
	}
	struct flow_set flows;
	flow_set_build(&flows, ws, nthreads); /* fio's flows: weights in before any thread issues */
	for (; started < nthreads; started++) {
		int rc = pthread_create(&ws[started].tid, NULL, worker_main, &ws[started]);
		if (rc) {
			err_set(&r->err, EXIT_IOERR, "cannot start thread %u of %u: %s", started + 1,
				nthreads, strerror(rc));
			break;
		}
	}
	/*
	 * Device counters cover the measured part only: read them just before the
	 * gate releases the workers, or after the ramp when there is one.  Every
	 * rank passes the same barriers (cluster_start) whatever happened here.
	 */
	gate_wait_ready(&gate, started);
	bool go = cluster_start(c, started == nthreads);
	if (!ramp)
		iostat_begin(dev, r);
	gate_open(&gate, go ? 1 : -1);
	if (ramp && go) {
		uint64_t until = now_ns() + ramp;
		while (!c->stop && now_ns() < until) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
		if (gate.sync_ramp)
			cluster_start(c, true);
		iostat_begin(dev, r);
		gate_measure(&gate);
	}
	struct cluster_local cl = { .stonewall = false };
	for (unsigned i = first; i < last; i++)
		cl.stonewall |= r->jobs[i].job.stonewall_all && !r->jobs[i].job.time_based;
	if (!go)
		for (unsigned m = first; m < last; m++)
			if (ctl[m - first].after)
				gate_open(ctl[m - first].after, -1);
	wait_workers(c, r, ws, started, first, last, o, &cl, ctl, dev, &gate);
	for (unsigned k = 0; k < started; k++)
		pthread_join(ws[k].tid, NULL);
	local_state(ws, started, &cl);
	cluster_group_end(c, &cl);
	iostat_end(dev, r);
	free(dev);
	gate_destroy(&gate);
	collect(r, ws, first, last, group, c);
	flow_set_free(&flows);
	for (unsigned m = first; m < last; m++)
		if (ctl[m - first].after) {
			gate_destroy(ctl[m - first].after);
			free(ctl[m - first].after);
		}
	free(ctl);
	free(ws);
	return go ? 0 : -1;
}

struct swept {
	struct run_result *r;
	unsigned n;
};

static void said_stale(void *arg, const struct stale_file *f)
{
	struct swept *s = arg;
	if (s->n++ < MAX_NOTES / 2)
		runner_note(s->r, "removed %s, a %s left by iogauge process %d, which is no longer running",
			    f->path, f->tree ? "file set" : "test file", f->pid);
}

/* Test files a killed run left where this run creates its own (stale.c): removed, and said. */
static void sweep_stale(struct run_result *r)
{
	struct swept s = { r, 0 };
	if (!cluster_host_first())
		return; /* several ranks: one per host sweeps */
	for (unsigned i = 0; i < r->njobs; i++) {
		const struct job *j = &r->jobs[i].job;
		bool seen = false;
		if (j->filename[0] || (j->engine->flags & ENGINE_NO_FILE))
			continue;
		for (unsigned k = 0; k < i && !seen; k++)
			seen = !r->jobs[k].job.filename[0] && !(r->jobs[k].job.engine->flags & ENGINE_NO_FILE) &&
			       !strcmp(r->jobs[k].job.directory, j->directory);
		if (!seen)
			stale_sweep(j->directory, said_stale, &s);
	}
	if (s.n > MAX_NOTES / 2)
		runner_note(r, "removed %u more test files left by iogauge processes no longer running",
		     s.n - MAX_NOTES / 2);
}

/* The devices beneath a job's targets, for the device counters and iostat. */
static void note_targets(struct run_result *r, const struct job_result *jr)
{
	for (unsigned t = 0; jr->targets && t < jr->ntargets; t++) {
		const struct target *tg = &jr->targets[t];
		add_device(r, tg->device);
		/* Only about targets that will be measured: a refused run says nothing of disks. */
		if (!r->err.status && !(jr->job.engine->flags & ENGINE_NO_FILE))
			iostat_note_target(r, tg->path, tg->device, tg->fstype);
	}
}

int runner_run(struct run_ctx *c, const struct job *jobs, unsigned njobs, const struct run_opts *o,
	       struct run_result *r)
{
	memset(r, 0, sizeof(*r));
	r->jobs = xcalloc(njobs, sizeof(*r->jobs));
	r->njobs = njobs;
	r->started = time(NULL);
	for (unsigned i = 0; i < njobs; i++) {
		r->jobs[i].job = jobs[i];
		r->jobs[i].job.plan.index = i;
	}
	/* The counter's first reading: preparing the jobs counts toward its calibration. */
	clock_prepare();
	sweep_stale(r);
	for (unsigned i = 0; i < njobs && !r->err.status && !c->stop; i++) {
		const char *wf = r->jobs[i].job.wait_for;
		bool found = !wf[0];
		for (unsigned m = 0; m < i && !found; m++)
			found = !strcmp(r->jobs[m].job.name, wf);
		if (!found)
			err_set(&r->err, EXIT_USAGE, "job %s: --wait_for=%s: no job of that name before it",
				r->jobs[i].job.name, wf);
	}
	/* Every refusal happens here, before the first request (of any rank). */
	if (cluster_size() > 1) {
		/* Every rank applies the device interlock, one rank of a host at a time, before any opens. */
		struct interlock x = { c, r, o };
		cluster_host_turns(runner_interlock_turn, &x);
		cluster_agree(c, &r->err);
	}
	for (unsigned i = 0; i < njobs && !c->stop && !r->err.status; i++)
		if (runner_prepare_job(c, r, &r->jobs[i], o))
			break;
	cluster_agree(c, &r->err);
	if (cluster_size() > 1) {
		for (unsigned i = 0; i < njobs && !c->stop && !r->err.status; i++)
			if (runner_prepare_deferred(c, r, &r->jobs[i], o))
				break;
		cluster_agree(c, &r->err);
	}
	for (unsigned i = 0; i < njobs; i++)
		note_targets(r, &r->jobs[i]);
	bool want_cpu = true;
	for (unsigned i = 0; i < njobs; i++)
		want_cpu &= r->jobs[i].job.clocksource == CLOCKSRC_CPU;
	r->clock = r->err.status ? CLOCKSRC_GETTIME : (int)clock_select(want_cpu);
	uint64_t t0 = now_ns();
	for (unsigned i = 0, group = 0; i < njobs && !r->err.status && !cluster_stopping(c);
	     group++) {
		unsigned k = i + 1;
		while (k < njobs && !r->jobs[k].job.stonewall)
			k++;
		for (unsigned m = i; m < k && !r->err.status; m++)
			if (r->jobs[m].late && !runner_prepare_late(c, r, &r->jobs[m], o))
				note_targets(r, &r->jobs[m]);
		if (r->err.status || run_group(c, r, i, k, &group, o))
			break;
		i = k;
	}
	r->elapsed_ns = now_ns() - t0;
	for (unsigned i = 0; i < njobs; i++) {
		struct job_result *jr = &r->jobs[i];
		for (unsigned t = 0; jr->targets && t < jr->ntargets; t++)
			target_close(c, &jr->targets[t]);
		if (jr->total.err && !r->status)
			r->status = EXIT_IOERR;
	}
	/* A signal outranks an error it caused; a refusal or failure before the run outranks both. */
	r->interrupted = c->stop != 0;
	if (r->interrupted)
		r->status = 128 + (int)c->stop;
	if (r->err.status)
		r->status = r->err.status;
	cluster_merge(c, r);
	r->interrupted = c->stop != 0;
	return r->status;
}

void run_result_free(struct run_result *r)
{
	cluster_run_free(r);
	iostat_run_free(&r->iostat);
	for (unsigned i = 0; i < r->njobs; i++) {
		struct job_result *jr = &r->jobs[i];
		for (unsigned t = 0; jr->threads && t < jr->nthreads; t++)
			stats_free(&jr->threads[t]);
		free(jr->threads);
		if (jr->threads)
			stats_free(&jr->total);
		free(jr->targets);
		verify_free(jr->verify);
		ss_free(&jr->ss);
		free(jr->region_start);
		free(jr->region_size);
		percent_free(jr->pct);
		free(jr->thread_jobs);
	}
	free(r->jobs);
	memset(r, 0, sizeof(*r));
}

double result_bw(const struct thread_stats *t, int op)
{
	uint64_t ns = stats_dir_ns(t, op);
	return ns ? (double)t->op[op].bytes * 1e9 / (double)ns : 0;
}

double result_iops(const struct thread_stats *t, int op)
{
	uint64_t ns = stats_dir_ns(t, op);
	return ns ? (double)t->op[op].ios * 1e9 / (double)ns : 0;
}
