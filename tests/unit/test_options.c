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
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "options.h"
#include "engines/engine.h"

/* common.c needs it; weak so the real one wins when linked with everything. */
void cleanup_files(void) __attribute__((weak));
void cleanup_files(void) {}

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

/*
 * In a child, leave at once with die_usage's status: registered after the
 * sanitizers' own exit hooks it runs before them, and skips LeakSanitizer's
 * whole-heap scan at exit (0.1 s a child under ASan).  The parent still checks.
 */
static void child_exit_now(int status, void *arg)
{
	(void)arg;
	fflush(stderr);
	_exit(status);
}

/*
 * Run fn(arg) in a child whose stderr goes to a pipe.  Returns the child's
 * exit status (-1 if killed by a signal); its stderr is in out.  A child whose
 * fn returns exits 0.
 */
static int run_child(void (*fn)(void *), void *arg, char *out, size_t outlen)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		dup2(p[1], 2);
		close(p[1]);
		on_exit(child_exit_now, NULL);
		fn(arg);
		fflush(stderr);
		_exit(0);
	}
	close(p[1]);
	size_t got = 0;
	for (;;) {
		char tmp[512];
		ssize_t r = read(p[0], tmp, sizeof(tmp));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		size_t take = (size_t)r;
		if (got + take > outlen - 1)
			take = outlen - 1 - got;
		memcpy(out + got, tmp, take);
		got += take;
	}
	out[got] = 0;
	close(p[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Capture what fn writes to stderr in this process. */
static void capture_stderr(void (*fn)(void *), void *arg, char *out, size_t outlen)
{
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	fflush(stderr);
	int saved = dup(2);
	assert_true(saved >= 0);
	dup2(fileno(tmp), 2);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(out, 1, outlen - 1, tmp);
	out[n] = 0;
	fclose(tmp);
}

/* --------------------------------------------------------------- parse_size */

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
		"", "k", "K", "-1", "-1k", "+1", " 1", "1 ", "1 k", "1x", "1kk", "1KiBs", "1Ki",
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
	/* Every option finds itself, and names are unique modulo -/_. */
	for (const struct opt_def *o = options; o->name; o++) {
		assert_ptr_equal(option_find(o->name), o);
		assert_non_null(o->help);
		assert_true(o->cmds != 0);
	}
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
	assert_int_equal(gj.data, DATA_RANDOM);
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
	assert_int_equal(gj.rate_bps, 10ULL << 20);

	expect_ok("passes", "3");
	assert_int_equal(gs.passes, 3);
	expect_reject("passes", "1001");
	expect_reject("passes", "0");
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
	assert_int_equal(gj.data, DATA_ZERO);

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
	contains(err, "(allowed: io_uring libaio psync sync mmap null)");
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

static struct parsed_args cpa; /* static: reachable from the children's exit too */

static void pa_init(void)
{
	memset(&cpa, 0, sizeof(cpa));
	options_defaults(&cpa.global, &cpa.settings);
}

static void test_args_two_jobs(void **state)
{
	(void)state;
	char *argv[] = { "--direct=1", "--size", "1m", "--name=a", "--rw=write",
			 "-name=b",    "--bs",	 "8k", "job.fio",  "--iodepth", "4", NULL };
	pa_init();
	args_parse(11, argv, CMD_RUN, &cpa);
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
}

static void test_args_misc(void **state)
{
	(void)state;
	/* No --name: options land in global, words collected, settings set. */
	char *argv[] = { "a.fio", "--output-format=json", "-", "--end-fsync",
			 "--allow_destroy", "--help", "b.fio", "--buffered", "--quiet", NULL };
	pa_init();
	args_parse(9, argv, CMD_RUN, &cpa);
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
	pa_init();
	args_parse(4, argv2, CMD_RUN, &cpa);
	assert_int_equal(cpa.nwords, 2);
	assert_string_equal(cpa.words[0], "x.fio");
	assert_string_equal(cpa.words[1], "y.fio");
	assert_false(cpa.global.direct);
	args_free(&cpa);

	/* quick takes its own options. */
	char *argv3[] = { "--passes=3", "--size", "64m", "/tmp", NULL };
	pa_init();
	args_parse(4, argv3, CMD_QUICK, &cpa);
	assert_int_equal(cpa.settings.passes, 3);
	assert_int_equal(cpa.global.size, 64ULL << 20);
	assert_int_equal(cpa.nwords, 1);
	args_free(&cpa);
}

struct argcase {
	int argc;
	char *argv[8];
	unsigned cmd;
	const char *want; /* in the stderr line */
};

static void child_args(void *arg)
{
	struct argcase *c = arg;
	pa_init();
	args_parse(c->argc, c->argv, c->cmd, &cpa);
}

static void test_args_errors_exit2(void **state)
{
	(void)state;
	static struct argcase cases[] = {
		{ 1, { "--bogus=1" }, CMD_RUN, "--bogus" },
		{ 1, { "--bogus" }, CMD_RUN, "--bogus" },
		{ 1, { "-x" }, CMD_RUN, "-x" },
		{ 1, { "--" }, CMD_RUN, "unknown option" },
		{ 1, { "--iodepth=0" }, CMD_RUN, "--iodepth" },
		{ 3, { "--name=a", "--iodepth", "5000" }, CMD_RUN, "--iodepth" },
		{ 1, { "--bs" }, CMD_RUN, "--bs needs a value" },
		{ 1, { "--name" }, CMD_RUN, "--name" },
		{ 2, { "--name=a", "--rw=bogus" }, CMD_RUN, "--rw" },
		{ 1, { "--direct=maybe" }, CMD_RUN, "--direct" },
		{ 1, { "--ioengine=bogus" }, CMD_RUN, "--ioengine" },
		{ 1, { "--passes=2" }, CMD_RUN, "--passes" },   /* quick's option */
		{ 1, { "--rw=write" }, CMD_QUICK, "--rw" },     /* run's option */
		{ 1, { "--name=x" }, CMD_QUICK, "--name" },
		{ 2, { "--percentile_list", "0" }, CMD_RUN, "--percentile_list" },
	};
	char out[4096];
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int st = run_child(child_args, &cases[i], out, sizeof(out));
		if (st != 2)
			fail_msg("case %zu (%s): exit %d, want 2; stderr: %s", i, cases[i].argv[0], st,
				 out);
		if (strncmp(out, "iogauge: ", 9) || !strstr(out, cases[i].want))
			fail_msg("case %zu: stderr '%s' lacks '%s'", i, out, cases[i].want);
		/* One line. */
		char *nl = strchr(out, '\n');
		assert_non_null(nl);
		assert_int_equal(nl[1], 0);
	}
	/* The harness itself: a child that returns exits 0. */
	static struct argcase fine = { 1, { "--bs=8k" }, CMD_RUN, "" };
	assert_int_equal(run_child(child_args, &fine, out, sizeof(out)), 0);
	assert_string_equal(out, "");
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
	pa_init();
	jobfile_parse(path, &cpa);
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
	pa_init();
	char *argv[] = { "--bs=64k", "--name=cli", NULL };
	args_parse(2, argv, CMD_RUN, &cpa);
	jobfile_parse(path, &cpa);
	assert_int_equal(cpa.njobs, 2);
	assert_string_equal(cpa.jobs[0].name, "cli");
	assert_string_equal(cpa.jobs[1].name, "one");
	assert_int_equal(cpa.jobs[1].bs, 65536);
	assert_int_equal(cpa.jobs[1].rw, RW_WRITE);
	args_free(&cpa);
}

struct filecase {
	const char *text;
	unsigned line;    /* expected in FILE:LINE */
	const char *want; /* also in the message */
};

static void child_jobfile(void *arg)
{
	pa_init();
	jobfile_parse(arg, &cpa);
}

static void test_jobfile_errors(void **state)
{
	(void)state;
	static const struct filecase cases[] = {
		{ "[global]\nbs=4k\n[j]\nbogus_key=1\n", 4, "bogus_key" },
		{ "; c\n[j]\niodepth=0\n", 3, "--iodepth" },
		{ "[j]\nrw\n", 2, "--rw needs a value" },
		{ "[j]\ndirect=maybe\n", 2, "--direct" },
		{ "bs=4k\n[j]\n", 1, "outside a section" },
		{ "[j\nbs=4k\n", 1, "section" },
		{ "[]\n", 1, "section" },
		{ "[j]\nrandom_distribution=zipf:1\n", 2, "--random_distribution" },
	};
	char path[256], out[4096], want[300];
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		write_file(path, sizeof(path), "bad.fio", cases[i].text);
		int st = run_child(child_jobfile, path, out, sizeof(out));
		if (st != 2)
			fail_msg("case %zu: exit %d, want 2; stderr: %s", i, st, out);
		snprintf(want, sizeof(want), "iogauge: %s:%u: ", path, cases[i].line);
		if (strncmp(out, want, strlen(want)))
			fail_msg("case %zu: stderr '%s' does not start with '%s'", i, out, want);
		contains(out, cases[i].want);
	}
	/* A missing file. */
	snprintf(path, sizeof(path), "%s/missing.fio", tmpdir);
	assert_int_equal(run_child(child_jobfile, path, out, sizeof(out)), 2);
	contains(out, path);
}

