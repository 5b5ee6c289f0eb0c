/* iogauge's JSON schema (docs/json.md), built with jansson. */
#include "base/common.h"
#include "base/result_keys.h"
#include "run/merge.h"
#include "options/options.h"
#include "report/report.h"
#include "model/engine.h"
#include "model/percent.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

json_t *ig_json_u64(uint64_t v)
{
	return v > INT64_MAX ? json_real((double)v) : json_integer((json_int_t)v);
}
#define JU ig_json_u64

json_t *ig_json_text(const char *s)
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

/* An unsigned 128-bit integer in decimal (JSON numbers stop at 64 bits). */
static json_t *ig_json_u128(unsigned __int128 v)
{
	char buf[48], *p = buf + sizeof(buf) - 1;
	*p = 0;
	do {
		*--p = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	return json_string(p);
}

/* Sparse buckets [[lower bound ns, count], ...]: exact to merge by adding counts. */
static json_t *ig_json_hist(const struct hist *h)
{
	json_t *a = json_array();
	for (unsigned i = 0; h && i < HIST_BUCKETS; i++) {
		if (!h->counts[i])
			continue;
		json_t *b = json_array();
		json_array_append_new(b, JU(hist_bucket_low(i)));
		json_array_append_new(b, JU(h->counts[i]));
		json_array_append_new(a, b);
	}
	return a;
}

json_t *ig_json_lat(const struct lat_stats *l, const double *pcts, unsigned npcts)
{
	json_t *o = json_object();
	json_object_set_new(o, "samples", JU(l->n));
	json_object_set_new(o, "min", JU(l->n ? l->min : 0));
	json_object_set_new(o, "max", JU(l->max));
	json_object_set_new(o, "mean", json_real(lat_mean(l)));
	json_object_set_new(o, "stddev", json_real(lat_stddev(l)));
	json_object_set_new(o, "sum", JU(l->sum));
	json_object_set_new(o, "sumsq", ig_json_u128(l->sumsq));
	json_t *p = json_object();
	for (unsigned i = 0; i < npcts; i++) {
		char k[32];
		snprintf(k, sizeof(k), "%f", pcts[i]); /* fio's key spelling: "99.000000" */
		json_object_set_new(p, k, JU(lat_pct(l, pcts[i])));
	}
	json_object_set_new(o, "percentiles", p);
	json_object_set_new(o, "histogram", ig_json_hist(l->h));
	return o;
}

static json_t *ig_json_series(const struct series *s)
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
			json_object_set_new(o, io_op_names[d], x);
		}
		json_array_append_new(pts, o);
		prev = *p;
	}
	json_t *o = json_object();
	json_object_set_new(o, "interval_ns", JU(s->interval_ns));
	json_object_set_new(o, RK_POINTS, pts);
	return o;
}

/* One operation kind: counts, rates, slat/clat/lat. */
static json_t *ig_json_op(const struct thread_stats *t, int op, const struct job *j)
{
	const struct op_stats *s = &t->op[op];
	json_t *x = json_object();
	json_object_set_new(x, "ios", JU(s->ios));
	json_object_set_new(x, "bytes", JU(s->bytes));
	json_object_set_new(x, "bw_bytes", json_real(result_bw(t, op)));
	json_object_set_new(x, "iops", json_real(result_iops(t, op)));
	/* slat is absent where the engine has no submit call apart from the request (psync), as in fio. */
	if (s->slat.n)
		json_object_set_new(x, "slat_ns", ig_json_lat(&s->slat, j->percentiles, j->n_percentiles));
	json_object_set_new(x, "clat_ns", ig_json_lat(&s->clat, j->percentiles, j->n_percentiles));
	json_object_set_new(x, "lat_ns", ig_json_lat(&s->lat, j->percentiles, j->n_percentiles));
	/* cmdprio: each priority's latency (fio's "prios": lat with lat_percentiles, else clat). */
	if (op < DDIR_NR && t->nprio[op]) {
		json_t *a = json_array();
		for (unsigned i = 0; i < t->nprio[op]; i++) {
			const struct prio_lat *p = &t->prio[op][i];
			json_t *e = json_object();
			json_object_set_new(e, "prioclass", JU(p->ioprio >> 13u));
			json_object_set_new(e, "prio", JU(p->ioprio & 7u));
			json_object_set_new(e, j->lat_percentiles ? "lat_ns" : "clat_ns",
					    ig_json_lat(&p->lat, j->percentiles, j->n_percentiles));
			json_array_append_new(a, e);
		}
		json_object_set_new(x, "prios", a);
	}
	return x;
}

