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
#include "offsets.h"

enum data_mode { DATA_RANDOM = 0, DATA_ZERO, DATA_PATTERN };

#define DATA_PATTERN_MAX 64
/* Compressible blocks are cut in chunks of this size: random head, zero tail (as fio). */
#define DATA_COMPRESS_CHUNK 512
/* Repeated blocks copy one of the last this many fresh ones. */
#define DATA_DEDUPE_RING 64

/* What the user asked for (--data, fio's buffer_* options): part of struct job. */
struct data_spec {
	uint8_t mode;     /* enum data_mode */
	uint8_t compress; /* random: percent a compressor removes, 0-99 */
	uint8_t dedupe;   /* random: percent of blocks that repeat an earlier one, 0-100 */
	uint8_t pattern_len;
	uint8_t pattern[DATA_PATTERN_MAX];
};

/* A generator, one per thread (or per layout).  No allocation after data_init. */
struct data_gen {
	uint64_t s[16]; /* eight xorshift128+ lanes, two words each */
	void (*gen)(uint64_t *st, unsigned char *p, size_t nsteps); /* AVX2 where the CPU has it */
	struct data_spec spec;
	struct rng rng; /* dedupe draws and block seeds */
	uint64_t seeds[DATA_DEDUPE_RING];
	unsigned nseeds, next_seed;
};

void data_init(struct data_gen *g, const struct data_spec *d, uint64_t seed);
/* One block of data as the spec says (dedupe decides per call: call once per block). */
void data_fill(struct data_gen *g, void *buf, size_t len);
/* Random bytes from the generator's stream, whatever the spec. */
void data_random(struct data_gen *g, void *buf, size_t len);
/*
 * Does a write need its buffer regenerated?  Random data does (unless refill
 * is off: fio's refill_buffers=0), compressible and deduplicated blocks do;
 * zeros and patterns only when reads may have overwritten the buffer since
 * (mixed jobs, read-back for verification).
 */
bool data_needs_refresh(const struct data_spec *d, bool refill, bool buffers_read);

/* "random", "zero", "compress=50", "dedupe=20", "compress=50,dedupe=20", "pattern=0xdead" */
void data_print(const struct data_spec *d, char *buf, size_t len);
/* The --data value; 0, or -1 with one line in err naming opt. */
int data_parse(const char *val, struct data_spec *d, const char *opt, char *err, size_t n);
/* fio's buffer_pattern / verify_pattern value: 0xHEX, "text" or a decimal number. */
int data_parse_pattern(const char *val, struct data_spec *d, const char *opt, char *err, size_t n);

#endif
