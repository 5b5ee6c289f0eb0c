/*
 * An iogauge result as the store keeps it (store.h): the head read through
 * report/result_read.h, every figure through report's saved_from_root (the
 * rows compare judges, and the rest as informational), the targets with
 * their device's model and firmware from sysfs when measured here.
 */
#include "base/common.h"
#include "base/devinfo.h"
#include "report/report.h"
#include "report/result_read.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *dup0(const char *s)
{
	return xstrdup(s ? s : "");
}

/* The device and file system of a target: the suite's record of it, or the first job's that names it. */
static void target_facts(const json_t *root, const struct result_suite *su, bool suite, const struct result_job *jobs,
			 unsigned nj, const char *path, const char **dev, const char **fs)
{
	(void)root;
	*dev = *fs = "";
	if (suite) {
		for (unsigned t = 0; t < su->ntargets; t++)
			if (!strcmp(su->targets[t].path, path)) {
				*dev = su->targets[t].device;
				*fs = su->targets[t].fstype;
				return;
			}
	}
	for (unsigned k = 0; k < nj; k++)
		if (jobs[k].target && !strcmp(jobs[k].target, path) && jobs[k].ntargets) {
			*dev = jobs[k].targets[0].device;
			*fs = jobs[k].targets[0].fstype;
			return;
		}
}

static void fill_targets(const json_t *root, bool local, struct store_record *rec)
{
	struct result_head h;
	struct result_suite su;
	struct ig_err ignore = { 0 };
	result_head(root, &h);
	bool suite = h.suite && !result_suite(root, &su, &ignore);
	struct result_job *jobs;
	unsigned nj = result_jobs(root, &jobs);
	const char **paths;
	unsigned n = result_targets(root, &paths);
	rec->targets = xcalloc(n ? n : 1, sizeof(*rec->targets));
	for (unsigned i = 0; i < n; i++) {
		struct store_target *t = &rec->targets[rec->ntargets++];
		const char *dev, *fs;
		char model[128] = "", fw[64] = "";
		target_facts(root, &su, suite, jobs, nj, paths[i] ? paths[i] : "", &dev, &fs);
		if (local)
			blockdev_model(dev, model, sizeof(model), fw, sizeof(fw));
		t->path = dup0(paths[i]);
		t->device = dup0(dev);
		t->fstype = dup0(fs);
		t->model = xstrdup(model);
		t->firmware = xstrdup(fw);
	}
	free(paths);
	result_jobs_free(jobs, nj);
	if (h.suite)
		result_suite_free(&su);
}

static void fill_figs(const json_t *root, struct store_record *rec)
{
	struct saved_result sr;
	struct ig_err ignore = { 0 };
	/* A result with nothing measured (a run stopped at once) is kept, with no figures. */
	if (saved_from_root(root, "", true, &sr, &ignore))
		return;
	struct result_job *jobs;
	unsigned nj = result_jobs(root, &jobs);
	rec->figs = xcalloc(sr.n ? sr.n : 1, sizeof(*rec->figs));
	for (unsigned i = 0; i < sr.n; i++) {
		const struct saved_entry *x = &sr.e[i];
		struct store_fig *f = &rec->figs[rec->nfigs++];
		const char *target = x->column;
		/* A job's figures (run, fio, dd) are on its first target. */
		for (unsigned k = 0; !*target && k < nj; k++)
			if (jobs[k].name && !strcmp(jobs[k].name, x->job) && jobs[k].target)
				target = jobs[k].target;
		if (!*target && rec->ntargets)
			target = rec->targets[0].path;
		f->target = xstrdup(target);
		f->job = xstrdup(x->job);
		f->dir = xstrdup(x->dir);
		f->metric = xstrdup(x->metric);
		f->name = xstrdup(x->row);
		f->unit = xstrdup(x->unit);
		f->value = x->median;
		f->min = x->passes ? x->min : x->median;
		f->max = x->passes ? x->max : x->median;
		f->passes = x->passes;
		f->better = !x->judged ? 0 : x->lower_better ? -1 : 1;
	}
	result_jobs_free(jobs, nj);
	saved_free(&sr);
}

int store_record_of_root(const json_t *root, bool local, struct store_record *rec, struct ig_err *e)
{
	struct result_head h;
	memset(rec, 0, sizeof(*rec));
	result_head(root, &h);
	if (!*h.command)
		return err_set(e, EXIT_USAGE, "not an iogauge result (no iogauge.command)");
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	rec->measured = xstrdup(*h.time ? h.time : now);
	rec->host = dup0(h.host_name);
	rec->kernel = dup0(h.kernel);
	rec->command = dup0(h.command);
	rec->command_line = dup0(h.command_line);
	rec->version = dup0(h.version);
	rec->format = xstrdup("iogauge");
	rec->output_format = xstrdup("normal");
	rec->status = h.status;
	/* As --json writes it, compact: the numbers read back are the file's. */
	rec->doc = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(10));
	if (!rec->doc) {
		store_record_free(rec);
		return err_set(e, EXIT_IOERR, "cannot encode the result");
	}
	rec->doc_len = strlen(rec->doc);
	fill_targets(root, local, rec);
	fill_figs(root, rec);
	return 0;
}

void store_record_free(struct store_record *rec)
{
	free(rec->label);
	free(rec->measured);
	free(rec->host);
	free(rec->kernel);
	free(rec->command);
	free(rec->command_line);
	free(rec->version);
	free(rec->format);
	free(rec->output_format);
	free(rec->source);
	for (unsigned i = 0; i < rec->ntargets; i++) {
		free(rec->targets[i].path);
		free(rec->targets[i].device);
		free(rec->targets[i].model);
		free(rec->targets[i].firmware);
		free(rec->targets[i].fstype);
	}
	free(rec->targets);
	store_figs_free(rec->figs, rec->nfigs);
	free(rec->doc); /* json_dumps' (malloc), or an import's file */
	free(rec->text);
	memset(rec, 0, sizeof(*rec));
}
