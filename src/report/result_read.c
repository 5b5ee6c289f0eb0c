/*
 * The saved result read: the file opened, parsed and its schema checked,
 * and its head, jobs, suite and dd part walked into typed structs, so the
 * writers that render it (html*.c), compare (saved.c) and a suite's table
 * printed again (cmds/suite_read.c) share one reading of the keys.  The
 * jobs' statistics decode in json_read.c.
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "base/userfile.h"
#include "report/result_read.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

json_t *result_load(const char *path, struct ig_err *e)
{
	json_error_t je;
	/* A regular file only: a FIFO or a device would block or never end. */
	FILE *f = infile_open("result", path, e);
	if (!f)
		return NULL;
	json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
	fclose(f);
	if (!root) {
		err_set(e, EXIT_USAGE, "%s: not a JSON result: %s (line %d)", path, je.text, je.line);
		return NULL;
	}
	if (result_check(root, path, e)) {
		json_decref(root);
		return NULL;
	}
	return root;
}

json_t *result_parse(const char *buf, size_t len, const char *name, struct ig_err *e)
{
	json_error_t je;
	json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		err_set(e, EXIT_USAGE, "%s: not a JSON result: %s (line %d)", name, je.text, je.line);
		return NULL;
	}
	if (result_check(root, name, e)) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int result_check(const json_t *root, const char *path, struct ig_err *e)
{
	const json_t *me = json_object_get(root, RK_IOGAUGE);
	const char *fio = json_string_value(json_object_get(root, RK_FIO_VERSION));
	if (fio && !json_is_object(me)) {
		/* fio's own JSON (or iogauge's fio-json): the numbers are there, in fio's layout. */
		if (!strncmp(fio, "iogauge", 7))
			err_set(e, EXIT_USAGE,
				"%s: iogauge's --output-format=fio-json (fio's layout, for fio's tools), not iogauge's own result; save that with --json FILE or --output-format=json",
				path);
		else
			err_set(e, EXIT_USAGE,
				"%s: fio's JSON output (%.40s), not an iogauge result; run the same job with iogauge (iogauge run JOBFILE takes fio's job files) and save it with --json FILE",
				path, fio);
		return -1;
	}
	const char *cmd = json_string_value(json_object_get(me, RK_COMMAND));
	if (cmd && !json_is_array(json_object_get(root, RK_JOBS)) && json_is_object(json_object_get(root, RK_COMPARE))) {
		/* compare's own result: a table of other results' figures, nothing measured in it. */
		err_set(e, EXIT_USAGE, "%s: a result of iogauge compare, which holds no measured jobs; give the results it compared instead",
			path);
		return -1;
	}
	if (!cmd || !json_is_array(json_object_get(root, RK_JOBS))) {
		err_set(e, EXIT_USAGE, "%s: not an iogauge result (no \"iogauge.command\" or \"jobs\")", path);
		return -1;
	}
	/* Results from before the key existed are schema 1; a newer schema may mean keys read wrongly here. */
	const json_t *schema = json_object_get(me, RK_SCHEMA);
	if (schema && (!json_is_integer(schema) || json_integer_value(schema) < 1 ||
		       json_integer_value(schema) > RESULT_SCHEMA)) {
		char v[32] = "(not an integer)";
		if (json_is_integer(schema))
			snprintf(v, sizeof(v), "%lld", (long long)json_integer_value(schema));
		err_set(e, EXIT_USAGE,
			"%s: result schema %s, this iogauge (%s) reads schemas 1 to %d; read it with the iogauge that wrote it (%s)",
			path, v, iogauge_version, RESULT_SCHEMA, rk_str(me, RK_VERSION));
		return -1;
	}
	return 0;
}

/* A number, NAN when missing or not one (0 would read as a measured zero). */
static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

