/*
 * `iogauge compare A.json B.json [...]`: saved results of one command, side
 * by side, tests matched by name, the change against the first in percent,
 * and a change inside the run-to-run spread (the ranges of --passes)
 * marked as not significant.  Results of different commands or settings are
 * refused.  Reading the files is the reader's job (report/result_read.h,
 * through saved.c); this gets typed data.
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "cmds/commands.h"
#include "cmds/suite_read.h"
#include "cmds/store_cli.h"
#include "options/options.h"
#include "options/args.h"
#include "cmds/help.h"
#include "report/report.h"
#include "report/result_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct column {
	const struct saved_result *r;
	const char *target;
	char label[2 * PATH_MAX + 8];
};

struct table {
	struct saved_result *res;
	unsigned nres;
	struct column *cols;
	unsigned ncols;
	const struct saved_entry **rows; /* the first entry seen for each row name */
	unsigned nrows;
};

static const struct saved_entry *find(const struct column *c, const char *row)
{
	for (unsigned i = 0; i < c->r->n; i++)
		if (!strcmp(c->r->e[i].column, c->target) && !strcmp(c->r->e[i].row, row))
			return &c->r->e[i];
	return NULL;
}

/* Columns (a file, or a file's target) and rows (test names) in the order they first appear. */
static void build(struct table *t)
{
	unsigned cap = 0;
	for (unsigned f = 0; f < t->nres; f++)
		cap += t->res[f].n;
	t->cols = xcalloc(cap, sizeof(*t->cols));
	t->rows = xcalloc(cap, sizeof(*t->rows));
	for (unsigned f = 0; f < t->nres; f++) {
		const struct saved_result *r = &t->res[f];
		for (unsigned i = 0; i < r->n; i++) {
			const struct saved_entry *e = &r->e[i];
			unsigned c = 0;
			while (c < t->ncols && !(t->cols[c].r == r && !strcmp(t->cols[c].target, e->column)))
				c++;
			if (c == t->ncols) {
				struct column *col = &t->cols[t->ncols++];
				col->r = r;
				col->target = e->column;
				snprintf(col->label, sizeof(col->label), "%s%s%s", r->path, e->column[0] ? " " : "",
					 e->column);
			}
			unsigned k = 0;
			while (k < t->nrows && strcmp(t->rows[k]->row, e->row))
				k++;
			if (k == t->nrows)
				t->rows[t->nrows++] = e;
		}
	}
}

/* -1: not significant (the passes' ranges overlap), 1: beyond them, 0: no spread recorded. */
static int significance(const struct saved_entry *a, const struct saved_entry *b)
{
	if (!a->passes || !b->passes)
		return 0;
	return b->min > a->max || b->max < a->min ? 1 : -1;
}

static double change_pct(const struct saved_entry *a, const struct saved_entry *b)
{
	return a->median ? 100.0 * (b->median - a->median) / a->median : NAN;
}

static void print_table(FILE *f, const struct table *t)
{
	int lw = 4, cw = 24; /* "1234567.89 +123.4% ~" fits */
	for (unsigned k = 0; k < t->nrows; k++) {
		int n = (int)strlen(t->rows[k]->row);
		lw = n > lw ? n : lw;
	}
	for (unsigned c = 0; c < t->ncols; c++)
		cw = (int)strlen(t->cols[c].label) > cw ? (int)strlen(t->cols[c].label) : cw;
	bool mixed = false;
	for (unsigned i = 1; i < t->nres; i++)
		mixed |= strcmp(t->res[i].command, t->res[0].command) != 0;
	fprintf(f, "iogauge compare: %u results of `%s`; changes against %s\n", t->nres,
		mixed ? "fio` and `run" : t->res[0].command, t->cols[0].label);
	fprintf(f, "~ within the run-to-run spread (the passes' ranges overlap): not significant; "
		   "? no spread recorded (fewer than 2 --passes)\n");
	for (unsigned i = 0; i < t->nres; i++)
		if (*t->res[i].imported)
			fprintf(f, "%s: %s's JSON, imported: fio's own figures of one run (no spread); no latency "
				   "histogram carried; settings compared: the options fio's JSON echoes\n",
				t->res[i].path, t->res[i].imported);
	fprintf(f, "%-*s", lw, "Test");
	for (unsigned c = 0; c < t->ncols; c++)
		fprintf(f, " | %-*s", cw, t->cols[c].label);
	fprintf(f, "\n");
	for (unsigned k = 0; k < t->nrows; k++) {
		fprintf(f, "%-*s", lw, t->rows[k]->row);
		const struct saved_entry *base = find(&t->cols[0], t->rows[k]->row);
		for (unsigned c = 0; c < t->ncols; c++) {
			const struct saved_entry *e = find(&t->cols[c], t->rows[k]->row);
			char cell[128] = "-";
			if (e) {
				int n = snprintf(cell, sizeof(cell), "%.*f", e->prec, e->median);
				if (c && base) {
					double d = change_pct(base, e);
					int s = significance(base, e);
					if (isnan(d))
						snprintf(cell + n, sizeof(cell) - (size_t)n, " (n/a)");
					else
						snprintf(cell + n, sizeof(cell) - (size_t)n, " %+.1f%%%s", d,
							 s < 0 ? " ~" : s == 0 ? " ?" : "");
				}
			}
			fprintf(f, " | %-*s", cw, cell);
		}
		fprintf(f, "\n");
	}
}

