/*
 * `iogauge latency`: ioping.  One request at a time (4 KiB random reads from a
 * 1 MiB working set, 1 s apart), a line per request printed by a completion
 * hook as the request completes, and ioping's closing statistics plus
 * percentiles.  One case; the executor (suite_exec.c) runs it on each target and
 * the runner spaces the requests (--thinktime).  Several targets add a table
 * with a column per target.
 */
#include "base/cluster.h"
#include "base/result_keys.h"
#include "base/common.h"
#include "options/command.h"
#include "base/devinfo.h"
#include "options/options.h"
#include "suite/suite.h"
#include "run/worker.h"
#include "report/classic.h"
#include "report/report.h"
#include "report/result_read.h"

#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_WS (1ULL << 20) /* ioping's temporary file in a directory */

static const struct suite_case cases[] = {
	{ "latency", "--iodepth=1 --numjobs=1" },
};

/* One target's requests, over every pass: what ioping's statistics need. */
struct lat_target {
	struct latency *l;
	char desc[PATH_MAX + 96]; /* "ext4 /dev/vda 252.0 GiB" or "block device 64 MiB" */
	const char *shown;
	int fd;                   /* for dropping a request's pages before it; -1 until needed */
	bool drop;                /* drop the pages before each request (buffered, not -C) */
	char file[PATH_MAX];
	struct lat_stats lat;
	uint64_t requests, bytes, first_start, last_end;
	bool writes;
	bool done;                /* measured: ioping's block can be printed */
};

struct latency {
	struct suite_run *sr;
	bool ws_default;          /* no -S: the whole file or device, 1 MiB in a directory */
	bool lines;               /* print a line per request */
	struct lat_target *t;
	struct worker_hooks hooks[1];
};

/* ---- the hooks: on the worker thread, one request at a time */

static void on_prep(void *arg, unsigned thread, struct io_u *u)
{
	struct lat_target *t = arg;
	(void)thread;
	if (!t->drop)
		return;
	/* As ioping without -C: the request's pages leave the cache first (not timed). */
	if (t->fd < 0)
		t->fd = open(t->file, O_RDONLY | O_CLOEXEC);
	if (t->fd >= 0)
		posix_fadvise(t->fd, (off_t)u->offset, u->len, POSIX_FADV_DONTNEED);
}

static int on_complete(void *arg, unsigned thread, const struct io_u *u, uint64_t lat)
{
	struct lat_target *t = arg;
	(void)thread;
	uint64_t now = now_ns();
	if (!t->requests)
		t->first_start = now - lat;
	t->last_end = now;
	t->requests++;
	t->bytes += (uint64_t)u->res;
	t->writes = u->op == IO_WRITE;
	lat_add(&t->lat, lat);
	if (!t->l->lines)
		return 0;
	char size[32], time[32];
	const char *note = "";
	/* ioping's marks, once more than five requests are in: against the mean including this one. */
	double avg = (double)t->lat.sum / (double)t->lat.n;
	if (t->lat.n > 5 && 2.0 * (double)lat < avg)
		note = " (fast)";
	else if (t->lat.n > 5 && (double)lat > 2.0 * avg)
		note = " (slow)";
	fprintf(t->l->sr->out, "%s %s %s (%s): request=%llu time=%s%s\n",
		ioping_fmt(size, sizeof(size), (long long)u->res, IOPING_SIZE), u->op == IO_WRITE ? ">>>" : "<<<",
		t->shown, t->desc, (unsigned long long)t->requests,
		ioping_fmt(time, sizeof(time), (long long)lat, IOPING_TIME), note);
	fflush(t->l->sr->out);
	return 0;
}

/* ---- the suite's callbacks */

static int start(struct suite_run *sr, struct job *base, struct ig_err *e)
{
	struct latency *l = xcalloc(1, sizeof(*l));
	sr->priv = l;
	l->sr = sr;
	l->ws_default = !base->size;
	if (l->ws_default)
		base->size = base->bs > DEFAULT_WS ? base->bs : DEFAULT_WS;
	l->lines = !sr->s->quiet && sr->s->output_format == OUT_NORMAL;
	if (!base->number_ios && !base->time_based) {
		if (sr->ntargets > 1)
			return err_set(e, EXIT_USAGE,
				       "latency: several targets need -c COUNT or -w DEADLINE (without them the first would run until Ctrl-C)");
		base->number_ios = UINT64_MAX; /* until Ctrl-C */
	}
	/* As ioping: Ctrl-C ends the measurement, the statistics follow, exit 0 (one target). */
	sr->signal_ends = sr->ntargets == 1;
	if (base->bs > base->size && !l->ws_default)
		return err_set(e, EXIT_USAGE, "latency: -s %llu is larger than the working set -S %llu",
			       (unsigned long long)base->bs, (unsigned long long)base->size);
	l->t = xcalloc(sr->ntargets, sizeof(*l->t));
	for (unsigned i = 0; i < sr->ntargets; i++) {
		l->t[i].l = l;
		l->t[i].fd = -1;
		lat_init(&l->t[i].lat);
		l->t[i].lat.h = xcalloc(1, sizeof(*l->t[i].lat.h));
	}
	return 0;
}