void result_head(const json_t *root, struct result_head *h)
{
	const json_t *me = json_object_get(root, RK_IOGAUGE), *host = json_object_get(root, RK_HOST);
	memset(h, 0, sizeof(*h));
	h->command = rk_str(me, RK_COMMAND);
	h->version = rk_str(me, RK_VERSION);
	h->command_line = rk_str(root, RK_COMMAND_LINE);
	h->time = rk_str(root, RK_TIME);
	h->error = rk_str(root, RK_ERROR);
	h->status = (long long)json_integer_value(json_object_get(root, RK_STATUS));
	h->interrupted = json_is_true(json_object_get(root, RK_INTERRUPTED));
	h->has_host = host != NULL;
	h->host_name = rk_str(host, RK_NAME);
	h->kernel = rk_str(host, RK_KERNEL);
	h->machine = rk_str(host, RK_MACHINE);
	h->cpus = (long long)json_integer_value(json_object_get(host, RK_CPUS));
	h->suite = json_object_get(root, RK_SUITE) != NULL;
	h->njobs = (unsigned)json_array_size(json_object_get(root, RK_JOBS));
	h->ndevs = (unsigned)json_array_size(json_object_get(root, RK_DEVICES));
	h->nnotes = (unsigned)json_array_size(json_object_get(root, RK_NOTES));
	h->imported = rk_str(json_object_get(root, RK_IMPORTED), "tool");
}

bool result_device(const json_t *root, unsigned i, struct result_device *d)
{
	const json_t *dv = json_array_get(json_object_get(root, RK_DEVICES), i);
	d->name = rk_str(dv, RK_NAME);
	d->read_bytes = rk_num(dv, RK_READ_BYTES);
	d->write_bytes = rk_num(dv, RK_WRITE_BYTES);
	return dv != NULL;
}

static void iostat_of(const json_t *o, struct result_iostat *c)
{
	c->t_ns = rk_num(o, RK_T_NS);
	c->r_s = rk_num(o, RK_R_S);
	c->w_s = rk_num(o, RK_W_S);
	c->rmb_s = rk_num(o, RK_RMB_S);
	c->wmb_s = rk_num(o, RK_WMB_S);
	c->r_await_ms = rk_num(o, RK_R_AWAIT_MS);
	c->w_await_ms = rk_num(o, RK_W_AWAIT_MS);
	c->aqu_sz = rk_num(o, RK_AQU_SZ);
	c->util_pct = rk_num(o, RK_UTIL_PCT);
}

unsigned result_devstats(const json_t *root, struct result_devstat **out)
{
	const json_t *devs = json_object_get(root, RK_DEVICES), *dv, *pt;
	size_t i, k;
	*out = xcalloc(json_array_size(devs) + 1, sizeof(**out));
	json_array_foreach(devs, i, dv) {
		struct result_devstat *d = &(*out)[i];
		const json_t *series = json_object_get(dv, RK_SERIES);
		d->name = json_string_value(json_object_get(dv, RK_NAME));
		d->span_ns = rk_num(dv, RK_SPAN_NS);
		d->has_iostat = json_object_get(dv, RK_IOSTAT) != NULL;
		iostat_of(json_object_get(dv, RK_IOSTAT), &d->measured);
		d->nseries = (unsigned)json_array_size(series);
		d->series = xcalloc(d->nseries + 1, sizeof(*d->series));
		json_array_foreach(series, k, pt)
			iostat_of(pt, &d->series[k]);
	}
	return (unsigned)json_array_size(devs);
}

void result_devstats_free(struct result_devstat *d, unsigned n)
{
	for (unsigned i = 0; d && i < n; i++)
		free(d[i].series);
	free(d);
}

int result_others(const json_t *root, struct result_other **out)
{
	const json_t *a = json_object_get(root, RK_OTHER_IO), *o;
	size_t i;
	*out = xcalloc(json_array_size(a) + 1, sizeof(**out));
	json_array_foreach(a, i, o) {
		struct result_other *x = &(*out)[i];
		x->pid = (long long)json_integer_value(json_object_get(o, RK_PID));
		x->name = json_string_value(json_object_get(o, RK_NAME));
		x->read_bytes = rk_num(o, RK_READ_BYTES);
		x->write_bytes = rk_num(o, RK_WRITE_BYTES);
	}
	return json_is_array(a) ? (int)json_array_size(a) : -1;
}

