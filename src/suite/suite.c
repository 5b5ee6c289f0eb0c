/* The suite executor: targets x passes x cases through the runner, figures, progress, JSON. */
#include "base/cluster.h"
#include "base/result_keys.h"
#include "base/common.h"
#include "options/command.h"
#include "base/ctx.h"
#include "run/merge.h"
#include "options/options.h"
#include "options/args.h"
#include "run/safety.h"
#include "base/stale.h"
#include "model/verify.h"
#include "suite/suite.h"
#include "suite/suite_exec.h"
#include "report/report.h"
#include "model/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define MIN_FREE (64ULL << 20)
/*
 * Free space a test file leaves alone: a tenth of the file system, at most
 * 1 GiB.  A tenth keeps a small file system out of the "90% full" alarms and
 * leaves its other writers room; on a large one a tenth is far more than the
 * logs, journals and temporary files of a benchmark's few minutes need, and
 * would refuse sizes that leave plenty free, so 1 GiB caps it.
 */
#define FLOOR_MAX (1ULL << 30)

const char *const fig_dir_names[FD_NR] = { "read", "write", "total" };
const char *const fig_names[FIG_NR] = { "mb_s",	    "iops",	  "lat_mean_ns",   "lat_p50_ns",
					"lat_p99_ns", "lat_max_ns", "lat_min_ns", "lat_stddev_ns",
					"cpu_pct",    "elapsed_s" };


static struct suite_cell *cell_at(const struct suite_run *sr, unsigned t, unsigned pass, unsigned c)
{
	return &sr->targets[t].cells[pass * sr->suite->ncases + c];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static struct suite_cell *cell_job(const struct suite_run *sr, unsigned t, unsigned pass, unsigned c,
				   unsigned k)
{
	if (!k)
		return cell_at(sr, t, pass, c);
	return &sr->targets[t].more[(pass * sr->suite->ncases + c) * (SUITE_MAX_JOBS - 1) + k - 1];
}

struct fig3 suite_fig(const struct suite_run *sr, unsigned t, unsigned c, int dir, int fig)
{
	return suite_fig_job(sr, t, c, 0, dir, fig);
}

struct fig3 suite_fig_job(const struct suite_run *sr, unsigned t, unsigned c, unsigned k, int dir,
			  int fig)
{
	struct fig3 r = { NAN, NAN, NAN, 0 };
	unsigned passes = sr->s->passes;
	if (k >= SUITE_MAX_JOBS || (k && !sr->targets[t].more))
		return r;
	double *v = xcalloc(passes, sizeof(double));
	for (unsigned p = 0; p < passes; p++)
		if (cell_job(sr, t, p, c, k)->done)
			v[r.n++] = cell_job(sr, t, p, c, k)->v[dir][fig];
	if (r.n) {
		qsort(v, r.n, sizeof(double), cmp_double);
		r.median = r.n % 2 ? v[r.n / 2] : (v[r.n / 2 - 1] + v[r.n / 2]) / 2;
		r.min = v[0];
		r.max = v[r.n - 1];
	}
	free(v);
	return r;
}

/* ---- targets */

/*
 * The jobs of a case: options before the first --name apply to all, each
 * --name starts one (a copy of what came before it).  One job is named
 * after the case.
 */
int suite_case_jobs(const struct suite_run *sr, unsigned c, struct job *jobs, unsigned *n,
		    struct ig_err *e)
{
	char *copy = xstrdup(sr->suite->cases[c].opts), *save = NULL;
	struct job common = *sr->base;
	int rc = 0;
	*n = 0;
	for (char *t = strtok_r(copy, " ", &save); t && !rc; t = strtok_r(NULL, " ", &save)) {
		if (!strncmp(t, "--name=", 7)) {
			if (*n == SUITE_MAX_JOBS) {
				rc = err_set(e, EXIT_USAGE, "internal: case %s has more than %d jobs",
					     sr->suite->cases[c].name, SUITE_MAX_JOBS);
				break;
			}
			jobs[(*n)++] = common;
		}
		rc = args_apply_string(t, OG_ALL, *n ? &jobs[*n - 1] : &common, NULL, e);
	}
	free(copy);
	if (!rc && !*n) {
		jobs[0] = common;
		snprintf(jobs[0].name, sizeof(jobs[0].name), "%s", sr->suite->cases[c].name);
		*n = 1;
	}
	return rc;
}

/* Does any case write (read)?  Then devices need the interlock (and a layout before reads). */
static bool suite_does(const struct suite_exec *x, bool (*does)(int rw))
{
	for (unsigned c = 0; c < x->sr.suite->ncases; c++) {
		struct job j[SUITE_MAX_JOBS];
		unsigned n;
		struct ig_err e = { 0 };
		if (suite_case_jobs(&x->sr, c, j, &n, &e))
			continue;
		for (unsigned k = 0; k < n; k++) {
			bool writes = j[k].fileop || job_writes(&j[k]) || job_copies(&j[k]);
			if (does == rw_writes ? writes : does(j[k].rw) && !j[k].fileop)
				return true;
		}
	}
	return false;
}

static void said_stale(void *arg, const struct stale_file *f)
{
	(void)arg;
	msg_warn("removed %s, a %s left by iogauge process %d, which is no longer running", f->path,
		 f->tree ? "file set" : "test file", f->pid);
}

static bool suite_writes(const struct suite_exec *x)
{
	return suite_does(x, rw_writes) || x->sr.suite->prepare; /* a precondition writes */
}

static bool suite_reads(const struct suite_exec *x)
{
	return suite_does(x, rw_reads);
}

/* The option that sets the test file's size: the first of the suite's that was given, else the first. */
static void size_option(struct suite_exec *x, const struct parsed_args *pa)
{
	const char *list = x->sr.cmd->suite->size_opts ? x->sr.cmd->suite->size_opts : "size";
	char *copy = xstrdup(list), *save = NULL, *first = NULL;
	const char *typed = NULL;
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		first = first ? first : t;
		if ((typed = args_typed(pa, t))) {
			first = t;
			x->size_given = true;
			break;
		}
	}
	if (typed) /* as the user spelled it: latency's -S, Orion's -size_small */
		snprintf(x->size_opt, sizeof(x->size_opt), "%s", typed);
	else
		snprintf(x->size_opt, sizeof(x->size_opt), "%s%s", first[1] ? "--" : "-", first);
	free(copy);
}

