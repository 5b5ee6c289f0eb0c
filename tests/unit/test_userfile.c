/*
 * Files the user names for results (userfile.c): an output is a regular file
 * or a new path, never a device, FIFO or directory; an input is a regular
 * file; nothing blocks on a FIFO.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/userfile.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iogauge-test-userfile.XXXXXX");
	/* A FIFO that blocked an open would hang the test: end it instead. */
	alarm(60);
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

static void contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' does not contain '%s'", hay, needle);
}

static void in_tmp(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void content_is(const char *path, const char *want)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	assert_string_equal(buf, want);
}

/* outfile_check and outfile_open both refuse path, status 2, one line naming opt, path and what it is. */
static void out_refused(const char *path, const char *what)
{
	struct ig_err e = { 0 };
	assert_int_equal(outfile_check("--json", path, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	contains(e.msg, "--json ");
	contains(e.msg, path);
	contains(e.msg, what);
	contains(e.msg, "must be a regular file or a new path");
	assert_null(strchr(e.msg, '\n'));
	memset(&e, 0, sizeof(e));
	assert_null(outfile_open("--json", path, false, &e));
	assert_int_equal(e.status, EXIT_USAGE);
	contains(e.msg, what);
}

static void test_regular_and_new(void **state)
{
	(void)state;
	char path[PATH_MAX];
	struct ig_err e = { 0 };
	in_tmp(path, sizeof(path), "new.json");
	assert_int_equal(outfile_check("--json", path, &e), 0);
	FILE *f = outfile_open("--json", path, false, &e);
	assert_non_null(f);
	fputs("first\n", f);
	assert_int_equal(fclose(f), 0);
	content_is(path, "first\n");
	/* An existing file: cut to nothing, or added to. */
	f = outfile_open("--json", path, true, &e);
	assert_non_null(f);
	fputs("more\n", f);
	assert_int_equal(fclose(f), 0);
	content_is(path, "first\nmore\n");
	f = outfile_open("--json", path, false, &e);
	assert_non_null(f);
	fputs("x", f);
	assert_int_equal(fclose(f), 0);
	content_is(path, "x");
	/* Writes are blocking again (O_NONBLOCK was only for the open). */
	f = outfile_open("--json", path, false, &e);
	assert_non_null(f);
	assert_int_equal(fcntl(fileno(f), F_GETFL) & O_NONBLOCK, 0);
	fclose(f);
	/* A dangling symlink: the open creates the regular file it names. */
	char link[PATH_MAX], target[PATH_MAX];
	in_tmp(link, sizeof(link), "dangling");
	in_tmp(target, sizeof(target), "made-by-link");
	assert_int_equal(symlink(target, link), 0);
	f = outfile_open("--json", link, false, &e);
	assert_non_null(f);
	fclose(f);
	struct stat st;
	assert_int_equal(lstat(target, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(e.status, 0);
}

static void test_not_regular(void **state)
{
	(void)state;
	char fifo[PATH_MAX], link[PATH_MAX];
	in_tmp(fifo, sizeof(fifo), "fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	out_refused(fifo, "a FIFO");
	/* A reader waiting on it changes nothing. */
	int rd = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	out_refused(fifo, "a FIFO");
	close(rd);
	out_refused(tmpdir, "a directory");
	out_refused("/dev/zero", "a character device");
	/* Through a symlink: the message names where it leads. */
	in_tmp(link, sizeof(link), "to-fifo");
	assert_int_equal(symlink(fifo, link), 0);
	out_refused(link, " -> ");
	out_refused(link, fifo);

	/* A block device node (of no device: even a broken check could not write it). */
	char blk[PATH_MAX];
	in_tmp(blk, sizeof(blk), "blk");
	if (mknod(blk, S_IFBLK | 0600, makedev(240, 77)) == 0) {
		out_refused(blk, "a block device");
		in_tmp(link, sizeof(link), "to-blk");
		assert_int_equal(symlink(blk, link), 0);
		out_refused(link, "a block device");
	}
}

static void test_sinks_and_stdout(void **state)
{
	(void)state;
	struct ig_err e = { 0 };
	/* Writes to the null and full devices go nowhere: allowed (fio users pass --output=/dev/null). */
	FILE *f = outfile_open("--output", "/dev/null", false, &e);
	assert_non_null(f);
	fclose(f);
	assert_int_equal(outfile_check("--json", "/dev/full", &e), 0);
	assert_int_equal(e.status, 0);

	/* /dev/stdout when stdout is a pipe: "-" by another name; another FIFO is not. */
	int p[2], saved = dup(STDOUT_FILENO);
	assert_int_equal(pipe(p), 0);
	fflush(stdout);
	dup2(p[1], STDOUT_FILENO);
	int rc = outfile_check("--json", "/dev/stdout", &e);
	f = outfile_open("--json", "/dev/stdout", false, &e);
	if (f) {
		fputs("ok", f);
		fclose(f);
	}
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(p[1]);
	char buf[8] = "";
	assert_int_equal(read(p[0], buf, sizeof(buf) - 1), 2);
	close(p[0]);
	assert_int_equal(rc, 0);
	assert_non_null(f);
	assert_string_equal(buf, "ok");
	assert_int_equal(e.status, 0);
}

static void test_inputs(void **state)
{
	(void)state;
	char path[PATH_MAX], fifo[PATH_MAX];
	struct ig_err e = { 0 };
	in_tmp(path, sizeof(path), "in.json");
	put(path, "{}\n");
	FILE *f = infile_open("result", path, &e);
	assert_non_null(f);
	assert_int_equal(fcntl(fileno(f), F_GETFL) & O_NONBLOCK, 0);
	fclose(f);
	in_tmp(fifo, sizeof(fifo), "in-fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	const struct {
		const char *path, *what;
	} cases[] = {
		{ fifo, "a FIFO" },
		{ tmpdir, "a directory" },
		{ "/dev/zero", "a character device" },
		{ "/dev/null", "a character device" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&e, 0, sizeof(e));
		assert_null(infile_open("result", cases[i].path, &e));
		assert_int_equal(e.status, EXIT_USAGE);
		contains(e.msg, "result ");
		contains(e.msg, cases[i].path);
		contains(e.msg, cases[i].what);
	}
	memset(&e, 0, sizeof(e));
	in_tmp(path, sizeof(path), "missing.json");
	assert_null(infile_open("result", path, &e));
	contains(e.msg, path);
	contains(e.msg, "No such file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regular_and_new),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_sinks_and_stdout),
		cmocka_unit_test(test_inputs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
