/*
 * The store's schema, its migrations, and every query (store.h), one SQL
 * text for both back ends (store_db.h).  Documents and printed text are
 * kept zstd-compressed (a suite's JSON shrinks about tenfold).
 */
#include "base/common.h"
#include "store/store.h"
#include "store/store_db.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

struct store {
	struct store_db db;
};

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

/* ---- values in and out */

static struct store_val txt(const char *s)
{
	return (struct store_val){ s, s ? strlen(s) : 0, false };
}

static struct store_val blob(const void *p, size_t n)
{
	return (struct store_val){ p ? p : "", n, true };
}

static char *val_dup(const struct store_val *v)
{
	if (!v->p)
		return NULL;
	char *s = xcalloc(1, v->len + 1);
	memcpy(s, v->p, v->len);
	return s;
}

static long long val_ll(const struct store_val *v)
{
	char buf[32];
	size_t n = v->len < sizeof(buf) - 1 ? v->len : sizeof(buf) - 1;
	if (!v->p)
		return 0;
	memcpy(buf, v->p, n);
	buf[n] = 0;
	return strtoll(buf, NULL, 10);
}

static double val_d(const struct store_val *v)
{
	char buf[64];
	size_t n = v->len < sizeof(buf) - 1 ? v->len : sizeof(buf) - 1;
	if (!v->p)
		return 0;
	memcpy(buf, v->p, n);
	buf[n] = 0;
	return strtod(buf, NULL);
}

/* "No such result": status 2, and 1 for the caller (not a store error). */
__attribute__((format(printf, 2, 3))) static int none(struct ig_err *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	e->status = EXIT_USAGE;
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return 1;
}

static int exec(struct store *st, const char *sql, unsigned n, const struct store_val *par, store_row_fn fn,
		void *arg, struct ig_err *e)
{
	return st->db.ops->exec(&st->db, sql, n, par, fn, arg, e);
}

static int get_ll(void *arg, unsigned n, const struct store_val *c)
{
	if (n)
		*(long long *)arg = val_ll(&c[0]);
	return 0;
}

static int found_row(void *arg, unsigned n, const struct store_val *c)
{
	(void)n;
	(void)c;
	*(bool *)arg = true;
	return 0;
}

static void *pack(const char *p, size_t n, size_t *out)
{
	size_t cap = ZSTD_compressBound(n);
	void *z = xcalloc(1, cap ? cap : 1);
	size_t r = ZSTD_compress(z, cap, p, n, 3);
	if (ZSTD_isError(r)) {
		free(z);
		return NULL;
	}
	*out = r;
	return z;
}

/* A stored blob back: NUL-terminated, NULL when it is not a zstd frame of a known size. */
static char *unpack(const struct store_val *v, size_t *len)
{
	if (!v->p)
		return NULL;
	unsigned long long n = ZSTD_getFrameContentSize(v->p, v->len);
	if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN || n > (1ULL << 34))
		return NULL;
	char *s = xcalloc(1, (size_t)n + 1);
	size_t r = ZSTD_decompress(s, (size_t)n, v->p, v->len);
	if (ZSTD_isError(r) || r != n) {
		free(s);
		return NULL;
	}
	*len = (size_t)n;
	return s;
}

/* ---- where, open, schema */

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
	struct store_val name = txt("iogauge_schema");
	int rc = exec(st, st->db.ops->table_exists, 1, &name, found_row, &has, e);
	*v = 0;
	if (!rc && has)
		rc = exec(st, "SELECT version FROM iogauge_schema", 0, NULL, get_ll, v, e);
	return rc;
}

