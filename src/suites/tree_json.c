/* tree's JSON object, its --hash-out lines, and its object read back from a saved result (tree_int.h). */
#include "base/common.h"
#include "base/result_keys.h"
#include "base/compress.h"
#include "base/digest.h"
#include "suite/suite.h"
#include "run/tree.h"
#include "base/userfile.h"
#include "suites/tree_int.h"
#include "suites/tree_opts.h"
#include "report/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON: the tree, what each run met, the curve and its best stream count */

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *ig_json_walk(const struct tree_job *tj)
{
	const struct tree_walk *w = &tj->walk;
	json_t *o = json_object();
	json_object_set_new(o, "root", ig_json_text(tj->root));
	json_object_set_new(o, "dirs", ig_json_u64(w->dirs));
	json_object_set_new(o, "files", ig_json_u64(w->files));
	json_object_set_new(o, "bytes", ig_json_u64(w->bytes));
	json_object_set_new(o, "items", ig_json_u64(w->items));
	json_object_set_new(o, "symlinks", ig_json_u64(w->symlinks));
	json_object_set_new(o, "fifos", ig_json_u64(w->fifos));
	json_object_set_new(o, "sockets", ig_json_u64(w->sockets));
	json_object_set_new(o, "chardevs", ig_json_u64(w->chardevs));
	json_object_set_new(o, "blockdevs", ig_json_u64(w->blockdevs));
	json_object_set_new(o, "other_fs", ig_json_u64(w->other_fs));
	json_object_set_new(o, "unreadable", ig_json_u64(w->unreadable));
	json_object_set_new(o, RK_FIRST_UNREADABLE, w->unreadable ? ig_json_text(w->first_unreadable) : json_null());
	json_object_set_new(o, "vanished", ig_json_u64(w->vanished));
	json_object_set_new(o, "walk_ns", ig_json_u64(w->walk_ns));
	return o;
}

static json_t *ig_json_built(const struct suite_run *sr, const struct tree_job *tj)
{
	if (!tj->built)
		return json_null();
	json_t *o = json_object();
	char d[128];
	data_print(&tj->make->data, d, sizeof(d));
	json_object_set_new(o, "files", ig_json_u64(tj->make->files));
	json_object_set_new(o, "size_min", ig_json_u64(tj->make->size_lo));
	json_object_set_new(o, "size_max", ig_json_u64(tj->make->size_hi));
	json_object_set_new(o, "files_per_dir", json_integer(tj->make->per_dir));
	json_object_set_new(o, "fanout", json_integer(tj->make->fanout));
	json_object_set_new(o, "seed", ig_json_u64(tj->make->seed));
	json_object_set_new(o, "data", json_string(d));
	json_object_set_new(o, "bytes", ig_json_u64(tj->build_bytes));
	json_object_set_new(o, "build_ns", ig_json_u64(tj->build_ns));
	json_object_set_new(o, "kept", json_boolean(sr->s->keep));
	return o;
}

static json_t *ig_json_run(const struct tree_job *tj, const struct tree_case *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "files", ig_json_u64(r->files));
	json_object_set_new(o, "bytes", ig_json_u64(r->bytes));
	json_object_set_new(o, "vanished", ig_json_u64(r->vanished));
	json_object_set_new(o, "changed", ig_json_u64(r->changed));
	json_object_set_new(o, "unreadable", ig_json_u64(r->unreadable));
	if (r->first_unreadable) {
		char name[PATH_MAX + 64];
		tree_describe(tj, r->first_unreadable - 1, name, sizeof(name));
		json_object_set_new(o, RK_FIRST_UNREADABLE, ig_json_text(name));
	} else {
		json_object_set_new(o, RK_FIRST_UNREADABLE, json_null());
	}
	json_object_set_new(o, "hash_bytes", ig_json_u64(r->hash_bytes));
	json_object_set_new(o, "hash_ns", ig_json_u64(r->hash_ns));
	json_object_set_new(o, "compress_in", ig_json_u64(r->comp_in));
	json_object_set_new(o, "compress_out", ig_json_u64(r->comp_out));
	json_object_set_new(o, "compress_ns", ig_json_u64(r->comp_ns));
	json_object_set_new(o, "compress_failed", ig_json_u64(r->comp_failed));
	json_object_set_new(o, "resident_before", json_integer(r->resident));
	json_object_set_new(o, "invalidate_ns", ig_json_u64(r->invalidate_ns));
	return o;
}

