/*
 * iogauge-mpi: every rank's results merged on rank 0.  Statistics go
 * through one MPI_Reduce per job over a fixed-size buffer (merge.c): its
 * cost grows with log N.  Small fixed records per rank (figures, host,
 * clocks) and each rank's own JSON are gathered to rank 0, which grows with N.
 */
#include "cluster/mpi/mpi_int.h"
#include "base/result_keys.h"
#include "base/common.h"
#include "base/ctx.h"
#include "run/merge.h"
#include "run/runner.h"
#include "report/report.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The most serious status of any rank and the longest run, on every rank. */
static void agree_status(struct run_ctx *c, struct run_result *r)
{
	uint64_t in[SYNC_VALS] = { (uint64_t)mpi_status_rank(r->status) << 32 | (uint32_t)r->status,
				   r->elapsed_ns },
		 out[SYNC_VALS];
	if (!mpi_sync(c, SITE_MERGE, in, out)) {
		r->status = r->status ? r->status : EXIT_USAGE;
		return;
	}
	r->status = (int)(uint32_t)out[0];
	r->elapsed_ns = out[1];
}

/* The reduction: buffers are self-describing (merge.c), one per element. */
static void combine_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	const uint64_t *a = in;
	uint64_t *b = inout;
	for (int i = 0; i < *len; i++) {
		size_t words = merge_buffer_words(a);
		merge_combine(a, b);
		a += words;
		b += words;
	}
}

/* One job's statistics, reduced exactly onto rank 0. */
static void reduce_job(struct run_ctx *c, struct job_result *jr, MPI_Op op)
{
	uint64_t shape[MERGE_SHAPE_WORDS], all[MERGE_SHAPE_WORDS];
	merge_shape(jr, shape);
	mpi_allreduce(c, shape, all, MERGE_SHAPE_WORDS, MPI_UINT64_T, MPI_MAX);
	size_t words = merge_words(all);
	uint64_t *buf = xcalloc(words, sizeof(uint64_t));
	uint64_t *out = mpi_g.rank ? NULL : xcalloc(words, sizeof(uint64_t));
	merge_pack(jr, all, buf);
	MPI_Datatype t;
	MPI_Type_contiguous((int)words, MPI_UINT64_T, &t);
	MPI_Type_commit(&t);
	MPI_Request rq;
	MPI_Ireduce(buf, out, 1, t, op, 0, MPI_COMM_WORLD, &rq);
	mpi_await(c, &rq);
	MPI_Type_free(&t);
	if (out)
		merge_unpack(out, all, jr);
	free(buf);
	free(out);
}

/* The first error of the lowest failing rank, on rank 0 (with which rank it was). */
struct err_msg {
	int32_t err, op, short_io;
	uint32_t short_got, short_len, pad;
	uint64_t offset;
	char file[PATH_MAX];
};

static int move_error(struct run_ctx *c, struct job_result *jr)
{
	uint64_t mine = jr->total.err ? mpi_g.rank : UINT32_MAX, who;
	mpi_allreduce(c, &mine, &who, 1, MPI_UINT64_T, MPI_MIN);
	if (who == UINT32_MAX) {
		jr->total.err = 0;
		return -1;
	}
	struct err_msg m;
	memset(&m, 0, sizeof(m));
	if (who == mpi_g.rank) {
		m.err = jr->total.err;
		m.op = jr->total.err_op;
		m.short_io = jr->total.short_io;
		m.short_got = jr->total.short_got;
		m.short_len = jr->total.short_len;
		m.offset = jr->total.err_offset;
		memcpy(m.file, jr->total.err_file, sizeof(m.file));
	}
	MPI_Request rq;
	MPI_Ibcast(&m, sizeof(m), MPI_BYTE, (int)who, MPI_COMM_WORLD, &rq);
	mpi_await(c, &rq);
	jr->total.err = m.err;
	jr->total.err_op = m.op;
	jr->total.short_io = m.short_io;
	jr->total.short_got = m.short_got;
	jr->total.short_len = m.short_len;
	jr->total.err_offset = m.offset;
	memcpy(jr->total.err_file, m.file, sizeof(m.file));
	return (int)who;
}

