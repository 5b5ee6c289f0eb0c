/*
 * A measuring command's session (run, fio, dd, every suite): begun once its
 * arguments are read, ended once on its one exit path.  It owns the outputs
 * (stdout or --output, --json FILE, --html FILE) and the run context (the
 * signal handlers, the test files to remove), and writes the JSON root the
 * command adds its keys to.  Only the command layer uses it: it prints.
 */
#ifndef IOGAUGE_CMDS_SESSION_H
#define IOGAUGE_CMDS_SESSION_H

#include <stdbool.h>
#include <jansson.h>
#include "base/ctx.h"
#include "report/report.h"

struct command;
struct settings;
struct ig_err;
struct store;

struct session {
	const struct command *cmd;
	const struct settings *s;
	struct outputs out;
	struct run_ctx ctx;
	bool open; /* outputs open: the end writes and closes them */
	/* --save (or IOGAUGE_SAVE): the result goes into the store at the end (session_save.c). */
	bool save;
	char label[72];
	char where[PATH_MAX];  /* the store */
	struct store *store;   /* opened by the begin (its refusals come before the run), saved into at the end */
	FILE *results;         /* out.out as opened: the text is copied from the tee in its place */
	char *text;            /* what the command printed there, for the store */
	size_t text_len;
	bool text_over;        /* more than the store keeps: the document rebuilds it */
};

/* Before anything may register a test file: an empty context, no outputs. */
void session_init(struct session *ss, const struct command *cmd, const struct settings *s);
/* Open the outputs and take the signals (keep: leave the test files). 0, or -1 with e set. */
int session_begin(struct session *ss, bool keep, struct ig_err *e);
/* Does the end want the JSON root (an output's, or the store's)? */
bool session_wants_root(const struct session *ss);
/* The JSON root when an output wants one (--json, --html, json on stdout, --save), else NULL. */
json_t *session_root(const struct session *ss, int status, bool interrupted, const struct ig_err *err);
/* Write root where asked, close the outputs, remove the test files: the command's exit status. */
int session_end(struct session *ss, json_t *root, int status);
/* A refusal: its one line on stderr, the test files removed; returns its exit status. */
int session_refuse(struct session *ss, const struct ig_err *e);

/* session_save.c: --save's part of begin and end. */
int session_save_begin(struct session *ss, struct ig_err *e);
int session_save_end(struct session *ss, const json_t *root, int status);

#endif
