/*
 * Unit tests for the suite executor (suite_exec.c): a two-case suite defined in a
 * few lines of data, run on the null engine through suite_main with three
 * passes and two targets; the JSON it writes is read back and checked
 * against the per-pass jobs it lists.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/common.h"
#include "cmds/commands.h"
#include "options/options.h"
#include "suite/suite.h"
#include "report/report.h"

/* ---------------------------------------------------------------- the suite */

#define SIZE (1u << 20)
#define PASSES 3
#define NTARGETS 2

static const struct suite_case cases[] = {
	{ "read 4k", "--rw=read --bs=4k" },
	{ "write 8k", "--rw=write --bs=8k" },
};
static const uint64_t case_bs[] = { 4096, 8192 };
static const int case_dir[] = { FD_READ, FD_WRITE }; /* the direction each case measures */

/* The formatter: one line per target and case, the medians (checked against the JSON). */
static unsigned prints;
static void print_test(FILE *f, const struct suite_run *sr)
{
	prints++;
	for (unsigned t = 0; t < sr->ntargets; t++) {
		for (unsigned c = 0; c < sr->suite->ncases; c++) {
			struct fig3 v = suite_fig(sr, t, c, case_dir[c], FIG_IOPS);
			fprintf(f, "%s|%s|%u|%.17g|%.17g|%.17g\n", sr->targets[t].shown,
				sr->suite->cases[c].name, v.n, v.median, v.min, v.max);
		}
	}
}

static const struct suite test_suite_def = { .cases = cases, .ncases = ARRAY_SIZE(cases), .print = print_test };

static const struct command cmd_test = {
	.name = "testsuite",
	.usage = "iogauge testsuite [OPTIONS] [PATH...]",
	.summary = "Two cases on the null engine",
	.description = "A unit test's suite.",
	.groups = OG_RESULTS | OG_DESTROY | OG_KEEP | OG_SUITE | OG_SIZING | OG_ENGINE | OG_QUEUE | OG_DATA,
	.defaults = "--ioengine=null --size=1m --runtime=0 --ramp_time=0 --time_based=0 "
		    "--direct=0 --numjobs=1 --iodepth=1",
	.suite = &test_suite_def,
};

/* ---------------------------------------------------------------- fixture */

static char base[64], dirs[NTARGETS][96], jsonpath[128], textpath[128];

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/iogauge-test-suite.XXXXXX");
	if (!mkdtemp(base))
		return -1;
	for (int i = 0; i < NTARGETS; i++) {
		snprintf(dirs[i], sizeof(dirs[i]), "%s/t%d", base, i);
		if (mkdir(dirs[i], 0700))
			return -1;
	}
	snprintf(jsonpath, sizeof(jsonpath), "%s/out.json", base);
	snprintf(textpath, sizeof(textpath), "%s/out.txt", base);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

/* ---------------------------------------------------------------- helpers */

static json_t *at(json_t *root, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", path);
	json_t *cur = root;
	for (char *save = NULL, *tok = strtok_r(buf, ".", &save); tok;
	     tok = strtok_r(NULL, ".", &save)) {
		json_t *next = json_is_array(cur) ? json_array_get(cur, strtoul(tok, NULL, 10)) :
						    json_object_get(cur, tok);
		if (!next)
			fail_msg("JSON path %s: '%s' missing", path, tok);
		cur = next;
	}
	return cur;
}

static double num(json_t *root, const char *path)
{
	json_t *v = at(root, path);
	if (!json_is_number(v))
		fail_msg("%s is not a number", path);
	return json_number_value(v);
}

static void contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' does not contain '%s'", hay, needle);
}

