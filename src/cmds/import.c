/*
 * `iogauge import FILE...`: an archive of results into the store: fio
 * 3.x's JSON (json, json+), iogauge's saved JSON, bonnie++'s CSV.  Each
 * file is one transaction (a bonnie++ file's lines: one each); a bad or
 * foreign file gets one line on stderr and the rest are imported.
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "base/userfile.h"
#include "cmds/commands.h"
#include "cmds/help.h"
#include "cmds/store_cli.h"
#include "cmds/store_opts.h"
#include "options/args.h"
#include "options/options.h"
#include "report/result_read.h"
#include "store/store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* A result file larger than this is no result (a device, a log): refused before it is read whole. */
#define IMPORT_MAX (256u << 20)

static char *slurp(const char *path, size_t *len, time_t *mtime, struct ig_err *e)
{
	FILE *f = infile_open("import", path, e);
	if (!f)
		return NULL;
	struct stat st;
	if (fstat(fileno(f), &st) || st.st_size > (off_t)IMPORT_MAX) {
		fclose(f);
		err_set(e, EXIT_USAGE, "%s: larger than %u MiB: not a result", path, IMPORT_MAX >> 20);
		return NULL;
	}
	*mtime = st.st_mtime;
	char *buf = xcalloc(1, (size_t)st.st_size + 1);
	*len = fread(buf, 1, (size_t)st.st_size, f);
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		err_set(e, EXIT_IOERR, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf[*len] = 0;
	return buf;
}

static int save(struct store *st, struct store_record *rec, const char *label, const char *path, struct ig_err *e)
{
	long long id;
	rec->label = label && *label ? xstrdup(label) : NULL;
	int rc = store_save(st, rec, &id, e);
	if (!rc)
		printf("%s: imported as result %lld (%s, %u figures)\n", path, id, rec->format, rec->nfigs);
	store_record_free(rec);
	return rc;
}

/*
 * fio's JSON as a record: iogauge's reading of it (report/result_fio.c, the
 * one compare and report use) gives the figures, the file as it was is the
 * document.  0, or 2 (said on stderr).
 */
static int fio_record(const json_t *fio, char *buf, size_t len, const char *path, time_t mtime,
		      struct store_record *rec)
{
	struct ig_err le = { 0 };
	json_t *ig = result_from_fio(fio, path, &cmd_run, &le);
	if (ig && !json_object_get(ig, RK_TIME)) {
		char t[32];
		struct tm tm;
		gmtime_r(&mtime, &tm);
		strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%SZ", &tm);
		json_object_set_new(ig, RK_TIME, json_string(t)); /* fio before 3.x wrote no timestamp: the file's time */
	}
	int rc = !ig || store_record_of_root(ig, false, rec, &le);
	json_decref(ig);
	if (rc) {
		msg_err("%s", le.msg);
		return 2;
	}
	free(rec->doc);
	rec->doc = buf; /* the file as it was, fio's notes before its JSON too */
	rec->doc_len = len;
	free(rec->format);
	rec->format = xstrdup("fio-json");
	free(rec->output_format);
	rec->output_format = xstrdup("fio-json");
	rec->source = xstrdup(path);
	return 0;
}

/* 0 imported, 2 not a result this reads (said on stderr), -1 a store error (e). */
static int import_one(struct store *st, const char *path, const char *label, struct ig_err *e)
{
	struct ig_err le = { 0 };
	size_t len;
	time_t mtime;
	char *buf = slurp(path, &len, &mtime, &le);
	if (!buf) {
		msg_err("%s", le.msg);
		return 2;
	}
	const char *p = buf + strspn(buf, " \t\r\n"), *js = result_fio_start(buf);
	int rc = 0;
	struct store_record rec;
	if (js) {
		json_error_t je;
		json_t *root = json_loadb(js, len - (size_t)(js - buf), JSON_REJECT_DUPLICATES, &je);
		if (!root) {
			msg_err("%s: not JSON: %s (line %d)", path, je.text, je.line);
			rc = 2;
		} else if (json_object_get(root, RK_FIO_VERSION) && !json_object_get(root, RK_IOGAUGE)) {
			if (!(rc = fio_record(root, buf, len, path, mtime, &rec))) {
				buf = NULL;
				rc = save(st, &rec, label, path, e);
			}
		} else if (result_check(root, path, &le) || store_record_of_root(root, false, &rec, &le)) {
			msg_err("%s", le.msg);
			rc = 2;
		} else {
			free(rec.source);
			rec.source = xstrdup(path);
			rc = save(st, &rec, label, path, e);
		}
		json_decref(root);
	} else if (!strncmp(p, "1.97,", 5) || !strncmp(p, "1.98,", 5)) {
		/* bonnie++'s CSV: a result per line. */
		for (char *line = (char *)p; !rc && line && *line;) {
			char *nl = strchr(line, '\n');
			if (nl)
				*nl = 0;
			if (line[strspn(line, " \t\r")]) {
				if (store_record_of_bonnie(line, path, mtime, &rec, &le)) {
					msg_err("%s", le.msg);
					rc = 2;
				} else {
					rc = save(st, &rec, label, path, e);
				}
			}
			line = nl ? nl + 1 : NULL;
		}
	} else {
		msg_err("%s: not fio's JSON output, an iogauge result or bonnie++'s CSV: not imported", path);
		rc = 2;
	}
	free(buf);
	return rc;
}

static int cmd_import_main(const struct command *cmd, int argc, char **argv)
{
	struct parsed_args pa;
	struct ig_err e = { 0 };
	struct store *st = NULL;
	int rc = args_parse(argc, argv, cmd, &pa, &e);
	if (!rc && pa.help) {
		options_help(stdout, cmd);
		args_free(&pa);
		return 0;
	}
	const char *label = store_opts_c(&pa.settings)->label;
	if (!rc && *label && !store_label_ok(label))
		rc = err_set(&e, EXIT_USAGE, "--label=%s: a label is " STORE_LABEL_RULE, label);
	if (!rc && !pa.nwords)
		rc = err_set(&e, EXIT_USAGE, "name the files to import: iogauge import FILE...");
	if (!rc && !(st = cli_store_open(&pa.settings, &e)))
		rc = -1;
	int status = 0;
	for (unsigned i = 0; !rc && i < pa.nwords; i++) {
		int r = import_one(st, pa.words[i], label, &e);
		if (r == 2)
			status = EXIT_USAGE; /* said; the rest go on */
		else if (r)
			rc = -1;
	}
	if (rc) {
		msg_err("%s", e.msg);
		status = e.status;
	}
	store_close(st);
	args_free(&pa);
	return status;
}

const struct command cmd_import = {
	.name = "import",
	.usage = "iogauge import [--label=LABEL] FILE...",
	.summary = "Results of fio (JSON), iogauge (JSON) and bonnie++ (CSV) into the store",
	.description =
		"Stores each file's results (a transaction each) so an archive becomes history: fio 3.x's "
		"--output-format=json or json+ (every job's bandwidth, IOPS and completion latency per "
		"direction; when: its timestamp), iogauge's own saved JSON, and bonnie++'s CSV lines "
		"(formats 1.97 and 1.98, a result per line; when: the file's time). The document is kept as "
		"it was: `iogauge show` prints it. A file that is none of these, or bad, gets one line on "
		"stderr and the rest are imported; exit status 2 then.",
	.groups = OG_STORE,
	.main = cmd_import_main,
};
