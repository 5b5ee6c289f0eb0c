/* Unit tests for the option table, the value parsers, argument and job-file parsing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/common.h"
#include "model/cmdprio.h"
#include "options/option_cmdprio.h"
#include "cmds/commands.h"
#include "options/options.h"
#include "base/units.h"
#include "options/args.h"
#include "options/jobfile.h"
#include "cmds/help.h"
#include "suites/bonnie_opts.h"
#include "suites/matrix_opts.h"
#include "suites/sweep_opts.h"
#include "run/runner.h"
#include "model/engine.h"

/* Defined in src/cmds/run.c, src/suites/quick.c and src/suites/mix.c; no header declares them. */
extern const struct command cmd_run, cmd_quick, cmd_mix, cmd_bonnie, cmd_sweep, cmd_matrix, cmd_latency, cmd_steady, cmd_tree,
	cmd_fs, cmd_history, cmd_forget, cmd_check, cmd_import, cmd_report;

/* ---------------------------------------------------------------- helpers */

/* struct job holds two PATH_MAX strings: keep them off the stack. */
static struct job gj;
static struct settings gs;
static char err[512];

static void fresh(void)
{
	options_defaults(&gj, &gs);
	memset(err, 0, sizeof(err));
}

static const struct opt_def *opt(const char *name)
{
	const struct opt_def *o = option_find(name);
	assert_non_null(o);
	return o;
}

static int apply(const char *name, const char *val)
{
	memset(err, 0, sizeof(err));
	return option_apply(opt(name), &gj, &gs, val, err, sizeof(err));
}

/* The option is rejected with -1 and a message that names it. */
static void expect_reject(const char *name, const char *val)
{
	char want[80];
	int rc = apply(name, val);
	if (rc != -1)
		fail_msg("--%s=%s: expected -1, got %d", name, val ? val : "(null)", rc);
	snprintf(want, sizeof(want), "--%s", opt(name)->name);
	if (!strstr(err, want))
		fail_msg("--%s=%s: message '%s' does not name %s", name, val ? val : "(null)", err,
			 want);
}

static void expect_ok(const char *name, const char *val)
{
	int rc = apply(name, val);
	if (rc != 0)
		fail_msg("--%s=%s: expected 0, got %d (%s)", name, val ? val : "(null)", rc, err);
}

static void contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' does not contain '%s'", hay, needle);
}

static uint64_t size_of(const char *s)
{
	uint64_t v = 0xdeadbeef;
	if (parse_size(s, &v))
		fail_msg("parse_size(\"%s\") rejected", s);
	return v;
}

static void size_rejects(const char *s)
{
	uint64_t v = 0xdeadbeef;
	if (parse_size(s, &v) != -1)
		fail_msg("parse_size(\"%s\") accepted: %llu", s, (unsigned long long)v);
	assert_int_equal(v, 0xdeadbeef); /* untouched */
}

static uint64_t time_of(const char *s, const char *unit)
{
	uint64_t v = 0xdeadbeef;
	if (parse_time(s, unit, &v))
		fail_msg("parse_time(\"%s\", %s) rejected", s, unit ? unit : "NULL");
	return v;
}

static void time_rejects(const char *s, const char *unit)
{
	uint64_t v = 0xdeadbeef;
	if (parse_time(s, unit, &v) != -1)
		fail_msg("parse_time(\"%s\") accepted: %llu", s, (unsigned long long)v);
	assert_int_equal(v, 0xdeadbeef);
}

/* --------------------------------------------------------------- parse_size */

/* iogauge fio reads sizes as fio 3.33: the IEC spellings with a B are powers of 1000. */
static void test_parse_size_fio_units(void **state)
{
	(void)state;
	parse_size_fio_units(true);
	uint64_t kib = size_of("4KiB"), mib = size_of("1MiB"), gib = size_of("2gib"), ki = size_of("4ki"),
		 k = size_of("4k"), kb = size_of("4KB"), m = size_of("1m");
	parse_size_fio_units(false);
	assert_int_equal(kib, 4000);
	assert_int_equal(mib, 1000000);
	assert_int_equal(gib, 2000000000ULL);
	assert_int_equal(ki, 4096); /* fio reads ki (no B) as 1024 */
	assert_int_equal(k, 4096);
	assert_int_equal(kb, 4096);
	assert_int_equal(m, 1ULL << 20);
	assert_int_equal(size_of("4KiB"), 4096); /* off again: iogauge's own reading */
}

static void test_parse_size_suffixes(void **state)
{
	(void)state;
	static const struct {
		const char *s;
		uint64_t v;
	} ok[] = {
		{ "0", 0 },
		{ "1", 1 },
		{ "4096", 4096 },
		{ "18446744073709551615", UINT64_MAX },
		{ "512b", 512 },
		{ "512B", 512 },
		{ "1k", 1024 },
		{ "1K", 1024 },
		{ "1KB", 1024 },
		{ "1kb", 1024 },
		{ "1KiB", 1024 },
		{ "1kib", 1024 },
		{ "4ki", 4096 }, /* fio reads ki as KiB */
		{ "1Mi", 1ULL << 20 },
		{ "4k", 4096 },
		{ "1m", 1ULL << 20 },
		{ "1M", 1ULL << 20 },
		{ "1MB", 1ULL << 20 },
		{ "1MiB", 1ULL << 20 },
		{ "3mib", 3ULL << 20 },
		{ "1g", 1ULL << 30 },
		{ "1G", 1ULL << 30 },
		{ "1GB", 1ULL << 30 },
		{ "1GiB", 1ULL << 30 },
		{ "2gib", 2ULL << 30 },
		{ "1t", 1ULL << 40 },
		{ "1T", 1ULL << 40 },
		{ "1TB", 1ULL << 40 },
		{ "1TiB", 1ULL << 40 },
		{ "1p", 1ULL << 50 },
		{ "1P", 1ULL << 50 },
		{ "1PiB", 1ULL << 50 },
		{ "16383p", 16383ULL << 50 },
		/* Decimals that come out as whole bytes. */
		{ "1.5k", 1536 },
		{ "0.5k", 512 },
		{ ".5k", 512 },
		{ "1.25m", 1310720 },
		{ "4.5g", 4831838208ULL },
		{ "0.0009765625k", 1 },
		{ "2.0", 2 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		uint64_t v = size_of(ok[i].s);
		if (v != ok[i].v)
			fail_msg("parse_size(\"%s\") = %llu, want %llu", ok[i].s, (unsigned long long)v,
				 (unsigned long long)ok[i].v);
	}
}

static void test_parse_size_rejects(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "k", "K", "-1", "-1k", "+1", " 1", "1 ", "1 k", "1x", "1kk", "1KiBs", "1Kix",
		"1.3", "0.5", "1.1k", "0.3m", ".", "1e400", "1e5000", "20000000p", "16384p",
		"18446744073709551616", "nan", "inf", "1,5k",
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		size_rejects(bad[i]);
	uint64_t v;
	assert_int_equal(parse_size(NULL, &v), -1);
}

/* The p row of the suffix table should match the k..t rows (fio takes any case). */
static void test_parse_size_peta_spellings(void **state)
{
	(void)state;
	assert_int_equal(size_of("1TB"), 1ULL << 40);
	assert_int_equal(size_of("1tb"), 1ULL << 40);
	assert_int_equal(size_of("1tib"), 1ULL << 40);
	/* Same spellings one power up. */
	assert_int_equal(size_of("1PB"), 1ULL << 50);
	assert_int_equal(size_of("1pb"), 1ULL << 50);
	assert_int_equal(size_of("1pib"), 1ULL << 50);
}

/* --------------------------------------------------------------- parse_time */

static void test_parse_time_units(void **state)
{
	(void)state;
	assert_int_equal(time_of("5", "s"), 5 * NSEC_PER_SEC);
	assert_int_equal(time_of("5", "us"), 5000);
	assert_int_equal(time_of("5", NULL), 5 * NSEC_PER_SEC); /* no default: seconds */
	assert_int_equal(time_of("0", "s"), 0);
	assert_int_equal(time_of("0.5", "s"), 500 * NSEC_PER_MSEC);
	assert_int_equal(time_of("100ns", "s"), 100);
	assert_int_equal(time_of("7us", "s"), 7000);
	assert_int_equal(time_of("7usec", "s"), 7000);
	assert_int_equal(time_of("3ms", "s"), 3 * NSEC_PER_MSEC);
	assert_int_equal(time_of("3msec", "s"), 3 * NSEC_PER_MSEC);
	assert_int_equal(time_of("1.5ms", "s"), 1500000);
	assert_int_equal(time_of("2s", "us"), 2 * NSEC_PER_SEC); /* suffix beats default */
	assert_int_equal(time_of("2sec", "us"), 2 * NSEC_PER_SEC);
	assert_int_equal(time_of("2m", "s"), 120 * NSEC_PER_SEC);
	assert_int_equal(time_of("2min", "s"), 120 * NSEC_PER_SEC);
	assert_int_equal(time_of("1h", "s"), 3600 * NSEC_PER_SEC);
	assert_int_equal(time_of("1d", "s"), 86400 * NSEC_PER_SEC);
	assert_int_equal(time_of("1.5ns", "s"), 2); /* rounded to whole ns */
	assert_int_equal(time_of("213503d", "s"), 213503ULL * 86400 * NSEC_PER_SEC);
}

static void test_parse_time_rejects(void **state)
{
	(void)state;
	static const char *const bad[] = { "5x", "", "-5", "s", "ms", "5 s", "5ss", "5mins",
					   "1e30", "213504d", "nan", "+5" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		time_rejects(bad[i], "s");
	time_rejects("5", "bogus"); /* a default unit that is not a unit */
	uint64_t v;
	assert_int_equal(parse_time(NULL, "s", &v), -1);
}

/* ------------------------------------------------------- parse_bool / uint */

static void test_parse_bool(void **state)
{
	(void)state;
	static const char *const yes[] = { "1", "true", "yes", "on", "TRUE", "Yes", "ON" };
	static const char *const no[] = { "0", "false", "no", "off", "FALSE", "No", "OFF" };
	static const char *const bad[] = { "", "maybe", "2", "-1", "y", "n", "10", "truee", " 1" };
	bool b;
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		b = false;
		assert_int_equal(parse_bool(yes[i], &b), 0);
		assert_true(b);
	}
	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		b = true;
		assert_int_equal(parse_bool(no[i], &b), 0);
		assert_false(b);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		b = true;
		if (parse_bool(bad[i], &b) != -1)
			fail_msg("parse_bool(\"%s\") accepted", bad[i]);
		assert_true(b);
	}
}

