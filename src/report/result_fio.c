/*
 * fio's JSON output (fio 3.x, json and json+) read as an iogauge result
 * (result_read.h), so compare and report take an imported fio result beside
 * iogauge's own.  What maps is mapped as fio measured it: each job's
 * bandwidth, IOPS, bytes and requests per direction, and its completion,
 * submission and total latency's samples, min, max, mean, stddev and
 * percentiles (fio's own, computed from fio's histogram).  What cannot be
 * carried honestly is left out and said in the result's notes: fio's
 * latency bins (json+) are fio's buckets, not iogauge's, and are not
 * re-binned, so a reader that needs a histogram (the HTML's percentile
 * curves, the text report) finds none; fio has no per-second series or
 * device counters in its JSON, nor the options given without a value.
 * The job's settings are fio's options read by iogauge's option table as
 * `iogauge run` reads them, only those fio echoed: compare compares just
 * those (saved.c).
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "options/args.h"
#include "options/command.h"
#include "options/options.h"
#include "report/result_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void set_num(json_t *o, const char *k, double v)
{
	if (isfinite(v))
		json_object_set_new(o, k, json_real(v));
}

/* A latency of fio's (clat_ns, slat_ns, lat_ns) in iogauge's keys, without a histogram. */
static json_t *lat_of(const json_t *f)
{
	if (!json_is_object(f) || !(num(f, "N") > 0))
		return NULL;
	json_t *o = json_object();
	json_object_set_new(o, "samples", json_integer((json_int_t)num(f, "N")));
	set_num(o, RK_MIN, num(f, "min"));
	set_num(o, RK_MAX, num(f, "max"));
	set_num(o, RK_MEAN, num(f, "mean"));
	set_num(o, RK_STDDEV, num(f, "stddev"));
	const json_t *pct = json_object_get(f, "percentile");
	if (json_is_object(pct))
		json_object_set_new(o, RK_PERCENTILES, json_deep_copy(pct));
	return o;
}

static json_t *dir_of(const json_t *op, bool *bins)
{
	if (!(num(op, "io_bytes") > 0))
		return NULL;
	json_t *o = json_object();
	double bw = num(op, "bw_bytes");
	if (!isfinite(bw))
		bw = num(op, "bw") * 1024; /* fio before 3.0: KiB/s alone */
	set_num(o, RK_IOS, num(op, "total_ios"));
	set_num(o, RK_BYTES, num(op, "io_bytes"));
	set_num(o, RK_BW_BYTES, bw);
	set_num(o, RK_IOPS, num(op, "iops"));
	static const char *const lats[] = { "slat_ns", RK_CLAT_NS, "lat_ns" };
	for (unsigned i = 0; i < 3; i++) {
		const json_t *f = json_object_get(op, lats[i]);
		json_t *l = lat_of(f);
		if (l)
			json_object_set_new(o, lats[i], l);
		*bins |= json_object_get(f, "bins") != NULL;
	}
	return o;
}

/* "k1, k2" of a list the notes name. */
static void add_name(char *list, size_t len, const char *k)
{
	size_t n = strlen(list);
	if (!strstr(list, k))
		snprintf(list + n, len - n, "%s%s", n ? ", " : "", k);
}

/*
 * One option alone: does `iogauge run` take it (0), lack it (1: an option
 * of fio's it does not have, or of a newer fio it does not know), or refuse
 * its value (-1)?
 */
static int try_option(const struct command *run, const char *key, const char *arg)
{
	const struct opt_def *o = option_find_cmd(key, strlen(key), run);
	if (!o || !option_takes(o, run))
		return 1;
	char name[] = "--name=x";
	char *argv[] = { name, (char *)arg };
	struct parsed_args pa;
	struct ig_err e = { 0 };
	int rc = args_parse(2, argv, run, &pa, &e);
	args_free(&pa);
	return rc ? -1 : 0;
}

