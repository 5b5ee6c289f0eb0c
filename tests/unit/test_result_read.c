/*
 * Unit tests for the one reader of saved results (report/result_read.h):
 * a good file read into its typed head, jobs, targets, suite figures and
 * dd part; a newer schema refused; a missing key and a wrong type refused,
 * each with a one-line message.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/common.h"
#include "base/result_keys.h"
#include "report/result_read.h"

static char path[64];

static int setup(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "/tmp/iogauge-test-result-read.XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return unlink(path);
}

static void write_file(const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The message is one line, status 2, and says what. */
static void one_line(const struct ig_err *e, const char *what)
{
	assert_int_equal(e->status, EXIT_USAGE);
	assert_null(strchr(e->msg, '\n'));
	if (!strstr(e->msg, what))
		fail_msg("\"%s\" is not in: %s", what, e->msg);
}

#define LAT "{\"samples\": 1, \"min\": 1000, \"max\": 1000, \"sum\": 1000, \"sumsq\": \"1000000\", " \
	    "\"histogram\": [[1000, 1]], \"mean\": 1000, \"percentiles\": {\"99.000000\": 1000}}"
#define FIG(m, lo, hi, n) "{\"median\": " #m ", \"min\": " #lo ", \"max\": " #hi ", \"passes\": " #n "}"

static const char good[] =
	"{\"iogauge\": {\"version\": \"0.2.0\", \"schema\": 2, \"command\": \"quick\"},"
	" \"time\": \"2026-01-01T00:00:00Z\", \"command_line\": \"iogauge quick /a\","
	" \"host\": {\"name\": \"h\", \"kernel\": \"6.1\", \"machine\": \"x86_64\", \"cpus\": 4},"
	" \"status\": 0, \"interrupted\": false, \"notes\": [\"a note\", 7],"
	" \"devices\": [{\"name\": \"sda\", \"read_bytes\": 8192, \"write_bytes\": 0}],"
	" \"jobs\": [{\"name\": \"SEQ\", \"target\": \"/a\", \"case\": \"SEQ\", \"pass\": 2, \"io_mode\": \"O_DIRECT\","
	"   \"options\": {\"size\": 1048576, \"data\": \"zero\"}, \"resident_before_bytes\": 0,"
	"   \"read\": {\"bytes\": 4096, \"ios\": 1, \"bw_bytes\": 1e6, \"iops\": 250, \"clat_ns\": " LAT "},"
	"   \"targets\": [{\"path\": \"/a/f\", \"fstype\": \"ext4\", \"device\": \"sda\", \"size\": 1048576}],"
	"   \"devices\": [{\"name\": \"sda\", \"read_bytes\": 4096, \"write_bytes\": 512}],"
	"   \"series\": {\"points\": [{\"t_ns\": 1e9, \"dur_ns\": 1e9, \"read\": {\"ios\": 1, \"bytes\": 4096}}]}},"
	"  {\"name\": \"other\", \"targets\": [{\"path\": \"/b/f\", \"created\": true}]}],"
	" \"suite\": {\"passes\": 2, \"options\": {\"bs\": 4096}, \"settings\": {\"testname\": \"t\"},"
	"   \"cases\": [{\"name\": \"SEQ\", \"options\": \"--rw=read\"}],"
	"   \"targets\": [{\"path\": \"/a\", \"file\": \"/a/f\", \"fstype\": \"ext4\", \"rotational\": false,"
	"     \"size\": 1048576, \"shrunk\": true, \"refused\": \"no room\","
	"     \"cases\": {\"SEQ\": {\"read\": {\"mb_s\": " FIG(5, 4, 6, 2) "}}}}]}}";

