/*
 * Unit tests for fio's percentages of a file's size (model/percent.c): the
 * regions fio 3.33 makes, each figure measured with fio on a file of that
 * size (its JSON's io_bytes, the offsets of its latency log).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "model/percent.h"
#include "options/options.h"

#define MIB (1ULL << 20)

static struct job gj;
static struct settings gs;

static void job(const char *opts)
{
	char err[256], copy[256];
	options_defaults(&gj, &gs);
	snprintf(copy, sizeof(copy), "%s", opts);
	for (char *save = NULL, *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');
		*eq = 0;
		const struct opt_def *o = option_find(t);
		assert_non_null(o);
		assert_int_equal(option_apply(o, &gj, &gs, eq + 1, err, sizeof(err)), 0);
	}
}

static struct pct_region region(uint64_t real, unsigned thread)
{
	struct pct_region r;
	assert_int_equal(pct_region(&gj, real, thread, 0, &r), 0);
	return r;
}

static void test_size_and_offset(void **state)
{
	(void)state;
	job("size=50%");
	assert_true(job_pct_region(&gj));
	assert_int_equal(region(64 * MIB, 0).size, 32 * MIB);
	assert_int_equal(region(64 * MIB, 0).start, 0);
	/* 1%: 671088 bytes, down to whole 4 KiB blocks. */
	job("size=1%");
	assert_int_equal(region(64 * MIB, 0).size, 667648);
	/* offset=10%: 6710886 up to a block, 6713344; size=100% is the rest, not rounded. */
	job("offset=10% size=100%");
	assert_int_equal(region(64 * MIB, 0).start, 6713344);
	assert_int_equal(region(64 * MIB, 0).size, 60395520);
	job("offset=10%");
	assert_int_equal(region(64 * MIB, 0).size, 60395520);
	/* offset_align instead of the block size. */
	job("offset=10% offset_align=64k size=100%");
	assert_int_equal(region(64 * MIB, 0).start, 6750208);
	assert_int_equal(region(64 * MIB, 0).size, 60358656);
	/* The smallest block of any direction, used or not (fio's td_min_bs): bs=64k,4k reads align to 4 KiB. */
	job("rw=read bs=64k,4k offset=10% size=1m");
	assert_int_equal(region(64 * MIB, 0).start, 6713344);
	job("bsrange=8k-64k offset=10% size=50%");
	assert_int_equal(region(64 * MIB, 0).start, 6717440);
	assert_int_equal(pct_min_bs(&gj), 8192);
}

static void test_threads(void **state)
{
	(void)state;
	/* size=30% numjobs=2 offset_increment=30%: 20131840 bytes each, the second from 20135936. */
	job("size=30% numjobs=2 offset_increment=30%");
	assert_int_equal(region(64 * MIB, 0).size, 20131840);
	assert_int_equal(region(64 * MIB, 1).start, 20135936);
	assert_int_equal(region(64 * MIB, 1).size, 20131840);
	/* Thread t's offset is t * 10% rounded up, not t times thread 1's: 20135936, not 20140032. */
	job("size=1m numjobs=4 offset_increment=10%");
	assert_int_equal(region(64 * MIB, 1).start, 6713344);
	assert_int_equal(region(64 * MIB, 2).start, 13422592);
	assert_int_equal(region(64 * MIB, 3).start, 20135936);
	/* A size in bytes is the file's share, wherever the offset falls (a file is extended). */
	struct pct_region r;
	assert_int_equal(pct_region(&gj, 64 * MIB, 3, 1 * MIB, &r), 0);
	assert_int_equal(r.size, 1 * MIB);
	/* size=50% offset_increment=60%: the second thread's region is cut at the end of the file. */
	job("size=50% numjobs=2 offset_increment=60%");
	assert_int_equal(region(64 * MIB, 1).start, 40267776);
	assert_int_equal(region(64 * MIB, 1).size, 26841088);
	/* offset=10% with offset_increment=10m: the sum rounded up. */
	job("offset=10% size=1m numjobs=2 offset_increment=10m");
	assert_int_equal(region(64 * MIB, 1).start, 17199104);
	/* An offset in bytes rounds up once offset_increment is a percentage. */
	job("offset=1m offset_increment=10% size=1m numjobs=2");
	assert_int_equal(region(64 * MIB, 0).start, 1 * MIB);
	assert_int_equal(region(64 * MIB, 1).start, 7761920);
	/* Four quarters of a 65536512-byte device: the last thread's is a block short. */
	job("size=25% numjobs=4 offset_increment=25%");
	assert_int_equal(region(65536512, 3).start, 49156096);
	assert_int_equal(region(65536512, 3).size, 16379904);
	assert_int_equal(region(65536512, 2).size, 16384000);
}

static void test_ends_and_io(void **state)
{
	(void)state;
	struct pct_region r;
	/* Past the end: refused (fio's "offset extends end"); at the end: empty. */
	job("offset=10% offset_increment=95% numjobs=2 size=10%");
	assert_int_equal(pct_region(&gj, 64 * MIB, 1, 0, &r), -1);
	assert_true(r.start > 64 * MIB);
	job("offset=100%");
	assert_int_equal(region(64 * MIB, 0).size, 0);
	/* io_size=N% of a region, not rounded (the worker issues the last block whole); 100% is the region. */
	job("io_size=33%");
	assert_false(job_pct_region(&gj));
	assert_true(job_pct_any(&gj));
	assert_int_equal(pct_io(&gj, 20 * MIB), 6920601);
	job("io_size=100%");
	assert_int_equal(pct_io(&gj, 20 * MIB + 1), 20 * MIB + 1);
	/* The first percentage as written, for messages. */
	char said[48];
	job("offset=10% io_size=5%");
	job_pct_said(&gj, said, sizeof(said));
	assert_string_equal(said, "--offset=10%");
	job("bs=4k");
	job_pct_said(&gj, said, sizeof(said));
	assert_string_equal(said, "");
	/* 99% of a 4 EiB device: no overflow. */
	job("size=99%");
	assert_int_equal(region(1ULL << 62, 0).size, (uint64_t)((unsigned __int128)(1ULL << 62) * 99 / 100) / 4096 * 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_and_offset),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_ends_and_io),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
