/* bonnie's own options: its rows, registered with OPTION_ROWS (no core table lists them). */
#include "base/common.h"
#include "options/options.h"
#include "base/units.h"
#include "options/option_values.h"
#include "suites/bonnie_opts.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define J(f) OPT_FIELD(SCOPE_JOB, struct job, f)
#define S(f) OPT_FIELD(SCOPE_SETTINGS, struct settings, f)
#define OWN(f) OPT_FIELD(SCOPE_OWN, struct bonnie_opts, f)

/* Split "a:b:c" into at most n fields (empty ones ""); the number of fields, or -1 for too many. */
static int split_colon(const char *val, char f[][64], int n)
{
	int k = 0;
	for (const char *p = val;; k++) {
		const char *c = strchr(p, ':');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		if (k == n || len >= 64)
			return -1;
		memcpy(f[k], p, len);
		f[k][len] = 0;
		if (!c)
			return k + 1;
		p = c + 1;
	}
}

static int set_bonnie_s(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct bonnie_opts *s = obj;
	char f[4][64];
	uint64_t v;
	int k = split_colon(val, f, 4);
	struct bonnie_opts b = *s;
	b.chunk = 8192;
	b.seeks = 8192;
	b.seekers = 5;
	if (k < 1)
		goto bad;
	if (!strcmp(f[0], "auto"))
		b.size = UINT64_MAX;
	else if (parse_size_in(f[0], 1 << 20, &b.size))
		goto bad;
	if (k > 1 && (parse_size_in(f[1], 1, &b.chunk) || b.chunk < 256 || b.chunk > (1 << 20) ||
		      (b.chunk & (b.chunk - 1))))
		goto bad;
	if (k > 2 && (parse_uint(f[2], &v) || !v || v > UINT32_MAX))
		goto bad;
	if (k > 2)
		b.seeks = (unsigned)v;
	if (k > 3 && (parse_uint(f[3], &v) || !v || v > 256))
		goto bad;
	if (k > 3)
		b.seekers = (unsigned)v;
	if (b.seekers > b.seeks)
		goto bad;
	*s = b;
	return 0;
bad:
	snprintf(err, n,
		 "-%s: '%s' is not SIZE[:CHUNK[:SEEKS[:SEEKERS]]] (SIZE in MiB when bare, or auto; CHUNK a power of two from 256 to 1m; 1 to 256 seekers, no more than the seeks)",
		 o->name, val);
	return -1;
}

static void print_bonnie_s(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct bonnie_opts *b = (const struct bonnie_opts *)obj;
	char sz[32], ch[32];
	(void)o;
	if (b->size == UINT64_MAX)
		snprintf(sz, sizeof(sz), "auto");
	else
		print_size(b->size, sz, sizeof(sz));
	print_size(b->chunk, ch, sizeof(ch));
	snprintf(buf, len, "%s:%s:%u:%u", sz, ch, b->seeks, b->seekers);
}

static int set_bonnie_r(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct bonnie_opts *s = obj;
	uint64_t v;
	if (!strcmp(val, "auto")) {
		s->ram = -1;
		return 0;
	}
	if (parse_size_in(val, 1 << 20, &v) || v > INT64_MAX) {
		snprintf(err, n, "-%s: '%s' is not an amount of RAM (MiB when bare; 0: no check; auto)", o->name, val);
		return -1;
	}
	s->ram = (int64_t)v;
	return 0;
}

static void print_bonnie_r(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	int64_t r = ((const struct bonnie_opts *)obj)->ram;
	(void)o;
	if (r < 0)
		snprintf(buf, len, "auto");
	else
		print_size((uint64_t)r, buf, len);
}