static json_t *ig_json_step(const struct suite_run *sr, unsigned t, const struct curve *k, int c)
{
	if (c < 0)
		return json_null();
	const struct step *s = &k->steps[c];
	json_t *o = json_object();
	json_object_set_new(o, RK_CASE, json_string(sr->suite->cases[c].name));
	json_object_set_new(o, "streams", json_integer(s->streams));
	json_object_set_new(o, RK_MEASURED, json_boolean(s->measured));
	if (s->measured) {
		json_object_set_new(o, "files", num_or_null(s->files));
		json_object_set_new(o, "bytes", num_or_null(s->bytes));
		json_object_set_new(o, "mb_s", json_real(s->mbs));
		json_object_set_new(o, "files_s", num_or_null(s->secs > 0 ? s->files / s->secs : NAN));
		json_object_set_new(o, "lat_mean_ns", json_real(s->mean_ns));
		json_object_set_new(o, "lat_p99_ns", json_real(s->p99_ns));
		json_object_set_new(o, "cpu_pct", json_real(s->cpu));
		json_object_set_new(o, "outstanding", json_real(s->little));
		json_object_set_new(o, "outstanding_io", json_real(s->little_io));
		json_object_set_new(o, "read_mb_s", num_or_null(s->read_mbs));
		json_object_set_new(o, "hash_mb_s", num_or_null(s->hash_mbs));
		json_object_set_new(o, "compress_ratio", num_or_null(s->ratio));
		json_object_set_new(o, "compress_mb_s", num_or_null(s->comp_mbs));
		json_object_set_new(o, "resident_before", num_or_null(s->resident));
	}
	json_t *runs = json_array();
	const struct tree_priv *p = priv_of(sr);
	for (unsigned pass = 0; pass < sr->s->passes; pass++) {
		const struct tree_case *r = run_at(sr, t, pass, (unsigned)c);
		json_array_append_new(runs, r && r->done ? ig_json_run(&p->trees[t], r) : json_null());
	}
	json_object_set_new(o, RK_PASSES, runs);
	return o;
}

json_t *tree_json(const struct suite_run *sr)
{
	const struct tree_opts *opt = tree_opts_c(sr->s);
	const struct tree_priv *p = priv_of(sr);
	json_t *o = json_object(), *targets = json_array();
	json_object_set_new(o, "rule",
			    json_string("stream counts in increasing order; files in work by Little's law (files/s x "
					"the mean time a file takes its stream: its I/O, checksum and compression); the "
					"best is the knee: the last count before the first whose MB/s per added file in "
					"work falls under the threshold at which MB/s and the time a file takes grow by "
					"the same factor"));
	json_object_set_new(o, "hash", json_string(digest_names[opt->hash]));
	json_object_set_new(o, "compress", json_string(compress_names[opt->compress]));
	json_object_set_new(o, "compress_level",
			    json_integer(opt->compress ? (opt->level ? opt->level : compress_default_level(opt->compress)) : 0));
	json_object_set_new(o, "cache_dropped", json_boolean(sr->base->invalidate));
	for (unsigned t = 0; p && t < sr->ntargets; t++) {
		json_t *x = json_object(), *steps = json_array();
		const struct tree_job *tj = &p->trees[t];
		struct curve k;
		tree_analyse(sr, t, &k);
		json_object_set_new(x, RK_PATH, ig_json_text(sr->targets[t].shown));
		json_object_set_new(x, RK_TREE, tj->walked ? ig_json_walk(tj) : json_null());
		json_object_set_new(x, "built", ig_json_built(sr, tj));
		for (unsigned c = 0; c < k.n; c++)
			json_array_append_new(steps, ig_json_step(sr, t, &k, (int)c));
		json_object_set_new(x, "steps", steps);
		json_object_set_new(x, "best", ig_json_step(sr, t, &k, k.knee));
		json_t *next = ig_json_step(sr, t, &k, k.next);
		if (k.next >= 0) {
			json_object_set_new(next, "gain_mb_s_per_file", json_real(k.gain));
			json_object_set_new(next, "threshold_mb_s_per_file", json_real(k.threshold));
		}
		json_object_set_new(x, "next", next);
		json_array_append_new(targets, x);
		free(k.steps);
	}
	json_object_set_new(o, RK_TARGETS, targets);
	return o;
}

