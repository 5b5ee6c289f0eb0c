/*
 * bench/merge_bench.c - the cost of merging rank results (bench/merge.sh builds and runs it).
 *
 * Alone: generates RANKS (default 1,024) rank results of one job with
 * realistic histograms (random 4k reads on an asynchronous engine: slat,
 * clat and lat, latencies spread over four decades; a 60-point series) and
 * times, in this one process:
 *   - packing one rank's result into its fixed-size buffer (every rank does
 *     this at once in a real run),
 *   - combining two buffers (MPI_Reduce's operation), and all RANKS-1
 *     combines (the whole work of the reduction, done by many ranks),
 *   - the reduction's critical path: log2(RANKS) combines (a binomial tree),
 *   - unpacking the result on rank 0,
 *   - the other way: every rank's saved JSON read back and merged on one
 *     process (lat_from_json + lat_merge), what a merge "from saved JSON" costs,
 *   - the size of a rank's buffer and of its JSON latency objects.
 * These are CPU times of this process (the machine may be shared).
 * Under mpirun (N ranks): the time of the real MPI_Reduce of such buffers
 * with iogauge-mpi's operation, the median of REPS, on rank 0.
 */
#include <mpi.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/common.h"
#include "run/merge.h"
#include "report/report.h"
#include "stats/stats.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Log-uniform latencies from 20 us to 200 ms: about 1,700 buckets used. */
static uint64_t latency(void)
{
	double x = (double)(rnd() >> 11) / 9007199254740992.0;
	return (uint64_t)(20000.0 * pow(10.0, 4.0 * x));
}

static void make_rank(struct job_result *jr, unsigned samples)
{
	memset(jr, 0, sizeof(*jr));
	jr->resident_before = -1;
	struct thread_stats *t = &jr->total;
	stats_init(t);
	stats_want(t, IO_READ, true);
	struct op_stats *o = &t->op[IO_READ];
	for (unsigned i = 0; i < samples; i++) {
		uint64_t s = 500 + rnd() % 5000, c = latency();
		lat_add(&o->slat, s);
		lat_add(&o->clat, c);
		lat_add(&o->lat, s + c);
		o->ios++;
		o->bytes += 4096;
	}
	struct series_pt p;
	memset(&p, 0, sizeof(p));
	for (unsigned i = 0; i < 60; i++) {
		p.ios[0] += samples / 60;
		p.bytes[0] += samples / 60 * 4096;
		p.lat_sum[0] += rnd() % 1000000000;
		p.lat_max[0] = rnd() % 200000000;
		p.t_ns = (i + 1) * NSEC_PER_SEC;
		series_push(&t->series, &p);
	}
	t->elapsed_ns = 60 * NSEC_PER_SEC;
}

/* CPU time of this thread: the machine may be shared, the work is all on this CPU. */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void combine_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	const uint64_t *a = in;
	uint64_t *b = inout;
	for (int i = 0; i < *len; i++) {
		size_t w = merge_buffer_words(a);
		merge_combine(a, b);
		a += w;
		b += w;
	}
}

