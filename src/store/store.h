/*
 * The results store: every saved result (the whole JSON document, what it
 * printed when that cannot be rebuilt from it, and indexed columns: when,
 * host, kernel, command, targets with their device's model and firmware,
 * file system, label, version, every figure of every job and case) in a
 * SQLite file or a PostgreSQL database with the same schema.  Saves are one
 * transaction each; the schema is versioned and migrated on open.  The
 * command layer calls it (save, history, show, forget, check, import,
 * compare and report by reference); it prints nothing.
 */
#ifndef IOGAUGE_STORE_H
#define IOGAUGE_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include "base/common.h"

/* The schema this iogauge writes (store_schema.c's migrations reach it from every earlier one). */
#define STORE_SCHEMA 1

struct store;

/*
 * Where the store is: db (--db) when given, else $IOGAUGE_DB, else
 * $XDG_DATA_HOME/iogauge/results.db (~/.local/share/iogauge/results.db).
 * A postgresql:// or postgres:// URL is a PostgreSQL database.
 */
void store_where(const char *db, char *out, size_t len);
/* Open (create, migrate) the store at where: NULL with e set. */
struct store *store_open(const char *where, struct ig_err *e);
void store_close(struct store *st);
/* "sqlite" or "postgresql". */
const char *store_kind(const struct store *st);
/* Can results be saved into it (not a read-only file, file system or server; room)?  0, or -1 with e set. */
int store_writable(struct store *st, struct ig_err *e);

/* A target of a result: as named, with its device's facts ("" unknown). */
struct store_target {
	char *path, *device, *model, *firmware, *fstype;
};
/* A figure: a job's (or a suite case's) figure on a target, in its shown unit. */
struct store_fig {
	char *target, *job, *dir, *metric, *name, *unit;
	double value, min, max; /* min, max: its passes' range (the value when one pass) */
	unsigned passes;        /* 0: one figure, no spread */
	int better;             /* 1 higher is better, -1 lower, 0 not judged (informational) */
};
/* A result to save. */
struct store_record {
	char *label;            /* NULL: none */
	char *measured;         /* when it was measured, UTC: 2025-01-31T12:00:00Z */
	char *host, *kernel, *command, *command_line, *version;
	char *format;           /* "iogauge", "fio-json", "bonnie-csv" */
	char *output_format;    /* what it printed: normal, json, ... (its text is rebuilt from the doc) */
	char *source;           /* an imported file's path; NULL for a run */
	long long status;
	struct store_target *targets;
	unsigned ntargets;
	struct store_fig *figs;
	unsigned nfigs;
	char *doc;              /* the document: iogauge's JSON, or the imported file as read */
	size_t doc_len;
	char *text;             /* what it printed, when the doc does not rebuild it; NULL */
	size_t text_len;
};
/*
 * An iogauge result (a root as written, or read back) into rec: its head,
 * targets and figures (report's saved_from_root), the document as compact
 * JSON.  local: the result was measured here now, so the devices' model and
 * firmware are read from sysfs.  0, or -1 with e set.
 */
int store_record_of_root(const json_t *root, bool local, struct store_record *rec, struct ig_err *e);
void store_record_free(struct store_record *rec);
/*
 * A bonnie++ CSV line (formats 1.97, 1.98; store_import.c) into rec, with
 * path as its source and mtime as its time.  0, or -1 with e set (status 2:
 * not that format).
 */
int store_record_of_bonnie(const char *line, const char *path, time_t mtime, struct store_record *rec,
			   struct ig_err *e);
/* rec saved in one transaction (retried while another writer holds the store): 0 and *id, or -1. */
int store_save(struct store *st, const struct store_record *rec, long long *id, struct ig_err *e);