/* ioping's description of a target: "(ext4 /dev/vda 252.0 GiB)" or "(block device 64 MiB)". */
static void describe(struct lat_target *lt, const struct suite_target *t)
{
	char sz[32];
	const struct path_facts *f = &t->facts;
	if (t->is_dev)
		snprintf(lt->desc, sizeof(lt->desc), "block device %s",
			 ioping_fmt(sz, sizeof(sz), (long long)t->whole, IOPING_SIZE));
	else
		snprintf(lt->desc, sizeof(lt->desc), "%s %s %s", f->fstype[0] ? f->fstype : "unknown",
			 f->source[0] ? f->source : f->device[0] ? f->device : "none",
			 ioping_fmt(sz, sizeof(sz), (long long)f->size, IOPING_SIZE));
}

static void job(struct suite_run *sr, struct suite_target *t, unsigned c, struct job *j)
{
	struct latency *l = sr->priv;
	struct lat_target *lt = &l->t[t - sr->targets];
	(void)c;
	/* Without -S: the whole device or file, as ioping. */
	if (l->ws_default && t->whole) {
		t->size = t->whole;
		j->size = t->whole;
	}
	/* A block device is read with O_DIRECT unless -C asks for the page cache. */
	if (t->is_dev && j->invalidate)
		j->direct = true;
	/* Buffered writes reach the disk within the request, as ioping's write + fdatasync. */
	if (rw_writes(j->rw) && !j->direct && j->invalidate && j->sync == SYNC_NONE)
		j->sync = SYNC_DSYNC;
	lt->shown = t->shown;
	lt->drop = !j->direct && j->invalidate && rw_reads(j->rw);
	snprintf(lt->file, sizeof(lt->file), "%s", t->file);
	describe(lt, t);
	l->hooks[0].arg = lt;
	l->hooks[0].prep = on_prep;
	l->hooks[0].complete = on_complete;
	j->plan.hooks = &l->hooks[0];
}

/*
 * Several ranks (mpirun): the lines and ioping's block are rank 0's own
 * requests; every rank's, from the merged histograms, follow (medians over
 * the passes).
 */
static void ranks_line(FILE *f, const struct suite_run *sr, unsigned ti)
{
	int dir = rw_writes(sr->base->rw) ? FD_WRITE : FD_READ;
	static const int figs[] = { FIG_LAT_MIN, FIG_LAT_MEAN, FIG_LAT_MAX, FIG_LAT_P50, FIG_LAT_P99 };
	char v[ARRAY_SIZE(figs)][32];
	for (size_t i = 0; i < ARRAY_SIZE(figs); i++) {
		struct fig3 x = suite_fig(sr, ti, 0, dir, figs[i]);
		ioping_fmt(v[i], sizeof(v[i]), x.n ? (long long)llround(x.median) : 0, IOPING_TIME);
	}
	fprintf(f, "above: rank 0's requests; all %u ranks (merged): min/avg/max = %s / %s / %s, p50/p99 = %s / %s\n",
		cluster_size(), v[0], v[1], v[2], v[3], v[4]);
}

/* ioping's closing block of one target: what it prints, and what a saved result keeps. */
struct ioping_sum {
	uint64_t completed, time_ns, bytes, requests, wall_ns;
	uint64_t min, avg, max, mdev, p50, p90, p99, p999; /* ns */
	bool writes;
};

static void sum_of(const struct lat_target *t, struct ioping_sum *o)
{
	const struct lat_stats *s = &t->lat;
	*o = (struct ioping_sum){
		.completed = s->n, .time_ns = s->sum, .bytes = t->bytes, .requests = t->requests,
		.wall_ns = t->requests ? t->last_end - t->first_start : 0, .writes = t->writes,
		.min = s->n ? s->min : 0, .avg = (uint64_t)lat_mean(s), .max = s->max,
		.mdev = (uint64_t)lat_stddev(s), .p50 = (uint64_t)lat_pct(s, 50),
		.p90 = (uint64_t)lat_pct(s, 90), .p99 = (uint64_t)lat_pct(s, 99), .p999 = (uint64_t)lat_pct(s, 99.9),
	};
}

static const char *t_fmt(char *b, uint64_t ns)
{
	return ioping_fmt(b, 32, (long long)ns, IOPING_TIME);
}