/*
 * The job as `iogauge run` reads fio's options (the global ones, then the
 * job's), made what it would run (job_normalise, without reading an iolog),
 * and the options echo of just the options fio gave.
 */
static json_t *options_of(const json_t *fio, const json_t *fj, const char *jobname, const struct command *run,
			  char *lacks, char *refused, size_t len)
{
	const json_t *sets[2] = { json_object_get(fio, "global options"), json_object_get(fj, "job options") };
	char **argv = xcalloc(json_object_size(sets[0]) + json_object_size(sets[1]) + 2, sizeof(char *));
	const char **given = xcalloc(json_object_size(sets[0]) + json_object_size(sets[1]) + 1, sizeof(char *));
	int argc = 0;
	unsigned ngiven = 0;
	for (unsigned k = 0; k < 2; k++) {
		const char *key;
		const json_t *v;
		if (k) {
			char *a = xcalloc(1, strlen(jobname) + 8);
			sprintf(a, "--name=%s", jobname);
			argv[argc++] = a;
		}
		json_object_foreach((json_t *)sets[k], key, v) {
			const char *s = json_string_value(v);
			if (!s || !strcmp(key, "name"))
				continue;
			char *a = xcalloc(1, strlen(key) + strlen(s) + 4);
			sprintf(a, "--%s=%s", key, s);
			int t = try_option(run, key, a);
			if (t) {
				add_name(t > 0 ? lacks : refused, len, key);
				free(a);
				continue;
			}
			argv[argc++] = a;
			given[ngiven++] = key;
		}
	}
	struct parsed_args pa;
	struct ig_err e = { 0 };
	json_t *out = json_object();
	if (!args_parse(argc, argv, run, &pa, &e) && pa.njobs == 1) {
		struct job j = pa.jobs[0];
		/* What it would run (a synchronous engine's iodepth 1 ...), as iogauge's echo says; no iolog read. */
		j.read_iolog[0] = j.write_iolog[0] = 0;
		struct ig_err ne = { 0 };
		if (job_normalise(&j, &ne))
			j = pa.jobs[0];
		memcpy(j.read_iolog, pa.jobs[0].read_iolog, sizeof(j.read_iolog));
		memcpy(j.write_iolog, pa.jobs[0].write_iolog, sizeof(j.write_iolog));
		json_t *all = options_json(&j, run->groups, NULL, NULL);
		for (unsigned i = 0; i < ngiven; i++) {
			const struct opt_def *o = option_find_cmd(given[i], strlen(given[i]), run);
			json_t *v = o ? json_object_get(all, o->name) : NULL;
			if (v)
				json_object_set(out, o->name, v);
		}
		json_decref(all);
	}
	args_free(&pa);
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	free(given);
	return out;
}

