/*
 * Where the store is, its schema and the migrations that reach it, and
 * opening it (store.h): every earlier schema is migrated on open, in one
 * transaction that takes the write lock, so two first opens at once make
 * the schema once; a newer schema than this iogauge's is refused.
 */
#include "store/store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The migrations, step N taking a store from schema N-1 to N (step 1
 * creates it).  A step is never edited once released: a change is a new
 * step.  @ID@ and @BLOB@ are the back end's words.
 */
static const char *const migrations[] = {
	NULL,
	/* 1: results, their targets and their figures. */
	"CREATE TABLE results ("
	" id @ID@,"
	" measured TEXT NOT NULL,"       /* when it was measured, UTC ISO 8601 */
	" saved TEXT NOT NULL,"          /* when it was stored */
	" label TEXT,"
	" host TEXT NOT NULL,"
	" kernel TEXT NOT NULL,"
	" command TEXT NOT NULL,"
	" command_line TEXT NOT NULL,"
	" version TEXT NOT NULL,"
	" status INTEGER NOT NULL,"
	" format TEXT NOT NULL,"         /* iogauge, fio-json, bonnie-csv */
	" output_format TEXT NOT NULL,"  /* what it printed: normal, json, ... */
	" source TEXT,"                  /* the imported file; NULL for a run */
	" doc_bytes BIGINT NOT NULL,"
	" doc @BLOB@ NOT NULL,"          /* zstd of the document */
	" printed @BLOB@"                /* zstd of what it printed, when doc does not rebuild it */
	");"
	"CREATE INDEX results_label ON results (label, measured);"
	"CREATE INDEX results_host ON results (host, measured);"
	"CREATE INDEX results_measured ON results (measured);"
	"CREATE TABLE targets ("
	" result_id BIGINT NOT NULL,"
	" pos INTEGER NOT NULL,"
	" path TEXT NOT NULL,"
	" device TEXT NOT NULL,"
	" model TEXT NOT NULL,"
	" firmware TEXT NOT NULL,"
	" fstype TEXT NOT NULL,"
	" PRIMARY KEY (result_id, pos)"
	");"
	"CREATE INDEX targets_path ON targets (path);"
	"CREATE TABLE figures ("
	" result_id BIGINT NOT NULL,"
	" target TEXT NOT NULL,"
	" job TEXT NOT NULL,"
	" dir TEXT NOT NULL,"
	" metric TEXT NOT NULL,"
	" name TEXT NOT NULL,"
	" unit TEXT NOT NULL,"
	" value DOUBLE PRECISION NOT NULL,"
	" min DOUBLE PRECISION NOT NULL,"
	" max DOUBLE PRECISION NOT NULL,"
	" passes INTEGER NOT NULL,"
	" better INTEGER NOT NULL"
	");"
	"CREATE INDEX figures_result ON figures (result_id);",
};
_Static_assert(sizeof(migrations) / sizeof(migrations[0]) == STORE_SCHEMA + 1, "a migration per schema version");

void store_where(const char *db, char *out, size_t len)
{
	const char *env = getenv("IOGAUGE_DB"), *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	if (db && *db)
		snprintf(out, len, "%s", db);
	else if (env && *env)
		snprintf(out, len, "%s", env);
	else if (xdg && *xdg == '/') /* the XDG spec: a relative path is invalid and ignored */
		snprintf(out, len, "%s/iogauge/results.db", xdg);
	else
		snprintf(out, len, "%s/.local/share/iogauge/results.db", home && *home ? home : ".");
}

static bool is_pg(const char *where)
{
	return !strncmp(where, "postgresql://", 13) || !strncmp(where, "postgres://", 11);
}

