/*
 * The reader's part for the commands' own objects the HTML page draws:
 * scale's and tree's steps with the knee or best, steady's rounds, window
 * and table, fs's columns and scaling, tree's runs, latency's and compare's
 * tables (result_read.h).
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "report/result_read.h"

#include <math.h>
#include <string.h>

/* A number, NAN when missing or not one. */
static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void step_of(const json_t *o, struct result_step *s)
{
	s->measured = json_is_true(json_object_get(o, RK_MEASURED));
	s->numjobs = (long long)json_integer_value(json_object_get(o, RK_NUMJOBS));
	s->kase = json_string_value(json_object_get(o, RK_CASE));
	s->iops = num(o, RK_IOPS);
	s->lat_mean_ns = num(o, RK_LAT_MEAN_NS);
	s->lat_p99_ns = num(o, RK_LAT_P99_NS);
	s->outstanding = num(o, RK_OUTSTANDING);
	s->streams = num(o, RK_STREAMS);
	s->mb_s = num(o, RK_MB_S);
	s->read_mb_s = num(o, RK_READ_MB_S);
}

unsigned result_sweeps(const json_t *own, const char *found, struct result_sweep **out)
{
	const json_t *targets = json_object_get(own, RK_TARGETS), *t, *x;
	size_t i, k;
	*out = xcalloc(json_array_size(targets) + 1, sizeof(**out));
	json_array_foreach(targets, i, t) {
		struct result_sweep *s = &(*out)[i];
		const json_t *steps = json_object_get(t, RK_STEPS), *f = json_object_get(t, found);
		s->path = json_string_value(json_object_get(t, RK_PATH));
		s->nsteps = (unsigned)json_array_size(steps);
		s->steps = xcalloc(s->nsteps + 1, sizeof(*s->steps));
		json_array_foreach(steps, k, x)
			step_of(x, &s->steps[k]);
		s->has_found = json_is_object(f);
		step_of(f, &s->found);
	}
	return (unsigned)json_array_size(targets);
}

void result_sweeps_free(struct result_sweep *s, unsigned n)
{
	for (unsigned i = 0; s && i < n; i++)
		free(s[i].steps);
	free(s);
}

static struct result_round *rounds_of(const json_t *a, unsigned *n)
{
	const json_t *rd;
	size_t i;
	struct result_round *r = xcalloc(json_array_size(a) + 1, sizeof(*r));
	json_array_foreach(a, i, rd) {
		r[i].round = rk_num(rd, RK_ROUND);
		r[i].iops = rk_num(rd, RK_IOPS);
	}
	*n = (unsigned)json_array_size(a);
	return r;
}

static void steady_target_of(const json_t *x, const json_t *bs, struct result_steady_target *t)
{
	const json_t *w = json_object_get(x, RK_WINDOW), *cases = json_object_get(x, RK_CASES), *o;
	const json_t *table = json_object_get(x, RK_TABLE), *rows = json_object_get(table, RK_IOPS);
	size_t i, k;
	t->path = json_string_value(json_object_get(x, RK_PATH));
	t->reached = json_is_true(json_object_get(x, RK_REACHED));
	t->has_window = json_is_object(w);
	t->first_round = (long long)json_integer_value(json_object_get(w, RK_FIRST_ROUND));
	t->last_round = (long long)json_integer_value(json_object_get(w, RK_LAST_ROUND));
	t->iops_mean = rk_num(w, RK_IOPS_MEAN);
	t->slope = rk_num(w, RK_SLOPE_IOPS);
	t->rounds = rounds_of(json_object_get(x, RK_ROUNDS), &t->nrounds);
	t->ncases = (unsigned)json_array_size(cases);
	t->cases = xcalloc(t->ncases + 1, sizeof(*t->cases));
	json_array_foreach(cases, i, o) {
		t->cases[i].name = json_string_value(json_object_get(o, RK_NAME));
		t->cases[i].read_pct = (long long)json_integer_value(json_object_get(o, RK_READ_PCT));
		t->cases[i].rounds = rounds_of(json_object_get(o, RK_ROUNDS), &t->cases[i].nrounds);
	}
	t->table_rounds = json_string_value(json_object_get(table, RK_ROUNDS_AVERAGED));
	t->table_first = (long long)json_integer_value(json_object_get(table, RK_FIRST_ROUND));
	t->table_last = (long long)json_integer_value(json_object_get(table, RK_LAST_ROUND));
	t->nrows = (unsigned)json_array_size(rows);
	t->rows = xcalloc(t->nrows + 1, sizeof(*t->rows));
	json_array_foreach(rows, i, o) {
		struct result_steady_row *r = &t->rows[i];
		const json_t *cell;
		r->bs = (long long)json_integer_value(json_array_get(bs, i));
		r->ncells = (unsigned)json_array_size(o);
		r->cells = xcalloc(r->ncells + 1, sizeof(double));
		json_array_foreach(o, k, cell)
			r->cells[k] = json_is_number(cell) ? json_number_value(cell) : NAN;
	}
}