/* A test file that does not fit above the floor: one line, the size, the free space, the floor. */
static void refuse_floor(struct suite_exec *x, struct suite_target *t, const char *path, uint64_t free_bytes,
			 uint64_t room)
{
	char a[32], f[32], fl[32], fit[96] = "nothing fits here";
	fmt_bytes(a, sizeof(a), (double)t->size);
	fmt_bytes(f, sizeof(f), (double)free_bytes);
	fmt_bytes(fl, sizeof(fl), (double)t->floor);
	if (room >= (1ULL << 20))
		snprintf(fit, sizeof(fit), "%s %llum or less fits%s", x->size_opt,
			 (unsigned long long)(room >> 20), cluster_size() > 1 ? " (each rank)" : "");
	else if (x->size_given)
		snprintf(fit, sizeof(fit), "no %s fits here", x->size_opt);
	if (x->size_given)
		err_set(&t->refused, EXIT_USAGE,
			"%s: %s %s does not fit: %s free, and iogauge keeps %s of the file system free (a tenth of it, at most 1 GiB); %s",
			path, x->size_opt, a, f, fl, fit);
	else
		err_set(&t->refused, EXIT_USAGE,
			"%s: the default %s test file does not fit: %s free, and iogauge keeps %s of the file system free (a tenth of it, at most 1 GiB); %s",
			path, a, f, fl, fit);
}

