/*
 * Written data: what a write (and the layout before a read) puts in its
 * buffer.  One place for every pattern: random (fresh for every write, so no
 * compressor or deduplicator can shrink it), zeros, a repeated byte pattern,
 * random blocks a compressor shrinks by about N%, and N% of blocks that
 * repeat an earlier one (for deduplication).
 */
#ifndef IOGAUGE_DATA_H
#define IOGAUGE_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/offsets.h"

enum data_mode { DATA_RANDOM = 0, DATA_ZERO, DATA_PATTERN };

/* fio's MAX_PATTERN_SIZE; a pattern holds up to DATA_PATTERN_FMTS block offsets (%o). */
#define DATA_PATTERN_MAX 512
#define DATA_PATTERN_FMTS 8
#define DATA_OFFSET_LEN 8
/* Compressible blocks are cut in chunks of this size: random head, zero tail (as fio). */
#define DATA_COMPRESS_CHUNK 512

/* fio's dedupe_mode: a repeated block copies the last fresh one, or one of a working set. */
enum dedupe_mode { DEDUPE_REPEAT = 0, DEDUPE_WORKING_SET };

/* What the user asked for (--data, fio's buffer_* options): part of struct job. */
struct data_spec {
	uint8_t mode;     /* enum data_mode */
	uint8_t compress; /* random: percent a compressor removes, 0-99 */
	uint8_t dedupe;   /* random: percent of blocks that repeat an earlier one, 0-100 */
	uint8_t nfmt;     /* pattern: how many %o (the block's offset, 8 bytes little-endian) */
	uint16_t pattern_len;
	uint16_t fmt_off[DATA_PATTERN_FMTS]; /* where each %o starts in the pattern */
	uint8_t pattern[DATA_PATTERN_MAX];
};

/* A generator, one per thread (or per layout).  No allocation after data_init. */
struct data_gen {
	uint64_t s[16]; /* eight xorshift128+ lanes, two words each */
	/* AVX-512 or AVX2 where the CPU has it; gen_nt: non-temporal stores (large aligned buffers) */
	void (*gen)(uint64_t *st, unsigned char *p, size_t nsteps);
	void (*gen_nt)(uint64_t *st, unsigned char *p, size_t nsteps);
	struct data_spec spec;
	struct rng rng; /* dedupe draws and block seeds */
	uint64_t last_seed; /* repeat: the last fresh block's seed */
	bool have_last;
	/* working_set: fresh blocks take the set's seeds first; a repeat picks one of the set */
	uint64_t ws_n, fresh, base, run_base;
	unsigned thread, nthreads;
	uint64_t per_thread; /* global: the set's run of seeds from each thread */
	bool global;         /* the set is shared (fio's dedupe_global) */
};

void data_init(struct data_gen *g, const struct data_spec *d, uint64_t seed);
/*
 * dedupe_mode=working_set: a set of ws_blocks blocks; thread is this one's
 * number in the run (0-based) of nthreads; run_seed is the same for every
 * thread (dedupe_global: the set is made of every thread's first blocks).
 */
/* A thread with a working set of its own: DATA_WS_OWN + its number (never a sharing thread's). */
#define DATA_WS_OWN 0x10000u
void data_working_set(struct data_gen *g, uint64_t ws_blocks, uint64_t run_seed, unsigned thread,
		      unsigned nthreads, bool global);
/* One block of data as the spec says (dedupe decides per call: call once per block). */
void data_fill(struct data_gen *g, void *buf, size_t len);
/* The same for the block at offset (a pattern's %o holds it). */
void data_fill_at(struct data_gen *g, void *buf, size_t len, uint64_t offset);
/* The pattern with offset pasted at each %o, into out (DATA_PATTERN_MAX bytes); its length. */
size_t data_pattern_at(const struct data_spec *d, uint64_t offset, uint8_t *out);
/*
 * For tests: the generator's i-th variant (0: the portable one; more where
 * the CPU has them), its name, or NULL when this CPU has no such variant.
 * Every variant makes the same bytes.
 */
const char *data_impl(struct data_gen *g, unsigned i);
/* Random bytes from the generator's stream, whatever the spec. */
void data_random(struct data_gen *g, void *buf, size_t len);
/* Random bytes of a stream of their own, the same for the same seed (a block made again). */
void data_random_seeded(const struct data_gen *g, void *buf, size_t len, uint64_t seed);
/*
 * Does a write need its buffer regenerated?  Random data does (unless refill
 * is off: fio's refill_buffers=0), compressible and deduplicated blocks do;
 * zeros and patterns only when reads may have overwritten the buffer since
 * (mixed jobs, read-back for verification).
 */
bool data_needs_refresh(const struct data_spec *d, bool refill, bool buffers_read);

/* "random", "zero", "compress=50", "dedupe=20", "compress=50,dedupe=20", "pattern=0xdead%o" */
void data_print(const struct data_spec *d, char *buf, size_t len);
/* The pattern alone, in data_parse_pattern's syntax: 0x61626364%o. */
void data_print_pattern(const struct data_spec *d, char *buf, size_t len);
/* The --data value; 0, or -1 with one line in err naming opt. */
int data_parse(const char *val, struct data_spec *d, const char *opt, char *err, size_t n);
/*
 * fio's pattern syntax (buffer_pattern, verify_pattern), pieces in any order
 * with nothing between them: "text", 0xHEX (an odd count of digits: the first
 * is a byte of its own), a decimal number from INT_MIN to INT_MAX (its bytes
 * little-endian, as few as it needs, 0 is one byte), 'FILE' (its first bytes)
 * and, with offsets, %o (the block's offset).  "abcd"-120xdeadface is
 * 61 62 63 64 f4 ff ff ff de ad fa ce.  0, or -1 with one line in err.
 */
int data_parse_pattern(const char *val, struct data_spec *d, bool offsets, const char *opt,
		       char *err, size_t n);

#endif