static json_t *ig_json_error(const struct thread_stats *t)
{
	if (!t->err)
		return json_null();
	json_t *e = json_object();
	char why[160];
	/* A read that ended early has no errno (a write cut short: the disk is full, ENOSPC). */
	json_object_set_new(e, "errno", t->short_io && t->err == ENODATA ? json_null() : JU((uint64_t)t->err));
	json_object_set_new(e, "message", json_string(err_text(t, why, sizeof(why))));
	if (t->short_io) {
		json_object_set_new(e, "bytes", JU(t->short_got));
		json_object_set_new(e, "length", JU(t->short_len));
	}
	json_object_set_new(e, "file", ig_json_text(t->err_file));
	json_object_set_new(e, "offset", JU(t->err_offset));
	json_object_set_new(e, "op", json_string(err_op_name(t->err_op)));
	return e;
}

static json_t *ig_json_stats(const struct thread_stats *t, const struct job *j)
{
	json_t *o = json_object();
	json_object_set_new(o, "elapsed_ns", JU(t->elapsed_ns));
	json_object_set_new(o, "verify_ns", JU(t->verify_ns));
	json_object_set_new(o, "verify_ios", JU(t->verify_ios));
	for (int op = 0; op < IO_OP_NR; op++)
		if (op < DDIR_NR || t->op[op].ios)
			json_object_set_new(o, io_op_names[op], ig_json_op(t, op, j));
	json_t *cpu = json_object();
	double el = t->elapsed_ns ? (double)t->elapsed_ns : 1;
	json_object_set_new(cpu, "usr_pct", json_real(100.0 * (double)t->cpu.usr_ns / el));
	json_object_set_new(cpu, "sys_pct", json_real(100.0 * (double)t->cpu.sys_ns / el));
	json_object_set_new(cpu, "usr_ns", JU(t->cpu.usr_ns));
	json_object_set_new(cpu, "sys_ns", JU(t->cpu.sys_ns));
	json_object_set_new(cpu, "ctx", JU(t->cpu.ctx));
	json_object_set_new(o, "cpu", cpu);
	if (j->fileop) {
		json_object_set_new(o, "prepared_items", JU(t->prepared_items));
		json_object_set_new(o, "prepare_ns", JU(t->prepare_ns));
	}
	json_object_set_new(o, "pass_invalidations", JU(t->invalidations));
	json_object_set_new(o, "pass_invalidate_ns", JU(t->invalidate_ns));
	json_object_set_new(o, RK_INTERRUPTED, json_boolean(t->interrupted));
	json_object_set_new(o, "halted", json_boolean(t->halted));
	json_object_set_new(o, "left_bytes", JU(t->left_bytes));
	if (j->lat_target_ns) {
		/* fio's latency_target search: the queue depth it found. */
		json_t *lt = json_object();
		json_object_set_new(lt, "depth", JU(t->lat_depth));
		json_object_set_new(lt, "target_ns", JU(j->lat_target_ns));
		json_object_set_new(lt, "window_ns", JU(j->lat_window_ns));
		json_object_set_new(lt, "percentile", json_real(j->lat_pct));
		json_object_set_new(o, "latency_target", lt);
	}
	if (j->serialize_overlap)
		json_object_set_new(o, "overlap_held", JU(t->overlap_held));
	json_object_set_new(o, RK_ERROR, ig_json_error(t));
	json_object_set_new(o, RK_SERIES, ig_json_series(&t->series));
	return o;
}

