/* Prepare targets, run groups of jobs on worker threads, merge results. */
#include "common.h"
#include "options.h"
#include "runner.h"
#include "worker.h"
#include "engines/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
	if (g_stop) {
		/* Second signal: do not wait for the workers. */
		cleanup_files();
		_exit(128 + sig);
	}
	g_stop = sig;
}

void runner_install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A closed pipe on stdout: write errors, not death with the test files left behind. */
	signal(SIGPIPE, SIG_IGN);
	atexit(cleanup_files);
}

static void fail_prepare(int rc)
{
	cleanup_files();
	exit(-rc);
}

static void target_path(const struct job *j, unsigned thread, char *out, size_t len)
{
	int n = j->filename[0] ? snprintf(out, len, "%s", j->filename) :
				 snprintf(out, len, "%s/%s.%u.%u", j->directory, j->name, j->index, thread);
	if (n < 0 || (size_t)n >= len)
		die_usage("job %s: --directory: the test file's path is too long", j->name);
}

/*
 * Alignment is checked before any I/O, even the layout, so O_DIRECT never
 * fails with EINVAL mid-run; again once the target is open (statx knows best).
 */
static void check_alignment(const struct job *j, unsigned align, const char *path)
{
	if (!j->direct || !align)
		return;
	if (j->bs % align)
		die_usage("job %s: --bs=%llu is not a multiple of %u, the O_DIRECT alignment of %s",
			  j->name, (unsigned long long)j->bs, align, path);
	if (j->offset % align)
		die_usage("job %s: --offset=%llu is not a multiple of %u, the O_DIRECT alignment of %s",
			  j->name, (unsigned long long)j->offset, align, path);
}

static void prepare_target(struct job_result *jr, struct target *t, const char *path,
			   const struct settings *s)
{
	struct job *j = &jr->job;
	struct stat st;
	if (!j->size && stat(path, &st))
		die_usage("job %s: %s does not exist; give --size to create it", j->name, path);
	check_alignment(j, target_dio_align_hint(path), path);
	struct target_req req = {
		.path = path,
		.need_size = j->size ? j->offset + j->size : 0,
		.writes = rw_writes(j->rw),
		.reads = rw_reads(j->rw),
		.direct = j->direct,
		.sync_flags = 0,
		.allow_destroy = s->allow_destroy,
		.allow_overwrite = s->allow_overwrite,
		.seed = j->randseed ^ 0xda7a,
	};
	int rc = target_prepare(t, &req);
	if (rc < 0)
		fail_prepare(rc);
	if (!j->size) {
		if (t->size <= j->offset)
			die_usage("job %s: --offset=%llu is beyond the end of %s (%llu bytes)", j->name,
				  (unsigned long long)j->offset, path, (unsigned long long)t->size);
		j->size = t->size - j->offset;
	}
	if (j->offset + j->size > t->size)
		die_usage("job %s: --offset + --size = %llu is beyond the end of %s (%llu bytes)",
			  j->name, (unsigned long long)(j->offset + j->size), path,
			  (unsigned long long)t->size);
	if (j->direct && !t->direct && !jr->buffered_fallback) {
		jr->buffered_fallback = true;
		msg_warn("%s: the file system (%s) refuses O_DIRECT; using buffered I/O with the cache "
			 "invalidated before reads%s",
			 path, t->fstype[0] ? t->fstype : "unknown",
			 rw_writes(j->rw) ? " and writes timed to the end of fsync" : "");
		j->invalidate = true;
		if (rw_writes(j->rw))
			j->end_fsync = true;
	}
	if (t->direct)
		check_alignment(j, t->lbs, path);
}

