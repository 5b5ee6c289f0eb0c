/*
 * The store in a SQLite file (store_db.h).  WAL, so readers never wait for a
 * writer and a killed writer leaves the file whole; a busy timeout, so many
 * processes saving at once queue instead of failing; write transactions
 * begin IMMEDIATE, so two of them never deadlock upgrading a read lock.
 *
 * Durability: synchronous=NORMAL and no checkpoint when a connection
 * closes.  A commit is then a few writes into the WAL, no sync: it survives
 * the process's death at any moment (the kernel has it), and a power loss
 * once the kernel has written it back, as the --json file beside it (which
 * iogauge does not sync either); a power loss can lose the last saves, never
 * the store (the WAL's frames are checksummed: a torn end is dropped).
 * SQLite's own checkpoint, when the WAL reaches 1000 pages (about 60 quick
 * results), syncs the WAL and moves it into the database.  So the newest
 * results live in results.db-wal beside results.db: a copy takes both (or
 * `sqlite3 results.db .backup copy.db`).  The checkpoint at every close that
 * this replaces synced four times a save: three quarters of the time a save
 * added (HACKING.md, "The time a save adds").
 *
 * What --db names must be a SQLite database or nothing yet: a directory, a
 * FIFO or a device is refused before SQLite opens it, and a file that is no
 * SQLite database is refused as SQLite reads its header, unwritten.
 */
#include "base/common.h"
#include "store/store_db.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* How long a saver waits for another's transaction before it gives up (then: retried by store_save.c). */
#define SQLITE_WAIT_MS 30000
/*
 * Free space a store needs to be opened as usual.  SQLite maps the WAL's
 * index (-shm, 32 KiB a region) and allocates it by writing a byte at the
 * end of each 4 KiB page: on a file system of smaller blocks (ext4 under
 * 512 MiB has 1 KiB) the rest are holes, and with no room for them a write
 * into the map is a SIGBUS, not an error.  Below this, the store opens with
 * locking_mode=EXCLUSIVE (the index in memory, no -shm: one process at a
 * time), and --save refuses it before measuring.
 */
#define SQ_MIN_FREE (256u << 10)
/* Statements kept prepared: a save's dozen and history's few (an import of many files reuses them). */
#define SQ_CACHE 24

struct sq {
	sqlite3 *s;
	bool low;                /* less than SQ_MIN_FREE free: no -shm (locking_mode=EXCLUSIVE) */
	unsigned long long free_kib;
	struct {
		char *sql;
		sqlite3_stmt *st;
	} cache[SQ_CACHE];
	unsigned ncache, next; /* next: the slot a new statement replaces when the cache is full */
};

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

/* SQLite's words for rc, and the system's when a system call failed beneath ("No space left on device"). */
static void why(sqlite3 *s, int rc, char *buf, size_t len)
{
	int sys = s ? sqlite3_system_errno(s) : 0;
	const char *msg = s ? sqlite3_errmsg(s) : sqlite3_errstr(rc);
	if (sys && (rc == SQLITE_IOERR || rc == SQLITE_FULL || rc == SQLITE_CANTOPEN || rc == SQLITE_READONLY))
		snprintf(buf, len, "%s (%s)", msg, strerror(sys));
	else
		snprintf(buf, len, "%s", msg);
}

static int sq_fail(struct store_db *db, int rc, const char *what, struct ig_err *e)
{
	struct sq *q = db->h;
	char msg[256];
	if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return STORE_BUSY;
	why(q ? q->s : NULL, rc, msg, sizeof(msg));
	/* A full disk, an I/O error, a store that cannot be written: exit 1; a file that is no store: bad input. */
	err_set(e, rc == SQLITE_FULL || rc == SQLITE_IOERR || rc == SQLITE_CANTOPEN || rc == SQLITE_READONLY ? EXIT_IOERR :
		   EXIT_USAGE,
		"store %s: %s%s%s", db->where, what ? what : "", what ? ": " : "", msg);
	return -1;
}

/* The directory a store's files are in: "." for a bare name. */
static void dir_of(const char *where, char *dir, size_t len)
{
	snprintf(dir, len, "%s", where);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, len, ".");
	else
		slash[slash == dir] = 0;
}

