/* The option table, and applying and printing options of jobs and settings. */
#include "common.h"
#include "options.h"
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

#define J(f) .scope = SCOPE_JOB, .off = offsetof(struct job, f), .len = sizeof(((struct job *)0)->f)
#define S(f)                                                                                      \
	.scope = SCOPE_SETTINGS, .off = offsetof(struct settings, f),                             \
	.len = sizeof(((struct settings *)0)->f)

const char *const rw_names[] = { "read", "write", "randread", "randwrite",
				 "rw", "readwrite", "randrw", NULL };
const char *const dist_names[] = { "random", "zipf", "pareto", "normal", "zoned", NULL };
static const char *const exit_what_names[] = { "group", "stonewall", "all", NULL };
static const char *const rate_process_names[] = { "linear", "poisson", NULL };
static const char *const submit_mode_names[] = { "inline", NULL };
static const char *const fallocate_names[] = { "none", "native", "posix", "keep", "truncate", "0", "1", NULL };
static const char *const rw_seq_names[] = { "sequential", "identical", NULL };
static const char *const randgen_names[] = { "tausworthe", "lfsr", "tausworthe64", NULL };
const char *const segment_names[] = { "block", "interleaved", NULL };
const char *const rank_results_names[] = { "auto", "full", "brief", "none", NULL };
static const char *const fmt_values[] = { "normal", "json", "fio-json", "json+", "terse", NULL };
const char *const fileop_names[] = { "none", "create", "stat", "open", "unlink", "mkdir", "rmdir", NULL };
static const char *const file_order_names[] = { "sequential", "random", NULL };

#define DEFAULT_PERCENTILES "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99"

/* The shortest decimal that reads back as exactly v. */
static int print_double(char *buf, size_t len, double v)
{
	for (int prec = 6; prec < 17; prec++) {
		int n = snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return n;
	}
	return snprintf(buf, len, "%.17g", v);
}

/* ---- special options: a setter and a printer each */

static int set_engine(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	const struct engine_ops *e = strcmp(val, "auto") ? engine_by_name(val) : engine_default();
	if (!e && !strcmp(val, engine_fileops.name))
		e = &engine_fileops; /* not listed: a --fileop job's own, as its saved options name it */
	if (!e) {
		char list[256];
		engine_list(list, sizeof(list));
		snprintf(err, n, "--%s: unknown engine '%s' (allowed: %s)", o->name, val, list);
		return -1;
	}
	((struct job *)obj)->engine = e;
	return 0;
}

static void print_engine(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%s", ((const struct job *)obj)->engine->name);
}

static int set_rwmixwrite(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	uint64_t v;
	if (parse_uint(val, &v) || v > 100) {
		snprintf(err, n, "--%s: '%s' is not a percentage from 0 to 100", o->name, val);
		return -1;
	}
	((struct job *)obj)->rwmixread = 100 - (unsigned)v;
	return 0;
}

static void print_rwmixwrite(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%u", 100 - ((const struct job *)obj)->rwmixread);
}

static const char *const sync_words[] = { "0", "1", "none", "sync", "dsync" };
static const int sync_modes[] = { SYNC_NONE, SYNC_SYNC, SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };

static int set_sync(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(sync_words); i++) {
		if (!strcmp(val, sync_words[i])) {
			((struct job *)obj)->sync = sync_modes[i];
			return 0;
		}
	}
	snprintf(err, n, "--%s: '%s' is not allowed (allowed: 0, 1, none, sync, dsync)", o->name, val);
	return -1;
}

static void print_sync(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	static const char *const shown[] = { "none", "sync", "dsync" };
	(void)o;
	snprintf(buf, len, "%s", shown[((const struct job *)obj)->sync]);
}

static int set_steadystate(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	const char *colon = strchr(val, ':');
	size_t klen = colon ? (size_t)(colon - val) : strlen(val);
	for (int k = 1; colon && ss_kind_names[k]; k++) {
		if (strlen(ss_kind_names[k]) != klen || strncmp(val, ss_kind_names[k], klen))
			continue;
		char *end;
		double v = strtod(colon + 1, &end);
		bool pct = *end == '%';
		if (end == colon + 1 || (pct ? end[1] : *end) || !(v >= 0) || !isfinite(v))
			break;
		j->ss_kind = k;
		j->ss_limit = v;
		j->ss_pct = pct;
		return 0;
	}
	snprintf(err, n, "--%s: '%s' is not allowed (allowed: iops, iops_slope, bw or bw_slope, ':', and a limit: a number, or a percentage of the mean with %%)",
		 o->name, val);
	return -1;
}

static void print_steadystate(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = obj;
	(void)o;
	int k = snprintf(buf, len, "%s:", ss_kind_names[j->ss_kind]);
	if (k > 0 && (size_t)k < len)
		k += print_double(buf + k, len - (size_t)k, j->ss_limit);
	if (j->ss_pct && k > 0 && (size_t)k + 1 < len)
		snprintf(buf + k, len - (size_t)k, "%%");
}

static int set_distribution(void *obj, const struct opt_def *o, const char *val, char *err,
			    size_t n)
{
	struct job *j = obj;
	const char *colon = strchr(val, ':');
	size_t klen = colon ? (size_t)(colon - val) : strlen(val);
	bool abs = !strncmp(val, "zoned_abs:", 10);
	if (abs || !strncmp(val, "zoned:", 6)) {
		if (fio_parse_zones(val + (abs ? 10 : 6), abs, j))
			goto bad;
		j->dist = DIST_ZONED;
		j->dist_param = 0;
		return 0;
	}
	for (size_t k = 0; dist_names[k] && k != DIST_ZONED; k++) {
		if (strlen(dist_names[k]) != klen || strncmp(val, dist_names[k], klen))
			continue;
		if (k == DIST_RANDOM) {
			if (colon)
				break;
			j->dist = DIST_RANDOM;
			j->dist_param = 0;
			return 0;
		}
		char *end;
		double p = colon ? strtod(colon + 1, &end) : 0;
		bool ok = colon && end != colon + 1 && !*end && p > 0;
		if (k == DIST_ZIPF)
			ok = ok && p != 1.0 && p < 100;
		if (k == DIST_PARETO)
			ok = ok && p < 1.0;
		if (k == DIST_NORMAL)
			ok = ok && p <= 100;
		if (!ok)
			break;
		j->dist = (int)k;
		j->dist_param = p;
		return 0;
	}
bad:
	snprintf(err, n,
		 "--%s: '%s' is not allowed (allowed: random, zipf:THETA with 0 < THETA < 100 and "
		 "THETA != 1, pareto:H with 0 < H < 1, normal:SIGMA with 0 < SIGMA <= 100, "
		 "zoned:ACCESS/SIZE%%:... or zoned_abs:ACCESS/BYTES:... with accesses adding up to 100)",
		 o->name, val);
	return -1;
}

static void print_distribution(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = obj;
	(void)o;
	if (j->dist == DIST_RANDOM)
		snprintf(buf, len, "random");
	else if (j->dist == DIST_ZONED)
		fio_print_zones(j, buf, len);
	else
	{
		int n = snprintf(buf, len, "%s:", dist_names[j->dist]);
		if (n > 0 && (size_t)n < len)
			print_double(buf + n, len - (size_t)n, j->dist_param);
	}
}

static int set_percentiles(void *obj, const struct opt_def *o, const char *val, char *err,
			   size_t n)
{
	struct job *j = obj;
	double tmp[MAX_PERCENTILES];
	unsigned cnt = 0;
	const char *p = val;
	while (*p) {
		char *end;
		double v = strtod(p, &end);
		bool bad_end = *end && (*end != ':' || !end[1]); /* "50:" has an empty entry */
		if (end == p || !(v > 0 && v <= 100) || cnt == MAX_PERCENTILES || bad_end) {
			snprintf(err, n,
				 "--%s: '%s' is not a list of up to %d percentiles in (0, 100] "
				 "separated by ':'",
				 o->name, val, MAX_PERCENTILES);
			return -1;
		}
		tmp[cnt++] = v;
		p = *end ? end + 1 : end;
	}
	if (!cnt) {
		snprintf(err, n, "--%s: the list is empty", o->name);
		return -1;
	}
	memcpy(j->percentiles, tmp, sizeof(tmp[0]) * cnt);
	j->n_percentiles = cnt;
	return 0;
}

static void print_percentiles(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = obj;
	size_t k = 0;
	(void)o;
	buf[0] = 0;
	for (unsigned i = 0; i < j->n_percentiles && k + 1 < len; i++) {
		if (i)
			buf[k++] = ':';
		k += (size_t)print_double(buf + k, len - k, j->percentiles[i]);
	}
}

static int set_inject(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	(void)o;
	if (strlen(val) >= sizeof(j->inject) || inject_parse(val, err, n)) {
		if (strlen(val) >= sizeof(j->inject))
			snprintf(err, n, "--inject: longer than %zu characters", sizeof(j->inject) - 1);
		return -1;
	}
	memset(j->inject, 0, sizeof(j->inject));
	memcpy(j->inject, val, strlen(val));
	return 0;
}

static void print_inject(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%s", ((const struct job *)obj)->inject);
}

static int set_verify(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	/* fio's spellings too: verify=0, crc32c-intel. */
	const char *v = !strcmp(val, "0") ? "none" : !strcmp(val, "crc32c-intel") ? "crc32c" : val;
	for (int i = 0; verify_names[i]; i++) {
		if (!strcmp(v, verify_names[i])) {
			j->verify = i;
			return 0;
		}
	}
	snprintf(err, n, "--%s: '%s' is not allowed (allowed: none|crc32c|xxhash|md5|sha256|pattern)",
		 o->name, val);
	return -1;
}

static void print_verify(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%s", verify_names[((const struct job *)obj)->verify]);
}

/* ---- written data (data.c): --data and fio's buffer options */

static int set_data(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	return data_parse(val, &((struct job *)obj)->data, o->name, err, n);
}

