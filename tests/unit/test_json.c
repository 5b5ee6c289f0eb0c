/* Unit tests for the JSON writer: a hand-built run result in, jansson to check it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <time.h>

#include "base/common.h"
#include "cmds/commands.h"
#include "options/options.h"
#include "run/runner.h"
#include "report/report.h"
#include "model/engine.h"

/* Defined in src/cmds/run.c and src/suites/quick.c; no header declares them. */
extern const struct command cmd_run, cmd_quick;

/* ---------------------------------------------------------------- fixture */

#define NREAD 10000
#define NWRITE 100
#define NFSYNC 7
#define ELAPSED 2500000000ULL /* 2.5 s */
#define STARTED 1700000000    /* 2023-11-14T22:13:20Z */

static uint64_t rlat[NREAD], wlat[NWRITE]; /* as fed, then sorted */
static uint64_t rslat[NREAD], rtlat[NREAD];  /* read slat and lat (submit, both), sorted */
static uint64_t flat[NFSYNC];                /* fsync latencies, sorted */
static struct job_result jrs[2];
static struct thread_stats th[2];
static struct target tgt;
static struct run_result rr;
static struct settings sset;
static char tmpdir[64]; /* for the files the writer tests create */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void push_pt(struct series *s, uint64_t t, uint64_t rios, uint64_t rlsum, uint64_t rmax,
		    uint64_t wios, uint64_t wlsum, uint64_t wmax)
{
	struct series_pt p;
	memset(&p, 0, sizeof(p));
	p.t_ns = t;
	p.ios[IO_READ] = rios;
	p.bytes[IO_READ] = rios * 4096;
	p.lat_sum[IO_READ] = rlsum;
	p.lat_max[IO_READ] = rmax;
	p.ios[IO_WRITE] = wios;
	p.bytes[IO_WRITE] = wios * 65536;
	p.lat_sum[IO_WRITE] = wlsum;
	p.lat_max[IO_WRITE] = wmax;
	series_push(s, &p);
}

/*
 * One job, one thread: 10000 reads of 4 KiB (with submit latency: slat, clat
 * and lat) and 100 writes of 64 KiB (clat only) and 7 fsyncs over 2.5 s, a
 * three-point series, one target, three devices (one unreadable).
 */
static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iogauge-test-json.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	memset(&rr, 0, sizeof(rr));
	memset(jrs, 0, sizeof(jrs));
	struct job_result *jr = &jrs[0];
	options_defaults(&jr->job, &sset);
	snprintf(jr->job.name, sizeof(jr->job.name), "job1");
	jr->job.size = 1ULL << 30;
	jr->job.rw = RW_RANDRW;
	jr->job.direct = true;
	jr->job.engine = &engine_libaio;
	jr->job.iodepth = 16;

	struct thread_stats *t = &jr->total;
	stats_init(t);
	stats_init(&th[0]);
	stats_init(&th[1]);
	stats_want(t, IO_READ, true);
	stats_want(t, IO_WRITE, false);
	stats_want(t, IO_FSYNC, false);
	for (int i = 0; i < NREAD; i++) {
		/* Spread over 5 us .. 105 us, and a slow tail. */
		uint64_t v = 5000 + (uint64_t)i * 7919 % 100000;
		if (i % 1000 == 999)
			v = 3000000 + (uint64_t)i * 13;
		rlat[i] = v;
		rslat[i] = 300 + (uint64_t)i % 977;
		rtlat[i] = v + rslat[i];
		lat_add(&t->op[IO_READ].clat, v);
		lat_add(&t->op[IO_READ].slat, rslat[i]);
		lat_add(&t->op[IO_READ].lat, rtlat[i]);
	}
	for (int i = 0; i < NWRITE; i++) {
		wlat[i] = 2000000 + (uint64_t)i * i * 997;
		lat_add(&t->op[IO_WRITE].clat, wlat[i]);
	}
	for (int i = 0; i < NFSYNC; i++) {
		flat[i] = 4000000 + (uint64_t)i * 100003;
		lat_add(&t->op[IO_FSYNC].clat, flat[i]);
	}
	t->op[IO_READ].ios = NREAD;
	t->op[IO_READ].bytes = NREAD * 4096ULL;
	t->op[IO_WRITE].ios = NWRITE;
	t->op[IO_WRITE].bytes = NWRITE * 65536ULL;
	t->op[IO_FSYNC].ios = NFSYNC;
	t->elapsed_ns = ELAPSED;
	t->cpu.usr_ns = 1250000000ULL; /* 50% */
	t->cpu.sys_ns = 500000000ULL;  /* 20% */
	t->cpu.ctx = 4242;
	/* Cumulative points, as the worker records them. */
	push_pt(&t->series, 1000000000ULL, 4000, 4000ULL * 50000, 90000, 40, 40ULL * 2000000, 2100000);
	push_pt(&t->series, 2000000000ULL, 8000, 8000ULL * 50000 + 4000, 95000, 70,
		70ULL * 2000000 + 300, 2200000);
	push_pt(&t->series, ELAPSED, NREAD, NREAD * 50000ULL + 10000, 80000, NWRITE,
		NWRITE * 2000000ULL + 900, 2300000);
	qsort(rlat, NREAD, sizeof(rlat[0]), cmp_u64);
	qsort(rslat, NREAD, sizeof(rslat[0]), cmp_u64);
	qsort(rtlat, NREAD, sizeof(rtlat[0]), cmp_u64);
	qsort(wlat, NWRITE, sizeof(wlat[0]), cmp_u64);
	qsort(flat, NFSYNC, sizeof(flat[0]), cmp_u64);

	jr->nthreads = 1;
	jr->threads = &th[0];
	memset(&tgt, 0, sizeof(tgt));
	snprintf(tgt.path, sizeof(tgt.path), "/mnt/test/job1.0.0");
	snprintf(tgt.fstype, sizeof(tgt.fstype), "ext4");
	snprintf(tgt.device, sizeof(tgt.device), "vda");
	tgt.size = 1ULL << 30;
	tgt.direct = true;
	tgt.created = true;
	tgt.layout_bytes = 1ULL << 30;
	tgt.layout_ns = 123456789;
	jr->targets = &tgt;
	jr->ntargets = 1;
	jr->invalidate_ns = 555;
	jr->resident_before = -1;

	/* A job that never started (no threads): left out of the report. */
	options_defaults(&jrs[1].job, &sset);
	snprintf(jrs[1].job.name, sizeof(jrs[1].job.name), "never");
	stats_init(&jrs[1].total);

	rr.jobs = jrs;
	rr.njobs = 2;
	rr.started = STARTED;
	rr.elapsed_ns = 3000000000ULL;
	rr.status = EXIT_OK;
	rr.ndevs = 3;
	snprintf(rr.devs[0].name, sizeof(rr.devs[0].name), "vda");
	rr.devs[0].rd_ios = 9000;
	rr.devs[0].rd_sectors = 80000;
	rr.devs[0].wr_ios = 50;
	rr.devs[0].wr_sectors = 12800;
	rr.devs[0].io_ticks_ms = 1250;
	rr.devs[0].span_ns = ELAPSED;
	rr.devs[0].ok = true;
	snprintf(rr.devs[1].name, sizeof(rr.devs[1].name), "gone");
	rr.devs[1].ok = false;
	snprintf(rr.devs[2].name, sizeof(rr.devs[2].name), "sdb");
	rr.devs[2].io_ticks_ms = 3000; /* 120%: merged counters overshoot, clamped */
	rr.devs[2].span_ns = ELAPSED;
	rr.devs[2].ok = true;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		return -1;
	stats_free(&jrs[0].total);
	stats_free(&jrs[1].total);
	stats_free(&th[0]);
	stats_free(&th[1]);
	return 0;
}

