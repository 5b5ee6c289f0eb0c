/* sweep's own options: its rows, registered with OPTION_ROWS (no core table lists them). */
#include "base/common.h"
#include "options/options.h"
#include "base/units.h"
#include "options/option_values.h"
#include "suites/sweep_opts.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define J(f) OPT_FIELD(SCOPE_JOB, struct job, f)
#define S(f) OPT_FIELD(SCOPE_SETTINGS, struct settings, f)
#define OWN(f) OPT_FIELD(SCOPE_OWN, struct sweep_opts, f)

/* iozone's -s and -r: each use adds a size to the list. */
static int add_kib(uint64_t *list, unsigned *n, const struct opt_def *o, const char *val, char *err,
		   size_t errlen)
{
	uint64_t v;
	if (parse_size_in(val, 1024, &v) || !v) {
		snprintf(err, errlen, "-%s: '%s' is not a size above 0 (KiB when bare; k, m, g suffixes)", o->name, val);
		return -1;
	}
	if (*n == SWEEP_MAX_LIST) {
		snprintf(err, errlen, "-%s: at most %d sizes", o->name, SWEEP_MAX_LIST);
		return -1;
	}
	list[(*n)++] = v;
	return 0;
}

/* Each comma-separated item of val through one (a saved list reads back as it was printed). */
static int each_item(void *obj, const struct opt_def *o, const char *val, char *err, size_t n,
		     int (*one)(void *, const struct opt_def *, const char *, char *, size_t))
{
	char item[64];
	for (const char *p = val;;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		snprintf(item, sizeof(item), "%.*s", (int)(len < sizeof(item) ? len : sizeof(item) - 1), p);
		if (one(obj, o, item, err, n))
			return -1;
		if (!c)
			return 0;
		p = c + 1;
	}
}

static int one_sweep_s(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct sweep_opts *w = (struct sweep_opts *)obj;
	return add_kib(w->sizes, &w->nsizes, o, val, err, n);
}

static int one_sweep_r(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct sweep_opts *w = (struct sweep_opts *)obj;
	return add_kib(w->recs, &w->nrecs, o, val, err, n);
}

/* An empty value empties the list: iozone's default again (and what an empty list prints as). */
static int set_sweep_s(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct sweep_opts *w = (struct sweep_opts *)obj;
	if (!*val) {
		memset(w->sizes, 0, sizeof(w->sizes));
		w->nsizes = 0;
	}
	return *val ? each_item(obj, o, val, err, n, one_sweep_s) : 0;
}

static int set_sweep_r(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct sweep_opts *w = (struct sweep_opts *)obj;
	if (!*val) {
		memset(w->recs, 0, sizeof(w->recs));
		w->nrecs = 0;
	}
	return *val ? each_item(obj, o, val, err, n, one_sweep_r) : 0;
}

static void print_list(const uint64_t *list, unsigned n, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < n && k + 1 < len; i++) {
		if (i)
			buf[k++] = ',';
		print_size(list[i], buf + k, len - k);
		k += strlen(buf + k);
	}
}

static void print_sweep_s(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct sweep_opts *w = (const struct sweep_opts *)obj;
	(void)o;
	print_list(w->sizes, w->nsizes, buf, len);
}

static void print_sweep_r(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct sweep_opts *w = (const struct sweep_opts *)obj;
	(void)o;
	print_list(w->recs, w->nrecs, buf, len);
}

static int one_sweep_i(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);

/* iozone's -i N: tests 0 to 5 (the stdio and pread/pwrite families are not part of sweep). */
static int set_sweep_i(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	if (!*val)
		((struct sweep_opts *)obj)->tests = 0; /* all */
	return *val ? each_item(obj, o, val, err, n, one_sweep_i) : 0;
}

static int one_sweep_i(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	uint64_t v;
	if (parse_uint(val, &v) || v > 5) {
		snprintf(err, n,
			 "-%s: '%s' is not a test sweep runs (0 write/rewrite, 1 read/reread, 2 random read/write, 3 backward read, 4 record rewrite, 5 stride read)",
			 o->name, val);
		return -1;
	}
	((struct sweep_opts *)obj)->tests |= 1u << v;
	return 0;
}

