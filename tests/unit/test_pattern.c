/*
 * Unit tests for fio's patterns: the direction and block-size streams give
 * the counts fio 3.33 gives (numbers taken from fio runs), block sizes, holes,
 * backwards runs, the unit map, and the options that set them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/common.h"
#include "options/options.h"
#include "model/pattern.h"
#include "model/fio_fileops.h"

static struct job j;
static struct settings s;
static char err[512];

static void fresh(void)
{
	options_defaults(&j, &s);
}

static void set(const char *name, const char *val)
{
	const struct opt_def *o = option_find(name);
	assert_non_null(o);
	if (option_apply(o, &j, &s, val, err, sizeof(err)))
		fail_msg("--%s=%s: %s", name, val, err);
}

static int try_set(const char *name, const char *val)
{
	return option_apply(option_find(name), &j, &s, val, err, sizeof(err));
}

/* Counts of a mixed job's directions over n requests, by fio's rwmix cycle. */
static void mix_counts(unsigned n, unsigned rwmixread, unsigned thread_number, uint64_t out[2])
{
	fresh();
	j.rwmixread = rwmixread;
	struct fio_mix m;
	mix_init(&m, &j, thread_number, 0);
	out[0] = out[1] = 0;
	for (unsigned i = 0; i < n; i++)
		out[mix_next(&m)]++;
}

