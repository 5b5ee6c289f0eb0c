/*
 * fio's request patterns beyond a fixed block size: the direction of a mixed
 * job (fio's rwmix cycle, with fio's generator), block sizes per direction
 * (bs=R,W, bsrange, bssplit, blockalign, bs_unaligned), sequential holes and
 * backwards runs (rw=read:8k, read:-8k), seeks every N requests
 * (rw=randread:N with rw_sequencer) and percentage_random.  The worker uses
 * the direction chooser on every mixed job and the rest only when a job asks
 * for it: a fixed block size keeps its own fast path.
 */
#ifndef IOGAUGE_PATTERN_H
#define IOGAUGE_PATTERN_H

#include <stdbool.h>
#include <stdint.h>
#include "model/fiorand.h"
#include "model/job.h"
#include "model/offsets.h"

/* fio's rwmix: a direction is kept for a run of requests, then drawn again. */
struct fio_mix {
	struct fio_rand r;
	uint64_t seed;
	unsigned rw[2];       /* rwmixread, 100 - rwmixread */
	uint64_t issues[2];
	uint64_t thr;         /* stay in cur while issues[cur] < thr */
	uint8_t cur;
};

void mix_init(struct fio_mix *m, const struct job *j, unsigned thread_number, uint64_t seed);
void mix_switch(struct fio_mix *m);
/* A new loop of a size-bound job: fio seeds its streams again (randrepeat) and starts over. */
void mix_reset(struct fio_mix *m);

static inline uint8_t mix_next(struct fio_mix *m)
{
	if (__builtin_expect(m->issues[m->cur] >= m->thr, 0))
		mix_switch(m);
	m->issues[m->cur]++;
	return m->cur;
}

struct pattern {
	uint64_t region;            /* bytes of the job's region */
	uint64_t minbs[2], maxbs[2];
	const struct bs_split *split[2];
	unsigned nsplit[2];
	bool unaligned, random, mixed, time_based;
	struct fio_rand bsr[2];     /* fio's bsrange_state */
	struct fio_rand seqrand[2]; /* fio's seq_rand_state (percentage_random) */
	uint64_t bs_seed[2], seq_seed[2];
	bool use64, reseed;         /* reseed: a new loop starts fio's streams over */
	unsigned pct_random[2];
	uint64_t unit;              /* random offsets are multiples of this */
	/*
	 * fio's blockalign and smallest size per direction: fio draws a
	 * direction's random block in ba units, tests the map at that index and
	 * marks it in min-size units, though the map's bits are of the smallest
	 * size of all: jobs whose directions differ get fio's very requests.
	 */
	uint64_t ba[2];
	/* fio's own offset draw (random_state, FIO_RANDSEED * thread number): uniform random jobs. */
	struct fio_rand offr;
	uint64_t off_seed;
	bool fio_off;
	/* random_distribution=zoned(_abs): the zones and fio's zone_state (FIO_RAND_ZONE_OFF). */
	const struct zone_split *zones;
	unsigned nzones;
	bool zones_abs;
	struct fio_rand zoner;
	uint64_t zone_seed;
	uint64_t pos[2];            /* fio's last_pos: end of the last request, per direction */
	uint64_t last_start[2];
	int64_t skip;
	unsigned seq_nr, seq_left;
	int sequencer;
	uint64_t region_start;
	/* Random requests of several sizes cover every unit once a pass: a map of the units. */
	uint8_t *map;
	uint64_t nunits, covered;
	/*
	 * What is left of a size-bound job: fio's do_io issues (io_size or size)
	 * x loops bytes in all (total_left), in loops that end where a draw fails
	 * (by_passes: the map full or a sequential walk at the region's end; a
	 * mixed sequential walk: the drawn direction's at the end; without a map
	 * random draws never fail); loops_left of them (job_loops).
	 */
	bool by_passes;
	uint64_t loops_left, total_left;
	bool done;                  /* the last request has been prepared */
	bool pass_end;              /* a pass over the region ended with this request */
	bool loop_end;              /* a loop ended with this request, and another follows */
	/*
	 * The next request, drawn one ahead: where fio finds no offset for it
	 * (a direction's ba-unit index beyond the region), fio's loop ends
	 * without it, so the one before ends the loop.
	 */
	bool ahead, next_end;
	uint8_t next_op;
	uint64_t next_off, next_len;
};

/*
 * Does the job need the general path?  False for one fixed block size and a
 * plain pattern, which the worker serves on its own.
 */
bool pattern_wanted(const struct job *j);
/* The smallest and largest request of direction d (IO_READ, IO_WRITE: writes and trims). */
void pattern_sizes(const struct job *j, int d, uint64_t *min, uint64_t *max);
/* The largest request of the job (buffer size), and the smallest (alignment). */
uint64_t pattern_max_bs(const struct job *j);
uint64_t pattern_min_bs(const struct job *j);
/*
 * Set up for one thread; og must be an offset generator over region/unit
 * blocks (pattern_unit).  Allocates the unit map when needed: -1 out of memory.
 */
uint64_t pattern_unit(const struct job *j);
/*
 * Loops a size-bound job runs, as fio counts them: --loops (fio's
 * experimental_verify reads the first loop back in the place of a later one:
 * N > 1 loops of a writing job write N - 1), then, with an io_size larger
 * than size, more while the bytes moved (a verifying writer's read-backs
 * too) fall short of io_size by a whole request.
 */
unsigned job_loops(const struct job *j);
/* io_size beyond size is more loops of size bytes (fio's keep_running), not longer ones. */
bool job_io_loops(const struct job *j);
/* The region must hold this: the largest of the directions' smallest requests. */
uint64_t pattern_need(const struct job *j);
/* Combinations of these options no one option refuses; 0, or -1 with a message in err. */
int pattern_check(const struct job *j, char *err, size_t len);
/* Every size and offset step a request of the job can have is a multiple of align? */
bool pattern_aligned(const struct job *j, uint64_t align);
int pattern_init(struct pattern *p, const struct job *j, unsigned thread_number, uint64_t seed);
void pattern_free(struct pattern *p);
/* The next request: op (from mix when mixed, else op), offset and length. */
void pattern_next(struct pattern *p, struct offgen *og, struct fio_mix *mix, uint8_t op,
		  uint8_t *op_out, uint64_t *offset, uint32_t *len);

#endif
