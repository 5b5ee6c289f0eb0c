/*
 * What the store's files share (internal to src/store): the open store, the
 * values that travel to and from a back end (store_db.h), one statement
 * run, a transaction retried while another writer holds the store, and the
 * documents' compression.  store_val.c defines them.
 */
#ifndef IOGAUGE_STORE_INT_H
#define IOGAUGE_STORE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include "base/common.h"
#include "store/store.h"
#include "store/store_db.h"

struct store {
	struct store_db db;
};

/* A transaction that met another writer is tried this many times (store_backoff between). */
#define STORE_TRIES 50

static inline struct store_val store_txt(const char *s)
{
	return (struct store_val){ s, s ? strlen(s) : 0, false };
}

static inline struct store_val store_blob(const void *p, size_t n)
{
	return (struct store_val){ p ? p : "", n, true };
}

/* A column as a NUL-terminated copy (NULL for SQL NULL), a number (0 for NULL). */
char *store_val_dup(const struct store_val *v);
long long store_val_ll(const struct store_val *v);
double store_val_d(const struct store_val *v);

/* "No such result": status 2, and 1 for the caller (not a store error). */
__attribute__((format(printf, 2, 3))) int store_none(struct ig_err *e, const char *fmt, ...);

/* One statement on the store's back end: 0, STORE_BUSY or -1 (e set). */
int store_exec(struct store *st, const char *sql, unsigned n, const struct store_val *par, store_row_fn fn,
	       void *arg, struct ig_err *e);
/* Row callbacks: the first column as a number into *(long long *)arg; a row was seen, *(bool *)arg. */
int store_row_ll(void *arg, unsigned n, const struct store_val *c);
int store_row_seen(void *arg, unsigned n, const struct store_val *c);
/* COMMIT, or ROLLBACK (its error ignored: the first error is the one to tell) when rc says so. */
int store_end_tx(struct store *st, int rc, struct ig_err *e);

/* A short random pause before a transaction is tried again (savers that met must not meet again). */
void store_backoff(unsigned attempt);

/* Documents kept zstd-compressed: a buffer to free and its length, NULL when it cannot be. */
void *store_pack(const char *p, size_t n, size_t *out);
/* A stored blob back: NUL-terminated, NULL when it is not a zstd frame of a known size. */
char *store_unpack(const struct store_val *v, size_t *len);

/* "2025-01-31T12:00:00Z", now. */
void store_now_utc(char *buf, size_t len);

#endif
