/* Unit tests for fio's job-file syntax: comments, include, variables, keywords, unsupported options, echo. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/common.h"
#include "cmds/commands.h"
#include "options/options.h"
#include "options/args.h"
#include "options/jobfile.h"
#include "model/engine.h"

extern const struct command cmd_run, cmd_quick;

static char tmpdir[64];
static struct parsed_args pa;
static struct ig_err e;

static int dir_setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iogauge-test-jobfile.XXXXXX");
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
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* argv, then the job file, then args_finish: as `iogauge run ARGS FILE` does. */
static int parse(const char *text, int argc, char **argv)
{
	char path[256];
	write_file(path, sizeof(path), "job.fio", text);
	memset(&e, 0, sizeof(e));
	if (args_parse(argc, argv, &cmd_run, &pa, &e))
		return -1;
	int rc = jobfile_parse(path, &cmd_run, &pa, &e);
	return args_finish(&pa, &e) || rc ? -1 : 0;
}

static void contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' does not contain '%s'", hay, needle);
}

static const char *echo_of(const struct kv_list *l, const char *key)
{
	for (unsigned i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].key, key))
			return l->v[i].val;
	return NULL;
}

static void test_comments_after_values(void **state)
{
	(void)state;
	char *none[] = { NULL };
	assert_int_equal(parse("[global]\nsize=1m   # note\nbs=8k; note\n"
			       "[a]\nioengine=null ; note\ndescription=abc#def;ghi\n"
			       "  rw = randread  \n\t iodepth=4\n[b] ; a comment after a header\n",
			       0, none), 0);
	assert_int_equal(pa.njobs, 2);
	assert_int_equal(pa.jobs[0].size, 1 << 20);
	assert_int_equal(pa.jobs[0].bs, 8192);
	assert_ptr_equal(pa.jobs[0].engine, &engine_null);
	assert_string_equal(pa.jobs[0].description, "abc"); /* as fio 3.33 cuts it */
	assert_int_equal(pa.jobs[0].rw, RW_RANDREAD);
	assert_int_equal(pa.jobs[0].iodepth, 4);
	/* The echo holds the values as fio shows them: comments gone, section name not echoed. */
	assert_string_equal(echo_of(&pa.global_echo, "size"), "1m");
	assert_string_equal(echo_of(&pa.echo[0], "rw"), "randread");
	assert_null(echo_of(&pa.echo[0], "name"));
	args_free(&pa);
}

