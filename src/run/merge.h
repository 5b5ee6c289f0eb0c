/*
 * Merging the results of several processes (the ranks of an MPI run)
 * exactly, through buffers of one fixed size that a reduction adds up
 * pairwise (MPI_Reduce with merge_combine as its operation): sums add,
 * 128-bit sums add with carry, minima and maxima stay minima and maxima,
 * histograms add bucket by bucket.  The result is the same as stats_merge
 * over every rank's threads, bit for bit.  Nothing here names MPI, so the
 * unit tests and the bench run it in one process.
 *
 * Also what a merged run carries besides the usual results (every rank's own
 * figures, hosts, clocks), for the report writers.
 */
#ifndef IOGAUGE_MERGE_H
#define IOGAUGE_MERGE_H

#include <stddef.h>
#include <stdint.h>
#include "run/run_result.h"

/*
 * The shape of a job's buffer: which latency histograms exist, the range of
 * buckets any rank used, the number of series points.  Encoded so that the
 * shape over all ranks is the element-wise maximum of theirs (MPI_MAX).
 */
#define MERGE_LATS (IO_OP_NR * 3)
#define MERGE_SHAPE_WORDS (1 + 3 * MERGE_LATS)
void merge_shape(const struct job_result *jr, uint64_t shape[MERGE_SHAPE_WORDS]);
void merge_shape_max(uint64_t dst[MERGE_SHAPE_WORDS], const uint64_t src[MERGE_SHAPE_WORDS]);

/* Words (uint64_t) of a job's buffer for an agreed shape. */
size_t merge_words(const uint64_t shape[MERGE_SHAPE_WORDS]);
/* A job's merged statistics (total, and its job-level sums) into buf (merge_words long). */
void merge_pack(const struct job_result *jr, const uint64_t shape[MERGE_SHAPE_WORDS], uint64_t *buf);
/* Words of a packed buffer, from its header. */
size_t merge_buffer_words(const uint64_t *buf);
/* inout = in (+) inout: both packed with the same shape (the buffer says which). */
void merge_combine(const uint64_t *in, uint64_t *inout);
/* Replaces jr->total (and its job-level sums) with what buf holds. */
void merge_unpack(const uint64_t *buf, const uint64_t shape[MERGE_SHAPE_WORDS], struct job_result *jr);

/* ---- what a merged run adds (rank 0) */

/* One rank's own figures for a job: the spread between ranks, stragglers, what was left. */
struct rank_fig {
	uint64_t bytes[DDIR_NR], ios[DDIR_NR];
	uint64_t elapsed_ns;
	uint64_t left_bytes; /* of a size-bound job stopped early */
	uint64_t lat_n, lat_sum, lat_max; /* completion latency of reads and writes (or file ops) */
	uint64_t fops;                    /* file operations (--fileop) */
	int32_t err;
	uint32_t interrupted, halted;
	uint32_t pad;
};

/* One rank: where it ran and how its clock and start compare with rank 0's. */
struct rank_info {
	char host[64];
	int64_t clock_offset_ns; /* its wall clock minus rank 0's, measured at start */
	int64_t start_wall_ns;   /* released by the last start barrier (its own wall clock) */
	int32_t status;
	uint32_t ndevs;          /* block devices it reported (counters of its host) */
};

struct cluster_job {
	unsigned nranks;
	struct rank_fig *ranks; /* one per rank */
	char *ranks_json;       /* every rank's own job object (the same schema), a JSON array; NULL: none */
	int detail;             /* enum rank_results: what ranks_json holds */
	int err_rank;           /* the lowest rank with an error, -1: none */
};

struct cluster_run {
	unsigned nranks, nhosts;
	struct rank_info *ranks;
	struct dev_result *devs; /* every host's devices ... */
	unsigned *dev_rank;      /* ... and the rank that read each */
	unsigned ndevs;
	int64_t offset_min_ns, offset_max_ns; /* clock offsets to rank 0 */
	int64_t start_skew_ns;   /* spread of the last start barrier's release, clocks corrected */
	uint64_t merge_ns;       /* rank 0's time in the merge (reduction, gathers, agreements) */
	/* The measured phase was cut short for every rank by one of them: */
	int halt_reason;         /* 0 none, CLUSTER_HALT_* */
	int halt_rank;
};
enum { CLUSTER_HALT_NONE = 0, CLUSTER_HALT_STONEWALL, CLUSTER_HALT_ERROR, CLUSTER_HALT_SIGNAL };

/* Per-rank spread of a figure: min, mean, max and which ranks. */
struct spread {
	double min, mean, max;
	unsigned min_rank, max_rank;
};
/* fig(rank_fig) over the ranks of a job. */
struct spread merge_spread(const struct cluster_job *cj, unsigned nranks,
			   double (*fig)(const struct rank_fig *f, int d), int d);
double rank_fig_bw(const struct rank_fig *f, int d);   /* bytes/s */
double rank_fig_iops(const struct rank_fig *f, int d);
double rank_fig_fops(const struct rank_fig *f, int d); /* file operations a second */
double rank_fig_elapsed(const struct rank_fig *f, int d); /* s */
double rank_fig_lat_mean(const struct rank_fig *f, int d); /* ns */

/* A rank's own figures for a job (before the merge). */
void rank_fig_of(const struct job_result *jr, struct rank_fig *f);
void cluster_run_free(struct run_result *r);

#endif