/* ---------------------------------------------------------------- job_validate */

static struct job vj;

static void valid_job(void)
{
	struct settings s;
	options_defaults(&vj, &s);
	snprintf(vj.name, sizeof(vj.name), "v");
	vj.size = 1 << 20;
}

static void child_validate(void *arg)
{
	(void)arg;
	job_validate(&vj);
}

static void call_validate(void *arg)
{
	job_validate(arg);
}

static void expect_validate_exit(const char *want)
{
	char out[2048];
	int st = run_child(child_validate, NULL, out, sizeof(out));
	if (st != 2)
		fail_msg("job_validate: exit %d, want 2 (%s); stderr: %s", st, want, out);
	contains(out, want);
}

static void test_job_validate(void **state)
{
	(void)state;
	char out[2048];

	/* A plain job passes untouched and quietly. */
	valid_job();
	struct job copy = vj;
	capture_stderr(call_validate, &vj, out, sizeof(out));
	assert_string_equal(out, "");
	assert_memory_equal(&copy, &vj, sizeof(vj));

	valid_job();
	vj.time_based = true;
	expect_validate_exit("--time_based needs --runtime");
	vj.runtime_ns = NSEC_PER_SEC;
	assert_int_equal(run_child(child_validate, NULL, out, sizeof(out)), 0);

	/* Sync engine, iodepth 8: a warning, then iodepth 1. */
	valid_job();
	vj.iodepth = 8;
	capture_stderr(call_validate, &vj, out, sizeof(out));
	assert_int_equal(vj.iodepth, 1);
	contains(out, "warning");
	contains(out, "--iodepth=8");
	contains(out, "psync");
	/* An async engine keeps its depth. */
	valid_job();
	vj.engine = &engine_libaio;
	vj.iodepth = 8;
	capture_stderr(call_validate, &vj, out, sizeof(out));
	assert_int_equal(vj.iodepth, 8);
	assert_string_equal(out, "");

	valid_job();
	vj.bs = 2 << 20;
	expect_validate_exit("--bs=2097152 is larger than --size=1048576");
	vj.bs = 1 << 20; /* equal is fine */
	assert_int_equal(run_child(child_validate, NULL, out, sizeof(out)), 0);

	valid_job();
	vj.engine = &engine_mmap;
	vj.direct = true;
	expect_validate_exit("mmap");
	vj.direct = false;
	assert_int_equal(run_child(child_validate, NULL, out, sizeof(out)), 0);

	/* No size and no file to size it by; the null engine needs a size too. */
	valid_job();
	vj.size = 0;
	expect_validate_exit("--size");
	snprintf(vj.filename, sizeof(vj.filename), "/dev/null");
	assert_int_equal(run_child(child_validate, NULL, out, sizeof(out)), 0);
	valid_job();
	vj.engine = &engine_null;
	vj.size = 0;
	expect_validate_exit("--size");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size_suffixes),
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
		cmocka_unit_test(test_apply_enum_bool_str),
		cmocka_unit_test(test_apply_special),
		cmocka_unit_test(test_apply_distribution),
		cmocka_unit_test(test_apply_percentiles),
		cmocka_unit_test(test_apply_percentiles_trailing_colon),
		cmocka_unit_test(test_apply_percentiles_nan),
		cmocka_unit_test(test_args_two_jobs),
		cmocka_unit_test(test_args_misc),
		cmocka_unit_test(test_args_errors_exit2),
		cmocka_unit_test(test_jobfile),
		cmocka_unit_test(test_jobfile_errors),
		cmocka_unit_test(test_job_validate),
	};
	return cmocka_run_group_tests(tests, dir_setup, dir_teardown);
}
