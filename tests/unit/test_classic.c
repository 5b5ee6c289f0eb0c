/*
 * Unit tests for the classic tools' number formats (report/classic.c): GNU
 * dd's bytes line against 341 lines captured from coreutils 9.1's dd, and
 * ioping's print_suffix against values from ioping 1.3's output.
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

#include "report/classic.h"

/* The captures live beside this file; the tests run from the repository root. */
static FILE *open_data(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "tests/unit/data/%s", name);
	FILE *f = fopen(path, "r");
	if (!f) {
		const char *src = __FILE__, *slash = strrchr(src, '/');
		snprintf(path, sizeof(path), "%.*s/data/%s", slash ? (int)(slash - src) : 1, slash ? src : ".", name);
		f = fopen(path, "r");
	}
	return f;
}

static void dd_lines_match_gnu_dd(void **state)
{
	(void)state;
	FILE *f = open_data("dd-bytes-lines.txt");
	assert_non_null(f);
	char line[512], mine[512];
	unsigned n = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		unsigned long long bytes;
		const char *c = strstr(line, "copied, ");
		if (sscanf(line, "%llu", &bytes) != 1 || !c)
			continue;
		double secs = strtod(c + 8, NULL);
		uint64_t ns = (uint64_t)llround(secs * 1e9);
		dd_bytes_line(mine, sizeof(mine), bytes, ns, 0);
		if (strcmp(mine, line))
			fail_msg("dd line differs:\n  real: %s\n  mine: %s", line, mine);
		n++;
	}
	fclose(f);
	assert_true(n >= 300);
}

static void dd_units(void **state)
{
	(void)state;
	char b[64];
	assert_string_equal(dd_human(b, sizeof(b), 999, 1000), "999 B");
	assert_string_equal(dd_human(b, sizeof(b), 1000, 1000), "1.0 kB");
	assert_string_equal(dd_human(b, sizeof(b), 1048576000, 1024), "1000 MiB");
	assert_string_equal(dd_human(b, sizeof(b), 1073741824, 1000), "1.1 GB");
	/* 1023.9 KiB rounds to the next unit, not to "1024 KiB". */
	assert_string_equal(dd_human(b, sizeof(b), 1048500, 1024), "1.0 MiB");
	assert_string_equal(dd_rate(b, sizeof(b), 0, 74041), "0.0 kB/s");
	assert_string_equal(dd_rate(b, sizeof(b), 5, 0), "Infinity B/s");
	assert_string_equal(dd_records(b, sizeof(b), 10000, 4096, "in"), "2+1 records in");
	assert_string_equal(dd_records(b, sizeof(b), 10000, 1000, "out"), "10+0 records out");
	assert_string_equal(dd_bytes_line(b, sizeof(b), 2979304, 9400000000ULL, 1),
			    "2979304 bytes (3.0 MB, 2.8 MiB) copied, 9 s, 317 kB/s");
}

static void ioping_units(void **state)
{
	(void)state;
	char b[64];
	assert_string_equal(ioping_fmt(b, sizeof(b), 4096, IOPING_SIZE), "4 KiB");
	assert_string_equal(ioping_fmt(b, sizeof(b), 1 << 20, IOPING_SIZE), "1 MiB");
	assert_string_equal(ioping_fmt(b, sizeof(b), 0, IOPING_SIZE), "0 B");
	assert_string_equal(ioping_fmt(b, sizeof(b), 1495, IOPING_SIZE), "1.46 KiB");
	assert_string_equal(ioping_fmt(b, sizeof(b), 270582943744LL, IOPING_SIZE), "252.0 GiB");
	assert_string_equal(ioping_fmt(b, sizeof(b), 896, IOPING_TIME), "896 ns");
	assert_string_equal(ioping_fmt(b, sizeof(b), 210100, IOPING_TIME), "210.1 us");
	assert_string_equal(ioping_fmt(b, sizeof(b), 6090000, IOPING_TIME), "6.09 ms");
	assert_string_equal(ioping_fmt(b, sizeof(b), 999960, IOPING_TIME), "1000.0 us");
	assert_string_equal(ioping_fmt(b, sizeof(b), 150000000000LL, IOPING_TIME), "2.50 min");
	assert_string_equal(ioping_fmt(b, sizeof(b), 0, IOPING_TIME), "0 ns");
	assert_string_equal(ioping_fmt(b, sizeof(b), 10700, IOPING_INT), "10.7 k");
	assert_string_equal(ioping_fmt(b, sizeof(b), 8410, IOPING_INT), "8.41 k");
	assert_string_equal(ioping_fmt(b, sizeof(b), 563, IOPING_INT), "563");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dd_lines_match_gnu_dd),
		cmocka_unit_test(dd_units),
		cmocka_unit_test(ioping_units),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
