/* Options in the classic tools' own syntax (bonnie++'s -s/-r/-n, iozone's -s/-r/-i lists). */
#include "common.h"
#include "options.h"
#include "option_values.h"
#include "steady.h"
#include "engines/engine.h"
#include "fio_opts.h"
#include "data.h"
#include "verify.h"

#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A bonnie++ size: a bare number is in `unit` bytes; k, m, g suffixes as everywhere. */
static int bonnie_size(const char *s, uint64_t unit, uint64_t *out)
{
	char *end;
	if (!*s)
		return -1;
	strtoull(s, &end, 10);
	if (!*end) {
		uint64_t v;
		if (parse_uint(s, &v) || (v && v > UINT64_MAX / unit))
			return -1;
		*out = v * unit;
		return 0;
	}
	return parse_size(s, out);
}

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

int set_bonnie_s(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct settings *s = obj;
	char f[4][64];
	uint64_t v;
	int k = split_colon(val, f, 4);
	struct bonnie_opts b = s->bonnie;
	b.chunk = 8192;
	b.seeks = 8192;
	b.seekers = 5;
	if (k < 1)
		goto bad;
	if (!strcmp(f[0], "auto"))
		b.size = UINT64_MAX;
	else if (bonnie_size(f[0], 1 << 20, &b.size))
		goto bad;
	if (k > 1 && (bonnie_size(f[1], 1, &b.chunk) || b.chunk < 256 || b.chunk > (1 << 20) ||
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
	s->bonnie = b;
	return 0;
bad:
	snprintf(err, n,
		 "-%s: '%s' is not SIZE[:CHUNK[:SEEKS[:SEEKERS]]] (SIZE in MiB when bare, or auto; CHUNK a power of two from 256 to 1m; 1 to 256 seekers, no more than the seeks)",
		 o->name, val);
	return -1;
}

void print_bonnie_s(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct bonnie_opts *b = &((const struct settings *)obj)->bonnie;
	char sz[32], ch[32];
	(void)o;
	if (b->size == UINT64_MAX)
		snprintf(sz, sizeof(sz), "auto");
	else
		print_size(b->size, sz, sizeof(sz));
	print_size(b->chunk, ch, sizeof(ch));
	snprintf(buf, len, "%s:%s:%u:%u", sz, ch, b->seeks, b->seekers);
}

int set_bonnie_r(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct settings *s = obj;
	uint64_t v;
	if (!strcmp(val, "auto")) {
		s->bonnie.ram = -1;
		return 0;
	}
	if (bonnie_size(val, 1 << 20, &v) || v > INT64_MAX) {
		snprintf(err, n, "-%s: '%s' is not an amount of RAM (MiB when bare; 0: no check; auto)", o->name, val);
		return -1;
	}
	s->bonnie.ram = (int64_t)v;
	return 0;
}

void print_bonnie_r(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	int64_t r = ((const struct settings *)obj)->bonnie.ram;
	(void)o;
	if (r < 0)
		snprintf(buf, len, "auto");
	else
		print_size((uint64_t)r, buf, len);
}

int set_bonnie_n(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct settings *s = obj;
	char f[4][64];
	uint64_t v;
	int k = split_colon(val, f, 4);
	struct bonnie_opts b = s->bonnie;
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
	s->bonnie = b;
	return 0;
bad:
	snprintf(err, n,
		 "-%s: '%s' is not N[:MAX[:MIN[:DIRS]]] (N files in units of 1024, up to 1048576; sizes up to 1g, MIN <= MAX)",
		 o->name, val);
	return -1;
}

void print_bonnie_n(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct bonnie_opts *b = &((const struct settings *)obj)->bonnie;
	char mx[32], mn[32];
	(void)o;
	print_size(b->max_size, mx, sizeof(mx));
	print_size(b->min_size, mn, sizeof(mn));
	if (!b->max_size && !b->dirs)
		snprintf(buf, len, "%u", b->nfiles);
	else
		snprintf(buf, len, "%u:%s:%s:%u", b->nfiles, mx, mn, b->dirs);
}

/* ---- sizes in KiB when bare (Orion's and iozone's unit), at the option's own field */

int set_kib(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	uint64_t v;
	if (bonnie_size(val, 1024, &v) || !v) {
		snprintf(err, n, "-%s: '%s' is not a size above 0 (KiB when bare; k, m, g suffixes)", o->name, val);
		return -1;
	}
	*(uint64_t *)((char *)obj + o->off) = v;
	return 0;
}

void print_kib(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	print_size(*(const uint64_t *)((const char *)obj + o->off), buf, len);
}

/* iozone's -s and -r: each use adds a size to the list. */
static int add_kib(uint64_t *list, unsigned *n, const struct opt_def *o, const char *val, char *err,
		   size_t errlen)
{
	uint64_t v;
	if (bonnie_size(val, 1024, &v) || !v) {
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
	struct sweep_opts *w = &((struct settings *)obj)->sweep;
	return add_kib(w->sizes, &w->nsizes, o, val, err, n);
}

static int one_sweep_r(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct sweep_opts *w = &((struct settings *)obj)->sweep;
	return add_kib(w->recs, &w->nrecs, o, val, err, n);
}

/* An empty value empties the list: iozone's default again (and what an empty list prints as). */
int set_sweep_s(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct sweep_opts *w = &((struct settings *)obj)->sweep;
	if (!*val) {
		memset(w->sizes, 0, sizeof(w->sizes));
		w->nsizes = 0;
	}
	return *val ? each_item(obj, o, val, err, n, one_sweep_s) : 0;
}

int set_sweep_r(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct sweep_opts *w = &((struct settings *)obj)->sweep;
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

void print_sweep_s(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct sweep_opts *w = &((const struct settings *)obj)->sweep;
	(void)o;
	print_list(w->sizes, w->nsizes, buf, len);
}

void print_sweep_r(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct sweep_opts *w = &((const struct settings *)obj)->sweep;
	(void)o;
	print_list(w->recs, w->nrecs, buf, len);
}

static int one_sweep_i(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);

/* iozone's -i N: tests 0 to 5 (the stdio and pread/pwrite families are not part of sweep). */
int set_sweep_i(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	if (!*val)
		((struct settings *)obj)->sweep.tests = 0; /* all */
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
	((struct settings *)obj)->sweep.tests |= 1u << v;
	return 0;
}

void print_sweep_i(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	unsigned t = ((const struct settings *)obj)->sweep.tests;
	size_t k = 0;
	(void)o;
	buf[0] = 0;
	for (unsigned i = 0; i < 6 && k + 3 < len; i++)
		if (t & (1u << i))
			k += (size_t)snprintf(buf + k, len - k, "%s%u", k ? "," : "", i);
}