static void print_data(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	data_print(&((const struct job *)obj)->data, buf, len);
}

/* fio's buffer_compress_percentage and dedupe_percentage: random data, N%. */
static int set_data_pct(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct data_spec *d = &((struct job *)obj)->data;
	uint64_t v;
	bool compress = !strcmp(o->name, "buffer_compress_percentage");
	if (parse_uint(val, &v) || v > 100) {
		snprintf(err, n, "--%s: '%s' is not a percentage from 0 to 100", o->name, val);
		return -1;
	}
	if (d->mode != DATA_RANDOM) {
		d->pattern_len = 0;
		memset(d->pattern, 0, sizeof(d->pattern));
	}
	if (compress && v == 100) {
		d->mode = DATA_ZERO; /* all of it compresses away */
		return 0;
	}
	d->mode = DATA_RANDOM;
	if (compress)
		d->compress = (uint8_t)v;
	else
		d->dedupe = (uint8_t)v;
	return 0;
}

static void print_data_pct(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct data_spec *d = &((const struct job *)obj)->data;
	bool compress = !strcmp(o->name, "buffer_compress_percentage");
	snprintf(buf, len, "%u", compress ? (d->mode == DATA_ZERO ? 100u : d->compress) : d->dedupe);
}

static int set_zero_buffers(void *obj, const struct opt_def *o, const char *val, char *err,
			    size_t n)
{
	struct data_spec *d = &((struct job *)obj)->data;
	bool b;
	if (parse_bool(val, &b)) {
		snprintf(err, n, "--%s: '%s' is not a boolean (allowed: 1, 0, true, false, yes, no, on, off)",
			 o->name, val);
		return -1;
	}
	if (b) {
		d->mode = DATA_ZERO;
		d->compress = d->dedupe = 0;
	} else if (d->mode == DATA_ZERO) {
		d->mode = DATA_RANDOM;
	}
	return 0;
}

static void print_zero_buffers(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%d", ((const struct job *)obj)->data.mode == DATA_ZERO);
}

static int set_buffer_pattern(void *obj, const struct opt_def *o, const char *val, char *err,
			      size_t n)
{
	return data_parse_pattern(val, &((struct job *)obj)->data, o->name, err, n);
}

/* One format, or (run) a comma list of fio's: normal, fio-json, json+, terse. */
static int set_format(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct settings *s = obj;
	unsigned mask = 0;
	int first = -1;
	const char *p = val;
	for (;;) {
		size_t len = strcspn(p, ",");
		int k = -1;
		for (int i = 0; fmt_values[i]; i++)
			if (strlen(fmt_values[i]) == len && !strncmp(p, fmt_values[i], len))
				k = i;
		if (k < 0 || (mask & (1u << k))) {
			snprintf(err, n,
				 "--%s: '%s' is not allowed (allowed: normal|json|fio-json|json+|terse, "
				 "or a list of fio's: normal,fio-json,json+,terse)",
				 o->name, val);
			return -1;
		}
		mask |= 1u << k;
		first = first < 0 ? k : first;
		if (!p[len])
			break;
		p += len + 1;
	}
	if ((mask & (1u << OUT_JSON)) && mask != (1u << OUT_JSON)) {
		snprintf(err, n, "--%s: json (iogauge's) is not combined with others: add --json FILE",
			 o->name);
		return -1;
	}
	if ((mask & (1u << OUT_FIO_JSON)) && (mask & (1u << OUT_FIO_JSONPLUS))) {
		snprintf(err, n, "--%s: fio-json and json+ are one document: choose one", o->name);
		return -1;
	}
	s->output_format = first;
	s->output_formats = mask;
	return 0;
}

static void print_format(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct settings *s = obj;
	size_t k = 0;
	(void)o;
	buf[0] = 0;
	for (int i = 0; fmt_values[i] && k < len; i++)
		if ((s->output_formats ? s->output_formats : 1u << s->output_format) & (1u << i))
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? "," : "", fmt_values[i]);
}

/* ioping's -W and -L turn the pattern: writes instead of reads (-W=0: reads), sequential instead of random. */
static int set_ioping_rw(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	bool on;
	if (parse_bool(val, &on)) {
		snprintf(err, n, "-%s takes no value", o->name);
		return -1;
	}
	bool write = rw_writes(j->rw), random = rw_is_random(j->rw);
	if (!strcmp(o->name, "W"))
		write = on;
	else
		random = !on;
	j->rw = random ? (write ? RW_RANDWRITE : RW_RANDREAD) : (write ? RW_WRITE : RW_READ);
	return 0;
}

static void print_ioping_rw(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = obj;
	snprintf(buf, len, "%d", !strcmp(o->name, "W") ? rw_writes(j->rw) : !rw_is_random(j->rw));
}

/* ioping's -w: stop after this long (bare numbers are seconds). */
static int set_deadline(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	uint64_t ns;
	if (parse_time(val, "s", &ns)) {
		snprintf(err, n, "-%s: '%s' is not a time (a number with an optional ns, us, ms, s, m or h suffix)",
			 o->name, val);
		return -1;
	}
	j->runtime_ns = ns;
	j->time_based = ns != 0; /* -w 0: no deadline */
	return 0;
}

static void print_deadline(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	print_time(((const struct job *)obj)->runtime_ns, buf, len);
}

/* --seq_order=forward|backward|stride:N */
static int set_seq_order(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	uint64_t v;
	if (!strcmp(val, "forward") || !strcmp(val, "backward")) {
		j->seq_order = val[0] == 'f' ? SEQ_FORWARD : SEQ_BACKWARD;
		return 0;
	}
	if (!strncmp(val, "stride:", 7) && !parse_uint(val + 7, &v) && v >= 1 && v <= UINT32_MAX) {
		j->seq_order = SEQ_STRIDE;
		j->seq_stride = (unsigned)v;
		return 0;
	}
	snprintf(err, n, "--%s: '%s' is not allowed (allowed: forward, backward, stride:N with N >= 1 blocks)",
		 o->name, val);
	return -1;
}

static void print_seq_order(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = obj;
	(void)o;
	if (j->seq_order == SEQ_STRIDE)
		snprintf(buf, len, "stride:%u", j->seq_stride);
	else
		snprintf(buf, len, "%s", j->seq_order == SEQ_BACKWARD ? "backward" : "forward");
}

/* ---- bonnie++'s options: sizes in MiB when bare, fields joined by ':' */

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