/* Decide the file (or device) and its size; a refusal is kept in the target, not fatal. */
static void resolve_target(struct suite_exec *x, struct suite_target *t, const char *path)
{
	const struct settings *s = x->sr.s;
	const char *name = x->sr.cmd->name;
	bool writes = suite_writes(x);
	struct stat st;
	snprintf(t->shown, sizeof(t->shown), "%s", path);
	t->size = x->base.size;
	if (stat(path, &st)) {
		err_set(&t->refused, EXIT_USAGE, "%s: %s", path, strerror(errno));
		return;
	}
	path_facts(path, &t->facts);
	if (!S_ISDIR(st.st_mode) && (x->sr.suite->flags & SUITE_DIRS_ONLY)) {
		err_set(&t->refused, EXIT_USAGE, "%s: not a directory; %s %s", path, name,
			x->sr.suite->flags & SUITE_IN_PLACE ? "reads the files below a directory"
							    : "works with files of its own in a directory");
		return;
	}
	if (S_ISBLK(st.st_mode)) {
		/* Refused now, before any target sees I/O. */
		if (writes && safety_check_blockdev(x->ctx, path, s->allow_destroy, &t->refused))
			return;
		snprintf(t->file, sizeof(t->file), "%s", path);
		t->is_dev = true;
		uint64_t devsize = 0;
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || ioctl(fd, BLKGETSIZE64, &devsize)) {
			err_set(&t->refused, EXIT_USAGE, "%s: %s", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return;
		}
		close(fd);
		t->whole = devsize;
		if (devsize < t->size) {
			t->size = devsize & ~((1ULL << 20) - 1);
			t->shrunk = true;
		}
		return;
	}
	if (S_ISREG(st.st_mode) && x->sr.suite->files) {
		/* Measured in place: the runner's interlocks decide about writing it. */
		snprintf(t->file, sizeof(t->file), "%s", path);
		t->is_file = true;
		t->whole = (uint64_t)st.st_size;
		if (t->whole < t->size) {
			t->size = t->whole;
			t->shrunk = true;
		}
		if (!t->size)
			err_set(&t->refused, EXIT_USAGE, "%s: the file is empty", path);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		err_set(&t->refused, EXIT_USAGE,
			"%s: not a directory%s or a block device (%s writes its own test file in a directory)",
			path, x->sr.suite->files ? ", a regular file" : "", name);
		return;
	}
	if (x->sr.suite->flags & SUITE_IN_PLACE) {
		/* Read where it is: nothing swept, no free space needed (the suite's jobs say what they make). */
		snprintf(t->file, sizeof(t->file), "%s", path);
		snprintf(t->set, sizeof(t->set), "%s", path);
		return;
	}
	/* What a killed run left here: removed (stale.c, strict), and said. */
	stale_sweep(path, said_stale, NULL);
	/* Several ranks (mpirun) may share the directory: each its own file (%r: the rank). */
	if ((size_t)snprintf(t->file, sizeof(t->file), "%s/iogauge-%s.%d.%u.tmp%s", path, name,
			     (int)getpid(), (unsigned)(t - x->sr.targets),
			     cluster_size() > 1 ? ".r%r" : "") >= sizeof(t->file)) {
		err_set(&t->refused, EXIT_USAGE, "%s: path too long", path);
		return;
	}
	snprintf(t->set, sizeof(t->set), "%s/iogauge-%s.%d.%u.files", path, name, (int)getpid(),
		 (unsigned)(t - x->sr.targets));
	struct statvfs vfs;
	if (statvfs(path, &vfs)) {
		err_set(&t->refused, EXIT_USAGE, "%s: %s", path, strerror(errno));
		return;
	}
	if (!vfs.f_blocks)
		return; /* no size reported (ramfs): a full disk would show as ENOSPC */
	uint64_t free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	uint64_t fs_bytes = (uint64_t)vfs.f_blocks * vfs.f_frsize;
	t->floor = fs_bytes / 10 < FLOOR_MAX ? fs_bytes / 10 : FLOOR_MAX;
	/* Ranks of one run may share the file system (a parallel one): each takes its share. */
	uint64_t room = (free_bytes > t->floor ? free_bytes - t->floor : 0) / cluster_size();
	/* A size the user gave (a typo: -S 200g) is refused, never shrunk into the floor. */
	bool exact = x->size_given || (x->sr.suite->flags & SUITE_EXACT_SIZE);
	if (t->size > room && exact) {
		refuse_floor(x, t, path, free_bytes, room);
		return;
	}
	/*
	 * The default size is not measured on a nearly full file system; a small
	 * test file (latency's 1 MiB) needs room for itself twice, not 64 MiB.
	 * A size given that fits above the floor is the user's choice.
	 */
	uint64_t min_free = t->size < MIN_FREE / 2 ? 2 * t->size : MIN_FREE;
	if (!x->size_given && free_bytes < min_free) {
		char b[32], c[32];
		err_set(&t->refused, EXIT_USAGE, "%s: only %s free; %s needs at least %s", path,
			fmt_bytes(b, sizeof(b), (double)free_bytes), name,
			fmt_bytes(c, sizeof(c), (double)min_free));
		return;
	}
	/* The default size shrinks to what fits above the floor, down to half of MIN_FREE. */
	if (t->size > room && room < MIN_FREE / 2) {
		refuse_floor(x, t, path, free_bytes, room);
		return;
	}
	if (t->size > room) {
		t->size = room & ~((1ULL << 20) - 1);
		t->shrunk = true;
	}
}

/*
 * A target the suite makes (a file system): made now, then resolved as a
 * directory; its label stays what the suite named it.  0 when made (to be
 * torn down), -1 when refused (t->refused) or nothing was made.
 */
static int made_target(struct suite_exec *x, struct suite_target *t)
{
	char dir[PATH_MAX], label[PATH_MAX];
	unsigned i = (unsigned)(t - x->sr.targets);
	if (x->sr.suite->setup(&x->sr, i, dir, sizeof(dir), &t->refused))
		return -1;
	snprintf(label, sizeof(label), "%s", t->shown);
	resolve_target(x, t, dir);
	snprintf(t->shown, sizeof(t->shown), "%s", label);
	return 0;
}

/* ---- running */

