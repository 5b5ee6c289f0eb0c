/*
 * Unit tests for the merge of several processes' results through fixed-size
 * buffers (merge.c): the reduction gives exactly what stats_merge gives.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/common.h"
#include "run/merge.h"
#include "stats/stats.h"

#define NR 5

static struct job_result ranks[NR], got;
static struct thread_stats want;

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A rank's results: different latency ranges, series lengths, histograms present. */
static void fill(struct job_result *jr, unsigned r)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL * (r + 1);
	struct thread_stats *t = &jr->total;
	memset(jr, 0, sizeof(*jr));
	stats_init(t);
	stats_want(t, IO_READ, true);
	stats_want(t, IO_WRITE, false);
	if (r == 4)
		stats_want(t, IO_FSYNC, false); /* only one rank has this histogram */
	for (int op = 0; op < IO_OP_NR; op++) {
		struct op_stats *o = &t->op[op];
		unsigned n = o->clat.h ? 200 + 50 * r : 0;
		for (unsigned i = 0; i < n; i++) {
			/* Rank r's latencies sit in its own decade, so bucket ranges differ. */
			uint64_t v = 100 + rnd(&seed) % (1000ULL << (3 * r));
			lat_add(&o->clat, v);
			if (o->slat.h) {
				lat_add(&o->slat, v / 7);
				lat_add(&o->lat, v + v / 7);
			}
			o->ios++;
			o->bytes += 4096;
		}
	}
	if (r == 1) /* the 128-bit sum of squares carries between the two words */
		t->op[IO_READ].clat.sumsq += (unsigned __int128)UINT64_MAX;
	if (r == 2)
		t->op[IO_READ].clat.sumsq += (unsigned __int128)UINT64_MAX - 5;
	unsigned npts = 2 + r * 2;
	struct series_pt p;
	memset(&p, 0, sizeof(p));
	for (unsigned i = 0; i < npts; i++) {
		for (int d = 0; d < DDIR_NR; d++) {
			p.ios[d] += rnd(&seed) % 100;
			p.bytes[d] += rnd(&seed) % 100000;
			p.lat_sum[d] += rnd(&seed) % 1000000;
			p.lat_max[d] = rnd(&seed) % 5000;
		}
		p.t_ns = (i + 1) * NSEC_PER_SEC + r;
		series_push(&t->series, &p);
	}
	t->cpu.usr_ns = 1000 + r;
	t->cpu.sys_ns = 2000 + r;
	t->cpu.ctx = 3 + r;
	t->elapsed_ns = 5 * NSEC_PER_SEC + 1000 * r;
	t->invalidations = r;
	t->invalidate_ns = 10 * r;
	t->left_bytes = r == 3 ? 1 << 20 : 0;
	t->interrupted = r == 2;
	t->halted = r == 1;
	jr->invalidate_ns = 7 * r;
	jr->buffered_fallback = r == 3;
	jr->resident_before = r % 2 ? -1 : (int64_t)(4096 * r);
	jr->unsynced_after = r == 1 ? -1 : (int64_t)(512 * r);
}

static void assert_lat_equal(const struct lat_stats *a, const struct lat_stats *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->sum, b->sum);
	assert_true(a->sumsq == b->sumsq);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->h != NULL, b->h != NULL);
	if (a->h)
		assert_memory_equal(a->h->counts, b->h->counts, sizeof(a->h->counts));
}

