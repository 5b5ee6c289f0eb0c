/*
 * Saved results read back (store.h): one result's document, its figures,
 * a label's series of results with their figures (check, report --trend,
 * OpenMetrics) and the labels in the store.
 */
#include "store/store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int doc_row(void *arg, unsigned n, const struct store_val *c)
{
	struct store_doc *d = arg;
	if (n < 10)
		return 0;
	d->id = store_val_ll(&c[0]);
	d->label = store_val_dup(&c[1]);
	d->command = store_val_dup(&c[2]);
	d->format = store_val_dup(&c[3]);
	d->output_format = store_val_dup(&c[4]);
	d->measured = store_val_dup(&c[5]);
	d->host = store_val_dup(&c[6]);
	d->doc = store_unpack(&c[7], &d->doc_len);
	d->text = store_unpack(&c[8], &d->text_len);
	d->source = store_val_dup(&c[9]);
	if (!d->doc)
		return -1;
	return 0;
}

int store_get(struct store *st, long long id, struct store_doc *d, struct ig_err *e)
{
	char num[32];
	memset(d, 0, sizeof(*d));
	snprintf(num, sizeof(num), "%lld", id);
	struct store_val p = store_txt(num);
	int rc = store_exec(st, "SELECT id, label, command, format, output_format, measured, host, doc, printed, "
			  "source FROM results WHERE id = $1", 1, &p, doc_row, d, e);
	if (rc == -1 && !e->status)
		rc = err_set(e, EXIT_IOERR, "store %s: result %lld: its document cannot be read back", st->db.where, id);
	if (rc) {
		store_doc_free(d);
		return -1;
	}
	if (!d->id)
		return store_none(e, "store %s: no result %lld", st->db.where, id);
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
	free(d->source);
	free(d->doc);
	free(d->text);
	memset(d, 0, sizeof(*d));
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
	f->target = store_val_dup(&c[0]);
	f->job = store_val_dup(&c[1]);
	f->dir = store_val_dup(&c[2]);
	f->metric = store_val_dup(&c[3]);
	f->name = store_val_dup(&c[4]);
	f->unit = store_val_dup(&c[5]);
	f->value = store_val_d(&c[6]);
	f->min = store_val_d(&c[7]);
	f->max = store_val_d(&c[8]);
	f->passes = (unsigned)store_val_ll(&c[9]);
	f->better = (int)store_val_ll(&c[10]);
	return 0;
}

int store_figures(struct store *st, long long id, struct store_fig **out, unsigned *n, struct ig_err *e)
{
	char num[32];
	snprintf(num, sizeof(num), "%lld", id);
	struct store_val p = store_txt(num);
	struct figs x = { 0 };
	int rc = store_exec(st, "SELECT target, job, dir, metric, name, unit, value, min, max, passes, better "
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
	r->id = store_val_ll(&c[0]);
	r->measured = store_val_dup(&c[1]);
	r->host = store_val_dup(&c[2]);
	return 0;
}

int store_series(struct store *st, const char *label, unsigned max, struct store_run **out, unsigned *n,
		 struct ig_err *e)
{
	char lim[32];
	snprintf(lim, sizeof(lim), "%u", max ? max : 1000000u);
	struct store_val p[2] = { store_txt(label), store_txt(lim) };
	struct runs x = { 0 };
	int rc = store_exec(st, "SELECT id, measured, host FROM results WHERE label = $1 AND status = 0 "
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
	x->v[x->n++] = store_val_dup(&c[0]);
	return 0;
}

int store_labels(struct store *st, char ***out, unsigned *n, struct ig_err *e)
{
	struct strs x = { 0 };
	int rc = store_exec(st, "SELECT DISTINCT label FROM results WHERE label IS NOT NULL ORDER BY label", 0, NULL, str_row,
		      &x, e);
	*out = x.v;
	*n = x.n;
	if (rc && !e->status)
		err_set(e, EXIT_IOERR, "store %s: out of memory", st->db.where);
	return rc ? -1 : 0;
}
