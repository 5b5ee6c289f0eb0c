/* fio's request patterns: mixed directions, block sizes, holes, seeks every N (pattern.h). */
#include "base/common.h"
#include "model/job_names.h"
#include "model/pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAP_MAX_BYTES (128ULL << 20)

void mix_init(struct fio_mix *m, const struct job *j, unsigned thread_number, uint64_t seed)
{
	memset(m, 0, sizeof(*m));
	m->rw[0] = j->rwmixread;
	m->rw[1] = 100 - j->rwmixread;
	m->seed = j->randrepeat ? fio_seed(j->randseed, thread_number, FIO_SEED_MIX) : seed;
	fio_rand_init(&m->r, m->seed, false);
}

void mix_reset(struct fio_mix *m)
{
	fio_rand_init(&m->r, m->seed, false);
	m->issues[0] = m->issues[1] = m->thr = 0;
	m->cur = 0;
}

/* fio's get_rw_ddir: a new direction is drawn; a change sets how long it lasts. */
void mix_switch(struct fio_mix *m)
{
	uint8_t d = fio_rand_pct(&m->r) <= m->rw[0] ? 0 : 1;
	if (d != m->cur)
		m->thr = m->issues[m->cur] * m->rw[m->cur ^ 1] / 100;
	m->cur = d;
}

/* ---- the job's sizes */

static void dir_sizes(const struct job *j, int d, uint64_t *min, uint64_t *max)
{
	if (j->nbssplit[d]) {
		*min = UINT64_MAX;
		*max = 0;
		for (unsigned i = 0; i < j->nbssplit[d]; i++) {
			uint64_t b = j->bssplit[d][i].bs;
			*min = b < *min ? b : *min;
			*max = b > *max ? b : *max;
		}
	} else if (j->bsrange[d][0]) {
		*min = j->bsrange[d][0];
		*max = j->bsrange[d][1];
	} else if (d == IO_WRITE && rw_trims(j->rw) && j->bs_trim) {
		*min = *max = j->bs_trim; /* the trims' size; trimwrite's writes take each trim's */
	} else {
		*min = *max = d == IO_WRITE && j->bs_write ? j->bs_write : j->bs;
	}
}

void pattern_sizes(const struct job *j, int d, uint64_t *min, uint64_t *max)
{
	dir_sizes(j, d, min, max);
}

/* Trims take the write direction's sizes and streams (fio seeds trimwrite's two alike). */
static bool dir_used(const struct job *j, int d)
{
	return d == IO_READ ? rw_reads(j->rw) : rw_writes(j->rw) || rw_trims(j->rw);
}

bool pattern_wanted(const struct job *j)
{
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t mn, mx;
		if (!dir_used(j, d))
			continue;
		dir_sizes(j, d, &mn, &mx);
		if (mn != mx || mn != j->bs)
			return true;
		if (j->blockalign[d] && j->blockalign[d] != j->bs && rw_is_random(j->rw))
			return true;
		if (rw_is_random(j->rw) && j->pct_random[d] < 100)
			return true;
	}
	return j->rw_skip || (j->rw_seq_nr > 1 && rw_is_random(j->rw));
}

uint64_t pattern_max_bs(const struct job *j)
{
	uint64_t m = 0;
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t mn, mx;
		dir_sizes(j, d, &mn, &mx);
		m = mx > m ? mx : m;
	}
	return m;
}

uint64_t pattern_min_bs(const struct job *j)
{
	uint64_t m = UINT64_MAX;
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t mn, mx;
		if (!dir_used(j, d))
			continue;
		dir_sizes(j, d, &mn, &mx);
		m = mn < m ? mn : m;
	}
	return m == UINT64_MAX ? j->bs : m;
}

uint64_t pattern_unit(const struct job *j)
{
	uint64_t u = UINT64_MAX;
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t mn, mx;
		if (!dir_used(j, d))
			continue;
		dir_sizes(j, d, &mn, &mx);
		uint64_t a = j->blockalign[d] ? j->blockalign[d] : mn;
		u = a < u ? a : u;
	}
	return u == UINT64_MAX ? j->bs : u;
}

bool job_io_loops(const struct job *j)
{
	/* fio's random overwrites without a map write io_size in one loop (do_io's total_bytes). */
	bool one = rw_is_random(j->rw) && rw_writes(j->rw) && !rw_reads(j->rw) && j->norandommap;
	return j->io_size > j->size && j->size && !j->time_based && !j->verify_only && !one;
}