static void progress(void *arg, const struct run_live *l)
{
	struct suite_exec *x = arg;
	const struct suite_run *sr = &x->sr;
	unsigned ncases = sr->suite->ncases, npass = sr->s->passes;
	unsigned done = (x->target * npass + x->pass) * ncases + x->kase;
	unsigned left = sr->ntargets * npass * ncases - done;
	double eta = (double)left * (double)x->case_ns / 1e9 - (double)l->elapsed_ns / 1e9;
	char moved[32];
	if (!x->case_ns) /* size-bound cases (bonnie, a tree read): how far this one is, not a time left */
		fprintf(stderr, "\r\033[Kiogauge: %s: pass %u/%u, %s ... %s in %.0f s",
			sr->targets[x->target].shown, x->pass + 1, npass, sr->suite->cases[x->kase].name,
			fmt_bytes(moved, sizeof(moved), (double)l->bytes), (double)l->elapsed_ns / 1e9);
	else
		fprintf(stderr, "\r\033[Kiogauge: %s: pass %u/%u, %s ... about %.0f s left",
			sr->targets[x->target].shown, x->pass + 1, npass, sr->suite->cases[x->kase].name,
			eta > 0 ? eta : 0);
	fflush(stderr);
}

/* --verify checks the cases that write blocks (not bonnie's rewrite, nor file operations). */
static bool verifiable(const struct job *j)
{
	return rw_writes(j->rw) && !j->rewrite_pct && !j->fileop;
}

/* A case's job on a target; a case may ask for a smaller region (--size) than the target's. */
static int make_job(struct suite_exec *x, struct suite_target *t, unsigned c, const char *opts,
		    struct job *j, struct ig_err *e)
{
	*j = x->base;
	j->size = t->size;
	if (args_apply_string(opts, OG_ALL, j, NULL, e))
		return -1;
	snprintf(j->name, sizeof(j->name), "%s", x->sr.suite->cases[c].name);
	snprintf(j->filename, sizeof(j->filename), "%s", t->file);
	if (j->size > t->size)
		j->size = t->size;
	if (x->sr.suite->job)
		x->sr.suite->job(&x->sr, t, c, j);
	if (!verifiable(j))
		j->verify = VERIFY_NONE;
	return 0;
}

/*
 * A case's jobs on a target: the test file (file ops: the target's set
 * directory), the target's size unless the case names its own (sweep's file
 * sizes), which must fit.
 */
static int make_jobs(struct suite_exec *x, struct suite_target *t, unsigned c, struct job *jobs,
		     unsigned *n, struct ig_err *e)
{
	char b[32];
	if (suite_case_jobs(&x->sr, c, jobs, n, e))
		return -1;
	for (unsigned k = 0; k < *n; k++) {
		struct job *j = &jobs[k];
		if (j->fileop && !t->set[0])
			return err_set(e, EXIT_USAGE, "%s: file operations need a directory", t->shown);
		snprintf(j->filename, sizeof(j->filename), "%s", j->fileop ? t->set : t->file);
		if (j->size == x->base.size)
			j->size = t->size;
		else if (j->size > t->size)
			return err_set(e, EXIT_USAGE, "%s: case %s needs a %s file; it does not fit", t->shown,
				       x->sr.suite->cases[c].name, fmt_bytes(b, sizeof(b), (double)j->size));
		if (x->sr.suite->job)
			x->sr.suite->job(&x->sr, t, c, j);
		if (!verifiable(j))
			j->verify = VERIFY_NONE;
	}
	return 0;
}

static void add_jobs(struct suite_exec *x, const struct run_result *r, unsigned c)
{
	json_t *o = json_object();
	ig_json_add_run(o, r, OG_ALL);
	size_t i;
	json_t *jj;
	json_array_foreach(json_object_get(o, RK_JOBS), i, jj) {
		json_object_set_new(jj, RK_TARGET, ig_json_text(x->sr.targets[x->target].shown));
		json_object_set_new(jj, RK_CASE, json_string(x->sr.suite->cases[c].name));
		json_object_set_new(jj, RK_PASS, json_integer(x->pass + 1));
		json_object_set(jj, RK_DEVICES, json_object_get(o, RK_DEVICES));
		json_array_append(x->jobs, jj);
	}
	json_decref(o);
}