/* ---------------------------------------------------------------- helpers */

/* Walk "a.b.0.c" (numbers index arrays); fails the test when a step is missing. */
static json_t *at(json_t *root, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", path);
	json_t *cur = root;
	for (char *save = NULL, *tok = strtok_r(buf, ".", &save); tok;
	     tok = strtok_r(NULL, ".", &save)) {
		json_t *next;
		if (json_is_array(cur))
			next = json_array_get(cur, strtoul(tok, NULL, 10));
		else
			next = json_object_get(cur, tok);
		if (!next)
			fail_msg("JSON path %s: '%s' missing", path, tok);
		cur = next;
	}
	return cur;
}

static long long ival(json_t *root, const char *path)
{
	json_t *v = at(root, path);
	if (!json_is_integer(v))
		fail_msg("%s is not an integer", path);
	return json_integer_value(v);
}

static double rval(json_t *root, const char *path)
{
	json_t *v = at(root, path);
	if (!json_is_real(v))
		fail_msg("%s is not a real", path);
	return json_real_value(v);
}

static const char *sval(json_t *root, const char *path)
{
	json_t *v = at(root, path);
	if (!json_is_string(v))
		fail_msg("%s is not a string", path);
	return json_string_value(v);
}

static void contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' does not contain '%s'", hay, needle);
}

static void near(double got, double want, double rel, const char *what)
{
	double tol = fabs(want) * rel;
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: got %.17g, want %.17g (rel tol %g)", what, got, want, rel);
}

static long double exact_mean(const uint64_t *v, size_t n)
{
	long double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s / n;
}

static long double exact_stddev(const uint64_t *v, size_t n)
{
	long double m = exact_mean(v, n), s = 0;
	for (size_t i = 0; i < n; i++)
		s += ((long double)v[i] - m) * ((long double)v[i] - m);
	return sqrtl(s / n);
}

/* The exact percentile: the ceil(p/100 * n)-th smallest sample. */
static uint64_t exact_pct(const uint64_t *sorted, size_t n, double p)
{
	uint64_t p100 = (uint64_t)llround(p * 100); /* hundredths: exact for the list */
	uint64_t rank = (p100 * n + 9999) / 10000;
	if (!rank)
		rank = 1;
	return sorted[rank - 1];
}

/* A latency object as ig_json_lat writes it, against the exact samples. */
static void check_lat(json_t *c, const char *name, const uint64_t *sorted, size_t n,
		      const struct job *j)
{
	char what[64];
	assert_int_equal(ival(c, "samples"), n);
	assert_int_equal(ival(c, "min"), sorted[0]);
	assert_int_equal(ival(c, "max"), sorted[n - 1]);
	snprintf(what, sizeof(what), "%s mean", name);
	near(rval(c, "mean"), (double)exact_mean(sorted, n), 1e-12, what);
	snprintf(what, sizeof(what), "%s stddev", name);
	near(rval(c, "stddev"), (double)exact_stddev(sorted, n), 1e-9, what);
	json_t *pct = at(c, "percentiles");
	assert_int_equal(json_object_size(pct), j->n_percentiles);
	for (unsigned i = 0; i < j->n_percentiles; i++) {
		char key[32];
		snprintf(key, sizeof(key), "%f", j->percentiles[i]);
		json_t *v = json_object_get(pct, key);
		if (!json_is_integer(v))
			fail_msg("%s percentile key '%s' missing", name, key);
		uint64_t want = exact_pct(sorted, n, j->percentiles[i]);
		snprintf(what, sizeof(what), "%s p%s", name, key);
		/* docs/json.md promises 0.4%; the brief asks 1%. */
		near((double)json_integer_value(v), (double)want, 0.004, what);
	}
	/* The exact sums, and the histogram they merge by. */
	uint64_t sum = 0;
	unsigned __int128 sumsq = 0;
	for (size_t i = 0; i < n; i++) {
		sum += sorted[i];
		sumsq += (unsigned __int128)sorted[i] * sorted[i];
	}
	assert_int_equal(ival(c, "sum"), sum);
	char dec[48], *q = dec + sizeof(dec) - 1;
	*q = 0;
	do {
		*--q = (char)('0' + (int)(sumsq % 10));
		sumsq /= 10;
	} while (sumsq);
	assert_string_equal(sval(c, "sumsq"), q);
	json_t *h = at(c, "histogram");
	assert_true(json_is_array(h));
	uint64_t total = 0, prev = 0;
	size_t i;
	json_t *b;
	json_array_foreach(h, i, b) {
		assert_int_equal(json_array_size(b), 2);
		uint64_t lo = (uint64_t)json_integer_value(json_array_get(b, 0));
		uint64_t cnt = (uint64_t)json_integer_value(json_array_get(b, 1));
		assert_true(json_is_integer(json_array_get(b, 0)));
		assert_true(cnt > 0); /* sparse: empty buckets left out */
		assert_int_equal(hist_bucket_low(hist_index(lo)), lo);
		if (i)
			assert_true(lo > prev); /* ascending */
		prev = lo;
		/* The samples in [lo, high of its bucket]. */
		uint64_t hi = hist_bucket_high(hist_index(lo)), in = 0;
		for (size_t k = 0; k < n; k++)
			in += sorted[k] >= lo && sorted[k] <= hi;
		assert_int_equal(cnt, in);
		total += cnt;
	}
	assert_int_equal(total, n);
}