static void prepare_job(struct job_result *jr, const struct settings *s)
{
	struct job *j = &jr->job;
	job_validate(j);
	jr->nthreads = j->numjobs;
	jr->resident_before = -1;
	bool nofile = j->engine->flags & ENGINE_NO_FILE;
	jr->ntargets = (j->filename[0] || nofile) ? 1 : j->numjobs;
	jr->targets = xcalloc(jr->ntargets, sizeof(struct target));
	for (unsigned i = 0; i < jr->ntargets; i++) {
		struct target *t = &jr->targets[i];
		t->fd = -1;
		if (nofile) {
			snprintf(t->path, sizeof(t->path), "(null engine)");
			t->size = j->offset + j->size;
			t->direct = j->direct;
			continue;
		}
		char path[PATH_MAX];
		target_path(j, i, path, sizeof(path));
		prepare_target(jr, t, path, s);
	}
	if (j->size < j->bs)
		die_usage("job %s: the region (%llu bytes) is smaller than --bs=%llu", j->name,
			  (unsigned long long)j->size, (unsigned long long)j->bs);
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
static void pre_job(struct job_result *jr)
{
	struct job *j = &jr->job;
	for (unsigned i = 0; i < jr->ntargets; i++) {
		struct target *t = &jr->targets[i];
		if (t->fd < 0)
			continue;
		if (j->invalidate)
			jr->invalidate_ns += target_invalidate(t->fd, j->offset, j->size);
		if (rw_reads(j->rw)) {
			int64_t res = target_resident(t->fd, j->offset, j->size);
			if (res >= 0)
				jr->resident_before = (jr->resident_before < 0 ? 0 : jr->resident_before) + res;
		}
	}
}

static void devstats_read_all(struct run_result *r, struct devstat *snap)
{
	for (unsigned i = 0; i < r->ndevs; i++)
		if (devstat_read(r->devs[i].name, &snap[i]))
			snap[i].when_ns = 0;
}

static void devstats_add(struct run_result *r, const struct devstat *a, const struct devstat *b)
{
	for (unsigned i = 0; i < r->ndevs; i++) {
		struct dev_result *d = &r->devs[i];
		if (!a[i].when_ns || !b[i].when_ns)
			continue;
		d->ok = true;
		d->rd_ios += b[i].rd_ios - a[i].rd_ios;
		d->rd_sectors += b[i].rd_sectors - a[i].rd_sectors;
		d->wr_ios += b[i].wr_ios - a[i].wr_ios;
		d->wr_sectors += b[i].wr_sectors - a[i].wr_sectors;
		d->io_ticks_ms += b[i].io_ticks_ms - a[i].io_ticks_ms;
		d->span_ns += b[i].when_ns - a[i].when_ns;
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

/* Wait for the workers; on a terminal, a progress line with the time left. */
static void wait_workers(struct run_result *r, struct worker *ws, unsigned n, unsigned first,
			 unsigned last, const struct settings *s)
{
	bool show = s->progress && !s->quiet && isatty(STDERR_FILENO);
	uint64_t start = now_ns(), planned = 0;
	for (unsigned i = first; i < last; i++) {
		const struct job *j = &r->jobs[i].job;
		uint64_t t = j->runtime_ns ? j->ramp_ns + j->runtime_ns : 0;
		planned = t > planned ? t : planned;
	}
	for (;;) {
		unsigned done = 0;
		for (unsigned k = 0; k < n; k++)
			done += (unsigned)__atomic_load_n(&ws[k].finished, __ATOMIC_ACQUIRE);
		if (done == n)
			break;
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		if (!show)
			continue;
		double el = (double)(now_ns() - start) / 1e9;
		fprintf(stderr, "\r\033[Kiogauge: %u/%u threads running, %.0f s", n - done, n, el);
		if (planned)
			fprintf(stderr, ", about %.0f s left", (double)planned / 1e9 > el ? (double)planned / 1e9 - el : 0);
		fflush(stderr);
	}
	if (show)
		fprintf(stderr, "\r\033[K");
}

static void run_group(struct run_result *r, unsigned first, unsigned last, unsigned group,
		      const struct settings *s)
{
	struct devstat before[MAX_DEVS], after[MAX_DEVS];
	unsigned nthreads = 0;
	for (unsigned i = first; i < last; i++) {
		pre_job(&r->jobs[i]);
		nthreads += r->jobs[i].nthreads;
	}
	struct worker *ws = xcalloc(nthreads, sizeof(*ws));
	pthread_barrier_t bar;
	/* The runner joins the barrier: the device counters start when the workers do. */
	pthread_barrier_init(&bar, NULL, nthreads + 1);
	unsigned k = 0;
	for (unsigned i = first; i < last; i++) {
		struct job_result *jr = &r->jobs[i];
		for (unsigned t = 0; t < jr->nthreads; t++, k++) {
			struct worker *w = &ws[k];
			w->job = &jr->job;
			w->thread = t;
			w->target = &jr->targets[jr->ntargets == 1 ? 0 : t];
			w->start_barrier = &bar;
			stats_init(&w->st);
		}
	}
	for (k = 0; k < nthreads; k++) {
		int rc = pthread_create(&ws[k].tid, NULL, worker_main, &ws[k]);
		if (rc) {
			msg_err("cannot start thread %u of %u: %s", k + 1, nthreads, strerror(rc));
			fail_prepare(-EXIT_IOERR);
		}
	}
	/*
	 * Device counters cover the measured part only: read them just before the
	 * barrier releases the workers, or after the ramp when there is one.
	 */
	uint64_t ramp = group_ramp(r, first, last);
	if (!ramp)
		devstats_read_all(r, before);
	pthread_barrier_wait(&bar);
	if (ramp) {
		uint64_t until = now_ns() + ramp;
		while (!g_stop && now_ns() < until) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
		devstats_read_all(r, before);
	}
	wait_workers(r, ws, nthreads, first, last, s);
	for (k = 0; k < nthreads; k++)
		pthread_join(ws[k].tid, NULL);
	devstats_read_all(r, after);
	devstats_add(r, before, after);
	pthread_barrier_destroy(&bar);
	k = 0;
	for (unsigned i = first; i < last; i++) {
		struct job_result *jr = &r->jobs[i];
		jr->threads = xcalloc(jr->nthreads, sizeof(struct thread_stats));
		stats_init(&jr->total);
		jr->group = group;
		for (unsigned t = 0; t < jr->nthreads; t++, k++) {
			jr->threads[t] = ws[k].st; /* takes over the series allocation */
			stats_merge(&jr->total, &ws[k].st);
		}
		if (jr->job.ramp_ns && !jr->total.elapsed_ns && !jr->total.err && !g_stop)
			msg_warn("job %s: ended within --ramp_time: nothing was measured", jr->job.name);
	}
	free(ws);
}


int runner_run(struct job *jobs, unsigned njobs, const struct settings *s, struct run_result *r)
{
	memset(r, 0, sizeof(*r));
	r->jobs = xcalloc(njobs, sizeof(*r->jobs));
	r->njobs = njobs;
	r->started = time(NULL);
	cleanup_keep(s->keep);
	for (unsigned i = 0; i < njobs; i++) {
		r->jobs[i].job = jobs[i];
		r->jobs[i].job.index = i;
	}
	/* Every refusal happens here, before the first request. */
	for (unsigned i = 0; i < njobs && !g_stop; i++) {
		prepare_job(&r->jobs[i], s);
		for (unsigned t = 0; t < r->jobs[i].ntargets; t++)
			add_device(r, r->jobs[i].targets[t].device);
	}
	uint64_t t0 = now_ns();
	for (unsigned i = 0, group = 0; i < njobs && !g_stop; group++) {
		unsigned k = i + 1;
		while (k < njobs && !r->jobs[k].job.stonewall)
			k++;
		run_group(r, i, k, group, s);
		i = k;
	}
	r->elapsed_ns = now_ns() - t0;
	r->interrupted = g_stop != 0;
	if (r->interrupted)
		r->status = 128 + (int)g_stop;
	for (unsigned i = 0; i < njobs; i++) {
		struct job_result *jr = &r->jobs[i];
		for (unsigned t = 0; t < jr->ntargets; t++)
			target_close(&jr->targets[t]);
		if (jr->total.err && !r->interrupted)
			r->status = EXIT_IOERR;
	}
	return r->status;
}

void run_result_free(struct run_result *r)
{
	for (unsigned i = 0; i < r->njobs; i++) {
		struct job_result *jr = &r->jobs[i];
		for (unsigned t = 0; jr->threads && t < jr->nthreads; t++)
			stats_free(&jr->threads[t]);
		free(jr->threads);
		if (jr->threads)
			stats_free(&jr->total);
		free(jr->targets);
	}
	free(r->jobs);
	memset(r, 0, sizeof(*r));
}

double result_bw(const struct thread_stats *t, int ddir)
{
	return t->elapsed_ns ? (double)t->d[ddir].bytes * 1e9 / (double)t->elapsed_ns : 0;
}

double result_iops(const struct thread_stats *t, int ddir)
{
	return t->elapsed_ns ? (double)t->d[ddir].ios * 1e9 / (double)t->elapsed_ns : 0;
}
