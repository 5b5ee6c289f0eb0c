/* iogauge's JSON schema (docs/json.md), built with jansson. */
#include "common.h"
#include "report/report.h"
#include "engines/engine.h"
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <time.h>

static const char *const ddir_key[DDIR_NR] = { "read", "write" };

/* JSON integers are signed 64-bit in jansson: larger counts become reals, never negative. */
static json_t *JU(uint64_t v)
{
	return v > INT64_MAX ? json_real((double)v) : json_integer((json_int_t)v);
}

/* Paths and names may hold bytes that are not UTF-8: replace those, keep the key. */
json_t *json_text(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	char buf[PATH_MAX * 2];
	size_t k = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p && k + 2 < sizeof(buf); p++)
		buf[k++] = *p < 0x80 ? (char)*p : '?';
	buf[k] = 0;
	return json_string(buf);
}

/* fio's percentile key spelling, so scripts written for fio find them. */
static void pct_key(char *buf, size_t len, double p)
{
	snprintf(buf, len, "%f", p);
}

static json_t *json_lat(const struct lat_stats *l, const struct job *j)
{
	json_t *o = json_object();
	json_object_set_new(o, "samples", JU(l->n));
	json_object_set_new(o, "min", JU(l->n ? l->min : 0));
	json_object_set_new(o, "max", JU(l->max));
	json_object_set_new(o, "mean", json_real(lat_mean(l)));
	json_object_set_new(o, "stddev", json_real(lat_stddev(l)));
	json_t *p = json_object();
	for (unsigned i = 0; i < j->n_percentiles; i++) {
		char k[32];
		pct_key(k, sizeof(k), j->percentiles[i]);
		json_object_set_new(p, k, JU(l->n ? hist_percentile(&l->h, j->percentiles[i], l->min, l->max) : 0));
	}
	json_object_set_new(o, "percentiles", p);
	return o;
}

static json_t *json_series(const struct series *s)
{
	json_t *pts = json_array();
	struct series_pt prev;
	memset(&prev, 0, sizeof(prev));
	for (unsigned i = 0; i < s->n; i++) {
		const struct series_pt *p = &s->pts[i];
		json_t *o = json_object();
		json_object_set_new(o, "t_ns", JU(p->t_ns));
		json_object_set_new(o, "dur_ns", JU(p->t_ns - prev.t_ns));
		for (int d = 0; d < DDIR_NR; d++) {
			uint64_t ios = p->ios[d] - prev.ios[d];
			json_t *x = json_object();
			json_object_set_new(x, "ios", JU(ios));
			json_object_set_new(x, "bytes", JU(p->bytes[d] - prev.bytes[d]));
			json_object_set_new(x, "lat_mean_ns",
					    json_real(ios ? (double)(p->lat_sum[d] - prev.lat_sum[d]) / (double)ios : 0));
			json_object_set_new(x, "lat_max_ns", JU(p->lat_max[d]));
			json_object_set_new(o, ddir_key[d], x);
		}
		json_array_append_new(pts, o);
		prev = *p;
	}
	json_t *o = json_object();
	json_object_set_new(o, "interval_ns", JU(s->interval_ns));
	json_object_set_new(o, "points", pts);
	return o;
}

