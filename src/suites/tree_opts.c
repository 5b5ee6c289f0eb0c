/*
 * tree's values with a syntax of their own: --streams (N, A..B doublings, or a
 * list) and --tree-filesize (MIN[-MAX]).  A list prints as the streams it
 * holds, so a saved one reads back as it was.
 */
#include "base/common.h"
#include "options/options.h"
#include "base/units.h"
#include "options/option_values.h"
#include "suites/tree_opts.h"
#include "base/digest.h"
#include "base/compress.h"

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

static int set_tree_streams(void *obj, const struct opt_def *o, const char *val, char *err, size_t errlen)
{
	struct tree_opts *t = (struct tree_opts *)obj;
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

static void print_tree_streams(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct tree_opts *t = (const struct tree_opts *)obj;
	size_t k = 0;
	(void)o;
	buf[0] = 0;
	for (unsigned i = 0; i < t->nstreams && k + 1 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%u", i ? "," : "", t->streams[i]);
}

static int set_tree_filesize(void *obj, const struct opt_def *o, const char *val, char *err, size_t errlen)
{
	struct tree_opts *t = (struct tree_opts *)obj;
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

static void print_tree_filesize(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct tree_opts *t = (const struct tree_opts *)obj;
	char a[32], b[32];
	(void)o;
	print_size(t->size_lo, a, sizeof(a));
	print_size(t->size_hi, b, sizeof(b));
	if (t->size_lo == t->size_hi)
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s-%s", a, b);
}

/* ---- the rows */

#define J(f) OPT_FIELD(SCOPE_JOB, struct job, f)
#define S(f) OPT_FIELD(SCOPE_SETTINGS, struct settings, f)
#define OWN(f) OPT_FIELD(SCOPE_OWN, struct tree_opts, f)

static const struct opt_def rows[] = {
	/* ---- tree (src/suites/tree.c): seed 003's tar | dd with N streams, md5 of a whole tree, backups */
	{ .name = "streams", .owner = "tree", .type = OT_SPECIAL, OWN(streams), .set = set_tree_streams,
	  .print = print_tree_streams, .arg = "N|A..B|N,N...",
	  .help = "Stream counts to read the tree with, a case each: N is 1, 2, 4 ... N; A..B is A, 2A, 4A ... B; or a list in increasing order (at most 32, each 1 to 256; not given: 1, 2, 4 ... up to twice the CPUs, at least 4, at most 25)" },
	{ .name = "hash", .owner = "tree", .type = OT_ENUM, OWN(hash), .def = "none", .values = digest_names,
	  .help = "Checksum every file as it is read, in its stream: md5, sha256 (libcrypto), xxhash (XXH64, xxhsum's default), crc32c (isa-l); its time is the stream's, not the request's" },
	{ .name = "hash-out", .owner = "tree", .type = OT_STR, OWN(hash_out), .arg = "FILE",
	  .help = "With --hash: write a line per file to FILE as md5sum, sha256sum and xxhsum print them (`md5sum -c FILE` checks them); files that changed while read are left out" },
	{ .name = "compress", .owner = "tree", .type = OT_ENUM, OWN(compress), .def = "none", .values = compress_names,
	  .help = "Compress every file as it is read, in its stream, as a backup would, and count the output (thrown away): zstd as zstd -c, zlib as gzip -c, lzo as lzop -c (LZO1X-1 in 256 KiB blocks)" },
	{ .name = "compress-level", .owner = "tree", .type = OT_UINT, OWN(level), .def = "0", .max = 22, .arg = "N",
	  .help = "Compression level (0: the tool's default: zstd 3, gzip 6, lzop 3; lzo 7 to 9 is LZO1X-999)" },
	{ .name = "buffer", .owner = "tree", .type = OT_SIZE, J(bs), .min = 4096, .max = 1ULL << 30, .arg = "SIZE",
	  .flags = OPT_NO_ECHO,
	  .help = "Bytes each read of a file asks for, the stream's buffer (default 64k, as xxhsum reads: small enough that the kernel's readahead keeps ahead of the stream; 1 MiB reads wait for the device more, on a fast one a third slower)" },
	{ .name = "keep-cache", .owner = "tree", .type = OT_BOOL, J(invalidate), .bare = "1", .invert = true,
	  .flags = OPT_NO_ECHO,
	  .help = "Do not drop the files' pages from the page cache before each case: the figures are labelled cached" },
	{ .name = "make-tree", .owner = "tree", .type = OT_BOOL, OWN(make), .def = "0", .bare = "1",
	  .help = "Build a reproducible tree in a new directory in DIR (--tree-*, --data), read it, and remove it unless --keep" },
	{ .name = "tree-files", .owner = "tree", .type = OT_U64, OWN(files), .def = "1000", .min = 1, .max = 100000000,
	  .arg = "N", .help = "--make-tree: files in the tree" },
	{ .name = "tree-filesize", .owner = "tree", .type = OT_SPECIAL, OWN(size_lo), .def = "4k-1m", .set = set_tree_filesize,
	  .print = print_tree_filesize, .arg = "MIN[-MAX]",
	  .help = "--make-tree: file sizes, drawn log-uniformly from MIN to MAX (many small files, a few large ones)" },
	{ .name = "tree-files-per-dir", .owner = "tree", .type = OT_UINT, OWN(per_dir), .def = "64", .min = 1, .max = 1000000,
	  .arg = "N", .help = "--make-tree: files in each leaf directory" },
	{ .name = "tree-fanout", .owner = "tree", .type = OT_UINT, OWN(fanout), .def = "8", .max = 4096, .arg = "N",
	  .help = "--make-tree: subdirectories of each directory above the leaves (0: the leaves sit in the tree's top directory)" },
	{ .name = "tree-seed", .owner = "tree", .type = OT_U64, OWN(seed), .def = "1", .arg = "N",
	  .help = "--make-tree: the seed of the sizes and contents: the same seed and options build the same tree" },
	{ .name = NULL },
};
OPTION_ROWS(tree_rows, .after = "warn-unsupported", .order = 50, .rows = rows);
