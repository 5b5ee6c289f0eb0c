/*
 * Unit tests for target_resident (src/run/target.c): the bytes of [off, off+len)
 * in the page cache, counted whole pages at a time and trimmed at both ends,
 * checked on a file read into the cache and then partly dropped from it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "run/target.h"

#define PAGES 64

static int fd = -1;
static long ps;

static int setup(void **state)
{
	(void)state;
	char path[] = "/var/tmp/iogauge-resident.XXXXXX";
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	ps = sysconf(_SC_PAGESIZE);
	char *buf = calloc(1, (size_t)ps * PAGES);
	for (long i = 0; i < ps * PAGES; i++)
		buf[i] = (char)i;
	int bad = pwrite(fd, buf, (size_t)ps * PAGES, 0) != ps * PAGES || fsync(fd);
	/* Read back: every page in the cache. */
	bad |= pread(fd, buf, (size_t)ps * PAGES, 0) != ps * PAGES;
	free(buf);
	return bad ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	close(fd);
	return 0;
}

static void all_cached(void **state)
{
	(void)state;
	uint64_t p = (uint64_t)ps;
	char *buf = malloc((size_t)p * PAGES);
	assert_int_equal(pread(fd, buf, (size_t)p * PAGES, 0), p * PAGES); /* the dropped pages back */
	free(buf);
	assert_int_equal(target_resident(fd, 0, PAGES * p), PAGES * p);
	/* Partial first and last pages count only their part inside the region. */
	assert_int_equal(target_resident(fd, 100, 3 * p), 3 * p);
	assert_int_equal(target_resident(fd, p - 1, 2), 2);
	assert_int_equal(target_resident(fd, 7, 10), 10);
	assert_int_equal(target_resident(fd, 0, 0), 0);
}

static void partly_dropped(void **state)
{
	(void)state;
	uint64_t p = (uint64_t)ps;
	/*
	 * Pages 10..19 out of the cache: the whole file dropped (clean after
	 * fsync), then every other page read back one by one without readahead
	 * (a partial drop would leave a large folio whole).
	 */
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM), 0);
	char page[65536];
	assert_true(p <= (uint64_t)sizeof(page));
	for (uint64_t i = 0; i < PAGES; i++)
		if (i < 10 || i >= 20)
			assert_int_equal(pread(fd, page, p, (off_t)(i * p)), p);
	assert_int_equal(target_resident(fd, 0, PAGES * p), (PAGES - 10) * p);
	assert_int_equal(target_resident(fd, 10 * p, 10 * p), 0);
	/* Half of page 9 and half of page 20 are in the region; 10..19 are not cached. */
	assert_int_equal(target_resident(fd, 9 * p + p / 2, 11 * p), p / 2 + p / 2);
	/* A region starting inside a dropped page and ending inside a cached one. */
	assert_int_equal(target_resident(fd, 19 * p + 5, p), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(partly_dropped), /* first: nothing has mapped the file yet */
		cmocka_unit_test(all_cached),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
