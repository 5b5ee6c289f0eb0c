/* Unit tests for written data (src/model/data.c): fresh random blocks, patterns, compress and dedupe shares. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/data.h"

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

/*
 * Every variant of the generator (portable, AVX2, AVX-512; plain and
 * non-temporal stores) makes the same bytes from the same seed: a block made
 * again by seed (verification, dedupe) is the same on any CPU and any buffer.
 */
static void variants_agree(void **state)
{
	(void)state;
	struct data_spec d = spec("random");
	const size_t big = 1u << 20; /* past the size that takes non-temporal stores */
	unsigned char *want = aligned_alloc(4096, big + 4096), *got = aligned_alloc(4096, big + 8192);
	struct data_gen g;
	data_init(&g, &d, 7);
	assert_non_null(data_impl(&g, 0));
	data_fill(&g, want, big);
	data_fill(&g, want + big, 4096 - 3); /* the stream goes on: a short tail after a large block */
	unsigned ran = 0;
	for (unsigned i = 0; i < 8; i++) {
		data_init(&g, &d, 7);
		if (!data_impl(&g, i))
			continue;
		ran++;
		/* Aligned (non-temporal), then unaligned (plain stores): the same stream. */
		for (size_t shift = 0; shift <= 8; shift += 8) {
			data_init(&g, &d, 7);
			data_impl(&g, i);
			memset(got, 0xee, big + 8192);
			data_fill(&g, got + shift, big);
			data_fill(&g, got + shift + big, 4096 - 3);
			assert_memory_equal(got + shift, want, big + 4096 - 3);
			assert_int_equal(got[shift + big + 4096 - 3], 0xee);
		}
	}
	assert_true(ran >= 1);
	free(want);
	free(got);
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
					   "pattern=\"\"", "pattern=\"ab", "pattern=0xff\"a\"x",
					   "pattern=2147483648", "pattern=-2147483649", "pattern=%x" };
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
	assert_int_equal(data_parse_pattern("\"ab\"", &d, false, "buffer_pattern", err, sizeof(err)), 0);
	assert_int_equal(d.pattern_len, 2);
	/* A decimal number: its bytes little-endian, as fio lays them. */
	assert_int_equal(data_parse_pattern("258", &d, false, "buffer_pattern", err, sizeof(err)), 0);
	assert_int_equal(d.pattern_len, 2);
	assert_int_equal(d.pattern[0], 2);
	assert_int_equal(d.pattern[1], 1);
}

/* One pattern string as fio's parser lays it out: the bytes and how many. */
static void expect_pattern(const char *val, bool offsets, const char *hex)
{
	struct data_spec d = { 0 };
	char err[256] = "", got[2 * DATA_PATTERN_MAX + 1] = "";
	if (data_parse_pattern(val, &d, offsets, "verify_pattern", err, sizeof(err)))
		fail_msg("'%s' refused: %s", val, err);
	for (unsigned i = 0; i < d.pattern_len; i++)
		snprintf(got + 2 * i, 3, "%02x", d.pattern[i]);
	if (strcmp(got, hex))
		fail_msg("'%s' gave %s, fio gives %s", val, got, hex);
}

static void expect_refused(const char *val, bool offsets)
{
	struct data_spec d = { 0 };
	char err[256] = "";
	if (data_parse_pattern(val, &d, offsets, "buffer_pattern", err, sizeof(err)) != -1)
		fail_msg("'%s' accepted", val);
	assert_non_null(strstr(err, "--buffer_pattern"));
	assert_null(strchr(err, '\n'));
}

static void fio_pattern_syntax(void **state)
{
	(void)state;
	/* The examples of fio 3.33's lib/pattern.c, and the composite of its HOWTO. */
	expect_pattern("\"abcd\"", false, "61626364");
	expect_pattern("-1024", false, "00fcffff");
	expect_pattern("66", false, "42");
	expect_pattern("0", false, "00");
	expect_pattern("0xFF0X1", false, "ff01");
	expect_pattern("\"123\"0xFFeeCC", false, "313233ffeecc");
	expect_pattern("-100xab\"1\"%o\"2\"", true, "f6ffffffab31000000000000000032");
	expect_pattern("%o0xdeadbeef%o", true, "0000000000000000deadbeef0000000000000000");
	expect_pattern("\"abcd\"-120xdeadface", false, "61626364f4ffffffdeadface");
	expect_pattern("0xabc", false, "0abc");       /* an odd count: the first digit alone */
	expect_pattern("0xff0x14", false, "ff14");    /* the 0 before x starts the next number */
	expect_pattern("100x10", false, "0a10");      /* 10, then 0x10 */
	expect_pattern("2147483647", false, "ffffff7f");
	expect_pattern("-2147483648", false, "00000080");
	expect_refused("", false);
	expect_refused("\"\"", false);
	expect_refused("\"abc", false);
	expect_refused("0x", false);
	expect_refused("0xzz", false);
	expect_refused("abc", false);
	expect_refused("2147483648", false);
	expect_refused("%o", false);    /* buffer_pattern takes no offsets, as fio's */
	expect_refused("0x12 34", false);
	/* 512 bytes fit, 513 do not. */
	char big[2 + 2 * 513 + 1] = "0x";
	for (int i = 0; i < 513; i++)
		memcpy(big + 2 + 2 * i, "ab", 3);
	expect_refused(big, false);
	big[2 + 2 * 512] = 0;
	struct data_spec d = { 0 };
	char err[256];
	assert_int_equal(data_parse_pattern(big, &d, false, "buffer_pattern", err, sizeof(err)), 0);
	assert_int_equal(d.pattern_len, 512);
	/* %o: each block's offset, 8 bytes little-endian, pasted where it stands. */
	assert_int_equal(data_parse_pattern("\"x\"%o", &d, true, "verify_pattern", err, sizeof(err)), 0);
	uint8_t out[DATA_PATTERN_MAX];
	assert_int_equal(data_pattern_at(&d, 0x0102030405060708ULL, out), 9);
	assert_memory_equal(out, "x\x08\x07\x06\x05\x04\x03\x02\x01", 9);
	char pr[128];
	data_print_pattern(&d, pr, sizeof(pr));
	assert_string_equal(pr, "0x78%o");
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
		cmocka_unit_test(variants_agree),	    cmocka_unit_test(odd_lengths),		    cmocka_unit_test(zero_and_pattern),
		cmocka_unit_test(compress_share),	    cmocka_unit_test(dedupe_share),
		cmocka_unit_test(parse_and_print),	    cmocka_unit_test(fio_pattern_syntax),	    cmocka_unit_test(refresh_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