void result_steady(const json_t *own, struct result_steady *s)
{
	const json_t *targets = json_object_get(own, RK_TARGETS), *mix = json_object_get(own, RK_READ_PCTS), *x;
	size_t i;
	memset(s, 0, sizeof(*s));
	s->tracked_case = json_string_value(json_object_get(own, RK_TRACKED_CASE));
	s->range_pct_limit = rk_num(own, RK_RANGE_PCT_LIMIT);
	s->nread_pcts = (unsigned)json_array_size(mix);
	s->read_pcts = xcalloc(s->nread_pcts + 1, sizeof(long long));
	for (i = 0; i < s->nread_pcts; i++)
		s->read_pcts[i] = (long long)json_integer_value(json_array_get(mix, i));
	s->ntargets = (unsigned)json_array_size(targets);
	s->targets = xcalloc(s->ntargets + 1, sizeof(*s->targets));
	json_array_foreach(targets, i, x)
		steady_target_of(x, json_object_get(own, RK_BLOCK_SIZES), &s->targets[i]);
}

void result_steady_free(struct result_steady *s)
{
	for (unsigned i = 0; i < s->ntargets; i++) {
		struct result_steady_target *t = &s->targets[i];
		for (unsigned c = 0; c < t->ncases; c++)
			free(t->cases[c].rounds);
		for (unsigned r = 0; r < t->nrows; r++)
			free(t->rows[r].cells);
		free(t->cases);
		free(t->rows);
		free(t->rounds);
	}
	free(s->targets);
	free(s->read_pcts);
	memset(s, 0, sizeof(*s));
}

/* A number, or an array's first; NAN when not one. */
static double first_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	v = json_is_array(v) ? json_array_get(v, 0) : v;
	return json_is_number(v) ? json_number_value(v) : NAN;
}

void result_fs(const json_t *own, struct result_fs *f)
{
	const json_t *list = json_object_get(own, RK_FILESYSTEMS), *scaling = json_object_get(own, RK_SCALING), *x;
	size_t i;
	memset(f, 0, sizeof(*f));
	f->nfs = (unsigned)json_array_size(list);
	f->fs = xcalloc(f->nfs + 1, sizeof(*f->fs));
	json_array_foreach(list, i, x) {
		struct result_fs_column *c = &f->fs[i];
		c->label = json_string_value(json_object_get(x, RK_LABEL));
		c->dd_to_disk_mb_s = first_num(x, RK_DD_TO_DISK_MB_S);
		c->writeback_s = first_num(x, RK_WRITEBACK_S);
		c->unmount_s = first_num(x, RK_UNMOUNT_S);
		c->mkfs_s = first_num(x, RK_MKFS_S);
		c->devices = first_num(x, RK_DEVICES);
	}
	f->nscaling = (unsigned)json_array_size(scaling);
	f->scaling = xcalloc(f->nscaling + 1, sizeof(*f->scaling));
	json_array_foreach(scaling, i, x) {
		struct result_fs_scaling *sc = &f->scaling[i];
		const json_t *ratio = json_object_get(x, RK_RATIO), *v;
		const char *k;
		sc->target = json_string_value(json_object_get(x, RK_TARGET));
		sc->single = json_string_value(json_object_get(x, RK_SINGLE));
		sc->devices = (long long)json_integer_value(json_object_get(x, RK_DEVICES));
		sc->ratios = xcalloc(json_object_size(ratio) + 1, sizeof(*sc->ratios));
		json_object_foreach((json_t *)ratio, k, v) {
			if (!json_is_number(v))
				continue;
			sc->ratios[sc->nratios].name = k;
			sc->ratios[sc->nratios++].v = json_number_value(v);
		}
	}
	f->loop_dir = json_string_value(json_object_get(own, RK_LOOP_DIR));
}

void result_fs_free(struct result_fs *f)
{
	for (unsigned i = 0; i < f->nscaling; i++)
		free(f->scaling[i].ratios);
	free(f->scaling);
	free(f->fs);
	memset(f, 0, sizeof(*f));
}

