/*
 * Unit tests for reading saved results back for compare (report/json_read.c):
 * a suite's figures become one entry per target, case, direction and
 * figure, with the spread of the passes; settings that differ are found and
 * named; files that are not iogauge's results are refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/common.h"
#include "report/report.h"

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/iogauge-test-compare.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

#define FIG(m, lo, hi, n) "{\"median\": " #m ", \"min\": " #lo ", \"max\": " #hi ", \"passes\": " #n "}"
#define SUITE(bs, path, mbs)                                                                          \
	"{\"iogauge\": {\"version\": \"0\", \"command\": \"quick\"}, \"jobs\": [], \"suite\": {\"options\": {\"bs\": " #bs \
	", \"filename\": \"x\"}, \"cases\": [{\"name\": \"SEQ\", \"options\": \"--rw=read\"}], "            \
	"\"targets\": [{\"path\": \"" path "\", \"cases\": {\"SEQ\": {"                                     \
	"\"read\": {\"mb_s\": " mbs ", \"iops\": " FIG(10, 9, 11, 3) ", \"lat_mean_ns\": " FIG(2000, 1000, 3000, 3) \
	", \"lat_p99_ns\": null}, \"write\": {\"mb_s\": " FIG(0, 0, 0, 3) "}, \"total\": {\"mb_s\": " mbs "}}}}]}}"

static void suite_entries(void **state)
{
	(void)state;
	char *p = write_tmp(SUITE(4096, "/mnt/a", FIG(100, 90, 110, 3)));
	struct saved_result r;
	struct ig_err e = { 0 };
	assert_int_equal(saved_load(p, &r, &e), 0);
	assert_string_equal(r.command, "quick");
	/* read: MB/s, IOPS, mean latency (p99 is null); write moved nothing; the total adds nothing alone. */
	assert_int_equal(r.n, 3);
	assert_string_equal(r.e[0].row, "SEQ: read MB/s");
	assert_string_equal(r.e[0].column, "/mnt/a");
	assert_true(r.e[0].median == 100 && r.e[0].min == 90 && r.e[0].max == 110 && r.e[0].passes == 3);
	assert_string_equal(r.e[2].unit, "us");
	assert_true(r.e[2].median == 2.0 && r.e[2].lower_better);
	saved_free(&r);
	unlink(p);
	free(p);
}

static void settings_compared(void **state)
{
	(void)state;
	char *a = write_tmp(SUITE(4096, "/mnt/a", FIG(100, 90, 110, 3)));
	char *b = write_tmp(SUITE(4096, "/mnt/b", FIG(120, 115, 125, 3)));
	char *c = write_tmp(SUITE(8192, "/mnt/a", FIG(100, 90, 110, 3)));
	struct saved_result ra, rb, rc;
	struct ig_err e = { 0 };
	char why[256];
	assert_int_equal(saved_load(a, &ra, &e), 0);
	assert_int_equal(saved_load(b, &rb, &e), 0);
	assert_int_equal(saved_load(c, &rc, &e), 0);
	/* Another target (path, filename) is what compare is for; another --bs is not. */
	assert_int_equal(saved_same_settings(&ra, &rb, why, sizeof(why)), 0);
	assert_int_equal(saved_same_settings(&ra, &rc, why, sizeof(why)), -1);
	assert_string_equal(why, "options.bs: 4096 vs 8192");
	saved_free(&ra);
	saved_free(&rb);
	saved_free(&rc);
	unlink(a);
	unlink(b);
	unlink(c);
	free(a);
	free(b);
	free(c);
}

static void refused(void **state)
{
	(void)state;
	const char *docs[] = { "not json", "{\"a\": 1}", "{\"iogauge\": {\"command\": \"quick\"}, \"jobs\": [], \"suite\": {}}" };
	for (unsigned i = 0; i < 3; i++) {
		char *p = write_tmp(docs[i]);
		struct saved_result r;
		struct ig_err e = { 0 };
		assert_int_equal(saved_load(p, &r, &e), -1);
		assert_int_equal(e.status, EXIT_USAGE);
		assert_non_null(strstr(e.msg, p));
		unlink(p);
		free(p);
	}
	struct saved_result r;
	struct ig_err e = { 0 };
	assert_int_equal(saved_load("/nonexistent/x.json", &r, &e), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(suite_entries),
		cmocka_unit_test(settings_compared),
		cmocka_unit_test(refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