static void check_clat(json_t *dir, const char *name, const uint64_t *sorted, size_t n,
		       const struct job *j)
{
	check_lat(at(dir, "clat_ns"), name, sorted, n, j);
}

/* The JSON of rr as `iogauge run` writes it (command name as given). */
static json_t *run_json(const char *command)
{
	json_t *root = ig_json_root(command, rr.status, rr.interrupted, &rr.err);
	assert_non_null(root);
	ig_json_add_run(root, &rr, cmd_run.groups, NULL);
	return root;
}

/* ---------------------------------------------------------------- tests */

static void test_top_level(void **state)
{
	(void)state;
	time_t before = time(NULL);
	json_t *root = run_json("run");
	time_t after = time(NULL);
	assert_non_null(root);
	assert_string_equal(sval(root, "iogauge.version"), iogauge_version);
	assert_string_equal(sval(root, "iogauge.command"), "run");
	/*
	 * "time": UTC, ISO 8601.  It used to be the run's start (r->started);
	 * ig_json_root now stamps the moment the root is built (see the report).
	 */
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	const char *ts = sval(root, "time");
	const char *end = strptime(ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end)
		fail_msg("time '%s' is not ISO 8601 UTC", ts);
	time_t t = timegm(&tm);
	assert_true(t >= before && t <= after);
	assert_int_equal(ival(root, "elapsed_ns"), 3000000000LL);
	assert_true(json_is_false(at(root, "interrupted")));
	assert_int_equal(ival(root, "status"), 0);
	assert_true(json_is_null(at(root, "error")));
	/* The job without threads is left out. */
	assert_int_equal(json_array_size(at(root, "jobs")), 1);
	assert_string_equal(sval(root, "jobs.0.name"), "job1");
	assert_int_equal(ival(root, "jobs.0.group"), 0);
	assert_int_equal(ival(root, "jobs.0.threads_n"), 1);
	assert_int_equal(json_array_size(at(root, "notes")), 0);
	/* One stonewall group: the job's totals. */
	assert_int_equal(json_array_size(at(root, "groups")), 1);
	assert_int_equal(ival(root, "groups.0.group"), 0);
	assert_int_equal(ival(root, "groups.0.read.ios"), NREAD);
	assert_int_equal(ival(root, "groups.0.write.bytes"), NWRITE * 65536LL);
	assert_int_equal(ival(root, "groups.0.read.clat_ns.samples"), NREAD);
	assert_null(json_object_get(at(root, "groups.0"), "series"));
	json_decref(root);

	rr.interrupted = true;
	rr.status = EXIT_IOERR;
	snprintf(rr.notes[0], sizeof(rr.notes[0]), "a note");
	rr.nnotes = 1;
	root = run_json("quick");
	assert_string_equal(sval(root, "iogauge.command"), "quick");
	assert_true(json_is_true(at(root, "interrupted")));
	assert_int_equal(ival(root, "status"), 1);
	assert_string_equal(sval(root, "notes.0"), "a note");
	json_decref(root);
	rr.interrupted = false;
	rr.status = EXIT_OK;
	rr.nnotes = 0;

	/* A refusal: its message is the root's "error". */
	struct ig_err e = { 0 };
	assert_int_equal(err_set(&e, EXIT_USAGE, "--bs=%d: refused", 3), -1);
	assert_int_equal(err_set(&e, EXIT_IOERR, "a second cause"), -1); /* the first wins */
	assert_int_equal(e.status, EXIT_USAGE);
	root = ig_json_root("run", e.status, false, &e);
	assert_string_equal(sval(root, "error"), "--bs=3: refused");
	assert_int_equal(ival(root, "status"), 2);
	json_decref(root);
	root = ig_json_root("run", 0, false, NULL);
	assert_true(json_is_null(at(root, "error")));
	json_decref(root);
}

