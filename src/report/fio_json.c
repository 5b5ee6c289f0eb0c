/*
 * --output-format=fio-json and json+: fio 3.x's JSON document, printed as fio
 * prints it ("key" : value, two spaces a level, floats with six decimals),
 * so that scripts written for fio's JSON read iogauge's.  json+ adds each
 * latency's "bins", in fio's bucket values (fio.h).
 */
#include "base/common.h"
#include "report/fio.h"
#include "model/engine.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#define FJ_DEPTH 16

struct fj {
	FILE *f;
	int depth;
	bool first[FJ_DEPTH];
};

static void fj_indent(struct fj *j)
{
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

static void fj_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p); /* fio prints them raw: invalid JSON */
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* The start of a member (key NULL: an array element). */
static void fj_key(struct fj *j, const char *key)
{
	if (!j->first[j->depth])
		fputs(",\n", j->f);
	j->first[j->depth] = false;
	fj_indent(j);
	if (key) {
		fj_string(j->f, key);
		fputs(" : ", j->f);
	}
}

static void fj_open(struct fj *j, const char *key, char c)
{
	if (j->depth > 0)
		fj_key(j, key);
	fprintf(j->f, "%c\n", c);
	j->depth++;
	j->first[j->depth] = true;
}

static void fj_close(struct fj *j, char c)
{
	fputc('\n', j->f);
	j->depth--;
	fj_indent(j);
	fputc(c, j->f);
}

