/*
 * fio's log files from what the workers recorded (fiolog.h): NAME_bw.X.log,
 * NAME_iops.X.log, NAME_lat/_clat/_slat.X.log, X the thread's number in the
 * run from 1 (per_job_logs=0: NAME_bw.log, the threads one after the
 * other).  Lines as fio writes them: "time_ms, value[, value1], ddir, bs[, offset], prio[, issue]"
 * (prio: 1 for a real-time request, else 0; with log_prio the whole ioprio, 0x%04x; averaged lines 0;
 * value1 and issue: fio's current log_window_value=both and log_issue_time, newer than 3.33).
 * Several ranks: each rank's files carry .rN before .log (fio2gnuplot's
 * NAME_bw.*.log still finds them).
 */
#include "stats/fiolog.h"
#include "report.h"
#include "base/cluster.h"
#include "model/engine.h"
#include "base/userfile.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

enum log_kind { LOG_BW, LOG_IOPS, LOG_LAT, LOG_CLAT, LOG_SLAT, LOG_KINDS };
static const char *const suffix[LOG_KINDS] = { "bw", "iops", "lat", "clat", "slat" };

static const char *log_name(const struct job *j, int kind)
{
	const char *n = kind == LOG_BW ? j->bw_log : kind == LOG_IOPS ? j->iops_log : j->lat_log;
	/* A bare write_bw_log in a job file: the job's name, as fio. */
	return strcmp(n, "$jobname") ? n : j->name;
}

static bool wanted(const struct job *j, int kind)
{
	return (kind == LOG_BW ? j->bw_log : kind == LOG_IOPS ? j->iops_log : j->lat_log)[0] != 0;
}

/*
 * A line as fio writes it: time, value[, value1], ddir, bs[, offset], prio[, issue].
 * prio: with log_prio the whole ioprio (0x%04x), else 1 for a real-time one;
 * value1 (log_window_value=both) the window's maximum; issue (log_issue_time)
 * the request's issue time in ns, 0 where fio has none (lat, bw, iops, windows).
 */
static void line(FILE *f, const struct job *j, uint64_t t_ns, uint64_t value, const uint64_t *value1, int ddir,
		 uint64_t bs, uint64_t offset, uint16_t prio, uint64_t issue)
{
	fprintf(f, "%" PRIu64 ", %" PRIu64, (uint64_t)(t_ns / NSEC_PER_MSEC), value);
	if (value1)
		fprintf(f, ", %" PRIu64, *value1);
	fprintf(f, ", %d, %" PRIu64, ddir, bs);
	if (j->log_offset)
		fprintf(f, ", %" PRIu64, offset);
	if (j->log_prio)
		fprintf(f, ", 0x%04x", prio);
	else
		fprintf(f, ", %d", prio >> 13 == 1);
	if (j->log_issue_time)
		fprintf(f, ", %" PRIu64, issue);
	fputc('\n', f);
}

/* A line per request (log_avg_msec=0). */
static void per_request(FILE *f, const struct job *j, const struct fiolog *l, int kind)
{
	bool sync = j->engine->flags & ENGINE_SYNC;
	if (kind == LOG_SLAT && sync)
		return; /* no submit call apart from the request: fio leaves the file empty too */
	/* fio's log_window_value=both marks every log of the job, per-request lines too: value1 0. */
	static const uint64_t zero;
	const uint64_t *v1 = fiolog_window_value(j) == FIOLOG_WIN_BOTH ? &zero : NULL;
	for (size_t i = 0; i < l->nrec; i++) {
		const struct fiolog_rec *r = &l->recs[i];
		uint64_t v = kind == LOG_BW   ? (uint64_t)r->len * 1000000 / (r->clat ? r->clat : 1) :
			     kind == LOG_IOPS ? 1 :
			     kind == LOG_LAT  ? r->slat + r->clat :
			     kind == LOG_CLAT ? r->clat : r->slat;
		line(f, j, r->t_ns, v, v1, r->ddir, r->len, r->offset, r->prio,
		     kind == LOG_CLAT || kind == LOG_SLAT ? r->issue_ns : 0);
	}
}

/*
 * A line per direction per window (log_avg_msec): rates over it, or the mean
 * (log_window_value=max: the largest, both: the mean and the largest) latency in it.
 */