static void test_job_stats(void **state)
{
	(void)state;
	json_t *root = run_json("run");
	json_t *j = at(root, "jobs.0");
	const struct job *job = &jrs[0].job;

	assert_int_equal(ival(j, "elapsed_ns"), ELAPSED);
	assert_int_equal(ival(j, "read.ios"), NREAD);
	assert_int_equal(ival(j, "read.bytes"), NREAD * 4096LL);
	assert_int_equal(ival(j, "write.ios"), NWRITE);
	assert_int_equal(ival(j, "write.bytes"), NWRITE * 65536LL);
	/* bytes * 1e9 / elapsed: 40960000 B over 2.5 s. */
	near(rval(j, "read.bw_bytes"), 16384000.0, 1e-12, "read.bw_bytes");
	near(rval(j, "read.iops"), 4000.0, 1e-12, "read.iops");
	near(rval(j, "write.bw_bytes"), 2621440.0, 1e-12, "write.bw_bytes");
	near(rval(j, "write.iops"), 40.0, 1e-12, "write.iops");

	check_clat(at(j, "read"), "read", rlat, NREAD, job);
	check_clat(at(j, "write"), "write", wlat, NWRITE, job);
	/* slat and lat beside clat; slat absent where nothing was submitted apart (writes here). */
	check_lat(at(j, "read.slat_ns"), "read slat", rslat, NREAD, job);
	check_lat(at(j, "read.lat_ns"), "read lat", rtlat, NREAD, job);
	assert_null(json_object_get(at(j, "write"), "slat_ns"));
	assert_int_equal(ival(j, "write.lat_ns.samples"), 0);
	/* Syncs are an operation of their own (the "syncs" count is gone). */
	assert_int_equal(ival(j, "fsync.ios"), NFSYNC);
	assert_int_equal(ival(j, "fsync.bytes"), 0);
	near(rval(j, "fsync.iops"), NFSYNC / 2.5, 1e-12, "fsync.iops");
	check_clat(at(j, "fsync"), "fsync", flat, NFSYNC, job);
	assert_null(json_object_get(j, "syncs"));
	/* Operations that never happened are left out. */
	assert_null(json_object_get(j, "fdatasync"));
	assert_null(json_object_get(j, "trim"));
	/* fio's key spelling. */
	assert_non_null(json_object_get(at(j, "read.clat_ns.percentiles"), "99.000000"));
	assert_non_null(json_object_get(at(j, "read.clat_ns.percentiles"), "99.990000"));
	assert_non_null(json_object_get(at(j, "read.clat_ns.percentiles"), "1.000000"));
	/* Top and bottom percentiles are the exact extremes when the rank is 1 or n. */
	assert_int_equal(json_integer_value(json_object_get(at(j, "write.clat_ns.percentiles"),
							    "1.000000")),
			 wlat[0]);
	assert_int_equal(json_integer_value(json_object_get(at(j, "write.clat_ns.percentiles"),
							    "99.500000")),
			 wlat[NWRITE - 1]);

	near(rval(j, "cpu.usr_pct"), 50.0, 1e-12, "usr_pct");
	near(rval(j, "cpu.sys_pct"), 20.0, 1e-12, "sys_pct");
	assert_int_equal(ival(j, "cpu.usr_ns"), 1250000000LL);
	assert_int_equal(ival(j, "cpu.sys_ns"), 500000000LL);
	assert_int_equal(ival(j, "cpu.ctx"), 4242);
	assert_int_equal(ival(j, "pass_invalidations"), 0);
	assert_int_equal(ival(j, "pass_invalidate_ns"), 0);
	assert_true(json_is_false(at(j, "interrupted")));
	assert_true(json_is_null(at(j, "error")));

	/* Job-level keys. */
	assert_string_equal(sval(j, "options.rw"), "randrw");
	assert_int_equal(ival(j, "options.bs"), 4096);
	assert_int_equal(ival(j, "options.size"), 1LL << 30);
	assert_int_equal(ival(j, "options.iodepth"), 16);
	assert_int_equal(ival(j, "options.numjobs"), 1);
	assert_string_equal(sval(j, "options.ioengine"), "libaio");
	assert_true(json_is_true(at(j, "options.direct")));
	assert_int_equal(ival(j, "options.rwmixread"), 50);
	assert_string_equal(sval(j, "options.random_distribution"), "random");
	assert_int_equal(ival(j, "options.randseed"), 137);
	/* Options that are not numbers, sizes, times or booleans are echoed as typed. */
	assert_string_equal(sval(j, "options.sync"), "none");
	assert_string_equal(sval(j, "options.data"), "random");
	assert_int_equal(ival(j, "options.runtime"), 0);
	assert_true(json_is_false(at(j, "options.time_based")));
	assert_int_equal(ival(j, "options.offset"), 0);
	assert_string_equal(sval(j, "options.percentile_list"),
			    "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99");
	/* Other names of a field, and the command's settings, are not echoed. */
	assert_null(json_object_get(at(j, "options"), "readwrite"));
	assert_null(json_object_get(at(j, "options"), "blocksize"));
	assert_null(json_object_get(at(j, "options"), "buffered"));
	assert_null(json_object_get(at(j, "options"), "rwmixwrite"));
	assert_null(json_object_get(at(j, "options"), "name"));
	assert_null(json_object_get(at(j, "options"), "output"));
	assert_null(json_object_get(at(j, "options"), "allow-destroy"));
	assert_string_equal(sval(j, "io_mode"), "O_DIRECT");
	assert_true(json_is_false(at(j, "buffered_fallback")));
	assert_int_equal(ival(j, "invalidate_ns"), 555);
	assert_true(json_is_null(at(j, "resident_before_bytes")));
	assert_int_equal(json_array_size(at(j, "targets")), 1);
	assert_string_equal(sval(j, "targets.0.path"), "/mnt/test/job1.0.0");
	assert_string_equal(sval(j, "targets.0.fstype"), "ext4");
	assert_string_equal(sval(j, "targets.0.device"), "vda");
	assert_int_equal(ival(j, "targets.0.size"), 1LL << 30);
	assert_true(json_is_true(at(j, "targets.0.created")));
	assert_true(json_is_false(at(j, "targets.0.blockdev")));
	assert_int_equal(ival(j, "targets.0.layout_ns"), 123456789);
	/* One thread: no per-thread array. */
	assert_null(json_object_get(j, "threads"));
	json_decref(root);
}

static void test_options_echo(void **state)
{
	(void)state;
	struct job *job = &jrs[0].job;
	struct job saved = *job;
	char err[256];
	assert_int_equal(option_apply(option_find("random_distribution"), job, &sset, "zipf:1.2",
				      err, sizeof(err)),
			 0);
	assert_int_equal(option_apply(option_find("sync"), job, &sset, "dsync", err, sizeof(err)),
			 0);
	assert_int_equal(option_apply(option_find("percentile_list"), job, &sset, "50:99.9",
				      err, sizeof(err)),
			 0);
	job->data.mode = DATA_ZERO;
	job->direct = false;
	job->end_fsync = true;
	jrs[0].resident_before = 4096;
	json_t *root = run_json("run");
	json_t *j = at(root, "jobs.0");
	/* The parameter is part of the value as typed (no "distribution_param" key any more). */
	assert_string_equal(sval(j, "options.random_distribution"), "zipf:1.2");
	assert_null(json_object_get(at(j, "options"), "distribution_param"));
	assert_string_equal(sval(j, "options.sync"), "dsync");
	assert_string_equal(sval(j, "options.percentile_list"), "50:99.9");
	assert_string_equal(sval(j, "options.data"), "zero");
	assert_true(json_is_true(at(j, "options.end_fsync")));
	assert_int_equal(ival(j, "resident_before_bytes"), 4096);
	assert_string_equal(sval(j, "io_mode"), "buffered");
	json_t *pct = at(j, "read.clat_ns.percentiles");
	assert_int_equal(json_object_size(pct), 2);
	assert_non_null(json_object_get(pct, "50.000000"));
	assert_non_null(json_object_get(pct, "99.900000"));
	check_clat(at(j, "read"), "read", rlat, NREAD, job);
	json_decref(root);
	*job = saved;
	jrs[0].resident_before = -1;
}