static int migrate(struct store *st, struct ig_err *e)
{
	const struct store_db_ops *ops = st->db.ops;
	long long v = 0;
	int rc = exec(st, ops->begin_write, 0, NULL, NULL, NULL, e);
	if (!rc && ops->lock_schema)
		rc = exec(st, ops->lock_schema, 0, NULL, NULL, NULL, e);
	if (!rc)
		rc = schema_version(st, &v, e);
	if (!rc && !v) {
		rc = exec(st, "CREATE TABLE IF NOT EXISTS iogauge_schema (version INTEGER NOT NULL)", 0, NULL, NULL, NULL, e);
		bool any = false;
		if (!rc)
			rc = exec(st, "SELECT version FROM iogauge_schema", 0, NULL, found_row, &any, e);
		if (!rc && !any)
			rc = exec(st, "INSERT INTO iogauge_schema (version) VALUES (0)", 0, NULL, NULL, NULL, e);
	}
	for (long long k = v + 1; !rc && k <= STORE_SCHEMA; k++) {
		char *sql = dialect(ops, migrations[k]), num[32];
		rc = exec(st, sql, 0, NULL, NULL, NULL, e);
		free(sql);
		snprintf(num, sizeof(num), "%lld", k);
		struct store_val p = txt(num);
		if (!rc)
			rc = exec(st, "UPDATE iogauge_schema SET version = $1", 1, &p, NULL, NULL, e);
	}
	if (!rc && v > STORE_SCHEMA)
		rc = err_set(e, EXIT_USAGE, "store %s has schema %lld, newer than this iogauge's %d: update iogauge",
			     st->db.where, v, STORE_SCHEMA);
	if (!rc)
		rc = exec(st, "COMMIT", 0, NULL, NULL, NULL, e);
	if (rc) {
		struct ig_err ignore = { 0 };
		exec(st, "ROLLBACK", 0, NULL, NULL, NULL, &ignore);
	}
	return rc;
}

/* A short random pause before a transaction is tried again (savers that met must not meet again). */
static void backoff(unsigned attempt)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	unsigned ms = 5 + (unsigned)((ts.tv_nsec / 1000 + getpid()) % (20u << (attempt < 5 ? attempt : 5)));
	usleep(ms * 1000);
}

#define STORE_TRIES 50

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
			backoff(k);
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

/* ---- saving */

