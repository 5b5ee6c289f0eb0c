/*
 * Unit tests for latency objects saved as JSON and read back (ig_json_lat,
 * lat_from_json): two saved results merge into what one lat_stats fed every
 * sample holds, and a corrupted object is refused with a message.
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

#include "base/common.h"
#include "stats/stats.h"
#include "report/report.h"
#include "report/result_read.h"

#define NA 20000
#define NB 7001

static uint64_t sa[NA], sb[NB], sall[NA + NB];
static struct lat_stats la, lb, lall, ra, rb, merged;

static const double pcts[] = { 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99 };

/* xorshift64*: a fixed, portable random sequence. */
static uint64_t rnd(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 2685821657736338717ULL;
}

/* Log-uniform over [lo, hi): every bucket width from exact (< 128 ns) to 2^20 ns. */
static uint64_t log_sample(uint64_t *x, double lo, double hi)
{
	double u = (double)(rnd(x) >> 11) / 9007199254740992.0;
	return (uint64_t)exp(log(lo) + u * (log(hi) - log(lo)));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void fresh(struct lat_stats *l, bool with_hist)
{
	lat_free(l);
	lat_init(l);
	if (with_hist) {
		l->h = calloc(1, sizeof(*l->h));
		assert_non_null(l->h);
	}
}

/* Two different distributions: a fast device (50 ns .. 2 ms) and a slow one (20 us .. 400 ms). */
static int setup(void **state)
{
	(void)state;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	fresh(&la, true);
	fresh(&lb, true);
	fresh(&lall, true);
	for (int i = 0; i < NA; i++) {
		sa[i] = log_sample(&x, 50, 2e6);
		lat_add(&la, sa[i]);
		lat_add(&lall, sa[i]);
		sall[i] = sa[i];
	}
	for (int i = 0; i < NB; i++) {
		sb[i] = log_sample(&x, 2e4, 4e8);
		lat_add(&lb, sb[i]);
		lat_add(&lall, sb[i]);
		sall[NA + i] = sb[i];
	}
	qsort(sall, NA + NB, sizeof(sall[0]), cmp_u64);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	lat_free(&la);
	lat_free(&lb);
	lat_free(&lall);
	lat_free(&ra);
	lat_free(&rb);
	lat_free(&merged);
	return 0;
}

/* ig_json_lat, through text (as a saved file is), parsed again. */
static json_t *saved(const struct lat_stats *l)
{
	json_t *o = ig_json_lat(l, pcts, ARRAY_SIZE(pcts));
	assert_non_null(o);
	char *text = json_dumps(o, JSON_REAL_PRECISION(10));
	assert_non_null(text);
	json_decref(o);
	json_error_t jerr;
	json_t *back = json_loads(text, 0, &jerr);
	free(text);
	if (!back)
		fail_msg("ig_json_lat's output does not parse: %s", jerr.text);
	return back;
}

static void read_back(const json_t *o, struct lat_stats *l)
{
	struct ig_err e = { 0 };
	if (lat_from_json(o, l, &e))
		fail_msg("lat_from_json refused ig_json_lat's own output: %s", e.msg);
	assert_int_equal(e.status, 0);
	assert_non_null(l->h);
}

static void same_stats(const struct lat_stats *a, const struct lat_stats *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->sum, b->sum);
	assert_true(a->sumsq == b->sumsq);
	assert_true(lat_mean(a) == lat_mean(b));
	assert_true(lat_stddev(a) == lat_stddev(b));
	assert_non_null(a->h);
	assert_non_null(b->h);
	assert_memory_equal(a->h, b->h, sizeof(*a->h));
}