json_t *result_from_fio(const json_t *fio, const char *name, const struct command *run, struct ig_err *e)
{
	const char *ver = json_string_value(json_object_get(fio, RK_FIO_VERSION));
	const json_t *jobs = json_object_get(fio, RK_JOBS), *fj;
	if (!ver || !json_is_array(jobs)) {
		err_set(e, EXIT_USAGE, "%s: not fio's JSON output (no \"fio version\" or \"jobs\")", name);
		return NULL;
	}
	if (!json_array_size(jobs)) {
		err_set(e, EXIT_USAGE, "%s: fio's JSON output (%.40s) with no job in it: nothing measured", name, ver);
		return NULL;
	}
	json_t *root = json_object(), *me = json_object(), *out = json_array(), *imp = json_object();
	json_object_set_new(me, RK_VERSION, json_string(ver));
	json_object_set_new(me, RK_SCHEMA, json_integer(RESULT_SCHEMA));
	json_object_set_new(me, RK_COMMAND, json_string("fio"));
	json_object_set_new(root, RK_IOGAUGE, me);
	double ts = num(fio, "timestamp");
	if (ts > 0) {
		char t[32];
		time_t tt = (time_t)ts;
		struct tm tm;
		gmtime_r(&tt, &tm);
		strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%SZ", &tm);
		json_object_set_new(root, RK_TIME, json_string(t));
	}
	char line[PATH_MAX + 64];
	snprintf(line, sizeof(line), "fio (%s's JSON, imported from %s)", ver, name);
	json_object_set_new(root, RK_COMMAND_LINE, json_string(line));
	const char *host = json_string_value(json_object_get(json_array_get(jobs, 0), "hostname"));
	if (host) {
		json_t *h = json_object();
		json_object_set_new(h, RK_NAME, json_string(host));
		json_object_set_new(root, RK_HOST, h);
	}
	char lacks[512] = "", refused[512] = "";
	bool bins = false;
	long long status = 0;
	size_t i;
	json_array_foreach(jobs, i, fj) {
		const char *jn = json_string_value(json_object_get(fj, "jobname"));
		json_t *j = json_object();
		json_object_set_new(j, RK_NAME, json_string(jn ? jn : "?"));
		json_object_set_new(j, RK_GROUP, json_integer((json_int_t)result_or0(num(fj, "groupid"))));
		json_object_set_new(j, RK_OPTIONS, options_of(fio, fj, jn ? jn : "?", run, lacks, refused, sizeof(lacks)));
		const char *file = json_string_value(json_object_get(json_object_get(fj, "job options"), "filename"));
		if (!file)
			file = json_string_value(json_object_get(json_object_get(fio, "global options"), "filename"));
		if (file) {
			json_t *t = json_object(), *a = json_array();
			json_object_set_new(t, RK_PATH, json_string(file));
			json_array_append_new(a, t);
			json_object_set_new(j, RK_TARGETS, a);
		}
		set_num(j, "elapsed_ns", num(fj, "job_runtime") * 1e6);
		for (unsigned d = 0; d < DDIR_NR; d++) {
			json_t *o = dir_of(json_object_get(fj, io_op_names[d]), &bins);
			if (o)
				json_object_set_new(j, io_op_names[d], o);
		}
		if (num(fj, "error") > 0)
			status = 1;
		json_array_append_new(out, j);
	}
	json_object_set_new(root, RK_STATUS, json_integer(status));
	json_object_set_new(root, RK_JOBS, out);
	json_t *notes = json_array();
	char n[1200];
	snprintf(n, sizeof(n),
		 "Imported from %s's JSON (%s): bandwidth, IOPS and latency (min, mean, max, stddev, percentiles) per "
		 "direction are fio's own figures; one run, no spread",
		 ver, name);
	json_array_append_new(notes, json_string(n));
	snprintf(n, sizeof(n),
		 "Not carried: %sper-second series, device counters, CPU; no latency histogram to draw or merge",
		 bins ? "fio's latency bins (json+: fio's buckets, not iogauge's, so not re-binned), " : "");
	json_array_append_new(notes, json_string(n));
	snprintf(n, sizeof(n), "Settings: only the options fio's JSON echoes (those given with a value) are compared%s%s%s%s",
		 *lacks ? "; fio options iogauge does not have: " : "", lacks,
		 *refused ? "; values iogauge reads otherwise, not compared: " : "", refused);
	json_array_append_new(notes, json_string(n));
	json_object_set_new(root, RK_NOTES, notes);
	json_object_set_new(imp, "format", json_string("fio-json"));
	json_object_set_new(imp, "tool", json_string(ver));
	json_object_set_new(imp, "file", json_string(name));
	json_object_set_new(root, RK_IMPORTED, imp);
	return root;
}

const char *result_fio_start(const char *buf)
{
	/* fio writes its notes ("note: both iodepth >= 1 and synchronous I/O ...") before the JSON. */
	for (const char *p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		p += strspn(p, " \t\r");
		if (*p == '{')
			return p;
	}
	return NULL;
}
