/* Unit tests for written data (src/data.c): fresh random blocks, patterns, compress and dedupe shares. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"

#define BLK 4096
#define NBLK 512

static struct data_spec spec(const char *s)
{
	struct data_spec d = { .mode = DATA_RANDOM };
	char err[256];
	if (data_parse(s, &d, "data", err, sizeof(err)))
		fail_msg("'%s' refused: %s", s, err);
	return d;
}

static int cmp_blk(const void *a, const void *b)
{
	return memcmp(a, b, BLK);
}

/* Distinct blocks among n (sorted copy). */
static unsigned distinct(const unsigned char *blocks, unsigned n)
{
	unsigned char *c = malloc((size_t)n * BLK);
	memcpy(c, blocks, (size_t)n * BLK);
	qsort(c, n, BLK, cmp_blk);
	unsigned d = n ? 1 : 0;
	for (unsigned i = 1; i < n; i++)
		d += memcmp(c + (size_t)(i - 1) * BLK, c + (size_t)i * BLK, BLK) != 0;
	free(c);
	return d;
}

static unsigned char *fill_blocks(const struct data_spec *d, uint64_t seed)
{
	static struct data_gen g;
	unsigned char *b = malloc((size_t)NBLK * BLK);
	data_init(&g, d, seed);
	for (unsigned i = 0; i < NBLK; i++)
		data_fill(&g, b + (size_t)i * BLK, BLK);
	return b;
}

static void random_blocks_all_differ(void **state)
{
	(void)state;
	struct data_spec d = spec("random");
	unsigned char *b = fill_blocks(&d, 1);
	assert_int_equal(distinct(b, NBLK), NBLK);
	/* No 8-byte word repeats inside a block either: nothing for a compressor. */
	unsigned same = 0;
	for (unsigned i = 8; i < BLK; i += 8)
		same += !memcmp(b + i, b + i - 8, 8);
	assert_int_equal(same, 0);
	/* Byte values are spread: every value appears in 64 blocks' worth of bytes. */
	unsigned hist[256] = { 0 };
	for (size_t i = 0; i < 64 * BLK; i++)
		hist[b[i]]++;
	for (int v = 0; v < 256; v++)
		assert_true(hist[v] > 64 * BLK / 256 / 2 && hist[v] < 64 * BLK / 256 * 2);
	free(b);
}

static void seeds_give_other_streams(void **state)
{
	(void)state;
	struct data_spec d = spec("random");
	unsigned char *a = fill_blocks(&d, 1), *b = fill_blocks(&d, 2), *c = fill_blocks(&d, 1);
	assert_memory_not_equal(a, b, BLK);
	assert_memory_equal(a, c, (size_t)NBLK * BLK); /* same seed, same data */
	free(a);
	free(b);
	free(c);
}

/* Odd lengths: the tail is filled and nothing past it is touched. */
static void odd_lengths(void **state)
{
	(void)state;
	struct data_spec d = spec("random");
	struct data_gen g;
	data_init(&g, &d, 3);
	unsigned char buf[300];
	for (size_t len = 1; len < 200; len += 7) {
		memset(buf, 0xee, sizeof(buf));
		data_fill(&g, buf, len);
		for (size_t i = len; i < sizeof(buf); i++)
			assert_int_equal(buf[i], 0xee);
	}
}

static void zero_and_pattern(void **state)
{
	(void)state;
	struct data_spec d = spec("zero");
	struct data_gen g;
	unsigned char buf[1000];
	data_init(&g, &d, 1);
	memset(buf, 1, sizeof(buf));
	data_fill(&g, buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0);
	d = spec("pattern=0xdeadbeef01");
	assert_int_equal(d.pattern_len, 5);
	data_init(&g, &d, 1);
	data_fill(&g, buf, 999);
	static const unsigned char p[] = { 0xde, 0xad, 0xbe, 0xef, 0x01 };
	for (size_t i = 0; i < 999; i++)
		assert_int_equal(buf[i], p[i % 5]);
	d = spec("pattern=0xabc"); /* odd digit count: 0a bc */
	assert_int_equal(d.pattern_len, 2);
	assert_int_equal(d.pattern[0], 0x0a);
	assert_int_equal(d.pattern[1], 0xbc);
}

/* compress=N: each 512-byte chunk ends in N% zeros; the head stays random. */
static void compress_share(void **state)
{
	(void)state;
	struct data_spec d = spec("compress=60");
	unsigned char *b = fill_blocks(&d, 5);
	size_t zeros = 0;
	for (size_t i = 0; i < (size_t)NBLK * BLK; i++)
		zeros += b[i] == 0;
	double share = (double)zeros / (NBLK * BLK);
	assert_true(share > 0.59 && share < 0.61);
	assert_int_equal(distinct(b, NBLK), NBLK);
	free(b);
}

/* dedupe=N: about N% of the blocks repeat an earlier one. */
static void dedupe_share(void **state)
{
	(void)state;
	struct data_spec d = spec("dedupe=40");
	unsigned char *b = fill_blocks(&d, 6);
	unsigned u = distinct(b, NBLK);
	double repeats = 1.0 - (double)u / NBLK;
	assert_true(repeats > 0.32 && repeats < 0.48);
	free(b);
}

static void parse_and_print(void **state)
{
	(void)state;
	static const char *const good[] = { "random", "zero", "compress=50", "dedupe=20",
					    "compress=50,dedupe=20", "pattern=0x00ff" };
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct data_spec d = spec(good[i]);
		char buf[256];
		data_print(&d, buf, sizeof(buf));
		assert_string_equal(buf, good[i]);
	}
	static const char *const bad[] = { "", "rand", "compress=", "compress=100", "compress=-1",
					   "dedupe=101", "pattern=", "pattern=0x", "pattern=0xzz",
					   "zero,dedupe=5", ",random", "random,", "compress=5x",
					   /* 65 bytes: one more than a pattern holds */
					   "pattern=0x00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
					   "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff00" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct data_spec d = { 0 };
		char err[256] = "";
		if (data_parse(bad[i], &d, "data", err, sizeof(err)) != -1)
			fail_msg("'%s' accepted", bad[i]);
		assert_non_null(strstr(err, "--data"));
		assert_null(strchr(err, '\n'));
	}
	struct data_spec d = { 0 };
	char err[256];
	assert_int_equal(data_parse_pattern("\"ab\"", &d, "buffer_pattern", err, sizeof(err)), 0);
	assert_int_equal(d.pattern_len, 2);
	assert_int_equal(data_parse_pattern("258", &d, "buffer_pattern", err, sizeof(err)), 0);
	assert_int_equal(d.pattern_len, 2);
	assert_int_equal(d.pattern[0], 1);
	assert_int_equal(d.pattern[1], 2);
}

static void refresh_rules(void **state)
{
	(void)state;
	struct data_spec r = spec("random"), z = spec("zero"), c = spec("compress=10");
	assert_true(data_needs_refresh(&r, true, false));
	assert_false(data_needs_refresh(&z, true, false));
	assert_true(data_needs_refresh(&z, true, true)); /* a read may have overwritten the zeros */
	assert_true(data_needs_refresh(&c, false, false));
	assert_false(data_needs_refresh(&r, false, false)); /* refill_buffers=0 */
	assert_true(data_needs_refresh(&r, false, true));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_blocks_all_differ), cmocka_unit_test(seeds_give_other_streams),
		cmocka_unit_test(odd_lengths),		    cmocka_unit_test(zero_and_pattern),
		cmocka_unit_test(compress_share),	    cmocka_unit_test(dedupe_share),
		cmocka_unit_test(parse_and_print),	    cmocka_unit_test(refresh_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
