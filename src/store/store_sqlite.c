/*
 * The store in a SQLite file (store_db.h).  WAL, so readers never wait for a
 * writer and a killed writer leaves the file whole; a busy timeout, so many
 * processes saving at once queue instead of failing; write transactions
 * begin IMMEDIATE, so two of them never deadlock upgrading a read lock.
 */
#include "base/common.h"
#include "store/store_db.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* How long a saver waits for another's transaction before it gives up (then: retried by store_save.c). */
#define SQLITE_WAIT_MS 30000

/* mkdir -p of path's directory (the XDG data directory may not exist yet). */
static int make_dirs(const char *path, struct ig_err *e)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = 0;
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(dir, 0700) && errno != EEXIST)
			return err_set(e, EXIT_IOERR, "--db %s: cannot create %s: %s", path, dir, strerror(errno));
		*p = '/';
	}
	if (mkdir(dir, 0700) && errno != EEXIST)
		return err_set(e, EXIT_IOERR, "--db %s: cannot create %s: %s", path, dir, strerror(errno));
	return 0;
}

static int sq_fail(struct store_db *db, int rc, const char *what, struct ig_err *e)
{
	sqlite3 *s = db->h;
	if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return STORE_BUSY;
	err_set(e, rc == SQLITE_FULL || rc == SQLITE_IOERR || rc == SQLITE_CANTOPEN || rc == SQLITE_READONLY ? EXIT_IOERR :
		   EXIT_USAGE,
		"store %s: %s: %s", db->where, what, s ? sqlite3_errmsg(s) : sqlite3_errstr(rc));
	return -1;
}

static int sq_open(struct store_db *db, const char *where, struct ig_err *e)
{
	struct stat st;
	if (!stat(where, &st) && !S_ISREG(st.st_mode))
		return err_set(e, EXIT_USAGE, "--db %s: not a regular file", where);
	if (make_dirs(where, e))
		return -1;
	sqlite3 *s = NULL;
	int rc = sqlite3_open_v2(where, &s, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	db->h = s;
	if (rc != SQLITE_OK) {
		sq_fail(db, rc, "cannot open", e);
		if (e->status == 0)
			err_set(e, EXIT_IOERR, "store %s: cannot open: %s", where, sqlite3_errstr(rc));
		sqlite3_close(s);
		db->h = NULL;
		return -1;
	}
	sqlite3_busy_timeout(s, SQLITE_WAIT_MS);
	sqlite3_extended_result_codes(s, 0);
	/* WAL: a kill at any moment leaves the last committed state; NORMAL syncs at checkpoints. */
	char *msg = NULL;
	for (int tries = 0; tries < 100; tries++) {
		rc = sqlite3_exec(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL, &msg);
		if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
			break;
		sqlite3_free(msg);
		msg = NULL;
		sqlite3_sleep(50);
	}
	if (rc != SQLITE_OK) {
		err_set(e, EXIT_IOERR, "store %s: %s", where, msg ? msg : sqlite3_errstr(rc));
		sqlite3_free(msg);
		sqlite3_close(s);
		db->h = NULL;
		return -1;
	}
	return 0;
}

static void sq_close(struct store_db *db)
{
	sqlite3_close(db->h);
	db->h = NULL;
}

static int sq_exec(struct store_db *db, const char *sql, unsigned n, const struct store_val *par, store_row_fn fn,
		   void *arg, struct ig_err *e)
{
	sqlite3 *s = db->h;
	const char *tail = sql;
	int ret = 0;
	/* Several statements (a migration step) run one after another; parameters go to each. */
	while (!ret && tail && *tail) {
		sqlite3_stmt *st = NULL;
		int rc = sqlite3_prepare_v2(s, tail, -1, &st, &tail);
		if (rc != SQLITE_OK)
			return sq_fail(db, rc, "cannot prepare a statement", e);
		if (!st)
			break; /* only white space or a comment was left */
		for (unsigned i = 0; i < n && !ret; i++) {
			char name[16];
			snprintf(name, sizeof(name), "$%u", i + 1);
			int k = sqlite3_bind_parameter_index(st, name);
			if (!k)
				continue;
			if (!par[i].p)
				rc = sqlite3_bind_null(st, k);
			else if (par[i].blob)
				rc = sqlite3_bind_blob64(st, k, par[i].p, par[i].len, SQLITE_STATIC);
			else
				rc = sqlite3_bind_text64(st, k, par[i].p, par[i].len, SQLITE_STATIC, SQLITE_UTF8);
			if (rc != SQLITE_OK)
				ret = sq_fail(db, rc, "cannot bind a value", e);
		}
		while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
			unsigned nc = (unsigned)sqlite3_column_count(st);
			struct store_val cols[32];
			char num[32][32];
			if (nc > 32)
				nc = 32;
			for (unsigned c = 0; c < nc; c++) {
				int t = sqlite3_column_type(st, (int)c);
				memset(&cols[c], 0, sizeof(cols[c]));
				if (t == SQLITE_NULL)
					continue;
				if (t == SQLITE_BLOB) {
					cols[c].len = (size_t)sqlite3_column_bytes(st, (int)c);
					cols[c].p = cols[c].len ? sqlite3_column_blob(st, (int)c) : "";
					cols[c].blob = true;
				} else if (t == SQLITE_FLOAT) {
					/* All the digits: SQLite's own text of a real keeps 15. */
					snprintf(num[c], sizeof(num[c]), "%.17g", sqlite3_column_double(st, (int)c));
					cols[c].p = num[c];
					cols[c].len = strlen(num[c]);
				} else {
					cols[c].p = sqlite3_column_text(st, (int)c);
					cols[c].len = (size_t)sqlite3_column_bytes(st, (int)c);
				}
			}
			if (fn)
				ret = fn(arg, nc, cols);
		}
		if (!ret && rc != SQLITE_DONE)
			ret = sq_fail(db, rc, "a statement failed", e);
		sqlite3_finalize(st);
	}
	return ret;
}

const struct store_db_ops store_sqlite_ops = {
	.name = "sqlite",
	.id_type = "INTEGER PRIMARY KEY",
	.blob_type = "BLOB",
	.begin_write = "BEGIN IMMEDIATE",
	.lock_schema = NULL,
	.table_exists = "SELECT name FROM sqlite_master WHERE type = 'table' AND name = $1",
	.open = sq_open,
	.close = sq_close,
	.exec = sq_exec,
};
