/*
 * `iogauge history`: the saved results, newest first, filtered by label,
 * host, target, command and date; a table, JSON, CSV, or (openmetrics) the
 * newest figures of every label for a textfile collector.
 */
#include "base/common.h"
#include "cmds/commands.h"
#include "cmds/help.h"
#include "cmds/history.h"
#include "cmds/store_cli.h"
#include "cmds/store_opts.h"
#include "options/args.h"
#include "options/options.h"
#include "report/report.h"
#include "store/store.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* DATE as the store compares it (UTC, 2025-01-31T08:00:00Z); end: a day alone means its end. */
static int utc_of(const char *opt, const char *v, bool end, char *out, size_t len, struct ig_err *e)
{
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	char *rest = NULL;
	size_t n = strlen(v);
	if (n >= 2 && isdigit((unsigned char)v[0]) && strchr("dhm", v[n - 1]) && strspn(v, "0123456789") == n - 1) {
		/* 7d, 12h, 30m: that long before now. */
		long long k = strtoll(v, NULL, 10), mul = v[n - 1] == 'd' ? 86400 : v[n - 1] == 'h' ? 3600 : 60;
		time_t t = time(NULL) - (time_t)(k * mul);
		gmtime_r(&t, &tm);
		strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
		return 0;
	}
	static const char *const forms[] = { "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M",
					     "%Y-%m-%d %H:%M", "%Y-%m-%d", NULL };
	for (unsigned i = 0; forms[i]; i++) {
		memset(&tm, 0, sizeof(tm));
		rest = strptime(v, forms[i], &tm);
		if (rest && (!*rest || !strcmp(rest, "Z"))) {
			time_t t = timegm(&tm);
			if (end && !forms[i + 1])
				t += 86400; /* --until=2025-01-31: all of that day */
			gmtime_r(&t, &tm);
			strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
			return 0;
		}
	}
	return err_set(e, EXIT_USAGE, "--%s=%s: not a date (2025-01-31, 2025-01-31T08:00[:00], or 7d, 12h, 30m ago)",
		       opt, v);
}

struct rows {
	FILE *f;
	int fmt;
	json_t *arr;
	/* normal: every row kept, then printed with the widths they need */
	char **cells;
	unsigned n, cap;
};

enum { C_ID, C_WHEN, C_LABEL, C_HOST, C_CMD, C_STATUS, C_FIGS, C_TARGETS, C_DEVICES, C_NR };
static const char *const heads[C_NR] = { "ID", "Measured (UTC)", "Label", "Host", "Command", "Status", "Figures",
					 "Targets", "Devices" };