static void now_utc(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Figures go in statements of this many rows (one statement each would be a round trip each). */
#define FIG_BATCH 64
#define FIG_COLS 12

static int save_figs(struct store *st, const char *id, const struct store_record *rec, struct ig_err *e)
{
	int rc = 0;
	for (unsigned at = 0; !rc && at < rec->nfigs; at += FIG_BATCH) {
		unsigned n = rec->nfigs - at < FIG_BATCH ? rec->nfigs - at : FIG_BATCH;
		size_t cap = 256 + (size_t)n * 96;
		char *sql = xcalloc(1, cap);
		size_t len = (size_t)snprintf(sql, cap, "INSERT INTO figures (result_id, target, job, dir, metric, name, "
						   "unit, value, min, max, passes, better) VALUES ");
		struct store_val *par = xcalloc((size_t)n * FIG_COLS + 1, sizeof(*par));
		char (*num)[5][32] = xcalloc(n, sizeof(*num));
		unsigned np = 0;
		par[np++] = txt(id);
		for (unsigned i = 0; i < n; i++) {
			const struct store_fig *f = &rec->figs[at + i];
			unsigned b = np;
			snprintf(num[i][0], 32, "%.17g", f->value);
			snprintf(num[i][1], 32, "%.17g", f->min);
			snprintf(num[i][2], 32, "%.17g", f->max);
			snprintf(num[i][3], 32, "%u", f->passes);
			snprintf(num[i][4], 32, "%d", f->better);
			par[np++] = txt(f->target);
			par[np++] = txt(f->job);
			par[np++] = txt(f->dir);
			par[np++] = txt(f->metric);
			par[np++] = txt(f->name);
			par[np++] = txt(f->unit);
			for (unsigned k = 0; k < 5; k++)
				par[np++] = txt(num[i][k]);
			len += (size_t)snprintf(sql + len, cap - len,
						"%s($1, $%u, $%u, $%u, $%u, $%u, $%u, $%u, $%u, $%u, $%u, $%u)", i ? ", " : "",
						b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7, b + 8, b + 9, b + 10, b + 11);
		}
		rc = exec(st, sql, np, par, NULL, NULL, e);
		free(sql);
		free(par);
		free(num);
	}
	return rc;
}

static int save_once(struct store *st, const struct store_record *rec, const void *doc, size_t doc_z,
		     const void *text, size_t text_z, long long *id, struct ig_err *e)
{
	char saved[32], status[32], bytes[32], idtext[32];
	now_utc(saved, sizeof(saved));
	snprintf(status, sizeof(status), "%lld", rec->status);
	snprintf(bytes, sizeof(bytes), "%zu", rec->doc_len);
	struct store_val p[16] = {
		txt(rec->measured), txt(saved), txt(rec->label), txt(rec->host), txt(rec->kernel),
		txt(rec->command), txt(rec->command_line), txt(rec->version), txt(status), txt(rec->format),
		txt(rec->output_format), txt(rec->source), txt(bytes), blob(doc, doc_z),
		text ? blob(text, text_z) : txt(NULL),
	};
	int rc = exec(st, st->db.ops->begin_write, 0, NULL, NULL, NULL, e);
	*id = 0;
	if (!rc)
		rc = exec(st,
			  "INSERT INTO results (measured, saved, label, host, kernel, command, command_line, version, "
			  "status, format, output_format, source, doc_bytes, doc, printed) VALUES ($1, $2, $3, $4, $5, "
			  "$6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id",
			  15, p, get_ll, id, e);
	if (!rc && *id <= 0)
		rc = err_set(e, EXIT_IOERR, "store %s: the new result got no id", st->db.where);
	snprintf(idtext, sizeof(idtext), "%lld", *id);
	for (unsigned i = 0; !rc && i < rec->ntargets; i++) {
		const struct store_target *t = &rec->targets[i];
		char pos[16];
		snprintf(pos, sizeof(pos), "%u", i);
		struct store_val q[7] = { txt(idtext), txt(pos), txt(t->path), txt(t->device ? t->device : ""),
					  txt(t->model ? t->model : ""), txt(t->firmware ? t->firmware : ""),
					  txt(t->fstype ? t->fstype : "") };
		rc = exec(st, "INSERT INTO targets (result_id, pos, path, device, model, firmware, fstype) "
			      "VALUES ($1, $2, $3, $4, $5, $6, $7)", 7, q, NULL, NULL, e);
	}
	if (!rc)
		rc = save_figs(st, idtext, rec, e);
	if (!rc)
		rc = exec(st, "COMMIT", 0, NULL, NULL, NULL, e);
	if (rc) {
		struct ig_err ignore = { 0 };
		exec(st, "ROLLBACK", 0, NULL, NULL, NULL, &ignore);
	}
	return rc;
}

int store_save(struct store *st, const struct store_record *rec, long long *id, struct ig_err *e)
{
	size_t doc_z = 0, text_z = 0;
	void *doc = pack(rec->doc, rec->doc_len, &doc_z), *text = NULL;
	if (!doc || (rec->text && !(text = pack(rec->text, rec->text_len, &text_z)))) {
		free(doc);
		return err_set(e, EXIT_IOERR, "store %s: cannot compress the result", st->db.where);
	}
	int rc = STORE_BUSY;
	for (unsigned k = 0; rc == STORE_BUSY && k < STORE_TRIES; k++) {
		if (k)
			backoff(k);
		rc = save_once(st, rec, doc, doc_z, text, text_z, id, e);
	}
	if (rc == STORE_BUSY)
		rc = err_set(e, EXIT_IOERR, "store %s: busy: other processes held it for too long; the result was not saved",
			     st->db.where);
	free(doc);
	free(text);
	return rc;
}

/* ---- history */

struct list_ctx {
	store_entry_fn fn;
	void *arg;
	const char *targets, *devices, *fstypes;
};

#define LIST_COLS 15

static int list_row(void *arg, unsigned n, const struct store_val *c)
{
	struct list_ctx *x = arg;
	if (n < LIST_COLS)
		return 0;
	char *s[LIST_COLS] = { 0 };
	for (unsigned i = 0; i < LIST_COLS; i++)
		s[i] = c[i].blob ? NULL : val_dup(&c[i]);
	struct store_entry en = {
		.id = val_ll(&c[0]), .measured = s[1], .saved = s[2], .label = s[3], .host = s[4], .kernel = s[5],
		.command = s[6], .command_line = s[7], .version = s[8], .status = val_ll(&c[9]), .format = s[10],
		.source = s[11], .doc_bytes = val_ll(&c[12]), .stored_bytes = val_ll(&c[13]), .nfigs = val_ll(&c[14]),
		.targets = x->targets ? x->targets : "", .devices = x->devices ? x->devices : "",
		.fstypes = x->fstypes ? x->fstypes : "",
	};
	int rc = x->fn(x->arg, &en);
	for (unsigned i = 0; i < LIST_COLS; i++)
		free(s[i]);
	return rc;
}

/*
 * A result's targets, devices and file systems each as one string: built in
 * C, since SQLite's group_concat and PostgreSQL's string_agg differ.
 */
struct agg {
	long long id;
	char *targets, *devices, *fstypes;
	size_t tl, dl, fl;
};

static void add_str(char **s, size_t *len, const char *v)
{
	size_t n = strlen(v), cap = *len + n + 3;
	char *p = realloc(*s, cap);
	if (!p)
		return;
	*s = p;
	*len += (size_t)snprintf(p + *len, cap - *len, "%s%s", *len ? ", " : "", v);
}

static int agg_row(void *arg, unsigned n, const struct store_val *c)
{
	struct agg *a = arg;
	if (n < 5)
		return 0;
	char *path = val_dup(&c[0]), *dev = val_dup(&c[1]), *model = val_dup(&c[2]), *fw = val_dup(&c[3]),
	     *fs = val_dup(&c[4]);
	char d[512];
	if (*model && *fw)
		snprintf(d, sizeof(d), "%s (%s, fw %s)", dev, model, fw);
	else if (*model)
		snprintf(d, sizeof(d), "%s (%s)", dev, model);
	else
		snprintf(d, sizeof(d), "%s", dev);
	add_str(&a->targets, &a->tl, path);
	if (*dev)
		add_str(&a->devices, &a->dl, d);
	if (*fs)
		add_str(&a->fstypes, &a->fl, fs);
	free(path);
	free(dev);
	free(model);
	free(fw);
	free(fs);
	return 0;
}

struct ids {
	long long *v;
	unsigned n, cap;
};

static int id_row(void *arg, unsigned n, const struct store_val *c)
{
	struct ids *x = arg;
	if (!n)
		return 0;
	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 64;
		long long *v = realloc(x->v, x->cap * sizeof(*v));
		if (!v)
			return -1;
		x->v = v;
	}
	x->v[x->n++] = val_ll(&c[0]);
	return 0;
}