static void test_reduction_is_stats_merge(void **state)
{
	(void)state;
	for (unsigned r = 0; r < NR; r++)
		fill(&ranks[r], r);
	/* What one process merging them all would get. */
	stats_init(&want);
	for (unsigned r = 0; r < NR; r++)
		stats_merge(&want, &ranks[r].total);

	uint64_t shape[MERGE_SHAPE_WORDS], s[MERGE_SHAPE_WORDS];
	merge_shape(&ranks[0], shape);
	for (unsigned r = 1; r < NR; r++) {
		merge_shape(&ranks[r], s);
		merge_shape_max(shape, s);
	}
	size_t words = merge_words(shape);
	uint64_t *buf[NR];
	for (unsigned r = 0; r < NR; r++) {
		buf[r] = calloc(words, sizeof(uint64_t));
		merge_pack(&ranks[r], shape, buf[r]);
		assert_int_equal(merge_buffer_words(buf[r]), words);
	}
	/* A reduction tree: (0+1) + ((2+3) + 4). */
	merge_combine(buf[1], buf[0]);
	merge_combine(buf[3], buf[2]);
	merge_combine(buf[4], buf[2]);
	merge_combine(buf[2], buf[0]);

	memset(&got, 0, sizeof(got));
	stats_init(&got.total);
	merge_unpack(buf[0], shape, &got);
	const struct thread_stats *t = &got.total;
	for (int op = 0; op < IO_OP_NR; op++) {
		assert_int_equal(t->op[op].ios, want.op[op].ios);
		assert_int_equal(t->op[op].bytes, want.op[op].bytes);
		assert_lat_equal(&t->op[op].slat, &want.op[op].slat);
		assert_lat_equal(&t->op[op].clat, &want.op[op].clat);
		assert_lat_equal(&t->op[op].lat, &want.op[op].lat);
	}
	assert_int_equal(t->series.n, want.series.n);
	assert_memory_equal(t->series.pts, want.series.pts, want.series.n * sizeof(struct series_pt));
	assert_memory_equal(&t->cpu, &want.cpu, sizeof(want.cpu));
	assert_int_equal(t->elapsed_ns, want.elapsed_ns); /* the slowest */
	assert_int_equal(t->invalidations, want.invalidations);
	assert_int_equal(t->invalidate_ns, want.invalidate_ns);
	assert_int_equal(t->left_bytes, 1 << 20);
	assert_true(t->interrupted);
	assert_true(t->halted);
	assert_int_equal(got.invalidate_ns, 7 * (0 + 1 + 2 + 3 + 4));
	assert_true(got.buffered_fallback);
	assert_int_equal(got.resident_before, 4096 * (0 + 2 + 4));
	assert_int_equal(got.unsynced_after, 512 * (0 + 2 + 3 + 4));
	/* The percentiles of the merged histogram are those of one run over all samples. */
	assert_int_equal(lat_pct(&t->op[IO_READ].clat, 99), lat_pct(&want.op[IO_READ].clat, 99));

	for (unsigned r = 0; r < NR; r++) {
		free(buf[r]);
		stats_free(&ranks[r].total);
	}
	stats_free(&want);
	stats_free(&got.total);
}

/* Histogram buffers cover only the buckets some rank used. */
static void test_buffer_is_small(void **state)
{
	(void)state;
	fill(&ranks[0], 0);
	uint64_t shape[MERGE_SHAPE_WORDS];
	merge_shape(&ranks[0], shape);
	size_t words = merge_words(shape);
	/* Four histograms (read slat/clat/lat, write clat) of a few hundred buckets, not 4 x 7424. */
	assert_true(words < 4 * 1000);
	assert_true(words > 4 * 100);
	stats_free(&ranks[0].total);
}

/* A rank with no samples at all (nothing measured) adds nothing. */
static void test_empty_rank(void **state)
{
	(void)state;
	fill(&ranks[0], 0);
	memset(&ranks[1], 0, sizeof(ranks[1]));
	stats_init(&ranks[1].total);
	ranks[1].resident_before = -1;
	uint64_t shape[MERGE_SHAPE_WORDS], s[MERGE_SHAPE_WORDS];
	merge_shape(&ranks[0], shape);
	merge_shape(&ranks[1], s);
	merge_shape_max(shape, s);
	size_t words = merge_words(shape);
	uint64_t *a = calloc(words, 8), *b = calloc(words, 8);
	merge_pack(&ranks[0], shape, a);
	merge_pack(&ranks[1], shape, b);
	merge_combine(b, a);
	memset(&got, 0, sizeof(got));
	stats_init(&got.total);
	merge_unpack(a, shape, &got);
	assert_lat_equal(&got.total.op[IO_READ].clat, &ranks[0].total.op[IO_READ].clat);
	assert_int_equal(got.total.series.n, ranks[0].total.series.n);
	assert_int_equal(got.resident_before, 0);
	free(a);
	free(b);
	stats_free(&ranks[0].total);
	stats_free(&ranks[1].total);
	stats_free(&got.total);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reduction_is_stats_merge),
		cmocka_unit_test(test_buffer_is_small),
		cmocka_unit_test(test_empty_rank),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