/* The HTML report: the table again from the saved `compare` object, as print_table lays it out. */
static void compare_print_saved(FILE *f, const json_t *root)
{
	struct result_compare t;
	result_compare(result_own(root, RK_COMPARE), &t);
	unsigned nc = t.ncols;
	char (*label)[2 * PATH_MAX + 8] = xcalloc(nc ? nc : 1, sizeof(*label));
	int lw = 4, cw = 24;
	for (unsigned i = 0; i < nc; i++) {
		const char *tg = t.target[i];
		snprintf(label[i], sizeof(label[i]), "%s%s%s", t.file[i] ?: "", tg && *tg ? " " : "", tg ? tg : "");
		cw = (int)strlen(label[i]) > cw ? (int)strlen(label[i]) : cw;
	}
	for (unsigned i = 0; i < t.nrows; i++) {
		int n = (int)strlen(t.rows[i].test);
		lw = n > lw ? n : lw;
	}
	fprintf(f, "iogauge compare: %u results of `%s`; changes against %s\n", t.nfiles, t.command ?: "?",
		nc ? label[0] : "-");
	fprintf(f, "~ within the run-to-run spread (the passes' ranges overlap): not significant; "
		   "? no spread recorded (fewer than 2 --passes)\n");
	fprintf(f, "%-*s", lw, "Test");
	for (unsigned c = 0; c < nc; c++)
		fprintf(f, " | %-*s", cw, label[c]);
	fprintf(f, "\n");
	for (unsigned i = 0; i < t.nrows; i++) {
		const struct result_cmp_row *x = &t.rows[i];
		int prec = !strcmp(x->unit, "MB/s") ? 2 : !strcmp(x->unit, "IOPS") ? 0 : 1; /* saved.c's metrics */
		fprintf(f, "%-*s", lw, x->test);
		for (unsigned c = 0; c < nc; c++) {
			char cell[128] = "-";
			if (!isnan(x->values[c])) {
				int n = snprintf(cell, sizeof(cell), "%.*f", prec, x->values[c]);
				if (c && !isnan(x->change_pct[c]))
					snprintf(cell + n, sizeof(cell) - (size_t)n, " %+.1f%%%s", x->change_pct[c],
						 x->mark[c] == '~' ? " ~" : x->mark[c] == '?' ? " ?" : "");
				else if (c && !isnan(x->values[0]))
					snprintf(cell + n, sizeof(cell) - (size_t)n, " (n/a)");
			}
			fprintf(f, " | %-*s", cw, cell);
		}
		fprintf(f, "\n");
	}
	free(label);
	result_compare_free(&t);
}

static json_t *ig_json_table(const struct table *t)
{
	json_t *o = json_object(), *files = json_array(), *cols = json_array(), *rows = json_array();
	for (unsigned i = 0; i < t->nres; i++)
		json_array_append_new(files, ig_json_text(t->res[i].path));
	for (unsigned c = 0; c < t->ncols; c++) {
		json_t *col = json_object();
		json_object_set_new(col, RK_FILE, ig_json_text(t->cols[c].r->path));
		json_object_set_new(col, RK_TARGET, ig_json_text(t->cols[c].target));
		json_array_append_new(cols, col);
	}
	for (unsigned k = 0; k < t->nrows; k++) {
		json_t *row = json_object(), *vals = json_array(), *chg = json_array(), *sig = json_array();
		const struct saved_entry *base = find(&t->cols[0], t->rows[k]->row);
		for (unsigned c = 0; c < t->ncols; c++) {
			const struct saved_entry *e = find(&t->cols[c], t->rows[k]->row);
			json_array_append_new(vals, e ? json_real(e->median) : json_null());
			double d = e && base && c ? change_pct(base, e) : NAN;
			json_array_append_new(chg, isnan(d) ? json_null() : json_real(d));
			int s = e && base && c ? significance(base, e) : 0;
			json_array_append_new(sig, s ? json_boolean(s > 0) : json_null());
		}
		json_object_set_new(row, RK_TEST, ig_json_text(t->rows[k]->row));
		json_object_set_new(row, RK_UNIT, json_string(t->rows[k]->unit));
		json_object_set_new(row, "lower_is_better", json_boolean(t->rows[k]->lower_better));
		json_object_set_new(row, RK_VALUES, vals);
		json_object_set_new(row, RK_CHANGE_PCT, chg);
		json_object_set_new(row, RK_SIGNIFICANT, sig);
		json_array_append_new(rows, row);
	}
	json_object_set_new(o, RK_COMMAND, json_string(t->res[0].command));
	json_object_set_new(o, RK_FILES, files);
	json_object_set_new(o, RK_COLUMNS, cols);
	json_object_set_new(o, RK_ROWS, rows);
	return o;
}