void result_compare(const json_t *own, struct result_compare *c)
{
	const json_t *cols = json_object_get(own, RK_COLUMNS), *rows = json_object_get(own, RK_ROWS), *x;
	size_t i;
	memset(c, 0, sizeof(*c));
	c->command = json_string_value(json_object_get(own, RK_COMMAND));
	c->nfiles = (unsigned)json_array_size(json_object_get(own, RK_FILES));
	c->ncols = (unsigned)json_array_size(cols);
	c->file = xcalloc(c->ncols + 1, sizeof(char *));
	c->target = xcalloc(c->ncols + 1, sizeof(char *));
	json_array_foreach(cols, i, x) {
		c->file[i] = json_string_value(json_object_get(x, RK_FILE));
		c->target[i] = json_string_value(json_object_get(x, RK_TARGET));
	}
	c->nrows = (unsigned)json_array_size(rows);
	c->rows = xcalloc(c->nrows + 1, sizeof(*c->rows));
	json_array_foreach(rows, i, x) {
		struct result_cmp_row *r = &c->rows[i];
		const json_t *v = json_object_get(x, RK_VALUES), *d = json_object_get(x, RK_CHANGE_PCT);
		const json_t *sg = json_object_get(x, RK_SIGNIFICANT);
		r->test = rk_str(x, RK_TEST);
		r->unit = rk_str(x, RK_UNIT);
		r->values = xcalloc(c->ncols + 1, sizeof(double));
		r->change_pct = xcalloc(c->ncols + 1, sizeof(double));
		r->mark = xcalloc(c->ncols + 1, 1);
		for (unsigned k = 0; k < c->ncols; k++) {
			const json_t *vk = json_array_get(v, k), *dk = json_array_get(d, k), *sk = json_array_get(sg, k);
			r->values[k] = json_is_number(vk) ? json_number_value(vk) : NAN;
			r->change_pct[k] = json_is_number(dk) ? json_number_value(dk) : NAN;
			r->mark[k] = json_is_false(sk) ? '~' : json_is_null(sk) ? '?' : 0;
		}
	}
}

void result_compare_free(struct result_compare *c)
{
	for (unsigned i = 0; c->rows && i < c->nrows; i++) {
		free(c->rows[i].values);
		free(c->rows[i].change_pct);
		free(c->rows[i].mark);
	}
	free(c->rows);
	free(c->file);
	free(c->target);
	memset(c, 0, sizeof(*c));
}

unsigned result_ioping(const json_t *own, struct result_ioping **out)
{
	const json_t *a = json_object_get(own, RK_TARGETS), *x;
	size_t i;
	*out = xcalloc(json_array_size(a) + 1, sizeof(**out));
	json_array_foreach(a, i, x) {
		struct result_ioping *s = &(*out)[i];
		s->path = rk_str(x, RK_PATH);
		s->description = rk_str(x, RK_DESCRIPTION);
		s->writes = json_is_true(json_object_get(x, RK_WRITES));
		s->completed = rk_u64(x, RK_COMPLETED);
		s->time_ns = rk_u64(x, RK_TIME_NS);
		s->bytes = rk_u64(x, RK_BYTES);
		s->requests = rk_u64(x, RK_REQUESTS);
		s->wall_ns = rk_u64(x, RK_WALL_NS);
		s->min_ns = rk_u64(x, RK_MIN_NS);
		s->avg_ns = rk_u64(x, RK_AVG_NS);
		s->max_ns = rk_u64(x, RK_MAX_NS);
		s->mdev_ns = rk_u64(x, RK_MDEV_NS);
		s->p50_ns = rk_u64(x, RK_P50_NS);
		s->p90_ns = rk_u64(x, RK_P90_NS);
		s->p99_ns = rk_u64(x, RK_P99_NS);
		s->p99_9_ns = rk_u64(x, RK_P99_9_NS);
	}
	return (unsigned)json_array_size(a);
}