/* The ceil(p/100 * n)-th smallest sample. */
static uint64_t exact_pct(const uint64_t *sorted, uint64_t n, double p)
{
	long double x = (long double)p * n / 100;
	uint64_t rank = (uint64_t)ceill(x - x * 1e-12L);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

/* One object read back is the lat_stats it was written from. */
static void test_round_trip(void **state)
{
	(void)state;
	json_t *o = saved(&la);
	fresh(&ra, false);
	read_back(o, &ra);
	same_stats(&ra, &la);
	json_decref(o);

	/* Nothing measured: an empty histogram, n 0, no percentiles. */
	static struct lat_stats none, back;
	fresh(&none, false);
	o = saved(&none);
	assert_int_equal(json_array_size(json_object_get(o, "histogram")), 0);
	assert_string_equal(json_string_value(json_object_get(o, "sumsq")), "0");
	fresh(&back, false);
	read_back(o, &back);
	assert_int_equal(back.n, 0);
	assert_int_equal(back.min, UINT64_MAX); /* as lat_init: merges leave min alone */
	assert_int_equal(back.max, 0);
	assert_int_equal(hist_total(back.h), 0);
	assert_int_equal(lat_pct(&back, 50), 0);
	json_decref(o);
	lat_free(&back);

	/* Reading into a used lat_stats replaces what it held (its histogram freed: ASan). */
	o = saved(&lb);
	read_back(o, &ra);
	same_stats(&ra, &lb);
	json_decref(o);
}

/* Two saved results merged = one lat_stats fed every sample. */
static void test_merge_saved(void **state)
{
	(void)state;
	json_t *oa = saved(&la), *ob = saved(&lb);
	fresh(&ra, false);
	fresh(&rb, false);
	read_back(oa, &ra);
	read_back(ob, &rb);
	fresh(&merged, false);
	lat_merge(&merged, &ra);
	lat_merge(&merged, &rb);

	/* Exact: count, extremes, sums, mean, stddev, the histogram itself. */
	assert_int_equal(merged.n, NA + NB);
	assert_int_equal(merged.min, sall[0]);
	assert_int_equal(merged.max, sall[NA + NB - 1]);
	same_stats(&merged, &lall);

	/* Percentiles: those of one lat_stats fed everything, within 1/128 of the exact sample. */
	for (double p = 0.5; p <= 100; p += 0.5) {
		uint64_t got = lat_pct(&merged, p), one = lat_pct(&lall, p);
		uint64_t want = exact_pct(sall, NA + NB, p);
		if (got != one)
			fail_msg("p%g: merged %llu, one lat_stats %llu", p, (unsigned long long)got,
				 (unsigned long long)one);
		double err = fabs((double)got - (double)want);
		if (err > (double)want / 128)
			fail_msg("p%g: %llu, exact %llu: beyond 1/128", p, (unsigned long long)got,
				 (unsigned long long)want);
	}
	/* The extremes exactly. */
	assert_int_equal(lat_pct(&merged, 100), sall[NA + NB - 1]);
	assert_int_equal(lat_pct(&merged, 0.001), sall[0]);

	/* Merging the saved percentiles would not do: the median of the union is neither median. */
	uint64_t med = lat_pct(&merged, 50), ma = lat_pct(&la, 50), mb = lat_pct(&lb, 50);
	assert_true(med != ma && med != mb);

	/* The merged result saved and read again is still the same. */
	json_t *om = saved(&merged);
	static struct lat_stats again;
	fresh(&again, false);
	read_back(om, &again);
	same_stats(&again, &lall);
	lat_free(&again);
	json_decref(om);
	json_decref(oa);
	json_decref(ob);
}

/* ---------------------------------------------------------------- corrupted objects */

typedef void (*corrupt_fn)(json_t *o);

static void more_samples(json_t *o)
{
	json_t *n = json_object_get(o, "samples");
	json_object_set_new(o, "samples", json_integer(json_integer_value(n) + 1));
}

static void fewer_counts(json_t *o)
{
	json_t *b = json_array_get(json_object_get(o, "histogram"), 3);
	json_t *c = json_array_get(b, 1);
	json_array_set_new(b, 1, json_integer(json_integer_value(c) - 1));
}

/* A bucket whose lower bound is at least 256 (width >= 2): bound + 1 is inside it, no boundary. */
static void off_boundary(json_t *o)
{
	size_t i;
	json_t *b;
	json_array_foreach(json_object_get(o, "histogram"), i, b) {
		json_int_t lo = json_integer_value(json_array_get(b, 0));
		if (lo >= 256) {
			json_array_set_new(b, 0, json_integer(lo + 1));
			return;
		}
	}
	fail_msg("no bucket above 256 ns to corrupt");
}

static void no_sumsq(json_t *o)
{
	json_object_del(o, "sumsq");
}

static void sumsq_not_decimal(json_t *o)
{
	json_object_set_new(o, "sumsq", json_string("12x4"));
}

static void sumsq_number(json_t *o)
{
	json_object_set_new(o, "sumsq", json_integer(12));
}

static void no_histogram(json_t *o)
{
	json_object_del(o, "histogram");
}

static void bucket_triple(json_t *o)
{
	json_array_append_new(json_array_get(json_object_get(o, "histogram"), 0), json_integer(1));
}

static void negative_count(json_t *o)
{
	json_array_set_new(json_array_get(json_object_get(o, "histogram"), 0), 1, json_integer(-1));
}

static void no_samples(json_t *o)
{
	json_object_del(o, "samples");
}

static void samples_string(json_t *o)
{
	json_object_set_new(o, "samples", json_string("27001"));
}

static void no_sum(json_t *o)
{
	json_object_del(o, "sum");
}

static void test_corrupted(void **state)
{
	(void)state;
	static const struct {
		corrupt_fn fn;
		const char *what, *want;
	} cases[] = {
		{ more_samples, "samples + 1", "differ from samples" },
		{ fewer_counts, "a bucket count - 1", "differ from samples" },
		{ off_boundary, "a bound inside a bucket", "not a bucket boundary" },
		{ no_sumsq, "no sumsq", "\"sumsq\"" },
		{ sumsq_not_decimal, "sumsq 12x4", "\"sumsq\" is not a decimal number" },
		{ sumsq_number, "sumsq a number", "\"sumsq\"" },
		{ no_histogram, "no histogram", "\"histogram\"" },
		{ bucket_triple, "a bucket of three", "bucket 0" },
		{ negative_count, "a negative count", "bucket 0" },
		{ no_samples, "no samples", "\"samples\"" },
		{ samples_string, "samples a string", "\"samples\"" },
		{ no_sum, "no sum", "\"sum\"" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		json_t *o = saved(&lall);
		cases[i].fn(o);
		static struct lat_stats l;
		struct ig_err e = { 0 };
		fresh(&l, false);
		int rc = lat_from_json(o, &l, &e);
		lat_free(&l); /* whatever it holds after a refusal */
		json_decref(o);
		if (rc != -1 || e.status != EXIT_USAGE)
			fail_msg("%s: rc %d, status %d, want -1 and 2", cases[i].what, rc, e.status);
		if (!strstr(e.msg, cases[i].want))
			fail_msg("%s: message '%s' lacks '%s'", cases[i].what, e.msg, cases[i].want);
		assert_null(strchr(e.msg, '\n'));
	}
	/* Not an object at all. */
	static struct lat_stats l;
	struct ig_err e = { 0 };
	json_t *a = json_array();
	fresh(&l, false);
	assert_int_equal(lat_from_json(a, &l, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	assert_true(e.msg[0] != 0);
	lat_free(&l);
	json_decref(a);
	/* The corruption cases each fail on their own: the intact object is accepted. */
	json_t *o = saved(&lall);
	fresh(&l, false);
	read_back(o, &l);
	same_stats(&l, &lall);
	lat_free(&l);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_merge_saved),
		cmocka_unit_test(test_corrupted),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
