/*
 * Other tools' results as store records (store.h), so an archive becomes
 * history: fio 3.x's JSON (json and json+: the same figures; its bins are
 * kept in the document) and bonnie++'s CSV lines (formats 1.97 and 1.98:
 * a record per line).  iogauge's own saved JSON goes through
 * store_record_of_root.  The document kept is the file as it was.
 */
#include "base/common.h"
#include "store/store.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void iso(time_t t, char *buf, size_t len)
{
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void add_fig(struct store_record *rec, unsigned *cap, const char *target, const char *job, const char *dir,
		    const char *metric, const char *label, const char *unit, double v, int better)
{
	if (!isfinite(v))
		return;
	if (rec->nfigs == *cap) {
		*cap = *cap ? 2 * *cap : 32;
		rec->figs = realloc(rec->figs, *cap * sizeof(*rec->figs));
		if (!rec->figs) {
			msg_err("out of memory");
			exit(EXIT_IOERR);
		}
	}
	struct store_fig *f = &rec->figs[rec->nfigs++];
	char name[512];
	if (*dir)
		snprintf(name, sizeof(name), "%s: %s %s", job, dir, label);
	else
		snprintf(name, sizeof(name), "%s: %s", job, label);
	f->target = xstrdup(target);
	f->job = xstrdup(job);
	f->dir = xstrdup(dir);
	f->metric = xstrdup(metric);
	f->name = xstrdup(name);
	f->unit = xstrdup(unit);
	f->value = f->min = f->max = v;
	f->passes = 0;
	f->better = better;
}

static void head(struct store_record *rec, const char *path, time_t when, const char *host, const char *command,
		 const char *version, const char *format)
{
	char t[32], line[PATH_MAX + 64];
	iso(when, t, sizeof(t));
	snprintf(line, sizeof(line), "%s (imported from %s)", command, path);
	rec->measured = xstrdup(t);
	rec->host = xstrdup(host);
	rec->kernel = xstrdup("");
	rec->command = xstrdup(command);
	rec->command_line = xstrdup(line);
	rec->version = xstrdup(version);
	rec->format = xstrdup(format);
	rec->output_format = xstrdup(format);
	rec->source = xstrdup(path);
}

static double num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A job's option, else the global one: "" when neither has it. */
static const char *opt(const json_t *root, const json_t *job, const char *k)
{
	const char *v = json_string_value(json_object_get(json_object_get(job, "job options"), k));
	if (!v)
		v = json_string_value(json_object_get(json_object_get(root, "global options"), k));
	return v ? v : "";
}

int store_record_of_fio(const json_t *root, const char *path, time_t mtime, struct store_record *rec, struct ig_err *e)
{
	memset(rec, 0, sizeof(*rec));
	const char *ver = json_string_value(json_object_get(root, "fio version"));
	const json_t *jobs = json_object_get(root, "jobs"), *j;
	if (!ver || !json_is_array(jobs))
		return err_set(e, EXIT_USAGE, "%s: not fio's JSON output (no \"fio version\" or \"jobs\")", path);
	double ts = num(root, "timestamp");
	const char *host = json_string_value(json_object_get(json_array_get(jobs, 0), "hostname"));
	head(rec, path, isfinite(ts) && ts > 0 ? (time_t)ts : mtime, host ? host : "", "fio", ver, "fio-json");
	unsigned cap = 0, tcap = 0;
	size_t i;
	long long status = 0;
	json_array_foreach(jobs, i, j) {
		const char *name = json_string_value(json_object_get(j, "jobname"));
		const char *file = opt(root, j, "filename"), *dir = opt(root, j, "directory");
		const char *target = *file ? file : dir;
		if (json_integer_value(json_object_get(j, "error")))
			status = 1;
		if (*target) {
			unsigned k = 0;
			while (k < rec->ntargets && strcmp(rec->targets[k].path, target))
				k++;
			if (k == rec->ntargets) {
				if (rec->ntargets == tcap) {
					tcap = tcap ? 2 * tcap : 4;
					rec->targets = realloc(rec->targets, tcap * sizeof(*rec->targets));
					if (!rec->targets) {
						msg_err("out of memory");
						exit(EXIT_IOERR);
					}
				}
				struct store_target *t = &rec->targets[rec->ntargets++];
				t->path = xstrdup(target);
				t->device = xstrdup("");
				t->model = xstrdup("");
				t->firmware = xstrdup("");
				t->fstype = xstrdup("");
			}
		}
		static const char *const dirs[] = { "read", "write", "trim" };
		for (unsigned d = 0; d < 3; d++) {
			const json_t *op = json_object_get(j, dirs[d]);
			const json_t *clat = json_object_get(op, "clat_ns"), *pct = json_object_get(clat, "percentile");
			if (!(num(op, "io_bytes") > 0))
				continue;
			const char *jn = name ? name : "?";
			double bw = num(op, "bw_bytes");
			if (!isfinite(bw))
				bw = num(op, "bw") * 1024; /* fio before 3.0: KiB/s alone */
			add_fig(rec, &cap, target, jn, dirs[d], "mb_s", "MB/s", "MB/s", bw / 1e6, 1);
			add_fig(rec, &cap, target, jn, dirs[d], "iops", "IOPS", "IOPS", num(op, "iops"), 1);
			add_fig(rec, &cap, target, jn, dirs[d], "lat_mean_us", "mean latency us", "us", num(clat, "mean") / 1e3, -1);
			add_fig(rec, &cap, target, jn, dirs[d], "lat_p99_us", "p99 latency us", "us", num(pct, "99.000000") / 1e3, -1);
			add_fig(rec, &cap, target, jn, dirs[d], "lat_p50_us", "p50 latency us", "us", num(pct, "50.000000") / 1e3, 0);
			add_fig(rec, &cap, target, jn, dirs[d], "lat_p999_us", "p99.9 latency us", "us", num(pct, "99.900000") / 1e3, 0);
			add_fig(rec, &cap, target, jn, dirs[d], "lat_min_us", "min latency us", "us", num(clat, "min") / 1e3, 0);
			add_fig(rec, &cap, target, jn, dirs[d], "lat_max_us", "max latency us", "us", num(clat, "max") / 1e3, 0);
			add_fig(rec, &cap, target, jn, dirs[d], "lat_stddev_us", "latency stddev us", "us", num(clat, "stddev") / 1e3, 0);
		}
	}
	rec->status = status;
	return 0;
}

/* bonnie++'s latency field ("16129us", "12ms", "3s"): microseconds, NAN when empty. */
static double bonnie_lat(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s)
		return NAN;
	return !strcmp(end, "ns") ? v / 1e3 : !strcmp(end, "us") ? v : !strcmp(end, "ms") ? v * 1e3 : !strcmp(end, "s") ? v * 1e6 : NAN;
}

