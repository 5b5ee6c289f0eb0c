/*
 * struct job's two parts: the options (what the user said) and the plan
 * (what commands, the runner and job_normalise set).  No option may write
 * the plan, by its field or through a setter.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "model/job.h"
#include "options/options.h"

static struct job gj, before;
static struct settings gs;

static bool overlaps_plan(size_t off, size_t len)
{
	size_t p = offsetof(struct job, plan), pe = p + sizeof(struct job_plan);
	return off < pe && off + len > p;
}

/* A row's own field lies outside the plan. */
static void test_no_row_in_plan(void **state)
{
	(void)state;
	unsigned n = 0;
	OPTIONS_EACH(o) {
		if (o->scope != SCOPE_JOB || o->type == OT_SPECIAL)
			continue;
		if (overlaps_plan(o->off, o->len))
			fail_msg("--%s writes struct job_plan (offset %zu)", o->name, o->off);
		n++;
	}
	assert_true(n > 100); /* the table was walked */
}

/* Every job option applied with the value it prints leaves a marked plan as it was. */
static void test_setters_leave_plan(void **state)
{
	(void)state;
	unsigned n = 0;
	OPTIONS_EACH(o) {
		if (o->scope != SCOPE_JOB)
			continue;
		char buf[1024], err[512];
		options_defaults(&gj, &gs);
		memset(&gj.plan, 0xa5, sizeof(gj.plan));
		option_print(o, &gj, &gs, buf, sizeof(buf));
		memcpy(&before, &gj, sizeof(gj));
		if (option_apply(o, &gj, &gs, buf, err, sizeof(err)))
			continue; /* a value refused changes nothing worth checking here */
		if (memcmp(&before.plan, &gj.plan, sizeof(gj.plan)))
			fail_msg("--%s=%s changed struct job_plan", o->name, buf);
		n++;
	}
	assert_true(n > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_row_in_plan),
		cmocka_unit_test(test_setters_leave_plan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