static void test_series_per_interval(void **state)
{
	(void)state;
	json_t *root = run_json("run");
	json_t *s = at(root, "jobs.0.series");
	assert_int_equal(ival(s, "interval_ns"), 1000000000LL);
	json_t *pts = at(s, "points");
	assert_int_equal(json_array_size(pts), 3);
	static const long long t[] = { 1000000000LL, 2000000000LL, 2500000000LL };
	static const long long dur[] = { 1000000000LL, 1000000000LL, 500000000LL };
	static const long long rios[] = { 4000, 4000, 2000 };
	static const long long wios[] = { 40, 30, 30 };
	static const double rmean[] = { 50000.0, 50001.0, 50003.0 };
	static const double wmean[] = { 2000000.0, 2000010.0, 2000020.0 };
	static const long long rmax[] = { 90000, 95000, 80000 };
	static const long long wmax[] = { 2100000, 2200000, 2300000 };
	long long rsum = 0, wsum = 0;
	for (int i = 0; i < 3; i++) {
		json_t *p = json_array_get(pts, (size_t)i);
		assert_int_equal(ival(p, "t_ns"), t[i]);
		assert_int_equal(ival(p, "dur_ns"), dur[i]);
		assert_int_equal(ival(p, "read.ios"), rios[i]);
		assert_int_equal(ival(p, "read.bytes"), rios[i] * 4096);
		assert_int_equal(ival(p, "write.ios"), wios[i]);
		assert_int_equal(ival(p, "write.bytes"), wios[i] * 65536);
		near(rval(p, "read.lat_mean_ns"), rmean[i], 1e-12, "read.lat_mean_ns");
		near(rval(p, "write.lat_mean_ns"), wmean[i], 1e-12, "write.lat_mean_ns");
		assert_int_equal(ival(p, "read.lat_max_ns"), rmax[i]);
		assert_int_equal(ival(p, "write.lat_max_ns"), wmax[i]);
		rsum += ival(p, "read.ios");
		wsum += ival(p, "write.ios");
	}
	/* The intervals add up to the totals. */
	assert_int_equal(rsum, ival(root, "jobs.0.read.ios"));
	assert_int_equal(wsum, ival(root, "jobs.0.write.ios"));
	json_decref(root);
}

static void test_error_object(void **state)
{
	(void)state;
	struct thread_stats *t = &jrs[0].total;
	t->err = EIO;
	t->err_offset = 8192;
	t->err_op = IO_WRITE;
	snprintf(t->err_file, sizeof(t->err_file), "/mnt/test/job1.0.0");
	json_t *root = run_json("run");
	json_t *e = at(root, "jobs.0.error");
	assert_true(json_is_object(e));
	assert_int_equal(ival(e, "errno"), EIO);
	assert_string_equal(sval(e, "message"), strerror(EIO));
	assert_string_equal(sval(e, "file"), "/mnt/test/job1.0.0");
	assert_int_equal(ival(e, "offset"), 8192);
	assert_string_equal(sval(e, "op"), "write");
	json_decref(root);

	/* A short read: no errno, what it moved of how much, at the request's offset. */
	t->short_io = true;
	t->err = ENODATA;
	t->err_op = IO_READ;
	t->short_got = 4096;
	t->short_len = 8192;
	root = run_json("run");
	assert_string_equal(sval(root, "jobs.0.error.message"), "short read: 4096 of 8192 bytes at offset 8192");
	assert_true(json_is_null(at(root, "jobs.0.error.errno")));
	assert_int_equal(ival(at(root, "jobs.0.error"), "bytes"), 4096);
	assert_int_equal(ival(at(root, "jobs.0.error"), "length"), 8192);
	assert_string_equal(sval(root, "jobs.0.error.op"), "read");
	json_decref(root);

	t->err = 0;
	t->short_io = false;
	t->err_offset = 0;
	t->err_op = 0;
	t->err_file[0] = 0;
	root = run_json("run");
	assert_true(json_is_null(at(root, "jobs.0.error")));
	json_decref(root);
}

static void test_devices(void **state)
{
	(void)state;
	json_t *root = run_json("run");
	json_t *d = at(root, "devices");
	/* The unreadable one is left out. */
	assert_int_equal(json_array_size(d), 2);
	assert_string_equal(sval(d, "0.name"), "vda");
	assert_int_equal(ival(d, "0.read_ios"), 9000);
	assert_int_equal(ival(d, "0.read_bytes"), 80000LL * 512);
	assert_int_equal(ival(d, "0.write_ios"), 50);
	assert_int_equal(ival(d, "0.write_bytes"), 12800LL * 512);
	near(rval(d, "0.util_pct"), 50.0, 1e-12, "util_pct");
	assert_int_equal(ival(d, "0.span_ns"), ELAPSED);
	assert_string_equal(sval(d, "1.name"), "sdb");
	near(rval(d, "1.util_pct"), 100.0, 0, "clamped util_pct");
	assert_int_equal(ival(d, "1.read_bytes"), 0);
	json_decref(root);

	/* No span: 0%, not a division by zero. */
	rr.devs[2].span_ns = 0;
	root = ig_json_devices(&rr);
	assert_true(rval(root, "1.util_pct") == 0.0);
	json_decref(root);
	rr.devs[2].span_ns = ELAPSED;
}

static void test_threads_array(void **state)
{
	(void)state;
	struct job_result *jr = &jrs[0];
	/* Two threads: thread 1 has only some of the reads. */
	stats_free(&th[1]);
	stats_init(&th[1]);
	stats_want(&th[1], IO_READ, false);
	for (int i = 0; i < 10; i++)
		lat_add(&th[1].op[IO_READ].clat, 1000 + (uint64_t)i);
	th[1].op[IO_READ].ios = 10;
	th[1].op[IO_READ].bytes = 40960;
	th[1].elapsed_ns = 1000000000ULL;
	jr->nthreads = 2;
	json_t *root = run_json("run");
	json_t *ta = at(root, "jobs.0.threads");
	assert_int_equal(json_array_size(ta), 2);
	assert_int_equal(ival(ta, "0.read.ios"), 0);
	assert_int_equal(ival(ta, "0.read.clat_ns.min"), 0); /* empty: 0, not UINT64_MAX */
	assert_int_equal(ival(ta, "1.read.ios"), 10);
	assert_int_equal(ival(ta, "1.read.clat_ns.min"), 1000);
	assert_int_equal(ival(ta, "1.read.clat_ns.max"), 1009);
	near(rval(ta, "1.read.bw_bytes"), 40960.0, 1e-12, "thread bw");
	/* Totals still come from the merged stats. */
	assert_int_equal(ival(root, "jobs.0.read.ios"), NREAD);
	json_decref(root);

	jr->job.group_reporting = true;
	root = run_json("run");
	assert_null(json_object_get(at(root, "jobs.0"), "threads"));
	json_decref(root);
	jr->job.group_reporting = false;
	jr->nthreads = 1;
	stats_free(&th[1]);
	stats_init(&th[1]);
}