unsigned job_loops(const struct job *j)
{
	bool writer = rw_writes(j->rw) && !j->verify_only;
	bool replay = j->experimental_verify && j->verify && j->do_verify && writer && !j->time_based;
	unsigned n = replay && j->loops > 1 ? j->loops - 1 : j->loops;
	if (!job_io_loops(j) || replay)
		return n;
	/* A writer that verifies reads back what each loop wrote: fio counts it toward io_size. */
	bool reads_back = j->verify && j->do_verify && writer && !rw_reads(j->rw);
	uint64_t per = j->size * (reads_back ? 2 : 1), moved = (uint64_t)n * per, maxbs = pattern_max_bs(j);
	while (moved < j->io_size && j->io_size - moved >= maxbs && n < UINT_MAX) {
		moved += per;
		n++;
	}
	return n;
}

uint64_t pattern_need(const struct job *j)
{
	uint64_t m = 0;
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t mn, mx;
		if (!dir_used(j, d))
			continue;
		dir_sizes(j, d, &mn, &mx);
		m = mn > m ? mn : m;
	}
	return m ? m : j->bs;
}

bool pattern_aligned(const struct job *j, uint64_t align)
{
	uint64_t skip = j->rw_skip < 0 ? (uint64_t)-j->rw_skip : (uint64_t)j->rw_skip;
	if (!align)
		return true;
	if (skip % align || pattern_unit(j) % align)
		return false;
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t mn, mx;
		if (!dir_used(j, d))
			continue;
		dir_sizes(j, d, &mn, &mx);
		/* Drawn sizes are multiples of the smallest, unless bs_unaligned. */
		if (mn % align || (mn != mx && j->bs_unaligned))
			return false;
	}
	return true;
}

/* fio 3.33: a blockalign other than a direction's smallest size turns its random map off. */
static bool align_unmaps(const struct job *j)
{
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t mn, mx;
		dir_sizes(j, d, &mn, &mx);
		if (j->blockalign[d] && j->blockalign[d] != mn)
			return true;
	}
	return false;
}

/* A map of units, one bit each: random requests of several sizes cover each unit once a pass. */
static bool use_map(const struct job *j)
{
	return rw_is_random(j->rw) && !j->norandommap && j->dist == DIST_RANDOM && j->rw_seq_nr <= 1 &&
	       j->pct_random[0] == 100 && j->pct_random[1] == 100 && !align_unmaps(j);
}

int pattern_check(const struct job *j, char *err, size_t len)
{
	if (use_map(j) && pattern_wanted(j) && j->size / pattern_unit(j) / 8 > MAP_MAX_BYTES) {
		snprintf(err, len,
			 "random requests of several sizes over %llu blocks need a map of more than %llu MiB "
			 "(add --norandommap, or a larger --blockalign)",
			 (unsigned long long)(j->size / pattern_unit(j)), MAP_MAX_BYTES >> 20);
		return -1;
	}
	uint64_t skip = j->rw_skip < 0 ? (uint64_t)-j->rw_skip : (uint64_t)j->rw_skip;
	if (j->size && skip >= j->size) {
		snprintf(err, len, "rw=%s:%s%llu skips the whole region (%llu bytes)", rw_names[j->rw],
			 j->rw_skip < 0 ? "-" : "", (unsigned long long)skip, (unsigned long long)j->size);
		return -1;
	}
	return 0;
}