static int alone(unsigned ranks, unsigned samples)
{
	struct job_result *r = calloc(ranks, sizeof(*r));
	for (unsigned k = 0; k < ranks; k++)
		make_rank(&r[k], samples);
	uint64_t shape[MERGE_SHAPE_WORDS], s[MERGE_SHAPE_WORDS];
	merge_shape(&r[0], shape);
	for (unsigned k = 1; k < ranks; k++) {
		merge_shape(&r[k], s);
		merge_shape_max(shape, s);
	}
	size_t words = merge_words(shape);
	uint64_t **buf = calloc(ranks, sizeof(*buf));
	double t0 = now_s();
	for (unsigned k = 0; k < ranks; k++) {
		buf[k] = calloc(words, 8);
		merge_pack(&r[k], shape, buf[k]);
	}
	double pack = (now_s() - t0) / ranks;
	/* The reduction's whole work, as a binomial tree does it (pairs at distance 1, 2, 4...). */
	t0 = now_s();
	for (unsigned d = 1; d < ranks; d *= 2)
		for (unsigned k = 0; k + d < ranks; k += 2 * d)
			merge_combine(buf[k + d], buf[k]);
	double all = now_s() - t0;
	double one = all / (ranks - 1);
	unsigned depth = 0;
	while ((1u << depth) < ranks)
		depth++;
	struct job_result got;
	memset(&got, 0, sizeof(got));
	stats_init(&got.total);
	t0 = now_s();
	merge_unpack(buf[0], shape, &got);
	double unpack = now_s() - t0;
	/* Check: the same as one process merging every result. */
	struct thread_stats want;
	stats_init(&want);
	for (unsigned k = 0; k < ranks; k++)
		stats_merge(&want, &r[k].total);
	int same = want.op[IO_READ].clat.n == got.total.op[IO_READ].clat.n &&
		   !memcmp(want.op[IO_READ].clat.h, got.total.op[IO_READ].clat.h, sizeof(struct hist)) &&
		   want.op[IO_READ].clat.sumsq == got.total.op[IO_READ].clat.sumsq;

	/* The other way: each rank's JSON read back and merged in one process. */
	struct job job;
	memset(&job, 0, sizeof(job));
	job.n_percentiles = 0;
	size_t json_bytes = 0;
	char **texts = calloc(ranks, sizeof(char *));
	for (unsigned k = 0; k < ranks; k++) {
		json_t *o = ig_json_lat(&r[k].total.op[IO_READ].clat, NULL, 0);
		json_t *x = json_object();
		json_object_set_new(x, "slat_ns", ig_json_lat(&r[k].total.op[IO_READ].slat, NULL, 0));
		json_object_set_new(x, "clat_ns", o);
		json_object_set_new(x, "lat_ns", ig_json_lat(&r[k].total.op[IO_READ].lat, NULL, 0));
		texts[k] = json_dumps(x, JSON_COMPACT);
		json_bytes += strlen(texts[k]);
		json_decref(x);
	}
	struct lat_stats m[3], l;
	for (int i = 0; i < 3; i++)
		lat_init(&m[i]);
	lat_init(&l);
	t0 = now_s();
	for (unsigned k = 0; k < ranks; k++) {
		json_t *x = json_loads(texts[k], 0, NULL);
		const char *keys[3] = { "slat_ns", "clat_ns", "lat_ns" };
		for (int i = 0; i < 3; i++) {
			struct ig_err e = { 0 };
			if (!lat_from_json(json_object_get(x, keys[i]), &l, &e))
				lat_merge(&m[i], &l);
		}
		json_decref(x);
	}
	double via_json = now_s() - t0;
	same = same && m[1].n == want.op[IO_READ].clat.n;

	printf("ranks %u, %u requests each, histograms slat/clat/lat\n", ranks, samples);
	printf("buffer per rank: %zu words = %.1f KiB (the whole job: 3 histograms of 7,424 buckets would be %.1f KiB)\n",
	       words, words * 8 / 1024.0, 3 * 7424 * 8 / 1024.0);
	printf("JSON of a rank's latencies: %.1f KiB\n", json_bytes / 1024.0 / ranks);
	printf("pack, one rank:                 %9.1f us\n", pack * 1e6);
	printf("combine two buffers:            %9.1f us\n", one * 1e6);
	printf("all %u combines (one process): %9.2f ms\n", ranks - 1, all * 1e3);
	printf("critical path, %u levels:       %9.1f us (+ %u transfers of %.1f KiB)\n", depth,
	       depth * one * 1e6, depth, words * 8 / 1024.0);
	printf("unpack on rank 0:               %9.1f us\n", unpack * 1e6);
	printf("merge of %u saved JSON results in one process: %.2f ms\n", ranks, via_json * 1e3);
	printf("memory: a histogram %.1f KiB (allocated per thread for each latency measured: clat, and slat and lat "
	       "on asynchronous engines); struct thread_stats %.1f KiB without them; rank 0 gathers %zu + %zu bytes "
	       "per rank (rank_fig per job, rank_info) and the ranks' JSON objects (--rank-results)\n",
	       sizeof(struct hist) / 1024.0, sizeof(struct thread_stats) / 1024.0, sizeof(struct rank_fig),
	       sizeof(struct rank_info));
	printf("MERGE_1024_MS %.3f\n", (pack + all + unpack) * 1e3);
	printf("JSON_1024_MS %.3f\n", via_json * 1e3);
	printf("exact: %s\n", same ? "yes (the merged histogram and sums equal stats_merge of all ranks)" : "NO");
	return same ? 0 : 1;
}

static int under_mpi(unsigned samples, int reps)
{
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	rng += (uint64_t)rank * 7919;
	struct job_result jr;
	make_rank(&jr, samples);
	uint64_t shape[MERGE_SHAPE_WORDS], all[MERGE_SHAPE_WORDS];
	merge_shape(&jr, shape);
	MPI_Allreduce(shape, all, MERGE_SHAPE_WORDS, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
	size_t words = merge_words(all);
	uint64_t *buf = calloc(words, 8), *out = calloc(words, 8);
	merge_pack(&jr, all, buf);
	MPI_Op op;
	MPI_Op_create(combine_op, 1, &op);
	MPI_Datatype t;
	MPI_Type_contiguous((int)words, MPI_UINT64_T, &t);
	MPI_Type_commit(&t);
	double *dt = calloc((size_t)reps, sizeof(double));
	for (int i = 0; i < reps; i++) {
		MPI_Barrier(MPI_COMM_WORLD);
		double t0 = MPI_Wtime();
		MPI_Reduce(buf, out, 1, t, op, 0, MPI_COMM_WORLD);
		/* Rank 0 has the result when its reduce returns: that is the merge's time. */
		dt[i] = MPI_Wtime() - t0;
	}
	if (!rank) {
		qsort(dt, (size_t)reps, sizeof(double), cmp_d);
		printf("MPI_REDUCE np=%d words=%zu median_us=%.1f min_us=%.1f\n", size, words,
		       dt[reps / 2] * 1e6, dt[0] * 1e6);
	}
	MPI_Type_free(&t);
	MPI_Op_free(&op);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned ranks = argc > 1 ? (unsigned)atoi(argv[1]) : 1024;
	unsigned samples = argc > 2 ? (unsigned)atoi(argv[2]) : 20000;
	int reps = argc > 3 ? atoi(argv[3]) : 30;
	if (!getenv("OMPI_COMM_WORLD_SIZE"))
		return alone(ranks < 2 ? 2 : ranks, samples);
	MPI_Init(&argc, &argv);
	int rc = under_mpi(samples, reps);
	MPI_Finalize();
	return rc;
}