static void test_empty_thread(void **state)
{
	(void)state;
	/* A job that ran and measured nothing: ig_json_job of an empty total. */
	static struct job_result jr;
	memset(&jr, 0, sizeof(jr));
	stats_init(&jr.total);
	options_defaults(&jr.job, &sset);
	jr.nthreads = 1;
	jr.threads = &jr.total;
	jr.resident_before = -1;
	json_t *o = ig_json_job(&jr, cmd_run.groups, NULL);
	for (int d = 0; d < 2; d++) {
		json_t *x = at(o, d ? "write" : "read");
		assert_int_equal(ival(x, "ios"), 0);
		assert_int_equal(ival(x, "clat_ns.samples"), 0);
		assert_int_equal(ival(x, "clat_ns.min"), 0);
		assert_int_equal(ival(x, "clat_ns.max"), 0);
		assert_true(rval(x, "clat_ns.mean") == 0.0);
		assert_true(rval(x, "clat_ns.stddev") == 0.0);
		assert_true(rval(x, "bw_bytes") == 0.0);
		assert_true(rval(x, "iops") == 0.0);
		json_t *p = at(x, "clat_ns.percentiles");
		assert_int_equal(json_object_size(p), 17);
		const char *k;
		json_t *v;
		json_object_foreach(p, k, v)
		{
			assert_true(json_is_integer(v));
			assert_int_equal(json_integer_value(v), 0);
		}
	}
	for (int d = 0; d < 2; d++) {
		json_t *x = at(o, d ? "write" : "read");
		assert_null(json_object_get(x, "slat_ns"));
		assert_int_equal(ival(x, "lat_ns.samples"), 0);
		assert_int_equal(json_array_size(at(x, "clat_ns.histogram")), 0);
		assert_int_equal(ival(x, "clat_ns.sum"), 0);
		assert_string_equal(sval(x, "clat_ns.sumsq"), "0");
	}
	assert_null(json_object_get(o, "fsync"));
	assert_null(json_object_get(o, "fdatasync"));
	assert_null(json_object_get(o, "trim"));
	assert_true(rval(o, "cpu.usr_pct") == 0.0);
	assert_true(rval(o, "cpu.sys_pct") == 0.0); /* elapsed 0: no division by zero */
	assert_int_equal(json_array_size(at(o, "series.points")), 0);
	assert_true(json_is_null(at(o, "error")));
	assert_true(json_is_null(at(o, "resident_before_bytes")));
	json_decref(o);
	stats_free(&jr.total);
}

/* Same shape and values; reals within the writer's 10 significant digits. */
static void same_json(json_t *a, json_t *b, const char *path)
{
	if (json_typeof(a) != json_typeof(b))
		fail_msg("%s: type %d vs %d", path, json_typeof(a), json_typeof(b));
	char sub[512];
	switch (json_typeof(a)) {
	case JSON_OBJECT: {
		assert_int_equal(json_object_size(a), json_object_size(b));
		const char *k;
		json_t *v;
		json_object_foreach(a, k, v)
		{
			json_t *w = json_object_get(b, k);
			snprintf(sub, sizeof(sub), "%s.%s", path, k);
			if (!w)
				fail_msg("%s missing after the round trip", sub);
			same_json(v, w, sub);
		}
		break;
	}
	case JSON_ARRAY:
		assert_int_equal(json_array_size(a), json_array_size(b));
		for (size_t i = 0; i < json_array_size(a); i++) {
			snprintf(sub, sizeof(sub), "%s.%zu", path, i);
			same_json(json_array_get(a, i), json_array_get(b, i), sub);
		}
		break;
	case JSON_REAL:
		near(json_real_value(b), json_real_value(a), 1e-9, path);
		break;
	default:
		if (!json_equal(a, b))
			fail_msg("%s differs after the round trip", path);
	}
}

/* Write root through outputs_open/outputs_finish with these settings; returns outputs_finish's status. */
static int write_json(json_t *root, const char *json_path, int format, const char *output,
		      int status, struct ig_err *e)
{
	static struct settings s;
	static struct job j;
	struct outputs o;
	options_defaults(&j, &s);
	s.output_format = format;
	snprintf(s.json, sizeof(s.json), "%s", json_path ? json_path : "");
	snprintf(s.output, sizeof(s.output), "%s", output ? output : "");
	if (outputs_open(&o, &s, NULL, e))
		return -1;
	return outputs_finish(&o, &s, root, status);
}

/* Run fn with stderr (fd 2) or stdout (fd 1) going to a temporary file; its text in out. */
struct capture {
	FILE *tmp;
	int saved, fd;
};

static void capture_begin(struct capture *c, int fd)
{
	c->tmp = tmpfile();
	assert_non_null(c->tmp);
	fflush(fd == 1 ? stdout : stderr);
	c->fd = fd;
	c->saved = dup(fd);
	assert_true(c->saved >= 0);
	dup2(fileno(c->tmp), fd);
}

static void capture_end(struct capture *c, char *out, size_t len)
{
	fflush(c->fd == 1 ? stdout : stderr);
	dup2(c->saved, c->fd);
	close(c->saved);
	rewind(c->tmp);
	size_t n = fread(out, 1, len - 1, c->tmp);
	out[n] = 0;
	fclose(c->tmp);
}