unsigned result_nodevs(const json_t *root, struct result_nodev **out)
{
	const json_t *a = json_object_get(root, RK_NO_DEVICE), *o;
	size_t i;
	*out = xcalloc(json_array_size(a) + 1, sizeof(**out));
	json_array_foreach(a, i, o) {
		(*out)[i].path = json_string_value(json_object_get(o, RK_PATH));
		(*out)[i].fstype = json_string_value(json_object_get(o, RK_FSTYPE));
	}
	return (unsigned)json_array_size(a);
}

const char *result_note(const json_t *root, unsigned i)
{
	const char *s = json_string_value(json_array_get(json_object_get(root, RK_NOTES), i));
	return s ? s : "";
}

static void dir_of(const json_t *op, struct result_dir *d)
{
	const json_t *clat = json_object_get(op, RK_CLAT_NS);
	d->bytes = num(op, RK_BYTES);
	d->ios = num(op, RK_IOS);
	d->bw_bytes = num(op, RK_BW_BYTES);
	d->iops = num(op, RK_IOPS);
	d->clat = clat;
	d->clat_mean = num(clat, RK_MEAN);
	d->clat_p99 = num(json_object_get(clat, RK_PERCENTILES), RK_P99);
	d->clat_p50 = num(json_object_get(clat, RK_PERCENTILES), RK_P50);
	d->clat_p999 = num(json_object_get(clat, RK_PERCENTILES), RK_P999);
	d->clat_min = num(clat, RK_MIN);
	d->clat_max = num(clat, RK_MAX);
	d->clat_stddev = num(clat, RK_STDDEV);
}

unsigned result_jobs(const json_t *root, struct result_job **out)
{
	const json_t *jobs = json_object_get(root, RK_JOBS), *j;
	size_t i;
	unsigned n = 0;
	*out = xcalloc(json_array_size(jobs) + 1, sizeof(**out));
	json_array_foreach(jobs, i, j) {
		struct result_job *e = &(*out)[n++];
		const json_t *targets = json_object_get(j, RK_TARGETS), *t;
		size_t k;
		e->job = j;
		e->index = (unsigned)i;
		e->name = json_string_value(json_object_get(j, RK_NAME));
		e->kase = json_object_get(j, RK_CASE) ? rk_str(j, RK_CASE) : rk_str(j, RK_NAME);
		e->target = json_object_get(j, RK_TARGET) ? rk_str(j, RK_TARGET) :
							     rk_str(json_array_get(targets, 0), RK_PATH);
		e->pass_tag = (long long)json_integer_value(json_object_get(j, RK_PASS));
		e->pass = e->pass_tag > 0 ? (int)e->pass_tag : 1;
		for (int d = 0; d < DDIR_NR; d++)
			dir_of(json_object_get(j, io_op_names[d]), &e->dir[d]);
		e->io_mode = rk_str(j, RK_IO_MODE);
		const json_t *res = json_object_get(j, RK_RESIDENT_BEFORE);
		e->has_resident = json_is_number(res);
		e->resident_before = json_number_value(res);
		e->options = json_object_get(j, RK_OPTIONS);
		e->opt_size = rk_num(e->options, RK_SIZE);
		e->opt_data = rk_str(e->options, RK_DATA);
		e->has_steady = json_object_get(j, RK_STEADYSTATE) != NULL;
		const json_t *dv = json_array_get(json_object_get(j, RK_DEVICES), 0);
		e->has_dev = dv != NULL;
		e->dev_name = rk_str(dv, RK_NAME);
		e->dev_read_bytes = rk_num(dv, RK_READ_BYTES);
		e->dev_write_bytes = rk_num(dv, RK_WRITE_BYTES);
		e->ntargets = (unsigned)json_array_size(targets);
		e->targets = e->ntargets ? xcalloc(e->ntargets, sizeof(*e->targets)) : NULL;
		json_array_foreach(targets, k, t) {
			struct result_jtarget *x = &e->targets[k];
			x->path = rk_str(t, RK_PATH);
			x->fstype = rk_str(t, RK_FSTYPE);
			x->device = rk_str(t, RK_DEVICE);
			x->size = rk_num(t, RK_SIZE);
			x->created = json_is_true(json_object_get(t, RK_CREATED));
		}
		e->npoints = (unsigned)json_array_size(json_object_get(json_object_get(j, RK_SERIES), RK_POINTS));
		e->elapsed_ns = num(j, RK_ELAPSED_NS);
	}
	return n;
}

