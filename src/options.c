/* The option table and applying options to jobs and settings. */
#include "common.h"
#include "options.h"
#include "engines/engine.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define J(f) SCOPE_JOB, offsetof(struct job, f), sizeof(((struct job *)0)->f)
#define S(f) SCOPE_SETTINGS, offsetof(struct settings, f), sizeof(((struct settings *)0)->f)

const char *const rw_names[] = { "read", "write", "randread", "randwrite",
				 "rw", "readwrite", "randrw", NULL };
const char *const dist_names[] = { "random", "zipf", "pareto", "normal", NULL };
static const char *const fmt_values[] = { "normal", "json", NULL };
static const char *const data_values[] = { "random", "zero", NULL };

#define DEFAULT_PERCENTILES "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99"

static int set_engine(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	const struct engine_ops *e = engine_by_name(val);
	if (!e) {
		int k = snprintf(err, n, "--%s: unknown engine '%s' (allowed:", o->name, val);
		for (unsigned i = 0; engines[i] && k > 0 && (size_t)k < n; i++)
			k += snprintf(err + k, n - k, " %s", engines[i]->name);
		if (k > 0 && (size_t)k < n)
			snprintf(err + k, n - k, ")");
		return -1;
	}
	((struct job *)obj)->engine = e;
	return 0;
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

static int set_buffered(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	bool b = true;
	if (val && parse_bool(val, &b)) {
		snprintf(err, n, "--%s: '%s' is not a boolean (use 0 or 1)", o->name, val);
		return -1;
	}
	((struct job *)obj)->direct = !b;
	return 0;
}

static int set_sync(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	static const char *const words[] = { "0", "1", "none", "sync", "dsync" };
	static const int modes[] = { SYNC_NONE, SYNC_SYNC, SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };
	if (!val)
		val = "1";
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		if (!strcmp(val, words[i])) {
			((struct job *)obj)->sync = modes[i];
			return 0;
		}
	}
	snprintf(err, n, "--%s: '%s' is not allowed (allowed: 0, 1, none, sync, dsync)", o->name, val);
	return -1;
}

