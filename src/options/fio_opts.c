/*
 * Setters and printers of the option table's rows for fio's block sizes and
 * patterns: bs=R,W, bsrange, bssplit, blockalign, percentage_random, rw with
 * its :N modifier, and the zoned distributions.  Values are written as fio
 * writes them and printed back so that they read the same.
 */
#include "base/common.h"
#include "options/fio_opts.h"
#include "options/opt_def.h"
#include "base/units.h"
#include "model/job_names.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define J_OBJ(obj) ((struct job *)(obj))
#define CJ_OBJ(obj) ((const struct job *)(obj))

/* "R[,W[,T]]": the parts of a per-direction value (T, trim, is accepted and ignored). */
int split_dirs(const char *val, char parts[DDIR_NR][256])
{
	const char *comma = strchr(val, ',');
	size_t n = comma ? (size_t)(comma - val) : strlen(val);
	if (n >= 256 || (comma && strlen(comma + 1) >= 256))
		return -1;
	memcpy(parts[0], val, n);
	parts[0][n] = 0;
	if (!comma) {
		strcpy(parts[1], parts[0]);
		return 0;
	}
	const char *trim = strchr(comma + 1, ',');
	n = trim ? (size_t)(trim - comma - 1) : strlen(comma + 1);
	memcpy(parts[1], comma + 1, n);
	parts[1][n] = 0;
	return 0;
}

static void print_sizes2(char *buf, size_t len, uint64_t a, uint64_t b)
{
	char x[32], y[32];
	print_size(a, x, sizeof(x));
	print_size(b, y, sizeof(y));
	if (a == b)
		snprintf(buf, len, "%s", x);
	else
		snprintf(buf, len, "%s,%s", x, y);
}

/* ---- bs=R,W */

