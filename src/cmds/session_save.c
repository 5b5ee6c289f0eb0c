/*
 * --save (and IOGAUGE_SAVE): a measuring session's result into the store
 * (src/store).  Before the run, the label is checked and the store opened
 * once (a bad --db is a refusal, not a lost result), and the results
 * stream gets a tee that keeps what the command prints.  At the end the
 * result is saved in one transaction with its figures; the printed text
 * is kept too only when the document does not rebuild it byte for byte
 * (ioping's lines per request, bonnie -q's CSV line, fio's formats).
 */
#include "base/cluster.h"
#include "base/common.h"
#include "cmds/commands.h"
#include "cmds/session.h"
#include "options/option_values.h"
#include "report/report.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Printed text above this is not kept (the document rebuilds it: `show` says so). */
#define TEXT_MAX (16u << 20)

static ssize_t tee_write(void *cookie, const char *buf, size_t n)
{
	struct session *ss = cookie;
	size_t done = fwrite(buf, 1, n, ss->results);
	if (!ss->text_over && ss->text_len + done > TEXT_MAX) {
		ss->text_over = true;
		free(ss->text);
		ss->text = NULL;
		ss->text_len = 0;
	}
	if (!ss->text_over && done) {
		char *t = realloc(ss->text, ss->text_len + done + 1);
		if (t) {
			memcpy(t + ss->text_len, buf, done);
			ss->text = t;
			ss->text_len += done;
			t[ss->text_len] = 0;
		} else {
			ss->text_over = true;
		}
	}
	return done ? (ssize_t)done : -1;
}

static int tee_close(void *cookie)
{
	(void)cookie; /* the stream beneath is the outputs' to close */
	return 0;
}

/*
 * IOGAUGE_SAVE: 1, yes, true or on saves without a label; 0, no, false,
 * off or empty does not save; anything else is the label (checked as
 * --save's, and refused by the variable's name when it is none).
 */
static bool from_env(struct session *ss)
{
	static const char *const yes[] = { "1", "yes", "true", "on" }, *const no[] = { "0", "no", "false", "off" };
	const char *v = getenv("IOGAUGE_SAVE");
	if (!v || !*v)
		return false;
	for (unsigned i = 0; i < 4; i++)
		if (!strcasecmp(v, no[i]))
			return false;
	ss->save = true;
	snprintf(ss->label, sizeof(ss->label), "%s", v);
	for (unsigned i = 0; i < 4; i++)
		if (!strcasecmp(v, yes[i]))
			ss->label[0] = 0;
	return true;
}

/* Whatever the store's reason, it is a refusal (status 2): nothing has been measured. */
static int refused(struct ig_err *e)
{
	char why[sizeof(e->msg)];
	snprintf(why, sizeof(why), "%s", e->msg);
	e->status = 0;
	return err_set(e, EXIT_USAGE, "--save: %s; refused before measuring", why);
}

int session_save_begin(struct session *ss, struct ig_err *e)
{
	const struct settings *s = ss->s;
	bool env = false;
	if (*s->save) {
		ss->save = true;
		snprintf(ss->label, sizeof(ss->label), "%s", strcmp(s->save, "@") ? s->save : "");
	} else {
		env = from_env(ss);
	}
	if (!ss->save || cluster_rank())
		return cluster_agree(NULL, e); /* rank 0's verdict on the store holds for every rank */
	int rc = 0;
	if (*ss->label && !store_label_ok(ss->label))
		rc = err_set(e, EXIT_USAGE, "%s=%s: a label is " STORE_LABEL_RULE,
			     env ? "IOGAUGE_SAVE" : "--save", ss->label);
	store_where(s->db, ss->where, sizeof(ss->where));
	/* Opened once, here: what the store refuses comes before the run, and the save needs no second open. */
	if (!rc && (!(ss->store = store_open(ss->where, e)) || store_writable(ss->store, e)))
		rc = refused(e);
	if (!rc) {
		cookie_io_functions_t io = { .write = tee_write, .close = tee_close };
		FILE *tee = fopencookie(ss, "w", io);
		if (!tee)
			rc = err_set(e, EXIT_IOERR, "--save: cannot keep the printed text: out of memory");
		else {
			setvbuf(tee, NULL, _IOLBF, 0); /* lines reach the terminal as they did without --save */
			ss->results = ss->out.out;
			ss->out.out = tee;
		}
	}
	if (cluster_agree(NULL, e))
		rc = -1;
	if (rc) {
		store_close(ss->store);
		ss->store = NULL;
	}
	return rc;
}

/* The printed text, when the document rebuilds it byte for byte, is not kept twice. */
static bool rebuilds(const struct store_record *rec, const char *text, size_t len)
{
	json_error_t je;
	json_t *back = json_loadb(rec->doc, rec->doc_len, 0, &je);
	char *buf = NULL;
	size_t blen = 0;
	FILE *m = open_memstream(&buf, &blen);
	bool same = false;
	if (back && m) {
		struct ig_err e = { 0 };
		int rc = report_saved_text(m, back, command_saved_summary, &e);
		fflush(m);
		same = !rc && blen == len && !memcmp(buf, text, len);
	}
	if (m)
		fclose(m);
	free(buf);
	json_decref(back);
	return same;
}

int session_save_end(struct session *ss, const json_t *root, int status)
{
	if (!ss->save || cluster_rank() || !root || !ss->store) {
		free(ss->text);
		ss->text = NULL;
		store_close(ss->store);
		ss->store = NULL;
		return status;
	}
	struct store_record rec;
	struct ig_err e = { 0 };
	char fmt[64];
	format_names(ss->s->output_formats ? ss->s->output_formats : 1u << ss->s->output_format, ",", fmt, sizeof(fmt));
	int rc = store_record_of_root(root, true, &rec, &e);
	if (!rc) {
		rec.label = *ss->label ? xstrdup(ss->label) : NULL;
		free(rec.output_format);
		rec.output_format = xstrdup(fmt);
		/* JSON on stdout is the document itself; text the document rebuilds is not kept twice. */
		bool json = ss->s->output_format == OUT_JSON;
		if (!json && ss->text_len && !ss->text_over && !rebuilds(&rec, ss->text, ss->text_len)) {
			rec.text = ss->text;
			rec.text_len = ss->text_len;
			ss->text = NULL;
		}
		if (ss->text_over)
			msg_err("--save: the printed text is over %u MiB: `iogauge show` rebuilds it from the result",
				TEXT_MAX >> 20);
		long long id = 0;
		rc = store_save(ss->store, &rec, &id, &e);
		if (!rc && !ss->s->quiet)
			fprintf(stderr, "iogauge: saved as result %lld%s%s in %s\n", id, rec.label ? ", label " : "",
				rec.label ? rec.label : "", ss->where);
		store_record_free(&rec);
	}
	free(ss->text);
	ss->text = NULL;
	store_close(ss->store); /* SQLite: no checkpoint, the save is in the WAL (store_sqlite.c) */
	ss->store = NULL;
	if (rc) {
		msg_err("--save: %s; the result was not saved", e.msg);
		if (!status)
			status = EXIT_IOERR;
	}
	return status;
}
