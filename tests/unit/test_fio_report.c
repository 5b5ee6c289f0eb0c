/* Unit tests for fio's formats: bucket mapping, percentiles, fio-json/json+ and terse from a hand-built run. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/common.h"
#include "options/options.h"
#include "options/args.h"
#include "run/runner.h"
#include "report/fio.h"
#include "model/engine.h"

/* ---------------------------------------------------------------- buckets */

static void test_plat_values(void **state)
{
	(void)state;
	/* fio 3.33's bucket values, from its bins (docs: fio-formats §2.2). */
	for (unsigned i = 0; i < 128; i++) {
		assert_int_equal(fio_plat_val(i), i);
		assert_int_equal(fio_plat_idx(i), i);
	}
	assert_int_equal(fio_plat_val(128), 129);
	assert_int_equal(fio_plat_val(129), 131);
	assert_int_equal(fio_plat_val(192), 258);
	assert_int_equal(fio_plat_val(1855), 17112760320ULL);
	assert_int_equal(fio_plat_idx(128), 128);
	assert_int_equal(fio_plat_idx(129), 128);
	assert_int_equal(fio_plat_idx(130), 129);
	assert_int_equal(fio_plat_idx(28544), fio_plat_idx(28544 + 127));
	assert_int_equal(fio_plat_val(fio_plat_idx(28544)), 28544);
	/* Beyond ~17 s, fio's last bucket. */
	assert_int_equal(fio_plat_idx(UINT64_MAX), FIO_PLAT_NR - 1);
	/* Each of iogauge's buckets lies inside one of fio's: the mapping is exact. */
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		unsigned a = fio_plat_idx(hist_bucket_low(i)), b = fio_plat_idx(hist_bucket_high(i));
		if (a != b)
			fail_msg("iogauge bucket %u [%llu, %llu] spans fio buckets %u and %u", i,
				 (unsigned long long)hist_bucket_low(i),
				 (unsigned long long)hist_bucket_high(i), a, b);
	}
}

static void test_percentile_rule(void **state)
{
	(void)state;
	struct fio_lat l = { 0 };
	l.plat = calloc(FIO_PLAT_NR, sizeof(*l.plat));
	/* 10 samples: 7 at 100 ns, 2 at ~1 us, 1 at ~1 ms. */
	l.plat[100] = 7;
	l.plat[fio_plat_idx(1000)] = 2;
	l.plat[fio_plat_idx(1000000)] = 1;
	l.n = 10;
	assert_int_equal(fio_lat_pct(&l, 50), 100);
	assert_int_equal(fio_lat_pct(&l, 70), 100); /* 7 >= 0.7 * 10 */
	assert_int_equal(fio_lat_pct(&l, 70.000001), fio_plat_val(fio_plat_idx(1000)));
	assert_int_equal(fio_lat_pct(&l, 90), fio_plat_val(fio_plat_idx(1000)));
	assert_int_equal(fio_lat_pct(&l, 99.99), fio_plat_val(fio_plat_idx(1000000)));
	free(l.plat);
	l.plat = NULL;
	l.n = 0;
	assert_int_equal(fio_lat_pct(&l, 50), 0);
}

/* ---------------------------------------------------------------- a run */

static struct job_result jrs[2];
static struct thread_stats th[3];
static struct run_result rr;

static void fill_thread(struct thread_stats *t, uint64_t nread, uint64_t base)
{
	stats_init(t);
	stats_want(t, IO_READ, true);
	stats_want(t, IO_WRITE, false);
	for (uint64_t i = 0; i < nread; i++) {
		lat_add(&t->op[IO_READ].clat, base + i * 37 % 5000);
		lat_add(&t->op[IO_READ].lat, base + i * 37 % 5000);
	}
	t->op[IO_READ].ios = nread;
	t->op[IO_READ].bytes = nread * 4096;
	t->elapsed_ns = 2 * NSEC_PER_SEC + 123456;
	t->depth[0] = nread;
	t->submit[1] = t->complete[1] = nread;
	/* Two full one-second intervals and a short tail. */
	struct series_pt p;
	memset(&p, 0, sizeof(p));
	for (int k = 1; k <= 3; k++) {
		p.t_ns = k < 3 ? (uint64_t)k * NSEC_PER_SEC : t->elapsed_ns;
		p.ios[IO_READ] = nread * (uint64_t)k / 3;
		p.bytes[IO_READ] = p.ios[IO_READ] * 4096;
		series_push(&t->series, &p);
	}
}