static void record_job(struct suite_run *sr, unsigned ti, unsigned pass, unsigned c, unsigned k,
		       const struct job_result *jr)
{
	struct suite_target *t = &sr->targets[ti];
	const struct thread_stats *s = &jr->total;
	struct suite_cell *cell = cell_job(sr, ti, pass, c, k);
	for (int d = 0; d < DDIR_NR; d++) {
		const struct lat_stats *l = &s->op[d].clat;
		double *v = cell->v[d];
		v[FIG_MBS] = result_bw(s, d) / 1e6;
		v[FIG_IOPS] = result_iops(s, d);
		v[FIG_LAT_MEAN] = lat_mean(l);
		v[FIG_LAT_P50] = (double)lat_pct(l, 50);
		v[FIG_LAT_P99] = (double)lat_pct(l, 99);
		v[FIG_LAT_MAX] = (double)(l->n ? l->max : 0);
		v[FIG_LAT_MIN] = (double)(l->n ? l->min : 0);
		v[FIG_LAT_STDDEV] = lat_stddev(l);
		cell->v[FD_TOTAL][FIG_MBS] += v[FIG_MBS];
		cell->v[FD_TOTAL][FIG_IOPS] += v[FIG_IOPS];
		t->req[d] += s->op[d].bytes;
	}
	/* Every request together (file operations too): one latency distribution. */
	struct lat_stats both;
	lat_init(&both);
	lat_merge(&both, &s->op[IO_READ].clat);
	lat_merge(&both, &s->op[IO_WRITE].clat);
	for (int op = IO_CREATE; op < IO_OP_NR; op++) {
		lat_merge(&both, &s->op[op].clat);
		cell->v[FD_TOTAL][FIG_MBS] += result_bw(s, op) / 1e6;
		cell->v[FD_TOTAL][FIG_IOPS] += result_iops(s, op);
	}
	cell->v[FD_TOTAL][FIG_LAT_MEAN] = lat_mean(&both);
	cell->v[FD_TOTAL][FIG_LAT_P50] = (double)lat_pct(&both, 50);
	cell->v[FD_TOTAL][FIG_LAT_P99] = (double)lat_pct(&both, 99);
	cell->v[FD_TOTAL][FIG_LAT_MAX] = (double)(both.n ? both.max : 0);
	cell->v[FD_TOTAL][FIG_LAT_MIN] = (double)(both.n ? both.min : 0);
	cell->v[FD_TOTAL][FIG_LAT_STDDEV] = lat_stddev(&both);
	lat_free(&both);
	double secs = (double)s->elapsed_ns / 1e9;
	double cpu = secs > 0 ? (double)(s->cpu.usr_ns + s->cpu.sys_ns) / 1e7 / secs : 0;
	for (int d = 0; d < FD_NR; d++) {
		cell->v[d][FIG_CPU] = cpu;
		cell->v[d][FIG_SECONDS] = secs;
	}
	cell->done = s->elapsed_ns > 0;
	cell->resident = jr->resident_before;
	cell->unsynced = jr->unsynced_after;
	/* Merged from several ranks: every rank's region (what resident and unsynced add up over). */
	cell->region = jr->job.size * (jr->cluster ? jr->cluster->nranks : 1);
	if (!t->info.path[0] && jr->targets)
		t->info = jr->targets[0];
	t->fallback |= jr->buffered_fallback;
}

/* Which job of case c a job is: by its name among the case's (a saved job comes alone). */
static unsigned job_slot(const struct suite_run *sr, unsigned c, const char *name, unsigned k)
{
	for (unsigned i = 0; sr->case_jobs && i < sr->case_jobs[c]; i++)
		if (!strcmp(sr->job_names[c][i], name))
			return i;
	return k;
}

void suite_record(struct suite_run *sr, unsigned ti, unsigned pass, unsigned c,
		  const struct run_result *r)
{
	struct suite_target *t = &sr->targets[ti];
	bool first = false;
	for (unsigned k = 0; k < r->njobs; k++) {
		unsigned slot = job_slot(sr, c, r->jobs[k].job.name, k);
		if (!r->jobs[k].threads || slot >= SUITE_MAX_JOBS || (slot && !t->more))
			continue;
		record_job(sr, ti, pass, c, slot, &r->jobs[k]);
		first |= slot == 0; /* a saved case's jobs each carry the run's devices: counted once */
	}
	if (first && r->ndevs && r->devs[0].ok) {
		t->dev_ok = true;
		t->dev[IO_READ] += r->devs[0].rd_sectors * 512;
		t->dev[IO_WRITE] += r->devs[0].wr_sectors * 512;
	}
}

static void record(struct suite_exec *x, struct suite_target *t, unsigned c, const struct run_result *r)
{
	suite_record(&x->sr, (unsigned)(t - x->sr.targets), x->pass, c, r);
	if (x->jobs && r->njobs && r->jobs[0].threads)
		add_jobs(x, r, c);
}

