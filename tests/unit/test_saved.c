/*
 * Unit tests for saved results read back (json_read.c, suite_read.c) and the
 * HTML writer (html.c): `quick` and `run` on the null engine write text and
 * JSON; the JSON read back and printed by the same formatter gives the same
 * text, byte for byte; the HTML page of it holds one canvas per chart spec
 * and data that parses; files that are not results are refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/common.h"
#include "cmds/commands.h"
#include "cmds/suite_read.h"
#include "report/report.h"
#include "report/result_read.h"

static char base[64], dirs[2][96], jsonpath[128], textpath[128];

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/iogauge-test-saved.XXXXXX");
	if (!mkdtemp(base))
		return -1;
	for (int i = 0; i < 2; i++) {
		snprintf(dirs[i], sizeof(dirs[i]), "%s/t%d", base, i);
		if (mkdir(dirs[i], 0700))
			return -1;
	}
	snprintf(jsonpath, sizeof(jsonpath), "%s/out.json", base);
	snprintf(textpath, sizeof(textpath), "%s/out.txt", base);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = calloc(1, 1 << 22);
	assert_non_null(buf);
	size_t n = fread(buf, 1, (1 << 22) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* A command with stderr kept: a diagnostic where none is expected fails the test. */
static int run_cmd(const char *name, int argc, char **argv)
{
	char err[4096];
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	fflush(stderr);
	int saved = dup(2);
	dup2(fileno(tmp), 2);
	int rc = command_run(command_find(name), argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(err, 1, sizeof(err) - 1, tmp);
	err[n] = 0;
	fclose(tmp);
	if (rc || n)
		fail_msg("%s: status %d, stderr: %s", name, rc, err);
	return rc;
}

static json_t *load(void)
{
	struct ig_err e = { 0 };
	json_t *root = result_load(jsonpath, &e);
	if (!root)
		fail_msg("result_load: %s", e.msg);
	return root;
}

/* quick's table printed from the saved file is the table the run printed. */
static void test_quick_roundtrip(void **state)
{
	(void)state;
	char a_json[160], a_out[160];
	snprintf(a_json, sizeof(a_json), "--json=%s", jsonpath);
	snprintf(a_out, sizeof(a_out), "--output=%s", textpath);
	char *argv[] = { "--ioengine=null", "--size=2m", "--runtime=20ms", "--ramp_time=0", "--passes=2",
			 "--quiet", a_json, a_out, dirs[0], dirs[1], NULL };
	run_cmd("quick", 10, argv);
	char *text = slurp(textpath);
	json_t *root = load();
	struct suite_saved ss;
	struct ig_err e = { 0 };
	if (suite_from_json(root, &ss, &e))
		fail_msg("suite_from_json: %s", e.msg);
	assert_int_equal(ss.sr.ntargets, 2);
	assert_int_equal(ss.s.passes, 2);
	assert_int_equal(ss.suite.ncases, 8);
	char *again = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&again, &len);
	ss.suite.print(m, &ss.sr);
	fclose(m);
	assert_string_equal(again, text);
	/* A figure read back is the figure saved. */
	struct fig3 v = suite_fig(&ss.sr, 1, 2, FD_READ, FIG_IOPS);
	assert_int_equal(v.n, 2);
	json_t *fj = json_object_get(json_object_get(json_object_get(json_object_get(json_object_get(
		json_array_get(json_object_get(json_object_get(root, "suite"), "targets"), 1), "cases"),
		"RND4K Q32T1 read"), "read"), "iops"), "median");
	assert_true(json_number_value(fj) > 0);
	assert_true(v.median == json_number_value(fj) ||
		    (v.median - json_number_value(fj)) / v.median < 1e-9);
	suite_saved_free(&ss);

	/* One saved case without a name: refused, and freed without reading past the cases read (fuzzer). */
	json_t *bad = json_deep_copy(root);
	json_t *cs = json_array();
	json_array_append_new(cs, json_object());
	json_object_set_new(json_object_get(bad, "suite"), "cases", cs);
	memset(&e, 0, sizeof(e));
	assert_int_equal(suite_from_json(bad, &ss, &e), -1);
	assert_non_null(strstr(e.msg, "no name or options"));
	suite_saved_free(&ss);
	json_decref(bad);

	/* The HTML page: a canvas per chart, data that parses, no early end of a script. */
	char *page = NULL;
	m = open_memstream(&page, &len);
	struct html_result one = { root, "" };
	assert_int_equal(html_write(m, &one, 1, "var Chart = function () {};", command_saved_summary), 0);
	fclose(m);
	const char *start = strstr(page, "id=\"iogauge-data\">");
	assert_non_null(start);
	start = strchr(start, '>') + 1;
	const char *end = strstr(start, "</script>");
	assert_non_null(end);
	json_error_t je;
	json_t *data = json_loadb(start, (size_t)(end - start), 0, &je);
	if (!data)
		fail_msg("chart data: %s", je.text);
	size_t charts = json_array_size(json_object_get(data, "charts")), canvases = 0;
	for (const char *p = page; (p = strstr(p, "<canvas id=\"chart")); p++)
		canvases++;
	assert_true(charts > 8);
	assert_int_equal(canvases, charts);
	assert_non_null(strstr(page, "SEQ1M Q8T1  |")); /* the table, as printed */
	json_decref(data);
	free(page);
	free(again);
	free(text);
	json_decref(root);
	unlink(jsonpath);
	unlink(textpath);
}