static int setup(void **state)
{
	(void)state;
	struct settings s;
	memset(&rr, 0, sizeof(rr));
	for (int k = 0; k < 2; k++) {
		options_defaults(&jrs[k].job, &s);
		jrs[k].job.engine = &engine_psync;
		jrs[k].job.rw = RW_RANDREAD;
		jrs[k].job.plan.index = (unsigned)k;
	}
	snprintf(jrs[0].job.name, sizeof(jrs[0].job.name), "one");
	snprintf(jrs[1].job.name, sizeof(jrs[1].job.name), "two");
	snprintf(jrs[1].job.description, sizeof(jrs[1].job.description), "second job");
	jrs[1].job.numjobs = 2;
	jrs[1].group = 1;
	fill_thread(&th[0], 3000, 20000);
	fill_thread(&th[1], 1000, 100000);
	fill_thread(&th[2], 2000, 50000);
	jrs[0].nthreads = 1;
	jrs[0].threads = &th[0];
	jrs[1].nthreads = 2;
	jrs[1].threads = &th[1];
	rr.jobs = jrs;
	rr.njobs = 2;
	rr.elapsed_ns = 5 * NSEC_PER_SEC;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++)
		stats_free(&th[i]);
	return 0;
}

static char *render(int kind)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	static struct kv_list g, jobs[2];
	if (!g.n) {
		kv_push(&g, "size", 4, "1m");
		kv_push(&jobs[1], "description", 11, "second job");
	}
	struct fio_echo echo = { &g, jobs, 2 };
	if (kind == 2)
		report_terse(f, &rr);
	else
		report_fio_json(f, &rr, &echo, kind == 1);
	fclose(f);
	return buf;
}

static json_t *parse(const char *text)
{
	json_error_t je;
	json_t *root = json_loads(text, 0, &je);
	if (!root)
		fail_msg("not JSON: %s at line %d", je.text, je.line);
	return root;
}

static json_t *at(json_t *o, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *save = NULL, *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(k)) : json_object_get(o, k);
		if (!o)
			fail_msg("no %s (at %s)", path, k);
	}
	return o;
}

static void test_fio_json(void **state)
{
	(void)state;
	char *text = render(0);
	json_t *root = parse(text);
	/* fio's printer: "key" : value, two spaces a level, %f floats. */
	assert_non_null(strstr(text, "\n  \"fio version\" : \""));
	assert_non_null(strstr(text, "\"mean\" : "));
	assert_int_equal(json_integer_value(at(root, "global options.size")) == 0, 1);
	assert_string_equal(json_string_value(at(root, "global options.size")), "1m");
	assert_null(json_object_get(root, "disk_util")); /* no device tracked */
	/* No group_reporting: one entry per thread, clones share the name. */
	json_t *jobs = at(root, "jobs");
	assert_int_equal(json_array_size(jobs), 3);
	assert_string_equal(json_string_value(at(root, "jobs.2.jobname")), "two");
	assert_int_equal(json_integer_value(at(root, "jobs.2.groupid")), 1);
	assert_string_equal(json_string_value(at(root, "jobs.2.job options.description")), "second job");
	assert_null(json_object_get(at(root, "jobs.0"), "job options"));
	assert_string_equal(json_string_value(at(root, "jobs.2.desc")), "second job");
	/* bw and iops from the exact totals over the measured time. */
	json_t *r = at(root, "jobs.0.read");
	double el = (double)th[0].elapsed_ns;
	assert_int_equal(json_integer_value(at(r, "io_bytes")), 3000 * 4096);
	assert_int_equal(json_integer_value(at(r, "total_ios")), 3000);
	uint64_t bwb = (uint64_t)(3000.0 * 4096 * 1e9 / el);
	assert_int_equal(json_integer_value(at(r, "bw_bytes")), bwb);
	assert_int_equal(json_integer_value(at(r, "bw")), bwb / 1024);
	assert_true(fabs(json_real_value(at(r, "iops")) - 3000 * 1e9 / el) < 1e-3);
	assert_int_equal(json_integer_value(at(r, "runtime")), 2000);
	/* Two full intervals are samples; the tail is not. */
	assert_int_equal(json_integer_value(at(r, "bw_samples")), 2);
	assert_int_equal(json_integer_value(at(r, "iops_min")), 1000);
	/* clat has percentiles, lat does not (lat_percentiles=0), slat is empty. */
	assert_non_null(json_object_get(at(r, "clat_ns"), "percentile"));
	assert_null(json_object_get(at(r, "lat_ns"), "percentile"));
	assert_null(json_object_get(at(r, "clat_ns"), "bins")); /* fio-json, not json+ */
	assert_int_equal(json_integer_value(at(r, "slat_ns.N")), 0);
	assert_int_equal(json_integer_value(at(r, "clat_ns.N")), 3000);
	/* Sample standard deviation, as fio. */
	const struct lat_stats *c = &th[0].op[IO_READ].clat;
	double sd = lat_stddev(c) * sqrt(3000.0 / 2999.0);
	assert_true(fabs(json_real_value(at(r, "clat_ns.stddev")) - sd) < 1e-3);
	assert_true(fabs(json_real_value(at(root, "jobs.0.iodepth_level.1")) - 100.0) < 1e-9);
	json_decref(root);
	free(text);
}

