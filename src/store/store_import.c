/*
 * bonnie++'s CSV lines (formats 1.97 and 1.98) as store records (store.h),
 * a record per line, so an archive becomes history; the line as it was is
 * the document (`show` prints bonnie++'s table from it).  fio's JSON is read
 * by report/result_fio.c (the reading compare and report use) and iogauge's
 * own by store_record_of_root.
 */
#include "base/common.h"
#include "store/store.h"
#include "suites/bonnie.h"

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

int store_record_of_bonnie(const char *line, const char *path, time_t mtime, struct store_record *rec, struct ig_err *e)
{
	char buf[4096], *f[BONNIE_CSV_FIELDS + 1] = { 0 };
	unsigned n = 0;
	memset(rec, 0, sizeof(*rec));
	snprintf(buf, sizeof(buf), "%s", line);
	buf[strcspn(buf, "\r\n")] = 0;
	for (char *p = buf; n <= BONNIE_CSV_FIELDS;) {
		f[n++] = p;
		char *c = strchr(p, ',');
		if (!c)
			break;
		*c = 0;
		p = c + 1;
	}
	if (n != BONNIE_CSV_FIELDS || (strcmp(f[0], "1.97") && strcmp(f[0], "1.98")))
		return err_set(e, EXIT_USAGE, "%s: not a bonnie++ CSV line of format 1.97 or 1.98 (%u fields, %d expected)",
			       path, n, BONNIE_CSV_FIELDS);
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