int pattern_init(struct pattern *p, const struct job *j, unsigned thread_number, uint64_t seed)
{
	memset(p, 0, sizeof(*p));
	p->region = j->size;
	p->region_start = j->offset;
	p->random = rw_is_random(j->rw);
	p->mixed = rw_is_mixed(j->rw);
	p->time_based = j->time_based;
	p->unaligned = j->bs_unaligned;
	p->skip = j->rw_skip;
	p->seq_nr = p->seq_left = j->rw_seq_nr > 1 ? j->rw_seq_nr : 1;
	p->sequencer = j->rw_sequencer;
	p->unit = pattern_unit(j);
	p->nunits = p->region / p->unit;
	p->use64 = j->random_generator == RANDGEN_TAUSWORTHE64;
	p->reseed = j->randrepeat && !j->time_based;
	for (int d = 0; d < DDIR_NR; d++) {
		dir_sizes(j, d, &p->minbs[d], &p->maxbs[d]);
		p->split[d] = j->bssplit[d];
		p->nsplit[d] = j->nbssplit[d];
		p->pct_random[d] = j->pct_random[d];
		p->bs_seed[d] = j->randrepeat ? fio_seed(j->randseed, thread_number, FIO_SEED_BS_READ + (unsigned)d) :
						seed + (uint64_t)d;
		p->seq_seed[d] = j->randrepeat ? fio_seed(j->randseed, thread_number, FIO_SEED_SEQ_RAND + (unsigned)d) :
						 seed + 10 + (uint64_t)d;
		p->last_start[d] = UINT64_MAX;
		p->ba[d] = j->blockalign[d] && rw_is_random(j->rw) ? j->blockalign[d] : p->minbs[d];
		if (!dir_used(j, d) || !p->ba[d])
			p->ba[d] = p->unit;
	}
	/* fio: a verifying writer draws its write sizes from the read stream's seed. */
	if (j->verify && rw_writes(j->rw))
		p->bs_seed[1] = p->bs_seed[0];
	for (int d = 0; d < DDIR_NR; d++) {
		fio_rand_init(&p->bsr[d], p->bs_seed[d], p->use64);
		fio_rand_init(&p->seqrand[d], p->seq_seed[d], false);
	}
	/*
	 * fio's offsets: uniform, or zoned (fio's __get_next_rand_offset_zoned and
	 * _zoned_abs: a zone drawn on its own stream, then the block inside it as
	 * a uniform draw); zoned_abs zones past the region's end stay iogauge's
	 * (fio fails the job's draws there: "zoned_abs sizes exceed file size").
	 */
	uint64_t abs_end = 0;
	for (unsigned i = 0; i < j->nzones && j->zones_abs; i++)
		abs_end += j->zones[i].size_abs;
	bool zoned = j->dist == DIST_ZONED && j->nzones && abs_end <= j->size;
	p->fio_off = (j->dist == DIST_RANDOM || zoned) && j->random_generator != RANDGEN_LFSR;
	if (p->fio_off && zoned) {
		p->zones = j->zones;
		p->nzones = j->nzones;
		p->zones_abs = j->zones_abs;
	}
	p->zone_seed = j->randrepeat ? fio_seed(j->randseed, thread_number, FIO_SEED_ZONE) : seed + 30;
	fio_rand_init(&p->zoner, p->zone_seed, false);
	/* fio's map has a bit per smallest request size (rw_min_bs), whatever blockalign says. */
	if (p->fio_off)
		p->nunits = p->region / pattern_min_bs(j);
	p->off_seed = j->randrepeat ? 0xb1899bedULL * thread_number : seed + 20;
	fio_rand_init(&p->offr, p->off_seed, p->use64);
	if (use_map(j)) {
		uint64_t bytes = (p->nunits + 7) / 8;
		if (bytes > MAP_MAX_BYTES)
			return -1;
		p->map = calloc(1, bytes ? bytes : 1);
		if (!p->map)
			return -1;
	}
	/*
	 * A size-bound job ends, as fio's, when it has issued (io_size or size)
	 * x loops bytes, or when its loops are done, each ending where fio's
	 * next draw fails (pattern.h).
	 */
	p->by_passes = p->map || (!p->random && !p->mixed);
	p->loops_left = job_loops(j);
	p->total_left = (j->io_size ? j->io_size : j->size) * (j->loops ? j->loops : 1);
	return 0;
}

void pattern_free(struct pattern *p)
{
	free(p->map);
	p->map = NULL;
}

/* ---- lengths: fio's get_next_buflen */

static inline bool fits(const struct pattern *p, uint64_t off, uint64_t len)
{
	return off + len <= p->region;
}

static uint64_t next_len(struct pattern *p, int d, uint64_t off)
{
	uint64_t minbs = p->minbs[d], maxbs = p->maxbs[d], len = 0;
	if (minbs == maxbs)
		return fits(p, off, minbs) ? minbs : 0;
	if (!fits(p, off, minbs))
		return 0;
	struct fio_rand *r = &p->bsr[d];
	double span = fio_rand_span(r);
	uint64_t rmax_100 = (r->use64 ? UINT64_MAX : UINT32_MAX) / 100;
	for (unsigned tries = 0; tries < 10000; tries++) {
		uint64_t v = fio_rand(r);
		if (!p->nsplit[d]) {
			len = minbs + (uint64_t)((double)maxbs * ((double)v / span));
		} else {
			uint64_t perc = 0;
			for (unsigned i = 0; i < p->nsplit[d]; i++) {
				if (!p->split[d][i].pct)
					continue;
				len = p->split[d][i].bs;
				perc += p->split[d][i].pct;
				if (v / perc <= rmax_100 && fits(p, off, len))
					break;
			}
		}
		if (!p->unaligned)
			len -= len % minbs;
		if (len > maxbs)
			len = maxbs;
		if (fits(p, off, len))
			return len;
	}
	return minbs;
}

/* ---- offsets */