static void per_window(FILE *f, const struct job *j, const struct fiolog *l, int kind)
{
	bool sync = j->engine->flags & ENGINE_SYNC;
	if (kind == LOG_SLAT && sync)
		return;
	int wv = fiolog_window_value(j);
	static const struct fiolog_win zero;
	for (unsigned i = 0; i < l->nwin; i++) {
		const struct fiolog_win *w = &l->wins[i], *p = i ? &l->wins[i - 1] : &zero;
		/* fio samples bandwidth and IOPS at whole windows: the partial one at the end is not logged. */
		if (w->final && kind <= LOG_IOPS)
			continue;
		uint64_t ms = (w->t_ns - p->t_ns) / NSEC_PER_MSEC;
		for (int d = 0; d < FIOLOG_DIRS; d++) {
			uint64_t ios = w->ios[d] - p->ios[d], sum, n, v;
			if (!ios || !ms)
				continue;
			if (kind <= LOG_IOPS) {
				/* One sample a window: its average and its maximum are the same rate. */
				v = kind == LOG_BW ? (w->bytes[d] - p->bytes[d]) * 1000 / ms / 1024 : ios * 1000 / ms;
				line(f, j, w->t_ns, v, wv == FIOLOG_WIN_BOTH ? &v : NULL, d, 0, 0, 0, 0);
				continue;
			}
			/* Synchronous engines: lat is clat. */
			bool clat = kind == LOG_CLAT || (kind == LOG_LAT && sync);
			sum = kind == LOG_SLAT ? w->slat_sum[d] - p->slat_sum[d] :
			      clat		? w->clat_sum[d] - p->clat_sum[d] : w->lat_sum[d] - p->lat_sum[d];
			n = kind == LOG_SLAT ? w->slat_n[d] - p->slat_n[d] :
			    clat	       ? w->clat_n[d] - p->clat_n[d] : w->lat_n[d] - p->lat_n[d];
			if (!n)
				continue;
			uint64_t avg = (uint64_t)((double)sum / (double)n + 0.5);
			uint64_t max = w->max[kind == LOG_SLAT ? FIOLOG_SLAT : clat ? FIOLOG_CLAT : FIOLOG_LAT][d];
			if (wv == FIOLOG_WIN_BOTH)
				line(f, j, w->t_ns, avg, &max, d, 0, 0, 0, 0);
			else
				line(f, j, w->t_ns, wv == FIOLOG_WIN_MAX ? max : avg, NULL, d, 0, 0, 0, 0);
		}
	}
}

/* The files this run has written: a name met again (per_job_logs=0) is added to, as fio does. */
struct written {
	char (*path)[PATH_MAX];
	unsigned n;
};

static bool seen(struct written *w, const char *path)
{
	for (unsigned i = 0; i < w->n; i++)
		if (!strcmp(w->path[i], path))
			return true;
	snprintf(w->path[w->n++], PATH_MAX, "%s", path); /* room for every such name (report_fio_logs) */
	return false;
}

static const char *const option[LOG_KINDS] = { "--write_bw_log", "--write_iops_log", "--write_lat_log",
						 "--write_lat_log", "--write_lat_log" };

/* The file of thread `number` (from 1 in the run) of job j; -1 when the name is too long. */
static int log_path(const struct job *j, unsigned number, int kind, char *path, size_t len)
{
	char num[32] = "", rank[32] = "";
	if (j->per_job_logs)
		snprintf(num, sizeof(num), ".%u", number);
	if (cluster_size() > 1)
		snprintf(rank, sizeof(rank), ".r%u", cluster_rank());
	int n = snprintf(path, len, "%s_%s%s%s.log", log_name(j, kind), suffix[kind], num, rank);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int write_log(const struct job_result *jr, unsigned t, unsigned number, int kind,
		     struct written *done, char *err, size_t errlen)
{
	const struct job *j = &jr->job;
	const struct fiolog *l = jr->threads[t].log;
	char path[PATH_MAX];
	struct ig_err e = { 0 };
	if (log_path(j, number, kind, path, sizeof(path))) {
		snprintf(err, errlen, "job %s: the log's name is too long", j->name);
		return -1;
	}
	FILE *f = outfile_open(option[kind], path, !j->per_job_logs && seen(done, path), &e);
	if (!f) {
		snprintf(err, errlen, "job %s: %s", j->name, e.msg);
		return -1;
	}
	if (l && l->interval_ns)
		per_window(f, j, l, kind);
	else if (l)
		per_request(f, j, l, kind);
	if (fclose(f)) {
		snprintf(err, errlen, "job %s: cannot write %s: %s", j->name, path, strerror(errno));
		return -1;
	}
	return 0;
}

int report_fio_logs(const struct run_result *r, char *err, size_t errlen)
{
	unsigned number = 1;
	struct written done = { 0 };
	unsigned shared = 0;
	for (unsigned i = 0; i < r->njobs; i++)
		shared += !r->jobs[i].job.per_job_logs;
	done.path = xcalloc(shared * LOG_KINDS + 1, PATH_MAX);
	int rc = 0;
	for (unsigned i = 0; i < r->njobs && !rc; number += r->jobs[i].job.numjobs, i++) {
		const struct job_result *jr = &r->jobs[i];
		for (unsigned t = 0; jr->threads && t < jr->nthreads; t++)
			for (int k = 0; k < LOG_KINDS; k++)
				if (wanted(&jr->job, k) && !rc)
					rc = write_log(jr, t, number + t, k, &done, err, errlen);
	}
	free(done.path);
	return rc;
}

int report_fio_logs_check(const struct job *jobs, unsigned njobs, struct ig_err *e)
{
	char path[PATH_MAX];
	unsigned number = 1;
	for (unsigned i = 0; i < njobs; number += jobs[i].numjobs, i++) {
		/* write_iolog is an output too: never a device, FIFO or directory. */
		if (jobs[i].write_iolog[0] && outfile_check("--write_iolog", jobs[i].write_iolog, e))
			return -1;
		for (unsigned t = 0; t < jobs[i].numjobs; t++)
			for (int k = 0; k < LOG_KINDS; k++)
				if (wanted(&jobs[i], k) && !log_path(&jobs[i], number + t, k, path, sizeof(path)) &&
				    outfile_check(option[k], path, e))
					return -1;
	}
	return 0;
}

/* Requests past a per-request log's room are not in it: said once per job. */
bool report_fio_logs_dropped(const struct job_result *jr)
{
	for (unsigned t = 0; jr->threads && t < jr->nthreads; t++)
		if (jr->threads[t].log && jr->threads[t].log->dropped)
			return true;
	return false;
}