static int set_bonnie_s(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
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

static void print_bonnie_s(const void *obj, const struct opt_def *o, char *buf, size_t len)
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

static int set_bonnie_r(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
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

static void print_bonnie_r(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	int64_t r = ((const struct settings *)obj)->bonnie.ram;
	(void)o;
	if (r < 0)
		snprintf(buf, len, "auto");
	else
		print_size((uint64_t)r, buf, len);
}

static int set_bonnie_n(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
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

static void print_bonnie_n(const void *obj, const struct opt_def *o, char *buf, size_t len)
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

static int set_kib(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	uint64_t v;
	if (bonnie_size(val, 1024, &v) || !v) {
		snprintf(err, n, "-%s: '%s' is not a size above 0 (KiB when bare; k, m, g suffixes)", o->name, val);
		return -1;
	}
	*(uint64_t *)((char *)obj + o->off) = v;
	return 0;
}

static void print_kib(const void *obj, const struct opt_def *o, char *buf, size_t len)
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
static int set_sweep_s(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct sweep_opts *w = &((struct settings *)obj)->sweep;
	if (!*val) {
		memset(w->sizes, 0, sizeof(w->sizes));
		w->nsizes = 0;
	}
	return *val ? each_item(obj, o, val, err, n, one_sweep_s) : 0;
}

static int set_sweep_r(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
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

static void print_sweep_s(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct sweep_opts *w = &((const struct settings *)obj)->sweep;
	(void)o;
	print_list(w->sizes, w->nsizes, buf, len);
}

static void print_sweep_r(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct sweep_opts *w = &((const struct settings *)obj)->sweep;
	(void)o;
	print_list(w->recs, w->nrecs, buf, len);
}

static int one_sweep_i(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);

/* iozone's -i N: tests 0 to 5 (the stdio and pread/pwrite families are not part of sweep). */
static int set_sweep_i(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
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

static void print_sweep_i(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	unsigned t = ((const struct settings *)obj)->sweep.tests;
	size_t k = 0;
	(void)o;
	buf[0] = 0;
	for (unsigned i = 0; i < 6 && k + 3 < len; i++)
		if (t & (1u << i))
			k += (size_t)snprintf(buf + k, len - k, "%s%u", k ? "," : "", i);
}

static const char *const matrix_runs[] = { "simple", "normal", "oltp", "dss", "advanced", NULL };
static const char *const matrix_types[] = { "rand", "seq", NULL };
static const char *const matrix_kinds[] = { "basic", "detailed", "point", "col", "row", "max", NULL };

/* ---- the table */

const struct opt_def options[] = {
	{ .name = "name", .type = OT_STR, J(name), .arg = "NAME", .group = OG_FIO,
	  .flags = OPT_NEW_JOB | OPT_NO_ECHO,
	  .help = "Job name; on the command line each --name starts a new job (--name=global: defaults for the jobs after it)" },
	{ .name = "filename", .type = OT_STR, J(filename), .arg = "PATH", .group = OG_FIO,
	  .help = "File or block device to test (default: DIRECTORY/JOBNAME.JOBNUM.FILENUM as fio names them, created and removed by iogauge)",
	  .fio = "iogauge removes the files it created at the end (fio keeps them unless unlink=1) and never writes into a file it did not create without --allow-overwrite" },
	{ .name = "directory", .type = OT_STR, J(directory), .def = ".", .arg = "DIR",
	  .group = OG_FIO, .help = "Directory for test files",
	  .fio = "one directory (fio also takes a ':'-separated list)" },
	{ .name = "size", .type = OT_SIZE, J(size), .min = 1, .arg = "SIZE", .group = OG_SIZING,
	  .help = "Bytes each thread covers (run: the existing file or device when not given)" },
	{ .name = "offset", .type = OT_SIZE, J(offset), .def = "0", .arg = "SIZE", .group = OG_FIO,
	  .help = "Start of the region in the file or device" },
	{ .name = "rw", .type = OT_ENUM, J(rw), .def = "read", .values = rw_names, .set = fio_set_rw,
	  .print = fio_print_rw, .group = OG_PATTERN,
	  .help = "I/O pattern (readwrite is rw: mixed sequential); NAME:SIZE skips SIZE after each sequential request (read:-8k reads backwards), randNAME:N seeks every N requests (see rw_sequencer)",
	  .fio = "no trim modes (trim, randtrim, trimwrite)" },
	{ .name = "readwrite", .type = OT_ENUM, J(rw), .values = rw_names, .set = fio_set_rw,
	  .print = fio_print_rw, .group = OG_PATTERN, .flags = OPT_NO_ECHO, .help = "The same as --rw" },
	{ .name = "rwmixread", .type = OT_UINT, J(rwmixread), .def = "50", .min = 0, .max = 100,
	  .arg = "PCT", .group = OG_QUEUE, .help = "Percentage of reads in mixed patterns" },
	{ .name = "rwmixwrite", .type = OT_SPECIAL, J(rwmixread), .set = set_rwmixwrite,
	  .print = print_rwmixwrite, .arg = "PCT", .group = OG_QUEUE, .flags = OPT_NO_ECHO,
	  .help = "Percentage of writes in mixed patterns (100 - rwmixread)" },
	{ .name = "bs", .type = OT_SIZE, J(bs), .def = "4k", .min = 1, .max = 1ULL << 30,
	  .set = fio_set_bs, .print = fio_print_bs, .arg = "SIZE[,SIZE]", .group = OG_PATTERN,
	  .help = "Block size of each request (READ,WRITE: one for each direction)" },
	{ .name = "blocksize", .type = OT_SIZE, J(bs), .min = 1, .max = 1ULL << 30, .set = fio_set_bs,
	  .print = fio_print_bs, .arg = "SIZE[,SIZE]", .group = OG_PATTERN, .flags = OPT_NO_ECHO,
	  .help = "The same as --bs" },
	/* fio's block sizes and patterns (fio_opts.c, pattern.c). */
	{ .name = "bsrange", .type = OT_SPECIAL, J(bsrange), .set = fio_set_bsrange,
	  .print = fio_print_bsrange, .arg = "MIN-MAX[,MIN-MAX]", .group = OG_FIO,
	  .help = "Block sizes drawn from MIN to MAX, in multiples of MIN (READ,WRITE ranges), with fio's generator: the same sizes as fio" },
	{ .name = "blocksize_range", .type = OT_SPECIAL, J(bsrange), .set = fio_set_bsrange,
	  .print = fio_print_bsrange, .arg = "MIN-MAX[,MIN-MAX]", .group = OG_FIO,
	  .flags = OPT_NO_ECHO, .help = "The same as --bsrange" },
	{ .name = "bssplit", .type = OT_SPECIAL, J(bssplit), .set = fio_set_bssplit,
	  .print = fio_print_bssplit, .arg = "SIZE/PCT:SIZE/PCT...[,...]", .group = OG_FIO,
	  .help = "Block sizes in these shares of the requests (READ,WRITE lists), drawn with fio's generator: the same sizes as fio" },
	{ .name = "blockalign", .type = OT_SPECIAL, J(blockalign), .set = fio_set_blockalign,
	  .print = fio_print_blockalign, .arg = "SIZE[,SIZE]", .group = OG_FIO,
	  .help = "Random offsets are multiples of this (default: the smallest block size)" },
	{ .name = "ba", .type = OT_SPECIAL, J(blockalign), .set = fio_set_blockalign,
	  .print = fio_print_blockalign, .arg = "SIZE[,SIZE]", .group = OG_FIO, .flags = OPT_NO_ECHO,
	  .help = "The same as --blockalign" },
	{ .name = "blocksize_unaligned", .type = OT_BOOL, J(bs_unaligned), .def = "0", .bare = "1",
	  .group = OG_FIO,
	  .help = "Drawn block sizes need not be multiples of the smallest (buffered I/O only)" },
	{ .name = "bs_unaligned", .type = OT_BOOL, J(bs_unaligned), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_ECHO, .help = "The same as --blocksize_unaligned" },
	{ .name = "rw_sequencer", .type = OT_ENUM, J(rw_sequencer), .def = "sequential",
	  .values = rw_seq_names, .group = OG_FIO,
	  .help = "With rw=randNAME:N, the requests between seeks continue sequentially or repeat the offset (identical)" },
	{ .name = "percentage_random", .type = OT_SPECIAL, J(pct_random), .def = "100",
	  .set = fio_set_pct_random, .print = fio_print_pct_random, .arg = "PCT[,PCT]",
	  .group = OG_FIO,
	  .help = "Of a random pattern, this share of requests is random, the rest continue sequentially (READ,WRITE)" },
	{ .name = "random_generator", .type = OT_ENUM, J(random_generator), .def = "tausworthe",
	  .values = randgen_names, .group = OG_FIO,
	  .help = "fio's generator names; tausworthe64 widens the block-size stream as in fio",
	  .fio = "a job of one block size takes its offsets from iogauge's own generator whatever the name (a full-period permutation: every block once per pass); uniform random jobs of several sizes (bsrange, bssplit) draw fio's offsets (tausworthe, with fio's random map), so they issue fio's very requests; direction and block-size choices follow fio's tausworthe exactly" },
	{ .name = "iodepth", .type = OT_UINT, J(iodepth), .def = "1", .min = 1, .max = 4096,
	  .arg = "N", .group = OG_QUEUE,
	  .help = "Requests kept in flight per thread (asynchronous engines)" },
	{ .name = "numjobs", .type = OT_UINT, J(numjobs), .def = "1", .min = 1, .max = 256,
	  .arg = "N", .group = OG_QUEUE,
	  .help = "Threads running this job, each on its own file or region copy",
	  .fio = "threads of one process, never processes" },
	{ .name = "ioengine", .type = OT_SPECIAL, J(engine), .def = "psync", .set = set_engine,
	  .print = print_engine, .list_values = engine_list, .group = OG_ENGINE,
	  .help = "How requests are issued (auto: io_uring where the kernel allows it, else libaio)",
	  .fio = "psync, sync, libaio, io_uring, mmap and null only; auto is iogauge's" },
	/* Fault injection for tests (engines/inject.c). */
	{ .name = "inject", .type = OT_SPECIAL, J(inject), .set = set_inject, .print = print_inject,
	  .arg = "KIND@OFFSET[+K][:N],...[,engine=NAME]", .group = OG_FIO,
	  .help = "With --ioengine=inject: make requests covering OFFSET fail, for testing (KIND: eio, eio-read, eio-write, enospc, short, drop: a write reported done but never made, flip: a read returns that byte inverted; +K: after the first K such requests; N: N times only; engine=NAME does the real I/O, psync by default)" },
	{ .name = "direct", .type = OT_BOOL, J(direct), .def = "0", .bare = "1", .group = OG_ENGINE,
	  .help = "O_DIRECT: bypass the page cache",
	  .fio = "where the file system refuses O_DIRECT, iogauge falls back to buffered I/O with the cache invalidated and says so (fio fails)" },
	{ .name = "buffered", .type = OT_BOOL, J(direct), .bare = "1", .invert = true,
	  .group = OG_ENGINE, .flags = OPT_NO_ECHO,
	  .help = "Use the page cache (the opposite of --direct)" },
	{ .name = "sync", .type = OT_SPECIAL, J(sync), .def = "0", .bare = "1", .set = set_sync,
	  .print = print_sync, .arg = "0|1|none|sync|dsync", .group = OG_FIO,
	  .help = "Open with O_SYNC (1, sync) or O_DSYNC (dsync)" },
	{ .name = "fsync", .type = OT_UINT, J(fsync_every), .def = "0", .max = UINT32_MAX,
	  .arg = "N", .group = OG_FIO,
	  .help = "fsync after every N writes (timed, with its own latency statistics)" },
	{ .name = "fdatasync", .type = OT_UINT, J(fdatasync_every), .def = "0", .max = UINT32_MAX,
	  .arg = "N", .group = OG_FIO,
	  .help = "fdatasync after every N writes (timed, with its own latency statistics)" },
	{ .name = "end_fsync", .type = OT_BOOL, J(end_fsync), .def = "0", .bare = "1",
	  .group = OG_FIO, .help = "fsync when the job's writes are done, inside the measured time" },
	{ .name = "end_fdatasync", .type = OT_BOOL, J(end_fdatasync), .def = "0", .bare = "1",
	  .group = OG_FIO,
	  .help = "fdatasync when the job's writes are done, inside the measured time (dd's conv=fdatasync)" },
	{ .name = "runtime", .type = OT_TIME, J(runtime_ns), .def = "0", .unit = "s", .arg = "TIME",
	  .group = OG_SIZING,
	  .help = "Stop after this long (bare numbers are seconds; 0: when the size is done)" },
	{ .name = "time_based", .type = OT_BOOL, J(time_based), .def = "0", .bare = "1",
	  .group = OG_FIO, .help = "Repeat the workload until --runtime has passed" },
	{ .name = "ramp_time", .type = OT_TIME, J(ramp_ns), .def = "0", .unit = "s", .arg = "TIME",
	  .group = OG_SIZING, .help = "Run this long before measuring; nothing from the ramp is counted" },
	{ .name = "loops", .type = OT_UINT, J(loops), .def = "1", .min = 1, .max = UINT32_MAX,
	  .arg = "N", .group = OG_FIO, .help = "Repeat the job N times (size-bound jobs)" },
	{ .name = "number_ios", .type = OT_U64, J(number_ios), .def = "0", .arg = "N",
	  .group = OG_FIO,
	  .help = "Stop after N requests, passing over the region as often as needed (0: the size, --loops and --runtime decide)" },
	{ .name = "invalidate", .type = OT_BOOL, J(invalidate), .def = "1", .bare = "1",
	  .group = OG_FIO,
	  .help = "Drop the file's cached pages before the job and, for buffered time-based jobs, after every pass over the region (not timed)" },
	{ .name = "fadvise_hint", .type = OT_BOOL, J(fadvise_hint), .def = "1", .bare = "1",
	  .group = OG_FIO,
	  .help = "Tell the kernel the access pattern of buffered I/O (POSIX_FADV_RANDOM stops readahead inflating random reads)" },
	{ .name = "randrepeat", .type = OT_BOOL, J(randrepeat), .def = "1", .bare = "1",
	  .group = OG_FIO, .help = "Same random sequence on every run (seeded by --randseed)" },
	{ .name = "randseed", .type = OT_U64, J(randseed), .def = "137", .arg = "N", .group = OG_FIO,
	  .help = "Seed of the random offsets and data",
	  .fio = "the same seed gives other offsets than fio's generator" },
	{ .name = "norandommap", .type = OT_BOOL, J(norandommap), .def = "0", .bare = "1",
	  .group = OG_FIO, .help = "Random offsets may repeat (default: each block once per pass)" },
	{ .name = "random_distribution", .type = OT_SPECIAL, J(dist), .def = "random",
	  .set = set_distribution, .print = print_distribution,
	  .arg = "random|zipf:THETA|pareto:H|normal:SIGMA", .group = OG_FIO,
	  .help = "Distribution of random offsets; normal's SIGMA is a percentage of the region" },
	{ .name = "rate", .type = OT_SIZE, J(rate_bps), .def = "0", .arg = "SIZE", .group = OG_FIO,
	  .help = "Limit each thread to this many bytes per second",
	  .fio = "one limit for all directions (fio also takes R,W)" },
	{ .name = "rate_iops", .type = OT_U64, J(rate_iops), .def = "0", .arg = "N", .group = OG_FIO,
	  .help = "Limit each thread to this many requests per second" },
	{ .name = "thinktime", .type = OT_TIME, J(thinktime_ns), .def = "0", .unit = "us",
	  .arg = "TIME", .group = OG_FIO,
	  .help = "Pause after each request (bare numbers are microseconds)" },
	{ .name = "group_reporting", .type = OT_BOOL, J(group_reporting), .def = "0", .bare = "1",
	  .group = OG_FIO, .help = "Report the threads of a job together, not one by one" },
	{ .name = "percentile_list", .type = OT_SPECIAL, J(percentiles), .def = DEFAULT_PERCENTILES,
	  .set = set_percentiles, .print = print_percentiles, .arg = "P:P:...", .group = OG_FIO,
	  .help = "Latency percentiles to report" },
	{ .name = "stonewall", .type = OT_BOOL, J(stonewall), .def = "0", .bare = "1",
	  .group = OG_FIO, .help = "Wait for the jobs before this one to finish before starting" },
	/* Steady state (issue 11): the runner judges a job's window once a second (steady.c). */
	{ .name = "steadystate", .type = OT_SPECIAL, J(ss_kind), .def = "iops_slope:0.01%",
	  .set = set_steadystate, .print = print_steadystate, .arg = "iops|iops_slope|bw|bw_slope:LIMIT[%]",
	  .group = OG_FIO,
	  .help = "With --steadystate_duration: stop the job once its last window of per-second IOPS or bandwidth (bytes/s) is steady: every value within LIMIT of the mean (iops, bw) or the least-squares slope under LIMIT a second (iops_slope, bw_slope); LIMIT% is a percentage of the window's mean",
	  .fio = "judged per job (fio: per group with group_reporting), from the end of --ramp_time" },
	{ .name = "ss", .type = OT_SPECIAL, J(ss_kind), .set = set_steadystate, .print = print_steadystate,
	  .arg = "CRITERION:LIMIT", .group = OG_FIO, .flags = OPT_NO_ECHO, .help = "The same as --steadystate" },
	{ .name = "steadystate_duration", .type = OT_TIME, J(ss_dur_ns), .def = "0", .unit = "s",
	  .arg = "TIME", .group = OG_FIO,
	  .help = "The window steady state is judged over, one value a second (0: no steady-state detection)" },
	{ .name = "ss_dur", .type = OT_TIME, J(ss_dur_ns), .unit = "s", .arg = "TIME", .group = OG_FIO,
	  .flags = OPT_NO_ECHO, .help = "The same as --steadystate_duration" },
	{ .name = "steadystate_ramp_time", .type = OT_TIME, J(ss_ramp_ns), .def = "0", .unit = "s",
	  .arg = "TIME", .group = OG_FIO,
	  .help = "Collect the window's values from this long after the measured phase begins" },
	{ .name = "ss_ramp", .type = OT_TIME, J(ss_ramp_ns), .unit = "s", .arg = "TIME", .group = OG_FIO,
	  .flags = OPT_NO_ECHO, .help = "The same as --steadystate_ramp_time" },
	{ .name = "rewrite_pct", .type = OT_UINT, J(rewrite_pct), .def = "0", .max = 100, .arg = "PCT",
	  .group = OG_FIO,
	  .help = "Percentage of reads followed by a write of the same block, changed (read-modify-write: bonnie++'s Rewrite at 100, its seeks at 10); the writes come on top of the reads; synchronous engines" },
	{ .name = "overwrite", .type = OT_BOOL, J(overwrite), .def = "1", .bare = "1", .group = OG_FIO,
	  .help = "Lay out real data before writes, which then overwrite it; 0: a sequential write job on a file iogauge created starts it anew (truncated) and extends it, as fio's default and iozone and bonnie++ do",
	  .fio = "iogauge's default is 1: every write job writes over laid-out data unless asked otherwise" },
	{ .name = "seq_order", .type = OT_SPECIAL, J(seq_order), .def = "forward", .set = set_seq_order,
	  .print = print_seq_order, .arg = "forward|backward|stride:N", .group = OG_FIO,
	  .help = "Order of a sequential pattern: forward, backward from the region's end, or every Nth block (each block once a pass; iozone's backward and stride reads)" },
	{ .name = "end_close", .type = OT_BOOL, J(end_close), .def = "0", .bare = "1", .group = OG_FIO,
	  .help = "Close the file at the end, inside the measured time (iozone's -c; psync and sync engines)" },
	/* ---- file operations (engines/fileops.c): mdtest-style metadata workloads */
	{ .name = "fileop", .type = OT_ENUM, J(fileop), .def = "none", .values = fileop_names,
	  .group = OG_FILES,
	  .help = "Metadata operations instead of block I/O: each request creates (open O_CREAT|O_EXCL, write --filesize bytes, close), stats, opens (open, read, close), unlinks, makes or removes one item of a tree of --nrfiles items per thread in the directory --filename (DIR/t<thread>/...); jobs that share a file set name the same --filename" },
	{ .name = "files_per_dir", .type = OT_UINT, J(files_per_dir), .def = "0", .max = UINT32_MAX,
	  .arg = "N", .group = OG_FILES,
	  .help = "Items per leaf directory (0: all items in the thread's directory)" },
	{ .name = "dir_fanout", .type = OT_UINT, J(dir_fanout), .def = "0", .max = UINT32_MAX,
	  .arg = "N", .group = OG_FILES,
	  .help = "Subdirectories per directory above the leaf directories (0: the leaf directories sit in the thread's directory)" },
	{ .name = "file_order", .type = OT_ENUM, J(file_order), .def = "sequential",
	  .values = file_order_names, .group = OG_FILES,
	  .help = "Order of the items: by number, or random (each item once, in O(1) memory)" },
	/* Written data (data.c): --data, and fio's names for the same on run. */
	{ .name = "data", .type = OT_SPECIAL, J(data), .def = "random", .set = set_data,
	  .print = print_data, .arg = "random|zero|compress=N|dedupe=N|pattern=0xHEX", .group = OG_DATA,
	  .help = "Written data: random (fresh for every write: no compressor or deduplicator shrinks it), zeros, random blocks a compressor shrinks by about N%, N% of blocks repeating an earlier one, or a repeated byte pattern; compress and dedupe combine (compress=50,dedupe=20)" },
	{ .name = "buffer_compress_percentage", .type = OT_SPECIAL, J(data), .set = set_data_pct,
	  .print = print_data_pct, .arg = "PCT", .group = OG_FIO, .flags = OPT_NO_ECHO,
	  .help = "fio's name: random blocks a compressor shrinks by about PCT% (--data=compress=PCT)" },
	{ .name = "dedupe_percentage", .type = OT_SPECIAL, J(data), .set = set_data_pct,
	  .print = print_data_pct, .arg = "PCT", .group = OG_FIO, .flags = OPT_NO_ECHO,
	  .help = "fio's name: PCT% of written blocks repeat an earlier one (--data=dedupe=PCT)" },
	{ .name = "zero_buffers", .type = OT_SPECIAL, J(data), .bare = "1", .set = set_zero_buffers,
	  .print = print_zero_buffers, .group = OG_FIO, .flags = OPT_NO_ECHO,
	  .help = "fio's name: write zeros (--data=zero)" },
	{ .name = "buffer_pattern", .type = OT_SPECIAL, J(data), .set = set_buffer_pattern,
	  .print = print_data, .arg = "0xHEX|\"TEXT\"|N", .group = OG_FIO, .flags = OPT_NO_ECHO,
	  .help = "fio's name: write this byte pattern, repeated (--data=pattern=0xHEX)" },
	{ .name = "refill_buffers", .type = OT_BOOL, J(refill_buffers), .def = "1", .bare = "1",
	  .group = OG_FIO,
	  .help = "Fresh random data for every write (0: each buffer is filled once, so written blocks repeat)" },
	/* Verification (verify.c): --verify on every writing command, fio's other names on run. */
	{ .name = "verify", .type = OT_SPECIAL, J(verify), .def = "none", .bare = "crc32c",
	  .set = set_verify, .print = print_verify, .arg = "none|crc32c|xxhash|md5|sha256|pattern",
	  .group = OG_DATA,
	  .help = "Give every written block a header (offset, job seed, write number) and a checksum, read it back after the writes and report corrupt, misplaced and lost blocks (exit status 1); pattern checks the bytes against --data=pattern=0xHEX; bare --verify is crc32c" },
	{ .name = "do_verify", .type = OT_BOOL, J(do_verify), .def = "1", .bare = "1", .group = OG_FIO,
	  .help = "With --verify: read back after the writes (0: only write the headers, for a later --verify_only)" },
	{ .name = "verify_only", .type = OT_BOOL, J(verify_only), .def = "0", .bare = "1",
	  .group = OG_FIO,
	  .help = "With --verify: write nothing; check what an earlier run with the same options wrote (the file must exist)" },
	{ .name = "verify_backlog", .type = OT_UINT, J(verify_backlog), .def = "0", .max = 1u << 24,
	  .arg = "N", .group = OG_FIO,
	  .help = "With --verify: also read back the last N written blocks after every N writes (not timed)" },
	/* ---- fio compatibility: options that change nothing measured, echoed as given (docs/fio.md) */
	{ .name = "timeout", .type = OT_TIME, J(runtime_ns), .unit = "s", .arg = "TIME",
	  .group = OG_FIO, .flags = OPT_NO_ECHO, .help = "The same as --runtime (fio's alias)" },
	{ .name = "description", .type = OT_STR, J(description), .arg = "TEXT", .group = OG_FIO,
	  .help = "Text describing the job, shown in the reports" },
	{ .name = "clat_percentiles", .type = OT_BOOL, J(clat_percentiles), .def = "1", .bare = "1",
	  .group = OG_FIO,
	  .help = "fio's reports show completion-latency percentiles (iogauge's own always do)" },
	{ .name = "lat_percentiles", .type = OT_BOOL, J(lat_percentiles), .def = "0", .bare = "1",
	  .group = OG_FIO, .help = "fio's reports also show total-latency percentiles" },
	{ .name = "slat_percentiles", .type = OT_BOOL, J(slat_percentiles), .def = "0", .bare = "1",
	  .group = OG_FIO, .help = "fio's reports also show submission-latency percentiles" },
	{ .name = "thread", .type = OT_BOOL, J(fio_nop_bool), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT, .help = "Accepted, no effect: iogauge always runs jobs as threads" },
	{ .name = "gtod_reduce", .type = OT_BOOL, J(fio_nop_bool), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT,
	  .help = "Accepted, no effect: iogauge always measures latency (two clock reads per request, within its budget)" },
	{ .name = "disable_lat", .type = OT_BOOL, J(fio_nop_bool), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT, .help = "Accepted, no effect: iogauge always measures latency" },
	{ .name = "disable_clat", .type = OT_BOOL, J(fio_nop_bool), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT, .help = "Accepted, no effect: iogauge always measures latency" },
	{ .name = "disable_slat", .type = OT_BOOL, J(fio_nop_bool), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT, .help = "Accepted, no effect: iogauge always measures latency" },
	{ .name = "disable_bw_measurement", .type = OT_BOOL, J(fio_nop_bool), .bare = "1",
	  .group = OG_FIO, .flags = OPT_NO_EFFECT,
	  .help = "Accepted, no effect: iogauge always keeps its per-second series" },
	{ .name = "disable_bw", .type = OT_BOOL, J(fio_nop_bool), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT | OPT_NO_ECHO, .help = "The same as --disable_bw_measurement" },
	{ .name = "allrandrepeat", .type = OT_BOOL, J(fio_nop_bool), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT,
	  .help = "Accepted, no effect: all of iogauge's random streams follow --randrepeat" },
	{ .name = "unlink", .type = OT_BOOL, J(fio_nop_bool), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT,
	  .help = "Accepted, no effect: iogauge removes the files it created unless --keep, and never others" },
	{ .name = "create_serialize", .type = OT_BOOL, J(fio_nop_bool), .bare = "1",
	  .group = OG_FIO, .flags = OPT_NO_EFFECT,
	  .help = "Accepted, no effect: iogauge lays files out before the run, never timed" },
	{ .name = "create_fsync", .type = OT_BOOL, J(fio_nop_bool), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT,
	  .help = "Accepted, no effect: iogauge's layout always reaches the disk before the run" },
	{ .name = "disk_util", .type = OT_BOOL, J(fio_nop_bool), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT, .help = "Accepted, no effect: device counters are always read" },
	{ .name = "clocksource", .type = OT_STR, J(fio_nop_str), .arg = "gettimeofday|clock_gettime|cpu",
	  .group = OG_FIO, .flags = OPT_NO_EFFECT,
	  .help = "Accepted, no effect: iogauge always uses CLOCK_MONOTONIC" },
	{ .name = "gtod_cpu", .type = OT_U64, J(fio_nop_u64), .arg = "CPU", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT, .help = "Accepted, no effect: iogauge has no time-keeping thread" },
	{ .name = "error_dump", .type = OT_BOOL, J(fio_nop_bool), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT, .help = "Accepted, no effect: errors are always named on stderr" },
	/* fio's logs (issue 9): recorded by the worker (fiolog.c), written by report/fio_logs.c. */
	{ .name = "write_bw_log", .type = OT_STR, J(bw_log), .bare = "$jobname", .arg = "NAME",
	  .group = OG_FIO, .help = "Write NAME_bw.X.log (X: the thread's number in the run): KiB/s of each request or window" },
	{ .name = "write_iops_log", .type = OT_STR, J(iops_log), .bare = "$jobname", .arg = "NAME",
	  .group = OG_FIO, .help = "Write NAME_iops.X.log: 1 for each request, or each window's IOPS" },
	{ .name = "write_lat_log", .type = OT_STR, J(lat_log), .bare = "$jobname", .arg = "NAME",
	  .group = OG_FIO, .help = "Write NAME_lat.X.log, NAME_clat.X.log and NAME_slat.X.log (ns; slat empty for synchronous engines)" },
	{ .name = "log_avg_msec", .type = OT_TIME, J(log_avg_ns), .def = "0", .unit = "ms", .arg = "TIME",
	  .group = OG_FIO, .help = "Log a line per direction per window of this length (averages), not one per request",
	  .fio = "lat/clat/slat lines are stamped with the window's end (fio: the first completion after it)" },
	{ .name = "log_offset", .type = OT_BOOL, J(log_offset), .def = "0", .bare = "1", .group = OG_FIO,
	  .help = "Each log line also gives the request's offset" },
	{ .name = "per_job_logs", .type = OT_BOOL, J(per_job_logs), .def = "1", .bare = "1", .group = OG_FIO,
	  .help = "A log file per thread (NAME_bw.X.log); 0: one per job (NAME_bw.log), the threads one after the other" },
	{ .name = "log_entries", .type = OT_U64, J(fio_nop_u64), .arg = "N", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT, .help = "Accepted, no effect: iogauge sizes its log buffers itself" },
	{ .name = "significant_figures", .type = OT_U64, J(fio_nop_u64), .arg = "N",
	  .group = OG_FIO, .flags = OPT_NO_EFFECT,
	  .help = "Accepted, no effect on the measurement (fio's text output precision)" },
	/* fio's amounts, files and run control (runner.c, worker.c). */
	{ .name = "io_size", .type = OT_SIZE, J(io_size), .def = "0", .arg = "SIZE", .group = OG_FIO,
	  .help = "Bytes of I/O a loop (0: --size); more than --size passes over the region again" },
	{ .name = "io_limit", .type = OT_SIZE, J(io_size), .arg = "SIZE", .group = OG_FIO,
	  .flags = OPT_NO_ECHO, .help = "The same as --io_size" },
	{ .name = "filesize", .type = OT_SPECIAL, J(filesize), .set = fio_set_filesize,
	  .print = fio_print_filesize, .arg = "SIZE[-SIZE]", .group = OG_FIO,
	  .help = "Size of each file (a range: a size drawn in it for each file); --size is then the I/O of a loop. With --fileop: the bytes --fileop=create writes to each file and --fileop=open reads (default 0: empty files; at most 1g)" },
	{ .name = "offset_increment", .type = OT_SIZE, J(offset_increment), .def = "0", .arg = "SIZE",
	  .group = OG_FIO, .help = "Thread N of the job starts N * SIZE after --offset (numjobs on one file)" },
	{ .name = "pre_read", .type = OT_BOOL, J(pre_read), .def = "0", .bare = "1", .group = OG_FIO,
	  .help = "Read the region into the page cache before the job (not timed; buffered reads then measure the cache, and say so)" },
	{ .name = "nrfiles", .type = OT_U64, J(nrfiles), .def = "1", .min = 1, .max = 1ULL << 40,
	  .arg = "N", .group = OG_FIO,
	  .help = "Files per thread, --size divided among them (a ':' list in --filename names the files instead; at most 4096); with --fileop, the items (files or directories) of each thread's tree, millions if need be" },
	{ .name = "file_service_type", .type = OT_SPECIAL, J(file_service), .def = "roundrobin",
	  .set = fio_set_fservice, .print = fio_print_fservice,
	  .arg = "roundrobin|sequential|random[:N]", .group = OG_FIO,
	  .help = "Which file the next request goes to: in turn, one file to its end then the next, or at random; switching every N requests" },
	{ .name = "openfiles", .type = OT_UINT, J(fio_nop_u32), .arg = "N", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT,
	  .help = "Accepted, no effect: iogauge keeps every file of a job open while it runs" },
	{ .name = "filename_format", .type = OT_STR, J(filename_format), .arg = "FORMAT",
	  .group = OG_FIO,
	  .help = "Names of the test files in DIRECTORY: $jobname, $jobnum (the thread), $filenum (default: $jobname.$jobnum.$filenum)" },
	{ .name = "wait_for_previous", .type = OT_BOOL, J(stonewall), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_ECHO, .help = "The same as --stonewall" },
	{ .name = "new_group", .type = OT_BOOL, J(new_group), .def = "0", .bare = "1", .group = OG_FIO,
	  .help = "Start a new reporting group (running with the jobs before, unlike --stonewall)" },
	{ .name = "wait_for", .type = OT_STR, J(wait_for), .arg = "NAME", .group = OG_FIO,
	  .help = "Start when the job NAME (before this one) has finished" },
	{ .name = "startdelay", .type = OT_SPECIAL, J(startdelay_ns), .set = fio_set_startdelay,
	  .print = fio_print_startdelay, .arg = "TIME[-TIME]", .group = OG_FIO,
	  .help = "Wait this long before starting (a range: a random time in it; bare numbers are seconds)" },
	{ .name = "exitall", .type = OT_BOOL, J(exitall), .def = "0", .bare = "1", .group = OG_FIO,
	  .help = "When this job ends, stop the other jobs (which: --exit_what)" },
	{ .name = "exit_what", .type = OT_ENUM, J(exit_what), .def = "group", .values = exit_what_names,
	  .group = OG_FIO,
	  .help = "What --exitall stops: the jobs running with it (group), those and every later group (stonewall), or all" },
	{ .name = "ratemin", .type = OT_SIZE, J(ratemin), .def = "0", .arg = "SIZE", .group = OG_FIO,
	  .help = "Fail the job when a second passes with less than SIZE bytes per second" },
	{ .name = "rate_min", .type = OT_SIZE, J(ratemin), .arg = "SIZE", .group = OG_FIO,
	  .flags = OPT_NO_ECHO, .help = "The same as --ratemin" },
	{ .name = "rate_iops_min", .type = OT_U64, J(rate_iops_min), .def = "0", .arg = "N",
	  .group = OG_FIO, .help = "Fail the job when a second passes with fewer than N requests" },
	{ .name = "rate_process", .type = OT_ENUM, J(rate_process), .def = "linear",
	  .values = rate_process_names, .group = OG_FIO,
	  .help = "How --rate and --rate_iops space requests: evenly (linear) or as a Poisson process (random gaps with the same mean)" },
	{ .name = "io_submit_mode", .type = OT_ENUM, J(fio_nop_enum), .def = "inline",
	  .values = submit_mode_names, .group = OG_FIO, .flags = OPT_NO_EFFECT,
	  .help = "Accepted: iogauge's worker threads submit their own requests (fio's inline); offload is not supported" },
	{ .name = "unique_filename", .type = OT_BOOL, J(fio_nop_bool), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT, .help = "Accepted, no effect: it names files of fio's network clients" },
	{ .name = "create_on_open", .type = OT_BOOL, J(fio_nop_bool), .bare = "1", .group = OG_FIO,
	  .flags = OPT_NO_EFFECT,
	  .help = "Accepted, no effect: iogauge creates and writes its files before the run, never timed" },
	{ .name = "fallocate", .type = OT_ENUM, J(fio_nop_enum), .values = fallocate_names,
	  .group = OG_FIO, .flags = OPT_NO_EFFECT,
	  .help = "Accepted, no effect: iogauge writes real data into the files it creates (no preallocated or sparse extents)" },
	/* fio's engine options: honoured where iogauge's engine can, named as ignored otherwise. */
	{ .name = "fixedbufs", .type = OT_BOOL, J(fixedbufs), .def = "1", .bare = "1",
	  .group = OG_FIO,
	  .help = "io_uring: register the buffers (iogauge's default; fio's is 0); other engines ignore it" },
	{ .name = "registerfiles", .type = OT_BOOL, J(registerfiles), .def = "1", .bare = "1",
	  .group = OG_FIO,
	  .help = "io_uring: register the file (iogauge's default; fio's is 0); other engines ignore it" },
	{ .name = "hipri", .type = OT_BOOL, J(hipri), .def = "0", .bare = "1", .group = OG_FIO,
	  .help = "io_uring: polled completions (IORING_SETUP_IOPOLL; needs O_DIRECT and a device with poll queues); other engines ignore it" },
	{ .name = "sqthread_poll", .type = OT_BOOL, J(sqthread_poll), .def = "0", .bare = "1",
	  .group = OG_FIO,
	  .help = "io_uring: a kernel thread polls the submission queue (IORING_SETUP_SQPOLL); other engines ignore it" },
	{ .name = "userspace_reap", .type = OT_BOOL, J(userspace_reap), .def = "0", .bare = "1",
	  .group = OG_FIO, .help = "libaio: reap completions without a system call; other engines ignore it" },
	{ .name = "warn-unsupported", .type = OT_BOOL, S(warn_unsupported), .def = "0", .bare = "1",
	  .group = OG_FIO, .flags = OPT_CLI_ONLY,
	  .help = "fio options iogauge does not support are warnings, not errors (to try a job file out; command line only)" },
	/* ---- bonnie (src/suites/bonnie.c): bonnie++'s options, as bonnie++ spells them */
	{ .name = "s", .type = OT_SPECIAL, S(bonnie.size), .def = "auto", .set = set_bonnie_s,
	  .print = print_bonnie_s, .arg = "SIZE[:CHUNK[:SEEKS[:SEEKERS]]]", .group = OG_BONNIE,
	  .help = "bonnie++'s -s: test file size (MiB when bare; auto: twice the RAM; 0: no I/O tests), block size, seeks in all and seeker threads" },
	{ .name = "r", .type = OT_SPECIAL, S(bonnie.ram), .def = "auto", .set = set_bonnie_r,
	  .print = print_bonnie_r, .arg = "RAM", .group = OG_BONNIE,
	  .help = "bonnie++'s -r: the RAM the file must be twice as large as (MiB when bare; auto: this machine's; 0: no check)" },
	{ .name = "n", .type = OT_SPECIAL, S(bonnie.nfiles), .def = "16", .set = set_bonnie_n,
	  .print = print_bonnie_n, .arg = "N[:MAX[:MIN[:DIRS]]]", .group = OG_BONNIE,
	  .help = "bonnie++'s -n: N x 1024 files to create, stat and delete (0: none), of MIN to MAX bytes, in DIRS directories" },
	{ .name = "m", .type = OT_STR, S(bonnie.name), .arg = "NAME", .group = OG_BONNIE,
	  .help = "bonnie++'s -m: the machine's name in the tables (default: the host name)" },
	{ .name = "q", .type = OT_BOOL, S(bonnie.csv), .def = "0", .bare = "1", .group = OG_BONNIE,
	  .help = "bonnie++'s -q: the CSV line alone on stdout, the text table on stderr" },
	{ .name = "f", .type = OT_BOOL, S(bonnie.no_chars), .def = "0", .bare = "1", .group = OG_BONNIE,
	  .help = "bonnie++'s -f: no per-character tests" },
	{ .name = "D", .type = OT_BOOL, S(bonnie.direct), .def = "0", .bare = "1", .group = OG_BONNIE,
	  .help = "bonnie++'s -D: O_DIRECT for the block tests (per-character I/O goes through stdio)" },
	/* ---- matrix (src/suites/matrix.c): Oracle Orion's options ('-' and '_' alike: -num_disks) */
	{ .name = "run", .type = OT_ENUM, S(matrix.run), .def = "simple", .values = matrix_runs,
	  .group = OG_MATRIX,
	  .help = "Orion's run level: simple (small I/O alone at rising load, then large alone), normal (every combination), oltp (small at rising load), dss (large at rising load), advanced (--matrix)" },
	{ .name = "testname", .type = OT_STR, S(matrix.testname), .def = "orion", .arg = "NAME",
	  .group = OG_MATRIX,
	  .help = "Prefix of the result files NAME_summary.txt, NAME_iops.csv, NAME_mbps.csv, NAME_lat.csv" },
	{ .name = "num-disks", .type = OT_UINT, S(matrix.num_disks), .def = "1", .min = 1, .max = 256,
	  .arg = "N", .group = OG_MATRIX,
	  .help = "Disks (spindles) behind the target: the outstanding-I/O levels scale with it" },
	{ .name = "size-small", .type = OT_SPECIAL, S(matrix.size_small), .def = "8", .set = set_kib,
	  .print = print_kib, .arg = "KIB", .group = OG_MATRIX,
	  .help = "Size of the small (random) I/Os, KiB when bare" },
	{ .name = "size-large", .type = OT_SPECIAL, S(matrix.size_large), .def = "1024", .set = set_kib,
	  .print = print_kib, .arg = "KIB", .group = OG_MATRIX, .help = "Size of the large I/Os, KiB when bare" },
	{ .name = "type", .type = OT_ENUM, S(matrix.type), .def = "rand", .values = matrix_types,
	  .group = OG_MATRIX,
	  .help = "Large I/Os: random, or sequential streams (a level is the number of streams)" },
	{ .name = "write", .type = OT_UINT, S(matrix.write_pct), .def = "0", .max = 100, .arg = "PCT",
	  .group = OG_MATRIX,
	  .help = "Percentage of writes among small and large I/Os (a device is written only under the interlock's rules)" },
	{ .name = "duration", .type = OT_TIME, J(runtime_ns), .unit = "s", .arg = "TIME",
	  .group = OG_MATRIX, .flags = OPT_NO_ECHO,
	  .help = "Time of each data point (Orion's name for --runtime; bare numbers are seconds)" },
	{ .name = "matrix", .type = OT_ENUM, S(matrix.matrix), .def = "basic", .values = matrix_kinds,
	  .group = OG_MATRIX,
	  .help = "With --run=advanced: basic (the first row and column), detailed (every point), point (--num-small, --num-large), col (large varies, --num-small small), row (small varies, --num-large large), max (every point up to --num-small, --num-large)" },
	{ .name = "num-small", .type = OT_UINT, S(matrix.num_small), .def = "0", .max = 4096, .arg = "N",
	  .group = OG_MATRIX, .help = "Outstanding small I/Os for --matrix=point, col, max" },
	{ .name = "num-large", .type = OT_UINT, S(matrix.num_large), .def = "0", .max = 4096, .arg = "N",
	  .group = OG_MATRIX,
	  .help = "Outstanding large I/Os (sequential: streams) for --matrix=point, row, max" },
	{ .name = "num-streamio", .type = OT_UINT, S(matrix.num_streamio), .def = "4", .min = 1,
	  .max = 4096, .arg = "N", .group = OG_MATRIX,
	  .help = "Requests in flight per sequential stream (--type=seq)" },
	/* ---- sweep (src/suites/sweep.c): iozone's options, as iozone spells them */
	{ .name = "a", .type = OT_BOOL, S(sweep.auto_mode), .def = "0", .bare = "1", .group = OG_SWEEP,
	  .help = "iozone's -a: auto mode, file sizes -n to -g times record sizes -y to -q, powers of two" },
	{ .name = "s", .type = OT_SPECIAL, S(sweep.sizes), .set = set_sweep_s, .print = print_sweep_s,
	  .arg = "SIZE", .group = OG_SWEEP,
	  .help = "iozone's -s: a file size (KiB when bare; repeat for several)" },
	{ .name = "r", .type = OT_SPECIAL, S(sweep.recs), .set = set_sweep_r, .print = print_sweep_r,
	  .arg = "SIZE", .group = OG_SWEEP,
	  .help = "iozone's -r: a record size (KiB when bare; repeat for several)" },
	{ .name = "n", .type = OT_SPECIAL, S(sweep.min_size), .def = "64", .set = set_kib, .print = print_kib,
	  .arg = "SIZE", .group = OG_SWEEP, .help = "iozone's -n: smallest file size in auto mode" },
	{ .name = "g", .type = OT_SPECIAL, S(sweep.max_size), .def = "512m", .set = set_kib,
	  .print = print_kib, .arg = "SIZE", .group = OG_SWEEP,
	  .help = "iozone's -g: largest file size in auto mode" },
	{ .name = "y", .type = OT_SPECIAL, S(sweep.min_rec), .def = "4", .set = set_kib, .print = print_kib,
	  .arg = "SIZE", .group = OG_SWEEP, .help = "iozone's -y: smallest record size in auto mode" },
	{ .name = "q", .type = OT_SPECIAL, S(sweep.max_rec), .def = "16m", .set = set_kib,
	  .print = print_kib, .arg = "SIZE", .group = OG_SWEEP,
	  .help = "iozone's -q: largest record size in auto mode" },
	{ .name = "i", .type = OT_SPECIAL, S(sweep.tests), .set = set_sweep_i, .print = print_sweep_i,
	  .arg = "N", .group = OG_SWEEP,
	  .help = "iozone's -i: a test to run, repeatable (0 write/rewrite, 1 read/reread, 2 random read/write, 3 backward read, 4 record rewrite, 5 stride read; default: all)" },
	{ .name = "I", .type = OT_BOOL, S(sweep.direct), .def = "0", .bare = "1", .group = OG_SWEEP,
	  .help = "iozone's -I: O_DIRECT" },
	{ .name = "e", .type = OT_BOOL, S(sweep.fsync), .def = "0", .bare = "1", .group = OG_SWEEP,
	  .help = "iozone's -e: the fsync at the end of a write test counts in its time" },
	{ .name = "c", .type = OT_BOOL, S(sweep.close), .def = "0", .bare = "1", .group = OG_SWEEP,
	  .help = "iozone's -c: the close at the end of a test counts in its time" },
	{ .name = "R", .type = OT_BOOL, S(sweep.excel), .def = "0", .bare = "1", .group = OG_SWEEP,
	  .help = "iozone's -R: the Excel-style report after the table" },
	{ .name = "b", .type = OT_STR, S(sweep.excel_file), .arg = "FILE", .group = OG_SWEEP,
	  .help = "iozone's -b: also write the Excel-style report to FILE (text, not a binary .xls)" },
	{ .name = "z", .type = OT_BOOL, S(sweep.no_crossover), .def = "0", .bare = "1", .group = OG_SWEEP,
	  .help = "iozone's -z: small records for large files too (no crossover at 32 MiB files)" },
	{ .name = "csv", .type = OT_BOOL, S(sweep.csv), .def = "0", .bare = "1", .group = OG_SWEEP,
	  .help = "The main table as CSV (a header row, a row per file and record size, KiB/s)" },
	{ .name = "output-format", .type = OT_SPECIAL, S(output_format), .def = "normal",
	  .set = set_format, .print = print_format, .arg = "normal|json|fio-json|json+|terse",
	  .group = OG_OUTPUT,
	  .help = "Result format on stdout (or --output): iogauge's text or JSON; run also writes fio's JSON (fio-json, json+ with latency bins) and fio's terse version 3",
	  .fio = "json is iogauge's own document (docs/json.md), fio's is fio-json; a list (terse,json+,normal) is printed in fio's order: terse, JSON, text" },
	{ .name = "minimal", .type = OT_BOOL, S(minimal), .def = "0", .bare = "1", .group = OG_FIO,
	  .help = "The same as --output-format=terse (fio's --minimal)" },
	{ .name = "terse-version", .type = OT_UINT, S(terse_version), .def = "3", .min = 3, .max = 3,
	  .arg = "3", .group = OG_FIO, .help = "Terse format version: 3, fio's default (the only one)",
	  .fio = "fio also writes versions 2, 4 and 5" },
	/* latency: ioping's options, one letter each, on the same fields as fio's. */
	{ .name = "c", .type = OT_U64, J(number_ios), .arg = "COUNT", .group = OG_LATENCY,
	  .flags = OPT_NO_ECHO, .help = "Stop after COUNT requests (0: run until Ctrl-C)" },
	{ .name = "i", .type = OT_TIME, J(thinktime_ns), .unit = "s", .arg = "INTERVAL",
	  .group = OG_LATENCY, .flags = OPT_NO_ECHO,
	  .help = "Pause between requests (bare numbers are seconds; 0: back to back)" },
	{ .name = "s", .type = OT_SIZE, J(bs), .min = 1, .max = 1ULL << 30, .arg = "SIZE",
	  .group = OG_LATENCY, .flags = OPT_NO_ECHO, .help = "Request size" },
	{ .name = "S", .type = OT_SIZE, J(size), .min = 1, .arg = "SIZE", .group = OG_LATENCY,
	  .flags = OPT_NO_ECHO,
	  .help = "Working set: the region requests fall in (default: a 1 MiB test file in a directory, the whole file or device)" },
	{ .name = "D", .type = OT_BOOL, J(direct), .bare = "1", .group = OG_LATENCY,
	  .flags = OPT_NO_ECHO, .help = "O_DIRECT (the default for block devices)" },
	{ .name = "C", .type = OT_BOOL, J(invalidate), .bare = "1", .invert = true,
	  .group = OG_LATENCY, .flags = OPT_NO_ECHO,
	  .help = "Cached: keep the page cache (by default each buffered request's pages are dropped before it, and buffered writes are O_DSYNC)" },
	{ .name = "W", .type = OT_SPECIAL, J(rw), .bare = "1", .set = set_ioping_rw,
	  .print = print_ioping_rw, .group = OG_LATENCY, .flags = OPT_NO_ECHO,
	  .help = "Write instead of read (the write interlocks apply)" },
	{ .name = "L", .type = OT_SPECIAL, J(rw), .bare = "1", .set = set_ioping_rw,
	  .print = print_ioping_rw, .group = OG_LATENCY, .flags = OPT_NO_ECHO,
	  .help = "Sequential requests instead of random ones" },
	{ .name = "w", .type = OT_SPECIAL, J(runtime_ns), .set = set_deadline, .print = print_deadline,
	  .arg = "DEADLINE", .group = OG_LATENCY, .flags = OPT_NO_ECHO,
	  .help = "Stop after this long (bare numbers are seconds)" },
	{ .name = "q", .type = OT_BOOL, S(quiet), .bare = "1", .group = OG_LATENCY,
	  .flags = OPT_NO_ECHO, .help = "No line per request: only the statistics" },
	/* Several ranks (mpirun -np N iogauge-mpi): where each rank's I/O goes, stopping together. */
	{ .name = "shared-file", .type = OT_BOOL, J(shared_file), .def = "0", .bare = "1",
	  .group = OG_PARALLEL,
	  .help = "Several ranks (mpirun): every rank addresses its own segment of one file (default: a file per rank; %r in --filename is the rank)" },
	{ .name = "segment-layout", .type = OT_ENUM, J(segment_layout), .def = "block",
	  .values = segment_names, .group = OG_PARALLEL,
	  .help = "With --shared-file: each rank's segment is --size contiguous bytes (block) or every N-th --bs block of N x --size bytes (interleaved, IOR's strided layout)" },
	{ .name = "stonewall-all", .type = OT_BOOL, J(stonewall_all), .def = "0", .bare = "1",
	  .group = OG_PARALLEL,
	  .help = "Several ranks: when the first rank finishes its size, every rank stops (IOR's stonewalling); the report gives what each rank had left" },
	{ .name = "rank-results", .type = OT_ENUM, J(rank_results), .def = "auto",
	  .values = rank_results_names, .group = OG_PARALLEL,
	  .help = "Several ranks: each rank's own job objects in the JSON: full (with histograms and series), brief (without), none; auto: full up to 256 ranks, brief up to 4,096 and after Ctrl-C, none beyond (rank 0 gathers them)" },
	{ .name = "output", .type = OT_STR, S(output), .arg = "FILE", .group = OG_OUTPUT,
	  .help = "Write results to FILE instead of stdout" },
	{ .name = "json", .type = OT_STR, S(json), .arg = "FILE", .group = OG_OUTPUT,
	  .help = "Also write the results as JSON to FILE" },
	/* The HTML report (issue 11). */
	{ .name = "html", .type = OT_STR, S(html), .arg = "FILE", .group = OG_OUTPUT,
	  .help = "Also write a self-contained HTML report with charts to FILE (Chart.js from Debian's libjs-chart.js is inlined: it opens offline)" },
	{ .name = "passes", .type = OT_UINT, S(passes), .def = "1", .min = 1, .max = 1000,
	  .arg = "N", .group = OG_SUITE,
	  .help = "Repeat the suite N times; report the median and the min-max range" },
	{ .name = "allow-destroy", .type = OT_BOOL, S(allow_destroy), .def = "0", .bare = "1",
	  .group = OG_SAFETY, .flags = OPT_CLI_ONLY,
	  .help = "Allow writing to a block device that carries a file system, partition table, RAID or LVM signature (never a mounted one; command line only)" },
	{ .name = "allow-overwrite", .type = OT_BOOL, S(allow_overwrite), .def = "0", .bare = "1",
	  .group = OG_SAFETY, .flags = OPT_CLI_ONLY,
	  .help = "Allow writing into an existing file that iogauge did not create (command line only)" },
	{ .name = "keep", .type = OT_BOOL, S(keep), .def = "0", .bare = "1", .group = OG_SAFETY,
	  .help = "Keep the test files iogauge created" },
	{ .name = "quiet", .type = OT_BOOL, S(quiet), .def = "0", .bare = "1", .group = OG_OUTPUT,
	  .help = "No progress line on stderr (warnings and errors still)" },
	{ .name = NULL },
};

/* ---- lookup */

/* fio spells options with '_', iogauge's own use '-': accept either. */
static bool name_eq(const char *a, const char *b, size_t blen)
{
	size_t i = 0;
	for (; i < blen && a[i]; i++) {
		char x = a[i] == '_' ? '-' : a[i], y = b[i] == '_' ? '-' : b[i];
		if (x != y)
			return false;
	}
	return i == blen && !a[i];
}

const struct opt_def *option_find_n(const char *name, size_t len)
{
	for (const struct opt_def *o = options; o->name; o++)
		if (name_eq(o->name, name, len))
			return o;
	return NULL;
}

const struct opt_def *option_find_pref(const char *name, size_t len, unsigned prefer)
{
	for (const struct opt_def *o = options; o->name; o++)
		if ((o->group & prefer) && name_eq(o->name, name, len))
			return o;
	return option_find_n(name, len);
}

const struct opt_def *option_find(const char *name)
{
	return option_find_n(name, strlen(name));
}

/* ---- applying */

static int apply_number(const struct opt_def *o, void *field, const char *val, char *err,
			size_t n)
{
	uint64_t v;
	int rc;
	const char *what;
	switch (o->type) {
	case OT_SIZE:
		rc = parse_size(val, &v);
		what = "a size (a number with an optional k, m, g, t or KiB/KB.. suffix)";
		break;
	case OT_TIME:
		rc = parse_time(val, o->unit, &v);
		what = "a time (a number with an optional ns, us, ms, s, m or h suffix)";
		break;
	default:
		rc = parse_uint(val, &v);
		what = "a whole number";
		break;
	}
	if (rc) {
		snprintf(err, n, "--%s: '%s' is not %s", o->name, val, what);
		return -1;
	}
	/* A 32-bit field without a stated maximum still takes no more than it holds. */
	uint64_t max = o->max ? o->max : o->type == OT_UINT ? UINT32_MAX : 0;
	if (v < o->min || (max && v > max)) {
		if (max)
			snprintf(err, n, "--%s: %s is out of range (allowed: %" PRIu64 " to %" PRIu64 ")",
				 o->name, val, o->min, max);
		else
			snprintf(err, n, "--%s: %s is out of range (at least %" PRIu64 ")", o->name,
				 val, o->min);
		return -1;
	}
	if (o->type == OT_UINT)
		*(unsigned *)field = (unsigned)v;
	else
		*(uint64_t *)field = v;
	return 0;
}

static int apply_enum(const struct opt_def *o, int *field, const char *val, char *err, size_t n)
{
	for (int i = 0; o->values[i]; i++) {
		if (!strcmp(val, o->values[i])) {
			*field = i;
			return 0;
		}
	}
	int k = snprintf(err, n, "--%s: '%s' is not allowed (allowed:", o->name, val);
	for (int i = 0; o->values[i] && k > 0 && (size_t)k < n; i++)
		k += snprintf(err + k, n - k, "%s%s", i ? "|" : " ", o->values[i]);
	if (k > 0 && (size_t)k < n)
		snprintf(err + k, n - k, ")");
	return -1;
}

int option_apply(const struct opt_def *o, struct job *j, struct settings *s, const char *val,
		 char *err, size_t n)
{
	void *obj = o->scope == SCOPE_JOB ? (void *)j : (void *)s;
	void *field = (char *)obj + o->off;
	if (!val)
		val = o->bare;
	if (!val) {
		snprintf(err, n, "--%s needs a value (%s)", o->name, o->arg ? o->arg : "see --help");
		return -1;
	}
	/* A typed row may parse its values itself (bs=R,W); the type still says how it is shown. */
	if (o->set)
		return o->set(obj, o, val, err, n);
	switch (o->type) {
	case OT_STR:
		if (strlen(val) >= o->len) {
			snprintf(err, n, "--%s: value longer than %zu characters", o->name, o->len - 1);
			return -1;
		}
		if (!*val && (o->flags & OPT_NEW_JOB)) {
			snprintf(err, n, "--%s: the name is empty", o->name);
			return -1;
		}
		strcpy(field, val);
		return 0;
	case OT_BOOL: {
		bool b;
		if (parse_bool(val, &b)) {
			snprintf(err, n,
				 "--%s: '%s' is not a boolean (allowed: 1, 0, true, false, yes, no, on, off)",
				 o->name, val);
			return -1;
		}
		*(bool *)field = o->invert ? !b : b;
		return 0;
	}
	case OT_ENUM:
		return apply_enum(o, field, val, err, n);
	case OT_SPECIAL:
		return o->set(obj, o, val, err, n);
	default:
		return apply_number(o, field, val, err, n);
	}
}

void options_defaults(struct job *j, struct settings *s)
{
	char err[256];
	memset(j, 0, sizeof(*j));
	memset(s, 0, sizeof(*s));
	for (const struct opt_def *o = options; o->name; o++) {
		if (o->def && option_apply(o, j, s, o->def, err, sizeof(err))) {
			/* A broken default is a programming error. */
			msg_err("internal: default of %s", err);
			abort();
		}
	}
}

/* ---- printing */

void print_size(uint64_t v, char *buf, size_t len)
{
	static const char sfx[] = "kmgtp";
	int u = -1;
	while (v && v % 1024 == 0 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "%" PRIu64 "%c", v, sfx[u]);
}

void print_time(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		const char *name;
		uint64_t mult;
	} units[] = { { "h", 3600 * NSEC_PER_SEC }, { "m", 60 * NSEC_PER_SEC }, { "s", NSEC_PER_SEC },
		      { "ms", NSEC_PER_MSEC },	    { "us", NSEC_PER_USEC },	  { "ns", 1 } };
	if (!ns) {
		snprintf(buf, len, "0");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (ns % units[i].mult == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", ns / units[i].mult, units[i].name);
			return;
		}
	}
}

void option_print(const struct opt_def *o, const struct job *j, const struct settings *s,
		  char *buf, size_t len)
{
	const void *obj = o->scope == SCOPE_JOB ? (const void *)j : (const void *)s;
	const void *field = (const char *)obj + o->off;
	if (o->print) {
		o->print(obj, o, buf, len);
		return;
	}
	switch (o->type) {
	case OT_STR:
		snprintf(buf, len, "%s", (const char *)field);
		break;
	case OT_BOOL:
		snprintf(buf, len, "%d", *(const bool *)field != o->invert);
		break;
	case OT_UINT:
		snprintf(buf, len, "%u", *(const unsigned *)field);
		break;
	case OT_U64:
		snprintf(buf, len, "%" PRIu64, *(const uint64_t *)field);
		break;
	case OT_SIZE:
		print_size(*(const uint64_t *)field, buf, len);
		break;
	case OT_TIME:
		print_time(*(const uint64_t *)field, buf, len);
		break;
	case OT_ENUM:
		snprintf(buf, len, "%s", o->values[*(const int *)field]);
		break;
	case OT_SPECIAL:
		o->print(obj, o, buf, len);
		break;
	}
}

json_t *options_json(const struct job *j, unsigned groups)
{
	json_t *out = json_object();
	for (const struct opt_def *o = options; o->name; o++) {
		if (o->scope != SCOPE_JOB || !(o->group & groups) ||
		    (o->flags & (OPT_NO_ECHO | OPT_NO_EFFECT)))
			continue;
		const void *field = (const char *)j + o->off;
		json_t *v;
		char buf[512];
		switch (o->type) {
		case OT_BOOL:
			v = json_boolean(*(const bool *)field != o->invert);
			break;
		case OT_UINT:
			v = json_integer(*(const unsigned *)field);
			break;
		case OT_U64:
		case OT_SIZE:
		case OT_TIME: {
			uint64_t x = *(const uint64_t *)field;
			v = x > INT64_MAX ? json_real((double)x) : json_integer((json_int_t)x);
			/* A size its own printer shows otherwise (bs=4k,8k) is shown as written. */
			char plain[64];
			print_size(x, plain, sizeof(plain));
			if (o->print) {
				option_print(o, j, NULL, buf, sizeof(buf));
				if (strcmp(buf, plain)) {
					json_decref(v);
					v = json_string(buf);
				}
			}
			break;
		}
		default:
			option_print(o, j, NULL, buf, sizeof(buf));
			v = json_string(buf);
			if (!v) /* not UTF-8 (a path): keep the key */
				v = json_string("?");
			break;
		}
		json_object_set_new(out, o->name, v);
	}
	return out;
}