/* The ids the filter keeps, newest first. */
static int filter_ids(struct store *st, const struct store_filter *f, struct ids *out, struct ig_err *e)
{
	char sql[1024];
	struct store_val p[8];
	unsigned np = 0;
	size_t n = (size_t)snprintf(sql, sizeof(sql), "SELECT id FROM results WHERE 1 = 1");
#define COND(val, fmt)                                                                  \
	do {                                                                            \
		if ((val) && *(val)) {                                                  \
			p[np++] = txt(val);                                             \
			n += (size_t)snprintf(sql + n, sizeof(sql) - n, fmt, np);       \
		}                                                                       \
	} while (0)
	char idv[32] = "";
	if (f->id)
		snprintf(idv, sizeof(idv), "%lld", f->id);
	const char *idp = idv;
	COND(idp, " AND id = $%u");
	COND(f->label, " AND label = $%u");
	COND(f->host, " AND host = $%u");
	COND(f->command, " AND command = $%u");
	COND(f->since, " AND measured >= $%u");
	COND(f->until, " AND measured < $%u");
	COND(f->target, " AND id IN (SELECT result_id FROM targets WHERE path = $%u)");
#undef COND
	n += (size_t)snprintf(sql + n, sizeof(sql) - n, " ORDER BY measured DESC, id DESC");
	if (f->limit)
		snprintf(sql + n, sizeof(sql) - n, " LIMIT %u", f->limit);
	return exec(st, sql, np, p, id_row, out, e);
}