int fio_set_bs(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = J_OBJ(obj);
	char parts[DDIR_NR][256];
	uint64_t v[DDIR_NR];
	if (!*val || split_dirs(val, parts)) /* an empty part keeps its value; an empty value is no size */
		goto bad;
	for (int d = 0; d < DDIR_NR; d++) {
		/* fio: an empty part keeps that direction's value ("bs=,8k"). */
		if (!parts[d][0]) {
			v[d] = d == IO_READ ? j->bs : (j->bs_write ? j->bs_write : j->bs);
			continue;
		}
		if (parse_size(parts[d], &v[d]))
			goto bad;
		if (!v[d] || v[d] > (1ULL << 30)) {
			snprintf(err, n, "--%s: %s is out of range (allowed: 1 to %llu)", o->name, parts[d],
				 1ULL << 30);
			return -1;
		}
	}
	/* fio's third part is the trims' size; without it, trims take the writes' size. */
	const char *c1 = strchr(val, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
	uint64_t t = 0;
	if (c2 && c2[1] && (parse_size(c2 + 1, &t) || !t || t > (1ULL << 30)))
		goto bad;
	j->bs = v[IO_READ];
	j->bs_write = v[IO_WRITE] == v[IO_READ] ? 0 : v[IO_WRITE];
	j->bs_trim = t == v[IO_WRITE] ? 0 : t;
	return 0;
bad:
	snprintf(err, n, "--%s: '%s' is not a size (or READ,WRITE[,TRIM] sizes)", o->name, val);
	return -1;
}

void fio_print_bs(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = CJ_OBJ(obj);
	(void)o;
	print_sizes2(buf, len, j->bs, j->bs_write ? j->bs_write : j->bs);
	if (j->bs_trim) {
		char r[32], w[32], t[32];
		print_size(j->bs, r, sizeof(r));
		print_size(j->bs_write ? j->bs_write : j->bs, w, sizeof(w));
		print_size(j->bs_trim, t, sizeof(t));
		snprintf(buf, len, "%s,%s,%s", r, w, t);
	}
}

/* ---- bsrange=A-B[,C-D] */

/*
 * One end of a range as fio 3.33 reads it when it is no plain size: a number
 * and the first letter of a unit, the rest ignored (its regression job t0023
 * writes "512/25:1k:25:2k:25:4k/25", which fio runs as 512-1k).
 */
static int range_end(const char *s, uint64_t *v)
{
	if (!parse_size(s, v))
		return 0;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (end == s || errno || *s == '-')
		return -1;
	static const char units[] = "kmgtp";
	const char *u = *end ? strchr(units, tolower((unsigned char)*end)) : NULL;
	unsigned shift = u && *u ? 10 * (unsigned)(u - units + 1) : 0;
	if (x > (UINT64_MAX >> shift))
		return -1;
	*v = (uint64_t)x << shift;
	return 0;
}

int fio_set_bsrange(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = J_OBJ(obj);
	char parts[DDIR_NR][256];
	uint64_t r[DDIR_NR][2];
	if (!*val) { /* none: as printed when unset */
		memset(j->bsrange, 0, sizeof(j->bsrange));
		return 0;
	}
	if (split_dirs(val, parts))
		goto bad;
	for (int d = 0; d < DDIR_NR; d++) {
		/* fio: MIN-MAX or MIN:MAX, either way round. */
		char *dash = strchr(parts[d], '-');
		if (!dash)
			dash = strchr(parts[d], ':');
		if (!dash)
			goto bad;
		*dash = 0;
		if (range_end(parts[d], &r[d][0]) || range_end(dash + 1, &r[d][1]))
			goto bad;
		if (r[d][0] > r[d][1]) {
			uint64_t t = r[d][0];
			r[d][0] = r[d][1];
			r[d][1] = t;
		}
		if (!r[d][0] || r[d][1] > (1ULL << 30))
			goto bad;
	}
	memcpy(j->bsrange, r, sizeof(r));
	return 0;
bad:
	snprintf(err, n, "--%s: '%s' is not a range MIN-MAX (or MIN:MAX) of block sizes up to 1g (or READ,WRITE ranges)",
		 o->name, val);
	return -1;
}

void fio_print_bsrange(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = CJ_OBJ(obj);
	char p[DDIR_NR][64];
	(void)o;
	for (int d = 0; d < DDIR_NR; d++) {
		char a[32], b[32];
		print_size(j->bsrange[d][0], a, sizeof(a));
		print_size(j->bsrange[d][1], b, sizeof(b));
		snprintf(p[d], sizeof(p[d]), "%s-%s", a, b);
	}
	if (!j->bsrange[0][0] && !j->bsrange[1][0])
		buf[0] = 0;
	else if (!strcmp(p[0], p[1]))
		snprintf(buf, len, "%s", p[0]);
	else
		snprintf(buf, len, "%s,%s", p[0], p[1]);
}

/* ---- bssplit=4k/10:64k/50[,...] */

/* One direction's split, as fio's bssplit_ddir: blanks share what is left, sorted by percentage. */
static int bssplit_dir(const char *s, struct bs_split *out, unsigned *nout)
{
	unsigned n = 0, total = 0, missing = 0;
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *save = NULL, *e = strtok_r(buf, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		if (n == BSSPLIT_MAX)
			return -1;
		char *slash = strchr(e, '/');
		unsigned pct = 0;
		if (slash) {
			*slash = 0;
			uint64_t p;
			if (slash[1] && (parse_uint(slash + 1, &p) || p > 100))
				return -1;
			pct = slash[1] ? (unsigned)p : 0;
		}
		uint64_t bs;
		if (parse_size(e, &bs) || !bs || bs > (1ULL << 30))
			return -1;
		out[n].bs = bs;
		out[n].pct = pct;
		if (pct)
			total += pct;
		else
			missing++;
		n++;
	}
	if (!n || total > 100 || (!missing && total != 100) || (missing && total == 100))
		return -1;
	for (unsigned i = 0; i < n; i++)
		if (!out[i].pct)
			out[i].pct = (100 - total) / missing;
	/* fio orders the entries by percentage (its lookup walks them so). */
	for (unsigned a = 1; a < n; a++)
		for (unsigned b = a; b > 0 && out[b - 1].pct > out[b].pct; b--) {
			struct bs_split t = out[b];
			out[b] = out[b - 1];
			out[b - 1] = t;
		}
	*nout = n;
	return 0;
}

int fio_set_bssplit(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = J_OBJ(obj);
	char parts[DDIR_NR][256];
	struct bs_split tmp[DDIR_NR][BSSPLIT_MAX];
	unsigned cnt[DDIR_NR];
	if (!*val) { /* none: as printed when unset */
		memset(j->bssplit, 0, sizeof(j->bssplit));
		memset(j->nbssplit, 0, sizeof(j->nbssplit));
		return 0;
	}
	if (split_dirs(val, parts) || bssplit_dir(parts[0], tmp[0], &cnt[0]) ||
	    bssplit_dir(parts[1], tmp[1], &cnt[1])) {
		snprintf(err, n,
			 "--%s: '%s' is not a list SIZE/PCT:SIZE/PCT... of up to %d sizes whose "
			 "percentages add up to 100 (a blank PCT shares what is left; READ,WRITE lists)",
			 o->name, val, BSSPLIT_MAX);
		return -1;
	}
	memset(j->bssplit, 0, sizeof(j->bssplit));
	for (int d = 0; d < DDIR_NR; d++)
		memcpy(j->bssplit[d], tmp[d], cnt[d] * sizeof(tmp[d][0]));
	memcpy(j->nbssplit, cnt, sizeof(cnt));
	return 0;
}

static size_t print_split(const struct bs_split *s, unsigned n, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < n && k < len; i++) {
		char b[32];
		print_size(s[i].bs, b, sizeof(b));
		k += (size_t)snprintf(buf + k, len - k, "%s%s/%u", i ? ":" : "", b, s[i].pct);
	}
	return k;
}

