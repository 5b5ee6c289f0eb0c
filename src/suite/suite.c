/* A suite's figures: the jobs of its cases, every run recorded by target, pass and case, median and min-max. */
#include "base/common.h"
#include "options/options.h"
#include "options/args.h"
#include "run/merge.h"
#include "suite/suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	/* A saved result read back may hold fewer targets or cases than a formatter asks for. */
	if (t >= sr->ntargets || c >= sr->suite->ncases || !sr->targets[t].cells || k >= SUITE_MAX_JOBS ||
	    (k && !sr->targets[t].more))
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

void suite_cases_free(struct suite_case *cases, unsigned n)
{
	for (unsigned c = 0; cases && c < n; c++) {
		free((void *)cases[c].name);
		free((void *)cases[c].opts);
	}
	free(cases);
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
