/* The store of the command line, and results named by file or by reference (store_cli.h). */
#include "base/common.h"
#include "cmds/store_cli.h"
#include "report/result_read.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

struct store *cli_store_open(const struct settings *s, struct ig_err *e)
{
	char where[PATH_MAX];
	store_where(s->db, where, sizeof(where));
	return store_open(where, e);
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
		return result_load(word, e);
	}
	if (!*st && !(*st = cli_store_open(s, e)))
		return NULL;
	long long id;
	struct store_doc d;
	if (store_resolve(*st, word, &id, e) || store_get(*st, id, &d, e))
		return NULL;
	json_t *root = NULL;
	if (strcmp(d.format, "iogauge")) {
		err_set(e, EXIT_USAGE, "%s: result %lld is an imported %s file: compare and report read iogauge's results "
			"(history, show, check and report --trend read its figures)", word, id, d.format);
	} else {
		char what[160];
		snprintf(what, sizeof(what), "%s (result %lld)", word, id);
		root = result_parse(d.doc, d.doc_len, what, e);
	}
	if (d.label && strcmp(d.label, word))
		snprintf(name, len, "%s (#%lld %s)", word, id, d.label);
	else
		snprintf(name, len, "%s (#%lld)", word, id);
	store_doc_free(&d);
	return root;
}
