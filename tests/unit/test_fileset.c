/* Unit tests for file sets: tree shape, item paths and sizes, and removing a registered tree. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/ctx.h"
#include "run/fileset.h"
#include "options/options.h"

static struct job job_with(uint64_t n, unsigned per_dir, unsigned fanout)
{
	struct job j;
	struct settings s;
	options_defaults(&j, &s);
	j.nrfiles = n;
	j.files_per_dir = per_dir;
	j.dir_fanout = fanout;
	return j;
}

static void test_flat(void **state)
{
	(void)state;
	struct job j = job_with(10, 0, 0);
	struct fileset fs;
	char p[FILESET_PATH_MAX];
	fileset_geometry(&fs, &j);
	assert_int_equal(fs.depth, 0);
	assert_int_equal(fileset_dirs(&fs), 0);
	fileset_item_path(&fs, 0, p);
	assert_string_equal(p, "f0");
	assert_int_equal(fileset_item_path(&fs, 1234567, p), 8);
	assert_string_equal(p, "f1234567");
}

static void test_leaves(void **state)
{
	(void)state;
	struct job j = job_with(1000, 100, 0);
	struct fileset fs;
	char p[FILESET_PATH_MAX];
	fileset_geometry(&fs, &j);
	assert_int_equal(fs.nleaves, 10);
	assert_int_equal(fs.depth, 1);
	fileset_item_path(&fs, 999, p);
	assert_string_equal(p, "d9/f999");
	fileset_item_path(&fs, 100, p);
	assert_string_equal(p, "d1/f100");
}

/* Fan-out 4, 20 leaves: three levels (4^2 = 16 < 20 <= 64), digits most significant first. */
static void test_tree(void **state)
{
	(void)state;
	struct job j = job_with(1000, 50, 4);
	struct fileset fs;
	char p[FILESET_PATH_MAX];
	fileset_geometry(&fs, &j);
	assert_int_equal(fs.nleaves, 20);
	assert_int_equal(fs.depth, 3);
	fileset_item_path(&fs, 0, p);
	assert_string_equal(p, "d0/d0/d0/f0");
	fileset_item_path(&fs, 19 * 50 + 7, p); /* leaf 19 = 1*16 + 0*4 + 3 */
	assert_string_equal(p, "d1/d0/d3/f957");
	/* Exactly a power: 16 leaves of fan-out 4 need two levels. */
	j = job_with(16, 1, 4);
	fileset_geometry(&fs, &j);
	assert_int_equal(fs.depth, 2);
	/* A huge fan-out never overflows the level count. */
	j = job_with(1ULL << 40, 1, 4000000000u);
	fileset_geometry(&fs, &j);
	assert_int_equal(fs.depth, 2);
}

/* Paths are distinct: every item its own name. */
static void test_distinct(void **state)
{
	(void)state;
	struct job j = job_with(2000, 7, 3);
	struct fileset fs;
	char p[FILESET_PATH_MAX], q[FILESET_PATH_MAX];
	fileset_geometry(&fs, &j);
	for (uint64_t i = 0; i + 1 < 2000; i++) {
		fileset_item_path(&fs, i, p);
		fileset_item_path(&fs, i + 1, q);
		assert_string_not_equal(p, q);
		/* The leaf directory changes exactly when the item crosses a multiple of 7. */
		size_t lp = (size_t)(strrchr(p, '/') - p), lq = (size_t)(strrchr(q, '/') - q);
		bool same = lp == lq && !strncmp(p, q, lp);
		assert_int_equal(same, (i + 1) % 7 != 0);
	}
}

static void test_sizes(void **state)
{
	(void)state;
	struct job j = job_with(100, 0, 0);
	struct fileset fs;
	j.filesize[0] = 1000;
	j.filesize[1] = 1000;
	fileset_geometry(&fs, &j);
	assert_int_equal(fileset_item_size(&fs, 5), 1000);
	j.filesize[1] = 3000;
	fileset_geometry(&fs, &j);
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint64_t i = 0; i < 10000; i++) {
		uint64_t s = fileset_item_size(&fs, i);
		assert_int_equal(s, fileset_item_size(&fs, i)); /* the same every time */
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	assert_true(lo >= 1000 && lo < 1100);
	assert_true(hi <= 3000 && hi > 2900);
}

/* A registered tree is removed whole; a second removal is harmless; --keep keeps it. */
static void test_ctx_tree(void **state)
{
	(void)state;
	char root[] = "/tmp/iogauge-unit-tree.XXXXXX", p[512];
	assert_non_null(mkdtemp(root));
	for (int d = 0; d < 3; d++) {
		snprintf(p, sizeof(p), "%s/d%d", root, d);
		assert_int_equal(mkdir(p, 0755), 0);
		snprintf(p, sizeof(p), "%s/d%d/sub", root, d);
		assert_int_equal(mkdir(p, 0755), 0);
		for (int f = 0; f < 300; f++) { /* more than one getdents buffer */
			snprintf(p, sizeof(p), "%s/d%d/sub/a-rather-long-file-name-%04d", root, d, f);
			int fd = open(p, O_CREAT | O_WRONLY, 0644);
			assert_true(fd >= 0);
			close(fd);
		}
	}
	struct run_ctx c;
	struct stat st;
	ctx_init(&c);
	assert_int_equal(ctx_register_tree(&c, root), 0);
	ctx_remove_files(&c);
	assert_int_not_equal(stat(root, &st), 0);
	ctx_remove_files(&c);
	ctx_finish(&c);
	/* Kept: left as it is. */
	assert_non_null(mkdtemp(strcpy(root, "/tmp/iogauge-unit-tree.XXXXXX")));
	ctx_init(&c);
	c.keep = true;
	assert_int_equal(ctx_register_tree(&c, root), 0);
	ctx_remove_files(&c);
	ctx_finish(&c);
	assert_int_equal(stat(root, &st), 0);
	assert_int_equal(rmdir(root), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_leaves),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_distinct),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_ctx_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