unsigned result_clat_percentiles(const struct result_dir *d, double *pct, double *ns, unsigned max)
{
	const json_t *p = json_object_get(d->clat, RK_PERCENTILES), *v;
	const char *k;
	unsigned n = 0;
	json_object_foreach((json_t *)p, k, v) {
		if (n == max || !json_is_number(v))
			continue;
		pct[n] = strtod(k, NULL);
		ns[n++] = json_number_value(v);
	}
	return n;
}

void result_jobs_free(struct result_job *jobs, unsigned n)
{
	for (unsigned i = 0; jobs && i < n; i++)
		free(jobs[i].targets);
	free(jobs);
}

unsigned result_groups(const json_t *root, struct result_group **out)
{
	const json_t *groups = json_object_get(root, RK_GROUPS), *jobs = json_object_get(root, RK_JOBS), *g, *j;
	size_t i, k;
	*out = xcalloc(json_array_size(groups) + 1, sizeof(**out));
	json_array_foreach(groups, i, g) {
		struct result_group *x = &(*out)[i];
		x->index = (unsigned)rk_u64(g, RK_GROUP);
		json_array_foreach(jobs, k, j)
			if (json_object_get(j, RK_GROUP) && rk_u64(j, RK_GROUP) == x->index)
				x->njobs++;
		for (int d = 0; d < DDIR_NR; d++)
			dir_of(json_object_get(g, io_op_names[d]), &x->dir[d]);
	}
	return (unsigned)json_array_size(groups);
}

static unsigned points_of(const json_t *o, struct result_point **out)
{
	const json_t *pts = json_object_get(json_object_get(o, RK_SERIES), RK_POINTS), *pt;
	size_t i;
	*out = xcalloc(json_array_size(pts) + 1, sizeof(**out));
	json_array_foreach(pts, i, pt) {
		struct result_point *p = &(*out)[i];
		p->t_ns = rk_num(pt, RK_T_NS);
		p->dur_ns = rk_num(pt, RK_DUR_NS);
		for (int d = 0; d < DDIR_NR; d++) {
			const json_t *x = json_object_get(pt, io_op_names[d]);
			p->ios[d] = rk_num(x, RK_IOS);
			p->bytes[d] = rk_num(x, RK_BYTES);
			p->lat_mean_ns[d] = rk_num(x, RK_LAT_MEAN_NS);
		}
	}
	return (unsigned)json_array_size(pts);
}

unsigned result_series(const struct result_job *j, struct result_point **out)
{
	return points_of(j->job, out);
}

unsigned result_ranks(const struct result_job *j, struct result_rank **out)
{
	const json_t *ranks = json_object_get(j->job, RK_RANKS), *rk;
	size_t i;
	*out = xcalloc(json_array_size(ranks) + 1, sizeof(**out));
	json_array_foreach(ranks, i, rk) {
		struct result_rank *r = &(*out)[i];
		r->rank = (long long)json_integer_value(json_object_get(rk, RK_RANK));
		r->host = json_string_value(json_object_get(rk, RK_HOST));
		r->npoints = points_of(rk, &r->points);
	}
	return (unsigned)json_array_size(ranks);
}

void result_ranks_free(struct result_rank *ranks, unsigned n)
{
	for (unsigned i = 0; ranks && i < n; i++)
		free(ranks[i].points);
	free(ranks);
}