static void test_parse_uint(void **state)
{
	(void)state;
	uint64_t v;
	assert_int_equal(parse_uint("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_uint("42", &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(parse_uint("18446744073709551615", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(parse_uint("0x10", &v), 0); /* fio takes hex too */
	assert_int_equal(v, 16);
	static const char *const bad[] = { "", "-1", "+1", " 1", "1 ", "1k", "1.0", "x",
					   "18446744073709551616", "99999999999999999999" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		v = 77;
		if (parse_uint(bad[i], &v) != -1)
			fail_msg("parse_uint(\"%s\") accepted: %llu", bad[i], (unsigned long long)v);
		assert_int_equal(v, 77);
	}
	assert_int_equal(parse_uint(NULL, &v), -1);
}

/* Leading zeros are decimal, as in fio (str_to_decimal) and in parse_size. */
static void test_parse_uint_leading_zero(void **state)
{
	(void)state;
	uint64_t v = 0;
	assert_int_equal(size_of("010"), 10);
	assert_int_equal(parse_uint("010", &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(parse_uint("08", &v), 0);
	assert_int_equal(v, 8);
	fresh();
	expect_ok("iodepth", "010");
	assert_int_equal(gj.iodepth, 10);
}

/* fio's batch options: fio's defaults once any is given, fio's fixups against iodepth. */
static void test_qbatch(void **state)
{
	(void)state;
	struct qbatch_eff q;
	char buf[64];
	fresh();
	expect_ok("iodepth", "16");
	job_qbatch_eff(&gj, &q);
	assert_true(q.submit == 16 && q.cmin == 1 && q.cmax == 16 && q.low == 16 && !q.poll);
	option_print(option_find("iodepth_batch_submit"), &gj, &gs, buf, sizeof(buf));
	assert_string_equal(buf, ""); /* none given: nothing echoed, so a saved echo stays iogauge's queue */
	expect_ok("iodepth_batch", "8");
	job_qbatch_eff(&gj, &q);
	assert_true(q.submit == 8 && q.cmin == 1 && q.cmax == 1 && q.low == 16 && !q.poll);
	option_print(option_find("iodepth_batch_complete_max"), &gj, &gs, buf, sizeof(buf));
	assert_string_equal(buf, "1");
	expect_ok("iodepth_batch_submit", "0"); /* 0: iodepth, as fio */
	expect_ok("iodepth_batch_complete", "4"); /* _max follows _min */
	expect_ok("iodepth_low", "64");           /* above iodepth: iodepth */
	job_qbatch_eff(&gj, &q);
	assert_true(q.submit == 16 && q.cmin == 4 && q.cmax == 4 && q.low == 16 && !q.poll);
	expect_ok("iodepth_batch_complete_min", "0");
	expect_ok("iodepth_batch_complete_max", "0");
	job_qbatch_eff(&gj, &q);
	assert_true(q.poll && q.cmin == 0);
	expect_ok("iodepth_batch_complete_max", ""); /* a saved echo of none given: iogauge's own queue */
	assert_int_equal(gj.qbatch.given, 0);
	expect_reject("iodepth_batch_submit", "-1");
	expect_reject("iodepth_low", "x");
	expect_ok("fill_fs", NULL);
	assert_true(gj.fill_device);
}

/* --------------------------------------------------------------- the table */

static void test_option_find(void **state)
{
	(void)state;
	const struct opt_def *a = option_find("end_fsync"), *b = option_find("end-fsync");
	assert_non_null(a);
	assert_ptr_equal(a, b);
	assert_string_equal(a->name, "end_fsync");
	a = option_find("allow-destroy");
	b = option_find("allow_destroy");
	assert_non_null(a);
	assert_ptr_equal(a, b);
	assert_string_equal(a->name, "allow-destroy");
	assert_ptr_equal(option_find("output_format"), option_find("output-format"));
	assert_ptr_equal(option_find("time-based"), option_find("time_based"));
	assert_ptr_equal(option_find("random-distribution"), option_find("random_distribution"));
	assert_string_equal(option_find("iodepth")->name, "iodepth");
	assert_null(option_find(""));
	assert_null(option_find("end"));
	assert_null(option_find("end_fsyncx"));
	assert_null(option_find("iodepth="));
	assert_null(option_find("IODEPTH"));
	assert_null(option_find("bogus"));
	/*
	 * Every option finds itself, and names are unique modulo -/_ — but for
	 * the classic tools' one-letter options, which are unique within a
	 * command (bonnie's -s is not sweep's).
	 */
	OPTIONS_EACH(o) {
		if (o->owner) {
			const struct command *own = command_find(o->owner);
			if (!own)
				fail_msg("-%s: its owner %s is no command", o->name, o->owner);
			assert_ptr_equal(option_find_cmd(o->name, strlen(o->name), own), o);
			assert_int_equal(o->group, 0);
			assert_non_null(o->help);
			/* No core row of the owner's groups shares its name. */
			const struct opt_def *core = option_find_pref(o->name, strlen(o->name), own->groups);
			assert_true(!core || !(core->group & own->groups));
			continue;
		}
		assert_ptr_equal(option_find(o->name), o);
		assert_non_null(o->help);
		/* In exactly one group, and some command takes it. */
		assert_true(o->group != 0 && (o->group & (o->group - 1)) == 0);
		assert_true((o->group & ~(unsigned)OG_ALL) == 0);
		bool taken = false;
		for (unsigned i = 0; commands[i]; i++)
			taken |= (commands[i]->groups & o->group) != 0;
		if (!taken)
			fail_msg("--%s: no command takes it", o->name);
	}
	/*
	 * The commands' own rows: each in the walk once, right after its anchor,
	 * and the core table has none (a new suite touches no core table).
	 */
	unsigned nall = 0, ncore = 0, nown = 0;
	OPTIONS_EACH(o) {
		nall++;
		nown += o->owner != NULL;
	}
	for (const struct opt_def *o = options; o->name; o++) {
		ncore++;
		assert_null(o->owner);
	}
	assert_int_equal(nall, ncore + nown);
	assert_true(nown > 0);
	assert_string_equal(option_find_cmd("s", 1, &cmd_bonnie)->owner, "bonnie");
	assert_string_equal(option_find_cmd("s", 1, &cmd_sweep)->owner, "sweep");
	assert_string_equal(option_find_cmd("s", 1, &cmd_latency)->owner, "latency");
	assert_false(option_takes(option_find_cmd("s", 1, &cmd_bonnie), &cmd_sweep));
	/* The commands are the ones named. */
	assert_ptr_equal(command_find("run"), &cmd_run);
	assert_ptr_equal(command_find("quick"), &cmd_quick);
	assert_ptr_equal(command_find("mix"), &cmd_mix);
	assert_ptr_equal(commands[0], &cmd_quick); /* the default command */
	assert_null(command_find("bogus"));
	/* Only run takes fio's job options; only the suites take --passes. */
	assert_true(cmd_run.groups & OG_FIO);
	assert_false(cmd_quick.groups & OG_FIO);
	assert_false(cmd_mix.groups & OG_FIO);
	assert_false(cmd_run.groups & OG_SUITE);
	assert_true(cmd_quick.groups & OG_SUITE);
	assert_true(cmd_run.jobs);
	assert_false(cmd_quick.jobs);
}

static void test_defaults(void **state)
{
	(void)state;
	fresh();
	assert_int_equal(gj.bs, 4096);
	assert_int_equal(gj.iodepth, 1);
	assert_int_equal(gj.numjobs, 1);
	assert_int_equal(gj.rw, RW_READ);
	assert_int_equal(gj.rwmixread, 50);
	assert_true(gj.invalidate);
	assert_true(gj.randrepeat);
	assert_false(gj.direct);
	assert_false(gj.time_based);
	assert_false(gj.end_fsync);
	assert_int_equal(gj.sync, SYNC_NONE);
	assert_int_equal(gj.size, 0);
	assert_int_equal(gj.offset, 0);
	assert_int_equal(gj.loops, 1);
	assert_int_equal(gj.randseed, 137);
	assert_int_equal(gj.runtime_ns, 0);
	assert_int_equal(gj.dist, 0);
	assert_int_equal(gj.data.mode, DATA_RANDOM);
	assert_string_equal(gj.directory, ".");
	assert_string_equal(gj.name, "");
	assert_string_equal(gj.filename, "");
	assert_ptr_equal(gj.engine, &engine_psync);
	static const double pct[] = { 1,  5,  10, 20, 30, 40,	50,    60,   70,
				      80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };
	assert_int_equal(gj.n_percentiles, 17);
	for (unsigned i = 0; i < 17; i++)
		assert_true(gj.percentiles[i] == pct[i]);
	assert_int_equal(gs.output_format, OUT_NORMAL);
	assert_int_equal(gs.passes, 1);
	assert_false(gs.allow_destroy);
	assert_false(gs.quiet);
	assert_string_equal(gs.output, "");
}

/* -------------------------------------------------------------- option_apply */

/* fio's cmdprio options: R,W values, fio's bssplit entries, the "given" bits the engine check reads. */
static void test_cmdprio(void **state)
{
	(void)state;
	fresh();
	assert_int_equal(gj.cmdprio.said, 0); /* defaults are no option given */
	assert_int_equal(gj.cmdprio.cls[0], 1);
	expect_ok("cmdprio_percentage", "30,60");
	assert_int_equal(gj.cmdprio.pct[0], 30);
	assert_int_equal(gj.cmdprio.pct[1], 60);
	expect_ok("cmdprio_percentage", "20");
	assert_int_equal(gj.cmdprio.pct[1], 20); /* one value: both directions */
	expect_reject("cmdprio_percentage", "101");
	contains(err, "0 to 100");
	expect_ok("cmdprio_class", "3,2");
	assert_int_equal(gj.cmdprio.cls[1], 2);
	expect_reject("cmdprio_class", "0");
	expect_reject("cmdprio", "8");
	assert_true(gj.cmdprio.said & CMDPRIO_SAID_PCT);
	assert_true(gj.cmdprio.said & CMDPRIO_SAID_CLASS);
	expect_ok("cmdprio_bssplit", "64k/25/1/1:1m/0:64k/75/3/2:4k/10,1m/0");
	assert_int_equal(gj.cmdprio.nsplit[0], 3); /* the zero entry dropped */
	assert_int_equal(gj.cmdprio.split[0][0].bs, 4096); /* by size */
	assert_int_equal(gj.cmdprio.split[0][0].prio, -1);
	assert_int_equal(gj.cmdprio.split[0][1].prio, 1 << 13 | 1); /* same size: order kept */
	assert_int_equal(gj.cmdprio.split[0][2].prio, 3 << 13 | 2);
	assert_int_equal(gj.cmdprio.nsplit[1], 0);
	expect_reject("cmdprio_bssplit", "4k/60:4k/50"); /* over 100 for one size */
	expect_reject("cmdprio_bssplit", "4k/10/1"); /* class without level */
	expect_reject("cmdprio_bssplit", "4k/10/4/0");
	char e2[256];
	assert_int_not_equal(cmdprio_check(&gj, "libaio", e2, sizeof(e2)), 0); /* both modes */
	expect_ok("cmdprio_percentage", "0");
	assert_int_equal(cmdprio_check(&gj, "io_uring", e2, sizeof(e2)), 0);
	assert_int_not_equal(cmdprio_check(&gj, "psync", e2, sizeof(e2)), 0);
	assert_non_null(strstr(e2, "io_uring and libaio"));
	expect_ok("hipri_percentage", "30");
	assert_int_not_equal(cmdprio_check(&gj, "io_uring", e2, sizeof(e2)), 0);
	assert_non_null(strstr(e2, "pvsync2"));
}

static void test_apply_numbers(void **state)
{
	(void)state;
	fresh();
	expect_ok("iodepth", "32");
	assert_int_equal(gj.iodepth, 32);
	expect_ok("iodepth", "4096");
	assert_int_equal(gj.iodepth, 4096);
	expect_ok("iodepth", "1");
	assert_int_equal(gj.iodepth, 1);

	expect_reject("iodepth", "0");
	contains(err, "--iodepth");
	contains(err, "1 to 4096");
	assert_int_equal(gj.iodepth, 1);
	expect_reject("iodepth", "4097");
	contains(err, "1 to 4096");
	assert_int_equal(gj.iodepth, 1);
	expect_reject("iodepth", "abc");
	expect_reject("iodepth", "-1");
	expect_reject("iodepth", "");
	expect_reject("iodepth", NULL); /* needs a value */
	contains(err, "needs a value");
	expect_reject("iodepth", "4294967297"); /* would wrap in unsigned */
	assert_int_equal(gj.iodepth, 1);

	expect_ok("numjobs", "256");
	assert_int_equal(gj.numjobs, 256);
	expect_reject("numjobs", "257");
	contains(err, "1 to 256");
	expect_reject("numjobs", "0");
	assert_int_equal(gj.numjobs, 256);

	expect_ok("bs", "64k");
	assert_int_equal(gj.bs, 65536);
	expect_ok("bs", "1g");
	assert_int_equal(gj.bs, 1ULL << 30);
	expect_reject("bs", "0");
	contains(err, "out of range");
	expect_reject("bs", "2g");
	expect_reject("bs", "1.3k");
	expect_reject("bs", "4x");
	contains(err, "not a size");
	assert_int_equal(gj.bs, 1ULL << 30);

	expect_reject("size", "0"); /* at least 1 */
	contains(err, "at least 1");
	expect_ok("size", "1g");
	assert_int_equal(gj.size, 1ULL << 30);
	expect_ok("offset", "0");
	expect_ok("offset", "1m");
	assert_int_equal(gj.offset, 1ULL << 20);

	expect_ok("rwmixread", "0");
	assert_int_equal(gj.rwmixread, 0);
	expect_ok("rwmixread", "100");
	assert_int_equal(gj.rwmixread, 100);
	expect_reject("rwmixread", "101");
	contains(err, "0 to 100");
	assert_int_equal(gj.rwmixread, 100);

	expect_ok("rwmixwrite", "30");
	assert_int_equal(gj.rwmixread, 70);
	expect_ok("rwmixwrite", "0");
	assert_int_equal(gj.rwmixread, 100);
	expect_ok("rwmixwrite", "100");
	assert_int_equal(gj.rwmixread, 0);
	expect_reject("rwmixwrite", "101");
	expect_reject("rwmixwrite", "x");
	expect_reject("rwmixwrite", NULL);
	assert_int_equal(gj.rwmixread, 0);

	expect_ok("randseed", "18446744073709551615");
	assert_int_equal(gj.randseed, UINT64_MAX);
	expect_reject("randseed", "18446744073709551616");
	expect_ok("fsync", "4294967295");
	assert_int_equal(gj.fsync_every, UINT32_MAX);
	expect_reject("fsync", "4294967296");
	expect_reject("loops", "0");

	expect_ok("runtime", "5");
	assert_int_equal(gj.runtime_ns, 5 * NSEC_PER_SEC);
	expect_ok("runtime", "250ms");
	assert_int_equal(gj.runtime_ns, 250 * NSEC_PER_MSEC);
	expect_reject("runtime", "5x");
	contains(err, "not a time");
	expect_ok("thinktime", "5"); /* bare: microseconds */
	assert_int_equal(gj.thinktime_ns, 5000);
	expect_ok("ramp_time", "2");
	assert_int_equal(gj.ramp_ns, 2 * NSEC_PER_SEC);
	expect_ok("rate", "10m");
	assert_int_equal(gj.rate_bps[0], 10ULL << 20);
	assert_int_equal(gj.rate_bps[2], 10ULL << 20);
	/* fio's READ,WRITE,TRIM: the last part given stands for the rest, an empty one keeps its value. */
	expect_ok("rate", "1m,2m");
	assert_int_equal(gj.rate_bps[0], 1ULL << 20);
	assert_int_equal(gj.rate_bps[1], 2ULL << 20);
	assert_int_equal(gj.rate_bps[2], 2ULL << 20);
	expect_ok("rate", ",3m");
	assert_int_equal(gj.rate_bps[0], 1ULL << 20);
	assert_int_equal(gj.rate_bps[1], 3ULL << 20);
	expect_ok("rate_iops", "10,20,30");
	assert_int_equal(gj.rate_iops[0], 10);
	assert_int_equal(gj.rate_iops[2], 30);
	expect_reject("rate", "1m,2m,3m,4m");
	contains(err, "not a size");
	expect_reject("rate_iops_min", "5,x");
	contains(err, "not a number");

	expect_ok("passes", "3");
	assert_int_equal(gs.passes, 3);
	expect_reject("passes", "1001");
	expect_reject("passes", "0");
}

/* fio's N% of the target's size: kept in its own byte until the runner knows the size (percent.c). */
static void test_apply_percent(void **state)
{
	(void)state;
	char buf[64];
	fresh();
	expect_ok("size", "50%");
	assert_int_equal(gj.size_pct, 50);
	assert_int_equal(gj.size, 0);
	option_print(opt("size"), &gj, &gs, buf, sizeof(buf));
	assert_string_equal(buf, "50%");
	json_t *echo = options_json(&gj, OG_ALL, "", NULL);
	assert_string_equal(json_string_value(json_object_get(echo, "size")), "50%");
	json_decref(echo);
	expect_ok("size", "16m"); /* a size in bytes clears it */
	assert_int_equal(gj.size_pct, 0);
	assert_int_equal(gj.size, 16 << 20);
	expect_ok("size", "1%");
	assert_int_equal(gj.size_pct, 1);
	expect_ok("size", "100%");
	assert_int_equal(gj.size_pct, 100);
	expect_ok("offset", "10%");
	expect_ok("fileoffset", "20%"); /* fio's alias: the same byte */
	assert_int_equal(gj.offset_pct, 20);
	expect_ok("offset_increment", "30%");
	assert_int_equal(gj.offset_increment_pct, 30);
	expect_ok("io_limit", "40%");
	assert_int_equal(gj.io_size_pct, 40);
	expect_ok("offset_align", "64k");
	assert_int_equal(gj.offset_align, 64 << 10);

	/* Each bad one in one line, the value stays. */
	expect_reject("size", "0%");
	contains(err, "--size: 0% is out of range");
	expect_reject("size", "150%");
	contains(err, "150% is out of range");
	expect_reject("io_size", "101%");
	contains(err, "from 1% to 100%");
	expect_reject("size", "12.5%");
	contains(err, "a whole number from 1% to 100%");
	contains(err, "reads it as 12 bytes");
	expect_reject("size", "%");
	contains(err, "'%' is not a size or a percentage");
	expect_reject("size", "-5%");
	contains(err, "'-5%' is not a size or a percentage");
	expect_reject("size", "50 %");
	expect_reject("size", "5x%");
	expect_reject("offset", "1000%");
	assert_int_equal(gj.size_pct, 100);
	assert_null(strchr(err, '\n'));
	/* fio 3.33 misreads a zone's N% as 2^64-1-N bytes: no percentage there. */
	expect_reject("zonesize", "10%");
	contains(err, "--zonesize takes no percentage");
	expect_reject("zonerange", "20%");
	expect_reject("zoneskip", "5%");
	expect_reject("bs", "50%");
}

static void test_apply_enum_bool_str(void **state)
{
	(void)state;
	fresh();
	static const char *const rws[] = { "read", "write", "randread", "randwrite",
					   "rw", "readwrite", "randrw" };
	for (int i = 0; i < 7; i++) {
		expect_ok("rw", rws[i]);
		assert_int_equal(gj.rw, i);
	}
	expect_reject("rw", "bogus");
	contains(err, "--rw");
	contains(err, "'bogus'");
	contains(err, "read|write|randread|randwrite|rw|readwrite|randrw");
	assert_int_equal(gj.rw, RW_RANDRW);
	expect_reject("rw", "READ");
	expect_reject("rw", "");
	expect_reject("rw", NULL);

	expect_ok("output-format", "json");
	assert_int_equal(gs.output_format, OUT_JSON);
	expect_reject("output-format", "xml");
	contains(err, "normal|json");
	expect_ok("data", "zero");
	assert_int_equal(gj.data.mode, DATA_ZERO);

	/* A tiny error buffer is truncated, never overrun (ASan watches). */
	char small[12];
	memset(small, 'x', sizeof(small));
	assert_int_equal(option_apply(opt("rw"), &gj, &gs, "bogus", small, sizeof(small)), -1);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_int_equal(option_apply(opt("ioengine"), &gj, &gs, "bogus", small, sizeof(small)), -1);
	assert_int_equal(strlen(small), sizeof(small) - 1);

	expect_ok("direct", NULL); /* bare flag */
	assert_true(gj.direct);
	expect_ok("direct", "0");
	assert_false(gj.direct);
	expect_ok("direct", "yes");
	assert_true(gj.direct);
	expect_reject("direct", "maybe");
	contains(err, "not a boolean");
	assert_true(gj.direct);
	expect_reject("end_fsync", "2");
	expect_reject("allow-destroy", "maybe");
	contains(err, "--allow-destroy");
	expect_ok("allow_destroy", NULL);
	assert_true(gs.allow_destroy);

	/* OT_STR: the field holds len - 1 characters. */
	char name[JOB_NAME_MAX + 1];
	memset(name, 'n', JOB_NAME_MAX - 1);
	name[JOB_NAME_MAX - 1] = 0;
	expect_ok("name", name);
	assert_string_equal(gj.name, name);
	name[JOB_NAME_MAX - 1] = 'n';
	name[JOB_NAME_MAX] = 0;
	expect_reject("name", name);
	contains(err, "longer than 63");
	name[JOB_NAME_MAX - 1] = 0;
	assert_string_equal(gj.name, name); /* unchanged */
	expect_reject("name", NULL);
	static char longpath[PATH_MAX + 8];
	memset(longpath, 'p', PATH_MAX);
	longpath[PATH_MAX] = 0;
	expect_reject("filename", longpath);
	contains(err, "--filename");
	longpath[PATH_MAX - 1] = 0;
	expect_ok("filename", longpath);
	assert_int_equal(strlen(gj.filename), PATH_MAX - 1);
	longpath[PATH_MAX - 1] = 'p';
	expect_reject("output", longpath);
	contains(err, "--output");
}

static void test_apply_special(void **state)
{
	(void)state;
	fresh();
	/* --buffered */
	gj.direct = true;
	expect_ok("buffered", NULL);
	assert_false(gj.direct);
	expect_ok("buffered", "0");
	assert_true(gj.direct);
	expect_ok("buffered", "1");
	assert_false(gj.direct);
	expect_reject("buffered", "maybe");
	assert_false(gj.direct);

	/* --sync */
	expect_ok("sync", "dsync");
	assert_int_equal(gj.sync, SYNC_DSYNC);
	expect_ok("sync", "0");
	assert_int_equal(gj.sync, SYNC_NONE);
	expect_ok("sync", "1");
	assert_int_equal(gj.sync, SYNC_SYNC);
	expect_ok("sync", "none");
	assert_int_equal(gj.sync, SYNC_NONE);
	expect_ok("sync", "sync");
	assert_int_equal(gj.sync, SYNC_SYNC);
	gj.sync = SYNC_NONE;
	expect_ok("sync", NULL); /* bare: O_SYNC */
	assert_int_equal(gj.sync, SYNC_SYNC);
	expect_reject("sync", "bogus");
	contains(err, "dsync");
	assert_int_equal(gj.sync, SYNC_SYNC);

	/* --ioengine */
	static const char *const names[] = { "io_uring", "libaio", "psync", "sync", "mmap", "null" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		expect_ok("ioengine", names[i]);
		assert_string_equal(gj.engine->name, names[i]);
	}
	expect_reject("ioengine", "bogus");
	contains(err, "'bogus'");
	/* The list comes from the engine registry, "auto" included. */
	contains(err, "(allowed: io_uring|libaio|psync|sync|mmap|null|inject|stdio|posixaio|falloc|ftruncate|filecreate|");
	assert_ptr_equal(gj.engine, &engine_null);
	expect_reject("ioengine", NULL);
	contains(err, "needs a value");
}

static void test_apply_distribution(void **state)
{
	(void)state;
	fresh();
	expect_ok("random_distribution", "zipf:1.2");
	assert_int_equal(gj.dist, 1);
	assert_true(gj.dist_param == 1.2);
	expect_ok("random_distribution", "pareto:0.5");
	assert_int_equal(gj.dist, 2);
	assert_true(gj.dist_param == 0.5);
	expect_ok("random_distribution", "normal:10");
	assert_int_equal(gj.dist, 3);
	assert_true(gj.dist_param == 10);
	expect_ok("random_distribution", "normal:100");
	expect_ok("random_distribution", "zipf:0.8");
	expect_ok("random_distribution", "random");
	assert_int_equal(gj.dist, 0);
	assert_true(gj.dist_param == 0);
	expect_ok("random_distribution", "zipf:1.2");

	static const char *const bad[] = { "zipf:1",      "zipf",	     "zipf:",	    "zipf:0",
					   "zipf:-1",     "zipf:1.2x",   "zipf:nan",    "zipf:inf",
					   "pareto:1.5",  "pareto:1",    "pareto:0",    "pareto",
					   "normal:0",    "normal:101",  "normal",	    "normal:-5",
					   "random:3",    "random:",     "gauss:1",	    "",
					   "Zipf:1.2",    "zipf1.2",     "pareto:nan",  "normal:nan" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		expect_reject("random_distribution", bad[i]);
		contains(err, "allowed");
		/* A rejected value leaves the previous one. */
		assert_int_equal(gj.dist, 1);
		assert_true(gj.dist_param == 1.2);
	}
	expect_reject("random_distribution", NULL);
}

static void test_apply_percentiles(void **state)
{
	(void)state;
	fresh();
	expect_ok("percentile_list", "99:99.9");
	assert_int_equal(gj.n_percentiles, 2);
	assert_true(gj.percentiles[0] == 99);
	assert_true(gj.percentiles[1] == 99.9);
	expect_ok("percentile_list", "100");
	assert_int_equal(gj.n_percentiles, 1);
	assert_true(gj.percentiles[0] == 100);

	/* Exactly MAX_PERCENTILES is fine, one more is not. */
	char list[512] = "";
	for (int i = 1; i <= MAX_PERCENTILES; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i > 1 ? ":" : "", i);
	expect_ok("percentile_list", list);
	assert_int_equal(gj.n_percentiles, MAX_PERCENTILES);
	assert_true(gj.percentiles[MAX_PERCENTILES - 1] == MAX_PERCENTILES);
	snprintf(list + strlen(list), sizeof(list) - strlen(list), ":%d", MAX_PERCENTILES + 1);
	expect_reject("percentile_list", list);
	contains(err, "32");

	expect_ok("percentile_list", "50:90");
	static const char *const bad[] = { "0:50", "50:0", "101", "50:100.5", "-1", "", ":",
					   ":50", "50::90", "50;90", "50:x", "abc", "50 90" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		expect_reject("percentile_list", bad[i]);
		/* Unchanged on error. */
		assert_int_equal(gj.n_percentiles, 2);
		assert_true(gj.percentiles[0] == 50 && gj.percentiles[1] == 90);
	}
	expect_reject("percentile_list", NULL);
}

/*
 * "50:" has an empty last entry.  ":50" and "50::90" (empty entries elsewhere)
 * are rejected, so the trailing one must be too, not read as "50".
 */
static void test_apply_percentiles_trailing_colon(void **state)
{
	(void)state;
	fresh();
	expect_ok("percentile_list", "50:90");
	expect_reject("percentile_list", "50:");
	contains(err, "'50:'");
	assert_int_equal(gj.n_percentiles, 2);
	assert_true(gj.percentiles[0] == 50 && gj.percentiles[1] == 90);
}

/* NaN is no percentile in (0, 100] (strtod reads "nan"). */
static void test_apply_percentiles_nan(void **state)
{
	(void)state;
	fresh();
	expect_ok("percentile_list", "50:90");
	expect_reject("percentile_list", "nan");
	expect_reject("percentile_list", "50:nan");
	expect_reject("percentile_list", "NAN:50");
	assert_int_equal(gj.n_percentiles, 2);
	assert_true(gj.percentiles[0] == 50 && gj.percentiles[1] == 90);
}

/* ---------------------------------------------------------------- args_parse */

static struct parsed_args cpa;
static struct ig_err ce;

/* A one-line message: no newline in it (the command layer adds "iogauge: " and one). */
static void one_line(const char *msg)
{
	if (!*msg || strchr(msg, '\n'))
		fail_msg("message '%s' is not one line", msg);
}

static void test_args_two_jobs(void **state)
{
	(void)state;
	char *argv[] = { "--direct=1", "--size", "1m", "--name=a", "--rw=write",
			 "-name=b",    "--bs",	 "8k", "job.fio",  "--iodepth", "4", NULL };
	memset(&ce, 0, sizeof(ce));
	assert_int_equal(args_parse(11, argv, &cmd_run, &cpa, &ce), 0);
	assert_int_equal(ce.status, 0);
	assert_int_equal(cpa.njobs, 2);
	assert_string_equal(cpa.jobs[0].name, "a");
	assert_string_equal(cpa.jobs[1].name, "b");
	/* Global options reach both jobs. */
	for (int i = 0; i < 2; i++) {
		assert_true(cpa.jobs[i].direct);
		assert_int_equal(cpa.jobs[i].size, 1 << 20);
	}
	/* Job options stay in their job. */
	assert_int_equal(cpa.jobs[0].rw, RW_WRITE);
	assert_int_equal(cpa.jobs[0].bs, 4096);
	assert_int_equal(cpa.jobs[0].iodepth, 1);
	assert_int_equal(cpa.jobs[1].rw, RW_READ);
	assert_int_equal(cpa.jobs[1].bs, 8192);
	assert_int_equal(cpa.jobs[1].iodepth, 4);
	assert_int_equal(cpa.global.bs, 4096);
	assert_string_equal(cpa.global.name, "");
	assert_int_equal(cpa.nwords, 1);
	assert_string_equal(cpa.words[0], "job.fio");
	assert_false(cpa.help);
	args_free(&cpa);
	assert_null(cpa.jobs);
	assert_int_equal(cpa.njobs, 0);

	/* --name=global: the options after it are defaults for the jobs after it. */
	char *argv2[] = { "--name=a", "--name=global", "--bs=64k", "--name=b", NULL };
	assert_int_equal(args_parse(4, argv2, &cmd_run, &cpa, &ce), 0);
	assert_int_equal(cpa.njobs, 2);
	assert_int_equal(cpa.jobs[0].bs, 4096);
	assert_int_equal(cpa.jobs[1].bs, 65536);
	args_free(&cpa);
}

static void test_args_misc(void **state)
{
	(void)state;
	memset(&ce, 0, sizeof(ce));
	/* No --name: options land in global, words collected, settings set. */
	char *argv[] = { "a.fio", "--output-format=json", "-", "--end-fsync",
			 "--allow_destroy", "--help", "b.fio", "--buffered", "--quiet", NULL };
	assert_int_equal(args_parse(9, argv, &cmd_run, &cpa, &ce), 0);
	assert_int_equal(cpa.njobs, 0);
	assert_int_equal(cpa.nwords, 3);
	assert_string_equal(cpa.words[0], "a.fio");
	assert_string_equal(cpa.words[1], "-");
	assert_string_equal(cpa.words[2], "b.fio");
	assert_null(cpa.words[3]);
	assert_int_equal(cpa.settings.output_format, OUT_JSON);
	assert_true(cpa.settings.allow_destroy);
	assert_true(cpa.settings.quiet);
	assert_true(cpa.global.end_fsync);
	assert_false(cpa.global.direct);
	assert_true(cpa.help);
	args_free(&cpa);

	/* A boolean does not swallow the next word; a bare --buffered neither. */
	char *argv2[] = { "--direct", "x.fio", "--buffered", "y.fio", NULL };
	assert_int_equal(args_parse(4, argv2, &cmd_run, &cpa, &ce), 0);
	assert_int_equal(cpa.nwords, 2);
	assert_string_equal(cpa.words[0], "x.fio");
	assert_string_equal(cpa.words[1], "y.fio");
	assert_false(cpa.global.direct);
	args_free(&cpa);

	/* quick takes its own options, over its own defaults. */
	char *argv3[] = { "--passes=3", "--size", "64m", "/tmp", NULL };
	assert_int_equal(args_parse(4, argv3, &cmd_quick, &cpa, &ce), 0);
	assert_int_equal(cpa.settings.passes, 3);
	assert_int_equal(cpa.global.size, 64ULL << 20);
	assert_int_equal(cpa.nwords, 1);
	assert_string_equal(cpa.words[0], "/tmp");
	assert_int_equal(cpa.global.runtime_ns, 5 * NSEC_PER_SEC); /* quick's defaults */
	assert_int_equal(cpa.global.ramp_ns, NSEC_PER_SEC);
	assert_true(cpa.global.direct);
	assert_true(cpa.global.time_based);
	args_free(&cpa);

	/* The command's defaults come first: the user's word wins, in any order. */
	char *argv4[] = { "--buffered", "--runtime=2", NULL };
	assert_int_equal(args_parse(2, argv4, &cmd_quick, &cpa, &ce), 0);
	assert_false(cpa.global.direct);
	assert_int_equal(cpa.global.runtime_ns, 2 * NSEC_PER_SEC);
	assert_int_equal(cpa.global.size, 1ULL << 30);
	assert_int_equal(cpa.nwords, 0);
	args_free(&cpa);

	/* mix: its own defaults, and the queue options quick does not take. */
	char *argv5[] = { "--iodepth=16", NULL };
	assert_int_equal(args_parse(1, argv5, &cmd_mix, &cpa, &ce), 0);
	assert_int_equal(cpa.global.iodepth, 16);
	assert_int_equal(cpa.global.numjobs, 2);
	assert_int_equal(cpa.global.size, 2ULL << 30);
	assert_int_equal(cpa.global.runtime_ns, 30 * NSEC_PER_SEC);
	args_free(&cpa);
	assert_int_equal(ce.status, 0);
}

struct argcase {
	int argc;
	char *argv[8];
	const struct command *cmd;
	const char *want; /* in the message */
};

/* The classic tools' one-letter options: each command's own, and getopt's bundles. */
static void test_args_classic(void **state)
{
	(void)state;
	char *a1[] = { "-Rab", "out.txt", "-s64G", "-i", "0", "-i1", "-y", "4k", "-q", "16k", "/data", NULL };
	memset(&ce, 0, sizeof(ce));
	assert_int_equal(args_parse(11, a1, &cmd_sweep, &cpa, &ce), 0);
	assert_true(sweep_opts_c(&cpa.settings)->excel && sweep_opts_c(&cpa.settings)->auto_mode);
	assert_string_equal(sweep_opts_c(&cpa.settings)->excel_file, "out.txt");
	assert_int_equal(sweep_opts_c(&cpa.settings)->nsizes, 1);
	assert_int_equal(sweep_opts_c(&cpa.settings)->sizes[0], 64ULL << 30);
	assert_int_equal(sweep_opts_c(&cpa.settings)->tests, 3);
	assert_int_equal(sweep_opts_c(&cpa.settings)->min_rec, 4096);
	assert_int_equal(sweep_opts_c(&cpa.settings)->max_rec, 16384); /* iozone's -q, not bonnie's */
	assert_int_equal(cpa.nwords, 1);
	args_free(&cpa);
	char *a2[] = { "-s", "100", "-r", "50", "-n", "2:4k:1k:3", "-q", "-f", "--keep-cache", NULL };
	assert_int_equal(args_parse(9, a2, &cmd_bonnie, &cpa, &ce), 0);
	assert_true(bonnie_opts_c(&cpa.settings)->keep_cache); /* bonnie++ keeps the page cache */
	assert_int_equal(bonnie_opts_c(&cpa.settings)->size, 100ULL << 20); /* MiB when bare */
	assert_int_equal(bonnie_opts_c(&cpa.settings)->ram, 50LL << 20);
	assert_int_equal(bonnie_opts_c(&cpa.settings)->nfiles, 2);
	assert_int_equal(bonnie_opts_c(&cpa.settings)->max_size, 4096);
	assert_int_equal(bonnie_opts_c(&cpa.settings)->min_size, 1024);
	assert_int_equal(bonnie_opts_c(&cpa.settings)->dirs, 3);
	assert_true(bonnie_opts_c(&cpa.settings)->csv && bonnie_opts_c(&cpa.settings)->no_chars);
	args_free(&cpa);
	/* Orion's spelling with one dash and underscores. */
	char *a3[] = { "-run", "normal", "-num_disks", "4", "-size_small", "16", "-type", "seq", NULL };
	assert_int_equal(args_parse(8, a3, &cmd_matrix, &cpa, &ce), 0);
	assert_int_equal(matrix_opts_c(&cpa.settings)->run, 1);
	assert_int_equal(matrix_opts_c(&cpa.settings)->num_disks, 4);
	assert_int_equal(matrix_opts_c(&cpa.settings)->size_small, 16384);
	assert_int_equal(matrix_opts_c(&cpa.settings)->type, 1);
	args_free(&cpa);
	/* One-letter options are the classic commands' alone; a bundle of unknown letters is refused. */
	char *a4[] = { "-s", "1", NULL };
	assert_int_equal(args_parse(2, a4, &cmd_run, &cpa, &ce), -1);
	assert_int_equal(ce.status, EXIT_USAGE);
	one_line(ce.msg);
	args_free(&cpa);
	memset(&ce, 0, sizeof(ce));
	char *a5[] = { "-Rk", NULL };
	assert_int_equal(args_parse(1, a5, &cmd_sweep, &cpa, &ce), -1);
	assert_non_null(strstr(ce.msg, "-Rk"));
	args_free(&cpa);
	memset(&ce, 0, sizeof(ce));
	char *a6[] = { "-i", "7", NULL };
	assert_int_equal(args_parse(2, a6, &cmd_sweep, &cpa, &ce), -1);
	args_free(&cpa);
	memset(&ce, 0, sizeof(ce));
}

static void test_args_errors_exit2(void **state)
{
	(void)state;
	static const struct argcase cases[] = {
		{ 1, { "--bogus=1" }, &cmd_run, "--bogus" },
		{ 1, { "--bogus" }, &cmd_run, "--bogus" },
		{ 1, { "-x" }, &cmd_run, "-x" },
		{ 1, { "--" }, &cmd_run, "unknown option" },
		{ 1, { "--iodepth=0" }, &cmd_run, "--iodepth" },
		{ 3, { "--name=a", "--iodepth", "5000" }, &cmd_run, "--iodepth" },
		{ 1, { "--bs" }, &cmd_run, "--bs needs a value" },
		{ 1, { "--name" }, &cmd_run, "--name" },
		{ 1, { "--name=" }, &cmd_run, "--name: the name is empty" },
		{ 2, { "--name", "" }, &cmd_run, "--name: the name is empty" },
		{ 1, { "--name=global2345678901234567890123456789012345678901234567890123456789" },
		  &cmd_run, "longer than 63" },
		{ 2, { "--name=a", "--rw=bogus" }, &cmd_run, "--rw" },
		{ 1, { "--direct=maybe" }, &cmd_run, "--direct" },
		{ 1, { "--direct=2" }, &cmd_run, "1, 0, true, false, yes, no, on, off" },
		{ 1, { "--ioengine=bogus" }, &cmd_run, "--ioengine" },
		{ 1, { "--random_distribution=zipf:100" }, &cmd_run, "THETA < 100" },
		{ 1, { "--passes=2" }, &cmd_run, "--passes" },   /* a suite's option */
		{ 1, { "--rw=write" }, &cmd_quick, "--rw" },     /* run's option */
		{ 1, { "--name=x" }, &cmd_quick, "--name" },
		{ 1, { "--iodepth=4" }, &cmd_quick, "--iodepth" }, /* mix takes it, quick not */
		{ 2, { "--percentile_list", "0" }, &cmd_run, "--percentile_list" },
		{ 1, { "--passes=0" }, &cmd_mix, "--passes" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&ce, 0, sizeof(ce));
		int rc = args_parse(cases[i].argc, (char **)cases[i].argv, cases[i].cmd, &cpa, &ce);
		args_free(&cpa);
		if (rc != -1 || ce.status != EXIT_USAGE)
			fail_msg("case %zu (%s %s): rc %d status %d, want -1 and 2 (%s)", i,
				 cases[i].cmd->name, cases[i].argv[0], rc, ce.status, ce.msg);
		if (!strstr(ce.msg, cases[i].want))
			fail_msg("case %zu: message '%s' lacks '%s'", i, ce.msg, cases[i].want);
		one_line(ce.msg);
	}
	/* The same arguments without the bad one parse. */
	char *fine[] = { "--bs=8k", "--direct=yes", "--random_distribution=zipf:99.5", NULL };
	memset(&ce, 0, sizeof(ce));
	assert_int_equal(args_parse(3, fine, &cmd_run, &cpa, &ce), 0);
	assert_int_equal(ce.status, 0);
	assert_true(cpa.global.direct);
	assert_true(cpa.global.dist_param == 99.5);
	args_free(&cpa);
}

/* Capture what fn writes to stderr; returns fn's value. */
static int run_cmd_stderr(const struct command *c, int argc, char **argv, char *out, size_t len)
{
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	fflush(stderr);
	int saved = dup(2);
	assert_true(saved >= 0);
	dup2(fileno(tmp), 2);
	int rc = command_run(c, argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(out, 1, len - 1, tmp);
	out[n] = 0;
	fclose(tmp);
	return rc;
}

/* The command layer prints the one line, prefixed, and exits 2: nothing runs. */
static void test_command_usage_errors(void **state)
{
	(void)state;
	char out[4096];
	char *a1[] = { "--bogus=1", NULL };
	assert_int_equal(run_cmd_stderr(&cmd_run, 1, a1, out, sizeof(out)), EXIT_USAGE);
	assert_string_equal(out, "iogauge: unknown option --bogus=1 (see iogauge run --help)\n");
	char *a2[] = { "--rw=write", NULL };
	assert_int_equal(run_cmd_stderr(&cmd_quick, 1, a2, out, sizeof(out)), EXIT_USAGE);
	assert_int_equal(strncmp(out, "iogauge: ", 9), 0);
	contains(out, "--rw");
	assert_non_null(strchr(out, '\n'));
	assert_int_equal(strchr(out, '\n')[1], 0);
	char *a3[] = { "--passes=0", NULL };
	assert_int_equal(run_cmd_stderr(&cmd_mix, 1, a3, out, sizeof(out)), EXIT_USAGE);
	assert_int_equal(strncmp(out, "iogauge: --passes", 17), 0);
}

/* ------------------------------------------------------------ args_apply_string */

static void test_apply_string(void **state)
{
	(void)state;
	struct ig_err e = { 0 };
	fresh();
	assert_int_equal(args_apply_string("--rw=randwrite --bs=8k  -iodepth=4 direct", OG_ALL, &gj,
					   &gs, &e),
			 0);
	assert_int_equal(gj.rw, RW_RANDWRITE);
	assert_int_equal(gj.bs, 8192);
	assert_int_equal(gj.iodepth, 4);
	assert_true(gj.direct);
	/* Without settings: job options only are wanted; settings go nowhere. */
	assert_int_equal(args_apply_string("--passes=7 --bs=16k", OG_ALL, &gj, NULL, &e), 0);
	assert_int_equal(gj.bs, 16384);
	assert_int_equal(gs.passes, 1);
	/* Outside the groups: refused, like on the command line. */
	assert_int_equal(args_apply_string("--bs=1m --rw=read", OG_SIZING, &gj, &gs, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	contains(e.msg, "'bs'");
	assert_int_equal(gj.bs, 16384);
	memset(&e, 0, sizeof(e));
	assert_int_equal(args_apply_string("--size=1m --runtime=0", OG_SIZING, &gj, &gs, &e), 0);
	assert_int_equal(gj.size, 1 << 20);
	/* A bad value: the first error stops the string. */
	assert_int_equal(args_apply_string("--iodepth=0 --bs=2k", OG_ALL, &gj, &gs, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	contains(e.msg, "--iodepth");
	one_line(e.msg);
	assert_int_equal(gj.bs, 16384);
	/* Every command's defaults apply cleanly. */
	const struct command *cmds[] = { &cmd_run, &cmd_quick, &cmd_mix };
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		memset(&e, 0, sizeof(e));
		fresh();
		if (cmds[i]->defaults &&
		    args_apply_string(cmds[i]->defaults, OG_ALL, &gj, &gs, &e))
			fail_msg("%s's defaults: %s", cmds[i]->name, e.msg);
	}
}

/* -------------------------------------------------------------- option_print */

/* The bytes an option keeps in job or settings. */
static const void *field_of(const struct opt_def *o, const struct job *j, const struct settings *s)
{
	return (const char *)(o->scope == SCOPE_JOB ? (const void *)j :
			      o->scope == SCOPE_OWN ? (const void *)s->own : (const void *)s) + o->off;
}

static struct job rj;
static struct settings rs;

/*
 * Print o's value in (j, s), apply it to a job whose field holds something
 * else, and check the field comes back: the same bytes (percentile_list: the
 * same count and list), and the same printed text.
 */
static void round_trip(const struct opt_def *o, const struct job *j, const struct settings *s,
		       const char *where)
{
	char buf[1024], again[1024], e[512];
	/* fio's names for parts of --data (buffer_pattern, zero_buffers, ...): --data round-trips. */
	if (o->off == offsetof(struct job, data) && strcmp(o->name, "data"))
		return;
	option_print(o, j, s, buf, sizeof(buf));
	options_defaults(&rj, &rs);
	/* Something else in the field first, so a value that does not apply shows. */
	if (o->type == OT_STR)
		snprintf((char *)field_of(o, &rj, &rs), o->len, "other");
	else if (o->type == OT_BOOL)
		*(bool *)field_of(o, &rj, &rs) = !*(const bool *)field_of(o, j, s);
	else if (o->type == OT_SPECIAL && !strcmp(o->name, "ioengine"))
		rj.engine = j->engine == &engine_null ? &engine_psync : &engine_null;
	else if (o->type == OT_SPECIAL && !strcmp(o->name, "percentile_list"))
		rj.n_percentiles = 0;
	else if (o->type == OT_SPECIAL && !strcmp(o->name, "random_distribution"))
		rj.dist = 77;
	else if (o->type == OT_SPECIAL && (!strcmp(o->name, "W") || !strcmp(o->name, "L"))) {
		/* ioping's -W and -L each set one side of the pattern: flip that side only. */
		bool w = rw_writes(j->rw), r = rw_is_random(j->rw);
		if (!strcmp(o->name, "W"))
			w = !w;
		else
			r = !r;
		rj.rw = r ? (w ? RW_RANDWRITE : RW_RANDREAD) : (w ? RW_WRITE : RW_READ);
	}
	else
		memset((char *)field_of(o, &rj, &rs), 0x5a, o->len); /* numbers, enums, sync */
	if (option_apply(o, &rj, &rs, buf, e, sizeof(e)))
		fail_msg("%s: --%s=%s, printed from its value, is refused: %s", where, o->name, buf,
			 e);
	option_print(o, &rj, &rs, again, sizeof(again));
	if (strcmp(buf, again))
		fail_msg("%s: --%s printed '%s', then '%s'", where, o->name, buf, again);
	if (!strcmp(o->name, "percentile_list")) {
		assert_int_equal(rj.n_percentiles, j->n_percentiles);
		for (unsigned i = 0; i < j->n_percentiles; i++)
			if (rj.percentiles[i] != j->percentiles[i])
				fail_msg("%s: percentile %u: %.17g came back as %.17g", where, i,
					 j->percentiles[i], rj.percentiles[i]);
		return;
	}
	if (!strcmp(o->name, "random_distribution"))
		assert_true(rj.dist_param == j->dist_param);
	if (o->type == OT_STR ? strcmp(field_of(o, &rj, &rs), field_of(o, j, s)) != 0
			      : memcmp(field_of(o, &rj, &rs), field_of(o, j, s), o->len) != 0)
		fail_msg("%s: --%s=%s does not give the value it was printed from", where, o->name,
			 buf);
}

static void test_option_print_round_trip(void **state)
{
	(void)state;
	static struct job dj;
	static struct settings ds;
	unsigned n = 0;
	/* Every core option at the table's defaults (a command's own rows: at its own, below). */
	options_defaults(&dj, &ds);
	for (const struct opt_def *o = options; o->name; o++) {
		/*
		 * No default and nothing a user could type for "unset": an empty job
		 * name and a size of 0 (run: the size of the existing file).
		 */
		if (!o->def && (!strcmp(o->name, "name") || !strcmp(o->name, "size") || !strcmp(o->name, "S")))
			continue;
		round_trip(o, &dj, &ds, "table defaults");
		n++;
	}
	unsigned total = 0;
	for (const struct opt_def *o = options; o->name; o++)
		total++;
	assert_int_equal(n + 2, total);
	/* Every option a command takes at its defaults (sizes and times of the suites, its own rows). */
	const struct command *cmds[] = { &cmd_run, &cmd_quick, &cmd_mix, &cmd_bonnie, &cmd_sweep, &cmd_matrix,
					 &cmd_latency, &cmd_steady, &cmd_tree, &cmd_fs, &cmd_history, &cmd_forget,
					 &cmd_check, &cmd_import, &cmd_report };
	unsigned owned = 0;
	for (size_t c = 0; c < ARRAY_SIZE(cmds); c++) {
		struct ig_err e = { 0 };
		options_defaults(&dj, &ds);
		assert_int_equal(args_apply_defaults(cmds[c], &dj, &ds, &e), 0);
		snprintf(dj.name, sizeof(dj.name), "job1");
		OPTIONS_EACH(o) {
			if (o->owner ? !option_owned(o, cmds[c]) : false)
				continue;
			owned += o->owner != NULL;
			if ((strcmp(o->name, "size") && strcmp(o->name, "S")) || dj.size)
				round_trip(o, &dj, &ds, cmds[c]->name);
		}
	}
	unsigned nown = 0;
	OPTIONS_EACH(o)
		nown += o->owner != NULL;
	assert_int_equal(owned, nown); /* every command's own row, at its owner's defaults */
	/* Some values that are not defaults. */
	static const struct {
		const char *name, *val, *printed;
	} vals[] = {
		{ "bs", "1536", "1536" },      { "bs", "1m", "1m" },	       { "size", "3g", "3g" },
		{ "size", "1537", "1537" },    { "offset", "5t", "5t" },       { "runtime", "90", "90s" },
		{ "runtime", "1500ms", "1500ms" }, { "runtime", "2h", "2h" }, { "thinktime", "7", "7us" },
		{ "ramp_time", "0.5", "500ms" }, { "rw", "randrw", "randrw" }, { "direct", "yes", "1" },
		{ "buffered", NULL, "1" },     { "sync", "dsync", "dsync" },   { "sync", "1", "sync" },
		{ "random_distribution", "zipf:1.2", "zipf:1.2" },
		{ "random_distribution", "pareto:0.25", "pareto:0.25" },
		{ "random_distribution", "normal:5", "normal:5" },
		{ "percentile_list", "50:99.9:99.99", "50:99.9:99.99" },
		{ "rwmixwrite", "30", "30" },  { "randseed", "18446744073709551615", "18446744073709551615" },
		{ "ioengine", "null", "null" }, { "data", "zero", "zero" },
		{ "output-format", "json", "json" }, { "passes", "1000", "1000" },
		{ "rate", "10m", "10m" }, { "rate", "1m,2m", "1m,2m" }, { "rate_iops", "1,2,3", "1,2,3" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(vals); i++) {
		char buf[256], e[256];
		options_defaults(&dj, &ds);
		const struct opt_def *o = opt(vals[i].name);
		if (option_apply(o, &dj, &ds, vals[i].val, e, sizeof(e)))
			fail_msg("--%s=%s: %s", vals[i].name, vals[i].val, e);
		option_print(o, &dj, &ds, buf, sizeof(buf));
		if (strcmp(buf, vals[i].printed))
			fail_msg("--%s=%s printed as '%s', want '%s'", vals[i].name,
				 vals[i].val ? vals[i].val : "(bare)", buf, vals[i].printed);
		round_trip(o, &dj, &ds, vals[i].name);
	}
	/* The short forms. */
	char b[64];
	print_size(0, b, sizeof(b));
	assert_string_equal(b, "0");
	print_size(4096, b, sizeof(b));
	assert_string_equal(b, "4k");
	print_size(1ULL << 50, b, sizeof(b));
	assert_string_equal(b, "1p");
	print_size(1ULL << 60, b, sizeof(b));
	assert_string_equal(b, "1024p");
	print_size(UINT64_MAX, b, sizeof(b));
	assert_string_equal(b, "18446744073709551615");
	print_time(0, b, sizeof(b));
	assert_string_equal(b, "0");
	print_time(5 * NSEC_PER_SEC, b, sizeof(b));
	assert_string_equal(b, "5s");
	print_time(90 * NSEC_PER_SEC, b, sizeof(b));
	assert_string_equal(b, "90s");
	print_time(120 * NSEC_PER_SEC, b, sizeof(b));
	assert_string_equal(b, "2m");
	print_time(1001, b, sizeof(b));
	assert_string_equal(b, "1001ns");
	print_time(7 * 3600 * NSEC_PER_SEC, b, sizeof(b));
	assert_string_equal(b, "7h");
}

/* ---------------------------------------------------------------- --help */

static void help_of(const struct command *c, char *out, size_t len)
{
	FILE *f = fmemopen(out, len, "w");
	assert_non_null(f);
	options_help(f, c);
	assert_int_equal(fclose(f), 0);
}

/* The entry of --opt=... in a --help text, its lines (wrapped to the width) joined by one blank; NULL when absent. */
static const char *help_line(const char *help, const char *opt, char *line, size_t len)
{
	char key[64];
	snprintf(key, sizeof(key), "\n  --%s=", opt);
	const char *p = strstr(help, key);
	if (!p) {
		snprintf(key, sizeof(key), "\n  --%s[", opt);
		p = strstr(help, key);
	}
	if (!p)
		return NULL;
	p++;
	const char *end = strstr(p, "\n  --");
	size_t n = end ? (size_t)(end - p) : strlen(p), k = 0;
	for (size_t i = 0; i < n && k + 1 < len; i++) {
		if (p[i] == '\n') {
			while (i + 1 < n && p[i + 1] == ' ')
				i++;
			line[k++] = ' ';
		} else {
			line[k++] = p[i];
		}
	}
	line[k] = 0;
	return line;
}

/* Is option o an entry of a --help text ("  --NAME=", "  --NAME[", "  -L", "  -s SIZE")? */
static bool help_lists(const char *help, const struct opt_def *o)
{
	char key[64];
	const char *tails = strlen(o->name) == 1 ? " \n" : "=[";
	snprintf(key, sizeof(key), "\n  %s%s", strlen(o->name) == 1 ? "-" : "--", o->name);
	for (const char *p = strstr(help, key); p; p = strstr(p + 1, key))
		if (strchr(tails, p[strlen(key)]))
			return true;
	return false;
}

/*
 * Every command lists exactly the options it accepts: each row of the table
 * on each command's parser (accepted unless "unknown option") against the
 * command's --help.  fio's job options are listed by --cmdhelp (e2e).
 */
static void test_help_lists_accepted(void **state)
{
	(void)state;
	static char out[1 << 17];
	unsigned n = 0;
	for (unsigned i = 0; commands[i]; i++) {
		const struct command *c = commands[i];
		if (c->fio_cli)
			continue;
		help_of(c, out, sizeof(out));
		OPTIONS_EACH(o) {
			char arg[80];
			snprintf(arg, sizeof(arg), "%s%s=x", strlen(o->name) == 1 ? "-" : "--", o->name);
			char *argv[] = { arg, NULL };
			struct parsed_args pa;
			struct ig_err e = { 0 };
			bool accepted = !args_parse(1, argv, c, &pa, &e) || !strstr(e.msg, "unknown option");
			args_free(&pa);
			if (accepted != help_lists(out, o))
				fail_msg("%s: %s is %s but %s", c->name, arg, accepted ? "accepted" : "refused",
					 accepted ? "not in --help" : "in --help");
			n += accepted;
		}
	}
	assert_true(n > 300);
}

static void test_help(void **state)
{
	(void)state;
	static char out[65536];
	char line[2048];
	help_of(&cmd_quick, out, sizeof(out));
	contains(out, "Usage: iogauge [quick]");
	/* quick's real defaults, not the table's. */
	if (!help_line(out, "size", line, sizeof(line)))
		fail_msg("quick --help lacks --size:\n%s", out);
	contains(line, "(default: 1g)");
	if (!help_line(out, "runtime", line, sizeof(line)))
		fail_msg("quick --help lacks --runtime");
	contains(line, "(default: 5s)");
	assert_non_null(help_line(out, "ramp_time", line, sizeof(line)));
	contains(line, "(default: 1s)");
	assert_non_null(help_line(out, "direct", line, sizeof(line)));
	contains(line, "(default: 1)");
	assert_non_null(help_line(out, "passes", line, sizeof(line)));
	contains(line, "(default: 1)");
	assert_non_null(help_line(out, "allow-destroy", line, sizeof(line)));
	/* run's options are not quick's. */
	static const char *const not_quick[] = { "rw", "bs", "name", "iodepth", "numjobs",
						 "filename", "random_distribution", "fsync" };
	for (size_t i = 0; i < ARRAY_SIZE(not_quick); i++)
		if (help_line(out, not_quick[i], line, sizeof(line)))
			fail_msg("quick --help lists --%s", not_quick[i]);
	assert_null(strstr(out, "--rw="));

	help_of(&cmd_mix, out, sizeof(out));
	assert_non_null(help_line(out, "size", line, sizeof(line)));
	contains(line, "(default: 2g)");
	assert_non_null(help_line(out, "runtime", line, sizeof(line)));
	contains(line, "(default: 30s)");
	assert_non_null(help_line(out, "iodepth", line, sizeof(line)));
	contains(line, "(default: 64)");
	assert_null(help_line(out, "rw", line, sizeof(line)));

	help_of(&cmd_run, out, sizeof(out));
	assert_non_null(help_line(out, "rw", line, sizeof(line)));
	contains(line, "(default: read)");
	assert_non_null(help_line(out, "bs", line, sizeof(line)));
	contains(line, "(default: 4k)");
	assert_null(help_line(out, "passes", line, sizeof(line)));
	/* Every option of the groups run takes is listed, and no other. */
	OPTIONS_EACH(o) {
		bool listed = help_line(out, o->name, line, sizeof(line)) != NULL;
		if (listed != option_takes(o, &cmd_run))
			fail_msg("run --help: --%s %s", o->name, listed ? "listed" : "missing");
	}
}

/* -------------------------------------------------------------- jobfile_parse */

static char tmpdir[64];

static int dir_setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iogauge-test-opts.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int dir_teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_file(char *path, size_t len, const char *name, const char *text)
{
	snprintf(path, len, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* args_parse with no arguments, then the job file: as `iogauge CMD FILE` does. */
static int parse_file(const char *path, const struct command *cmd)
{
	memset(&ce, 0, sizeof(ce));
	char *none[] = { NULL };
	assert_int_equal(args_parse(0, none, cmd, &cpa, &ce), 0);
	return jobfile_parse(path, cmd, &cpa, &ce);
}

static void test_jobfile(void **state)
{
	(void)state;
	static const char text[] = "; a fio job file\n"
				   "# another comment\n"
				   "\n"
				   "[global]\n"
				   "  bs = 16k  \n"
				   "direct\n"
				   "ioengine=libaio\r\n"
				   "size=1m\n"
				   "\n"
				   "[seq-read]\n"
				   "rw=read\n"
				   "iodepth=8\n"
				   "   ; indented comment\n"
				   "[rand write]\n"
				   "rw=randwrite\n"
				   "end-fsync=1\n"
				   "buffered\n"
				   "bs=4k\n";
	char path[256];
	write_file(path, sizeof(path), "a.fio", text);
	assert_int_equal(parse_file(path, &cmd_run), 0);
	assert_int_equal(ce.status, 0);
	assert_int_equal(cpa.njobs, 2);
	struct job *a = &cpa.jobs[0], *b = &cpa.jobs[1];
	assert_string_equal(a->name, "seq-read");
	assert_string_equal(b->name, "rand write");
	assert_int_equal(a->rw, RW_READ);
	assert_int_equal(a->bs, 16384);
	assert_int_equal(a->iodepth, 8);
	assert_true(a->direct);
	assert_false(a->end_fsync);
	assert_int_equal(a->size, 1 << 20);
	assert_ptr_equal(a->engine, &engine_libaio);
	assert_int_equal(b->rw, RW_RANDWRITE);
	assert_int_equal(b->bs, 4096);
	assert_int_equal(b->iodepth, 1);
	assert_false(b->direct); /* bare buffered */
	assert_true(b->end_fsync);
	assert_ptr_equal(b->engine, &engine_libaio);
	assert_int_equal(cpa.global.bs, 16384);
	args_free(&cpa);

	/* Command-line globals come first; the file's jobs inherit them. */
	write_file(path, sizeof(path), "b.fio", "[one]\nrw=write\n");
	char *argv[] = { "--bs=64k", "--name=cli", NULL };
	memset(&ce, 0, sizeof(ce));
	assert_int_equal(args_parse(2, argv, &cmd_run, &cpa, &ce), 0);
	assert_int_equal(jobfile_parse(path, &cmd_run, &cpa, &ce), 0);
	assert_int_equal(cpa.njobs, 2);
	assert_string_equal(cpa.jobs[0].name, "cli");
	assert_string_equal(cpa.jobs[1].name, "one");
	assert_int_equal(cpa.jobs[1].bs, 65536);
	assert_int_equal(cpa.jobs[1].rw, RW_WRITE);
	args_free(&cpa);

	/* keep is a safety option a job file may set (not the user's word alone). */
	write_file(path, sizeof(path), "c.fio", "[global]\nkeep=1\n[j]\n");
	assert_int_equal(parse_file(path, &cmd_run), 0);
	assert_true(cpa.settings.keep);
	args_free(&cpa);

	/* Exactly JOBFILE_MAX bytes is still a job file. */
	static char big[JOBFILE_MAX + 2];
	memset(big, '#', JOBFILE_MAX);
	memcpy(big, "[j]\nbs=8k\n", 10);
	big[JOBFILE_MAX - 1] = '\n';
	big[JOBFILE_MAX] = 0;
	write_file(path, sizeof(path), "max.fio", big);
	if (parse_file(path, &cmd_run))
		fail_msg("a job file of %u bytes: %s", JOBFILE_MAX, ce.msg);
	assert_int_equal(cpa.jobs[0].bs, 8192);
	args_free(&cpa);
}

/* --allow-overwrite from the environment (IOGAUGE_ALLOW_OVERWRITE): 1 gives it, 0 or empty not, else exit 2. */
static void test_allow_overwrite_env(void **state)
{
	(void)state;
	struct parsed_args pa;
	struct ig_err e = { 0 };
	char *none[] = { NULL }, *off[] = { "--allow-overwrite=0", NULL };
	const char *ok[][2] = { { "1", "1" }, { "0", "0" }, { "", "0" } };
	for (unsigned i = 0; i < 3; i++) {
		setenv(ALLOW_OVERWRITE_ENV, ok[i][0], 1);
		assert_int_equal(args_parse(0, none, &cmd_run, &pa, &e), 0);
		assert_int_equal(pa.settings.allow_overwrite, ok[i][1][0] == '1');
		args_free(&pa);
	}
	setenv(ALLOW_OVERWRITE_ENV, "1", 1);
	assert_int_equal(args_parse(0, none, &cmd_latency, &pa, &e), 0); /* every command that takes it */
	assert_true(pa.settings.allow_overwrite);
	args_free(&pa);
	assert_int_equal(args_parse(1, off, &cmd_run, &pa, &e), 0); /* the command line wins */
	assert_false(pa.settings.allow_overwrite);
	args_free(&pa);
	assert_false(pa.settings.allow_destroy);
	setenv(ALLOW_OVERWRITE_ENV, "yes\nmore", 1);
	memset(&e, 0, sizeof(e));
	assert_int_equal(args_parse(0, none, &cmd_run, &pa, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	assert_non_null(strstr(e.msg, "IOGAUGE_ALLOW_OVERWRITE=yes... in the environment"));
	assert_null(strchr(e.msg, '\n'));
	args_free(&pa);
	unsetenv(ALLOW_OVERWRITE_ENV);
}

struct filecase {
	const char *text;
	unsigned line;    /* expected in FILE:LINE */
	const char *want; /* also in the message */
};

static void test_jobfile_errors(void **state)
{
	(void)state;
	static const struct filecase cases[] = {
		{ "[global]\nbs=4k\n[j]\nbogus_key=1\n", 4, "bogus_key" },
		{ "; c\n[j]\niodepth=0\n", 3, "iodepth: 0 is out of range" },
		{ "[j]\nrw\n", 2, "rw needs a value" },
		{ "[j]\ndirect=maybe\n", 2, "direct: 'maybe'" },
		{ "[j]\nend-fsync=maybe\n", 2, "end-fsync: 'maybe'" },
		{ "bs=4k\n[j]\n", 1, "outside a section" },
		{ "[j\nbs=4k\n", 1, "section" },
		{ "[]\n", 1, "section" },
		{ "[j]\nrandom_distribution=zipf:1\n", 2, "random_distribution: 'zipf:1'" },
		/* Another command's option, as on the command line. */
		{ "[global]\nbs=4k\n[j]\npasses=5\n", 4, "passes" },
		/* The user's word alone: never from a file. */
		{ "[global]\nallow-destroy\n[j]\n", 2, "allow-destroy" },
		{ "[j]\n\nallow_overwrite=1\n", 3, "allow_overwrite" },
		{ "[j]\nallow_destroy=0\n", 2, "command line" },
		{ "[j]\nname=\n", 2, "name: the name is empty" },
	};
	char path[256], want[300];
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		write_file(path, sizeof(path), "bad.fio", cases[i].text);
		int rc = parse_file(path, &cmd_run);
		args_free(&cpa);
		if (rc != -1 || ce.status != EXIT_USAGE)
			fail_msg("case %zu: rc %d status %d, want -1 and 2 (%s)", i, rc, ce.status,
				 ce.msg);
		snprintf(want, sizeof(want), "%s:%u: ", path, cases[i].line);
		if (strncmp(ce.msg, want, strlen(want)))
			fail_msg("case %zu: message '%s' does not start with '%s'", i, ce.msg, want);
		contains(ce.msg, cases[i].want);
		one_line(ce.msg);
	}
	/* The refused options leave the settings alone. */
	write_file(path, sizeof(path), "bad.fio", "[global]\nallow-destroy=1\n[j]\n");
	assert_int_equal(parse_file(path, &cmd_run), -1);
	assert_false(cpa.settings.allow_destroy);
	args_free(&cpa);

	/* A missing file. */
	snprintf(path, sizeof(path), "%s/missing.fio", tmpdir);
	assert_int_equal(parse_file(path, &cmd_run), -1);
	args_free(&cpa);
	assert_int_equal(ce.status, EXIT_USAGE);
	contains(ce.msg, path);
	contains(ce.msg, strerror(ENOENT));
}

/*
 * Run jobfile_parse in a child that is killed after 5 s: a job file that
 * blocks fails the test instead of hanging it.  The child reports its
 * status as its exit code and its message on a pipe.
 */
static int jobfile_in_child(const char *path, char *msg, size_t len, double *secs)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	fflush(stdout);
	fflush(stderr);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		alarm(5);
		int rc = parse_file(path, &cmd_run);
		ssize_t w = write(p[1], ce.msg, strlen(ce.msg));
		(void)w;
		_exit(rc ? ce.status : 0); /* _exit: no LeakSanitizer scan in the child */
	}
	close(p[1]);
	size_t got = 0;
	for (;;) {
		ssize_t r = read(p[0], msg + got, len - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	msg[got] = 0;
	close(p[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* What is not a small regular text file is refused at once, with status 2 and the reason. */
static void test_jobfile_not_a_file(void **state)
{
	(void)state;
	char fifo[256], empty[256], nul[256], big[256], msg[2048];
	snprintf(fifo, sizeof(fifo), "%s/fifo.fio", tmpdir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	write_file(empty, sizeof(empty), "empty.fio", "");
	write_file(nul, sizeof(nul), "nul.fio", "[j]\nbs=4k\n");
	FILE *f = fopen(nul, "a");
	assert_non_null(f);
	assert_int_equal(fwrite("rw=read\n\0[k]\n", 1, 13, f), 13);
	fclose(f);
	snprintf(big, sizeof(big), "%s/big.fio", tmpdir);
	f = fopen(big, "w");
	assert_non_null(f);
	fputs("[j]\n", f);
	for (unsigned i = 4; i <= JOBFILE_MAX; i++)
		fputc(i % 64 ? '#' : '\n', f);
	assert_int_equal(fclose(f), 0);

	static char toolong[64];
	snprintf(toolong, sizeof(toolong), "%u", JOBFILE_MAX);
	const struct {
		const char *path, *want, *want2;
	} cases[] = {
		{ tmpdir, "a directory", "not a regular file" },
		{ fifo, "a FIFO", "not a regular file" },
		{ "/dev/zero", "a character device", "not a regular file" },
		{ empty, "not a job file", "no [section]" },
		{ nul, "a NUL byte", "nul.fio:4:" }, /* the line it is on */
		{ big, "too large", toolong },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		double secs;
		int st = jobfile_in_child(cases[i].path, msg, sizeof(msg), &secs);
		if (st != EXIT_USAGE)
			fail_msg("%s: status %d, want 2 (%s)", cases[i].path, st,
				 st == -1 ? "killed: it blocked" : msg);
		if (secs > 2)
			fail_msg("%s: took %.1f s", cases[i].path, secs);
		contains(msg, cases[i].path);
		contains(msg, cases[i].want);
		contains(msg, cases[i].want2);
		one_line(msg);
	}
	/* The same checks in this process: nothing leaks, the FIFO is not waited on. */
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!strcmp(cases[i].path, fifo))
			continue; /* proven above not to block; here it could hang the run */
		assert_int_equal(parse_file(cases[i].path, &cmd_run), -1);
		assert_int_equal(ce.status, EXIT_USAGE);
		assert_int_equal(cpa.njobs, 0);
		args_free(&cpa);
	}
	unlink(fifo);
}

/* ---------------------------------------------------------------- job_validate */

static struct job vj;
static struct ig_err ve;

static void valid_job(void)
{
	struct settings s;
	options_defaults(&vj, &s);
	snprintf(vj.name, sizeof(vj.name), "v");
	vj.size = 1 << 20;
}

static int validate(void)
{
	memset(&ve, 0, sizeof(ve));
	return job_normalise(&vj, &ve) ? -1 : job_validate(&vj, &ve);
}

static void expect_validate_refused(const char *want)
{
	int rc = validate();
	if (rc != -1 || ve.status != EXIT_USAGE)
		fail_msg("job_validate: rc %d status %d, want -1 and 2 (%s)", rc, ve.status, want);
	contains(ve.msg, want);
	contains(ve.msg, "job v");
	one_line(ve.msg);
}

static void expect_validate_ok(void)
{
	int rc = validate();
	if (rc != 0 || ve.status != 0)
		fail_msg("job_validate: rc %d status %d: %s", rc, ve.status, ve.msg);
}

static void test_job_validate(void **state)
{
	(void)state;
	/* A plain job passes untouched. */
	valid_job();
	struct job copy = vj;
	expect_validate_ok();
	assert_memory_equal(&copy, &vj, sizeof(vj));

	valid_job();
	vj.time_based = true;
	expect_validate_refused("--time_based needs --runtime");
	vj.runtime_ns = NSEC_PER_SEC;
	expect_validate_ok();

	/* Sync engine, iodepth 8: iodepth 1, as in fio (the runner says so: tests/e2e/test_engines.sh). */
	valid_job();
	vj.iodepth = 8;
	expect_validate_ok();
	assert_int_equal(vj.iodepth, 1);
	/* An async engine keeps its depth. */
	valid_job();
	vj.engine = &engine_libaio;
	vj.iodepth = 8;
	copy = vj;
	expect_validate_ok();
	assert_int_equal(vj.iodepth, 8);
	assert_memory_equal(&copy, &vj, sizeof(vj));
	/* job_validate alone only checks: the changes (iodepth 1, pre_read's invalidate) are job_normalise's. */
	valid_job();
	vj.iodepth = 8;
	vj.pre_read = true;
	copy = vj;
	memset(&ve, 0, sizeof(ve));
	assert_int_equal(job_validate(&vj, &ve), 0);
	assert_memory_equal(&copy, &vj, sizeof(vj));
	assert_int_equal(job_normalise(&vj, &ve), 0);
	assert_int_equal(vj.iodepth, 1);
	assert_false(vj.invalidate);

	valid_job();
	vj.bs = 2 << 20;
	expect_validate_refused("--bs=2097152 is larger than --size=1048576");
	vj.bs = 1 << 20; /* equal is fine */
	expect_validate_ok();

	valid_job();
	vj.engine = &engine_mmap;
	vj.direct = true;
	expect_validate_refused("mmap");
	vj.direct = false;
	expect_validate_ok();

	/* No size and no file to size it by; the null engine needs a size too. */
	valid_job();
	vj.size = 0;
	expect_validate_refused("--size");
	snprintf(vj.filename, sizeof(vj.filename), "/dev/null");
	expect_validate_ok();
	valid_job();
	vj.engine = &engine_null;
	vj.size = 0;
	expect_validate_refused("--size");
	vj.filesize[0] = vj.filesize[1] = 1 << 20; /* fio's t0019...: filesize alone sizes it */
	expect_validate_ok();
	/* The null engine has no file to sync. */
	valid_job();
	vj.engine = &engine_null;
	vj.fsync_every = 4;
	expect_validate_refused("--fsync");
	vj.fsync_every = 0;
	expect_validate_ok();

	/* Trims: an engine that trims, and nothing to verify. */
	valid_job();
	vj.rw = RW_TRIMWRITE;
	expect_validate_ok();
	vj.engine = &engine_stdio;
	expect_validate_refused("--ioengine=stdio cannot trim (--rw=trimwrite)");
	vj.engine = &engine_psync;
	vj.verify = 1;
	expect_validate_refused("--verify");
	valid_job();
	vj.engine = &engine_ftruncate;
	expect_validate_refused("--ioengine=ftruncate takes writes only");
	vj.rw = RW_RANDWRITE;
	expect_validate_ok();
	/* fio's file engines are --fileop jobs under their own name. */
	valid_job();
	vj.engine = &engine_filestat;
	expect_validate_ok();
	assert_int_equal(vj.fileop, FILEOP_STAT);
	assert_ptr_equal(vj.engine, &engine_filestat);
	valid_job();
	vj.engine = &engine_filecreate;
	vj.fileop = FILEOP_UNLINK;
	expect_validate_refused("different operations");
	/* Strided zones: a zonesize needs the mode (fio 3.33), zonerange defaults to zonesize. */
	valid_job();
	vj.zonesize = 64 << 10;
	expect_validate_refused("--zonesize needs --zonemode=strided");
	vj.zonemode = ZONEMODE_STRIDED;
	expect_validate_ok();
	assert_int_equal(vj.zonerange, 64 << 10);
	vj.bsrange[0][0] = vj.bsrange[1][0] = 1024;
	vj.bsrange[0][1] = vj.bsrange[1][1] = 8192;
	expect_validate_refused("--zonemode=strided takes one file and one block size");
	valid_job();
	vj.zonemode = ZONEMODE_STRIDED;
	expect_validate_refused("--zonemode=strided needs --zonesize");

	/* The region must end below 2^63 (off_t). */
	valid_job();
	vj.offset = (uint64_t)INT64_MAX - 1024;
	vj.size = 4096;
	expect_validate_refused("--offset");
	vj.offset = (uint64_t)INT64_MAX - 4096;
	expect_validate_ok();

	/* The first cause is kept: a second refusal does not overwrite it. */
	valid_job();
	vj.time_based = true;
	expect_validate_refused("--time_based");
	vj.time_based = false;
	vj.size = 0;
	assert_int_equal(job_validate(&vj, &ve), -1);
	contains(ve.msg, "--time_based");
}

/*
 * fio's null engine: synchronous at iodepth=1 and queueing above it, so an
 * iodepth of 8 is kept (no note that it acts as 1) and requests go in 8 at a
 * time.  (A synchronous engine's note: tests/e2e/test_engines.sh, psync and sync.)
 */
static void test_null_iodepth(void **state)
{
	(void)state;
	static struct job j[2];
	struct settings s;
	options_defaults(&j[0], &s);
	snprintf(j[0].name, sizeof(j[0].name), "deep");
	j[0].engine = &engine_null;
	j[0].size = 64 << 10;
	j[0].iodepth = 8;
	j[1] = j[0];
	snprintf(j[1].name, sizeof(j[1].name), "shallow");
	j[1].iodepth = 1;
	struct run_ctx c;
	ctx_init(&c);
	struct run_opts o = { 0 };
	static struct run_result r;
	int rc = runner_run(&c, j, 2, &o, &r);
	if (rc != 0)
		fail_msg("runner_run: %d (%s)", rc, r.err.msg);
	assert_int_equal(r.nnotes, 0);
	assert_ptr_equal(r.jobs[0].job.engine, &engine_null_async);
	assert_int_equal(r.jobs[0].job.iodepth, 8);
	assert_int_equal(r.jobs[0].total.op[IO_READ].ios, 16);
	assert_int_equal(r.jobs[0].total.depth[depth_bucket(8)], 16); /* every request queued at depth 8 */
	assert_true(r.jobs[0].total.op[IO_READ].slat.n == 16); /* asynchronous: a submission latency each */
	assert_ptr_equal(r.jobs[1].job.engine, &engine_null);
	assert_int_equal(r.jobs[1].total.op[IO_READ].ios, 16);
	run_result_free(&r);
	ctx_finish(&c);
}

/* Every fio option iogauge refuses has a reason (fio_refused.c), and no reason names a built option. */
static void test_fio_refusals(void **state)
{
	(void)state;
	unsigned refused = 0;
	for (const struct fio_name *fn = fio_names; fn->name; fn++) {
		char buf[256];
		const char *why = fio_name_why(fn, buf, sizeof(buf));
		if (option_find(fn->name)) {
			if (why && !fn->engines)
				fail_msg("%s is built but fio_refused.c gives a reason", fn->name);
			continue;
		}
		refused++;
		if (!why || !*why)
			fail_msg("%s is refused without a reason", fn->name);
	}
	assert_true(refused > 100);
	/* The current HOWTO's options are in the list too. */
	const struct fio_name *n = fio_name_find("sprandom", 8);
	assert_non_null(n);
	assert_true(n->newer);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size_suffixes),
		cmocka_unit_test(test_parse_size_fio_units),
		cmocka_unit_test(test_parse_size_rejects),
		cmocka_unit_test(test_parse_size_peta_spellings),
		cmocka_unit_test(test_parse_time_units),
		cmocka_unit_test(test_parse_time_rejects),
		cmocka_unit_test(test_parse_bool),
		cmocka_unit_test(test_parse_uint),
		cmocka_unit_test(test_parse_uint_leading_zero),
		cmocka_unit_test(test_option_find),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_apply_numbers),
		cmocka_unit_test(test_apply_percent),
		cmocka_unit_test(test_cmdprio),
		cmocka_unit_test(test_apply_enum_bool_str),
		cmocka_unit_test(test_apply_special),
		cmocka_unit_test(test_apply_distribution),
		cmocka_unit_test(test_apply_percentiles),
		cmocka_unit_test(test_apply_percentiles_trailing_colon),
		cmocka_unit_test(test_apply_percentiles_nan),
		cmocka_unit_test(test_args_two_jobs),
		cmocka_unit_test(test_args_misc),
		cmocka_unit_test(test_args_classic),
		cmocka_unit_test(test_args_errors_exit2),
		cmocka_unit_test(test_command_usage_errors),
		cmocka_unit_test(test_apply_string),
		cmocka_unit_test(test_option_print_round_trip),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_help_lists_accepted),
		cmocka_unit_test(test_jobfile),
		cmocka_unit_test(test_allow_overwrite_env),
		cmocka_unit_test(test_jobfile_errors),
		cmocka_unit_test(test_jobfile_not_a_file),
		cmocka_unit_test(test_job_validate),
		cmocka_unit_test(test_null_iodepth),
		cmocka_unit_test(test_qbatch),
		cmocka_unit_test(test_fio_refusals),
	};
	return cmocka_run_group_tests(tests, dir_setup, dir_teardown);
}