static int run_jobs(struct suite_exec *x, struct job *j, unsigned n, struct run_result *r)
{
	struct run_opts o = {
		.allow_destroy = x->sr.s->allow_destroy,
		.allow_overwrite = x->sr.s->allow_overwrite,
		.progress = x->show_progress ? progress : NULL,
		.progress_arg = x,
	};
	return runner_run(x->ctx, j, n, &o, r);
}

static int run_one(struct suite_exec *x, struct job *j, struct run_result *r)
{
	return run_jobs(x, j, 1, r);
}

/*
 * A device is never laid out by the runner (it reads whatever is there), but
 * unwritten or trimmed blocks read faster than data: write the region first.
 * Shown, never counted.
 */
/* A run that ended in an error: its messages below the progress line; a refusal marks the target. */
static void run_failed(struct suite_exec *x, struct suite_target *t, const struct run_result *r, int rc)
{
	if (x->show_progress)
		fprintf(stderr, "\r\033[K");
	report_errors(r);
	if (rc == EXIT_USAGE)
		t->refused = r->err;
}

static int layout_device(struct suite_exec *x, struct suite_target *t)
{
	struct job j = x->base;
	struct ig_err e = { 0 };
	if (args_apply_string("--name=layout --rw=write --bs=1m --iodepth=8 --numjobs=1 "
			      "--time_based=0 --runtime=0 --ramp_time=0",
			      OG_ALL, &j, NULL, &e))
		return e.status;
	snprintf(j.filename, sizeof(j.filename), "%s", t->file);
	j.size = t->size;
	struct run_result r;
	int rc = run_one(x, &j, &r);
	t->layout_ns = r.jobs[0].total.elapsed_ns;
	if (rc)
		report_errors(&r);
	run_result_free(&r);
	return rc;
}

/* The suite's precondition of a target: once, before its passes; timed apart, never recorded. */
static int prepare_target(struct suite_exec *x, struct suite_target *t)
{
	struct job j = x->base;
	struct ig_err e = { 0 };
	j.size = t->size;
	if (args_apply_string(x->sr.suite->prepare, OG_ALL, &j, NULL, &e)) {
		msg_err("%s", e.msg);
		return e.status;
	}
	snprintf(j.name, sizeof(j.name), "precondition");
	snprintf(j.filename, sizeof(j.filename), "%s", t->file);
	struct run_result r;
	int rc = run_one(x, &j, &r);
	if (r.jobs[0].threads) {
		t->prepare_ns = r.jobs[0].total.elapsed_ns;
		t->prepare_bytes = r.jobs[0].total.op[IO_WRITE].bytes;
	}
	if (rc)
		run_failed(x, t, &r, rc);
	run_result_free(&r);
	return rc;
}

/* A case's warm-up: run, never recorded. */
static int warm_up(struct suite_exec *x, struct suite_target *t, unsigned c)
{
	struct job j;
	struct run_result r;
	struct ig_err e = { 0 };
	if (make_job(x, t, c, x->sr.suite->warmups[c], &j, &e)) {
		msg_err("%s", e.msg);
		return e.status;
	}
	j.plan.hooks = NULL;
	int rc = run_one(x, &j, &r);
	if (rc) {
		if (x->show_progress)
			fprintf(stderr, "\r\033[K");
		report_errors(&r);
	}
	run_result_free(&r);
	return rc;
}

static int run_target_cases(struct suite_exec *x, struct suite_target *t);

/*
 * A block device's page cache goes when its last opener closes it: held open
 * while its cases run, what one case (a warm-up) left cached is still there
 * for the next, as it is for a file.
 */
static int run_target(struct suite_exec *x, struct suite_target *t)
{
	int hold = t->is_dev ? open(t->file, O_RDONLY | O_CLOEXEC) : -1;
	int rc = run_target_cases(x, t);
	if (hold >= 0)
		close(hold);
	return rc;
}

static int run_target_cases(struct suite_exec *x, struct suite_target *t)
{
	t->tested = true;
	/* Before reads, not before a suite that only writes; a precondition writes the region anyway. */
	if (t->is_dev && suite_writes(x) && suite_reads(x) && !x->sr.suite->prepare) {
		int rc = layout_device(x, t);
		if (rc)
			return rc;
	}
	if (x->sr.suite->prepare) {
		int rc = prepare_target(x, t);
		if (rc)
			return rc;
	}
	for (x->pass = 0; x->pass < x->sr.s->passes; x->pass++) {
		x->sr.pass = x->pass;
		for (x->kase = 0; x->kase < x->sr.suite->ncases; x->kase++) {
			struct job j[SUITE_MAX_JOBS];
			unsigned n;
			struct run_result r;
			struct ig_err e = { 0 };
			int rc = x->sr.suite->warmups && x->sr.suite->warmups[x->kase] ? warm_up(x, t, x->kase) : 0;
			if (rc)
				return rc;
			if (make_jobs(x, t, x->kase, j, &n, &e)) {
				msg_err("%s", e.msg);
				t->refused = e;
				return e.status;
			}
			rc = run_jobs(x, j, n, &r);
			record(x, t, x->kase, &r);
			if (x->sr.suite->case_done)
				x->sr.suite->case_done(&x->sr, (unsigned)(t - x->sr.targets), x->kase);
			if (rc) {
				run_failed(x, t, &r, rc);
				run_result_free(&r);
				return rc;
			}
			run_result_free(&r);
		}
		if (x->sr.suite->pass_done && x->sr.suite->pass_done(&x->sr, (unsigned)(t - x->sr.targets), x->pass))
			break; /* the suite has what it needs (steady state reached) */
	}
	if (x->show_progress)
		fprintf(stderr, "\r\033[K");
	return 0;
}