/* A CSV value: a number, NAN for +++++ (too fast to time) or empty. */
static double bonnie_val(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	return end == s || *end ? NAN : v;
}

#define BONNIE_FIELDS 50

int store_record_of_bonnie(const char *line, const char *path, time_t mtime, struct store_record *rec, struct ig_err *e)
{
	char buf[4096], *f[BONNIE_FIELDS + 1] = { 0 };
	unsigned n = 0;
	memset(rec, 0, sizeof(*rec));
	snprintf(buf, sizeof(buf), "%s", line);
	buf[strcspn(buf, "\r\n")] = 0;
	for (char *p = buf; n <= BONNIE_FIELDS;) {
		f[n++] = p;
		char *c = strchr(p, ',');
		if (!c)
			break;
		*c = 0;
		p = c + 1;
	}
	if (n != BONNIE_FIELDS || (strcmp(f[0], "1.97") && strcmp(f[0], "1.98")))
		return err_set(e, EXIT_USAGE, "%s: not a bonnie++ CSV line of format 1.97 or 1.98 (%u fields, %d expected)",
			       path, n, BONNIE_FIELDS);
	char ver[64];
	snprintf(ver, sizeof(ver), "bonnie++ %s", f[1]);
	head(rec, path, mtime, f[2], "bonnie++", ver, "bonnie-csv");
	rec->doc = xstrdup(line);
	rec->doc_len = strlen(line);
	static const struct {
		const char *job, *metric, *unit, *label;
		double mul;
	} tests[12] = {
		{ "Sequential Output Per Chr", "mb_s", "MB/s", "MB/s", 1024 / 1e6 },
		{ "Sequential Output Block", "mb_s", "MB/s", "MB/s", 1024 / 1e6 },
		{ "Sequential Output Rewrite", "mb_s", "MB/s", "MB/s", 1024 / 1e6 },
		{ "Sequential Input Per Chr", "mb_s", "MB/s", "MB/s", 1024 / 1e6 },
		{ "Sequential Input Block", "mb_s", "MB/s", "MB/s", 1024 / 1e6 },
		{ "Random Seeks", "per_sec", "/s", "seeks/s", 1 },
		{ "Sequential Create", "per_sec", "/s", "files/s", 1 },
		{ "Sequential Read", "per_sec", "/s", "files/s", 1 },
		{ "Sequential Delete", "per_sec", "/s", "files/s", 1 },
		{ "Random Create", "per_sec", "/s", "files/s", 1 },
		{ "Random Read", "per_sec", "/s", "files/s", 1 },
		{ "Random Delete", "per_sec", "/s", "files/s", 1 },
	};
	unsigned cap = 0;
	for (unsigned i = 0; i < 12; i++) {
		unsigned at = i < 6 ? 9 + 2 * i : 26 + 2 * (i - 6);
		add_fig(rec, &cap, "", tests[i].job, "", tests[i].metric, tests[i].label, tests[i].unit,
			bonnie_val(f[at]) * tests[i].mul, 1);
		add_fig(rec, &cap, "", tests[i].job, "", "lat_max_us", "max latency us", "us", bonnie_lat(f[38 + i]), 0);
	}
	return 0;
}