static json_t *ig_json_targets(const struct job_result *jr)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < jr->ntargets && !(jr->job.engine->flags & ENGINE_NO_FILE); i++) {
		const struct target *t = &jr->targets[i];
		json_t *o = json_object();
		json_object_set_new(o, RK_PATH, ig_json_text(t->path));
		json_object_set_new(o, RK_BLOCKDEV, json_boolean(t->is_blockdev));
		json_object_set_new(o, "fstype", ig_json_text(t->fstype));
		json_object_set_new(o, "device", ig_json_text(t->device));
		json_object_set_new(o, "size", JU(t->size));
		json_object_set_new(o, RK_DIRECT, json_boolean(t->direct));
		json_object_set_new(o, RK_CREATED, json_boolean(t->created));
		json_object_set_new(o, "layout_bytes", JU(t->layout_bytes));
		json_object_set_new(o, "layout_ns", JU(t->layout_ns));
		json_object_set_new(o, "layout_what", ig_json_text(t->layout_what));
		json_object_set_new(o, "fs_compress", ig_json_text(t->fs_compress));
		json_array_append_new(a, o);
	}
	return a;
}

/* Steady state of a job (--steadystate_duration): the criterion, what came of it, the last window. */
static json_t *ig_json_steady(const struct ss_result *s)
{
	json_t *o = json_object(), *w = json_object(), *iops = json_array(), *bw = json_array();
	double *v = xcalloc(s->n ? s->n : 1, sizeof(double));
	json_object_set_new(o, "criterion", json_string(ss_kind_names[s->kind]));
	json_object_set_new(o, "limit", json_real(s->limit));
	json_object_set_new(o, "limit_pct", json_boolean(s->pct));
	json_object_set_new(o, "duration_ns", JU(s->dur_ns));
	json_object_set_new(o, "ramp_ns", JU(s->ramp_ns));
	json_object_set_new(o, "attained", json_boolean(s->attained));
	json_object_set_new(o, "attained_ns", s->attained ? JU(s->attained_ns) : json_null());
	json_object_set_new(o, "judged", json_boolean(s->judged));
	if (s->judged) {
		json_object_set_new(o, "value", json_real(s->last.criterion));
		json_object_set_new(o, "mean", json_real(s->last.mean));
		json_object_set_new(o, "slope", json_real(s->last.slope));
		json_object_set_new(o, "max_deviation", json_real(s->last.deviation));
	}
	unsigned n = ss_window(s, false, v, s->n);
	for (unsigned i = 0; i < n; i++)
		json_array_append_new(iops, json_real(v[i]));
	n = ss_window(s, true, v, s->n);
	for (unsigned i = 0; i < n; i++)
		json_array_append_new(bw, json_real(v[i]));
	free(v);
	json_object_set_new(w, "iops", iops);
	json_object_set_new(w, "bw_bytes", bw);
	json_object_set_new(o, RK_WINDOW, w);
	return o;
}