/* Fixed records of every rank, in rank order, on rank 0 (NULL elsewhere). */
static void *gather(struct run_ctx *c, const void *mine, size_t size)
{
	void *all = mpi_g.rank ? NULL : xcalloc(mpi_g.size, size);
	MPI_Request rq;
	MPI_Igather(mine, (int)size, MPI_BYTE, all, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD, &rq);
	mpi_await(c, &rq);
	return all;
}

/* Variable-length bytes of every rank, concatenated on rank 0; lens[r] each. */
static char *gatherv(struct run_ctx *c, const char *mine, int len, int **lens_out)
{
	int *lens = gather(c, &len, sizeof(int));
	int *displs = NULL;
	char *all = NULL;
	if (!mpi_g.rank) {
		displs = xcalloc(mpi_g.size, sizeof(int));
		size_t total = 0;
		for (unsigned r = 0; r < mpi_g.size; r++) {
			displs[r] = (int)total;
			total += (size_t)lens[r];
		}
		all = xcalloc(total + 1, 1);
	}
	MPI_Request rq;
	MPI_Igatherv(mine, len, MPI_BYTE, all, lens, displs, MPI_BYTE, 0, MPI_COMM_WORLD, &rq);
	mpi_await(c, &rq);
	free(displs);
	*lens_out = lens;
	return all;
}

/*
 * --rank-results as it applies to this many ranks.  After Ctrl-C, mpirun
 * kills every rank a second after its SIGTERM: auto keeps the ranks' objects
 * brief then, so that the merge and rank 0's JSON fit in that second.
 */
static int rank_results(const struct run_ctx *c, const struct job *j)
{
	if (j->rank_results != RANKS_AUTO)
		return j->rank_results;
	if (mpi_g.size > 4096)
		return RANKS_NONE;
	return mpi_g.size > 256 || c->stop ? RANKS_BRIEF : RANKS_FULL;
}

/* brief: without what grows with the run and the latencies' spread (histograms, series, threads). */
static void make_brief(json_t *o)
{
	json_object_del(o, "series");
	json_object_del(o, "threads");
	const char *key;
	json_t *v;
	json_object_foreach(o, key, v) {
		if (!json_is_object(v))
			continue;
		static const char *const lats[] = { "slat_ns", "clat_ns", "lat_ns" };
		for (size_t i = 0; i < ARRAY_SIZE(lats); i++) {
			json_t *l = json_object_get(v, lats[i]);
			if (json_is_object(l))
				json_object_del(l, "histogram");
		}
	}
}

/*
 * Each rank's own job object (the schema of a job, without the options every
 * rank shares), gathered on rank 0: the one part of the merge whose size
 * grows with the number of ranks, hence --rank-results.
 */
static char *rank_json(struct run_ctx *c, const struct job_result *jr, int *mode_out)
{
	int mode = *mode_out = rank_results(c, &jr->job); /* c->stop is agreed (agree_status) */
	if (mode == RANKS_NONE)
		return NULL;
	json_t *o = ig_json_job(jr, 0, NULL);
	json_object_del(o, "options");
	if (mode == RANKS_BRIEF)
		make_brief(o);
	json_object_set_new(o, "rank", json_integer(mpi_g.rank));
	json_object_set_new(o, RK_HOST, ig_json_text(mpi_g.host));
	char *s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	/* Rank 0 takes at most 1 GiB of them (MPI counts are ints); beyond, none, on every rank alike. */
	uint64_t len = s ? strlen(s) : 4, total;
	mpi_allreduce(c, &len, &total, 1, MPI_UINT64_T, MPI_SUM);
	if (total > (1ULL << 30)) {
		free(s);
		*mode_out = RANKS_NONE;
		return NULL;
	}
	int *lens;
	char *all = gatherv(c, s ? s : "null", (int)len, &lens);
	free(s);
	if (mpi_g.rank)
		return NULL;
	/* "[" + the objects joined by "," + "]" */
	char *arr = xcalloc(total + mpi_g.size + 2, 1), *p = arr, *q = all;
	*p++ = '[';
	for (unsigned r = 0; r < mpi_g.size; r++) {
		if (r)
			*p++ = ',';
		memcpy(p, q, (size_t)lens[r]);
		p += lens[r];
		q += lens[r];
	}
	*p++ = ']';
	free(all);
	free(lens);
	return arr;
}