/* ---- --hash-out: the lines md5sum, sha256sum and xxhsum print and check */

/*
 * md5sum's escaping: a name with a backslash or a newline is written escaped,
 * the line starting with '\' (sha256sum's too; crc32c has no tool: the same).
 * xxhsum 0.8 writes every name as it is, and so do we for xxhash.
 */
static void hash_line(FILE *f, const char *hex, const char *root, const char *rel, bool escapes)
{
	char path[2 * PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	bool esc = escapes && strpbrk(path, "\\\n\r") != NULL;
	fprintf(f, "%s%s  ", esc ? "\\" : "", hex);
	for (const char *c = path; *c; c++) {
		if (esc && *c == '\\')
			fputs("\\\\", f);
		else if (esc && *c == '\n')
			fputs("\\n", f);
		else if (esc && *c == '\r')
			fputs("\\r", f);
		else
			fputc(*c, f);
	}
	fputc('\n', f);
}

int tree_write_hashes(const struct suite_run *sr, bool check_only, struct ig_err *e)
{
	const struct tree_priv *p = priv_of(sr);
	const char *out = tree_opts_c(sr->s)->hash_out;
	size_t dl = digest_len(tree_opts_c(sr->s)->hash);
	if (!out[0] || check_only)
		return out[0] ? outfile_check("--hash-out", out, e) : 0;
	if (!p)
		return 0;
	FILE *f = outfile_open("--hash-out", out, false, e);
	if (!f) {
		e->status = EXIT_IOERR; /* checked before the run: what fails now fails at the end */
		return -1;
	}
	for (unsigned t = 0; t < p->ntargets; t++) {
		const struct tree_job *tj = &p->trees[t];
		char rel[PATH_MAX], hex[2 * DIGEST_MAX + 1];
		/* The root as the user named it (a built tree: its own directory). */
		const char *root = tj->make ? tj->root : sr->targets[t].shown;
		for (uint64_t i = 0; tj->digests && i < tj->nitems; i++) {
			if (!(tj->items[i].seg & TREE_LAST) || !tj->have[i] || !tree_item_path(tj, i, rel))
				continue;
			digest_hex(tj->digests + i * DIGEST_MAX, dl, hex);
			hash_line(f, hex, root, rel, tree_opts_c(sr->s)->hash != DIGEST_XXHASH);
		}
	}
	if (fclose(f))
		return err_set(e, EXIT_IOERR, "--hash-out: %s: %s", out, strerror(errno));
	return 0;
}

/* ---- a saved result: the tree object back into the suite's state, for print */

static void load_walk(struct tree_job *tj, const json_t *w)
{
	struct tree_walk *k = &tj->walk;
	const char *s = json_string_value(json_object_get(w, "root"));
	snprintf(tj->root, sizeof(tj->root), "%s", s ? s : "");
	k->dirs = rk_u64(w, "dirs");
	k->files = rk_u64(w, "files");
	k->bytes = rk_u64(w, "bytes");
	k->items = rk_u64(w, "items");
	k->symlinks = rk_u64(w, "symlinks");
	k->fifos = rk_u64(w, "fifos");
	k->sockets = rk_u64(w, "sockets");
	k->chardevs = rk_u64(w, "chardevs");
	k->blockdevs = rk_u64(w, "blockdevs");
	k->other_fs = rk_u64(w, "other_fs");
	k->unreadable = rk_u64(w, "unreadable");
	k->vanished = rk_u64(w, "vanished");
	k->walk_ns = rk_u64(w, "walk_ns");
	s = json_string_value(json_object_get(w, RK_FIRST_UNREADABLE));
	snprintf(k->first_unreadable, sizeof(k->first_unreadable), "%s", s ? s : "");
	tj->walked = true;
}

static int load_built(struct tree_priv *p, struct tree_job *tj, const json_t *b, struct ig_err *e)
{
	struct tree_make *m = &p->make;
	char err[256];
	m->files = rk_u64(b, "files");
	m->size_lo = rk_u64(b, "size_min");
	m->size_hi = rk_u64(b, "size_max");
	m->per_dir = (unsigned)rk_u64(b, "files_per_dir");
	m->fanout = (unsigned)rk_u64(b, "fanout");
	m->seed = rk_u64(b, "seed");
	const char *d = json_string_value(json_object_get(b, "data"));
	if (data_parse(d ? d : "random", &m->data, "data", err, sizeof(err)))
		return err_set(e, EXIT_USAGE, "saved tree: %s", err);
	tj->make = m;
	tj->built = true;
	tj->build_bytes = rk_u64(b, "bytes");
	tj->build_ns = rk_u64(b, "build_ns");
	p->kept = json_is_true(json_object_get(b, "kept"));
	return 0;
}

static void load_run(struct tree_priv *p, unsigned t, struct tree_case *r, const json_t *o)
{
	r->files = rk_u64(o, "files");
	r->bytes = rk_u64(o, "bytes");
	r->vanished = rk_u64(o, "vanished");
	r->changed = rk_u64(o, "changed");
	r->unreadable = rk_u64(o, "unreadable");
	r->hash_bytes = rk_u64(o, "hash_bytes");
	r->hash_ns = rk_u64(o, "hash_ns");
	r->comp_in = rk_u64(o, "compress_in");
	r->comp_out = rk_u64(o, "compress_out");
	r->comp_ns = rk_u64(o, "compress_ns");
	r->comp_failed = rk_u64(o, "compress_failed");
	r->resident = (int64_t)json_number_value(json_object_get(o, "resident_before"));
	r->invalidate_ns = rk_u64(o, "invalidate_ns");
	const char *bad = json_string_value(json_object_get(o, RK_FIRST_UNREADABLE));
	if (bad) {
		r->first_unreadable = 1; /* named by p->bad: the saved tree has no items */
		if (!p->bad[t])
			p->bad[t] = xstrdup(bad);
	}
	r->done = true;
}

int tree_load(struct suite_run *sr, const json_t *own, struct ig_err *e)
{
	if (!json_is_object(own))
		return 0; /* the figures alone */
	struct tree_priv *p = xcalloc(1, sizeof(*p));
	p->ntargets = sr->ntargets;
	p->npasses = sr->s->passes;
	p->ncases = sr->suite->ncases;
	p->trees = xcalloc(p->ntargets ? p->ntargets : 1, sizeof(*p->trees));
	p->bad = xcalloc(p->ntargets ? p->ntargets : 1, sizeof(*p->bad));
	p->runs = xcalloc((size_t)p->ntargets * p->npasses * p->ncases + 1, sizeof(*p->runs));
	for (unsigned t = 0; t < p->ntargets; t++)
		tree_job_init(&p->trees[t]);
	sr->priv = p;
	size_t t;
	const json_t *x;
	json_array_foreach(json_object_get(own, RK_TARGETS), t, x) {
		if (t >= p->ntargets)
			break;
		struct tree_job *tj = &p->trees[t];
		if (json_is_object(json_object_get(x, RK_TREE)))
			load_walk(tj, json_object_get(x, RK_TREE));
		if (json_is_object(json_object_get(x, "built")) && load_built(p, tj, json_object_get(x, "built"), e))
			return -1;
		size_t c;
		const json_t *step;
		json_array_foreach(json_object_get(x, "steps"), c, step) {
			size_t pass;
			const json_t *run;
			json_array_foreach(json_object_get(step, RK_PASSES), pass, run) {
				struct tree_case *r = run_at(sr, (unsigned)t, (unsigned)pass, (unsigned)c);
				if (r && json_is_object(run))
					load_run(p, (unsigned)t, r, run);
			}
		}
	}
	return 0;
}