int store_list(struct store *st, const struct store_filter *f, store_entry_fn fn, void *arg, struct ig_err *e)
{
	struct ids ids = { 0 };
	int rc = filter_ids(st, f, &ids, e);
	for (unsigned i = 0; !rc && i < ids.n; i++) {
		char id[32];
		snprintf(id, sizeof(id), "%lld", ids.v[i]);
		struct store_val p = txt(id);
		struct agg a = { .id = ids.v[i] };
		rc = exec(st, "SELECT path, device, model, firmware, fstype FROM targets WHERE result_id = $1 ORDER BY pos",
			  1, &p, agg_row, &a, e);
		struct list_ctx x = { fn, arg, a.targets, a.devices, a.fstypes };
		if (!rc)
			rc = exec(st,
				  "SELECT id, measured, saved, label, host, kernel, command, command_line, version, status, "
				  "format, source, doc_bytes, length(doc) + coalesce(length(printed), 0), "
				  "(SELECT count(*) FROM figures WHERE result_id = results.id) "
				  "FROM results WHERE id = $1",
				  1, &p, list_row, &x, e);
		free(a.targets);
		free(a.devices);
		free(a.fstypes);
	}
	free(ids.v);
	return rc;
}

/* ---- references */

bool store_label_ok(const char *label)
{
	size_t n = strlen(label);
	bool digits = true;
	if (!n || n > 64)
		return false;
	for (const char *p = label; *p; p++) {
		if (!isalnum((unsigned char)*p) && !strchr("._-+:", *p))
			return false;
		digits &= isdigit((unsigned char)*p) != 0;
	}
	return !digits;
}

/* "~N" at the end of ref: N, and the part before it in base; 0 without. */
static int split_back(const char *ref, char *base, size_t len, long long *back)
{
	const char *t = strrchr(ref, '~');
	*back = 0;
	if (!t) {
		snprintf(base, len, "%s", ref);
		return 0;
	}
	char *end;
	errno = 0;
	long long v = strtoll(t + 1, &end, 10);
	if (!t[1] || *end || errno || v < 0 || !isdigit((unsigned char)t[1]))
		return -1;
	*back = v;
	snprintf(base, len, "%.*s", (int)(t - ref), ref);
	return 0;
}

bool store_ref_like(const char *word)
{
	char base[128];
	long long back;
	if (split_back(word, base, sizeof(base), &back))
		return false;
	if (!strcmp(base, "@last"))
		return true;
	bool digits = *base != 0;
	for (const char *p = base; *p; p++)
		digits &= isdigit((unsigned char)*p) != 0;
	return (digits && !strchr(word, '~')) || store_label_ok(base);
}

int store_resolve(struct store *st, const char *ref, long long *id, struct ig_err *e)
{
	char base[128], off[32];
	long long back;
	*id = 0;
	if (strlen(ref) >= sizeof(base) || split_back(ref, base, sizeof(base), &back) || !store_ref_like(ref))
		return none(e, "%s: not a saved result's reference (ID, LABEL, LABEL~N, @last, @last~N)",
			       ref);
	bool digits = true;
	for (const char *p = base; *p; p++)
		digits &= isdigit((unsigned char)*p) != 0;
	int rc;
	if (digits) {
		struct store_val p = txt(base);
		rc = exec(st, "SELECT id FROM results WHERE id = $1", 1, &p, get_ll, id, e);
		if (!rc && !*id)
			return none(e, "store %s: no result %s", st->db.where, base);
		return rc ? -1 : 0;
	}
	snprintf(off, sizeof(off), "%lld", back);
	if (!strcmp(base, "@last")) {
		struct store_val p = txt(off);
		rc = exec(st, "SELECT id FROM results ORDER BY measured DESC, id DESC LIMIT 1 OFFSET $1", 1, &p, get_ll, id, e);
	} else {
		struct store_val p[2] = { txt(base), txt(off) };
		rc = exec(st, "SELECT id FROM results WHERE label = $1 ORDER BY measured DESC, id DESC LIMIT 1 OFFSET $2", 2,
			  p, get_ll, id, e);
	}
	if (rc)
		return -1;
	if (!*id) {
		if (back)
			err_set(e, EXIT_USAGE, "store %s: no result %s (fewer than %lld saved before the newest%s%s)",
				st->db.where, ref, back + 1, strcmp(base, "@last") ? " of " : "",
				strcmp(base, "@last") ? base : "");
		else if (!strcmp(base, "@last"))
			err_set(e, EXIT_USAGE, "store %s is empty", st->db.where);
		else
			err_set(e, EXIT_USAGE, "store %s: no result labelled %s", st->db.where, base);
		return 1;
	}
	return 0;
}