json_t *json_thread_stats(const struct thread_stats *t, const struct job *j)
{
	json_t *o = json_object();
	json_object_set_new(o, "elapsed_ns", JU(t->elapsed_ns));
	for (int d = 0; d < DDIR_NR; d++) {
		const struct ddir_stats *s = &t->d[d];
		json_t *x = json_object();
		json_object_set_new(x, "ios", JU(s->ios));
		json_object_set_new(x, "bytes", JU(s->bytes));
		json_object_set_new(x, "bw_bytes", json_real(result_bw(t, d)));
		json_object_set_new(x, "iops", json_real(result_iops(t, d)));
		json_object_set_new(x, "clat_ns", json_lat(&s->clat, j));
		json_object_set_new(o, ddir_key[d], x);
	}
	json_t *cpu = json_object();
	double el = t->elapsed_ns ? (double)t->elapsed_ns : 1;
	json_object_set_new(cpu, "usr_pct", json_real(100.0 * (double)t->cpu.usr_ns / el));
	json_object_set_new(cpu, "sys_pct", json_real(100.0 * (double)t->cpu.sys_ns / el));
	json_object_set_new(cpu, "usr_ns", JU(t->cpu.usr_ns));
	json_object_set_new(cpu, "sys_ns", JU(t->cpu.sys_ns));
	json_object_set_new(cpu, "ctx", JU(t->cpu.ctx));
	json_object_set_new(o, "cpu", cpu);
	json_object_set_new(o, "syncs", JU(t->syncs));
	json_object_set_new(o, "interrupted", json_boolean(t->interrupted));
	if (t->err) {
		json_t *e = json_object();
		json_object_set_new(e, "errno", JU(t->err));
		json_object_set_new(e, "message", json_string(t->short_io ? "short transfer" : strerror(t->err)));
		json_object_set_new(e, "file", json_text(t->err_file));
		json_object_set_new(e, "offset", JU(t->err_offset));
		json_object_set_new(e, "op", json_string(err_op_name(t->err_op)));
		json_object_set_new(o, "error", e);
	} else {
		json_object_set_new(o, "error", json_null());
	}
	json_object_set_new(o, "series", json_series(&t->series));
	return o;
}

static json_t *json_options(const struct job *j)
{
	json_t *o = json_object();
	json_object_set_new(o, "rw", json_string(rw_names[j->rw]));
	json_object_set_new(o, "bs", JU(j->bs));
	json_object_set_new(o, "size", JU(j->size));
	json_object_set_new(o, "offset", JU(j->offset));
	json_object_set_new(o, "iodepth", JU(j->iodepth));
	json_object_set_new(o, "numjobs", JU(j->numjobs));
	json_object_set_new(o, "ioengine", json_string(j->engine->name));
	json_object_set_new(o, "direct", json_boolean(j->direct));
	json_object_set_new(o, "rwmixread", JU(j->rwmixread));
	json_object_set_new(o, "runtime_ns", JU(j->runtime_ns));
	json_object_set_new(o, "ramp_ns", JU(j->ramp_ns));
	json_object_set_new(o, "time_based", json_boolean(j->time_based));
	json_object_set_new(o, "loops", JU(j->loops));
	json_object_set_new(o, "random_distribution", json_string(dist_names[j->dist]));
	json_object_set_new(o, "distribution_param", json_real(j->dist_param));
	json_object_set_new(o, "norandommap", json_boolean(j->norandommap));
	json_object_set_new(o, "randseed", JU(j->randseed));
	json_object_set_new(o, "sync", JU(j->sync));
	json_object_set_new(o, "fsync", JU(j->fsync_every));
	json_object_set_new(o, "fdatasync", JU(j->fdatasync_every));
	json_object_set_new(o, "end_fsync", json_boolean(j->end_fsync));
	json_object_set_new(o, "data", json_string(j->data == DATA_ZERO ? "zero" : "random"));
	return o;
}