static int set_bonnie_n(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct bonnie_opts *s = obj;
	char f[4][64];
	uint64_t v;
	int k = split_colon(val, f, 4);
	struct bonnie_opts b = *s;
	b.max_size = b.min_size = 0;
	b.dirs = 0;
	if (k < 1 || parse_uint(f[0], &v) || v > (1u << 20))
		goto bad;
	b.nfiles = (unsigned)v;
	if (k > 1 && f[1][0] && (parse_size(f[1], &b.max_size) || b.max_size > (1ULL << 30)))
		goto bad;
	if (k > 2 && f[2][0] && (parse_size(f[2], &b.min_size) || b.min_size > b.max_size))
		goto bad;
	if (k > 3 && f[3][0] && (parse_uint(f[3], &v) || v > (1u << 20)))
		goto bad;
	if (k > 3)
		b.dirs = (unsigned)v;
	*s = b;
	return 0;
bad:
	snprintf(err, n,
		 "-%s: '%s' is not N[:MAX[:MIN[:DIRS]]] (N files in units of 1024, up to 1048576; sizes up to 1g, MIN <= MAX)",
		 o->name, val);
	return -1;
}

static void print_bonnie_n(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct bonnie_opts *b = (const struct bonnie_opts *)obj;
	char mx[32], mn[32];
	(void)o;
	print_size(b->max_size, mx, sizeof(mx));
	print_size(b->min_size, mn, sizeof(mn));
	if (!b->max_size && !b->dirs)
		snprintf(buf, len, "%u", b->nfiles);
	else
		snprintf(buf, len, "%u:%s:%s:%u", b->nfiles, mx, mn, b->dirs);
}

static const struct opt_def rows[] = {
	/* ---- bonnie (src/suites/bonnie.c): bonnie++'s options, as bonnie++ spells them */
	{ .name = "s", .owner = "bonnie", .type = OT_SPECIAL, OWN(size), .def = "auto", .set = set_bonnie_s,
	  .print = print_bonnie_s, .arg = "SIZE[:CHUNK[:SEEKS[:SEEKERS]]]",
	  .help = "bonnie++'s -s: test file size (MiB when bare; auto: twice the RAM; 0: no I/O tests), block size, seeks in all and seeker threads" },
	{ .name = "r", .owner = "bonnie", .type = OT_SPECIAL, OWN(ram), .def = "auto", .set = set_bonnie_r,
	  .print = print_bonnie_r, .arg = "RAM",
	  .help = "bonnie++'s -r: the RAM the file must be twice as large as (MiB when bare; auto: this machine's; 0: no check)" },
	{ .name = "n", .owner = "bonnie", .type = OT_SPECIAL, OWN(nfiles), .def = "16", .set = set_bonnie_n,
	  .print = print_bonnie_n, .arg = "N[:MAX[:MIN[:DIRS]]]",
	  .help = "bonnie++'s -n: N x 1024 files to create, stat and delete (0: none), of MIN to MAX bytes, in DIRS directories" },
	{ .name = "m", .owner = "bonnie", .type = OT_STR, OWN(name), .arg = "NAME",
	  .help = "bonnie++'s -m: the machine's name in the tables (default: the host name)" },
	{ .name = "q", .owner = "bonnie", .type = OT_BOOL, OWN(csv), .def = "0", .bare = "1",
	  .help = "bonnie++'s -q: the CSV line alone on stdout, the text table on stderr" },
	{ .name = "f", .owner = "bonnie", .type = OT_BOOL, OWN(no_chars), .def = "0", .bare = "1",
	  .help = "bonnie++'s -f: no per-character tests" },
	{ .name = "D", .owner = "bonnie", .type = OT_BOOL, OWN(direct), .def = "0", .bare = "1",
	  .help = "bonnie++'s -D: O_DIRECT for the block tests: output, rewrite, input, seeks (bonnie++ 2.00a opens O_DIRECT for block output alone; per-character I/O goes through stdio)" },
	{ .name = "keep-cache", .owner = "bonnie", .type = OT_BOOL, OWN(keep_cache), .def = "0", .bare = "1",
	  .help = "Keep the page cache between the tests, as bonnie++ does (with a file smaller than the RAM, rewrite, input and seeks then read the cache); without it the cache is dropped before each read test" },
	{ .name = NULL },
};
OPTION_ROWS(bonnie_rows, .after = "warn-unsupported", .order = 10, .rows = rows);
