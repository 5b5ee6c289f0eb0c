/*
 * The store in a PostgreSQL database through libpq (store_db.h): a team's
 * store, the same schema as SQLite's.  The connection string is a URL
 * (postgresql://USER@HOST:PORT/DB?host=/run/postgresql ...); a password in
 * it is refused (it would be seen in ps, in shell history and in the saved
 * command line): libpq reads it from $PGPASSFILE or ~/.pgpass.  Blobs go in
 * binary and come back in bytea's hex text.
 */
#include "base/common.h"
#include "store/store_db.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BYTEAOID 17

static int pg_open(struct store_db *db, const char *where, struct ig_err *e)
{
	char *perr = NULL;
	PQconninfoOption *opts = PQconninfoParse(where, &perr);
	if (!opts) {
		err_set(e, EXIT_USAGE, "--db %s: %s", where, perr ? perr : "not a connection string");
		for (char *p = e->msg; *p; p++)
			if (*p == '\n')
				*p = ' ';
		PQfreemem(perr);
		return -1;
	}
	bool password = false;
	for (PQconninfoOption *o = opts; o->keyword; o++)
		if (!strcmp(o->keyword, "password") && o->val && *o->val)
			password = true;
	PQconninfoFree(opts);
	if (password)
		return err_set(e, EXIT_USAGE,
			       "--db: the connection string holds a password: refused (it would show in ps, in the shell's "
			       "history and in the saved command line); put it in ~/.pgpass or $PGPASSFILE");
	PGconn *c = PQconnectdb(where);
	if (PQstatus(c) != CONNECTION_OK) {
		char msg[512];
		snprintf(msg, sizeof(msg), "%s", PQerrorMessage(c));
		for (char *p = msg; *p; p++)
			if (*p == '\n')
				*p = *(p + 1) ? ' ' : 0;
		PQfinish(c);
		return err_set(e, EXIT_IOERR, "store %s: cannot connect: %s", db->where, msg);
	}
	/* The schema's notices (IF NOT EXISTS ... skipping) are not the user's business. */
	PQclear(PQexec(c, "SET client_min_messages = warning"));
	db->h = c;
	return 0;
}

static void pg_close(struct store_db *db)
{
	PQfinish(db->h);
	db->h = NULL;
}

static int pg_exec(struct store_db *db, const char *sql, unsigned n, const struct store_val *par, store_row_fn fn,
		   void *arg, struct ig_err *e)
{
	PGconn *c = db->h;
	/* A connection held through a long run may have been cut (a server restart, an idle timeout): once more. */
	if (PQstatus(c) == CONNECTION_BAD)
		PQreset(c);
	const char **vals = n ? xcalloc(n, sizeof(*vals)) : NULL;
	int *lens = n ? xcalloc(n, sizeof(*lens)) : NULL, *fmts = n ? xcalloc(n, sizeof(*fmts)) : NULL;
	char **own = n ? xcalloc(n, sizeof(*own)) : NULL;
	for (unsigned i = 0; i < n; i++) {
		if (par[i].p && !par[i].blob) {
			/* libpq's text parameters end at a NUL: a copy of exactly len bytes. */
			own[i] = xcalloc(1, par[i].len + 1);
			memcpy(own[i], par[i].p, par[i].len);
		}
		vals[i] = par[i].blob ? par[i].p : own[i];
		lens[i] = (int)par[i].len;
		fmts[i] = par[i].blob;
	}
	/* Several statements (a migration step) go as one simple query, without parameters. */
	PGresult *r = n ? PQexecParams(c, sql, (int)n, NULL, vals, lens, fmts, 0) : PQexec(c, sql);
	for (unsigned i = 0; i < n; i++)
		free(own[i]);
	free(own);
	free(vals);
	free(lens);
	free(fmts);
	ExecStatusType st = PQresultStatus(r);
	int ret = 0;
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
		char msg[512];
		snprintf(msg, sizeof(msg), "%s", PQresultErrorMessage(r));
		for (char *p = msg; *p; p++)
			if (*p == '\n')
				*p = *(p + 1) ? ' ' : 0;
		/* 40001 serialization failure, 40P01 deadlock: the transaction is to be retried. */
		if (state && (!strcmp(state, "40001") || !strcmp(state, "40P01")))
			ret = STORE_BUSY;
		else
			ret = err_set(e, PQstatus(c) == CONNECTION_OK && state && strncmp(state, "53", 2) ? EXIT_USAGE :
										     EXIT_IOERR,
				      "store %s: %s", db->where, msg);
		PQclear(r);
		return ret;
	}
	int rows = PQntuples(r), nc = PQnfields(r);
	if (nc > 32)
		nc = 32;
	for (int i = 0; i < rows && !ret && fn; i++) {
		struct store_val cols[32];
		unsigned char *bin[32] = { 0 };
		for (int k = 0; k < nc; k++) {
			memset(&cols[k], 0, sizeof(cols[k]));
			if (PQgetisnull(r, i, k))
				continue;
			if (PQftype(r, k) == BYTEAOID) {
				size_t len = 0;
				bin[k] = PQunescapeBytea((const unsigned char *)PQgetvalue(r, i, k), &len);
				cols[k].p = bin[k] ? (const void *)bin[k] : "";
				cols[k].len = bin[k] ? len : 0;
				cols[k].blob = true;
			} else {
				cols[k].p = PQgetvalue(r, i, k);
				cols[k].len = (size_t)PQgetlength(r, i, k);
			}
		}
		ret = fn(arg, (unsigned)nc, cols);
		for (int k = 0; k < nc; k++)
			PQfreemem(bin[k]);
	}
	PQclear(r);
	return ret;
}

/* A standby or a read-only session refuses writes; the schema's privileges are the server's to check at the save. */
static int pg_writable(struct store_db *db, struct ig_err *e)
{
	PGresult *r = PQexec(db->h, "SELECT current_setting('transaction_read_only')");
	bool ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && !strcmp(PQgetvalue(r, 0, 0), "off");
	PQclear(r);
	return ok ? 0 : err_set(e, EXIT_USAGE, "store %s is read-only (a standby, or a read-only session)", db->where);
}

const struct store_db_ops store_pg_ops = {
	.name = "postgresql",
	.id_type = "BIGSERIAL PRIMARY KEY",
	.blob_type = "BYTEA",
	.begin_write = "BEGIN",
	/* Two first opens at once: one creates the schema, the other waits and finds it. */
	.lock_schema = "SELECT pg_advisory_xact_lock(7352048229)",
	.table_exists = "SELECT to_regclass($1)::text WHERE to_regclass($1) IS NOT NULL",
	.open = pg_open,
	.close = pg_close,
	.writable = pg_writable,
	.exec = pg_exec,
};