void fio_print_bssplit(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = CJ_OBJ(obj);
	char a[1024], b[1024];
	(void)o;
	print_split(j->bssplit[0], j->nbssplit[0], a, sizeof(a));
	print_split(j->bssplit[1], j->nbssplit[1], b, sizeof(b));
	if (!strcmp(a, b))
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s,%s", a, b);
}

/* ---- blockalign=A[,B] */

int fio_set_blockalign(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = J_OBJ(obj);
	char parts[DDIR_NR][256];
	uint64_t v[DDIR_NR];
	if (split_dirs(val, parts))
		goto bad;
	for (int d = 0; d < DDIR_NR; d++)
		if (parse_size(parts[d], &v[d]) || v[d] > (1ULL << 30))
			goto bad;
	memcpy(j->blockalign, v, sizeof(v));
	return 0;
bad:
	snprintf(err, n, "--%s: '%s' is not an alignment in bytes (or READ,WRITE alignments)", o->name,
		 val);
	return -1;
}

void fio_print_blockalign(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = CJ_OBJ(obj);
	(void)o;
	print_sizes2(buf, len, j->blockalign[0], j->blockalign[1]);
}

/* ---- percentage_random=N[,M] */

int fio_set_pct_random(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = J_OBJ(obj);
	char parts[DDIR_NR][256];
	uint64_t v[DDIR_NR];
	if (split_dirs(val, parts) || parse_uint(parts[0], &v[0]) || parse_uint(parts[1], &v[1]) ||
	    v[0] > 100 || v[1] > 100) {
		snprintf(err, n, "--%s: '%s' is not a percentage from 0 to 100 (or READ,WRITE)", o->name,
			 val);
		return -1;
	}
	j->pct_random[0] = (unsigned)v[0];
	j->pct_random[1] = (unsigned)v[1];
	return 0;
}

void fio_print_pct_random(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = CJ_OBJ(obj);
	(void)o;
	if (j->pct_random[0] == j->pct_random[1])
		snprintf(buf, len, "%u", j->pct_random[0]);
	else
		snprintf(buf, len, "%u,%u", j->pct_random[0], j->pct_random[1]);
}

/* ---- rw=NAME[:N] */