static void print_sum(FILE *f, const char *shown, const char *desc, const struct ioping_sum *s)
{
	char a[32], b[32], c[32], d[32];
	double iops = s->time_ns ? 1e9 * (double)s->completed / (double)s->time_ns : 0;
	double speed = s->time_ns ? 1e9 * (double)s->bytes / (double)s->time_ns : 0;
	double liops = s->wall_ns ? 1e9 * (double)s->requests / (double)s->wall_ns : 0;
	double lspeed = s->wall_ns ? 1e9 * (double)s->bytes / (double)s->wall_ns : 0;
	fprintf(f, "--- %s (%s) ioping statistics ---\n", shown, desc);
	fprintf(f, "%llu requests completed in %s, %s %s, %s iops, %s/s\n", (unsigned long long)s->completed,
		t_fmt(a, s->time_ns), ioping_fmt(b, sizeof(b), (long long)s->bytes, IOPING_SIZE),
		s->writes ? "written" : "read", ioping_fmt(c, sizeof(c), (long long)iops, IOPING_INT),
		ioping_fmt(d, sizeof(d), (long long)speed, IOPING_SIZE));
	fprintf(f, "generated %llu requests in %s, %s, %s iops, %s/s\n", (unsigned long long)s->requests,
		t_fmt(a, s->wall_ns), ioping_fmt(b, sizeof(b), (long long)s->bytes, IOPING_SIZE),
		ioping_fmt(c, sizeof(c), (long long)liops, IOPING_INT),
		ioping_fmt(d, sizeof(d), (long long)lspeed, IOPING_SIZE));
	fprintf(f, "min/avg/max/mdev = %s / %s / %s / %s\n", t_fmt(a, s->min), t_fmt(b, s->avg),
		t_fmt(c, s->max), t_fmt(d, s->mdev));
	fprintf(f, "p50/p90/p99/p99.9 = %s / %s / %s / %s\n", t_fmt(a, s->p50), t_fmt(b, s->p90),
		t_fmt(c, s->p99), t_fmt(d, s->p999));
}

/* ioping's closing block, over every pass of this target, and the percentiles. */
static void target_done(FILE *f, struct suite_run *sr, unsigned ti)
{
	struct latency *l = sr->priv;
	struct lat_target *t = &l->t[ti];
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	/* Refused before its first request: stderr said why; no statistics of nothing. */
	if (sr->targets[ti].refused.status && !t->requests)
		return;
	t->done = true;
	if (sr->s->output_format != OUT_NORMAL)
		return;
	struct ioping_sum s;
	sum_of(t, &s);
	if (l->lines)
		fputc('\n', f);
	print_sum(f, t->shown, t->desc, &s);
	if (cluster_size() > 1)
		ranks_line(f, sr, ti);
	if (ti + 1 < sr->ntargets)
		fprintf(f, "\n");
	fflush(f);
}

/* ---- JSON: ioping's statistics of each target, so a saved result prints them again */

static const struct {
	const char *key;
	size_t off;
} sum_keys[] = {
#define K(k, f) { k, offsetof(struct ioping_sum, f) }
	K(RK_COMPLETED, completed), K(RK_TIME_NS, time_ns), K(RK_BYTES, bytes), K(RK_REQUESTS, requests),
	K(RK_WALL_NS, wall_ns), K(RK_MIN_NS, min), K(RK_AVG_NS, avg), K(RK_MAX_NS, max), K(RK_MDEV_NS, mdev),
	K(RK_P50_NS, p50), K(RK_P90_NS, p90), K(RK_P99_NS, p99), K(RK_P99_9_NS, p999),
#undef K
};

static json_t *ig_json_latency(const struct suite_run *sr)
{
	const struct latency *l = sr->priv;
	json_t *o = json_object(), *targets = json_array();
	for (unsigned i = 0; i < sr->ntargets; i++) {
		const struct lat_target *t = &l->t[i];
		if (!t->done)
			continue;
		struct ioping_sum s;
		sum_of(t, &s);
		json_t *x = json_object();
		json_object_set_new(x, RK_PATH, ig_json_text(sr->targets[i].shown));
		json_object_set_new(x, RK_DESCRIPTION, ig_json_text(t->desc));
		json_object_set_new(x, RK_WRITES, json_boolean(s.writes));
		for (size_t k = 0; k < ARRAY_SIZE(sum_keys); k++)
			json_object_set_new(x, sum_keys[k].key,
					    ig_json_u64(*(const uint64_t *)((const char *)&s + sum_keys[k].off)));
		json_array_append_new(targets, x);
	}
	json_object_set_new(o, RK_TARGETS, targets);
	return o;
}