/* What history lists: every condition given (NULL or "" not) must hold. */
struct store_filter {
	const char *label, *host, *target, *command;
	const char *since, *until; /* UTC, 2025-01-31T00:00:00Z: since <= measured < until */
	unsigned limit;            /* 0: all */
	long long id;              /* 0: any; else that result alone */
};
/* A saved result as history lists it (strings valid during the callback). */
struct store_entry {
	long long id;
	const char *measured, *saved, *label, *host, *kernel, *command, *command_line, *version, *format;
	const char *source;
	const char *targets;       /* the targets' paths, ", " between */
	const char *devices;       /* "vda", "nvme0n1 (Samsung SSD 980 1TB, fw 3B4QFXO7)", ", " between */
	const char *fstypes;
	long long status, nfigs, doc_bytes, stored_bytes;
};
typedef int (*store_entry_fn)(void *arg, const struct store_entry *en);
/* The results the filter keeps, newest first: 0, or -1 with e set (or what fn returned). */
int store_list(struct store *st, const struct store_filter *f, store_entry_fn fn, void *arg, struct ig_err *e);

/*
 * A reference to a saved result: ID (a number), @last, @last~N (the N-th
 * before the newest), LABEL (its newest), LABEL~N.  0 and *id, 1 when there
 * is no such result (e says which), -1 on a store error.
 */
int store_resolve(struct store *st, const char *ref, long long *id, struct ig_err *e);
/* Is word a reference's shape (for a compare or report word that names no file)? */
bool store_ref_like(const char *word);
/* A label as --save takes it (STORE_LABEL_RULE says what that is, for messages). */
bool store_label_ok(const char *label);
#define STORE_LABEL_RULE \
	"1 to 64 ASCII letters, digits and . _ - + :, not all digits, not starting with - nor ending .json"

/* A saved result read back. */
struct store_doc {
	long long id;
	char *label, *command, *format, *output_format, *measured, *host;
	char *source; /* an import's file; NULL */
	char *doc;   /* NUL-terminated */
	size_t doc_len;
	char *text;  /* NULL: rebuilt from doc */
	size_t text_len;
};
/* 0, 1 when id is not in the store (e says so), -1 on an error. */
int store_get(struct store *st, long long id, struct store_doc *d, struct ig_err *e);
void store_doc_free(struct store_doc *d);
/* Remove result id and its figures and targets in one transaction: 0, 1 not there, -1. */
int store_forget(struct store *st, long long id, struct ig_err *e);

/* The figures of result id into *out (free with store_figs_free). */
int store_figures(struct store *st, long long id, struct store_fig **out, unsigned *n, struct ig_err *e);
void store_figs_free(struct store_fig *f, unsigned n);

/* A result of a label's history, for check and report --trend. */
struct store_run {
	long long id;
	char *measured, *host;
	struct store_fig *figs;
	unsigned nfigs;
};
/*
 * The newest max results of label that ended with status 0, oldest first,
 * each with its figures: 0, or -1 with e set.
 */
int store_series(struct store *st, const char *label, unsigned max, struct store_run **out, unsigned *n,
		 struct ig_err *e);
void store_series_free(struct store_run *r, unsigned n);

/* Do a and b name the same figure (target, job, direction, metric)? */
bool store_fig_same(const struct store_fig *a, const struct store_fig *b);
/* Results before a figure's that hold it before it is judged (check) or banded (report --trend). */
#define STORE_SPREAD_MIN_RUNS 2
/*
 * The run-to-run spread of a figure over a label's results (store_spread.c),
 * the one definition `check` judges by and `report --trend` draws: lo and
 * hi are the lowest and highest of each result's figure and of its passes'
 * range (min, max), median the median of the results' figures, runs how many
 * of the n hold it.  false when fewer than STORE_SPREAD_MIN_RUNS do.
 */
struct store_spread {
	double lo, hi, median;
	unsigned runs;
};
bool store_spread(const struct store_run *runs, unsigned n, const struct store_fig *f, struct store_spread *out);
/* The labels in the store (sorted) into *out (free each and the array). */
int store_labels(struct store *st, char ***out, unsigned *n, struct ig_err *e);

#endif