/* All results read (files or store references), of one command and one set of settings: 0, or -1 with e set. */
static int load_all(struct table *t, char **words, unsigned n, const struct settings *s, struct ig_err *e)
{
	struct store *st = NULL;
	int rc = 0;
	t->res = xcalloc(n, sizeof(*t->res));
	for (unsigned i = 0; !rc && i < n; i++) {
		/* A suite's cases not its own table (a hand-edited file): refused as report refuses it. */
		struct ig_err le = { 0 };
		char name[PATH_MAX];
		json_t *root = cli_result_load(words[i], s, &st, name, sizeof(name), &le);
		if (!root || suite_saved_check(name, root, &le)) {
			json_decref(root);
			rc = err_set(e, le.status, "compare: %s", le.msg);
			break;
		}
		rc = saved_from_root(root, name, false, &t->res[i], e);
		json_decref(root);
		if (rc)
			break;
		t->nres++;
		const struct saved_result *a = &t->res[0], *b = &t->res[i];
		char why[512];
		if (!saved_same_kind(a->command, b->command))
			rc = err_set(e, EXIT_USAGE,
				     "compare: %s is a result of `%s`, %s of `%s`: results of different commands are not compared",
				     a->path, a->command, b->path, b->command);
		else if (saved_same_settings(a, b, why, sizeof(why)))
			rc = err_set(e, EXIT_USAGE, "compare: %s and %s were run with different settings (%s): not compared",
				     a->path, b->path, why);
	}
	store_close(st);
	return rc;
}

static int cmd_compare_main(const struct command *cmd, int argc, char **argv)
{
	struct parsed_args pa;
	struct ig_err e = { 0 };
	struct outputs out;
	struct table t;
	memset(&t, 0, sizeof(t));
	int rc = args_parse(argc, argv, cmd, &pa, &e);
	if (!rc && pa.help) {
		options_help(stdout, cmd);
		args_free(&pa);
		return 0;
	}
	if (!rc)
		rc = command_check_format(cmd, &pa.settings, &e);
	if (!rc && pa.nwords < 2)
		rc = err_set(&e, EXIT_USAGE, "compare needs two or more saved results (iogauge compare A.json B.json ...)");
	if (!rc)
		rc = load_all(&t, pa.words, pa.nwords, &pa.settings, &e);
	if (!rc)
		rc = outputs_open(&out, &pa.settings, command_saved_summary, &e);
	if (rc) {
		msg_err("%s", e.msg);
	} else {
		build(&t);
		if (pa.settings.output_format == OUT_NORMAL)
			print_table(out.out, &t);
		json_t *root = NULL;
		if (outputs_want_root(&out, &pa.settings)) {
			root = ig_json_root(cmd->name, 0, false, NULL);
			json_object_set_new(root, RK_COMPARE, ig_json_table(&t));
		}
		rc = outputs_finish(&out, &pa.settings, root, 0);
		json_decref(root);
	}
	for (unsigned i = 0; i < t.nres; i++)
		saved_free(&t.res[i]);
	free(t.res);
	free(t.cols);
	free(t.rows);
	args_free(&pa);
	return rc ? (e.status ? e.status : rc) : 0;
}

const struct command cmd_compare = {
	.name = "compare",
	.usage = "iogauge compare [OPTIONS] A.json|REF B.json|REF [C.json|REF...]",
	.summary = "Saved results side by side, with the change and whether it is beyond the run-to-run spread",
	.description =
		"Reads results saved with --json FILE (or --output-format=json) by any one command, matches "
		"the tests by name and prints them side by side: a column per file (per target for suites "
		"with several), the change against the first column in percent, marked ~ when it lies within "
		"the run-to-run spread the files record (the min-max ranges of --passes overlap) and ? when a "
		"file has no spread (fewer than 2 passes). Results of different commands, or run with "
		"different settings (options other than the target's path), are refused. A word that names no "
		"file is a result in the store (--db): its ID, LABEL (the newest under it), LABEL~N (the N-th "
		"before that), @last or @last~N (compare @last~1 @last: the last two runs). fio's JSON (a "
		"file, or a result imported from one) is compared with fio's and run's results: its jobs' "
		"figures as fio measured them, its settings the options fio's JSON echoes, as run reads them "
		"(only those are compared); a line says so for each.",
	.groups = OG_OUTPUT | OG_HTML | OG_FORMAT | OG_JSON | OG_STORE,
	.main = cmd_compare_main,
	.print_saved = compare_print_saved,
};