/* ---- the command */

/* The cases must fit the size and the clock the user chose: said before anything runs. */
int suite_case_names(struct suite_run *sr, struct ig_err *e)
{
	unsigned nc = sr->suite->ncases;
	sr->case_jobs = xcalloc(nc ? nc : 1, sizeof(*sr->case_jobs));
	sr->job_names = xcalloc(nc ? nc : 1, sizeof(*sr->job_names));
	for (unsigned c = 0; c < nc; c++) {
		struct job j[SUITE_MAX_JOBS];
		if (suite_case_jobs(sr, c, j, &sr->case_jobs[c], e))
			return -1;
		for (unsigned k = 0; k < sr->case_jobs[c]; k++)
			memcpy(sr->job_names[c][k], j[k].name, JOB_NAME_MAX);
	}
	return 0;
}

static int check_cases(struct suite_exec *x, struct ig_err *e)
{
	uint64_t max_bs = 0;
	char b[32];
	if (suite_case_names(&x->sr, e))
		return -1;
	for (unsigned c = 0; c < x->sr.suite->ncases; c++) {
		struct job j[SUITE_MAX_JOBS];
		unsigned n;
		if (suite_case_jobs(&x->sr, c, j, &n, e))
			return -1;
		for (unsigned k = 0; k < n; k++) {
			/* A case with a size of its own is checked against it when it runs. */
			if (!j[k].fileop && j[k].size == x->base.size)
				max_bs = j[k].bs > max_bs ? j[k].bs : max_bs;
			if (j[k].time_based && !j[k].runtime_ns)
				return err_set(e, EXIT_USAGE, "--runtime: %s's tests are timed; give a time above 0",
					       x->sr.cmd->name);
		}
	}
	if (x->base.size < max_bs)
		return err_set(e, EXIT_USAGE, "--size: %s needs at least %s (its largest request)",
			       x->sr.cmd->name, fmt_bytes(b, sizeof(b), (double)max_bs));
	return 0;
}

void suite_cases_free(struct suite_case *cases, unsigned n)
{
	for (unsigned c = 0; cases && c < n; c++) {
		free((void *)cases[c].name);
		free((void *)cases[c].opts);
	}
	free(cases);
}

/* A sweep's cases, made from the options the user gave. */
static int generate_cases(struct suite_exec *x, struct ig_err *e)
{
	const struct suite *s = x->sr.cmd->suite;
	struct suite_case *cases = NULL;
	unsigned n = 0;
	if (!s->make_cases && !s->plan)
		return 0;
	if (s->make_cases ? s->make_cases(&x->base, &cases, &n, e) : s->plan(&x->sr, &x->base, &cases, &n, e)) {
		suite_cases_free(cases, n);
		return -1;
	}
	x->gen = *s;
	x->gen.cases = cases;
	x->gen.ncases = n;
	x->sr.suite = &x->gen;
	return 0;
}

static void free_generated(struct suite_exec *x)
{
	if (x->sr.suite == &x->gen)
		suite_cases_free((struct suite_case *)x->gen.cases, x->gen.ncases);
	free(x->sr.case_jobs);
	free(x->sr.job_names);
}


/* ---- the executor's steps, in the order the suite command calls them (cmds/suite_main.c) */

int suite_exec_prepare(struct suite_exec *x, struct parsed_args *pa, struct ig_err *e)
{
	const struct suite *s = x->sr.cmd->suite;
	x->base = pa->global;
	x->sr.base = &x->base;
	x->sr.s = &pa->settings;
	x->sr.args = pa;
	x->sr.ntargets = pa->nwords ? pa->nwords : 1;
	x->sr.words = pa->words;
	x->sr.nwords = pa->nwords;
	x->sr.ctx = x->ctx;
	size_option(x, pa);
	if ((s->start && s->start(&x->sr, &x->base, e)) || generate_cases(x, e) || check_cases(x, e) ||
	    (s->write_files && s->write_files(&x->sr, true, e)))
		return -1;
	return 0;
}