static void print_sweep_i(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	unsigned t = ((const struct sweep_opts *)obj)->tests;
	size_t k = 0;
	(void)o;
	buf[0] = 0;
	for (unsigned i = 0; i < 6 && k + 3 < len; i++)
		if (t & (1u << i))
			k += (size_t)snprintf(buf + k, len - k, "%s%u", k ? "," : "", i);
}

static const struct opt_def rows[] = {
	/* ---- sweep (src/suites/sweep.c): iozone's options, as iozone spells them */
	{ .name = "a", .owner = "sweep", .type = OT_BOOL, OWN(auto_mode), .def = "0", .bare = "1",
	  .help = "iozone's -a: auto mode, file sizes -n to -g times record sizes -y to -q, powers of two" },
	{ .name = "s", .owner = "sweep", .type = OT_SPECIAL, OWN(sizes), .set = set_sweep_s, .print = print_sweep_s,
	  .arg = "SIZE",
	  .help = "iozone's -s: a file size (KiB when bare; repeat for several)" },
	{ .name = "r", .owner = "sweep", .type = OT_SPECIAL, OWN(recs), .set = set_sweep_r, .print = print_sweep_r,
	  .arg = "SIZE",
	  .help = "iozone's -r: a record size (KiB when bare; repeat for several)" },
	{ .name = "n", .owner = "sweep", .type = OT_SPECIAL, OWN(min_size), .def = "64", .set = set_kib, .print = print_kib,
	  .arg = "SIZE", .help = "iozone's -n: smallest file size in auto mode" },
	{ .name = "g", .owner = "sweep", .type = OT_SPECIAL, OWN(max_size), .def = "512m", .set = set_kib,
	  .print = print_kib, .arg = "SIZE",
	  .help = "iozone's -g: largest file size in auto mode" },
	{ .name = "y", .owner = "sweep", .type = OT_SPECIAL, OWN(min_rec), .def = "4", .set = set_kib, .print = print_kib,
	  .arg = "SIZE", .help = "iozone's -y: smallest record size in auto mode" },
	{ .name = "q", .owner = "sweep", .type = OT_SPECIAL, OWN(max_rec), .def = "16m", .set = set_kib,
	  .print = print_kib, .arg = "SIZE",
	  .help = "iozone's -q: largest record size in auto mode" },
	{ .name = "i", .owner = "sweep", .type = OT_SPECIAL, OWN(tests), .set = set_sweep_i, .print = print_sweep_i,
	  .arg = "N",
	  .help = "iozone's -i: a test to run, repeatable (0 write/rewrite, 1 read/reread, 2 random read/write, 3 backward read, 4 record rewrite, 5 stride read; default: all)" },
	{ .name = "I", .owner = "sweep", .type = OT_BOOL, OWN(direct), .def = "0", .bare = "1",
	  .help = "iozone's -I: O_DIRECT" },
	{ .name = "e", .owner = "sweep", .type = OT_BOOL, OWN(fsync), .def = "0", .bare = "1",
	  .help = "iozone's -e: the fsync at the end of a write test counts in its time" },
	{ .name = "c", .owner = "sweep", .type = OT_BOOL, OWN(close), .def = "0", .bare = "1",
	  .help = "iozone's -c: the close at the end of a test counts in its time" },
	{ .name = "R", .owner = "sweep", .type = OT_BOOL, OWN(excel), .def = "0", .bare = "1",
	  .help = "iozone's -R: the Excel-style report after the table" },
	{ .name = "b", .owner = "sweep", .type = OT_STR, OWN(excel_file), .arg = "FILE",
	  .help = "iozone's -b: also write the Excel-style report to FILE (text, not a binary .xls; a regular file or a new path: a device, FIFO or directory is refused)" },
	{ .name = "z", .owner = "sweep", .type = OT_BOOL, OWN(no_crossover), .def = "0", .bare = "1",
	  .help = "iozone's -z: small records for large files too (no crossover at 32 MiB files)" },
	{ .name = "csv", .owner = "sweep", .type = OT_BOOL, OWN(csv), .def = "0", .bare = "1",
	  .help = "The main table as CSV (a header row, a row per file and record size, KiB/s)" },
	{ .name = NULL },
};
OPTION_ROWS(sweep_rows, .after = "warn-unsupported", .order = 30, .rows = rows);
