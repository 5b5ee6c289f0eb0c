/* What a run merged from several ranks adds to the reports: ranks, hosts, clocks, stragglers. */
#include "base/common.h"
#include "base/result_keys.h"
#include "run/merge.h"
#include "model/job_names.h"
#include "report/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Ranks listed one by one up to this many; beyond, the ones with the most left. */
#define RANKS_LISTED 64

static const char *const halt_words[] = { "", "finished its size first (--stonewall-all)",
					  "failed", "was interrupted" };

static void print_spread(FILE *f, const char *label, const struct spread *s, double scale,
			 const char *unit)
{
	fprintf(f, "    %-12s min=%.2f%s (rank %u), mean=%.2f%s, max=%.2f%s (rank %u)\n", label,
		s->min / scale, unit, s->min_rank, s->mean / scale, unit, s->max / scale, unit, s->max_rank);
}

static int cmp_left(const void *a, const void *b, void *arg)
{
	const struct rank_fig *f = arg;
	uint64_t x = f[*(const unsigned *)a].left_bytes, y = f[*(const unsigned *)b].left_bytes;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* What each rank had left of its size when the phase was cut short. */
static void print_left(FILE *f, const struct cluster_job *cj, unsigned n)
{
	char b[32];
	uint64_t total = 0;
	for (unsigned r = 0; r < n; r++)
		total += cj->ranks[r].left_bytes;
	fprintf(f, "    left of the size when stopped: %s in all", fmt_bytes(b, sizeof(b), (double)total));
	unsigned *order = xcalloc(n, sizeof(unsigned));
	for (unsigned r = 0; r < n; r++)
		order[r] = r;
	if (n > RANKS_LISTED)
		qsort_r(order, n, sizeof(unsigned), cmp_left, cj->ranks);
	unsigned shown = n > RANKS_LISTED ? RANKS_LISTED : n;
	for (unsigned k = 0; k < shown; k++) {
		fprintf(f, "%s rank %u: %s", k % 4 ? "," : ";\n     ", order[k],
			fmt_bytes(b, sizeof(b), (double)cj->ranks[order[k]].left_bytes));
	}
	if (shown < n)
		fprintf(f, " (the %u ranks with the most left; %u more)", shown, n - shown);
	fprintf(f, "\n");
	free(order);
}

static void print_job(FILE *f, const struct job_result *jr, unsigned n)
{
	static const char *const dir[DDIR_NR] = { "read", "write" };
	const struct cluster_job *cj = jr->cluster;
	fprintf(f, "  %s, per rank:\n", jr->job.name);
	for (int d = 0; d < DDIR_NR; d++) {
		if (!jr->total.op[d].ios)
			continue;
		char label[32];
		snprintf(label, sizeof(label), "%s MB/s", dir[d]);
		struct spread s = merge_spread(cj, n, rank_fig_bw, d);
		print_spread(f, label, &s, 1e6, "");
		snprintf(label, sizeof(label), "%s IOPS", dir[d]);
		s = merge_spread(cj, n, rank_fig_iops, d);
		print_spread(f, label, &s, 1, "");
	}
	if (jr->job.fileop) {
		char label[32];
		snprintf(label, sizeof(label), "%s ops/s", io_op_names[job_file_op(&jr->job)]);
		struct spread s = merge_spread(cj, n, rank_fig_fops, 0);
		print_spread(f, label, &s, 1, "");
	}
	struct spread s = merge_spread(cj, n, rank_fig_lat_mean, 0);
	print_spread(f, "clat mean", &s, 1e3, " us");
	s = merge_spread(cj, n, rank_fig_elapsed, 0);
	print_spread(f, "time", &s, 1e-3, " ms");
	bool left = false;
	for (unsigned r = 0; r < n; r++)
		left |= cj->ranks[r].left_bytes != 0;
	if (left)
		print_left(f, cj, n);
}

void report_cluster_text(FILE *f, const struct run_result *r)
{
	const struct cluster_run *cr = r->cluster;
	bool ran = false;
	for (unsigned i = 0; i < r->njobs; i++)
		ran |= r->jobs[i].threads != NULL;
	if (!ran)
		return; /* refused before any I/O: the one line on stderr says it all */
	fprintf(f, "\nRanks: %u on %u host%s; rank 0 reports for all: the bandwidth above is every rank's "
		   "bytes over the slowest rank's time, the latency is every request of every rank\n",
		cr->nranks, cr->nhosts, cr->nhosts == 1 ? "" : "s");
	fprintf(f, "  clocks: wall-clock offsets to rank 0 from %.1f to %.1f us (measured at start, after a barrier)\n",
		(double)cr->offset_min_ns / 1e3, (double)cr->offset_max_ns / 1e3);
	if (cr->start_skew_ns)
		fprintf(f, "  start: every rank left the barrier before the measured phase within %.1f us (clocks corrected)\n",
			(double)cr->start_skew_ns / 1e3);
	fprintf(f, "  merge: %.2f ms on rank 0 (the reduction of the histograms and sums, and the ranks' own figures gathered)\n",
		(double)cr->merge_ns / 1e6);
	if (cr->halt_reason)
		fprintf(f, "  stopped: rank %d %s, and every rank stopped then%s\n", cr->halt_rank,
			halt_words[cr->halt_reason],
			cr->halt_reason == CLUSTER_HALT_STONEWALL ?
				"; the rates above are stonewalled: every rank's bytes until the stop over the slowest rank's time" :
				"");
	for (unsigned i = 0; i < r->njobs; i++)
		if (r->jobs[i].cluster)
			print_job(f, &r->jobs[i], r->jobs[i].cluster->nranks);
}

/* ---- JSON */

static json_t *ig_json_spread(const struct spread *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "min", json_real(s->min));
	json_object_set_new(o, "mean", json_real(s->mean));
	json_object_set_new(o, "max", json_real(s->max));
	json_object_set_new(o, "min_rank", json_integer(s->min_rank));
	json_object_set_new(o, "max_rank", json_integer(s->max_rank));
	return o;
}

