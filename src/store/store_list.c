/*
 * history's list (store.h): the results a filter keeps, newest first, each
 * with its targets, devices and file systems.
 */
#include "store/store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		s[i] = c[i].blob ? NULL : store_val_dup(&c[i]);
	struct store_entry en = {
		.id = store_val_ll(&c[0]), .measured = s[1], .saved = s[2], .label = s[3], .host = s[4], .kernel = s[5],
		.command = s[6], .command_line = s[7], .version = s[8], .status = store_val_ll(&c[9]), .format = s[10],
		.source = s[11], .doc_bytes = store_val_ll(&c[12]), .stored_bytes = store_val_ll(&c[13]), .nfigs = store_val_ll(&c[14]),
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
	char *path = store_val_dup(&c[0]), *dev = store_val_dup(&c[1]), *model = store_val_dup(&c[2]), *fw = store_val_dup(&c[3]),
	     *fs = store_val_dup(&c[4]);
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
	x->v[x->n++] = store_val_ll(&c[0]);
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
			p[np++] = store_txt(val);                                             \
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
	return store_exec(st, sql, np, p, id_row, out, e);
}

int store_list(struct store *st, const struct store_filter *f, store_entry_fn fn, void *arg, struct ig_err *e)
{
	struct ids ids = { 0 };
	int rc = filter_ids(st, f, &ids, e);
	for (unsigned i = 0; !rc && i < ids.n; i++) {
		char id[32];
		snprintf(id, sizeof(id), "%lld", ids.v[i]);
		struct store_val p = store_txt(id);
		struct agg a = { .id = ids.v[i] };
		rc = store_exec(st, "SELECT path, device, model, firmware, fstype FROM targets WHERE result_id = $1 ORDER BY pos",
			  1, &p, agg_row, &a, e);
		struct list_ctx x = { fn, arg, a.targets, a.devices, a.fstypes };
		if (!rc)
			rc = store_exec(st,
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