/* ---- one result */

static int doc_row(void *arg, unsigned n, const struct store_val *c)
{
	struct store_doc *d = arg;
	if (n < 9)
		return 0;
	d->id = val_ll(&c[0]);
	d->label = val_dup(&c[1]);
	d->command = val_dup(&c[2]);
	d->format = val_dup(&c[3]);
	d->output_format = val_dup(&c[4]);
	d->measured = val_dup(&c[5]);
	d->host = val_dup(&c[6]);
	d->doc = unpack(&c[7], &d->doc_len);
	d->text = unpack(&c[8], &d->text_len);
	if (!d->doc)
		return -1;
	return 0;
}

int store_get(struct store *st, long long id, struct store_doc *d, struct ig_err *e)
{
	char num[32];
	memset(d, 0, sizeof(*d));
	snprintf(num, sizeof(num), "%lld", id);
	struct store_val p = txt(num);
	int rc = exec(st, "SELECT id, label, command, format, output_format, measured, host, doc, printed "
			  "FROM results WHERE id = $1", 1, &p, doc_row, d, e);
	if (rc == -1 && !e->status)
		rc = err_set(e, EXIT_IOERR, "store %s: result %lld: its document cannot be read back", st->db.where, id);
	if (rc) {
		store_doc_free(d);
		return -1;
	}
	if (!d->id)
		return none(e, "store %s: no result %lld", st->db.where, id);
	return 0;
}

void store_doc_free(struct store_doc *d)
{
	free(d->label);
	free(d->command);
	free(d->format);
	free(d->output_format);
	free(d->measured);
	free(d->host);
	free(d->doc);
	free(d->text);
	memset(d, 0, sizeof(*d));
}

int store_forget(struct store *st, long long id, struct ig_err *e)
{
	char num[32];
	snprintf(num, sizeof(num), "%lld", id);
	struct store_val p = txt(num);
	int rc = STORE_BUSY;
	long long had = 0;
	for (unsigned k = 0; rc == STORE_BUSY && k < STORE_TRIES; k++) {
		if (k)
			backoff(k);
		rc = exec(st, st->db.ops->begin_write, 0, NULL, NULL, NULL, e);
		had = 0;
		if (!rc)
			rc = exec(st, "SELECT id FROM results WHERE id = $1", 1, &p, get_ll, &had, e);
		if (!rc)
			rc = exec(st, "DELETE FROM figures WHERE result_id = $1", 1, &p, NULL, NULL, e);
		if (!rc)
			rc = exec(st, "DELETE FROM targets WHERE result_id = $1", 1, &p, NULL, NULL, e);
		if (!rc)
			rc = exec(st, "DELETE FROM results WHERE id = $1", 1, &p, NULL, NULL, e);
		if (!rc)
			rc = exec(st, "COMMIT", 0, NULL, NULL, NULL, e);
		if (rc) {
			struct ig_err ignore = { 0 };
			exec(st, "ROLLBACK", 0, NULL, NULL, NULL, &ignore);
		}
	}
	if (rc == STORE_BUSY)
		return err_set(e, EXIT_IOERR, "store %s: busy: other processes held it for too long", st->db.where);
	if (rc)
		return -1;
	return had ? 0 : none(e, "store %s: no result %lld", st->db.where, id);
}

/* ---- figures */

struct figs {
	struct store_fig *v;
	unsigned n, cap;
};

static int fig_row(void *arg, unsigned n, const struct store_val *c)
{
	struct figs *x = arg;
	if (n < 11)
		return 0;
	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 64;
		struct store_fig *v = realloc(x->v, x->cap * sizeof(*v));
		if (!v)
			return -1;
		x->v = v;
	}
	struct store_fig *f = &x->v[x->n++];
	f->target = val_dup(&c[0]);
	f->job = val_dup(&c[1]);
	f->dir = val_dup(&c[2]);
	f->metric = val_dup(&c[3]);
	f->name = val_dup(&c[4]);
	f->unit = val_dup(&c[5]);
	f->value = val_d(&c[6]);
	f->min = val_d(&c[7]);
	f->max = val_d(&c[8]);
	f->passes = (unsigned)val_ll(&c[9]);
	f->better = (int)val_ll(&c[10]);
	return 0;
}