static json_t *json_targets(const struct job_result *jr)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < jr->ntargets; i++) {
		const struct target *t = &jr->targets[i];
		json_t *o = json_object();
		json_object_set_new(o, "path", json_text(t->path));
		json_object_set_new(o, "blockdev", json_boolean(t->is_blockdev));
		json_object_set_new(o, "fstype", json_text(t->fstype));
		json_object_set_new(o, "device", json_text(t->device));
		json_object_set_new(o, "size", JU(t->size));
		json_object_set_new(o, "direct", json_boolean(t->direct));
		json_object_set_new(o, "created", json_boolean(t->created));
		json_object_set_new(o, "layout_bytes", JU(t->layout_bytes));
		json_object_set_new(o, "layout_ns", JU(t->layout_ns));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *json_job(const struct job_result *jr)
{
	const struct job *j = &jr->job;
	json_t *o = json_thread_stats(&jr->total, j);
	json_object_set_new(o, "name", json_text(j->name));
	json_object_set_new(o, "group", JU(jr->group));
	json_object_set_new(o, "options", json_options(j));
	json_object_set_new(o, "targets", json_targets(jr));
	json_object_set_new(o, "io_mode", json_string(report_io_mode(jr)));
	json_object_set_new(o, "buffered_fallback", json_boolean(jr->buffered_fallback));
	json_object_set_new(o, "invalidate_ns", JU(jr->invalidate_ns));
	json_object_set_new(o, "resident_before_bytes",
			    jr->resident_before >= 0 ? JU(jr->resident_before) : json_null());
	if (!j->group_reporting && jr->nthreads > 1) {
		json_t *th = json_array();
		for (unsigned t = 0; t < jr->nthreads; t++)
			json_array_append_new(th, json_thread_stats(&jr->threads[t], j));
		json_object_set_new(o, "threads", th);
	}
	return o;
}

json_t *json_devices(const struct run_result *r)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < r->ndevs; i++) {
		const struct dev_result *d = &r->devs[i];
		if (!d->ok)
			continue;
		json_t *o = json_object();
		double util = d->span_ns ? 100.0 * (double)d->io_ticks_ms * 1e6 / (double)d->span_ns : 0;
		json_object_set_new(o, "name", json_text(d->name));
		json_object_set_new(o, "read_ios", JU(d->rd_ios));
		json_object_set_new(o, "read_bytes", JU(d->rd_sectors * 512));
		json_object_set_new(o, "write_ios", JU(d->wr_ios));
		json_object_set_new(o, "write_bytes", JU(d->wr_sectors * 512));
		json_object_set_new(o, "util_pct", json_real(util > 100 ? 100 : util));
		json_object_set_new(o, "span_ns", JU(d->span_ns));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *json_root(const char *command)
{
	json_t *root = json_object();
	json_t *me = json_object();
	json_object_set_new(me, "version", json_string(IOGAUGE_VERSION));
	json_object_set_new(me, "command", json_string(command));
	json_object_set_new(root, "iogauge", me);
	return root;
}

json_t *report_json(const struct run_result *r, const char *command)
{
	json_t *root = json_root(command);
	char ts[64];
	struct tm tm;
	gmtime_r(&r->started, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(root, "time", json_string(ts));
	json_object_set_new(root, "elapsed_ns", JU(r->elapsed_ns));
	json_object_set_new(root, "interrupted", json_boolean(r->interrupted));
	json_object_set_new(root, "status", JU(r->status));
	json_t *jobs = json_array();
	for (unsigned i = 0; i < r->njobs; i++)
		if (r->jobs[i].threads)
			json_array_append_new(jobs, json_job(&r->jobs[i]));
	json_object_set_new(root, "jobs", jobs);
	json_object_set_new(root, "devices", json_devices(r));
	return root;
}

int report_json_dump(json_t *root, FILE *f, const char *name)
{
	int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	if (rc || fputc('\n', f) == EOF || fflush(f)) {
		msg_err("cannot write JSON to %s: %s", name, strerror(errno));
		return -1;
	}
	return 0;
}

int report_json_write(json_t *root, const char *path)
{
	bool to_stdout = !path || !path[0] || !strcmp(path, "-");
	FILE *f = to_stdout ? stdout : fopen(path, "w");
	if (!f) {
		msg_err("cannot write JSON to %s: %s", path, strerror(errno));
		return -1;
	}
	int rc = report_json_dump(root, f, to_stdout ? "stdout" : path);
	if (!to_stdout && fclose(f) && !rc) {
		msg_err("cannot write JSON to %s: %s", path, strerror(errno));
		rc = -1;
	}
	return rc;
}