static void test_good_file(void **state)
{
	(void)state;
	struct ig_err e = { 0 };
	write_file(good);
	json_t *root = result_load(path, &e);
	if (!root)
		fail_msg("result_load: %s", e.msg);

	struct result_head h;
	result_head(root, &h);
	assert_string_equal(h.command, "quick");
	assert_string_equal(h.version, "0.2.0");
	assert_string_equal(h.command_line, "iogauge quick /a");
	assert_string_equal(h.error, "");
	assert_true(h.has_host);
	assert_string_equal(h.kernel, "6.1");
	assert_int_equal(h.cpus, 4);
	assert_true(h.suite);
	assert_int_equal(h.njobs, 2);
	assert_int_equal(h.ndevs, 1);
	assert_int_equal(h.nnotes, 2);
	assert_string_equal(result_note(root, 0), "a note");
	assert_string_equal(result_note(root, 1), ""); /* not a string */
	struct result_device dv;
	assert_true(result_device(root, 0, &dv));
	assert_string_equal(dv.name, "sda");
	assert_true(dv.read_bytes == 8192);
	assert_false(result_device(root, 1, &dv));

	struct result_job *jobs;
	unsigned n = result_jobs(root, &jobs);
	assert_int_equal(n, 2);
	assert_string_equal(jobs[0].kase, "SEQ");
	assert_string_equal(jobs[0].target, "/a");
	assert_int_equal(jobs[0].pass, 2);
	assert_true(jobs[0].dir[0].bytes == 4096 && jobs[0].dir[0].iops == 250);
	assert_true(jobs[0].dir[0].clat_mean == 1000 && jobs[0].dir[0].clat_p99 == 1000);
	assert_true(isnan(jobs[0].dir[1].bytes)); /* no write: missing, not a measured 0 */
	assert_true(result_or0(jobs[0].dir[1].bytes) == 0);
	assert_true(jobs[0].has_resident && jobs[0].opt_size == 1048576);
	assert_string_equal(jobs[0].opt_data, "zero");
	assert_true(jobs[0].has_dev && jobs[0].dev_write_bytes == 512);
	assert_int_equal(jobs[0].ntargets, 1);
	assert_string_equal(jobs[0].targets[0].fstype, "ext4");
	assert_int_equal(jobs[0].npoints, 1);
	/* Untagged: the job's name and its first target. */
	assert_string_equal(jobs[1].kase, "other");
	assert_string_equal(jobs[1].target, "/b/f");
	assert_int_equal(jobs[1].pass, 1);
	assert_int_equal(jobs[1].pass_tag, 0);
	assert_true(jobs[1].targets[0].created);
	struct result_point *pts;
	assert_int_equal(result_series(&jobs[0], &pts), 1);
	assert_true(pts[0].bytes[0] == 4096 && pts[0].t_ns == 1e9);
	free(pts);
	struct lat_stats l;
	lat_init(&l);
	assert_int_equal(lat_from_json(jobs[0].dir[0].clat, &l, &e), 0);
	assert_int_equal(l.n, 1);
	lat_free(&l);
	result_jobs_free(jobs, n);

	struct result_suite s;
	assert_int_equal(result_suite(root, &s, &e), 0);
	assert_int_equal(s.passes, 2);
	assert_int_equal(s.ncases, 1);
	assert_string_equal(s.cases[0].options, "--rw=read");
	assert_int_equal(s.nsettings, 1);
	assert_string_equal(s.settings[0].key, "testname");
	assert_int_equal(s.ntargets, 1);
	assert_string_equal(s.targets[0].file, "/a/f");
	assert_int_equal(s.targets[0].rotational, 0);
	assert_true(s.targets[0].shrunk);
	assert_string_equal(s.targets[0].refused, "no room");
	struct result_fig f;
	assert_true(result_suite_fig(&s, 0, "SEQ", "read", "mb_s", &f));
	assert_true(f.median == 5 && f.min == 4 && f.max == 6 && f.passes == 2);
	assert_false(result_suite_fig(&s, 0, "SEQ", "write", "mb_s", &f));
	assert_false(result_suite_fig(&s, 1, "SEQ", "read", "mb_s", &f));
	result_suite_free(&s);
	const char **targets;
	assert_int_equal(result_targets(root, &targets), 1);
	assert_string_equal(targets[0], "/a");
	free(targets);
	struct result_dd dd;
	assert_false(result_dd(root, &dd));
	json_decref(root);
}

