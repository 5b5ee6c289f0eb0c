/*
 * The store's back ends (store_sqlite.c, store_pg.c): a connection that runs
 * one SQL statement with parameters and hands each row to a callback.  The
 * schema, the queries and the transactions are the other store files', one
 * SQL text for both: parameters are $1, $2 ... (SQLite reads them as named parameters),
 * values travel as text or blobs, and the few words the two dialects spell
 * differently are the ops' strings.  Internal to src/store.
 */
#ifndef IOGAUGE_STORE_DB_H
#define IOGAUGE_STORE_DB_H

#include <stdbool.h>
#include <limits.h>
#include <stddef.h>
#include "base/common.h"

/* A parameter or a column: text (len = strlen) or a blob; p NULL: SQL NULL. */
struct store_val {
	const void *p;
	size_t len;
	bool blob;
};

/* A row: n columns.  Non-zero stops the statement (returned by exec). */
typedef int (*store_row_fn)(void *arg, unsigned n, const struct store_val *cols);

/* exec's result: 0, STORE_BUSY (another writer held the store past the wait: retry), or -1 (e set). */
enum { STORE_BUSY = -2 };

struct store_db;
struct store_db_ops {
	const char *name;        /* "sqlite", "postgresql" */
	const char *id_type;     /* a column that numbers rows by itself */
	const char *blob_type;
	const char *begin_write; /* a transaction that takes the write lock at once */
	const char *lock_schema; /* run first in the schema's transaction (concurrent first opens); NULL */
	const char *table_exists; /* a query of $1 that returns a row when that table exists */
	int (*open)(struct store_db *db, const char *where, struct ig_err *e);
	void (*close)(struct store_db *db);
	/* Can this connection save (not a read-only file or server, room to write)?  0, or -1 with e saying why. */
	int (*writable)(struct store_db *db, struct ig_err *e);
	int (*exec)(struct store_db *db, const char *sql, unsigned n, const struct store_val *par,
		    store_row_fn fn, void *arg, struct ig_err *e);
};

struct store_db {
	const struct store_db_ops *ops;
	void *h;
	char where[PATH_MAX]; /* as shown in messages: the file, or the URL */
};

extern const struct store_db_ops store_sqlite_ops, store_pg_ops;

#endif