void suite_exec_targets(struct suite_exec *x, FILE *out, bool want_jobs)
{
	const struct suite *s = x->sr.cmd->suite;
	x->sr.out = out;
	x->case_ns = x->base.runtime_ns + x->base.ramp_ns;
	x->show_progress = !x->sr.s->quiet && !s->no_progress && isatty(STDERR_FILENO);
	if (want_jobs)
		x->jobs = json_array();
	x->sr.targets = xcalloc(x->sr.ntargets, sizeof(struct suite_target));
	for (unsigned i = 0; i < x->sr.ntargets; i++) {
		struct suite_target *t = &x->sr.targets[i];
		if (s->setup) {
			snprintf(t->shown, sizeof(t->shown), "%s", s->target_name(&x->sr, i));
		} else {
			resolve_target(x, t, x->sr.nwords ? x->sr.words[i] : ".");
			cluster_agree(x->ctx, &t->refused); /* a target one rank refuses, every rank skips */
		}
		size_t ncells = (size_t)x->sr.s->passes * x->sr.suite->ncases;
		t->cells = xcalloc(ncells ? ncells : 1, sizeof(struct suite_cell));
		t->more = xcalloc(ncells ? ncells * (SUITE_MAX_JOBS - 1) : 1, sizeof(struct suite_cell));
	}
}

/* A target's warnings once it was measured: a test file smaller than asked. */
static void shrunk_warning(const struct suite_exec *x, const struct suite_target *t)
{
	char b[32], c[32];
	if (t->shrunk && !t->is_dev && !t->is_file)
		msg_warn("%s: the test file was shrunk to %s to keep %s of the file system free (%s sets its size)",
			 t->shown, fmt_bytes(b, sizeof(b), (double)t->size),
			 fmt_bytes(c, sizeof(c), (double)t->floor), x->size_opt);
	else if (t->shrunk && t->is_file) /* the user's file: its size, not the free space */
		msg_warn("%s: the whole file (%s) was tested: it is smaller than the test's size", t->shown,
			 fmt_bytes(b, sizeof(b), (double)t->size));
}

int suite_exec_run(struct suite_exec *x, const struct ig_err **first)
{
	const struct suite *s = x->sr.cmd->suite;
	int status = 0;
	*first = NULL;
	for (x->target = 0; x->target < x->sr.ntargets && !x->ctx->stop; x->target++) {
		struct suite_target *t = &x->sr.targets[x->target];
		bool made = s->setup && !made_target(x, t);
		int rc = t->refused.status ? t->refused.status : x->ctx->stop ? 0 : run_target(x, t);
		if (t->refused.status) {
			if (rc == t->refused.status && !t->tested)
				msg_err("%s", t->refused.msg);
			*first = *first ? *first : &t->refused;
		}
		/* The test file is needed only while its target is tested. */
		ctx_remove_files(x->ctx);
		if (made)
			s->teardown(&x->sr, x->target);
		if (t->tested && s->target_done)
			s->target_done(x->sr.out, &x->sr, x->target);
		/* Only about a target measured: a refused one is not "tested" in any size. */
		if (t->tested && !t->refused.status)
			shrunk_warning(x, t);
		if (rc && rc != EXIT_USAGE) {
			status = rc; /* an I/O error or a signal ends the suite */
			break;
		}
		if (rc && !status)
			status = rc;
	}
	if (x->ctx->stop && status < 128)
		status = 128 + (int)x->ctx->stop;
	if (x->sr.signal_ends && x->ctx->stop == SIGINT && status == 128 + SIGINT)
		status = 0;
	return status;
}

bool suite_exec_measured(const struct suite_exec *x)
{
	const struct suite_run *sr = &x->sr;
	for (unsigned t = 0; t < sr->ntargets; t++)
		for (size_t c = 0; c < (size_t)sr->s->passes * sr->suite->ncases; c++)
			if (sr->targets[t].cells[c].done)
				return true;
	return false;
}

json_t *suite_exec_jobs(const struct suite_exec *x)
{
	return x->jobs;
}

void suite_exec_end(struct suite_exec *x)
{
	if (x->sr.cmd->suite->end)
		x->sr.cmd->suite->end(&x->sr);
	json_decref(x->jobs);
	x->jobs = NULL;
	for (unsigned i = 0; x->sr.targets && i < x->sr.ntargets; i++) {
		free(x->sr.targets[i].cells);
		free(x->sr.targets[i].more);
	}
	free(x->sr.targets);
	x->sr.targets = NULL;
	free_generated(x);
}
