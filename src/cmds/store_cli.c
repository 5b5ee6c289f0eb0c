/*
 * The store of the command line, and results named by file or by reference
 * (store_cli.h).  fio's JSON, a file of fio's or a result imported from one,
 * is read as an iogauge result of fio's figures (report/result_fio.c), with
 * its settings as `iogauge run` reads fio's options.
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "base/userfile.h"
#include "cmds/commands.h"
#include "cmds/store_cli.h"
#include "report/result_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A results file larger than this is no result (a device, a log). */
#define RESULT_FILE_MAX (256u << 20)

struct store *cli_store_open(const struct settings *s, struct ig_err *e)
{
	char where[PATH_MAX];
	store_where(s->db, where, sizeof(where));
	return store_open(where, e);
}

/* fio's own JSON (not iogauge's fio-json) in buf: iogauge's reading of it, or NULL (e set when it is fio's but bad). */
static json_t *from_fio(const char *buf, size_t len, const char *name, bool *was, struct ig_err *e)
{
	const char *p = result_fio_start(buf);
	*was = false;
	if (!p)
		return NULL;
	json_error_t je;
	json_t *fio = json_loadb(p, len - (size_t)(p - buf), JSON_REJECT_DUPLICATES, &je);
	const char *ver = json_string_value(json_object_get(fio, RK_FIO_VERSION));
	json_t *root = NULL;
	if (ver && strncmp(ver, "iogauge", 7) && !json_object_get(fio, RK_IOGAUGE)) {
		*was = true;
		root = result_from_fio(fio, name, &cmd_run, e);
	}
	json_decref(fio);
	return root;
}

/* A file's words: fio's JSON read as a result, else result_load's reading (and its refusals). */
static json_t *load_file(const char *path, struct ig_err *e)
{
	FILE *f = infile_open("result", path, e);
	if (!f)
		return NULL;
	struct stat st;
	char *buf = NULL;
	size_t n = 0;
	if (!fstat(fileno(f), &st) && st.st_size <= (off_t)RESULT_FILE_MAX) {
		buf = xcalloc(1, (size_t)st.st_size + 1);
		n = fread(buf, 1, (size_t)st.st_size, f);
	}
	fclose(f);
	bool fio = false;
	json_t *root = buf ? from_fio(buf, n, path, &fio, e) : NULL;
	free(buf);
	return fio ? root : result_load(path, e);
}

json_t *cli_result_load(const char *word, const struct settings *s, struct store **st, char *name, size_t len,
			struct ig_err *e)
{
	struct stat sb;
	/* A path (a slash, .json) or a file that exists is a file; a reference needs no file of its name. */
	size_t n = strlen(word);
	bool pathy = strchr(word, '/') || (n > 5 && !strcmp(word + n - 5, ".json"));
	if (pathy || !stat(word, &sb) || !store_ref_like(word)) {
		snprintf(name, len, "%s", word);
		return load_file(word, e);
	}
	if (!*st && !(*st = cli_store_open(s, e)))
		return NULL;
	long long id;
	struct store_doc d;
	if (store_resolve(*st, word, &id, e) || store_get(*st, id, &d, e))
		return NULL;
	json_t *root = NULL;
	char what[160];
	snprintf(what, sizeof(what), "%s (result %lld)", word, id);
	if (!strcmp(d.format, "fio-json")) {
		bool fio;
		root = from_fio(d.doc, d.doc_len, d.source ? d.source : what, &fio, e);
		if (!fio && !root)
			err_set(e, EXIT_USAGE, "%s: its document is not fio's JSON", what);
	} else if (strcmp(d.format, "iogauge")) {
		err_set(e, EXIT_USAGE,
			"%s: result %lld is an imported %s file: `show` prints it; compare and report read iogauge's results "
			"and fio's JSON (history, check and report --trend read its figures)",
			word, id, d.format);
	} else {
		root = result_parse(d.doc, d.doc_len, what, e);
	}
	if (d.label && strcmp(d.label, word))
		snprintf(name, len, "%s (#%lld %s)", word, id, d.label);
	else
		snprintf(name, len, "%s (#%lld)", word, id);
	store_doc_free(&d);
	return root;
}
