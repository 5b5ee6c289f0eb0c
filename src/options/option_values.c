/* Options whose values have a syntax of their own: a setter and a printer each. */
#include "base/common.h"
#include "options/opt_def.h"
#include "base/units.h"
#include "model/job_names.h"
#include "options/option_values.h"
#include "options/command.h"
#include "stats/steady.h"
#include "model/engine.h"
#include "options/fio_opts.h"
#include "options/fio_engines.h"
#include "model/data.h"
#include "model/verify.h"

#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fmt_values[] = { "normal", "json", "fio-json", "json+", "terse", "csv", "openmetrics", NULL };

/* The shortest decimal that reads back as exactly v. */
int print_double(char *buf, size_t len, double v)
{
	for (int prec = 6; prec < 17; prec++) {
		int n = snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return n;
	}
	return snprintf(buf, len, "%.17g", v);
}

/* ---- special options: a setter and a printer each */

int set_engine(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	const struct engine_ops *e = strcmp(val, "auto") ? engine_by_name(val) : engine_default();
	if (!e && !strcmp(val, engine_fileops.name))
		e = &engine_fileops; /* not listed: a --fileop job's own, as its saved options name it */
	if (!e && !strcmp(val, engine_tree.name))
		e = &engine_tree; /* not listed either: a tree job's own */
	if (!e && fio_engine_refused(val, err, n))
		return -1;
	if (!e) {
		char list[256];
		engine_list(list, sizeof(list));
		snprintf(err, n, "--%s: unknown engine '%s' (allowed: %s)", o->name, val, list);
		return -1;
	}
	((struct job *)obj)->engine = e;
	return 0;
}

void print_engine(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%s", ((const struct job *)obj)->engine->name);
}

int set_rwmixwrite(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	uint64_t v;
	if (parse_uint(val, &v) || v > 100) {
		snprintf(err, n, "--%s: '%s' is not a percentage from 0 to 100", o->name, val);
		return -1;
	}
	((struct job *)obj)->rwmixread = 100 - (unsigned)v;
	return 0;
}

void print_rwmixwrite(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%u", 100 - ((const struct job *)obj)->rwmixread);
}

static const char *const sync_words[] = { "0", "1", "none", "sync", "dsync" };
static const int sync_modes[] = { SYNC_NONE, SYNC_SYNC, SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };

