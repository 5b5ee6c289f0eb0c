/* A suite's results as people read them: the table's cells, header, device lines, and its JSON. */
#include "base/cluster.h"
#include "base/result_keys.h"
#include "options/command.h"
#include "base/common.h"
#include "options/options.h"
#include "options/args.h"
#include "suite/suite.h"
#include "model/verify.h"
#include "report/report.h"
#include "model/engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void suite_print_num(FILE *f, const struct fig3 *v, int width, int prec, double scale)
{
	if (!v->n)
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %*.*f", width, prec, v->median / scale);
}

void suite_print_targets(FILE *f, const struct suite_run *sr,
			 void (*one)(FILE *f, const struct suite_run *sr, unsigned target))
{
	for (unsigned t = 0; t < sr->ntargets; t++) {
		if (!sr->targets[t].tested && !sr->targets[t].refused.status)
			continue;
		if (t)
			fprintf(f, "\n");
		one(f, sr, t);
	}
}

void suite_print_header(FILE *f, const struct suite_run *sr, unsigned ti)
{
	const struct suite_target *q = &sr->targets[ti];
	const struct target *t = &q->info;
	const struct job *b = sr->base;
	const struct settings *s = sr->s;
	char sz[32], data[128];
	data_print(&b->data, data, sizeof(data));
	fprintf(f, "iogauge %s: %s", sr->cmd->name, q->shown);
	if (q->refused.status) {
		fprintf(f, ": not measured: %s\n", q->refused.msg);
		return;
	}
	const char *rot = q->facts.rotational < 0 ? "" : q->facts.rotational ? ", rotational" : ", non-rotational";
	if (q->is_dev)
		fprintf(f, " (block device%s%s)", rot, q->layout_ns ? ", region written before the reads, not timed" : "");
	else
		fprintf(f, " (%s on %s%s%s%s)", t->fstype[0] ? t->fstype : q->facts.fstype[0] ? q->facts.fstype : "unknown fs",
			t->device[0] ? t->device : q->facts.device[0] ? q->facts.device : "no block device",
			q->facts.mntopts[0] ? ", " : "", q->facts.mntopts, rot);
	fprintf(f, ", %s %s%s, %s, %s, %s data%s%s, %g s a test after %g s ramp, %u pass%s\n",
		q->is_dev ? "region" : "file", fmt_bytes(sz, sizeof(sz), (double)q->size),
		q->shrunk ? (q->is_dev ? " (the whole device)" : q->is_file ? " (the whole file)" : " (shrunk: short of free space)") : "",
		q->fallback ? "buffered (the file system refuses O_DIRECT): cache invalidated before reads, writes timed to fsync" :
		b->direct   ? "O_DIRECT" : "buffered",
		b->engine->name, data, b->verify ? ", writes verified with " : "",
		b->verify ? verify_names[b->verify] : "", (double)b->runtime_ns / 1e9, (double)b->ramp_ns / 1e9, s->passes,
		sr->suite->pass_done ? (s->passes == 1 ? " at most" : "es at most, each one round") :
		s->passes == 1 ? "" : "es (median, min-max)");
	if (cluster_size() > 1)
		fprintf(f, "%u ranks (mpirun), a %s each: figures are every rank's requests together, "
			   "rates over the slowest rank's time\n",
			cluster_size(), q->is_dev ? "device" : "file");
}

void suite_print_device(FILE *f, const struct suite_run *sr, unsigned ti)
{
	const struct suite_target *q = &sr->targets[ti];
	char a[32], b[32], c[32], e[32];
	if (!q->dev_ok)
		return;
	fprintf(f, "Device %s: read %s for %s requested, wrote %s for %s requested (measured parts)\n",
		q->info.device, fmt_bytes(a, sizeof(a), (double)q->dev[IO_READ]),
		fmt_bytes(b, sizeof(b), (double)q->req[IO_READ]),
		fmt_bytes(c, sizeof(c), (double)q->dev[IO_WRITE]),
		fmt_bytes(e, sizeof(e), (double)q->req[IO_WRITE]));
}

void suite_print_columns(FILE *f, const struct suite_run *sr, const char *title, const char *corner,
			 unsigned nrows, suite_cell_fn label, suite_cell_fn cell)
{
	/* Columns as wide as the paths: long paths must stay tellable apart. */
	int w = 21, lw = (int)strlen(corner);
	char buf[256];
	for (unsigned row = 0; row < nrows; row++) {
		label(sr, 0, row, buf, sizeof(buf));
		lw = (int)strlen(buf) > lw ? (int)strlen(buf) : lw;
	}
	for (unsigned i = 0; i < sr->ntargets; i++)
		if ((int)strlen(sr->targets[i].shown) > w)
			w = (int)strlen(sr->targets[i].shown);
	fprintf(f, "\n%s, median of %u pass%s:\n%-*s", title, sr->s->passes,
		sr->s->passes == 1 ? "" : "es", lw, corner);
	for (unsigned i = 0; i < sr->ntargets; i++)
		fprintf(f, " | %-*s", w, sr->targets[i].shown);
	fprintf(f, "\n");
	for (unsigned row = 0; row < nrows; row++) {
		label(sr, 0, row, buf, sizeof(buf));
		fprintf(f, "%-*s", lw, buf);
		for (unsigned i = 0; i < sr->ntargets; i++) {
			cell(sr, i, row, buf, sizeof(buf));
			fprintf(f, " | %-*s", w, buf);
		}
		fprintf(f, "\n");
	}
}