/* A saved result (report --html): ioping's block of each target, from the "latency" object. */
static void latency_print_saved(FILE *f, const json_t *root)
{
	struct result_ioping *v;
	unsigned n = result_ioping(result_own(root, RK_LATENCY), &v);
	for (unsigned i = 0; i < n; i++) {
		const struct result_ioping *x = &v[i];
		struct ioping_sum s = {
			.completed = x->completed, .time_ns = x->time_ns, .bytes = x->bytes, .requests = x->requests,
			.wall_ns = x->wall_ns, .min = x->min_ns, .avg = x->avg_ns, .max = x->max_ns, .mdev = x->mdev_ns,
			.p50 = x->p50_ns, .p90 = x->p90_ns, .p99 = x->p99_ns, .p999 = x->p99_9_ns, .writes = x->writes,
		};
		if (i)
			fputc('\n', f);
		print_sum(f, x->path, x->description, &s);
	}
	free(v);
}

static void end(struct suite_run *sr)
{
	struct latency *l = sr->priv;
	if (!l)
		return;
	for (unsigned i = 0; l->t && i < sr->ntargets; i++) {
		if (l->t[i].fd >= 0)
			close(l->t[i].fd);
		lat_free(&l->t[i].lat);
	}
	free(l->t);
	free(l);
	sr->priv = NULL;
}

/* ---- several targets: a row per statistic, a column per target */

static const struct {
	const char *label;
	int fig; /* -1: requests */
} rows[] = {
	{ "requests", -1 },	      { "min", FIG_LAT_MIN }, { "avg", FIG_LAT_MEAN },
	{ "max", FIG_LAT_MAX },	      { "mdev", FIG_LAT_STDDEV }, { "p50", FIG_LAT_P50 },
	{ "p99", FIG_LAT_P99 },
};

/* A saved result read back (report) has no request count here: ioping's blocks above say it. */
static unsigned first_row(const struct suite_run *sr)
{
	return sr->priv ? 0 : 1;
}

static void row_label(const struct suite_run *sr, unsigned target, unsigned row, char *buf, size_t len)
{
	(void)target;
	snprintf(buf, len, "%s", rows[row + first_row(sr)].label);
}

static void row_cell(const struct suite_run *sr, unsigned target, unsigned row, char *buf, size_t len)
{
	const struct latency *l = sr->priv;
	row += first_row(sr);
	if (rows[row].fig < 0) {
		snprintf(buf, len, "%llu%s", (unsigned long long)l->t[target].requests,
			 cluster_size() > 1 ? " (rank 0)" : "");
		return;
	}
	int dir = rw_writes(sr->base->rw) ? FD_WRITE : FD_READ;
	struct fig3 v = suite_fig(sr, target, 0, dir, rows[row].fig);
	if (!v.n)
		snprintf(buf, len, "-");
	else
		ioping_fmt(buf, len, (long long)llround(v.median), IOPING_TIME);
}

static void print_latency(FILE *f, const struct suite_run *sr)
{
	if (sr->ntargets > 1)
		suite_print_columns(f, sr, "Latency per request", "", ARRAY_SIZE(rows) - first_row(sr), row_label,
				    row_cell);
}

static const struct suite latency = {
	.cases = cases,
	.ncases = ARRAY_SIZE(cases),
	.print = print_latency,
	.files = true,
	.no_progress = true,
	.size_opts = "S",
	.start = start,
	.job = job,
	.target_done = target_done,
	.json = ig_json_latency,
	.end = end,
};

const struct command cmd_latency = {
	.name = "latency",
	.usage = "iogauge latency [-c COUNT] [-i INTERVAL] [-s SIZE] [-S WORKING-SET] [-D] [-C] [-W] [-L] [-q] [OPTIONS] [PATH...]",
	.summary = "ioping: one request at a time, a line per request, ioping's statistics and percentiles",
	.description =
		"4 KiB random reads from a 1 MiB test file in a directory (or the whole file or block device "
		"named), one at a time, 1 s apart; each request's line is printed as it completes, in "
		"ioping's format (4 KiB <<< PATH (ext4 /dev/vda 252.0 GiB): request=1 time=210.1 us). Without "
		"-c it runs until Ctrl-C, then prints ioping's statistics (requests, time, iops, speed, "
		"min/avg/max/mdev) and the p50/p90/p99/p99.9 percentiles, and exits 0. Buffered reads drop the "
		"request's pages from the cache first (not timed) unless -C; block devices are read with "
		"O_DIRECT unless -C; buffered writes (-W) are O_DSYNC unless -C. Several PATHs (with -c or -w) "
		"are measured one after another and add a table with a column per target.",
	.groups = OG_RESULTS | OG_DESTROY | OG_OVERWRITE | OG_KEEP | OG_SUITE | OG_SAVE | OG_STORE,
	.defaults = "--rw=randread --bs=4k --thinktime=1s --iodepth=1 --numjobs=1 --ioengine=psync "
		    "--direct=0 --invalidate=1 --time_based=0 --runtime=0 --ramp_time=0",
	.suite = &latency,
	.print_saved = latency_print_saved,
};
