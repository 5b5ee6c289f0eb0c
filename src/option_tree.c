/*
 * tree's values with a syntax of their own: --streams (N, A..B doublings, or a
 * list) and --tree-filesize (MIN[-MAX]).  A list prints as the streams it
 * holds, so a saved one reads back as it was.
 */
#include "common.h"
#include "options.h"
#include "option_values.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STREAMS_MAX 256 /* --numjobs's limit */

static int bad_streams(const struct opt_def *o, const char *val, char *err, size_t n, const char *why)
{
	snprintf(err, n, "--%s: '%s' %s (N: 1, 2, 4 ... N; A..B: A, 2A, 4A ... B; or a list 1,3,10; from 1 to %d, at most %d values)",
		 o->name, val, why, STREAMS_MAX, TREE_MAX_STREAMS);
	return -1;
}

static int one_count(const char *s, size_t len, unsigned *out)
{
	char buf[16];
	uint64_t v;
	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	if (parse_uint(buf, &v) || v < 1 || v > STREAMS_MAX)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* A, 2A, 4A ... below B, then B. */
static unsigned doublings(unsigned a, unsigned b, unsigned *out)
{
	unsigned n = 0;
	for (unsigned v = a; v < b && n + 1 < TREE_MAX_STREAMS; v *= 2)
		out[n++] = v;
	out[n++] = b;
	return n;
}

int set_tree_streams(void *obj, const struct opt_def *o, const char *val, char *err, size_t errlen)
{
	struct tree_opts *t = &((struct settings *)obj)->tree;
	unsigned v[TREE_MAX_STREAMS], n = 0, a, b;
	const char *dots = strstr(val, "..");
	if (!*val) {
		n = 0;
	} else if (dots) {
		if (one_count(val, (size_t)(dots - val), &a) || one_count(dots + 2, strlen(dots + 2), &b) || a > b)
			return bad_streams(o, val, err, errlen, "is not a range A..B with A <= B");
		n = doublings(a, b, v);
	} else if (!strchr(val, ',')) {
		if (one_count(val, strlen(val), &b))
			return bad_streams(o, val, err, errlen, "is not a count of streams");
		n = doublings(1, b, v);
	} else {
		for (const char *p = val;;) {
			const char *c = strchr(p, ',');
			size_t len = c ? (size_t)(c - p) : strlen(p);
			if (n == TREE_MAX_STREAMS)
				return bad_streams(o, val, err, errlen, "has too many values");
			if (one_count(p, len, &v[n]))
				return bad_streams(o, val, err, errlen, "has a value that is not a count of streams");
			for (unsigned k = 0; k < n; k++)
				if (v[k] >= v[n])
					return bad_streams(o, val, err, errlen, "is not in increasing order");
			n++;
			if (!c)
				break;
			p = c + 1;
		}
	}
	memset(t->streams, 0, sizeof(t->streams)); /* the unused tail too: a list compares as its values */
	memcpy(t->streams, v, n * sizeof(v[0]));
	t->nstreams = n;
	return 0;
}

void print_tree_streams(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct tree_opts *t = &((const struct settings *)obj)->tree;
	size_t k = 0;
	(void)o;
	buf[0] = 0;
	for (unsigned i = 0; i < t->nstreams && k + 1 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%u", i ? "," : "", t->streams[i]);
}

int set_tree_filesize(void *obj, const struct opt_def *o, const char *val, char *err, size_t errlen)
{
	struct tree_opts *t = &((struct settings *)obj)->tree;
	char lo[64];
	const char *dash = strchr(val, '-');
	uint64_t a, b;
	size_t ll = dash ? (size_t)(dash - val) : strlen(val);
	if (ll >= sizeof(lo))
		goto bad;
	memcpy(lo, val, ll);
	lo[ll] = 0;
	if (parse_size(lo, &a) || (dash ? parse_size(dash + 1, &b) : (b = a, 0)) || a > b || b > (1ULL << 40))
		goto bad;
	t->size_lo = a;
	t->size_hi = b;
	return 0;
bad:
	snprintf(err, errlen, "--%s: '%s' is not MIN[-MAX], sizes from 0 to 1t with MIN <= MAX", o->name, val);
	return -1;
}

void print_tree_filesize(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct tree_opts *t = &((const struct settings *)obj)->tree;
	char a[32], b[32];
	(void)o;
	print_size(t->size_lo, a, sizeof(a));
	print_size(t->size_hi, b, sizeof(b));
	if (t->size_lo == t->size_hi)
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s-%s", a, b);
}