/*
 * fio's get_next_seq_offset, on region-relative offsets: SEQ_OK, or SEQ_WRAP at
 * the end of the region, or SEQ_END where fio's job ends: with holes (rw=read:N),
 * a request that starts inside the region but runs past its end (fio t0007).
 */
enum { SEQ_OK, SEQ_WRAP, SEQ_END };
static int seq_offset(struct pattern *p, int d, uint64_t *off)
{
	uint64_t pos = p->pos[d];
	if (pos >= p->region)
		return SEQ_WRAP;
	/* fio's rewind: backwards from a region that does not start at 0 begins at its end. */
	if (pos == 0 && p->region_start && p->skip < 0)
		pos = p->region;
	if (pos && p->skip) {
		pos += (uint64_t)p->skip;
		if (pos >= p->region)
			pos = p->skip > 0 ? 0 : p->region + (uint64_t)p->skip;
	}
	*off = pos;
	if (pos + p->minbs[d] <= p->region)
		return SEQ_OK;
	return p->skip > 0 && !p->time_based ? SEQ_END : SEQ_WRAP;
}

static inline bool map_test(const struct pattern *p, uint64_t u)
{
	return p->map[u >> 3] & (1u << (u & 7));
}

/*
 * fio's __get_next_rand_offset: lastb * (r / (rand_max + 1.0)) on its own
 * stream, in ba units; zoned, over the blocks of a zone drawn first (1-100 on
 * zone_state, each zone taking its access share of the values), which start
 * at its size share of lastb (zoned) or at its bytes (zoned_abs).
 */
static uint64_t fio_block(struct pattern *p, int d)
{
	uint64_t size = p->region;
	if (p->minbs[d] > p->ba[d])
		size -= p->minbs[d] - p->ba[d];
	uint64_t lastb = size / p->ba[d], first = 0;
	if (p->nzones) {
		unsigned v = fio_rand_pct(&p->zoner), acc = 0, z = 0;
		uint64_t prev = 0;
		for (; z + 1 < p->nzones && v > acc + p->zones[z].access_pct; z++) {
			acc += p->zones[z].access_pct;
			prev += p->zones_abs ? p->zones[z].size_abs : p->zones[z].size_pct;
		}
		uint64_t end = prev + (p->zones_abs ? p->zones[z].size_abs : p->zones[z].size_pct);
		if (p->zones_abs) {
			first = prev / p->ba[d];
			lastb = end / p->ba[d] - first;
		} else {
			first = prev * lastb / 100;
			lastb = lastb * (end - prev) / 100;
		}
	}
	return first + (uint64_t)((double)lastb * ((double)fio_rand(&p->offr) / fio_rand_span(&p->offr)));
}

static uint64_t rand_offset(struct pattern *p, struct offgen *og, int d)
{
	if (p->map && p->covered == p->nunits) {
		/* A new pass: every unit is free again. */
		memset(p->map, 0, (p->nunits + 7) / 8);
		p->covered = 0;
	}
	if (!p->fio_off)
		return offgen_next(og) * p->unit;
	/* fio's units: the block index is in the direction's ba, and so is the map's bit tested. */
	uint64_t u = fio_block(p, d), a = p->ba[d];
	if (!p->map || u >= p->nunits || !map_test(p, u))
		return u * a;
	/* As fio's axmap_next_free: the first free unit after a covered one, else from the start. */
	for (uint64_t k = u + 1; k < p->nunits; k++) {
		if (!(k & 7) && p->map[k >> 3] == 0xff) {
			k += 7;
			continue;
		}
		if (!map_test(p, k))
			return k * a;
	}
	for (u = 0; map_test(p, u); u++)
		;
	return u * a;
}

/* Mark what a random request covers (fio: in the direction's min-size units); a request running into covered units stops there. */
static uint64_t map_mark(struct pattern *p, int d, uint64_t off, uint64_t len)
{
	uint64_t m = p->fio_off ? p->minbs[d] : p->unit;
	uint64_t u = off / m, end = u + (len + m - 1) / m, n = 0;
	for (; u < end && u < p->nunits && !map_test(p, u); u++, n++) {
		p->map[u >> 3] |= (uint8_t)(1u << (u & 7));
		p->covered++;
	}
	uint64_t room = n * m;
	return len < room ? len : room;
}

static uint64_t random_pattern_offset(struct pattern *p, struct offgen *og, int d, bool *is_rand)
{
	uint64_t off;
	*is_rand = false;
	if (p->seq_nr > 1 && --p->seq_left) {
		/* Between seeks: continue, or repeat the last offset. */
		if (p->sequencer == RW_SEQ_IDENTICAL)
			return p->last_start[d] == UINT64_MAX ? 0 : p->last_start[d];
		if (seq_offset(p, d, &off))
			return off;
	} else {
		p->seq_left = p->seq_nr;
		if (p->pct_random[d] < 100 && fio_rand_pct(&p->seqrand[d]) > p->pct_random[d] &&
		    seq_offset(p, d, &off))
			return off;
	}
	*is_rand = true;
	return rand_offset(p, og, d);
}

