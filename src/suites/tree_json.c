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
#include "report/result_read.h"

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
	json_object_set_new(o, RK_ROOT, ig_json_text(tj->root));
	json_object_set_new(o, RK_DIRS, ig_json_u64(w->dirs));
	json_object_set_new(o, RK_FILES, ig_json_u64(w->files));
	json_object_set_new(o, RK_BYTES, ig_json_u64(w->bytes));
	json_object_set_new(o, RK_ITEMS, ig_json_u64(w->items));
	json_object_set_new(o, RK_SYMLINKS, ig_json_u64(w->symlinks));
	json_object_set_new(o, RK_FIFOS, ig_json_u64(w->fifos));
	json_object_set_new(o, RK_SOCKETS, ig_json_u64(w->sockets));
	json_object_set_new(o, RK_CHARDEVS, ig_json_u64(w->chardevs));
	json_object_set_new(o, RK_BLOCKDEVS, ig_json_u64(w->blockdevs));
	json_object_set_new(o, RK_OTHER_FS, ig_json_u64(w->other_fs));
	json_object_set_new(o, RK_UNREADABLE, ig_json_u64(w->unreadable));
	json_object_set_new(o, RK_FIRST_UNREADABLE, w->unreadable ? ig_json_text(w->first_unreadable) : json_null());
	json_object_set_new(o, RK_VANISHED, ig_json_u64(w->vanished));
	json_object_set_new(o, RK_WALK_NS, ig_json_u64(w->walk_ns));
	return o;
}

static json_t *ig_json_built(const struct suite_run *sr, const struct tree_job *tj)
{
	if (!tj->built)
		return json_null();
	json_t *o = json_object();
	char d[128];
	data_print(&tj->make->data, d, sizeof(d));
	json_object_set_new(o, RK_FILES, ig_json_u64(tj->make->files));
	json_object_set_new(o, RK_SIZE_MIN, ig_json_u64(tj->make->size_lo));
	json_object_set_new(o, RK_SIZE_MAX, ig_json_u64(tj->make->size_hi));
	json_object_set_new(o, RK_FILES_PER_DIR, json_integer(tj->make->per_dir));
	json_object_set_new(o, RK_FANOUT, json_integer(tj->make->fanout));
	json_object_set_new(o, RK_SEED, ig_json_u64(tj->make->seed));
	json_object_set_new(o, RK_DATA, json_string(d));
	json_object_set_new(o, RK_BYTES, ig_json_u64(tj->build_bytes));
	json_object_set_new(o, RK_BUILD_NS, ig_json_u64(tj->build_ns));
	json_object_set_new(o, RK_KEPT, json_boolean(sr->s->keep));
	return o;
}