static void merge_job(struct run_ctx *c, struct job_result *jr, MPI_Op op)
{
	struct rank_fig mine;
	rank_fig_of(jr, &mine);
	int detail;
	char *json = rank_json(c, jr, &detail);
	reduce_job(c, jr, op);
	int who = move_error(c, jr);
	struct rank_fig *figs = gather(c, &mine, sizeof(mine));
	if (mpi_g.rank) {
		free(json);
		return;
	}
	struct cluster_job *cj = xcalloc(1, sizeof(*cj));
	cj->nranks = mpi_g.size;
	cj->ranks = figs;
	cj->ranks_json = json;
	cj->detail = detail;
	cj->err_rank = who;
	jr->cluster = cj;
}

/* Every host's devices: each rank's, once per host (the counters are the host's, not the rank's). */
static void merge_devices(struct run_ctx *c, struct run_result *r, struct cluster_run *cr,
			  struct rank_info *info)
{
	struct dev_result mine[MAX_DEVS];
	for (unsigned i = 0; i < r->ndevs; i++) {
		mine[i] = r->devs[i];
		snprintf(mine[i].host, sizeof(mine[i].host), "%s", mpi_g.host);
	}
	info->ndevs = r->ndevs;
	int *lens;
	char *all = gatherv(c, (const char *)mine, (int)(r->ndevs * sizeof(mine[0])), &lens);
	if (!cr) {
		free(all);
		free(lens);
		return;
	}
	const struct dev_result *d = (const struct dev_result *)all;
	size_t total = 0;
	for (unsigned k = 0; k < mpi_g.size; k++)
		total += (size_t)lens[k] / sizeof(mine[0]);
	cr->devs = xcalloc(total + 1, sizeof(*cr->devs));
	cr->dev_rank = xcalloc(total + 1, sizeof(unsigned));
	for (unsigned k = 0, i = 0; k < mpi_g.size; k++) {
		for (int n = lens[k] / (int)sizeof(mine[0]); n > 0; n--, i++) {
			bool seen = false;
			for (unsigned j = 0; j < cr->ndevs && !seen; j++)
				seen = !strcmp(cr->devs[j].host, d[i].host) && !strcmp(cr->devs[j].name, d[i].name);
			if (seen)
				continue;
			cr->dev_rank[cr->ndevs] = k;
			cr->devs[cr->ndevs++] = d[i];
		}
	}
	free(all);
	free(lens);
}