static void target_of(const json_t *o, struct result_target *t)
{
	const json_t *rot = json_object_get(o, RK_ROTATIONAL);
	t->o = o;
	t->path = rk_str(o, RK_PATH);
	t->file = rk_str(o, RK_FILE);
	t->fstype = rk_str(o, RK_FSTYPE);
	t->device = rk_str(o, RK_DEVICE);
	t->source = rk_str(o, RK_SOURCE);
	t->mount_options = rk_str(o, RK_MOUNT_OPTIONS);
	t->refused = json_string_value(json_object_get(o, RK_REFUSED));
	t->rotational = json_is_boolean(rot) ? json_is_true(rot) : -1;
	t->fs_size = (uint64_t)json_number_value(json_object_get(o, RK_FS_SIZE));
	t->size = (uint64_t)json_number_value(json_object_get(o, RK_SIZE));
	t->layout_ns = (uint64_t)json_number_value(json_object_get(o, RK_LAYOUT_NS));
	t->prepare_ns = (uint64_t)json_number_value(json_object_get(o, RK_PREPARE_NS));
	t->prepare_bytes = (uint64_t)json_number_value(json_object_get(o, RK_PREPARE_BYTES));
	t->blockdev = json_is_true(json_object_get(o, RK_BLOCKDEV));
	t->shrunk = json_is_true(json_object_get(o, RK_SHRUNK));
	t->buffered_fallback = json_is_true(json_object_get(o, RK_BUFFERED_FALLBACK));
}

int result_suite(const json_t *root, struct result_suite *s, struct ig_err *e)
{
	const json_t *su = json_object_get(root, RK_SUITE), *o;
	const json_t *targets = json_object_get(su, RK_TARGETS), *cases = json_object_get(su, RK_CASES);
	size_t i;
	memset(s, 0, sizeof(*s));
	if (!json_is_array(targets) || !json_is_array(cases))
		return err_set(e, EXIT_USAGE, "\"suite\" has no targets or cases");
	s->options = json_object_get(su, RK_OPTIONS);
	s->cases_json = cases;
	const char *key;
	const json_t *v, *settings = json_object_get(su, RK_SETTINGS);
	s->settings = xcalloc(json_object_size(settings) + 1, sizeof(*s->settings));
	json_object_foreach((json_t *)settings, key, v) {
		s->settings[s->nsettings].key = key;
		s->settings[s->nsettings++].value = json_string_value(v);
	}
	s->passes = (long long)json_integer_value(json_object_get(su, RK_PASSES));
	s->ntargets = (unsigned)json_array_size(targets);
	s->targets = xcalloc(s->ntargets + 1, sizeof(*s->targets));
	json_array_foreach(targets, i, o)
		target_of(o, &s->targets[i]);
	s->cases = xcalloc(json_array_size(cases) + 1, sizeof(*s->cases));
	json_array_foreach(cases, i, o) {
		struct result_case *c = &s->cases[i];
		c->name = json_string_value(json_object_get(o, RK_NAME));
		c->options = json_string_value(json_object_get(o, RK_OPTIONS));
		if (!c->name || !c->options)
			return err_set(e, EXIT_USAGE, "saved case %zu has no name or options", i);
		s->ncases = (unsigned)i + 1;
	}
	return 0;
}

void result_suite_free(struct result_suite *s)
{
	free(s->settings);
	free(s->targets);
	free(s->cases);
	memset(s, 0, sizeof(*s));
}

static const json_t *case_of(const struct result_suite *s, unsigned t, const char *kase)
{
	const json_t *byname = t < s->ntargets ? json_object_get(s->targets[t].o, RK_CASES) : NULL;
	return json_object_get(byname, kase);
}

static bool fig_of(const json_t *figs, const char *dir, const char *fig, struct result_fig *f)
{
	const json_t *v = json_object_get(json_object_get(figs, dir), fig);
	if (!json_is_object(v))
		return false;
	f->median = num(v, RK_MEDIAN);
	f->min = num(v, RK_MIN);
	f->max = num(v, RK_MAX);
	f->passes = num(v, RK_PASSES);
	return true;
}

