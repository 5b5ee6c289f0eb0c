/*
 * `iogauge show REF`: a saved result printed again as it printed when it
 * was measured: its text rebuilt from the document by the same code that
 * prints it (report_saved_text: the command's own lines and a suite's
 * table, else fio's text), or the text the store kept where the document
 * cannot rebuild it; an imported fio file as it was, an imported bonnie++
 * line as bonnie++'s table (suites/bonnie.h) and the line.
 * --output-format=json: the document, as --json wrote it.
 */
#include "base/common.h"
#include "cmds/commands.h"
#include "cmds/help.h"
#include "cmds/store_cli.h"
#include "options/args.h"
#include "options/options.h"
#include "report/report.h"
#include "report/result_read.h"
#include "store/store.h"
#include "suites/bonnie.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int print_doc(FILE *f, const struct store_doc *d, bool json, struct ig_err *e)
{
	if (!strcmp(d->format, "bonnie-csv") && !json)
		return bonnie_csv_table(f, d->doc, e); /* what bonnie++ printed: its table, then the line */
	if (strcmp(d->format, "iogauge")) {
		/* An import: the file as it was (fio's JSON, bonnie++'s CSV line) is what that tool wrote. */
		fwrite(d->doc, 1, d->doc_len, f);
		return 0;
	}
	char what[64];
	snprintf(what, sizeof(what), "result %lld", d->id);
	json_t *root = result_parse(d->doc, d->doc_len, what, e);
	if (!root)
		return -1;
	int rc = 0;
	if (json || !strcmp(d->output_format, "json")) {
		/* As --json writes it. */
		json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', f);
	} else if (d->text) {
		fwrite(d->text, 1, d->text_len, f);
	} else {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (!m) {
			rc = err_set(e, EXIT_IOERR, "out of memory");
		} else {
			rc = report_saved_text(m, root, command_saved_summary, e);
			fclose(m);
			if (!rc)
				fwrite(buf, 1, len, f);
			free(buf);
		}
	}
	json_decref(root);
	return rc;
}

static int cmd_show_main(const struct command *cmd, int argc, char **argv)
{
	struct parsed_args pa;
	struct ig_err e = { 0 };
	struct store *st = NULL;
	struct outputs out;
	bool opened = false;
	int rc = args_parse(argc, argv, cmd, &pa, &e);
	if (!rc && pa.help) {
		options_help(stdout, cmd);
		args_free(&pa);
		return 0;
	}
	if (!rc)
		rc = command_check_format(cmd, &pa.settings, &e);
	if (!rc && !pa.nwords)
		rc = err_set(&e, EXIT_USAGE, "name a saved result: iogauge show ID|LABEL|@last|@last~N");
	if (!rc && !(st = cli_store_open(&pa.settings, &e)))
		rc = -1;
	if (!rc && !(rc = outputs_open(&out, &pa.settings, command_saved_summary, &e)))
		opened = true;
	for (unsigned i = 0; !rc && i < pa.nwords; i++) {
		long long id;
		struct store_doc d;
		if (store_resolve(st, pa.words[i], &id, &e) || store_get(st, id, &d, &e)) {
			rc = -1;
			break;
		}
		rc = print_doc(out.out, &d, pa.settings.output_format == OUT_JSON, &e);
		store_doc_free(&d);
	}
	if (rc)
		msg_err("%s", e.msg);
	int status = rc ? e.status : 0;
	if (opened)
		status = outputs_finish(&out, &pa.settings, NULL, status);
	store_close(st);
	args_free(&pa);
	return status;
}

const struct command cmd_show = {
	.name = "show",
	.usage = "iogauge show [--output-format=normal|json] ID|LABEL|LABEL~N|@last|@last~N...",
	.summary = "A saved result printed again, as it printed when measured",
	.description =
		"Prints a result from the store as its command printed it: the same text, rebuilt from "
		"the saved JSON by the code that printed it (or, where that cannot be rebuilt, such as "
		"latency's line per request or another --output-format, the text the store kept); an "
		"imported fio file as it was, an imported bonnie++ line as bonnie++'s table and the line. "
		"--output-format=json prints the JSON document as --json wrote it. A result is named by its ID (iogauge history), by its label (the newest under it), "
		"LABEL~N (the N-th before that), @last (the newest of all) or @last~N.",
	.groups = OG_OUTPUT | OG_FORMAT | OG_STORE,
	.main = cmd_show_main,
};