static void csv_field(FILE *f, const char *s, bool last)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (const char *p = s; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

static const char *csv_heads[] = { "id", "measured", "saved", "label", "host", "kernel", "command", "status",
				   "figures", "targets", "devices", "fstypes", "version", "format", "source",
				   "doc_bytes", "stored_bytes", "command_line", NULL };

static int row(void *arg, const struct store_entry *en)
{
	struct rows *r = arg;
	char id[32], status[32], figs[32], db[32], sb[32];
	snprintf(id, sizeof(id), "%lld", en->id);
	snprintf(status, sizeof(status), "%lld", en->status);
	snprintf(figs, sizeof(figs), "%lld", en->nfigs);
	snprintf(db, sizeof(db), "%lld", en->doc_bytes);
	snprintf(sb, sizeof(sb), "%lld", en->stored_bytes);
	if (r->fmt == OUT_JSON) {
		json_t *o = json_object();
		json_object_set_new(o, "id", json_integer(en->id));
		json_object_set_new(o, "measured", ig_json_text(en->measured));
		json_object_set_new(o, "saved", ig_json_text(en->saved));
		json_object_set_new(o, "label", en->label ? ig_json_text(en->label) : json_null());
		json_object_set_new(o, "host", ig_json_text(en->host));
		json_object_set_new(o, "kernel", ig_json_text(en->kernel));
		json_object_set_new(o, "command", ig_json_text(en->command));
		json_object_set_new(o, "command_line", ig_json_text(en->command_line));
		json_object_set_new(o, "version", ig_json_text(en->version));
		json_object_set_new(o, "status", json_integer(en->status));
		json_object_set_new(o, "format", ig_json_text(en->format));
		json_object_set_new(o, "source", en->source ? ig_json_text(en->source) : json_null());
		json_object_set_new(o, "targets", ig_json_text(en->targets));
		json_object_set_new(o, "devices", ig_json_text(en->devices));
		json_object_set_new(o, "fstypes", ig_json_text(en->fstypes));
		json_object_set_new(o, "figures", json_integer(en->nfigs));
		json_object_set_new(o, "doc_bytes", json_integer(en->doc_bytes));
		json_object_set_new(o, "stored_bytes", json_integer(en->stored_bytes));
		json_array_append_new(r->arr, o);
		return 0;
	}
	if (r->fmt == OUT_CSV) {
		const char *v[] = { id, en->measured, en->saved, en->label ? en->label : "", en->host, en->kernel,
				    en->command, status, figs, en->targets, en->devices, en->fstypes, en->version,
				    en->format, en->source ? en->source : "", db, sb, en->command_line };
		for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			csv_field(r->f, v[i], i + 1 == sizeof(v) / sizeof(v[0]));
		return 0;
	}
	if (r->n + C_NR > r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16 * C_NR;
		r->cells = realloc(r->cells, r->cap * sizeof(char *));
		if (!r->cells)
			return -1;
	}
	char when[32];
	snprintf(when, sizeof(when), "%.19s", en->measured);
	if (strlen(when) > 10 && when[10] == 'T')
		when[10] = ' ';
	const char *v[C_NR] = { id, when, en->label ? en->label : "-", en->host, en->command, status, figs,
				*en->targets ? en->targets : "-", *en->devices ? en->devices : "-" };
	for (unsigned i = 0; i < C_NR; i++)
		r->cells[r->n++] = xstrdup(v[i]);
	return 0;
}

static void print_table(FILE *f, const struct rows *r)
{
	int w[C_NR];
	for (unsigned c = 0; c < C_NR; c++)
		w[c] = (int)strlen(heads[c]);
	for (unsigned i = 0; i < r->n; i++) {
		int n = (int)strlen(r->cells[i]);
		w[i % C_NR] = n > w[i % C_NR] ? n : w[i % C_NR];
	}
	for (unsigned c = 0; c < C_NR; c++)
		fprintf(f, c == C_ID || c == C_STATUS || c == C_FIGS ? "%*s%s" : "%-*s%s", c + 1 == C_NR ? 0 : w[c],
			heads[c], c + 1 == C_NR ? "\n" : "  ");
	for (unsigned i = 0; i < r->n; i++) {
		unsigned c = i % C_NR;
		fprintf(f, c == C_ID || c == C_STATUS || c == C_FIGS ? "%*s%s" : "%-*s%s", c + 1 == C_NR ? 0 : w[c],
			r->cells[i], c + 1 == C_NR ? "\n" : "  ");
	}
}

static int cmd_history_main(const struct command *cmd, int argc, char **argv)
{
	struct parsed_args pa;
	struct ig_err e = { 0 };
	struct store *st = NULL;
	struct outputs out;
	bool opened = false;
	struct rows r = { 0 };
	int rc = args_parse(argc, argv, cmd, &pa, &e);
	if (!rc && pa.help) {
		options_help(stdout, cmd);
		args_free(&pa);
		return 0;
	}
	const struct store_opts *o = store_opts_c(&pa.settings);
	char since[32] = "", until[32] = "";
	if (!rc)
		rc = command_check_format(cmd, &pa.settings, &e);
	if (!rc && pa.nwords)
		rc = err_set(&e, EXIT_USAGE, "history takes no words (%s): filter with --label, --host, --target, --command, --since, --until",
			     pa.words[0]);
	if (!rc && *o->since)
		rc = utc_of("since", o->since, false, since, sizeof(since), &e);
	if (!rc && *o->until)
		rc = utc_of("until", o->until, true, until, sizeof(until), &e);
	if (!rc && !(st = cli_store_open(&pa.settings, &e)))
		rc = -1;
	if (!rc && !(rc = outputs_open(&out, &pa.settings, command_saved_summary, &e)))
		opened = true;
	r.f = out.out;
	r.fmt = pa.settings.output_format;
	if (!rc && r.fmt == OUT_OPENMETRICS) {
		rc = history_openmetrics(out.out, st, o, &e);
	} else if (!rc) {
		struct store_filter f = { o->label, o->host, o->target, o->command, since, until, o->limit, 0 };
		r.arr = json_array();
		if (r.fmt == OUT_CSV)
			for (unsigned i = 0; csv_heads[i]; i++)
				csv_field(r.f, csv_heads[i], !csv_heads[i + 1]);
		rc = store_list(st, &f, row, &r, &e);
		if (!rc && r.fmt == OUT_JSON) {
			json_dumpf(r.arr, r.f, JSON_INDENT(2));
			fputc('\n', r.f);
		} else if (!rc && r.fmt == OUT_NORMAL) {
			print_table(r.f, &r);
		}
		json_decref(r.arr);
	}
	if (rc)
		msg_err("%s", e.msg);
	int status = rc ? e.status : 0;
	if (opened)
		status = outputs_finish(&out, &pa.settings, NULL, status);
	for (unsigned i = 0; i < r.n; i++)
		free(r.cells[i]);
	free(r.cells);
	store_close(st);
	args_free(&pa);
	return status;
}

const struct command cmd_history = {
	.name = "history",
	.usage = "iogauge history [--label=L] [--host=H] [--target=PATH] [--command=C] [--since=DATE] [--until=DATE] [--output-format=normal|json|csv|openmetrics]",
	.summary = "The saved results (--save), newest first",
	.description =
		"Lists the results in the store (--db, $IOGAUGE_DB, or ~/.local/share/iogauge/results.db), "
		"newest first: ID, when it was measured (UTC), label, host, command, exit status, how many "
		"figures it holds, its targets and their devices (model and firmware where sysfs has them). "
		"Each filter given must hold. --output-format=json or csv writes every column (kernel, "
		"version, command line, bytes stored ...); openmetrics writes the newest figures of every "
		"label as OpenMetrics text (a metric family per figure, labels host, target, label and job) "
		"for node_exporter's textfile collector. A result is shown again with `iogauge show ID`.",
	.groups = OG_OUTPUT | OG_FORMAT | OG_STORE,
	.formats = 1u << OUT_NORMAL | 1u << OUT_JSON | 1u << OUT_CSV | 1u << OUT_OPENMETRICS,
	.main = cmd_history_main,
};