static void test_variables(void **state)
{
	(void)state;
	char *none[] = { NULL };
	setenv("IOG_SIZE", "2m", 1);
	setenv("IOG_BS", "16k", 1);
	unsetenv("IOG_UNSET");
	assert_int_equal(parse("[j]\nsize=${IOG_SIZE}\nbs=$IOG_BS\ndescription=$jobname.$jobnum\n",
			       0, none), 0);
	assert_int_equal(pa.jobs[0].size, 2 << 20);
	assert_int_equal(pa.jobs[0].bs, 16384);
	assert_string_equal(echo_of(&pa.echo[0], "size"), "2m");
	assert_string_equal(pa.jobs[0].description, "$jobname.$jobnum");
	args_free(&pa);

	/* An unset variable is named, never read as an empty value. */
	assert_int_equal(parse("[j]\nsize=${IOG_UNSET}\n", 0, none), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	contains(e.msg, "job.fio:2: size: environment variable IOG_UNSET is not set");
	args_free(&pa);
}

static void test_keywords(void **state)
{
	(void)state;
	char *none[] = { NULL };
	long psz = sysconf(_SC_PAGESIZE), ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	assert_int_equal(parse("[j]\nsize=$pagesize*2\nbs=$pagesize\niodepth=($ncpus*2)+1\n"
			       "numjobs=$ncpus\noffset=$mb_memory/$mb_memory\n",
			       0, none), 0);
	assert_int_equal(pa.jobs[0].size, (uint64_t)psz * 2);
	assert_int_equal(pa.jobs[0].bs, (uint64_t)psz);
	assert_int_equal(pa.jobs[0].iodepth, (unsigned)ncpu * 2 + 1);
	assert_int_equal(pa.jobs[0].numjobs, (unsigned)ncpu);
	assert_int_equal(pa.jobs[0].offset, 1);
	args_free(&pa);
}

static void test_include(void **state)
{
	(void)state;
	char inc[256], *none[] = { NULL };
	write_file(inc, sizeof(inc), "inc.fio", "bs=32k\n; comment\nrw=write\n");
	/* Relative to the including file's directory, wherever the command runs. */
	assert_int_equal(parse("[global]\ninclude inc.fio\n[j]\nsize=1m\n", 0, none), 0);
	assert_int_equal(pa.jobs[0].bs, 32768);
	assert_int_equal(pa.jobs[0].rw, RW_WRITE);
	args_free(&pa);

	write_file(inc, sizeof(inc), "loop.fio", "include loop.fio\n");
	assert_int_equal(parse("[j]\ninclude loop.fio\n", 0, none), -1);
	contains(e.msg, "levels deep");
	args_free(&pa);
	assert_int_equal(parse("[j]\ninclude missing.fio\n", 0, none), -1);
	contains(e.msg, "job.fio:2: include: job file");
	args_free(&pa);
}

/* Every unsupported option of the file, one line each, in file order; then exit 2. */
static void test_unsupported(void **state)
{
	(void)state;
	char *none[] = { NULL };
	assert_int_equal(parse("[global]\nsize=1m\nkb_base=1000\n[j]\nbogus=1\nnice=5\nrw=read\n",
			       0, none), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	assert_true(pa.err_listed);
	assert_int_equal(pa.ndiags, 3);
	contains(pa.diags[0].text, "job.fio:3: unsupported fio option 'kb_base'");
	contains(pa.diags[1].text, "job.fio:5: unknown option 'bogus'");
	contains(pa.diags[2].text, "job.fio:6: unsupported fio option 'nice'");
	assert_string_equal(e.msg, pa.diags[1].text); /* the first error found, with the others listed */
	for (unsigned i = 0; i < pa.ndiags; i++)
		assert_int_equal(pa.diags[i].kind, DIAG_ERR);
	args_free(&pa);

	/* --warn-unsupported: warnings, the rest of the file applies. */
	char *warn[] = { "--warn-unsupported", NULL };
	assert_int_equal(parse("[j]\nnice=5\nsize=1m\nexec_prerun=ls\n", 1, warn), 0);
	assert_int_equal(pa.ndiags, 2);
	assert_int_equal(pa.diags[0].kind, DIAG_WARN);
	contains(pa.diags[1].text, "unsupported fio option 'exec_prerun'");
	assert_int_equal(pa.jobs[0].size, 1 << 20);
	args_free(&pa);

	/* A word fio does not know stays an error even then. */
	assert_int_equal(parse("[j]\nsizee=1m\n", 1, warn), -1);
	args_free(&pa);

	/* On the command line too, all of them at once. */
	char *cli[] = { "--nice=5", "--size=1m", "--lockmem=1m", NULL };
	memset(&e, 0, sizeof(e));
	assert_int_equal(args_parse(3, cli, &cmd_run, &pa, &e), 0);
	assert_int_equal(args_finish(&pa, &e), -1);
	assert_int_equal(pa.ndiags, 2);
	contains(pa.diags[0].text, "unsupported fio option 'nice'");
	args_free(&pa);

	/* Other commands do not speak fio: an unknown option. */
	char *q[] = { "--nice=5", NULL };
	memset(&e, 0, sizeof(e));
	assert_int_equal(args_parse(1, q, &cmd_quick, &pa, &e), -1);
	contains(e.msg, "unknown option --nice=5");
	args_free(&pa);
}

/* The command line's job options win over the file's (fio 3.33 lets the file win: docs/fio.md). */
static void test_cli_override(void **state)
{
	(void)state;
	char *argv[] = { "--bs=64k", "--runtime=2", NULL };
	assert_int_equal(parse("[global]\nbs=4k\nsize=1m\n[a]\nbs=8k\nruntime=60\n[b]\n", 2, argv), 0);
	assert_int_equal(pa.njobs, 2);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(pa.jobs[i].bs, 65536);
		assert_int_equal(pa.jobs[i].runtime_ns, 2 * NSEC_PER_SEC);
		assert_int_equal(pa.jobs[i].size, 1 << 20);
	}
	assert_string_equal(echo_of(&pa.global_echo, "bs"), "64k");
	args_free(&pa);
}

/* Accepted fio options that change nothing measured: taken, not in iogauge's option echo. */
static void test_no_effect(void **state)
{
	(void)state;
	char *none[] = { NULL };
	assert_int_equal(parse("[j]\nthread\ngtod_reduce=1\nclocksource=cpu\nsize=1m\n"
			       "clat_percentiles=0\nlat_percentiles\ntimeout=3\n",
			       0, none), 0);
	assert_false(pa.jobs[0].clat_percentiles);
	assert_true(pa.jobs[0].lat_percentiles);
	assert_int_equal(pa.jobs[0].runtime_ns, 3 * NSEC_PER_SEC);
	assert_string_equal(echo_of(&pa.echo[0], "gtod_reduce"), "1");
	assert_null(echo_of(&pa.echo[0], "thread")); /* bare: fio drops empty values */
	const struct opt_def *o = option_find("thread");
	assert_non_null(o);
	assert_true(o->flags & OPT_NO_EFFECT);
	args_free(&pa);

	/* Bad values of them are still refused. */
	assert_int_equal(parse("[j]\nthread=maybe\n", 0, none), -1);
	contains(e.msg, "thread: 'maybe'");
	args_free(&pa);
}

/* The generated list of fio's names: aliases and engine options are there, iogauge's own are not. */
static void test_fio_names(void **state)
{
	(void)state;
	const struct fio_name *f = fio_name_find("blocksize", 9);
	assert_non_null(f);
	assert_string_equal(f->alias_of, "bs");
	f = fio_name_find("hipri", 5);
	assert_non_null(f);
	contains(f->engines, "io_uring");
	assert_null(fio_name_find("allow-destroy", 13));
	assert_null(fio_name_find("passes", 6));
	/* Every fio name iogauge has is a run option. */
	for (f = fio_names; f->name; f++) {
		const struct opt_def *o = option_find(f->name);
		if (o && !(o->group & cmd_run.groups))
			fail_msg("fio's %s is not a run option", f->name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comments_after_values),
		cmocka_unit_test(test_variables),
		cmocka_unit_test(test_keywords),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_cli_override),
		cmocka_unit_test(test_no_effect),
		cmocka_unit_test(test_fio_names),
	};
	return cmocka_run_group_tests(tests, dir_setup, dir_teardown);
}