json_t *ig_json_job(const struct job_result *jr, unsigned groups, const char *said)
{
	const struct job *j = &jr->job;
	json_t *o = ig_json_stats(&jr->total, j);
	json_object_set_new(o, RK_NAME, ig_json_text(j->name));
	json_object_set_new(o, RK_GROUP, JU(jr->group));
	json_object_set_new(o, "threads_n", JU(jr->nthreads));
	json_object_set_new(o, RK_OPTIONS, options_json(j, groups, said, NULL));
	json_object_set_new(o, RK_TARGETS, ig_json_targets(jr));
	if (job_pct_any(j)) {
		/* fio's N% echoed as written (options); what it came to, the first thread's, in bytes. */
		json_t *g = json_object();
		json_object_set_new(g, "offset", JU(j->offset));
		json_object_set_new(g, "size", JU(j->size));
		json_object_set_new(g, "offset_increment", JU(j->offset_increment));
		json_object_set_new(g, "io_size", JU(j->io_size));
		json_object_set_new(o, RK_REGION, g);
	}
	if (jr->verify)
		json_object_set_new(o, "verify", ig_json_verify(jr));
	json_object_set_new(o, "io_mode", json_string(report_io_mode(jr)));
	json_object_set_new(o, RK_BUFFERED_FALLBACK, json_boolean(jr->buffered_fallback));
	json_object_set_new(o, "invalidate_ns", JU(jr->invalidate_ns));
	json_object_set_new(o, "resident_before_bytes",
			    jr->resident_before >= 0 ? JU((uint64_t)jr->resident_before) : json_null());
	json_object_set_new(o, "unsynced_after_bytes",
			    jr->unsynced_after >= 0 ? JU((uint64_t)jr->unsynced_after) : json_null());
	if (job_copies(j)) {
		json_t *c = json_object();
		json_object_set_new(c, RK_PATH, ig_json_text(j->plan.copy.path));
		json_object_set_new(c, "offset", JU(j->plan.copy.offset));
		json_object_set_new(c, RK_DIRECT, json_boolean(j->plan.copy.direct));
		json_object_set_new(c, "sync", json_string(j->plan.copy.sync == SYNC_SYNC ? "sync" :
							   j->plan.copy.sync == SYNC_DSYNC ? "dsync" : "none"));
		json_object_set_new(o, "copy", c);
	}
	if (jr->ss.n)
		json_object_set_new(o, RK_STEADYSTATE, ig_json_steady(&jr->ss));
	if (jr->cluster)
		ig_json_job_ranks(o, jr);
	else if (jr->nthreads > 1 && !j->group_reporting) {
		json_t *th = json_array();
		for (unsigned t = 0; t < jr->nthreads; t++)
			json_array_append_new(th, ig_json_stats(&jr->threads[t], j));
		json_object_set_new(o, "threads", th);
	}
	return o;
}

/* Each stonewall group merged: its bytes over its longest job, histograms added. */
static json_t *ig_json_groups(const struct run_result *r)
{
	json_t *a = json_array();
	unsigned ngroups = 0;
	for (unsigned i = 0; i < r->njobs; i++)
		if (r->jobs[i].threads && r->jobs[i].group + 1 > ngroups)
			ngroups = r->jobs[i].group + 1;
	for (unsigned g = 0; g < ngroups; g++) {
		struct thread_stats sum;
		const struct job *first = NULL;
		stats_init(&sum);
		for (unsigned i = 0; i < r->njobs; i++) {
			if (!r->jobs[i].threads || r->jobs[i].group != g)
				continue;
			first = first ? first : &r->jobs[i].job;
			stats_merge(&sum, &r->jobs[i].total);
		}
		json_t *o = ig_json_stats(&sum, first);
		json_object_set_new(o, RK_GROUP, JU(g));
		json_object_del(o, "series");
		json_array_append_new(a, o);
		stats_free(&sum);
	}
	return a;
}

json_t *ig_json_devices(const struct run_result *r)
{
	json_t *a = json_array();
	/* Several ranks: every host's devices. */
	const struct dev_result *devs = r->cluster ? r->cluster->devs : r->devs;
	unsigned ndevs = r->cluster ? r->cluster->ndevs : r->ndevs;
	for (unsigned i = 0; i < ndevs; i++) {
		const struct dev_result *d = &devs[i];
		if (!d->ok)
			continue;
		json_t *o = json_object();
		double util = d->span_ns ? 100.0 * (double)d->io_ticks_ms * 1e6 / (double)d->span_ns : 0;
		json_object_set_new(o, RK_NAME, ig_json_text(d->name));
		if (d->host[0])
			json_object_set_new(o, RK_HOST, ig_json_text(d->host));
		json_object_set_new(o, "read_ios", JU(d->rd_ios));
		json_object_set_new(o, "read_bytes", JU(d->rd_sectors * 512));
		json_object_set_new(o, "write_ios", JU(d->wr_ios));
		json_object_set_new(o, "write_bytes", JU(d->wr_sectors * 512));
		json_object_set_new(o, "util_pct", json_real(util > 100 ? 100 : util));
		json_object_set_new(o, "span_ns", JU(d->span_ns));
		ig_json_iostat_device(o, r, d);
		json_array_append_new(a, o);
	}
	return a;
}