/* A step's SQL with the back end's words. */
static char *dialect(const struct store_db_ops *ops, const char *sql)
{
	size_t cap = strlen(sql) * 2 + 64, n = 0;
	char *out = xcalloc(1, cap);
	for (const char *p = sql; *p;) {
		const char *w = !strncmp(p, "@ID@", 4) ? ops->id_type : !strncmp(p, "@BLOB@", 6) ? ops->blob_type : NULL;
		if (w) {
			n += (size_t)snprintf(out + n, cap - n, "%s", w);
			p += p[1] == 'I' ? 4 : 6;
		} else {
			out[n++] = *p++;
		}
	}
	return out;
}

static int schema_version(struct store *st, long long *v, struct ig_err *e)
{
	bool has = false;
	struct store_val name = store_txt("iogauge_schema");
	int rc = store_exec(st, st->db.ops->table_exists, 1, &name, store_row_seen, &has, e);
	*v = 0;
	if (!rc && has)
		rc = store_exec(st, "SELECT version FROM iogauge_schema", 0, NULL, store_row_ll, v, e);
	return rc;
}

static int migrate(struct store *st, struct ig_err *e)
{
	const struct store_db_ops *ops = st->db.ops;
	long long v = 0;
	int rc = store_exec(st, ops->begin_write, 0, NULL, NULL, NULL, e);
	if (!rc && ops->lock_schema)
		rc = store_exec(st, ops->lock_schema, 0, NULL, NULL, NULL, e);
	if (!rc)
		rc = schema_version(st, &v, e);
	if (!rc && !v) {
		rc = store_exec(st, "CREATE TABLE IF NOT EXISTS iogauge_schema (version INTEGER NOT NULL)", 0, NULL, NULL, NULL, e);
		bool any = false;
		if (!rc)
			rc = store_exec(st, "SELECT version FROM iogauge_schema", 0, NULL, store_row_seen, &any, e);
		if (!rc && !any)
			rc = store_exec(st, "INSERT INTO iogauge_schema (version) VALUES (0)", 0, NULL, NULL, NULL, e);
	}
	for (long long k = v + 1; !rc && k <= STORE_SCHEMA; k++) {
		char *sql = dialect(ops, migrations[k]), num[32];
		rc = store_exec(st, sql, 0, NULL, NULL, NULL, e);
		free(sql);
		snprintf(num, sizeof(num), "%lld", k);
		struct store_val p = store_txt(num);
		if (!rc)
			rc = store_exec(st, "UPDATE iogauge_schema SET version = $1", 1, &p, NULL, NULL, e);
	}
	if (!rc && v > STORE_SCHEMA)
		rc = err_set(e, EXIT_USAGE, "store %s has schema %lld, newer than this iogauge's %d: update iogauge",
			     st->db.where, v, STORE_SCHEMA);
	return store_end_tx(st, rc, e);
}

struct store *store_open(const char *where, struct ig_err *e)
{
	struct store *st = xcalloc(1, sizeof(*st));
	st->db.ops = is_pg(where) ? &store_pg_ops : &store_sqlite_ops;
	snprintf(st->db.where, sizeof(st->db.where), "%s", where);
	if (st->db.ops->open(&st->db, where, e)) {
		free(st);
		return NULL;
	}
	long long v = 0;
	int rc = schema_version(st, &v, e);
	/* Only a store behind this iogauge's schema takes the write lock to migrate. */
	for (unsigned k = 0; (rc == STORE_BUSY || (!rc && v != STORE_SCHEMA)) && k < STORE_TRIES; k++) {
		if (rc == STORE_BUSY)
			store_backoff(k);
		rc = migrate(st, e);
		if (!rc)
			v = STORE_SCHEMA;
	}
	if (rc == STORE_BUSY)
		err_set(e, EXIT_IOERR, "store %s: busy: another process held it for too long", where);
	if (rc) {
		store_close(st);
		return NULL;
	}
	return st;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	st->db.ops->close(&st->db);
	free(st);
}

const char *store_kind(const struct store *st)
{
	return st->db.ops->name;
}

int store_writable(struct store *st, struct ig_err *e)
{
	return st->db.ops->writable(&st->db, e);
}