int fio_set_rw(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = J_OBJ(obj);
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	int rw = -1;
	for (int i = 0; rw_names[i]; i++)
		if (strlen(rw_names[i]) == len && !strncmp(val, rw_names[i], len))
			rw = i;
	if (rw < 0) {
		int k = snprintf(err, n, "--%s: '%s' is not allowed (allowed:", o->name, val);
		for (int i = 0; rw_names[i] && k > 0 && (size_t)k < n; i++)
			k += snprintf(err + k, n - k, "%s%s", i ? "|" : " ", rw_names[i]);
		if (k > 0 && (size_t)k < n)
			snprintf(err + k, n - k, ", with :N after it)");
		return -1;
	}
	int64_t skip = 0;
	unsigned nr = 0;
	if (colon) {
		const char *m = colon + 1;
		uint64_t v;
		if (rw_is_random(rw)) {
			if (parse_uint(m, &v) || !v || v > UINT32_MAX) {
				snprintf(err, n, "--%s: '%s': a random pattern takes :N, a new random offset "
						 "every N requests (N >= 1)", o->name, val);
				return -1;
			}
			nr = (unsigned)v;
		} else {
			bool neg = *m == '-';
			if (parse_size(m + neg, &v) || v > (uint64_t)INT64_MAX) {
				snprintf(err, n, "--%s: '%s': a sequential pattern takes :SIZE, bytes to skip "
						 "after each request (-SIZE: backwards)", o->name, val);
				return -1;
			}
			skip = neg ? -(int64_t)v : (int64_t)v;
		}
	}
	j->rw = rw;
	j->rw_skip = skip;
	j->rw_seq_nr = nr;
	return 0;
}

void fio_print_rw(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = CJ_OBJ(obj);
	(void)o;
	if (j->rw_seq_nr > 1 || (j->rw_seq_nr == 1 && rw_is_random(j->rw))) {
		snprintf(buf, len, "%s:%u", rw_names[j->rw], j->rw_seq_nr);
	} else if (j->rw_skip) {
		char s[32];
		print_size(j->rw_skip < 0 ? (uint64_t)-j->rw_skip : (uint64_t)j->rw_skip, s, sizeof(s));
		snprintf(buf, len, "%s:%s%s", rw_names[j->rw], j->rw_skip < 0 ? "-" : "", s);
	} else {
		snprintf(buf, len, "%s", rw_names[j->rw]);
	}
}

/* ---- random_distribution=zoned:60/10:30/20:10/70 and zoned_abs:60/1g:40/10g */