/* run's fio-style text printed from the saved file is the text the run printed. */
static void test_run_roundtrip(void **state)
{
	(void)state;
	char a_json[160], a_out[160], a_dir[160];
	snprintf(a_json, sizeof(a_json), "--json=%s", jsonpath);
	snprintf(a_out, sizeof(a_out), "--output=%s", textpath);
	snprintf(a_dir, sizeof(a_dir), "--directory=%s", dirs[0]);
	char *argv[] = { "--ioengine=null", "--size=4m", "--quiet", a_json, a_out, a_dir,
			 "--name=a", "--rw=randrw", "--numjobs=2", "--bs=8k",
			 "--name=b", "--rw=write", "--stonewall", "--bs=1m", NULL };
	run_cmd("run", 14, argv);
	char *text = slurp(textpath);
	json_t *root = load();
	struct run_result r;
	struct ig_err e = { 0 };
	if (run_result_from_json(root, &r, &e))
		fail_msg("run_result_from_json: %s", e.msg);
	assert_int_equal(r.njobs, 2);
	assert_int_equal(r.jobs[0].nthreads, 2);
	assert_int_equal(r.jobs[1].group, 1);
	char *again = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&again, &len);
	report_text(m, &r);
	fclose(m);
	assert_string_equal(again, text);
	run_result_free(&r);
	free(again);
	free(text);
	json_decref(root);
	unlink(jsonpath);
	unlink(textpath);
}

static void test_not_results(void **state)
{
	(void)state;
	struct ig_err e = { 0 };
	FILE *f = fopen(jsonpath, "w");
	fputs("{\"status\": 0}", f);
	fclose(f);
	assert_null(result_load(jsonpath, &e));
	assert_int_equal(e.status, EXIT_USAGE);
	assert_non_null(strstr(e.msg, "not an iogauge result"));
	memset(&e, 0, sizeof(e));
	f = fopen(jsonpath, "w");
	fputs("not json", f);
	fclose(f);
	assert_null(result_load(jsonpath, &e));
	assert_non_null(strstr(e.msg, "not a JSON result"));
	memset(&e, 0, sizeof(e));
	/* A saved job whose histogram does not add up is refused, not drawn. */
	f = fopen(jsonpath, "w");
	fputs("{\"iogauge\": {\"command\": \"run\"}, \"jobs\": [{\"name\": \"x\", \"read\": {\"ios\": 1, "
	      "\"clat_ns\": {\"samples\": 2, \"min\": 1, \"max\": 1, \"sum\": 2, \"sumsq\": \"2\", "
	      "\"histogram\": [[1, 1]]}}}]}", f);
	fclose(f);
	json_t *root = result_load(jsonpath, &e);
	assert_non_null(root);
	struct run_result r;
	assert_int_equal(run_result_from_json(root, &r, &e), -1);
	assert_non_null(strstr(e.msg, "histogram counts"));
	run_result_free(&r);
	json_decref(root);
	unlink(jsonpath);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quick_roundtrip),
		cmocka_unit_test(test_run_roundtrip),
		cmocka_unit_test(test_not_results),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
