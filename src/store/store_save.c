/*
 * A result into the store and out of it again (store.h): its row, its
 * targets and its figures in one transaction (a kill at any moment leaves
 * all of it or none), retried while another writer holds the store; and
 * forget, which removes the three in one transaction too.
 */
#include "store/store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		par[np++] = store_txt(id);
		for (unsigned i = 0; i < n; i++) {
			const struct store_fig *f = &rec->figs[at + i];
			unsigned b = np;
			snprintf(num[i][0], 32, "%.17g", f->value);
			snprintf(num[i][1], 32, "%.17g", f->min);
			snprintf(num[i][2], 32, "%.17g", f->max);
			snprintf(num[i][3], 32, "%u", f->passes);
			snprintf(num[i][4], 32, "%d", f->better);
			par[np++] = store_txt(f->target);
			par[np++] = store_txt(f->job);
			par[np++] = store_txt(f->dir);
			par[np++] = store_txt(f->metric);
			par[np++] = store_txt(f->name);
			par[np++] = store_txt(f->unit);
			for (unsigned k = 0; k < 5; k++)
				par[np++] = store_txt(num[i][k]);
			len += (size_t)snprintf(sql + len, cap - len,
						"%s($1, $%u, $%u, $%u, $%u, $%u, $%u, $%u, $%u, $%u, $%u, $%u)", i ? ", " : "",
						b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7, b + 8, b + 9, b + 10, b + 11);
		}
		rc = store_exec(st, sql, np, par, NULL, NULL, e);
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
	store_now_utc(saved, sizeof(saved));
	snprintf(status, sizeof(status), "%lld", rec->status);
	snprintf(bytes, sizeof(bytes), "%zu", rec->doc_len);
	struct store_val p[16] = {
		store_txt(rec->measured), store_txt(saved),	      store_txt(rec->label),
		store_txt(rec->host),	  store_txt(rec->kernel),     store_txt(rec->command),
		store_txt(rec->command_line), store_txt(rec->version), store_txt(status),
		store_txt(rec->format),	  store_txt(rec->output_format), store_txt(rec->source),
		store_txt(bytes),	  store_blob(doc, doc_z),     text ? store_blob(text, text_z) : store_txt(NULL),
	};
	int rc = store_exec(st, st->db.ops->begin_write, 0, NULL, NULL, NULL, e);
	*id = 0;
	if (!rc)
		rc = store_exec(st,
			  "INSERT INTO results (measured, saved, label, host, kernel, command, command_line, version, "
			  "status, format, output_format, source, doc_bytes, doc, printed) VALUES ($1, $2, $3, $4, $5, "
			  "$6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id",
			  15, p, store_row_ll, id, e);
	if (!rc && *id <= 0)
		rc = err_set(e, EXIT_IOERR, "store %s: the new result got no id", st->db.where);
	snprintf(idtext, sizeof(idtext), "%lld", *id);
	for (unsigned i = 0; !rc && i < rec->ntargets; i++) {
		const struct store_target *t = &rec->targets[i];
		char pos[16];
		snprintf(pos, sizeof(pos), "%u", i);
		struct store_val q[7] = { store_txt(idtext),
					  store_txt(pos),
					  store_txt(t->path),
					  store_txt(t->device ? t->device : ""),
					  store_txt(t->model ? t->model : ""),
					  store_txt(t->firmware ? t->firmware : ""),
					  store_txt(t->fstype ? t->fstype : "") };
		rc = store_exec(st, "INSERT INTO targets (result_id, pos, path, device, model, firmware, fstype) "
			      "VALUES ($1, $2, $3, $4, $5, $6, $7)", 7, q, NULL, NULL, e);
	}
	if (!rc)
		rc = save_figs(st, idtext, rec, e);
	return store_end_tx(st, rc, e);
}

int store_save(struct store *st, const struct store_record *rec, long long *id, struct ig_err *e)
{
	size_t doc_z = 0, text_z = 0;
	void *doc = store_pack(rec->doc, rec->doc_len, &doc_z), *text = NULL;
	if (!doc || (rec->text && !(text = store_pack(rec->text, rec->text_len, &text_z)))) {
		free(doc);
		return err_set(e, EXIT_IOERR, "store %s: cannot compress the result", st->db.where);
	}
	int rc = STORE_BUSY;
	for (unsigned k = 0; rc == STORE_BUSY && k < STORE_TRIES; k++) {
		if (k)
			store_backoff(k);
		rc = save_once(st, rec, doc, doc_z, text, text_z, id, e);
	}
	if (rc == STORE_BUSY)
		rc = err_set(e, EXIT_IOERR, "store %s: busy: other processes held it for too long",
			     st->db.where);
	free(doc);
	free(text);
	return rc;
}

int store_forget(struct store *st, long long id, struct ig_err *e)
{
	char num[32];
	snprintf(num, sizeof(num), "%lld", id);
	struct store_val p = store_txt(num);
	int rc = STORE_BUSY;
	long long had = 0;
	for (unsigned k = 0; rc == STORE_BUSY && k < STORE_TRIES; k++) {
		if (k)
			store_backoff(k);
		rc = store_exec(st, st->db.ops->begin_write, 0, NULL, NULL, NULL, e);
		had = 0;
		if (!rc)
			rc = store_exec(st, "SELECT id FROM results WHERE id = $1", 1, &p, store_row_ll, &had, e);
		if (!rc)
			rc = store_exec(st, "DELETE FROM figures WHERE result_id = $1", 1, &p, NULL, NULL, e);
		if (!rc)
			rc = store_exec(st, "DELETE FROM targets WHERE result_id = $1", 1, &p, NULL, NULL, e);
		if (!rc)
			rc = store_exec(st, "DELETE FROM results WHERE id = $1", 1, &p, NULL, NULL, e);
		rc = store_end_tx(st, rc, e);
	}
	if (rc == STORE_BUSY)
		return err_set(e, EXIT_IOERR, "store %s: busy: other processes held it for too long", st->db.where);
	if (rc)
		return -1;
	return had ? 0 : store_none(e, "store %s: no result %lld", st->db.where, id);
}