static json_t *ig_json_fig(const struct fig3 *v)
{
	if (!v->n)
		return json_null(); /* not measured */
	json_t *o = json_object();
	json_object_set_new(o, "median", json_real(v->median));
	json_object_set_new(o, "min", json_real(v->min));
	json_object_set_new(o, "max", json_real(v->max));
	json_object_set_new(o, RK_PASSES, json_integer(v->n));
	return o;
}

static json_t *ig_json_job_figs(const struct suite_run *sr, unsigned ti, unsigned c, unsigned k)
{
	json_t *dirs = json_object();
	for (int d = 0; d < FD_NR; d++) {
		json_t *figs = json_object();
		for (int f = 0; f < FIG_NR; f++) {
			struct fig3 v = suite_fig_job(sr, ti, c, k, d, f);
			json_object_set_new(figs, fig_names[f], ig_json_fig(&v));
		}
		json_object_set_new(dirs, fig_dir_names[d], figs);
	}
	return dirs;
}

static json_t *ig_json_target(const struct suite_run *sr, unsigned ti)
{
	const struct suite_target *q = &sr->targets[ti];
	json_t *o = json_object();
	json_object_set_new(o, RK_PATH, ig_json_text(q->shown));
	json_object_set_new(o, "file", ig_json_text(q->file));
	json_object_set_new(o, RK_BLOCKDEV, json_boolean(q->is_dev));
	json_object_set_new(o, "fstype", ig_json_text(q->info.fstype[0] ? q->info.fstype : q->facts.fstype));
	json_object_set_new(o, "device", ig_json_text(q->info.device[0] ? q->info.device : q->facts.device));
	json_object_set_new(o, "source", ig_json_text(q->facts.source));
	json_object_set_new(o, "mount_options", ig_json_text(q->facts.mntopts));
	json_object_set_new(o, "rotational", q->facts.rotational < 0 ? json_null() : json_boolean(q->facts.rotational));
	json_object_set_new(o, "fs_size", ig_json_u64(q->facts.size));
	json_object_set_new(o, "size", ig_json_u64(q->size));
	json_object_set_new(o, "shrunk", json_boolean(q->shrunk));
	json_object_set_new(o, RK_BUFFERED_FALLBACK, json_boolean(q->fallback));
	json_object_set_new(o, "layout_ns", ig_json_u64(q->layout_ns));
	if (sr->suite->prepare) {
		json_object_set_new(o, "prepare_ns", ig_json_u64(q->prepare_ns));
		json_object_set_new(o, "prepare_bytes", ig_json_u64(q->prepare_bytes));
	}
	json_object_set_new(o, "refused", q->refused.status ? ig_json_text(q->refused.msg) : json_null());
	json_t *cases = json_object();
	for (unsigned c = 0; c < sr->suite->ncases; c++) {
		json_t *dirs = ig_json_job_figs(sr, ti, c, 0);
		/* Several jobs at once: each under its name; the case's own keys are its first job's. */
		if (sr->case_jobs && sr->case_jobs[c] > 1) {
			json_t *jobs = json_object();
			for (unsigned k = 0; k < sr->case_jobs[c]; k++)
				json_object_set_new(jobs, sr->job_names[c][k], ig_json_job_figs(sr, ti, c, k));
			json_object_set_new(dirs, RK_JOBS, jobs);
		}
		json_object_set_new(cases, sr->suite->cases[c].name, dirs);
	}
	json_object_set_new(o, RK_CASES, cases);
	return o;
}

/* The classic tools' options (settings, not job options), as typed: report and compare read them back. */
static json_t *suite_settings_json(const struct suite_run *sr)
{
	json_t *o = json_object();
	OPTIONS_EACH(d) {
		if (d->scope == SCOPE_JOB || !option_owned(d, sr->cmd))
			continue;
		char v[PATH_MAX + 64];
		option_print(d, sr->base, sr->s, v, sizeof(v));
		json_object_set_new(o, d->name, ig_json_text(v));
	}
	return o;
}

/*
 * The options the cases started from: the command's, and any other set away
 * from the table's default or the command's (a suite's start hook: bonnie's
 * invalidate, latency's count), so a reader that applies them to the
 * command's defaults (suite_read.c) and one that compares them with the
 * table's (compare) both get the base back.
 */
static json_t *base_options(const struct suite_run *sr)
{
	struct job *d = xcalloc(1, sizeof(*d));
	struct settings *s = xcalloc(1, sizeof(*s));
	struct ig_err e = { 0 };
	options_defaults(d, s);
	json_t *o = options_json(sr->base, sr->cmd->groups, NULL, args_apply_defaults(sr->cmd, d, s, &e) ? NULL : d);
	free(d);
	free(s);
	return o;
}

json_t *suite_json(const struct suite_run *sr)
{
	json_t *o = json_object();
	json_object_set_new(o, RK_NAME, json_string(sr->cmd->name));
	json_object_set_new(o, RK_PASSES, json_integer(sr->s->passes));
	json_object_set_new(o, RK_OPTIONS, base_options(sr));
	json_object_set_new(o, RK_SETTINGS, suite_settings_json(sr));
	json_t *cases = json_array();
	for (unsigned c = 0; c < sr->suite->ncases; c++) {
		json_t *k = json_object();
		json_object_set_new(k, RK_NAME, json_string(sr->suite->cases[c].name));
		json_object_set_new(k, RK_OPTIONS, json_string(sr->suite->cases[c].opts));
		json_array_append_new(cases, k);
	}
	json_object_set_new(o, RK_CASES, cases);
	json_t *targets = json_array();
	for (unsigned t = 0; t < sr->ntargets; t++)
		json_array_append_new(targets, ig_json_target(sr, t));
	json_object_set_new(o, RK_TARGETS, targets);
	return o;
}