/* fio's next loop of a size-bound job: offsets from the start, its streams seeded again. */
static void new_loop(struct pattern *p, struct fio_mix *mix)
{
	for (int d = 0; d < DDIR_NR; d++) {
		p->pos[d] = 0;
		p->last_start[d] = UINT64_MAX;
		if (!p->reseed)
			continue;
		fio_rand_init(&p->bsr[d], p->bs_seed[d], p->use64);
		fio_rand_init(&p->seqrand[d], p->seq_seed[d], false);
	}
	if (p->reseed) {
		fio_rand_init(&p->offr, p->off_seed, p->use64);
		fio_rand_init(&p->zoner, p->zone_seed, false);
	}
	if (p->map && p->covered) {
		memset(p->map, 0, (p->nunits + 7) / 8);
		p->covered = 0;
	}
	if (p->mixed && p->reseed)
		mix_reset(mix);
}

/* One request: false where fio's offset generation fails (its loop ends before it). */
static bool draw_req(struct pattern *p, struct offgen *og, struct fio_mix *mix, uint8_t op)
{
	int d = p->mixed ? mix_next(mix) : op == IO_TRIM ? IO_WRITE : op;
	bool is_rand = false;
	uint64_t off = 0, l;
	if (p->random) {
		off = random_pattern_offset(p, og, d, &is_rand);
		if (is_rand && p->fio_off && p->map && !p->time_based && off + p->minbs[d] > p->region)
			return false;
	} else {
		int at = seq_offset(p, d, &off);
		if (at == SEQ_END || (at == SEQ_WRAP && p->mixed && !p->time_based))
			return false; /* fio: this direction's walk is at the region's end, the loop ends */
		if (at == SEQ_WRAP) {
			/* The end of the region: the next pass starts over. */
			p->pos[d] = 0;
			off = 0;
		}
	}
	l = next_len(p, d, off);
	if (!l && !p->random && p->mixed && !p->time_based)
		return false; /* not its smallest size left before the end: fio's get_next_buflen fails */
	if (!l) {
		off = 0;
		l = next_len(p, d, off);
	}
	if (p->map && is_rand)
		l = map_mark(p, d, off, l);
	p->pos[d] = off + l;
	p->last_start[d] = off;
	/* A pass ends when the map is full, or at the end of the region (fio's end of file). */
	p->next_end = p->map ? p->covered == p->nunits :
			       !p->random && (p->pos[d] >= p->region ||
					      (!p->skip && p->pos[d] + p->minbs[d] > p->region));
	p->next_op = (uint8_t)(p->mixed ? d : op); /* a trim takes the write direction's sizes */
	p->next_off = off;
	p->next_len = l;
	return true;
}

static void end_loop(struct pattern *p, struct fio_mix *mix)
{
	if (--p->loops_left == 0) {
		p->done = true;
	} else {
		new_loop(p, mix);
		p->loop_end = true;
	}
}

void pattern_next(struct pattern *p, struct offgen *og, struct fio_mix *mix, uint8_t op,
		  uint8_t *op_out, uint64_t *offset, uint32_t *len)
{
	p->pass_end = p->loop_end = false;
	/* Only a loop's first request is drawn here (on an empty map, fio's draw cannot fail). */
	while (!p->ahead && !draw_req(p, og, mix, op))
		end_loop(p, mix);
	p->ahead = false;
	uint64_t l = p->next_len;
	*op_out = p->next_op;
	*offset = p->region_start + p->next_off;
	*len = (uint32_t)l;
	p->pass_end = p->next_end;
	if (!p->time_based) {
		/* fio's do_io: the job's bytes in all; a loop ends at its pass's end where passes end it. */
		p->total_left -= l < p->total_left ? l : p->total_left;
		if (!p->total_left)
			p->done = true;
		else if (p->by_passes && p->pass_end)
			end_loop(p, mix);
	}
	/*
	 * fio's random map, sequential requests with holes and mixed sequential
	 * walks: the next request drawn now, where its failure ends this loop.
	 */
	if (((p->fio_off && p->map) || (!p->random && (p->skip > 0 || p->mixed))) && !p->time_based && !p->done) {
		p->ahead = draw_req(p, og, mix, op);
		if (!p->ahead && !p->loop_end)
			end_loop(p, mix);
	}
}