static void test_newer_schema(void **state)
{
	(void)state;
	struct ig_err e = { 0 };
	char text[256];
	snprintf(text, sizeof(text),
		 "{\"iogauge\": {\"version\": \"9.0.0\", \"schema\": %d, \"command\": \"run\"}, \"jobs\": []}",
		 RESULT_SCHEMA + 1);
	write_file(text);
	assert_null(result_load(path, &e));
	char want[64];
	snprintf(want, sizeof(want), "result schema %d, this iogauge", RESULT_SCHEMA + 1);
	one_line(&e, want);
	assert_non_null(strstr(e.msg, "(9.0.0)")); /* the iogauge that wrote it */
	/* The schema it reads, and results from before the key: read. */
	snprintf(text, sizeof(text), "{\"iogauge\": {\"schema\": %d, \"command\": \"run\"}, \"jobs\": []}", RESULT_SCHEMA);
	write_file(text);
	json_t *root = result_load(path, &e);
	assert_non_null(root);
	json_decref(root);
	write_file("{\"iogauge\": {\"command\": \"run\"}, \"jobs\": []}");
	root = result_load(path, &e);
	assert_non_null(root);
	json_decref(root);
}

static void test_missing_key(void **state)
{
	(void)state;
	struct ig_err e = { 0 };
	write_file("{\"iogauge\": {\"schema\": 2, \"command\": \"run\"}}");
	assert_null(result_load(path, &e));
	one_line(&e, "not an iogauge result (no \"iogauge.command\" or \"jobs\")");
	/* A suite's case without its options. */
	memset(&e, 0, sizeof(e));
	write_file("{\"iogauge\": {\"command\": \"quick\"}, \"jobs\": [], \"suite\": {\"passes\": 1, \"targets\": [],"
		   " \"cases\": [{\"name\": \"SEQ\"}]}}");
	json_t *root = result_load(path, &e);
	assert_non_null(root);
	struct result_suite s;
	assert_int_equal(result_suite(root, &s, &e), -1);
	one_line(&e, "saved case 0 has no name or options");
	result_suite_free(&s);
	/* A latency object without its histogram. */
	memset(&e, 0, sizeof(e));
	struct lat_stats l;
	lat_init(&l);
	json_t *o = json_pack("{s:i, s:i, s:i, s:i, s:s}", "samples", 1, "min", 1, "max", 1, "sum", 1, "sumsq", "1");
	assert_int_equal(lat_from_json(o, &l, &e), -1);
	one_line(&e, "no \"histogram\" array");
	lat_free(&l);
	json_decref(o);
	json_decref(root);
}

static void test_wrong_type(void **state)
{
	(void)state;
	struct ig_err e = { 0 };
	write_file("{\"iogauge\": {\"version\": \"0.2.0\", \"schema\": \"2\", \"command\": \"run\"}, \"jobs\": []}");
	assert_null(result_load(path, &e));
	one_line(&e, "result schema (not an integer)");
	memset(&e, 0, sizeof(e));
	write_file("{\"iogauge\": {\"command\": \"run\"}, \"jobs\": {}}");
	assert_null(result_load(path, &e));
	one_line(&e, "not an iogauge result");
	/* A suite whose targets are not an array. */
	memset(&e, 0, sizeof(e));
	write_file("{\"iogauge\": {\"command\": \"quick\"}, \"jobs\": [], \"suite\": {\"targets\": {}, \"cases\": []}}");
	json_t *root = result_load(path, &e);
	assert_non_null(root);
	struct result_suite s;
	assert_int_equal(result_suite(root, &s, &e), -1);
	one_line(&e, "\"suite\" has no targets or cases");
	result_suite_free(&s);
	json_decref(root);
	/* A job whose latency's sumsq is a number, not the decimal string. */
	memset(&e, 0, sizeof(e));
	write_file("{\"iogauge\": {\"command\": \"run\"}, \"jobs\": [{\"name\": \"x\", \"read\": {\"ios\": 1, "
		   "\"clat_ns\": {\"samples\": 1, \"min\": 1, \"max\": 1, \"sum\": 1, \"sumsq\": 1, "
		   "\"histogram\": [[1, 1]]}}}]}");
	root = result_load(path, &e);
	assert_non_null(root);
	struct run_result r;
	assert_int_equal(run_result_from_json(root, &r, &e), -1);
	one_line(&e, "no \"sumsq\" string");
	run_result_free(&r);
	json_decref(root);
	/* fio's own JSON: named, not read as ours. */
	memset(&e, 0, sizeof(e));
	write_file("{\"fio version\": \"fio-3.36\", \"jobs\": []}");
	assert_null(result_load(path, &e));
	one_line(&e, "fio's JSON output (fio-3.36)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_file),
		cmocka_unit_test(test_newer_schema),
		cmocka_unit_test(test_missing_key),
		cmocka_unit_test(test_wrong_type),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
