/*
 * Every option of the table, given bad values (negative, zero where the
 * range starts at 1, huge, overflowing, not a number, a wrong suffix, empty,
 * an unknown word, too long), through the real command layer (command_run,
 * in a child process): exit status 2 and exactly one line on stderr that
 * names the option.  Table-driven from src/options/options.c, so options added later
 * are covered without touching this file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/common.h"
#include "model/cmdprio.h"
#include "cmds/commands.h"
#include "options/options.h"

static char tmpdir[] = "/tmp/iogauge-badvalues.XXXXXX";
static unsigned tried, failures;

/* The command that takes o: run when it can, else the first that does. */
static const struct command *command_for(const struct opt_def *o)
{
	const struct command *run = command_find("run");
	if (run && (run->groups & o->group))
		return run;
	for (unsigned i = 0; commands[i]; i++)
		if (commands[i]->groups & o->group)
			return commands[i];
	return NULL;
}

/*
 * Run `iogauge CMD --NAME=VALUE PATH` in a child: stderr into buf, the exit
 * status back.  The path names nothing, so a value wrongly accepted ends in
 * a refusal that does not name the option, never in I/O.
 */
static int run_child(const struct command *c, const char *arg, char *buf, size_t len)
{
	int p[2];
	if (pipe(p))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		dup2(p[1], 2);
		int nul = open("/dev/null", O_WRONLY);
		if (nul >= 0)
			dup2(nul, 1);
		if (chdir(tmpdir))
			_exit(99);
		alarm(20);
		char *argv[] = { (char *)arg, "/nonexistent-iogauge-target", NULL };
		/* run takes words as job files: a missing one is refused too. */
		_exit(command_run(c, 2, argv));
	}
	close(p[1]);
	size_t got = 0;
	ssize_t n;
	while ((n = read(p[0], buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = 0;
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Does the message name the option (--name, or its other spelling with - and _ swapped)? */
static bool names(const char *msg, const char *name)
{
	char a[128], b[128];
	snprintf(a, sizeof(a), "%s", name);
	snprintf(b, sizeof(b), "%s", name);
	for (char *p = b; *p; p++)
		*p = *p == '_' ? '-' : *p == '-' ? '_' : *p;
	return strstr(msg, a) || strstr(msg, b);
}

static void expect_refused(const struct opt_def *o, const char *val)
{
	const struct command *c = command_for(o);
	if (!c)
		return;
	char arg[8192], err[16384];
	snprintf(arg, sizeof(arg), "--%s=%s", o->name, val);
	int st = run_child(c, arg, err, sizeof(err));
	tried++;
	size_t lines = 0;
	for (const char *p = err; *p; p++)
		lines += *p == '\n';
	bool one = lines == 1 && err[strlen(err) - 1] == '\n';
	if (st != EXIT_USAGE || !one || !names(err, o->name)) {
		failures++;
		print_error("iogauge %s --%s=%.40s%s: exit %d, %zu lines: %.300s\n", c->name, o->name, val,
			    strlen(val) > 40 ? "..." : "", st, lines, err);
	}
}

/* Values no option of a kind accepts. */
static const char *const bad_numbers[] = { "-1", "abc", "", "1.5.5", "0x", "12abc", "99999999999999999999999" };
static const char *const bad_sizes[] = { "-1", "abc", "", "4kk", "1.5.5", "4 k", "4q",
					 "99999999999999999999", "16777216p", "1e400" };
static const char *const bad_times[] = { "-1", "abc", "", "5parsecs", "1.5.5", "5 s",
					 "999999999999999999h", "1e400" };
static const char *const bad_bools[] = { "maybe", "", "2", "yess", "-1" };
static const char *const bad_words[] = { "nonsense-value", "", "-1", "\x01\x02" };

/* Special options that take a value these words would be: the word is fine for them. */
static bool accepts(const struct opt_def *o, const char *val)
{
	static const struct {
		const char *name, *val;
	} ok[] = {
		{ "inject", "" },	   /* no faults: the inner engine alone */
		{ "bsrange", "" },	   /* no range: as an unset one prints */
		{ "blocksize_range", "" },
		{ "bssplit", "" },	   /* no split: as an unset one prints */
		{ "cmdprio_bssplit", "" }, /* the same */
		{ "round-bs", "" },	   /* no list: steady's --bs, as an unset one prints */
		{ "round-mix", "" },	   /* no list: --rw's mix, as an unset one prints */
		{ "buffer_pattern", "-1" }, /* fio's pattern syntax: a decimal, ff ff ff ff */
		{ "verify_pattern", "-1" },
		{ "verify_pattern", "" },  /* no pattern: as an unset one prints */
		{ "streams", "" },	   /* no list: tree's default counts, as an unset one prints */
		{ "cpus_allowed", "" },	   /* any CPU: as an unset one prints */
		{ "cpumask", "" },
		{ "verify_async_cpus", "" }, /* none named: as an unset one prints */
		{ "numa_cpu_nodes", "" },  /* no nodes: as an unset one prints */
		{ "numa_mem_policy", "" }, /* the system's policy: as an unset one prints */
		{ "ignore_error", "" },	   /* no lists: as an unset one prints */
		/* none of fio's batch options: iogauge's own queue, as an unset one prints */
		{ "iodepth_batch_submit", "" },
		{ "iodepth_batch", "" },
		{ "iodepth_batch_complete_min", "" },
		{ "iodepth_batch_complete", "" },
		{ "iodepth_batch_complete_max", "" },
		{ "iodepth_low", "" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		if (!strcmp(o->name, ok[i].name) && !strcmp(val, ok[i].val))
			return true;
	return false;
}

static void each(const struct opt_def *o, const char *const *vals, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!accepts(o, vals[i]))
			expect_refused(o, vals[i]);
}

static void every_option_refuses_bad_values(void **state)
{
	(void)state;
	unsigned nopts = 0;
	OPTIONS_EACH(o) {
		char v[64];
		nopts++;
		switch (o->type) {
		case OT_SIZE:
			each(o, bad_sizes, ARRAY_SIZE(bad_sizes));
			break;
		case OT_TIME:
			each(o, bad_times, ARRAY_SIZE(bad_times));
			break;
		case OT_UINT:
		case OT_U64:
			each(o, bad_numbers, ARRAY_SIZE(bad_numbers));
			if (o->type == OT_UINT)
				expect_refused(o, "4294967296");
			break;
		case OT_BOOL:
			each(o, bad_bools, ARRAY_SIZE(bad_bools));
			break;
		case OT_ENUM:
		case OT_SPECIAL:
			each(o, bad_words, ARRAY_SIZE(bad_words));
			break;
		case OT_STR: {
			/* One character more than the field holds. */
			char *lng = malloc(o->len + 1);
			memset(lng, 'x', o->len);
			lng[o->len] = 0;
			expect_refused(o, lng);
			free(lng);
			break;
		}
		}
		/* The ends of a range. */
		if (o->type == OT_SIZE || o->type == OT_TIME || o->type == OT_UINT || o->type == OT_U64) {
			if (o->min >= 1) {
				expect_refused(o, "0");
			}
			if (o->max && o->max < UINT64_MAX) {
				snprintf(v, sizeof(v), "%" PRIu64, o->max + (o->type == OT_TIME ? 0 : 1));
				if (o->type != OT_TIME)
					expect_refused(o, v);
			}
		}
	}
	print_message("%u options, %u bad values tried, %u not refused as they should be\n", nopts,
		      tried, failures);
	assert_true(nopts > 40);
	assert_int_equal(failures, 0);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_option_refuses_bad_values),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