static void test_jsonplus_bins(void **state)
{
	(void)state;
	char *text = render(1);
	json_t *root = parse(text);
	json_t *c = at(root, "jobs.0.read.clat_ns");
	json_t *bins = at(c, "bins");
	/* The bins add up to N, and the percentiles follow from them by fio's rule. */
	uint64_t total = 0;
	const char *k;
	json_t *v;
	json_object_foreach(bins, k, v)
		total += (uint64_t)json_integer_value(v);
	assert_int_equal(total, 3000);
	json_t *pct = at(c, "percentile");
	json_object_foreach(pct, k, v) {
		double p = atof(k);
		uint64_t cum = 0, want = 0;
		const char *bk;
		json_t *bv;
		json_object_foreach(bins, bk, bv) {
			cum += (uint64_t)json_integer_value(bv);
			if ((long double)cum >= (long double)p / 100 * 3000) {
				want = strtoull(bk, NULL, 10);
				break;
			}
		}
		if ((uint64_t)json_integer_value(v) != want)
			fail_msg("percentile %s: %lld, bins say %llu", k, json_integer_value(v),
				 (unsigned long long)want);
	}
	json_decref(root);
	free(text);
}

static void test_group_reporting(void **state)
{
	(void)state;
	jrs[1].job.group_reporting = true;
	char *text = render(0);
	json_t *root = parse(text);
	assert_int_equal(json_array_size(at(root, "jobs")), 2);
	json_t *r = at(root, "jobs.1.read");
	assert_int_equal(json_integer_value(at(r, "total_ios")), 3000);
	assert_int_equal(json_integer_value(at(r, "clat_ns.N")), 3000);
	/* fio sums the members' job_runtime and their sample statistics. */
	assert_int_equal(json_integer_value(at(root, "jobs.1.job_runtime")), 2 * 2000);
	assert_int_equal(json_integer_value(at(r, "bw_samples")), 4);
	assert_int_equal(json_integer_value(at(r, "iops_min")), 333 + 666);
	json_decref(root);
	free(text);
	jrs[1].job.group_reporting = false;
}

static void test_terse(void **state)
{
	(void)state;
	char *text = render(2);
	char *json = render(0);
	json_t *root = parse(json);
	char *line = strtok(text, "\n");
	unsigned nlines = 0;
	for (; line; line = strtok(NULL, "\n"), nlines++) {
		char *fields[200];
		unsigned n = 0;
		for (char *p = line, *q; n < 200; p = q + 1) {
			fields[n++] = p;
			q = strchr(p, ';');
			if (!q)
				break;
			*q = 0;
		}
		/* 121 fields without disks; the description adds one. */
		assert_int_equal(n, nlines == 0 ? 121 : 122);
		assert_string_equal(fields[0], "3");
		char path[64];
		snprintf(path, sizeof(path), "jobs.%u.read", nlines);
		json_t *r = at(root, path);
		/* YABS's fields: 7, 8 read KiB/s and IOPS; 48, 49 the writes. */
		assert_int_equal(strtoull(fields[6], NULL, 10), json_integer_value(at(r, "bw")));
		assert_int_equal(strtoull(fields[7], NULL, 10), (uint64_t)json_real_value(at(r, "iops")));
		assert_string_equal(fields[47], "0");
		assert_string_equal(fields[48], "0");
		assert_non_null(strstr(fields[17], "1.000000%="));
		assert_string_equal(fields[36], "0%=0");
	}
	assert_int_equal(nlines, 3);
	json_decref(root);
	free(json);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plat_values),
		cmocka_unit_test(test_percentile_rule),
		cmocka_unit_test(test_fio_json),
		cmocka_unit_test(test_jsonplus_bins),
		cmocka_unit_test(test_group_reporting),
		cmocka_unit_test(test_terse),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