static json_t *ig_json_run(const struct tree_job *tj, const struct tree_case *r)
{
	json_t *o = json_object();
	json_object_set_new(o, RK_FILES, ig_json_u64(r->files));
	json_object_set_new(o, RK_BYTES, ig_json_u64(r->bytes));
	json_object_set_new(o, RK_VANISHED, ig_json_u64(r->vanished));
	json_object_set_new(o, RK_CHANGED, ig_json_u64(r->changed));
	json_object_set_new(o, RK_UNREADABLE, ig_json_u64(r->unreadable));
	if (r->first_unreadable) {
		char name[PATH_MAX + 64];
		tree_describe(tj, r->first_unreadable - 1, name, sizeof(name));
		json_object_set_new(o, RK_FIRST_UNREADABLE, ig_json_text(name));
	} else {
		json_object_set_new(o, RK_FIRST_UNREADABLE, json_null());
	}
	json_object_set_new(o, RK_HASH_BYTES, ig_json_u64(r->hash_bytes));
	json_object_set_new(o, RK_HASH_NS, ig_json_u64(r->hash_ns));
	json_object_set_new(o, RK_COMPRESS_IN, ig_json_u64(r->comp_in));
	json_object_set_new(o, RK_COMPRESS_OUT, ig_json_u64(r->comp_out));
	json_object_set_new(o, RK_COMPRESS_NS, ig_json_u64(r->comp_ns));
	json_object_set_new(o, RK_COMPRESS_FAILED, ig_json_u64(r->comp_failed));
	json_object_set_new(o, RK_RESIDENT, json_integer(r->resident));
	json_object_set_new(o, RK_INVALIDATE_NS, ig_json_u64(r->invalidate_ns));
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
		json_object_set_new(o, RK_FILES, num_or_null(s->files));
		json_object_set_new(o, RK_BYTES, num_or_null(s->bytes));
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
		json_object_set_new(o, RK_RESIDENT, num_or_null(s->resident));
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
		json_object_set_new(x, RK_BUILT, ig_json_built(sr, tj));
		for (unsigned c = 0; c < k.n; c++)
			json_array_append_new(steps, ig_json_step(sr, t, &k, (int)c));
		json_object_set_new(x, RK_STEPS, steps);
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

static void load_walk(struct tree_job *tj, const struct result_tree_walk *w)
{
	struct tree_walk *k = &tj->walk;
	snprintf(tj->root, sizeof(tj->root), "%s", w->root);
	k->dirs = w->dirs;
	k->files = w->files;
	k->bytes = w->bytes;
	k->items = w->items;
	k->symlinks = w->symlinks;
	k->fifos = w->fifos;
	k->sockets = w->sockets;
	k->chardevs = w->chardevs;
	k->blockdevs = w->blockdevs;
	k->other_fs = w->other_fs;
	k->unreadable = w->unreadable;
	k->vanished = w->vanished;
	k->walk_ns = w->walk_ns;
	snprintf(k->first_unreadable, sizeof(k->first_unreadable), "%s", w->first_unreadable ? w->first_unreadable : "");
	tj->walked = true;
}

static int load_built(struct tree_priv *p, struct tree_job *tj, const struct result_tree_built *b, struct ig_err *e)
{
	struct tree_make *m = &p->make;
	char err[256];
	m->files = b->files;
	m->size_lo = b->size_min;
	m->size_hi = b->size_max;
	m->per_dir = (unsigned)b->files_per_dir;
	m->fanout = (unsigned)b->fanout;
	m->seed = b->seed;
	if (data_parse(b->data ? b->data : "random", &m->data, "data", err, sizeof(err)))
		return err_set(e, EXIT_USAGE, "saved tree: %s", err);
	tj->make = m;
	tj->built = true;
	tj->build_bytes = b->bytes;
	tj->build_ns = b->build_ns;
	p->kept = b->kept;
	return 0;
}

static void load_run(struct tree_priv *p, unsigned t, struct tree_case *r, const struct result_tree_run *o)
{
	r->files = o->files;
	r->bytes = o->bytes;
	r->vanished = o->vanished;
	r->changed = o->changed;
	r->unreadable = o->unreadable;
	r->hash_bytes = o->hash_bytes;
	r->hash_ns = o->hash_ns;
	r->comp_in = o->compress_in;
	r->comp_out = o->compress_out;
	r->comp_ns = o->compress_ns;
	r->comp_failed = o->compress_failed;
	r->resident = o->resident;
	r->invalidate_ns = o->invalidate_ns;
	if (o->first_unreadable) {
		r->first_unreadable = 1; /* named by p->bad: the saved tree has no items */
		if (!p->bad[t])
			p->bad[t] = xstrdup(o->first_unreadable);
	}
	r->done = true;
}

int tree_load(struct suite_run *sr, const json_t *own, struct ig_err *e)
{
	struct result_tree_target *tt;
	unsigned nt;
	if (!result_tree(own, &tt, &nt))
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
	int rc = 0;
	for (unsigned t = 0; !rc && t < nt && t < p->ntargets; t++) {
		struct tree_job *tj = &p->trees[t];
		if (tt[t].has_walk)
			load_walk(tj, &tt[t].walk);
		if (tt[t].has_built && load_built(p, tj, &tt[t].built, e)) {
			rc = -1;
			break;
		}
		for (unsigned c = 0; c < tt[t].nsteps; c++)
			for (unsigned pass = 0; pass < tt[t].npasses[c]; pass++) {
				struct tree_case *r = run_at(sr, t, pass, c);
				if (r && tt[t].runs[c][pass].saved)
					load_run(p, t, r, &tt[t].runs[c][pass]);
			}
	}
	result_tree_free(tt, nt);
	return rc;
}