static const char *kind_of(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISBLK(m) ? "a block device" :
	       S_ISCHR(m) ? "a character device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

static void sq_close(struct store_db *db)
{
	struct sq *q = db->h;
	if (!q)
		return;
	for (unsigned i = 0; i < q->ncache; i++) {
		sqlite3_finalize(q->cache[i].st);
		free(q->cache[i].sql);
	}
	sqlite3_close(q->s);
	free(q);
	db->h = NULL;
}

static int sq_open(struct store_db *db, const char *where, struct ig_err *e)
{
	struct stat st;
	/* stat follows a symlink: a link to a device is the device. */
	bool exists = !stat(where, &st);
	if (exists && !S_ISREG(st.st_mode))
		return err_set(e, EXIT_USAGE, "--db %s: %s, not a store", where, kind_of(st.st_mode));
	if (make_dirs(where, e))
		return -1;
	char dir[PATH_MAX];
	dir_of(where, dir, sizeof(dir));
	/* SQLite would say "unable to open": the reason is the directory's (a read-only file system). */
	if (!exists && access(dir, W_OK | X_OK))
		return err_set(e, EXIT_IOERR, "--db %s: cannot create it in %s: %s", where, dir, strerror(errno));
	struct sq *q = xcalloc(1, sizeof(*q));
	db->h = q;
	int rc = sqlite3_open_v2(where, &q->s, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		char msg[256];
		why(q->s, rc, msg, sizeof(msg));
		err_set(e, EXIT_IOERR, "store %s: cannot open: %s", where, msg);
		sq_close(db);
		return -1;
	}
	sqlite3_busy_timeout(q->s, SQLITE_WAIT_MS);
	sqlite3_extended_result_codes(q->s, 0);
	/* No checkpoint at close: SQLite's own, at 1000 pages of WAL, syncs (the header comment says why). */
	sqlite3_db_config(q->s, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	/* Room to map the WAL index, looked at before a read opens it (SQ_MIN_FREE). */
	struct statvfs vfs;
	if (!statvfs(dir, &vfs)) {
		q->free_kib = (unsigned long long)vfs.f_bavail * vfs.f_frsize >> 10;
		q->low = q->free_kib < SQ_MIN_FREE >> 10;
	}
	if (q->low)
		sqlite3_exec(q->s, "PRAGMA locking_mode=EXCLUSIVE", NULL, NULL, NULL);
	/*
	 * What is there, read before anything is written (WAL mode rewrites the
	 * header): no SQLite database, or one of other tables and no iogauge
	 * schema, is left as it was.
	 */
	sqlite3_stmt *look = NULL;
	int tables = 0, ours = 0;
	rc = sqlite3_prepare_v2(q->s,
				"SELECT count(*), count(CASE WHEN name = 'iogauge_schema' THEN 1 END) FROM sqlite_master "
				"WHERE type = 'table' AND name NOT LIKE 'sqlite%'",
				-1, &look, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(look)) == SQLITE_ROW) {
		tables = sqlite3_column_int(look, 0);
		ours = sqlite3_column_int(look, 1);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(look);
	if (rc == SQLITE_NOTADB || (rc == SQLITE_OK && tables && !ours)) {
		err_set(e, EXIT_USAGE, "--db %s: %s, not a store (left as it was)", where,
			rc == SQLITE_NOTADB ? "not a SQLite database" : "a SQLite database of other tables");
		sq_close(db);
		return -1;
	}
	char *msg = NULL;
	for (int tries = 0; tries < 100; tries++) {
		rc = sqlite3_exec(q->s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL, &msg);
		if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
			break;
		sqlite3_free(msg);
		msg = NULL;
		sqlite3_sleep(50);
	}
	if (rc != SQLITE_OK) {
		char m[256];
		why(q->s, rc, m, sizeof(m));
		err_set(e, EXIT_IOERR, "store %s: cannot open: %s", where, msg ? msg : m);
	}
	sqlite3_free(msg);
	if (rc != SQLITE_OK) {
		sq_close(db);
		return -1;
	}
	return 0;
}

static int sq_writable(struct store_db *db, struct ig_err *e)
{
	struct sq *q = db->h;
	if (sqlite3_db_readonly(q->s, "main"))
		return err_set(e, EXIT_USAGE, "store %s is read-only", db->where);
	if (q->low)
		return err_set(e, EXIT_IOERR, "store %s: its file system has %llu KiB free (a save needs %u KiB at least)",
			       db->where, q->free_kib, SQ_MIN_FREE >> 10);
	return 0;
}

/*
 * sql prepared: from the cache when it holds it (reset, bindings cleared),
 * else prepared and, when it is one statement, kept.  *tail: what follows
 * it (a migration's further statements).  *kept: do not finalize it.
 */
static int prepare(struct sq *q, const char *sql, sqlite3_stmt **st, const char **tail, bool *kept)
{
	for (unsigned i = 0; i < q->ncache; i++)
		if (!strcmp(q->cache[i].sql, sql) && !sqlite3_stmt_busy(q->cache[i].st)) {
			*st = q->cache[i].st;
			*tail = sql + strlen(sql);
			*kept = true;
			return SQLITE_OK;
		}
	*kept = false;
	int rc = sqlite3_prepare_v3(q->s, sql, -1, SQLITE_PREPARE_PERSISTENT, st, tail);
	if (rc != SQLITE_OK || !*st || (*tail && (*tail)[strspn(*tail, " \t\r\n;")]))
		return rc;
	unsigned slot = q->ncache < SQ_CACHE ? q->ncache++ : q->next++ % SQ_CACHE;
	if (q->cache[slot].st) {
		sqlite3_finalize(q->cache[slot].st);
		free(q->cache[slot].sql);
	}
	q->cache[slot].sql = xstrdup(sql);
	q->cache[slot].st = *st;
	*kept = true;
	return SQLITE_OK;
}

static int sq_exec(struct store_db *db, const char *sql, unsigned n, const struct store_val *par, store_row_fn fn,
		   void *arg, struct ig_err *e)
{
	struct sq *q = db->h;
	const char *tail = sql;
	int ret = 0;
	/* Several statements (a migration step) run one after another; parameters go to each. */
	while (!ret && tail && *tail) {
		sqlite3_stmt *st = NULL;
		bool kept;
		int rc = prepare(q, tail, &st, &tail, &kept);
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
			ret = sq_fail(db, rc, NULL, e);
		/* A kept statement is reset at once: a SELECT left stepping would hold its read transaction. */
		if (kept) {
			sqlite3_reset(st);
			sqlite3_clear_bindings(st);
		} else {
			sqlite3_finalize(st);
		}
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
	.writable = sq_writable,
	.exec = sq_exec,
};
