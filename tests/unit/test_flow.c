/* Unit tests for fio's flow arithmetic (flow.c) and the latency_target search (lat_target.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "run/flow.h"
#include "run/lat_target.h"

/* fio's own check, one request at a time: the reference flow_budget must agree with. */
static unsigned naive_budget(uint64_t count, uint64_t total, uint64_t mine, unsigned w, unsigned want)
{
	unsigned k = 0;
	while (k < want && (double)(mine + k) / (double)(count + k) <= (double)w / (double)total)
		k++;
	return k;
}

static void test_budget_matches_fio_check(void **state)
{
	(void)state;
	srand(17);
	for (int i = 0; i < 200000; i++) {
		unsigned w = 1 + (unsigned)rand() % 1000, other = (unsigned)rand() % 3000;
		uint64_t count = 1 + (uint64_t)rand() % 100000, mine = (uint64_t)rand() % count;
		unsigned want = 1 + (unsigned)rand() % 64;
		assert_int_equal(flow_budget(count, w + other, mine, w, want),
				 naive_budget(count, w + other, mine, w, want));
	}
	/* Alone in its flow: never held back. */
	assert_int_equal(flow_budget(1000, 5, 999, 5, 32), 32);
	/* Ahead of its share: nothing. */
	assert_int_equal(flow_budget(101, 3, 60, 1, 8), 0);
}

/* Jobs taking turns, each issuing as much as its budget lets (up to a batch): the weights' ratio. */
static void run_flow(const unsigned *w, unsigned n, unsigned batch, uint64_t steps, uint64_t *mine)
{
	struct flow f = { .id = 1, .count = 1 };
	for (unsigned i = 0; i < n; i++) {
		f.weight += w[i];
		mine[i] = 0;
	}
	for (uint64_t s = 0; s < steps; s++) {
		unsigned i = (unsigned)(s % n);
		unsigned k = flow_room(&f, mine[i], w[i], batch);
		flow_count(&f, &mine[i], k);
	}
}

static void test_flow_ratios(void **state)
{
	(void)state;
	uint64_t mine[3];
	const unsigned two[] = { 2, 1 };
	run_flow(two, 2, 1, 300000, mine);
	assert_true(mine[0] > 0 && mine[1] > 0);
	assert_true(mine[0] >= 2 * mine[1] - 2 && mine[0] <= 2 * mine[1] + 2);
	const unsigned three[] = { 1, 5, 10 };
	run_flow(three, 3, 16, 300000, mine);
	assert_true(mine[1] >= 5 * mine[0] - 16 && mine[1] <= 5 * mine[0] + 16);
	assert_true(mine[2] >= 10 * mine[0] - 16 && mine[2] <= 10 * mine[0] + 16);
}

static void test_flow_leave(void **state)
{
	(void)state;
	struct flow f = { .id = 1, .count = 1, .weight = 3 };
	uint64_t a = 0, b = 0;
	/* b (weight 1) runs ahead of its share while a (2) idles: held back... */
	for (int i = 0; i < 10; i++)
		flow_count(&f, &b, flow_room(&f, b, 1, 1));
	assert_int_equal(flow_room(&f, b, 1, 1), 0);
	/* ...until a leaves the flow: then b is alone in it. */
	flow_leave(&f, a, 2);
	assert_int_equal(flow_room(&f, b, 1, 8), 8);
}

/* A device whose latency grows with the depth: step_ns per request in flight. */
static struct lat_target search(uint64_t target, double pct, uint64_t step_ns, unsigned depth, bool run,
				unsigned *drains)
{
	struct lat_target t;
	lt_init(&t, target, 1000000, pct, run, depth);
	uint64_t now = 1;
	*drains = 0;
	for (int i = 0; i < 2000000 && !t.done && !t.fatal; i++) {
		if (t.quiesce) {
			lt_drained(&t, now);
			++*drains;
			continue;
		}
		/* One request in 100 takes three times as long: what a percentile forgives. */
		uint64_t lat = t.qd * step_ns * (i % 100 == 0 ? 3 : 1);
		lt_complete(&t, lat, now);
		now += 1000;
	}
	return t;
}

static void test_lat_target_finds_depth(void **state)
{
	(void)state;
	unsigned drains;
	/* 10 us per request in flight, 45 us target: depth 4 (40 us), not 5 (50 us). */
	struct lat_target t = search(45000, 95.0, 10000, 64, false, &drains);
	assert_true(t.done);
	assert_false(t.fatal);
	assert_int_equal(t.qd, 4);
	assert_true(t.end_run);
	assert_true(drains >= 1); /* the last window starts from scratch */
	/* Every request counted (percentile 100): the slow one in 100 at depth 1 is 30 us; 35 us allows 1. */
	t = search(35000, 100.0, 10000, 64, false, &drains);
	assert_true(t.done);
	assert_int_equal(t.qd, 1);
	/* Always within: the depth doubles up to the job's iodepth. */
	t = search(1000000000, 100.0, 10, 64, false, &drains);
	assert_true(t.done);
	assert_int_equal(t.qd, 64);
	/* An odd ceiling is reached too. */
	t = search(1000000000, 100.0, 10, 48, false, &drains);
	assert_int_equal(t.qd, 48);
}

static void test_lat_target_never_within(void **state)
{
	(void)state;
	unsigned drains;
	/* Percentile 100 and a target even depth 1 misses: fio fails the job. */
	struct lat_target t = search(5, 100.0, 10000, 64, false, &drains);
	assert_true(t.fatal);
	assert_int_equal(t.qd, 1);
	/* A lower percentile: the search stays at depth 1 and goes on. */
	t = search(5, 50.0, 10000, 64, false, &drains);
	assert_false(t.fatal);
	assert_false(t.done);
	assert_int_equal(t.qd, 1);
}

static void test_lat_target_run(void **state)
{
	(void)state;
	unsigned drains;
	/* latency_run: never settles, yet stays at the depth the target allows. */
	struct lat_target t = search(45000, 95.0, 10000, 64, true, &drains);
	assert_false(t.done);
	assert_true(t.qd >= 3 && t.qd <= 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_budget_matches_fio_check),
		cmocka_unit_test(test_flow_ratios),
		cmocka_unit_test(test_flow_leave),
		cmocka_unit_test(test_lat_target_finds_depth),
		cmocka_unit_test(test_lat_target_never_within),
		cmocka_unit_test(test_lat_target_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