static void test_mix_as_fio(void **state)
{
	(void)state;
	/* From fio 3.33: --rw=randrw --bs=4k --size=4m / 16m, --rwmixread, --numjobs=2. */
	static const struct {
		unsigned n, mix, tn;
		uint64_t r, w;
	} cases[] = {
		{ 1024, 50, 1, 496, 528 },  { 4096, 70, 1, 2824, 1272 }, { 4096, 70, 2, 2837, 1259 },
		{ 4096, 25, 1, 984, 3112 }, { 4096, 25, 2, 1020, 3076 }, { 4096, 90, 1, 3692, 404 },
		{ 4096, 90, 2, 3682, 414 }, { 2048, 30, 1, 590, 1458 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t c[2];
		mix_counts(cases[i].n, cases[i].mix, cases[i].tn, c);
		if (c[0] != cases[i].r || c[1] != cases[i].w)
			fail_msg("rwmixread=%u thread %u: %llu/%llu, fio: %llu/%llu", cases[i].mix,
				 cases[i].tn, (unsigned long long)c[0], (unsigned long long)c[1],
				 (unsigned long long)cases[i].r, (unsigned long long)cases[i].w);
	}
}

/* Requests and bytes of a size-bound job through the pattern, one thread. */
static void run_pattern(uint64_t *ios, uint64_t *bytes, uint64_t *reads)
{
	struct pattern p;
	struct offgen og;
	struct fio_mix m;
	j.size = 16 << 20;
	uint64_t nblocks = j.size / pattern_unit(&j);
	enum offgen_kind k = rw_is_random(j.rw) ? (j.norandommap ? OFFGEN_DIST : OFFGEN_PERM) : OFFGEN_SEQ;
	assert_int_equal(offgen_init(&og, k, DIST_RANDOM, 0, nblocks, 7), 0);
	mix_init(&m, &j, 1, 0);
	assert_int_equal(pattern_init(&p, &j, 1, 0), 0);
	*ios = *bytes = *reads = 0;
	uint8_t op0 = rw_reads(j.rw) ? 0 : 1;
	while (!p.done && *ios < 10000000) {
		uint8_t op;
		uint64_t off;
		uint32_t len;
		pattern_next(&p, &og, &m, op0, &op, &off, &len);
		assert_true(off + len <= j.size);
		assert_true(len > 0);
		(*ios)++;
		*bytes += len;
		*reads += op == 0;
	}
	pattern_free(&p);
}

static void test_sizes_as_fio(void **state)
{
	(void)state;
	/* From fio 3.33 on 16 MiB: the number of requests of each run. */
	static const struct {
		const char *rw, *opt, *val;
		uint64_t ios, bytes;
	} cases[] = {
		{ "read", "bsrange", "4k-64k", 494, 16 << 20 },
		{ "read", "bssplit", "4k/50:64k/50", 526, 16 << 20 },
		{ "read", "bssplit", "64k/60:4k/10:16k/30", 394, 16 << 20 },
		{ "read", "bssplit", "64k/60:4k:16k", 406, 16 << 20 },
		{ "write", "bssplit", "4k/10:64k/60:16k/30", 379, 16 << 20 },
		{ "write:8k", "bs", "4k", 1366, 5595136 },
		{ "read:-8k", "bs", "4k", 4096, 16 << 20 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		fresh();
		set("rw", cases[i].rw);
		set(cases[i].opt, cases[i].val);
		assert_true(pattern_wanted(&j));
		uint64_t ios, bytes, reads;
		run_pattern(&ios, &bytes, &reads);
		if (ios != cases[i].ios || bytes != cases[i].bytes)
			fail_msg("rw=%s %s=%s: %llu requests, %llu bytes; fio: %llu, %llu", cases[i].rw,
				 cases[i].opt, cases[i].val, (unsigned long long)ios,
				 (unsigned long long)bytes, (unsigned long long)cases[i].ios,
				 (unsigned long long)cases[i].bytes);
	}
	/* Mixed, different sizes per direction (fio: 790 reads of 4k, 827 writes of 16k). */
	fresh();
	set("rw", "rw");
	set("bs", "4k,16k");
	uint64_t ios, bytes, reads;
	run_pattern(&ios, &bytes, &reads);
	assert_int_equal(reads, 790);
	assert_int_equal(ios - reads, 827);
	/* Loops start fio's streams over: twice the first loop (fio: 988). */
	fresh();
	set("bsrange", "4k-64k");
	j.loops = 2;
	run_pattern(&ios, &bytes, &reads);
	assert_int_equal(ios, 988);
}

/* Random requests of several sizes cover every unit exactly once a pass (the map). */
static void test_random_map(void **state)
{
	(void)state;
	fresh();
	set("rw", "randwrite");
	set("bssplit", "4k/40:16k/30:64k/30");
	j.size = 4 << 20;
	struct pattern p;
	struct offgen og;
	struct fio_mix m;
	uint64_t units = j.size / 4096;
	assert_int_equal(offgen_init(&og, OFFGEN_PERM, DIST_RANDOM, 0, units, 3), 0);
	mix_init(&m, &j, 1, 0);
	assert_int_equal(pattern_init(&p, &j, 1, 0), 0);
	assert_non_null(p.map);
	uint8_t *seen = calloc(units, 1);
	uint64_t bytes = 0;
	while (!p.done) {
		uint8_t op;
		uint64_t off;
		uint32_t len;
		pattern_next(&p, &og, &m, 1, &op, &off, &len);
		assert_int_equal(off % 4096, 0);
		assert_int_equal(len % 4096, 0);
		for (uint64_t u = off / 4096; u < (off + len) / 4096; u++) {
			if (seen[u]++)
				fail_msg("unit %llu written twice", (unsigned long long)u);
		}
		bytes += len;
	}
	assert_int_equal(bytes, j.size);
	for (uint64_t u = 0; u < units; u++)
		assert_int_equal(seen[u], 1);
	free(seen);
	pattern_free(&p);
}

/* rw=randread:4 with rw_sequencer: a seek every 4 requests; identical repeats the offset. */
static void test_sequencer(void **state)
{
	(void)state;
	fresh();
	set("rw", "randread:4");
	set("rw_sequencer", "identical");
	set("norandommap", "1");
	j.size = 1 << 20;
	struct pattern p;
	struct offgen og;
	struct fio_mix m;
	assert_int_equal(offgen_init(&og, OFFGEN_DIST, DIST_RANDOM, 0, 256, 3), 0);
	mix_init(&m, &j, 1, 0);
	assert_int_equal(pattern_init(&p, &j, 1, 0), 0);
	uint64_t offs[12];
	for (int i = 0; i < 12; i++) {
		uint8_t op;
		uint32_t len;
		pattern_next(&p, &og, &m, 0, &op, &offs[i], &len);
	}
	/* fio: the first seek comes with the 4th request; the 3 after it repeat its offset. */
	assert_int_equal(offs[0], 0);
	assert_int_equal(offs[4], offs[3]);
	assert_int_equal(offs[6], offs[3]);
	assert_int_equal(offs[8], offs[7]);
	pattern_free(&p);
}

static void test_options(void **state)
{
	(void)state;
	char buf[512];
	fresh();
	set("bs", "4k,8k");
	assert_int_equal(j.bs, 4096);
	assert_int_equal(j.bs_write, 8192);
	option_print(option_find("bs"), &j, &s, buf, sizeof(buf));
	assert_string_equal(buf, "4k,8k");
	set("bs", ",16k"); /* fio: a blank part keeps that direction */
	assert_int_equal(j.bs, 4096);
	assert_int_equal(j.bs_write, 16384);
	set("blocksize", "8k");
	assert_int_equal(j.bs_write, 0);
	set("bsrange", "1k-8k,2k-16k");
	assert_int_equal(j.bsrange[1][1], 16384);
	set("bsrange", "8k:1k"); /* fio: either separator, either way round */
	assert_int_equal(j.bsrange[0][0], 1024);
	assert_int_equal(j.bsrange[0][1], 8192);
	set("bsrange", "512/25:1k:25:2k"); /* fio's t0023: ends read as fio reads them, 512-1k */
	assert_int_equal(j.bsrange[0][0], 512);
	assert_int_equal(j.bsrange[0][1], 1024);
	assert_int_equal(try_set("bsrange", "1k"), -1);
	assert_int_equal(try_set("bsrange", "x-8k"), -1);
	set("bs", "4k,4k,8k"); /* the trims' size */
	assert_int_equal(j.bs_trim, 8192);
	option_print(option_find("bs"), &j, &s, buf, sizeof(buf));
	assert_string_equal(buf, "4k,4k,8k");
	set("bs", "4k,8k"); /* trims take the writes' size */
	assert_int_equal(j.bs_trim, 0);
	set("bsrange", "1k-8k,2k-16k");
	set("bssplit", "4k/50:1k/:32k/");
	assert_int_equal(j.nbssplit[0], 3);
	assert_int_equal(j.bssplit[0][0].pct, 25); /* sorted by share, as fio */
	assert_int_equal(j.bssplit[0][2].bs, 4096);
	assert_int_equal(try_set("bssplit", "4k/60:8k/60"), -1);
	assert_int_equal(try_set("bssplit", "4k/60:8k/30"), -1);
	set("rw", "read:-8k");
	assert_int_equal(j.rw_skip, -8192);
	option_print(option_find("rw"), &j, &s, buf, sizeof(buf));
	assert_string_equal(buf, "read:-8k");
	set("rw", "randrw:16");
	assert_int_equal(j.rw_seq_nr, 16);
	assert_int_equal(j.rw_skip, 0);
	assert_int_equal(try_set("rw", "randread:-1"), -1);
	assert_int_equal(try_set("rw", "r"), -1); /* as fio 3.33 */
	set("percentage_random", "30,70");
	assert_int_equal(j.pct_random[1], 70);
	set("random_distribution", "zoned:60/10:30/20:10/");
	assert_int_equal(j.dist, DIST_ZONED);
	assert_int_equal(j.zones[2].size_pct, 70);
	option_print(option_find("random_distribution"), &j, &s, buf, sizeof(buf));
	assert_string_equal(buf, "zoned:60/10:30/20:10/70");
	set("random_distribution", "zoned_abs:50/1m:50/2m");
	assert_true(j.zones_abs);
	assert_int_equal(j.zones[1].size_abs, 2 << 20);
	assert_int_equal(try_set("random_distribution", "zoned:60/10:30/20"), -1);
	set("random_generator", "tausworthe64");
	assert_int_equal(try_set("random_generator", "mt"), -1);
}

/* A zoned draw lands in its zone in proportion to its share. */
static void test_zones(void **state)
{
	(void)state;
	struct offgen g;
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_ZONED, 0, 1000, 5), 0);
	unsigned access[] = { 60, 30, 10 };
	uint64_t len[] = { 100, 200, 700 };
	assert_int_equal(offgen_zones(&g, access, len, 3), 0);
	unsigned in[3] = { 0, 0, 0 };
	for (int i = 0; i < 100000; i++) {
		uint64_t b = offgen_next(&g);
		assert_true(b < 1000);
		in[b < 100 ? 0 : b < 300 ? 1 : 2]++;
	}
	assert_true(in[0] > 58000 && in[0] < 62000);
	assert_true(in[1] > 28000 && in[1] < 32000);
}