static void test_write_file(void **state)
{
	(void)state;
	char path[256];
	struct ig_err e = { 0 };
	snprintf(path, sizeof(path), "%s/out.json", tmpdir);
	json_t *root = run_json("run");
	/* --json FILE beside text output: nothing on stdout, the file holds the JSON. */
	struct capture c;
	char out[4096];
	capture_begin(&c, 1);
	int rc = write_json(root, path, OUT_NORMAL, NULL, 0, &e);
	capture_end(&c, out, sizeof(out));
	assert_int_equal(rc, 0);
	assert_int_equal(e.status, 0);
	assert_string_equal(out, "");

	json_error_t jerr;
	json_t *back = json_load_file(path, 0, &jerr);
	if (!back)
		fail_msg("%s: %s at line %d", path, jerr.text, jerr.line);
	same_json(root, back, "$");
	assert_int_equal(ival(back, "jobs.0.read.ios"), NREAD);
	assert_string_equal(sval(back, "jobs.0.name"), "job1");
	/* Ends with a newline. */
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fseek(f, -1, SEEK_END), 0);
	assert_int_equal(fgetc(f), '\n');
	fclose(f);
	json_decref(back);

	/* Overwrites, does not append (json_load_file refuses text after the value). */
	assert_int_equal(write_json(root, path, OUT_NORMAL, NULL, 0, &e), 0);
	back = json_load_file(path, 0, &jerr);
	if (!back)
		fail_msg("%s after a second write: %s", path, jerr.text);
	json_decref(back);

	/* --output-format=json --output FILE: the JSON goes to FILE. */
	unlink(path);
	assert_int_equal(write_json(root, NULL, OUT_JSON, path, 0, &e), 0);
	back = json_load_file(path, 0, &jerr);
	if (!back)
		fail_msg("--output %s: %s", path, jerr.text);
	same_json(root, back, "$");
	json_decref(back);

	/* A status passes through a good write unchanged. */
	assert_int_equal(write_json(root, path, OUT_NORMAL, NULL, 130, &e), 130);
	assert_int_equal(write_json(root, path, OUT_NORMAL, NULL, EXIT_IOERR, &e), EXIT_IOERR);
	unlink(path);
	json_decref(root);
}

static void stdout_json(int format, const char *json_path, const char *output, json_t *root)
{
	struct ig_err e = { 0 };
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	fflush(stdout);
	int saved = dup(1);
	assert_true(saved >= 0);
	dup2(fileno(tmp), 1);
	int rc = write_json(root, json_path, format, output, 0, &e);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	if (rc != 0)
		fail_msg("write to stdout: %d (%s)", rc, e.msg);
	rewind(tmp);
	json_error_t jerr;
	json_t *back = json_loadf(tmp, 0, &jerr);
	if (!back)
		fail_msg("stdout: %s", jerr.text);
	same_json(root, back, "$");
	json_decref(back);
	fclose(tmp);
}