void ig_json_job_ranks(json_t *o, const struct job_result *jr)
{
	const struct cluster_job *cj = jr->cluster;
	unsigned nranks = cj->nranks;
	json_object_set_new(o, "ranks_n", json_integer(nranks));
	json_object_set_new(o, "error_rank", cj->err_rank >= 0 ? json_integer(cj->err_rank) : json_null());
	json_t *sp = json_object();
	for (int d = 0; d < DDIR_NR; d++) {
		json_t *x = json_object();
		struct spread s = merge_spread(cj, nranks, rank_fig_bw, d);
		json_object_set_new(x, "bw_bytes", ig_json_spread(&s));
		s = merge_spread(cj, nranks, rank_fig_iops, d);
		json_object_set_new(x, "iops", ig_json_spread(&s));
		json_object_set_new(sp, io_op_names[d], x);
	}
	if (jr->job.fileop) {
		json_t *x = json_object();
		struct spread s = merge_spread(cj, nranks, rank_fig_fops, 0);
		json_object_set_new(x, "iops", ig_json_spread(&s));
		json_object_set_new(sp, io_op_names[job_file_op(&jr->job)], x);
	}
	struct spread s = merge_spread(cj, nranks, rank_fig_elapsed, 0);
	s.min *= 1e9, s.mean *= 1e9, s.max *= 1e9;
	json_object_set_new(sp, "elapsed_ns", ig_json_spread(&s));
	s = merge_spread(cj, nranks, rank_fig_lat_mean, 0);
	json_object_set_new(sp, "clat_mean_ns", ig_json_spread(&s));
	json_t *left = json_array();
	for (unsigned r = 0; r < nranks; r++)
		json_array_append_new(left, ig_json_u64(cj->ranks[r].left_bytes));
	json_object_set_new(sp, "left_bytes", left);
	json_object_set_new(o, "rank_spread", sp);
	json_t *ranks = cj->ranks_json ? json_loads(cj->ranks_json, 0, NULL) : NULL;
	json_object_set_new(o, "ranks", ranks ? ranks : json_array());
	json_object_set_new(o, "ranks_detail", json_string(rank_results_names[cj->detail]));
}

json_t *ig_json_cluster(const struct run_result *r)
{
	const struct cluster_run *cr = r->cluster;
	json_t *o = json_object();
	json_object_set_new(o, "ranks_n", json_integer(cr->nranks));
	json_object_set_new(o, "hosts_n", json_integer(cr->nhosts));
	json_object_set_new(o, "clock_offset_min_ns", json_integer(cr->offset_min_ns));
	json_object_set_new(o, "clock_offset_max_ns", json_integer(cr->offset_max_ns));
	json_object_set_new(o, "start_skew_ns", json_integer(cr->start_skew_ns));
	json_object_set_new(o, "merge_ns", ig_json_u64(cr->merge_ns));
	json_object_set_new(o, "stopped_by", cr->halt_reason ? json_string(halt_words[cr->halt_reason]) : json_null());
	json_object_set_new(o, "stopped_by_rank", cr->halt_reason ? json_integer(cr->halt_rank) : json_null());
	json_t *ranks = json_array();
	for (unsigned k = 0; k < cr->nranks; k++) {
		const struct rank_info *ri = &cr->ranks[k];
		json_t *x = json_object();
		json_object_set_new(x, "rank", json_integer(k));
		json_object_set_new(x, RK_HOST, ig_json_text(ri->host));
		json_object_set_new(x, "clock_offset_ns", json_integer(ri->clock_offset_ns));
		json_object_set_new(x, "start_ns", json_integer(ri->start_wall_ns - ri->clock_offset_ns -
							       cr->ranks[0].start_wall_ns));
		json_object_set_new(x, RK_STATUS, json_integer(ri->status));
		json_array_append_new(ranks, x);
	}
	json_object_set_new(o, "ranks", ranks);
	return o;
}