int store_figures(struct store *st, long long id, struct store_fig **out, unsigned *n, struct ig_err *e)
{
	char num[32];
	snprintf(num, sizeof(num), "%lld", id);
	struct store_val p = txt(num);
	struct figs x = { 0 };
	int rc = exec(st, "SELECT target, job, dir, metric, name, unit, value, min, max, passes, better "
			  "FROM figures WHERE result_id = $1", 1, &p, fig_row, &x, e);
	*out = x.v;
	*n = x.n;
	if (rc) {
		store_figs_free(x.v, x.n);
		*out = NULL;
		*n = 0;
		if (!e->status)
			err_set(e, EXIT_IOERR, "store %s: out of memory reading figures", st->db.where);
		return -1;
	}
	return 0;
}

void store_figs_free(struct store_fig *f, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		free(f[i].target);
		free(f[i].job);
		free(f[i].dir);
		free(f[i].metric);
		free(f[i].name);
		free(f[i].unit);
	}
	free(f);
}

struct runs {
	struct store_run *v;
	unsigned n, cap;
};

static int run_row(void *arg, unsigned n, const struct store_val *c)
{
	struct runs *x = arg;
	if (n < 3)
		return 0;
	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 16;
		struct store_run *v = realloc(x->v, x->cap * sizeof(*v));
		if (!v)
			return -1;
		x->v = v;
	}
	struct store_run *r = &x->v[x->n++];
	memset(r, 0, sizeof(*r));
	r->id = val_ll(&c[0]);
	r->measured = val_dup(&c[1]);
	r->host = val_dup(&c[2]);
	return 0;
}

int store_series(struct store *st, const char *label, unsigned max, struct store_run **out, unsigned *n,
		 struct ig_err *e)
{
	char lim[32];
	snprintf(lim, sizeof(lim), "%u", max ? max : 1000000u);
	struct store_val p[2] = { txt(label), txt(lim) };
	struct runs x = { 0 };
	int rc = exec(st, "SELECT id, measured, host FROM results WHERE label = $1 AND status = 0 "
			  "ORDER BY measured DESC, id DESC LIMIT $2", 2, p, run_row, &x, e);
	/* Oldest first. */
	for (unsigned i = 0; i < x.n / 2; i++) {
		struct store_run t = x.v[i];
		x.v[i] = x.v[x.n - 1 - i];
		x.v[x.n - 1 - i] = t;
	}
	for (unsigned i = 0; !rc && i < x.n; i++)
		rc = store_figures(st, x.v[i].id, &x.v[i].figs, &x.v[i].nfigs, e);
	*out = x.v;
	*n = x.n;
	if (rc) {
		store_series_free(x.v, x.n);
		*out = NULL;
		*n = 0;
		if (!e->status)
			err_set(e, EXIT_IOERR, "store %s: out of memory", st->db.where);
		return -1;
	}
	return 0;
}

void store_series_free(struct store_run *r, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		free(r[i].measured);
		free(r[i].host);
		store_figs_free(r[i].figs, r[i].nfigs);
	}
	free(r);
}

struct strs {
	char **v;
	unsigned n, cap;
};

static int str_row(void *arg, unsigned n, const struct store_val *c)
{
	struct strs *x = arg;
	if (!n || !c[0].p)
		return 0;
	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 16;
		char **v = realloc(x->v, x->cap * sizeof(*v));
		if (!v)
			return -1;
		x->v = v;
	}
	x->v[x->n++] = val_dup(&c[0]);
	return 0;
}

int store_labels(struct store *st, char ***out, unsigned *n, struct ig_err *e)
{
	struct strs x = { 0 };
	int rc = exec(st, "SELECT DISTINCT label FROM results WHERE label IS NOT NULL ORDER BY label", 0, NULL, str_row,
		      &x, e);
	*out = x.v;
	*n = x.n;
	if (rc && !e->status)
		err_set(e, EXIT_IOERR, "store %s: out of memory", st->db.where);
	return rc ? -1 : 0;
}