static unsigned entries(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	unsigned n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* suite_main with stderr kept (a diagnostic is a test failure where none is expected). */
static int run_suite(const struct command *c, int argc, char **argv, char *err, size_t len)
{
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	fflush(stderr);
	int saved = dup(2);
	dup2(fileno(tmp), 2);
	int rc = suite_main(c, argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(err, 1, len - 1, tmp);
	err[n] = 0;
	fclose(tmp);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* A figure of one job, as the suite computes it from the job's statistics. */
static double job_fig(json_t *job, int dir, int fig)
{
	double secs = num(job, "elapsed_ns") / 1e9;
	if (fig == FIG_SECONDS)
		return secs;
	if (fig == FIG_CPU)
		return (num(job, "cpu.usr_ns") + num(job, "cpu.sys_ns")) / 1e7 / secs;
	if (dir == FD_TOTAL) {
		if (fig == FIG_MBS || fig == FIG_IOPS)
			return job_fig(job, FD_READ, fig) + job_fig(job, FD_WRITE, fig);
		/* Latency of both directions: one of them is empty in these cases. */
		double r = job_fig(job, FD_READ, fig), w = job_fig(job, FD_WRITE, fig);
		return num(job, "read.clat_ns.samples") ? r : w;
	}
	json_t *d = at(job, dir == FD_READ ? "read" : "write");
	switch (fig) {
	case FIG_MBS:
		return num(d, "bw_bytes") / 1e6;
	case FIG_IOPS:
		return num(d, "iops");
	case FIG_LAT_MEAN:
		return num(d, "clat_ns.mean");
	case FIG_LAT_P50:
	case FIG_LAT_P99: {
		/* fio's key spelling has a dot in it: not a path step. */
		const char *key = fig == FIG_LAT_P50 ? "50.000000" : "99.000000";
		json_t *v = json_object_get(at(d, "clat_ns.percentiles"), key);
		if (!json_is_integer(v))
			fail_msg("percentile %s missing", key);
		return (double)json_integer_value(v);
	}
	case FIG_LAT_MIN:
		return num(d, "clat_ns.min");
	case FIG_LAT_STDDEV:
		return num(d, "clat_ns.stddev");
	default:
		return num(d, "clat_ns.max");
	}
}

/* ---------------------------------------------------------------- tests */

static void check_json(json_t *root)
{
	assert_string_equal(json_string_value(at(root, "iogauge.command")), "testsuite");
	assert_int_equal(json_integer_value(at(root, "status")), 0);
	assert_true(json_is_false(at(root, "interrupted")));
	assert_true(json_is_null(at(root, "error")));
	json_t *s = at(root, "suite");
	assert_string_equal(json_string_value(at(s, "name")), "testsuite");
	assert_int_equal(json_integer_value(at(s, "passes")), PASSES);
	/* The suite's cases, as data. */
	assert_int_equal(json_array_size(at(s, "cases")), 2);
	for (unsigned c = 0; c < 2; c++) {
		json_t *k = json_array_get(at(s, "cases"), c);
		assert_string_equal(json_string_value(at(k, "name")), cases[c].name);
		assert_string_equal(json_string_value(at(k, "options")), cases[c].opts);
	}
	assert_int_equal((uint64_t)num(s, "options.size"), SIZE);
	assert_string_equal(json_string_value(at(s, "options.ioengine")), "null");

	/* Every run's job: targets x passes x cases, tagged. */
	json_t *jobs = at(root, "jobs");
	assert_int_equal(json_array_size(jobs), NTARGETS * PASSES * 2);
	json_t *targets = at(s, "targets");
	assert_int_equal(json_array_size(targets), NTARGETS);
	for (unsigned t = 0; t < NTARGETS; t++) {
		json_t *tg = json_array_get(targets, t);
		assert_string_equal(json_string_value(at(tg, "path")), dirs[t]);
		assert_true(json_is_null(at(tg, "refused")));
		assert_int_equal((uint64_t)num(tg, "size"), SIZE);
		assert_true(json_is_false(at(tg, "shrunk")));
		json_t *cs = at(tg, "cases");
		assert_int_equal(json_object_size(cs), 2); /* both cases, for every target */
		for (unsigned c = 0; c < 2; c++) {
			json_t *cj = json_object_get(cs, cases[c].name);
			if (!cj)
				fail_msg("target %u: case '%s' missing", t, cases[c].name);
			/* This target's and case's jobs, one per pass. */
			json_t *mine[PASSES] = { 0 };
			size_t i;
			json_t *jj;
			json_array_foreach(jobs, i, jj) {
				if (strcmp(json_string_value(at(jj, "target")), dirs[t]) ||
				    strcmp(json_string_value(at(jj, "case")), cases[c].name))
					continue;
				json_int_t p = json_integer_value(at(jj, "pass"));
				if (p < 1 || p > PASSES || mine[p - 1])
					fail_msg("target %u case %u: pass %lld twice or out of range", t, c,
						 (long long)p);
				mine[p - 1] = jj;
			}
			for (unsigned p = 0; p < PASSES; p++) {
				if (!mine[p])
					fail_msg("target %u case %u: no job for pass %u", t, c, p + 1);
				/* Size-bound: exactly size / bs requests, in the case's direction only. */
				const char *dn = case_dir[c] == FD_READ ? "read" : "write";
				const char *other = case_dir[c] == FD_READ ? "write" : "read";
				char k[64];
				snprintf(k, sizeof(k), "%s.ios", dn);
				assert_int_equal((uint64_t)num(mine[p], k), SIZE / case_bs[c]);
				snprintf(k, sizeof(k), "%s.bytes", dn);
				assert_int_equal((uint64_t)num(mine[p], k), SIZE);
				snprintf(k, sizeof(k), "%s.ios", other);
				assert_int_equal((uint64_t)num(mine[p], k), 0);
				snprintf(k, sizeof(k), "%s.clat_ns.samples", dn);
				assert_int_equal((uint64_t)num(mine[p], k), SIZE / case_bs[c]);
				assert_int_equal((uint64_t)num(mine[p], "options.bs"), case_bs[c]);
				assert_string_equal(json_string_value(at(mine[p], "options.rw")),
						    case_dir[c] == FD_READ ? "read" : "write");
				assert_string_equal(json_string_value(at(mine[p], "name")), cases[c].name);
				assert_true(num(mine[p], "elapsed_ns") > 0);
			}
			/* Each figure: median, min and max of the per-pass values. */
			for (int d = 0; d < FD_NR; d++) {
				for (int f = 0; f < FIG_NR; f++) {
					double v[PASSES];
					for (unsigned p = 0; p < PASSES; p++)
						v[p] = job_fig(mine[p], d, f);
					qsort(v, PASSES, sizeof(v[0]), cmp_double);
					char k[96];
					snprintf(k, sizeof(k), "%s.%s", fig_dir_names[d], fig_names[f]);
					json_t *fj = at(cj, k);
					if (!json_is_object(fj))
						fail_msg("target %u case %u: %s is not measured", t, c, k);
					assert_int_equal(json_integer_value(at(fj, "passes")), PASSES);
					/* MB/s is bytes/s / 1e6 on both sides, each rounded to 10 digits. */
					double tol = f == FIG_MBS || f == FIG_CPU || f == FIG_SECONDS ? 1e-9 : 0;
					double med = num(fj, "median"), lo = num(fj, "min"), hi = num(fj, "max");
					if (fabs(med - v[1]) > tol * fabs(v[1]) || fabs(lo - v[0]) > tol * fabs(v[0]) ||
					    fabs(hi - v[2]) > tol * fabs(v[2]))
						fail_msg("target %u case '%s' %s: median/min/max %.17g %.17g %.17g, "
							 "passes %.17g %.17g %.17g",
							 t, cases[c].name, k, med, lo, hi, v[0], v[1], v[2]);
					assert_true(lo <= med && med <= hi);
				}
			}
			/* The other direction measured nothing: zero, not missing. */
			int od = case_dir[c] == FD_READ ? FD_WRITE : FD_READ;
			char k[96];
			snprintf(k, sizeof(k), "%s.iops.median", fig_dir_names[od]);
			assert_true(num(cj, k) == 0);
			/* The case's own direction did something. */
			snprintf(k, sizeof(k), "%s.iops.median", fig_dir_names[case_dir[c]]);
			assert_true(num(cj, k) > 0);
		}
	}
}

static void test_suite_json(void **state)
{
	(void)state;
	char out[8192], arg_out[160], arg_passes[] = "--passes=3";
	snprintf(arg_out, sizeof(arg_out), "--output=%s", jsonpath);
	char *argv[] = { arg_passes, "--output-format=json", arg_out, "--quiet", dirs[0], dirs[1], NULL };
	prints = 0;
	int rc = run_suite(&cmd_test, 6, argv, out, sizeof(out));
	if (rc != 0)
		fail_msg("suite_main: %d; stderr: %s", rc, out);
	assert_string_equal(out, ""); /* no diagnostics */
	assert_int_equal(prints, 0); /* JSON only: the table is not drawn */
	json_error_t jerr;
	json_t *root = json_load_file(jsonpath, 0, &jerr);
	if (!root)
		fail_msg("%s: %s", jsonpath, jerr.text);
	check_json(root);
	json_decref(root);
	/* The null engine writes no file; nothing is left in the targets. */
	for (int i = 0; i < NTARGETS; i++)
		assert_int_equal(entries(dirs[i]), 0);
	unlink(jsonpath);
}

/* Text and --json FILE together: the formatter sees the same figures the JSON holds. */
static void test_suite_text_and_json(void **state)
{
	(void)state;
	char out[8192], a_json[160], a_out[160], a_passes[] = "--passes=3";
	snprintf(a_json, sizeof(a_json), "--json=%s", jsonpath);
	snprintf(a_out, sizeof(a_out), "--output=%s", textpath);
	char *argv[] = { a_passes, a_json, a_out, "--quiet", dirs[0], dirs[1], NULL };
	prints = 0;
	int rc = run_suite(&cmd_test, 6, argv, out, sizeof(out));
	if (rc != 0)
		fail_msg("suite_main: %d; stderr: %s", rc, out);
	assert_int_equal(prints, 1);
	json_error_t jerr;
	json_t *root = json_load_file(jsonpath, 0, &jerr);
	if (!root)
		fail_msg("%s: %s", jsonpath, jerr.text);
	check_json(root);
	FILE *f = fopen(textpath, "r");
	assert_non_null(f);
	char line[1024];
	unsigned lines = 0;
	while (fgets(line, sizeof(line), f)) {
		char shown[256], cname[64];
		unsigned n;
		double med, lo, hi;
		if (sscanf(line, "%255[^|]|%63[^|]|%u|%lg|%lg|%lg", shown, cname, &n, &med, &lo, &hi) != 6)
			fail_msg("text line '%s'", line);
		unsigned t = strcmp(shown, dirs[0]) ? 1 : 0, c = strcmp(cname, cases[0].name) ? 1 : 0;
		assert_string_equal(shown, dirs[t]);
		assert_string_equal(cname, cases[c].name);
		assert_int_equal(n, PASSES);
		char k[160];
		snprintf(k, sizeof(k), "suite.targets.%u.cases.%s.%s.iops", t, cases[c].name,
			 fig_dir_names[case_dir[c]]);
		/* JSON reals carry 10 significant digits. */
		json_t *fj = at(root, k);
		assert_true(fabs(num(fj, "median") - med) <= 1e-9 * med);
		assert_true(fabs(num(fj, "min") - lo) <= 1e-9 * lo);
		assert_true(fabs(num(fj, "max") - hi) <= 1e-9 * hi);
		lines++;
	}
	fclose(f);
	assert_int_equal(lines, NTARGETS * 2);
	json_decref(root);
	for (int i = 0; i < NTARGETS; i++)
		assert_int_equal(entries(dirs[i]), 0);
	unlink(jsonpath);
	unlink(textpath);
}

/* suite_fig itself: median of an odd and an even count, min-max, passes not measured. */
static void test_suite_fig(void **state)
{
	(void)state;
	static struct suite_cell cells[4 * 2]; /* [pass][case] */
	static struct suite_target tg;
	static struct settings s;
	memset(cells, 0, sizeof(cells));
	memset(&tg, 0, sizeof(tg));
	tg.cells = cells;
	s.passes = 4;
	struct suite_run sr = { .cmd = &cmd_test, .suite = &test_suite_def, .s = &s,
				.targets = &tg, .ntargets = 1 };
	static const double iops[4] = { 30, 10, 20, 1000 };
	for (unsigned p = 0; p < 4; p++) {
		cells[p * 2 + 1].v[FD_WRITE][FIG_IOPS] = iops[p];
		cells[p * 2 + 1].done = true;
	}
	struct fig3 v = suite_fig(&sr, 0, 1, FD_WRITE, FIG_IOPS);
	assert_int_equal(v.n, 4);
	assert_true(v.median == 25); /* (20 + 30) / 2 */
	assert_true(v.min == 10 && v.max == 1000);
	cells[3 * 2 + 1].done = false; /* the last pass was cut short: left out */
	v = suite_fig(&sr, 0, 1, FD_WRITE, FIG_IOPS);
	assert_int_equal(v.n, 3);
	assert_true(v.median == 20 && v.min == 10 && v.max == 30);
	v = suite_fig(&sr, 0, 0, FD_WRITE, FIG_IOPS); /* case 0 never measured */
	assert_int_equal(v.n, 0);
	assert_true(isnan(v.median));
}

/* Refusals before anything runs: status 2, one line, no JSON lost to a bad path. */
static void test_suite_refusals(void **state)
{
	(void)state;
	char out[8192];
	char *a1[] = { "--rw=write", NULL }; /* not this command's option */
	assert_int_equal(run_suite(&cmd_test, 1, a1, out, sizeof(out)), EXIT_USAGE);
	assert_int_equal(strncmp(out, "iogauge: ", 9), 0);
	contains(out, "--rw");
	char *a2[] = { "--size=2k", "--quiet", dirs[0], NULL }; /* below the largest request */
	assert_int_equal(run_suite(&cmd_test, 3, a2, out, sizeof(out)), EXIT_USAGE);
	contains(out, "--size: testsuite needs at least 8.00 KiB");
	char bad[200];
	snprintf(bad, sizeof(bad), "--json=%s/no/such/dir/x.json", base);
	char *a3[] = { bad, "--quiet", dirs[0], NULL };
	assert_int_equal(run_suite(&cmd_test, 3, a3, out, sizeof(out)), EXIT_USAGE);
	contains(out, "no/such/dir");
	/* A target that is not a directory: refused, named, reported in the JSON; status 2. */
	char missing[160], a_out[200];
	snprintf(missing, sizeof(missing), "%s/missing", base);
	snprintf(a_out, sizeof(a_out), "--output=%s", jsonpath);
	char *a4[] = { "--output-format=json", a_out, "--quiet", missing, dirs[0], NULL };
	int rc = run_suite(&cmd_test, 5, a4, out, sizeof(out));
	assert_int_equal(rc, EXIT_USAGE);
	contains(out, missing);
	json_error_t jerr;
	json_t *root = json_load_file(jsonpath, 0, &jerr);
	if (!root)
		fail_msg("%s: %s", jsonpath, jerr.text);
	assert_int_equal(json_integer_value(at(root, "status")), EXIT_USAGE);
	assert_true(json_is_string(at(root, "suite.targets.0.refused")));
	contains(json_string_value(at(root, "suite.targets.0.refused")), missing);
	/* The other target was still measured. */
	assert_true(json_is_null(at(root, "suite.targets.1.refused")));
	assert_true(num(root, "suite.targets.1.cases.read 4k.read.iops.median") > 0);
	assert_true(json_is_null(at(root, "suite.targets.0.cases.read 4k.read.iops")));
	assert_int_equal(json_array_size(at(root, "jobs")), 2);
	json_decref(root);
	unlink(jsonpath);
	assert_int_equal(entries(dirs[0]), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suite_json),
		cmocka_unit_test(test_suite_text_and_json),
		cmocka_unit_test(test_suite_fig),
		cmocka_unit_test(test_suite_refusals),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