static void test_write_stdout(void **state)
{
	(void)state;
	json_t *root = run_json("run");
	char txt[] = "/tmp/iogauge-text.XXXXXX";
	int fd = mkstemp(txt);
	assert_true(fd >= 0);
	close(fd);
	stdout_json(OUT_JSON, NULL, NULL, root); /* --output-format=json */
	stdout_json(OUT_NORMAL, "-", txt, root); /* --json - with the text in --output FILE */
	unlink(txt);
	/* --json - while the text report also goes to stdout: refused, they would mix. */
	struct ig_err e = { 0 };
	assert_int_equal(write_json(root, "-", OUT_NORMAL, NULL, 0, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	assert_non_null(strstr(e.msg, "--json -: the text report goes to stdout"));
	json_decref(root);
}

static void test_write_errors(void **state)
{
	(void)state;
	json_t *root = run_json("run");
	char path[256], other[256], out[4096];
	struct ig_err e = { 0 };

	/* A bad path is a usage error before the run, not a lost result after it. */
	snprintf(path, sizeof(path), "%s/no/such/dir/out.json", tmpdir);
	assert_int_equal(write_json(root, path, OUT_NORMAL, NULL, 0, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	contains(e.msg, "--json");
	contains(e.msg, path);
	contains(e.msg, strerror(ENOENT));
	assert_null(strchr(e.msg, '\n'));

	memset(&e, 0, sizeof(e));
	assert_int_equal(write_json(root, NULL, OUT_JSON, path, 0, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	contains(e.msg, "--output");
	contains(e.msg, path);

	memset(&e, 0, sizeof(e));
	assert_int_equal(write_json(root, tmpdir, OUT_NORMAL, NULL, 0, &e), -1); /* a directory */
	assert_int_equal(e.status, EXIT_USAGE);
	contains(e.msg, tmpdir);
	contains(e.msg, "a directory, refused");

	/*
	 * --output and --json naming one file: by one name before it exists, by
	 * two names once it does.  (Two names of a file not yet created are not
	 * caught: see the report.)
	 */
	snprintf(path, sizeof(path), "%s/same.json", tmpdir);
	snprintf(other, sizeof(other), "%s/../%s/same.json", tmpdir, strrchr(tmpdir, '/') + 1);
	memset(&e, 0, sizeof(e));
	assert_int_equal(write_json(root, path, OUT_NORMAL, path, 0, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	contains(e.msg, "--output and --json");
	assert_int_equal(access(path, F_OK), -1); /* refused before anything is opened */
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	memset(&e, 0, sizeof(e));
	assert_int_equal(write_json(root, path, OUT_NORMAL, other, 0, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	contains(e.msg, "--output and --json");
	unlink(path);
	memset(&e, 0, sizeof(e));
	assert_int_equal(write_json(root, "-", OUT_JSON, NULL, 0, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	contains(e.msg, "--json -");

	/* A full disk at the end: status 1 (unless already failing), with a message. */
	if (access("/dev/full", W_OK) == 0) {
		struct capture c;
		memset(&e, 0, sizeof(e));
		capture_begin(&c, 2);
		int rc1 = write_json(root, "/dev/full", OUT_NORMAL, NULL, 0, &e);
		int rc2 = write_json(root, "/dev/full", OUT_NORMAL, NULL, 130, &e);
		capture_end(&c, out, sizeof(out));
		assert_int_equal(e.status, 0);
		assert_int_equal(rc1, EXIT_IOERR);
		assert_int_equal(rc2, 130);
		contains(out, "cannot write JSON to /dev/full");
		contains(out, strerror(ENOSPC));
	}
	json_decref(root);
}
/* A randseed above INT64_MAX (any 64-bit seed is allowed) must not come out negative. */
static void test_u64_range(void **state)
{
	(void)state;
	struct job *job = &jrs[0].job;
	uint64_t saved = job->randseed;
	char err[128];
	assert_int_equal(option_apply(option_find("randseed"), job, &sset, "18446744073709551615",
				      err, sizeof(err)),
			 0);
	json_t *root = run_json("run");
	json_t *v = at(root, "jobs.0.options.randseed");
	job->randseed = saved;
	bool negative = json_is_integer(v) && json_integer_value(v) < 0;
	long long got = json_is_integer(v) ? json_integer_value(v) : 0;
	double real = json_is_real(v) ? json_real_value(v) : 18446744073709551615.0;
	json_decref(root);
	if (negative)
		fail_msg("options.randseed 18446744073709551615 written as %lld", got);
	near(real, 18446744073709551615.0, 1e-15, "randseed");
}

/* Linux paths are bytes: a non-UTF-8 path must not make its key vanish. */
static void test_non_utf8_path(void **state)
{
	(void)state;
	struct thread_stats *t = &jrs[0].total;
	char saved[sizeof(tgt.path)];
	memcpy(saved, tgt.path, sizeof(saved));
	snprintf(tgt.path, sizeof(tgt.path), "/mnt/caf\xe9/f");
	t->err = EIO;
	snprintf(t->err_file, sizeof(t->err_file), "/mnt/caf\xe9/f");
	json_t *root = run_json("run");
	json_t *tp = json_object_get(at(root, "jobs.0.targets.0"), "path");
	json_t *ef = json_object_get(at(root, "jobs.0.error"), "file");
	memcpy(tgt.path, saved, sizeof(saved));
	t->err = 0;
	t->err_file[0] = 0;
	bool ok = json_is_string(tp) && json_is_string(ef);
	json_decref(root);
	if (!ok)
		fail_msg("targets[0].path %s, error.file %s", tp ? "present" : "MISSING",
			 ef ? "present" : "MISSING");
}

/* ig_json_u64: never negative; ig_json_text: never NULL for a byte string. */
static void test_u64_text(void **state)
{
	(void)state;
	json_t *v = ig_json_u64(0);
	assert_true(json_is_integer(v) && json_integer_value(v) == 0);
	json_decref(v);
	v = ig_json_u64(INT64_MAX);
	assert_true(json_is_integer(v) && json_integer_value(v) == INT64_MAX);
	json_decref(v);
	v = ig_json_u64((uint64_t)INT64_MAX + 1);
	assert_true(json_is_real(v));
	assert_true(json_real_value(v) == 9223372036854775808.0);
	json_decref(v);
	v = ig_json_u64(UINT64_MAX);
	assert_true(json_is_real(v) && json_real_value(v) > 0);
	json_decref(v);
	v = ig_json_text("plain");
	assert_string_equal(json_string_value(v), "plain");
	json_decref(v);
	v = ig_json_text("caf\xe9 \xff/x");
	assert_non_null(v);
	assert_string_equal(json_string_value(v), "caf? ?/x");
	json_decref(v);
	v = ig_json_text("");
	assert_string_equal(json_string_value(v), "");
	json_decref(v);
}

/*
 * A command echoes the options it takes, those its case names, and any other
 * only when set away from its default: quick takes no --rw, --bs or
 * --iodepth, and echoes the job's randrw and 16 (set), not its bs (4k, the
 * default) nor fio's hundred others (zonemode, verify_async...).
 */
static void test_options_groups(void **state)
{
	(void)state;
	json_t *o = ig_json_job(&jrs[0], cmd_quick.groups, NULL);
	json_t *opts = at(o, "options");
	assert_int_equal(ival(opts, "size"), 1LL << 30);
	assert_string_equal(sval(opts, "ioengine"), "libaio");
	assert_true(json_is_true(at(opts, "direct")));
	assert_int_equal(ival(opts, "runtime"), 0);
	assert_int_equal(ival(opts, "ramp_time"), 0);
	assert_string_equal(sval(opts, "data"), "random");
	assert_string_equal(sval(opts, "rw"), "randrw");
	assert_int_equal(ival(opts, "iodepth"), 16);
	static const char *const absent[] = { "bs", "numjobs", "rwmixread", "randseed", "offset", "zonemode",
					      "verify_async", "passes", "keep", "output" };
	for (size_t i = 0; i < ARRAY_SIZE(absent); i++)
		if (json_object_get(opts, absent[i]))
			fail_msg("quick's options echo %s", absent[i]);
	/* The job options quick takes (size runtime ramp_time ioengine direct data verify) and rw, iodepth. */
	assert_string_equal(sval(opts, "verify"), "none");
	assert_int_equal(json_object_size(opts), 9);
	json_decref(o);

	/* A case's option string: what it names is echoed at any value (bs=4k is the default), in the table's order. */
	o = ig_json_job(&jrs[0], cmd_quick.groups, "--rw=randrw --blocksize=4k --zonemode=none");
	opts = at(o, "options");
	assert_int_equal(ival(opts, "bs"), 4096);
	assert_string_equal(sval(opts, "zonemode"), "none");
	assert_null(json_object_get(opts, "blocksize"));
	assert_int_equal(json_object_size(opts), 11);
	const char *key, *order[16];
	json_t *v;
	size_t nk = 0;
	json_object_foreach(opts, key, v)
		if (nk < ARRAY_SIZE(order))
			order[nk++] = key;
	assert_string_equal(order[0], "size");
	assert_string_equal(order[1], "rw");
	assert_string_equal(order[2], "bs");
	json_decref(o);

	/* Every job option of run, under its own name, once. */
	o = ig_json_job(&jrs[0], cmd_run.groups, NULL);
	opts = at(o, "options");
	size_t n = 0;
	for (const struct opt_def *d = options; d->name; d++) {
		bool want = d->scope == SCOPE_JOB && (d->group & cmd_run.groups) &&
			    !(d->flags & (OPT_NO_ECHO | OPT_NO_EFFECT));
		if (want != (json_object_get(opts, d->name) != NULL))
			fail_msg("run's options: %s %s", d->name, want ? "missing" : "echoed");
		n += want;
	}
	assert_int_equal(json_object_size(opts), n);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_top_level),
		cmocka_unit_test(test_job_stats),
		cmocka_unit_test(test_options_echo),
		cmocka_unit_test(test_series_per_interval),
		cmocka_unit_test(test_error_object),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_threads_array),
		cmocka_unit_test(test_empty_thread),
		cmocka_unit_test(test_write_file),
		cmocka_unit_test(test_write_stdout),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_u64_range),
		cmocka_unit_test(test_non_utf8_path),
		cmocka_unit_test(test_u64_text),
		cmocka_unit_test(test_options_groups),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