/* The exact command line, from /proc/self/cmdline, quoted for a POSIX shell where needed. */
static json_t *ig_json_cmdline(void)
{
	char raw[16384], out[4 * sizeof(raw)];
	size_t n = 0, k = 0;
	FILE *f = fopen("/proc/self/cmdline", "r");
	if (f) {
		n = fread(raw, 1, sizeof(raw) - 1, f);
		fclose(f);
	}
	for (size_t i = 0; i < n && k + 8 < sizeof(out);) {
		const char *a = raw + i;
		size_t len = strnlen(a, n - i);
		bool plain = len > 0;
		for (size_t c = 0; c < len; c++)
			plain &= !!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-@%", a[c]);
		if (k)
			out[k++] = ' ';
		if (!plain)
			out[k++] = '\'';
		for (size_t c = 0; c < len && k + 8 < sizeof(out); c++) {
			if (a[c] == '\'' && !plain) {
				memcpy(out + k, "'\\''", 4);
				k += 4;
			} else {
				out[k++] = a[c];
			}
		}
		if (!plain)
			out[k++] = '\'';
		i += len + 1;
	}
	out[k] = 0;
	return ig_json_text(out);
}

/* Where it ran: host name, kernel, machine, CPUs. */
static json_t *ig_json_host(void)
{
	struct utsname u;
	json_t *o = json_object();
	if (!uname(&u)) {
		json_object_set_new(o, RK_NAME, ig_json_text(u.nodename));
		json_object_set_new(o, "kernel", ig_json_text(u.release));
		json_object_set_new(o, "machine", ig_json_text(u.machine));
	}
	json_object_set_new(o, "cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	return o;
}

json_t *ig_json_root(const char *command, int status, bool interrupted, const struct ig_err *err)
{
	json_t *root = json_object();
	json_t *me = json_object();
	json_object_set_new(me, RK_VERSION, json_string(iogauge_version));
	json_object_set_new(me, RK_SCHEMA, json_integer(RESULT_SCHEMA));
	json_object_set_new(me, RK_COMMAND, json_string(command));
	json_object_set_new(root, RK_IOGAUGE, me);
	char ts[64];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(root, RK_TIME, json_string(ts));
	json_object_set_new(root, "command_line", ig_json_cmdline());
	json_object_set_new(root, RK_HOST, ig_json_host());
	json_object_set_new(root, RK_STATUS, json_integer(status));
	json_object_set_new(root, RK_INTERRUPTED, json_boolean(interrupted));
	json_object_set_new(root, RK_ERROR, err && err->status ? ig_json_text(err->msg) : json_null());
	return root;
}

void ig_json_add_run(json_t *o, const struct run_result *r, unsigned groups, const char *said)
{
	char ts[64];
	struct tm tm;
	gmtime_r(&r->started, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(o, "started", json_string(ts));
	json_object_set_new(o, "elapsed_ns", JU(r->elapsed_ns));
	json_object_set_new(o, "clock", json_string(r->clock == CLOCKSRC_CPU ? "cpu" : "clock_gettime"));
	json_t *jobs = json_array();
	for (unsigned i = 0; i < r->njobs; i++)
		if (r->jobs[i].threads)
			json_array_append_new(jobs, ig_json_job(&r->jobs[i], groups, said));
	json_object_set_new(o, RK_JOBS, jobs);
	json_object_set_new(o, RK_GROUPS, ig_json_groups(r));
	json_object_set_new(o, RK_DEVICES, ig_json_devices(r));
	ig_json_add_iostat(o, r);
	if (r->cluster)
		json_object_set_new(o, "cluster", ig_json_cluster(r));
	json_t *notes = json_array();
	for (unsigned i = 0; i < r->nnotes; i++)
		json_array_append_new(notes, ig_json_text(r->notes[i]));
	json_object_set_new(o, RK_NOTES, notes);
}