static void tree_walk_of(const json_t *w, struct result_tree_walk *k)
{
	k->root = rk_str(w, RK_ROOT);
	k->dirs = rk_u64(w, RK_DIRS);
	k->files = rk_u64(w, RK_FILES);
	k->bytes = rk_u64(w, RK_BYTES);
	k->items = rk_u64(w, RK_ITEMS);
	k->symlinks = rk_u64(w, RK_SYMLINKS);
	k->fifos = rk_u64(w, RK_FIFOS);
	k->sockets = rk_u64(w, RK_SOCKETS);
	k->chardevs = rk_u64(w, RK_CHARDEVS);
	k->blockdevs = rk_u64(w, RK_BLOCKDEVS);
	k->other_fs = rk_u64(w, RK_OTHER_FS);
	k->unreadable = rk_u64(w, RK_UNREADABLE);
	k->vanished = rk_u64(w, RK_VANISHED);
	k->walk_ns = rk_u64(w, RK_WALK_NS);
	k->first_unreadable = json_string_value(json_object_get(w, RK_FIRST_UNREADABLE));
}

static void tree_built_of(const json_t *b, struct result_tree_built *m)
{
	m->files = rk_u64(b, RK_FILES);
	m->size_min = rk_u64(b, RK_SIZE_MIN);
	m->size_max = rk_u64(b, RK_SIZE_MAX);
	m->files_per_dir = rk_u64(b, RK_FILES_PER_DIR);
	m->fanout = rk_u64(b, RK_FANOUT);
	m->seed = rk_u64(b, RK_SEED);
	m->data = json_string_value(json_object_get(b, RK_DATA));
	m->bytes = rk_u64(b, RK_BYTES);
	m->build_ns = rk_u64(b, RK_BUILD_NS);
	m->kept = json_is_true(json_object_get(b, RK_KEPT));
}

static void tree_run_of(const json_t *o, struct result_tree_run *r)
{
	r->saved = json_is_object(o);
	if (!r->saved)
		return;
	r->files = rk_u64(o, RK_FILES);
	r->bytes = rk_u64(o, RK_BYTES);
	r->vanished = rk_u64(o, RK_VANISHED);
	r->changed = rk_u64(o, RK_CHANGED);
	r->unreadable = rk_u64(o, RK_UNREADABLE);
	r->hash_bytes = rk_u64(o, RK_HASH_BYTES);
	r->hash_ns = rk_u64(o, RK_HASH_NS);
	r->compress_in = rk_u64(o, RK_COMPRESS_IN);
	r->compress_out = rk_u64(o, RK_COMPRESS_OUT);
	r->compress_ns = rk_u64(o, RK_COMPRESS_NS);
	r->compress_failed = rk_u64(o, RK_COMPRESS_FAILED);
	r->resident = (int64_t)json_number_value(json_object_get(o, RK_RESIDENT));
	r->invalidate_ns = rk_u64(o, RK_INVALIDATE_NS);
	r->first_unreadable = json_string_value(json_object_get(o, RK_FIRST_UNREADABLE));
}

bool result_tree(const json_t *own, struct result_tree_target **out, unsigned *n)
{
	const json_t *a = json_object_get(own, RK_TARGETS), *x;
	size_t t;
	*out = NULL;
	*n = 0;
	if (!json_is_object(own))
		return false;
	*out = xcalloc(json_array_size(a) + 1, sizeof(**out));
	*n = (unsigned)json_array_size(a);
	json_array_foreach(a, t, x) {
		struct result_tree_target *tt = &(*out)[t];
		const json_t *w = json_object_get(x, RK_TREE), *b = json_object_get(x, RK_BUILT);
		const json_t *steps = json_object_get(x, RK_STEPS), *step;
		size_t c;
		if ((tt->has_walk = json_is_object(w)))
			tree_walk_of(w, &tt->walk);
		if ((tt->has_built = json_is_object(b)))
			tree_built_of(b, &tt->built);
		tt->nsteps = (unsigned)json_array_size(steps);
		tt->runs = xcalloc(tt->nsteps + 1, sizeof(*tt->runs));
		tt->npasses = xcalloc(tt->nsteps + 1, sizeof(unsigned));
		json_array_foreach(steps, c, step) {
			const json_t *runs = json_object_get(step, RK_PASSES), *run;
			size_t p;
			tt->npasses[c] = (unsigned)json_array_size(runs);
			tt->runs[c] = xcalloc(tt->npasses[c] + 1, sizeof(**tt->runs));
			json_array_foreach(runs, p, run)
				tree_run_of(run, &tt->runs[c][p]);
		}
	}
	return true;
}

void result_tree_free(struct result_tree_target *t, unsigned n)
{
	for (unsigned i = 0; t && i < n; i++) {
		for (unsigned c = 0; c < t[i].nsteps; c++)
			free(t[i].runs[c]);
		free(t[i].runs);
		free(t[i].npasses);
	}
	free(t);
}