static void fj_int(struct fj *j, const char *key, uint64_t v)
{
	fj_key(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

static void fj_float(struct fj *j, const char *key, double v)
{
	fj_key(j, key);
	fprintf(j->f, "%f", v);
}

static void fj_str(struct fj *j, const char *key, const char *v)
{
	/* fio drops a pair whose value is empty. */
	if (!v || !*v)
		return;
	fj_key(j, key);
	fj_string(j->f, v);
}

static bool want_pct(const struct job *job, int kind)
{
	return kind == 0 ? job->slat_percentiles : kind == 1 ? job->clat_percentiles : job->lat_percentiles;
}

static void fj_lat(struct fj *j, const char *key, const struct fio_lat *l, const struct job *job,
		   bool pct, bool plus)
{
	fj_open(j, key, '{');
	fj_int(j, "min", l->n ? l->min : 0);
	fj_int(j, "max", l->n ? l->max : 0);
	fj_float(j, "mean", l->mean);
	fj_float(j, "stddev", l->stddev);
	fj_int(j, "N", l->n);
	if (pct && l->n) {
		double p[MAX_PERCENTILES];
		unsigned n = job->n_percentiles;
		memcpy(p, job->percentiles, n * sizeof(*p));
		/* fio sorts the list. */
		for (unsigned a = 1; a < n; a++)
			for (unsigned b = a; b > 0 && p[b - 1] > p[b]; b--) {
				double t = p[b];
				p[b] = p[b - 1];
				p[b - 1] = t;
			}
		fj_open(j, "percentile", '{');
		for (unsigned i = 0; i < n; i++) {
			char k[32];
			snprintf(k, sizeof(k), "%f", p[i]);
			fj_int(j, k, fio_lat_pct(l, p[i]));
		}
		fj_close(j, '}');
		if (plus && l->plat) {
			fj_open(j, "bins", '{');
			for (unsigned i = 0; i < FIO_PLAT_NR; i++) {
				if (!l->plat[i])
					continue;
				char k[32];
				snprintf(k, sizeof(k), "%" PRIu64, fio_plat_val(i));
				fj_int(j, k, l->plat[i]);
			}
			fj_close(j, '}');
		}
	}
	fj_close(j, '}');
}

static void fj_dir(struct fj *j, const char *key, const struct fio_dir *d, const struct job *job,
		   uint64_t agg_bps, bool plus)
{
	fj_open(j, key, '{');
	fj_int(j, "io_bytes", d->io_bytes);
	fj_int(j, "io_kbytes", d->io_bytes >> 10);
	fj_int(j, "bw_bytes", d->bw_bytes);
	fj_int(j, "bw", d->bw_bytes / 1024);
	fj_float(j, "iops", d->iops);
	fj_int(j, "runtime", d->runtime_ms);
	fj_int(j, "total_ios", d->ios);
	fj_int(j, "short_ios", 0);
	fj_int(j, "drop_ios", 0);
	fj_lat(j, "slat_ns", &d->slat, job, want_pct(job, 0), plus);
	fj_lat(j, "clat_ns", &d->clat, job, want_pct(job, 1), plus);
	fj_lat(j, "lat_ns", &d->lat, job, want_pct(job, 2), plus);
	/* fio: per-priority latencies when two or more priorities have samples (lat with lat_percentiles). */
	if (d->nprios >= 2) {
		fj_open(j, "prios", '[');
		for (unsigned i = 0; i < d->nprios; i++) {
			fj_open(j, NULL, '{');
			fj_int(j, "prioclass", d->prios[i].ioprio >> 13);
			fj_int(j, "prio", d->prios[i].ioprio & 7);
			fj_lat(j, job->lat_percentiles ? "lat_ns" : "clat_ns", &d->prios[i].lat, job,
			       job->clat_percentiles || job->lat_percentiles, plus);
			fj_close(j, '}');
		}
		fj_close(j, ']');
	}
	const struct fio_samples *bw = &d->bw, *io = &d->iops_s;
	double agg_kib = (double)agg_bps / 1024.0;
	double bw_agg = !bw->n ? 0 : agg_kib <= 1.0 ? 100.0 : bw->mean * 100.0 / agg_kib;
	fj_int(j, "bw_min", bw->n ? bw->min : 0);
	fj_int(j, "bw_max", bw->max);
	fj_float(j, "bw_agg", bw_agg > 100 ? 100 : bw_agg);
	fj_float(j, "bw_mean", bw->mean);
	fj_float(j, "bw_dev", fio_samples_dev(bw));
	fj_int(j, "bw_samples", bw->n);
	fj_int(j, "iops_min", io->n ? io->min : 0);
	fj_int(j, "iops_max", io->max);
	fj_float(j, "iops_mean", io->mean);
	fj_float(j, "iops_stddev", fio_samples_dev(io));
	fj_int(j, "iops_samples", io->n);
	fj_close(j, '}');
}


static void fj_options(struct fj *j, const char *key, const struct kv_list *l)
{
	bool any = false;
	for (unsigned i = 0; l && i < l->n; i++)
		any |= l->v[i].val && *l->v[i].val;
	if (!any)
		return;
	fj_open(j, key, '{');
	for (unsigned i = 0; i < l->n; i++)
		fj_str(j, l->v[i].key, l->v[i].val);
	fj_close(j, '}');
}

static void fj_dist(struct fj *j, const char *key, const char *const *keys, unsigned n,
		    const uint64_t *counts, uint64_t total, double floor_pct)
{
	fj_open(j, key, '{');
	for (unsigned i = 0; i < n; i++)
		fj_float(j, keys[i], fio_pct_clamped(counts[i], total, floor_pct));
	fj_close(j, '}');
}

static void fj_ts(struct fj *j, const struct fio_ts *ts, const struct fio_report *fr,
		  const struct fio_echo *echo, const struct run_result *r, bool plus)
{
	const struct job *job = &ts->jr->job, *last = &ts->last->job;
	fj_open(j, NULL, '{');
	fj_str(j, "jobname", job->name);
	fj_int(j, "groupid", ts->groupid);
	fj_int(j, "error", (uint64_t)ts->error);
	fj_int(j, "eta", job->time_based ? 0 : 2147483647);
	fj_int(j, "elapsed", (r->elapsed_ns + NSEC_PER_SEC - 1) / NSEC_PER_SEC);
	if (echo && last->plan.index < echo->njobs)
		fj_options(j, "job options", &echo->jobs[last->plan.index]);
	for (int d = 0; d < FIO_DDIRS; d++)
		fj_dir(j, io_op_names[d], &ts->dir[d], job, fio_group_bps(fr, ts->groupid, d), plus);
	fj_open(j, "sync", '{');
	fj_int(j, "total_ios", ts->sync_ios);
	fj_lat(j, "lat_ns", &ts->sync, job, ts->sync.n > 0, plus);
	fj_close(j, '}');
	uint64_t rt = ts->job_runtime_ms;
	fj_int(j, "job_runtime", rt);
	fj_float(j, "usr_cpu", rt ? (double)ts->usr_ns / 1e6 * 100.0 / (double)rt : 0);
	fj_float(j, "sys_cpu", rt ? (double)ts->sys_ns / 1e6 * 100.0 / (double)rt : 0);
	fj_int(j, "ctx", ts->ctx);
	fj_int(j, "majf", ts->majf);
	fj_int(j, "minf", ts->minf);
	static const char *const lvl[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const sub[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	uint64_t total = ts->dir[0].ios + ts->dir[1].ios + ts->dir[2].ios, ns = 0, nc = 0;
	for (int i = 0; i < DEPTH_BUCKETS; i++) {
		ns += ts->submit[i];
		nc += ts->complete[i];
	}
	fj_dist(j, "iodepth_level", lvl, DEPTH_BUCKETS, ts->depth, total, 0.1);
	fj_dist(j, "iodepth_submit", sub, DEPTH_BUCKETS, ts->submit, ns, 0.1);
	fj_dist(j, "iodepth_complete", sub, DEPTH_BUCKETS, ts->complete, nc, 0.1);
	static const char *const lk[] = { "2", "4", "10", "20", "50", "100", "250", "500", "750",
					  "1000", "2000", ">=2000" };
	fj_dist(j, "latency_ns", lk, 10, ts->lat_ns, total, 0.01);
	fj_dist(j, "latency_us", lk, 10, ts->lat_us, total, 0.01);
	fj_dist(j, "latency_ms", lk, 12, ts->lat_ms, total, 0.01);
	if (job->errtol.coe) {
		fj_int(j, "total_err", ts->total_err);
		fj_int(j, "first_error", (uint64_t)ts->first_error);
	}
	/* fio: the depth latency_target found (or the job's), the target in ns, the window in us. */
	bool target = job->lat_target_ns != 0;
	fj_int(j, "latency_depth", target && ts->lat_depth ? ts->lat_depth :
				   (job->engine->flags & ENGINE_SYNC) && !job_offload(job) ? 1 : job->iodepth);
	fj_int(j, "latency_target", job->lat_target_ns);
	fj_float(j, "latency_percentile", target ? job->lat_pct : 100.0);
	fj_int(j, "latency_window", target ? job->lat_window_ns / 1000 : 0);
	fj_str(j, "desc", job->description);
	fj_close(j, '}');
}

static void fj_disks(struct fj *j, const struct run_result *r)
{
	bool any = false;
	for (unsigned i = 0; i < r->ndevs; i++)
		any |= r->devs[i].ok;
	if (!any)
		return;
	fj_open(j, "disk_util", '[');
	for (unsigned i = 0; i < r->ndevs; i++) {
		const struct dev_result *d = &r->devs[i];
		if (!d->ok)
			continue;
		double util = d->span_ns ? 100.0 * (double)d->io_ticks_ms * 1e6 / (double)d->span_ns : 0;
		fj_open(j, NULL, '{');
		fj_str(j, "name", d->name);
		fj_int(j, "read_ios", d->rd_ios);
		fj_int(j, "write_ios", d->wr_ios);
		fj_int(j, "read_merges", d->rd_merges);
		fj_int(j, "write_merges", d->wr_merges);
		fj_int(j, "read_ticks", d->rd_ticks_ms);
		fj_int(j, "write_ticks", d->wr_ticks_ms);
		fj_int(j, "in_queue", d->in_queue_ms);
		fj_float(j, "util", util > 100 ? 100 : util);
		fj_close(j, '}');
	}
	fj_close(j, ']');
}

void report_fio_json(FILE *f, const struct run_result *r, const struct fio_echo *echo, bool plus)
{
	struct fio_report fr;
	fio_report_build(&fr, r);
	struct fj j = { .f = f, .depth = 0 };
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	char when[64];
	struct tm tm;
	localtime_r(&now.tv_sec, &tm);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	fj_open(&j, NULL, '{');
	fj_str(&j, "fio version", FIO_VERSION_STRING);
	fj_int(&j, "timestamp", (uint64_t)now.tv_sec);
	fj_int(&j, "timestamp_ms", (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000);
	fj_str(&j, "time", when);
	if (echo)
		fj_options(&j, "global options", echo->global);
	fj_open(&j, "jobs", '[');
	for (unsigned i = 0; i < fr.n; i++)
		fj_ts(&j, &fr.ts[i], &fr, echo, r, plus);
	fj_close(&j, ']');
	fj_disks(&j, r);
	fj_close(&j, '}');
	fputc('\n', f);
	fio_report_free(&fr);
}