/* fio's file engines' loop: each case's numbers are fio 3.33's (total_ios per direction, clat samples). */
static void test_fio_fileops(void **state)
{
	(void)state;
	static const struct {
		const char *opts[4];
		uint64_t r, w, opens;
	} cases[] = {
		{ { "size=16k" }, 4, 0, 4 },                                  /* 4x fewer than every file */
		{ { "size=16k", "file_service_type=roundrobin:2" }, 4, 0, 2 },
		{ { "size=40k", "file_service_type=sequential" }, 10, 0, 3 },
		{ { "io_size=96k" }, 24, 0, 8 },                              /* a second loop of 8 */
		{ { "loops=2" }, 32, 0, 8 },
		{ { "filesize=10k" }, 8, 0, 4 },                              /* no block past a file's end */
		{ { "rw=rw" }, 10, 6, 4 },
		{ { "rw=randrw", "rwmixread=30" }, 6, 10, 4 },
		{ { "rw=write" }, 0, 16, 4 },
		{ { "filesize=2k" }, 0, 0, 4 },                               /* filestat's: nothing sent */
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fresh();
		set("ioengine", "filestat");
		set("nrfiles", "4");
		set("filesize", "16k");
		for (unsigned k = 0; k < 4 && cases[i].opts[k]; k++) {
			char name[64];
			const char *eq = strchr(cases[i].opts[k], '=');
			snprintf(name, sizeof(name), "%.*s", (int)(eq - cases[i].opts[k]), cases[i].opts[k]);
			set(name, eq + 1);
		}
		struct fio_fileop_plan p;
		fio_fileop_plan(&j, 1, &p);
		if (p.ios[0] != cases[i].r || p.ios[1] != cases[i].w || p.opens != cases[i].opens)
			fail_msg("case %u (%s): %llu/%llu requests, %llu opens", i, cases[i].opts[0],
				 (unsigned long long)p.ios[0], (unsigned long long)p.ios[1], (unsigned long long)p.opens);
		assert_int_equal(p.bytes[0] + p.bytes[1], (p.ios[0] + p.ios[1]) * 4096);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mix_as_fio),    cmocka_unit_test(test_sizes_as_fio),
		cmocka_unit_test(test_random_map),    cmocka_unit_test(test_sequencer),
		cmocka_unit_test(test_options),       cmocka_unit_test(test_zones),
		cmocka_unit_test(test_fio_fileops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