bool result_suite_fig(const struct result_suite *s, unsigned t, const char *kase, const char *dir,
		      const char *fig, struct result_fig *f)
{
	return fig_of(case_of(s, t, kase), dir, fig, f);
}

unsigned result_suite_jobs(const struct result_suite *s, unsigned t, const char *kase, const char ***names)
{
	const json_t *jobs = json_object_get(case_of(s, t, kase), RK_JOBS), *v;
	const char *k;
	unsigned n = 0;
	*names = xcalloc(json_object_size(jobs) + 1, sizeof(char *));
	json_object_foreach((json_t *)jobs, k, v)
		if (json_is_object(v))
			(*names)[n++] = k;
	return n;
}

bool result_suite_job_fig(const struct result_suite *s, unsigned t, const char *kase, const char *job,
			  const char *dir, const char *fig, struct result_fig *f)
{
	return fig_of(json_object_get(json_object_get(case_of(s, t, kase), RK_JOBS), job), dir, fig, f);
}

unsigned result_targets(const json_t *root, const char ***out)
{
	const json_t *st = json_object_get(json_object_get(root, RK_SUITE), RK_TARGETS), *t;
	size_t i;
	unsigned n = 0;
	if (st) {
		*out = xcalloc(json_array_size(st) + 1, sizeof(char *));
		json_array_foreach(st, i, t)
			(*out)[n++] = rk_str(t, RK_PATH);
		return n;
	}
	struct result_job *jobs;
	unsigned nj = result_jobs(root, &jobs);
	*out = xcalloc(nj + 1, sizeof(char *));
	for (unsigned k = 0; k < nj; k++) {
		unsigned m = 0;
		while (m < n && strcmp((*out)[m], jobs[k].target))
			m++;
		if (m == n)
			(*out)[n++] = jobs[k].target; /* the root's string: it outlives jobs */
	}
	result_jobs_free(jobs, nj);
	return n;
}

const json_t *result_own(const json_t *root, const char *key)
{
	return json_object_get(root, key);
}

bool result_dd(const json_t *root, struct result_dd *dd)
{
	const json_t *o = json_object_get(root, RK_DD);
	memset(dd, 0, sizeof(*dd));
	if (!json_is_object(o))
		return false;
	dd->operands = json_object_get(o, RK_OPERANDS);
	dd->bw_bytes = num(o, RK_BW_BYTES);
	dd->records_in = json_string_value(json_object_get(o, RK_RECORDS_IN));
	dd->records_out = json_string_value(json_object_get(o, RK_RECORDS_OUT));
	dd->summary = json_string_value(json_object_get(o, RK_SUMMARY));
	dd->noxfer = !strcmp(rk_str(dd->operands, RK_STATUS), "noxfer");
	return true;
}

static double *numbers(const json_t *a, unsigned *n)
{
	double *v = xcalloc(json_array_size(a) + 1, sizeof(double));
	for (size_t i = 0; i < json_array_size(a); i++)
		v[i] = json_number_value(json_array_get(a, i));
	*n = (unsigned)json_array_size(a);
	return v;
}

bool result_job_ss(const struct result_job *j, struct result_ss *ss)
{
	const json_t *o = json_object_get(j->job, RK_STEADYSTATE), *w = json_object_get(o, RK_WINDOW);
	memset(ss, 0, sizeof(*ss));
	ss->criterion = json_string_value(json_object_get(o, RK_CRITERION));
	if (!json_is_object(o) || !ss->criterion)
		return false;
	ss->attained = json_is_true(json_object_get(o, RK_ATTAINED));
	ss->iops = numbers(json_object_get(w, RK_IOPS), &ss->niops);
	ss->bw_bytes = numbers(json_object_get(w, RK_BW_BYTES), &ss->nbw);
	return true;
}

void result_ss_free(struct result_ss *ss)
{
	free(ss->iops);
	free(ss->bw_bytes);
	memset(ss, 0, sizeof(*ss));
}
