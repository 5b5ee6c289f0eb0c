/*
 * Unit tests for the results store's pure parts: what a label may be, what a
 * word naming a saved result looks like, the run-to-run spread check and
 * report --trend share (store_spread: each earlier result's passes' range
 * counts), and fio's JSON read as an iogauge result (result_from_fio: fio's
 * figures carried, its bins not, its options read as `run` reads them).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "base/common.h"
#include "cmds/commands.h"
#include "report/result_read.h"
#include "store/store.h"

static void test_labels(void **state)
{
	(void)state;
	assert_true(store_label_ok("nvme0-nightly"));
	assert_true(store_label_ok("ci:host1+v2.1_x"));
	assert_false(store_label_ok(""));
	assert_false(store_label_ok("1234"));        /* an ID */
	assert_false(store_label_ok("two words"));
	assert_false(store_label_ok("nvme-\xc3\xbc")); /* UTF-8: not ASCII */
	assert_false(store_label_ok("\xfc"));         /* Latin-1 ü: isalnum's in that locale */
	assert_false(store_label_ok("-x"));           /* an option to check, compare */
	assert_false(store_label_ok("a/b"));
	assert_false(store_label_ok("old.json"));     /* a file to compare and report */
	char long_label[66];
	memset(long_label, 'a', 65);
	long_label[65] = 0;
	assert_false(store_label_ok(long_label));
	long_label[64] = 0;
	assert_true(store_label_ok(long_label));
}

static void test_refs(void **state)
{
	(void)state;
	assert_true(store_ref_like("@last"));
	assert_true(store_ref_like("@last~3"));
	assert_true(store_ref_like("12"));
	assert_true(store_ref_like("nightly~2"));
	assert_false(store_ref_like("12~1"));
	assert_false(store_ref_like("@last~"));
	assert_false(store_ref_like("@last~x"));
	assert_false(store_ref_like("a b"));
}

static struct store_fig fig(double v, double lo, double hi, unsigned passes)
{
	static char t[] = "/mnt", j[] = "SEQ1M Q8T1 read", d[] = "read", m[] = "mb_s";
	return (struct store_fig){ .target = t, .job = j, .dir = d, .metric = m, .value = v, .min = lo, .max = hi,
				   .passes = passes, .better = 1 };
}

static void test_spread(void **state)
{
	(void)state;
	struct store_fig f[3] = { fig(100, 50, 150, 3), fig(110, 105, 112, 3), fig(40, 40, 40, 0) };
	struct store_run runs[3] = { { .figs = &f[0], .nfigs = 1 }, { .figs = &f[1], .nfigs = 1 },
				     { .figs = &f[2], .nfigs = 1 } };
	struct store_spread sp;
	/* Two earlier results: their passes' ranges (50 to 150), their figures' median (105). */
	assert_true(store_spread(runs, 2, &f[2], &sp));
	assert_int_equal(sp.runs, 2);
	assert_true(sp.lo == 50 && sp.hi == 150 && sp.median == 105);
	/* One is too few to judge. */
	assert_false(store_spread(runs, 1, &f[2], &sp));
	/* Another figure (another target) is not the same one. */
	static char other[] = "/other";
	struct store_fig g = f[2];
	g.target = other;
	assert_false(store_spread(runs, 2, &g, &sp));
	assert_int_equal(sp.runs, 0);
}

static void test_fio(void **state)
{
	(void)state;
	json_error_t je;
	json_t *fio = json_loads(
		"{\"fio version\": \"fio-3.33\", \"timestamp\": 1700000000, \"global options\": {\"ioengine\": \"psync\", "
		"\"size\": \"256k\", \"lockfile\": \"exclusive\", \"bs\": \"4q\"}, \"jobs\": [{\"jobname\": \"j\", \"groupid\": 0, \"error\": 0, "
		"\"job_runtime\": 100, \"job options\": {\"rw\": \"randread\", \"bs\": \"4k\", \"iodepth\": \"8\", "
		"\"filename\": \"/tmp/f\"}, \"read\": {\"io_bytes\": 262144, \"bw_bytes\": 2621440, \"iops\": 640.0, "
		"\"total_ios\": 64, \"clat_ns\": {\"min\": 1000, \"max\": 9000, \"mean\": 2000.5, \"stddev\": 10, \"N\": 64, "
		"\"percentile\": {\"50.000000\": 1800, \"99.000000\": 8000}, \"bins\": {\"1800\": 60, \"8000\": 4}}}, "
		"\"write\": {\"io_bytes\": 0}}]}",
		0, &je);
	assert_non_null(fio);
	struct ig_err e = { 0 };
	json_t *root = result_from_fio(fio, "f.json", &cmd_run, &e);
	assert_non_null(root);
	assert_int_equal(result_check(root, "f.json", &e), 0);
	struct result_head h;
	result_head(root, &h);
	assert_string_equal(h.command, "fio");
	assert_string_equal(h.imported, "fio-3.33");
	assert_string_equal(h.time, "2023-11-14T22:13:20Z");
	struct result_job *jobs;
	unsigned n = result_jobs(root, &jobs);
	assert_int_equal(n, 1);
	assert_string_equal(jobs[0].name, "j");
	assert_string_equal(jobs[0].target, "/tmp/f");
	assert_true(jobs[0].dir[0].iops == 640 && jobs[0].dir[0].bw_bytes == 2621440 && jobs[0].dir[0].bytes == 262144);
	assert_true(jobs[0].dir[0].clat_mean == 2000.5 && jobs[0].dir[0].clat_p99 == 8000 && jobs[0].dir[0].clat_p50 == 1800);
	assert_true(isnan(jobs[0].dir[1].bytes)); /* nothing written: no direction */
	/* Its options as run reads them, those fio gave alone; psync's iodepth is 1, as iogauge would run it. */
	const json_t *o = jobs[0].options;
	assert_int_equal(json_integer_value(json_object_get(o, "bs")), 4096);
	assert_int_equal(json_integer_value(json_object_get(o, "iodepth")), 1);
	assert_int_equal(json_integer_value(json_object_get(o, "size")), 262144);
	assert_null(json_object_get(o, "runtime"));
	/* No histogram is made of fio's bins: the decoder that needs one refuses. */
	struct lat_stats l;
	lat_init(&l);
	assert_int_equal(lat_from_json(jobs[0].dir[0].clat, &l, &e), -1);
	lat_free(&l);
	bool lacks = false, refused = false, bins = false;
	for (unsigned i = 0; i < h.nnotes; i++) {
		lacks |= strstr(result_note(root, i), "fio options iogauge does not have: lockfile") != NULL;
		refused |= strstr(result_note(root, i), "values iogauge reads otherwise, not compared: bs") != NULL;
		bins |= strstr(result_note(root, i), "fio's latency bins (json+") != NULL;
	}
	assert_true(lacks && refused && bins);
	result_jobs_free(jobs, n);
	json_decref(root);
	/* No job: refused. */
	json_t *none = json_loads("{\"fio version\": \"fio-3.33\", \"jobs\": []}", 0, &je);
	memset(&e, 0, sizeof(e));
	assert_null(result_from_fio(none, "n.json", &cmd_run, &e));
	assert_int_equal(e.status, EXIT_USAGE);
	json_decref(none);
	json_decref(fio);
	assert_string_equal(result_fio_start("note: x\n  {\"a\": 1}"), "{\"a\": 1}");
	assert_null(result_fio_start("1.98,2.00a"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_refs),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_fio),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