static int cmp_host(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Distinct host names, sorted: N log N (100,000 ranks compared pairwise would take seconds). */
static unsigned count_hosts(const struct rank_info *ranks, unsigned n)
{
	const char **h = xcalloc(n, sizeof(*h));
	for (unsigned k = 0; k < n; k++)
		h[k] = ranks[k].host;
	qsort(h, n, sizeof(*h), cmp_host);
	unsigned hosts = n > 0;
	for (unsigned k = 1; k < n; k++)
		hosts += strcmp(h[k - 1], h[k]) != 0;
	free(h);
	return hosts;
}

static void fill_run(struct cluster_run *cr, struct rank_info *ranks)
{
	cr->nranks = mpi_g.size;
	cr->ranks = ranks;
	cr->nhosts = count_hosts(ranks, mpi_g.size);
	int64_t lo = INT64_MAX, hi = INT64_MIN, slo = INT64_MAX, shi = INT64_MIN;
	for (unsigned k = 0; k < mpi_g.size; k++) {
		const struct rank_info *ri = &ranks[k];
		lo = ri->clock_offset_ns < lo ? ri->clock_offset_ns : lo;
		hi = ri->clock_offset_ns > hi ? ri->clock_offset_ns : hi;
		int64_t s = ri->start_wall_ns - ri->clock_offset_ns;
		slo = s < slo ? s : slo;
		shi = s > shi ? s : shi;
	}
	cr->offset_min_ns = lo;
	cr->offset_max_ns = hi;
	cr->start_skew_ns = ranks[0].start_wall_ns ? shi - slo : 0;
}

/*
 * What other ranks noticed (an O_DIRECT fallback on their file system, a
 * dead run's files they removed) joins rank 0's notes, once per text.
 */
static void merge_notes(struct run_ctx *c, struct run_result *r)
{
	char buf[MAX_NOTES * 257];
	size_t k = 0;
	for (unsigned i = 0; i < r->nnotes; i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s\n", r->notes[i]);
	int *lens;
	char *all = gatherv(c, buf, (int)k, &lens);
	if (mpi_g.rank)
		return;
	char *p = all + lens[0]; /* rank 0's own are there already */
	for (unsigned rank = 1; rank < mpi_g.size; rank++) {
		char *end = p + lens[rank];
		for (char *q = p; q < end;) {
			char *nl = memchr(q, '\n', (size_t)(end - q));
			size_t n = nl ? (size_t)(nl - q) : (size_t)(end - q);
			bool seen = false;
			for (unsigned i = 0; i < r->nnotes && !seen; i++)
				seen = strlen(r->notes[i]) >= n && !strncmp(r->notes[i] + strlen(r->notes[i]) - n, q, n);
			if (!seen && r->nnotes < MAX_NOTES)
				snprintf(r->notes[r->nnotes++], sizeof(r->notes[0]), "rank %u: %.*s", rank, (int)n, q);
			q += n + 1;
		}
		p = end;
	}
	free(all);
	free(lens);
}

void cluster_merge(struct run_ctx *c, struct run_result *r)
{
	if (mpi_g.size < 2)
		return;
	/* Failures before the run (a thread that did not start) and the status, agreed. */
	if (cluster_agree(c, &r->err) && mpi_g.broken) {
		r->status = r->err.status;
		return;
	}
	agree_status(c, r);
	if (mpi_g.broken)
		return;
	uint64_t t0 = now_ns(); /* every rank is here: the merge's own time from now */
	MPI_Op op;
	MPI_Op_create(combine_op, 1, &op);
	for (unsigned i = 0; i < r->njobs; i++)
		if (r->jobs[i].threads) /* the same jobs ran on every rank: groups start together */
			merge_job(c, &r->jobs[i], op);
	MPI_Op_free(&op);
	struct rank_info mine;
	memset(&mine, 0, sizeof(mine));
	snprintf(mine.host, sizeof(mine.host), "%s", mpi_g.host);
	mine.clock_offset_ns = mpi_g.clock_offset_ns;
	mine.start_wall_ns = mpi_g.start_wall_ns;
	mine.status = r->status;
	struct cluster_run *cr = mpi_g.rank ? NULL : xcalloc(1, sizeof(*cr));
	merge_notes(c, r);
	merge_devices(c, r, cr, &mine);
	struct rank_info *ranks = gather(c, &mine, sizeof(mine));
	if (!cr)
		return;
	fill_run(cr, ranks);
	cr->halt_reason = mpi_g.halt_reason;
	cr->halt_rank = mpi_g.halt_rank;
	mpi_g.halt_reason = mpi_g.halt_rank = 0; /* the next run starts afresh */
	cr->merge_ns = now_ns() - t0;
	r->cluster = cr;
}