static int set_distribution(void *obj, const struct opt_def *o, const char *val, char *err,
			    size_t n)
{
	const char *const *kinds = dist_names;
	struct job *j = obj;
	const char *colon = strchr(val, ':');
	size_t klen = colon ? (size_t)(colon - val) : strlen(val);
	for (size_t k = 0; kinds[k]; k++) {
		if (strlen(kinds[k]) != klen || strncmp(val, kinds[k], klen))
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
	snprintf(err, n,
		 "--%s: '%s' is not allowed (allowed: random, zipf:THETA with THETA > 0 and != 1, "
		 "pareto:H with 0 < H < 1, normal:SIGMA%% with 0 < SIGMA <= 100)",
		 o->name, val);
	return -1;
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

/* clang-format off */
const struct opt_def options[] = {
	{ "name", OT_STR, J(name), NULL, 0, 0, NULL, NULL, NULL, "NAME",
	  "Job name; on the command line each --name starts a new job", CMD_RUN },
	{ "filename", OT_STR, J(filename), NULL, 0, 0, NULL, NULL, NULL, "PATH",
	  "File or block device to test (default: DIRECTORY/NAME.JOB.THREAD, created and removed by iogauge)", CMD_RUN },
	{ "directory", OT_STR, J(directory), ".", 0, 0, NULL, NULL, NULL, "DIR",
	  "Directory for test files", CMD_RUN },
	{ "size", OT_SIZE, J(size), NULL, 1, 0, NULL, NULL, NULL, "SIZE",
	  "Bytes each thread covers (default: the existing file or device size)", CMD_ALL },
	{ "offset", OT_SIZE, J(offset), "0", 0, 0, NULL, NULL, NULL, "SIZE",
	  "Start of the region in the file or device", CMD_RUN },
	{ "rw", OT_ENUM, J(rw), "read", 0, 0, NULL, rw_names, NULL, NULL,
	  "I/O pattern (readwrite is rw: mixed sequential)", CMD_RUN },
	{ "rwmixread", OT_UINT, J(rwmixread), "50", 0, 100, NULL, NULL, NULL, "PCT",
	  "Percentage of reads in mixed patterns", CMD_RUN },
	{ "rwmixwrite", OT_SPECIAL, J(rwmixread), NULL, 0, 100, NULL, NULL, set_rwmixwrite, "PCT",
	  "Percentage of writes in mixed patterns (100 - rwmixread)", CMD_RUN },
	{ "bs", OT_SIZE, J(bs), "4k", 1, 1ULL << 30, NULL, NULL, NULL, "SIZE",
	  "Block size of each request", CMD_RUN },
	{ "iodepth", OT_UINT, J(iodepth), "1", 1, 4096, NULL, NULL, NULL, "N",
	  "Requests kept in flight per thread (asynchronous engines)", CMD_RUN },
	{ "numjobs", OT_UINT, J(numjobs), "1", 1, 256, NULL, NULL, NULL, "N",
	  "Threads running this job, each on its own file or region copy", CMD_RUN },
	{ "ioengine", OT_SPECIAL, J(engine), NULL, 0, 0, NULL, NULL, set_engine,
	  "io_uring|libaio|psync|sync|mmap|null",
	  "How requests are issued (run: psync as in fio; quick: io_uring, else libaio)", CMD_ALL },
	{ "direct", OT_BOOL, J(direct), "0", 0, 0, NULL, NULL, NULL, "0|1",
	  "O_DIRECT: bypass the page cache", CMD_ALL },
	{ "buffered", OT_SPECIAL, J(direct), NULL, 0, 0, NULL, NULL, set_buffered, "0|1",
	  "Use the page cache (the opposite of --direct)", CMD_RUN },
	{ "sync", OT_SPECIAL, J(sync), "0", 0, 0, NULL, NULL, set_sync, "0|1|sync|dsync",
	  "Open with O_SYNC (1, sync) or O_DSYNC (dsync)", CMD_RUN },
	{ "fsync", OT_UINT, J(fsync_every), "0", 0, UINT32_MAX, NULL, NULL, NULL, "N",
	  "fsync after every N writes (timed as part of the run)", CMD_RUN },
	{ "fdatasync", OT_UINT, J(fdatasync_every), "0", 0, UINT32_MAX, NULL, NULL, NULL, "N",
	  "fdatasync after every N writes (timed as part of the run)", CMD_RUN },
	{ "end_fsync", OT_BOOL, J(end_fsync), "0", 0, 0, NULL, NULL, NULL, "0|1",
	  "fsync when the job's writes are done, inside the measured time", CMD_RUN },
	{ "runtime", OT_TIME, J(runtime_ns), "0", 0, 0, "s", NULL, NULL, "TIME",
	  "Stop after this long (bare numbers are seconds; 0: when the size is done)", CMD_ALL },
	{ "time_based", OT_BOOL, J(time_based), "0", 0, 0, NULL, NULL, NULL, "0|1",
	  "Repeat the workload until --runtime has passed", CMD_RUN },
	{ "ramp_time", OT_TIME, J(ramp_ns), "0", 0, 0, "s", NULL, NULL, "TIME",
	  "Run this long before measuring; nothing from the ramp is counted", CMD_ALL },
	{ "loops", OT_UINT, J(loops), "1", 1, UINT32_MAX, NULL, NULL, NULL, "N",
	  "Repeat the job N times (size-bound jobs)", CMD_RUN },
	{ "invalidate", OT_BOOL, J(invalidate), "1", 0, 0, NULL, NULL, NULL, "0|1",
	  "Drop the file's cached pages before the job (not timed)", CMD_RUN },
	{ "randrepeat", OT_BOOL, J(randrepeat), "1", 0, 0, NULL, NULL, NULL, "0|1",
	  "Same random sequence on every run (seeded by --randseed)", CMD_RUN },
	{ "randseed", OT_U64, J(randseed), "137", 0, 0, NULL, NULL, NULL, "N",
	  "Seed of the random offsets and data", CMD_RUN },
	{ "norandommap", OT_BOOL, J(norandommap), "0", 0, 0, NULL, NULL, NULL, "0|1",
	  "Random offsets may repeat (default: each block once per pass)", CMD_RUN },
	{ "random_distribution", OT_SPECIAL, J(dist), "random", 0, 0, NULL, NULL, set_distribution,
	  "random|zipf:THETA|pareto:H|normal:SIGMA",
	  "Distribution of random offsets; normal's SIGMA is a percentage of the region", CMD_RUN },
	{ "rate", OT_SIZE, J(rate_bps), "0", 0, 0, NULL, NULL, NULL, "SIZE",
	  "Limit each thread to this many bytes per second", CMD_RUN },
	{ "rate_iops", OT_U64, J(rate_iops), "0", 0, 0, NULL, NULL, NULL, "N",
	  "Limit each thread to this many requests per second", CMD_RUN },
	{ "thinktime", OT_TIME, J(thinktime_ns), "0", 0, 0, "us", NULL, NULL, "TIME",
	  "Pause after each request (bare numbers are microseconds)", CMD_RUN },
	{ "group_reporting", OT_BOOL, J(group_reporting), "0", 0, 0, NULL, NULL, NULL, "0|1",
	  "Report the threads of a job together, not one by one", CMD_RUN },
	{ "percentile_list", OT_SPECIAL, J(percentiles), DEFAULT_PERCENTILES, 0, 0, NULL, NULL,
	  set_percentiles, "P:P:...", "Latency percentiles to report", CMD_RUN },
	{ "stonewall", OT_BOOL, J(stonewall), "0", 0, 0, NULL, NULL, NULL, "0|1",
	  "Wait for the jobs before this one to finish before starting", CMD_RUN },
	{ "data", OT_ENUM, J(data), "random", 0, 0, NULL, data_values, NULL, NULL,
	  "Written data: incompressible random (refreshed every write) or zeros", CMD_RUN },
	{ "output-format", OT_ENUM, S(output_format), "normal", 0, 0, NULL, fmt_values, NULL, NULL,
	  "Result format on stdout (or --output)", CMD_ALL },
	{ "output", OT_STR, S(output), NULL, 0, 0, NULL, NULL, NULL, "FILE",
	  "Write results to FILE instead of stdout", CMD_ALL },
	{ "json", OT_STR, S(json), NULL, 0, 0, NULL, NULL, NULL, "FILE",
	  "Also write the results as JSON to FILE", CMD_ALL },
	{ "passes", OT_UINT, S(passes), "1", 1, 1000, NULL, NULL, NULL, "N",
	  "Repeat the suite N times; report the median and the min-max range", CMD_QUICK },
	{ "allow-destroy", OT_BOOL, S(allow_destroy), "0", 0, 0, NULL, NULL, NULL, NULL,
	  "Allow writing to a block device that carries a file system, partition table, RAID or LVM signature (never a mounted one)", CMD_ALL },
	{ "allow-overwrite", OT_BOOL, S(allow_overwrite), "0", 0, 0, NULL, NULL, NULL, NULL,
	  "Allow writing into an existing file that iogauge did not create", CMD_ALL },
	{ "keep", OT_BOOL, S(keep), "0", 0, 0, NULL, NULL, NULL, NULL,
	  "Keep the test files iogauge created", CMD_ALL },
	{ "quiet", OT_BOOL, S(quiet), "0", 0, 0, NULL, NULL, NULL, NULL,
	  "No progress line on stderr (warnings and errors still)", CMD_ALL },
	{ NULL, 0, 0, 0, 0, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, 0 },
};
/* clang-format on */

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

static const struct opt_def *option_find_n(const char *name, size_t len)
{
	for (const struct opt_def *o = options; o->name; o++)
		if (name_eq(o->name, name, len))
			return o;
	return NULL;
}

bool option_bare_ok(const struct opt_def *o)
{
	return o->type == OT_BOOL || o->set == set_buffered || o->set == set_sync;
}

const struct opt_def *option_find(const char *name)
{
	return option_find_n(name, strlen(name));
}

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
	if (v < o->min || (o->max && v > o->max)) {
		if (o->max)
			snprintf(err, n, "--%s: %s is out of range (allowed: %llu to %llu)", o->name,
				 val, (unsigned long long)o->min, (unsigned long long)o->max);
		else
			snprintf(err, n, "--%s: %s is out of range (at least %llu)", o->name, val,
				 (unsigned long long)o->min);
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
	if (!val && o->type != OT_BOOL && o->type != OT_SPECIAL) {
		snprintf(err, n, "--%s needs a value (%s)", o->name, o->arg ? o->arg : "see --help");
		return -1;
	}
	switch (o->type) {
	case OT_STR:
		if (strlen(val) >= o->len) {
			snprintf(err, n, "--%s: value longer than %zu characters", o->name, o->len - 1);
			return -1;
		}
		strcpy(field, val);
		return 0;
	case OT_BOOL:
		if (!val) {
			*(bool *)field = true;
			return 0;
		}
		if (parse_bool(val, field)) {
			snprintf(err, n, "--%s: '%s' is not a boolean (use 0 or 1)", o->name, val);
			return -1;
		}
		return 0;
	case OT_ENUM:
		return apply_enum(o, field, val, err, n);
	case OT_SPECIAL:
		if (!val && !option_bare_ok(o)) {
			snprintf(err, n, "--%s needs a value (%s)", o->name, o->arg);
			return -1;
		}
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
	j->engine = &engine_psync;
	for (const struct opt_def *o = options; o->name; o++) {
		if (o->def && option_apply(o, j, s, o->def, err, sizeof(err))) {
			/* A broken default is a programming error. */
			msg_err("internal: default of %s", err);
			abort();
		}
	}
}