int set_sync(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
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

void print_sync(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	static const char *const shown[] = { "none", "sync", "dsync" };
	(void)o;
	snprintf(buf, len, "%s", shown[((const struct job *)obj)->sync]);
}

int set_steadystate(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
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

void print_steadystate(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = obj;
	(void)o;
	int k = snprintf(buf, len, "%s:", ss_kind_names[j->ss_kind]);
	if (k > 0 && (size_t)k < len)
		k += print_double(buf + k, len - (size_t)k, j->ss_limit);
	if (j->ss_pct && k > 0 && (size_t)k + 1 < len)
		snprintf(buf + k, len - (size_t)k, "%%");
}

int set_distribution(void *obj, const struct opt_def *o, const char *val, char *err,
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

void print_distribution(const void *obj, const struct opt_def *o, char *buf, size_t len)
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

int set_percentiles(void *obj, const struct opt_def *o, const char *val, char *err,
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

void print_percentiles(const void *obj, const struct opt_def *o, char *buf, size_t len)
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

int set_inject(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
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

void print_inject(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%s", ((const struct job *)obj)->inject);
}

int set_verify(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	/* fio's spellings too: verify=0, crc32c-intel. */
	const char *v = !strcmp(val, "0") ? "none" : !strcmp(val, "crc32c-intel") ? "crc32c" : val;
	for (int i = 0; verify_names[i]; i++) {
		if (!strcmp(v, verify_names[i])) {
			j->verify = i;
			j->verify_implied = false;
			return 0;
		}
	}
	snprintf(err, n, "--%s: '%s' is not allowed (allowed: none|crc32c|xxhash|md5|sha256|pattern|meta)",
		 o->name, val);
	return -1;
}

void print_verify(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%s", verify_names[((const struct job *)obj)->verify]);
}

/* ---- written data (data.c): --data and fio's buffer options */

int set_data(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	return data_parse(val, &((struct job *)obj)->data, o->name, err, n);
}

void print_data(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	data_print(&((const struct job *)obj)->data, buf, len);
}

/* fio's buffer_compress_percentage and dedupe_percentage: random data, N%. */
int set_data_pct(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
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

void print_data_pct(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct data_spec *d = &((const struct job *)obj)->data;
	bool compress = !strcmp(o->name, "buffer_compress_percentage");
	snprintf(buf, len, "%u", compress ? (d->mode == DATA_ZERO ? 100u : d->compress) : d->dedupe);
}

int set_zero_buffers(void *obj, const struct opt_def *o, const char *val, char *err,
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

void print_zero_buffers(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%d", ((const struct job *)obj)->data.mode == DATA_ZERO);
}

int set_buffer_pattern(void *obj, const struct opt_def *o, const char *val, char *err,
			      size_t n)
{
	/* fio's buffer_pattern takes no %o. */
	return data_parse_pattern(val, &((struct job *)obj)->data, false, o->name, err, n);
}

/*
 * fio's verify_pattern: the data, and what is checked.  With no --verify, a
 * header and the pattern after it, as fio's (its verify=pattern has none).
 */
int set_verify_pattern(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	if (!*val) { /* none: as printed when unset */
		j->verify_pattern = false;
		return 0;
	}
	if (data_parse_pattern(val, &j->data, true, o->name, err, n))
		return -1;
	j->verify_pattern = true;
	if (!j->verify) {
		j->verify = VERIFY_META;
		j->verify_implied = true;
	}
	return 0;
}

void print_verify_pattern(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = obj;
	(void)o;
	buf[0] = 0;
	if (j->verify_pattern && j->data.mode == DATA_PATTERN)
		data_print_pattern(&j->data, buf, len);
}

/* One format, or (run) a comma list of fio's: normal, fio-json, json+, terse. */
int set_format(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
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
				 "--%s: '%s' is not allowed (allowed: normal|json|fio-json|json+|terse|csv|openmetrics, "
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
	unsigned alone = 1u << OUT_CSV | 1u << OUT_OPENMETRICS;
	if ((mask & alone) && (mask & (mask - 1))) {
		snprintf(err, n, "--%s: csv and openmetrics are not combined with others", o->name);
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

void print_format(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct settings *s = obj;
	(void)o;
	format_names(s->output_formats ? s->output_formats : 1u << s->output_format, ",", buf, len);
}

void format_names(unsigned mask, const char *sep, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; fmt_values[i] && k < len; i++)
		if (mask & (1u << i))
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? sep : "", fmt_values[i]);
}

/* --output-format's words for --help: those the command writes (every one: the man page). */
void format_values(const struct command *c, char *buf, size_t len)
{
	format_names(c ? command_formats(c) : ~0u, "|", buf, len);
}

/* ioping's -W and -L turn the pattern: writes instead of reads (-W=0: reads), sequential instead of random. */
int set_ioping_rw(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
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

void print_ioping_rw(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = obj;
	snprintf(buf, len, "%d", !strcmp(o->name, "W") ? rw_writes(j->rw) : !rw_is_random(j->rw));
}

/* ioping's -w: stop after this long (bare numbers are seconds). */
int set_deadline(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
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

void print_deadline(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	print_time(((const struct job *)obj)->runtime_ns, buf, len);
}

/* --seq_order=forward|backward|stride:N */
int set_seq_order(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
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

void print_seq_order(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job *j = obj;
	(void)o;
	if (j->seq_order == SEQ_STRIDE)
		snprintf(buf, len, "stride:%u", j->seq_stride);
	else
		snprintf(buf, len, "%s", j->seq_order == SEQ_BACKWARD ? "backward" : "forward");
}

/* ---- bonnie++'s options: sizes in MiB when bare, fields joined by ':' */

/* latency_target's percentile (run/admit.c uses it). */
int set_lat_pct(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	char *end;
	double v = strtod(val, &end);
	if (end == val || *end || !(v >= 0.0 && v <= 100.0)) {
		snprintf(err, n, "--%s: '%s' is not a percentage from 0 to 100", o->name, val);
		return -1;
	}
	((struct job *)obj)->lat_pct = v;
	return 0;
}

void print_lat_pct(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%g", ((const struct job *)obj)->lat_pct);
}