int fio_parse_zones(const char *spec, bool absolute, struct job *j)
{
	char buf[512];
	unsigned n = 0, access = 0, size = 0, missing = 0;
	struct zone_split z[ZONES_MAX];
	if (strlen(spec) >= sizeof(buf))
		return -1;
	strcpy(buf, spec);
	for (char *save = NULL, *e = strtok_r(buf, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(e, '/');
		uint64_t a, s = 0;
		if (n == ZONES_MAX || !slash)
			return -1;
		*slash = 0;
		if (parse_uint(e, &a) || !a || a > 100)
			return -1;
		if (slash[1] && (absolute ? parse_size(slash + 1, &s) : parse_uint(slash + 1, &s)))
			return -1;
		if (!absolute && s > 100)
			return -1;
		z[n].access_pct = (unsigned)a;
		z[n].size_pct = absolute ? 0 : (unsigned)s;
		z[n].size_abs = absolute ? s : 0;
		access += (unsigned)a;
		if (!absolute)
			size += (unsigned)s;
		if (!s)
			missing++;
		n++;
	}
	if (!n || access != 100 || (!absolute && size > 100) || (absolute && missing))
		return -1;
	/* Blank sizes share what is left of the region, as fio fills them in. */
	for (unsigned i = 0; i < n && !absolute && missing; i++)
		if (!z[i].size_pct)
			z[i].size_pct = (100 - size) / missing;
	memcpy(j->zones, z, n * sizeof(*z));
	j->nzones = n;
	j->zones_abs = absolute;
	return 0;
}

void fio_print_zones(const struct job *j, char *buf, size_t len)
{
	size_t k = (size_t)snprintf(buf, len, "%s:", j->zones_abs ? "zoned_abs" : "zoned");
	for (unsigned i = 0; i < j->nzones && k < len; i++) {
		char s[32];
		if (j->zones_abs)
			print_size(j->zones[i].size_abs, s, sizeof(s));
		else
			snprintf(s, sizeof(s), "%u", j->zones[i].size_pct);
		k += (size_t)snprintf(buf + k, len - k, "%s%u/%s", i ? ":" : "", j->zones[i].access_pct, s);
	}
}

/* ---- filesize=SIZE[-SIZE], startdelay=TIME[-TIME]: a value or a range */

static int split_range(const char *val, char *a, char *b, size_t len)
{
	const char *dash = strchr(val, '-');
	size_t n = dash ? (size_t)(dash - val) : strlen(val);
	if (n >= len || (dash && strlen(dash + 1) >= len))
		return -1;
	memcpy(a, val, n);
	a[n] = 0;
	snprintf(b, len, "%s", dash ? dash + 1 : a);
	return 0;
}

int fio_set_filesize(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = J_OBJ(obj);
	char a[128], b[128];
	uint64_t lo, hi;
	if (split_range(val, a, b, sizeof(a)) || parse_size(a, &lo) || parse_size(b, &hi) || lo > hi) {
		snprintf(err, n, "--%s: '%s' is not a size or a range MIN-MAX of sizes", o->name, val);
		return -1;
	}
	j->filesize[0] = lo;
	j->filesize[1] = hi;
	return 0;
}

void fio_print_filesize(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = CJ_OBJ(obj);
	char a[32], b[32];
	(void)o;
	print_size(j->filesize[0], a, sizeof(a));
	print_size(j->filesize[1], b, sizeof(b));
	if (j->filesize[0] == j->filesize[1])
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s-%s", a, b);
}

int fio_set_startdelay(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = J_OBJ(obj);
	char a[128], b[128];
	uint64_t lo, hi;
	if (split_range(val, a, b, sizeof(a)) || parse_time(a, "s", &lo) || parse_time(b, "s", &hi) ||
	    lo > hi) {
		snprintf(err, n, "--%s: '%s' is not a time or a range MIN-MAX of times", o->name, val);
		return -1;
	}
	j->startdelay_ns[0] = lo;
	j->startdelay_ns[1] = hi;
	return 0;
}

void fio_print_startdelay(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = CJ_OBJ(obj);
	char a[32], b[32];
	(void)o;
	print_time(j->startdelay_ns[0], a, sizeof(a));
	print_time(j->startdelay_ns[1], b, sizeof(b));
	if (j->startdelay_ns[0] == j->startdelay_ns[1])
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s-%s", a, b);
}

/* ---- file_service_type=roundrobin|sequential|random[:N] */

static const char *const fservice_names[] = { "roundrobin", "sequential", "random" };

int fio_set_fservice(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = J_OBJ(obj);
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	uint64_t nr = 1;
	for (int k = 0; k < 3; k++) {
		if (strlen(fservice_names[k]) != len || strncmp(val, fservice_names[k], len))
			continue;
		if (colon && (parse_uint(colon + 1, &nr) || !nr || nr > UINT32_MAX))
			break;
		j->file_service = k;
		j->file_service_nr = (unsigned)nr;
		return 0;
	}
	snprintf(err, n, "--%s: '%s' is not allowed (allowed: roundrobin, sequential, random, each "
			 "with :N requests before switching; fio's zipf, pareto and normal are not supported)",
		 o->name, val);
	return -1;
}

void fio_print_fservice(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = CJ_OBJ(obj);
	(void)o;
	if (j->file_service_nr > 1)
		snprintf(buf, len, "%s:%u", fservice_names[j->file_service], j->file_service_nr);
	else
		snprintf(buf, len, "%s", fservice_names[j->file_service]);
}
