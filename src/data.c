/* Written data: random, zero, pattern, compressible and deduplicable blocks. */
#include "data.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Eight xorshift128+ lanes, stepped together: no lane waits for another, so
 * the compiler keeps them in vector registers (two AVX2 vectors, or four
 * SSE2 ones where AVX2 is missing) and the loop costs a few instructions
 * per 64 bytes.  Not cryptographic; random enough that no compressor finds a
 * repeat, and cheap enough to refill every write.
 */
typedef uint64_t v4u __attribute__((vector_size(32)));
#define STEP 64

static inline __attribute__((always_inline)) void gen_body(uint64_t *st, unsigned char *p, size_t nsteps)
{
	v4u a0, b0, a1, b1;
	memcpy(&a0, st, 32);
	memcpy(&b0, st + 4, 32);
	memcpy(&a1, st + 8, 32);
	memcpy(&b1, st + 12, 32);
	for (size_t i = 0; i < nsteps; i++, p += STEP) {
		v4u x0 = a0, y0 = b0, x1 = a1, y1 = b1;
		a0 = y0;
		a1 = y1;
		x0 ^= x0 << 23;
		x1 ^= x1 << 23;
		b0 = x0 ^ y0 ^ (x0 >> 17) ^ (y0 >> 26);
		b1 = x1 ^ y1 ^ (x1 >> 17) ^ (y1 >> 26);
		v4u o0 = b0 + y0, o1 = b1 + y1;
		memcpy(p, &o0, 32);
		memcpy(p + 32, &o1, 32);
	}
	memcpy(st, &a0, 32);
	memcpy(st + 4, &b0, 32);
	memcpy(st + 8, &a1, 32);
	memcpy(st + 12, &b1, 32);
}

/*
 * The same loop compiled twice, chosen once per generator: an ifunc
 * (target_clones) would run before ThreadSanitizer is ready.
 */
static void gen_default(uint64_t *st, unsigned char *p, size_t nsteps)
{
	gen_body(st, p, nsteps);
}

__attribute__((target("avx2"))) static void gen_avx2(uint64_t *st, unsigned char *p, size_t nsteps)
{
	gen_body(st, p, nsteps);
}

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void lanes_seed(uint64_t *st, uint64_t seed)
{
	/* splitmix64 never gives a lane the all-zero state xorshift cannot leave. */
	for (int i = 0; i < 16; i++)
		st[i] = splitmix(&seed);
}

static void stream(const struct data_gen *g, uint64_t *st, void *buf, size_t len)
{
	size_t whole = len / STEP, rest = len % STEP;
	g->gen(st, buf, whole);
	if (rest) {
		unsigned char tail[STEP];
		g->gen(st, tail, 1);
		memcpy((unsigned char *)buf + whole * STEP, tail, rest);
	}
}

void data_init(struct data_gen *g, const struct data_spec *d, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	__builtin_cpu_init();
	g->gen = __builtin_cpu_supports("avx2") ? gen_avx2 : gen_default;
	g->spec = *d;
	lanes_seed(g->s, seed);
	rng_seed(&g->rng, seed ^ 0x64656475706521ULL);
}

void data_random(struct data_gen *g, void *buf, size_t len)
{
	stream(g, g->s, buf, len);
}

static void fill_pattern(const struct data_spec *d, unsigned char *p, size_t len)
{
	size_t n = d->pattern_len < len ? d->pattern_len : len;
	memcpy(p, d->pattern, n);
	/* Doubling copies: log2(len / pattern) calls. */
	while (n < len) {
		size_t k = n < len - n ? n : len - n;
		memcpy(p + n, p, k);
		n += k;
	}
}

/* Random data; a repeat of a recent block when dedupe says so. */
static void fill_random(struct data_gen *g, unsigned char *p, size_t len)
{
	const struct data_spec *d = &g->spec;
	if (!d->dedupe) {
		stream(g, g->s, p, len);
		return;
	}
	uint64_t seed;
	if (g->nseeds && rng_below(&g->rng, 100) < d->dedupe) {
		seed = g->seeds[rng_below(&g->rng, g->nseeds)];
	} else {
		seed = rng_next(&g->rng);
		g->seeds[g->next_seed] = seed;
		g->next_seed = (g->next_seed + 1) % DATA_DEDUPE_RING;
		if (g->nseeds < DATA_DEDUPE_RING)
			g->nseeds++;
	}
	uint64_t st[16];
	lanes_seed(st, seed);
	stream(g, st, p, len);
}

void data_fill(struct data_gen *g, void *buf, size_t len)
{
	const struct data_spec *d = &g->spec;
	unsigned char *p = buf;
	switch (d->mode) {
	case DATA_ZERO:
		memset(p, 0, len);
		return;
	case DATA_PATTERN:
		fill_pattern(d, p, len);
		return;
	default:
		break;
	}
	fill_random(g, p, len);
	if (!d->compress)
		return;
	/* Each chunk: a random head, then zeros a compressor removes. */
	size_t head = DATA_COMPRESS_CHUNK * (100u - d->compress) / 100u;
	for (size_t off = 0; off < len; off += DATA_COMPRESS_CHUNK) {
		size_t end = off + DATA_COMPRESS_CHUNK < len ? off + DATA_COMPRESS_CHUNK : len;
		if (off + head < end)
			memset(p + off + head, 0, end - off - head);
	}
}

bool data_needs_refresh(const struct data_spec *d, bool refill, bool buffers_read)
{
	if (d->mode != DATA_RANDOM)
		return buffers_read;
	return refill || d->dedupe || d->compress || buffers_read;
}

/* ---- the option's words */

void data_print(const struct data_spec *d, char *buf, size_t len)
{
	if (d->mode == DATA_ZERO) {
		snprintf(buf, len, "zero");
		return;
	}
	if (d->mode == DATA_PATTERN) {
		size_t k = (size_t)snprintf(buf, len, "pattern=0x");
		for (unsigned i = 0; i < d->pattern_len && k + 3 <= len; i++)
			k += (size_t)snprintf(buf + k, len - k, "%02x", d->pattern[i]);
		return;
	}
	if (!d->compress && !d->dedupe) {
		snprintf(buf, len, "random");
		return;
	}
	int k = 0;
	buf[0] = 0;
	if (d->compress)
		k = snprintf(buf, len, "compress=%u", d->compress);
	if (d->dedupe && k >= 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, "%sdedupe=%u", k ? "," : "", d->dedupe);
}

static int pct(const char *s, uint8_t *out)
{
	char *end;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || v > 100)
		return -1;
	*out = (uint8_t)v;
	return 0;
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int data_parse_pattern(const char *val, struct data_spec *d, const char *opt, char *err, size_t n)
{
	size_t len = strlen(val);
	uint8_t tmp[DATA_PATTERN_MAX];
	size_t k = 0;
	if (len > 2 && val[0] == '0' && (val[1] == 'x' || val[1] == 'X')) {
		const char *h = val + 2;
		size_t digits = len - 2;
		if ((digits + 1) / 2 > DATA_PATTERN_MAX)
			goto too_long;
		/* An odd count: the first digit is a byte of its own (0xabc is 0a bc). */
		for (size_t i = 0; i < digits;) {
			int hi = digits % 2 && i == 0 ? 0 : hexval(h[i++]);
			int lo = hexval(h[i++]);
			if (hi < 0 || lo < 0)
				goto bad;
			tmp[k++] = (uint8_t)(hi << 4 | lo);
		}
	} else if (len >= 2 && (val[0] == '"' || val[0] == '\'') && val[len - 1] == val[0]) {
		if (len == 2)
			goto bad;
		if (len - 2 > DATA_PATTERN_MAX)
			goto too_long;
		memcpy(tmp, val + 1, len - 2);
		k = len - 2;
	} else if (len && strspn(val, "0123456789") == len) {
		errno = 0;
		unsigned long long v = strtoull(val, NULL, 10);
		if (errno)
			goto bad;
		/* Big-endian, as few bytes as the number needs. */
		uint8_t be[8];
		int nb = 0;
		do {
			be[nb++] = (uint8_t)v;
			v >>= 8;
		} while (v);
		while (nb)
			tmp[k++] = be[--nb];
	} else {
		goto bad;
	}
	memset(d->pattern, 0, sizeof(d->pattern));
	memcpy(d->pattern, tmp, k);
	d->pattern_len = (uint8_t)k;
	d->mode = DATA_PATTERN;
	d->compress = d->dedupe = 0;
	return 0;
too_long:
	snprintf(err, n, "--%s: the pattern is longer than %d bytes", opt, DATA_PATTERN_MAX);
	return -1;
bad:
	snprintf(err, n, "--%s: '%s' is not a pattern (allowed: 0xHEX, \"text\" or a decimal number)",
		 opt, val);
	return -1;
}

int data_parse(const char *val, struct data_spec *d, const char *opt, char *err, size_t n)
{
	struct data_spec t = { .mode = DATA_RANDOM };
	char buf[256];
	if (!*val || strlen(val) >= sizeof(buf))
		goto bad;
	if (!strcmp(val, "zero")) {
		t.mode = DATA_ZERO;
		*d = t;
		return 0;
	}
	if (!strncmp(val, "pattern=", 8)) {
		if (data_parse_pattern(val + 8, &t, opt, err, n))
			return -1;
		*d = t;
		return 0;
	}
	/* random, compress=N, dedupe=N, comma-separated. */
	snprintf(buf, sizeof(buf), "%s", val);
	char *save = NULL;
	bool any = false;
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		any = true;
		if (!strcmp(w, "random"))
			continue;
		if (!strncmp(w, "compress=", 9) && !pct(w + 9, &t.compress) && t.compress < 100)
			continue;
		if (!strncmp(w, "dedupe=", 7) && !pct(w + 7, &t.dedupe))
			continue;
		goto bad;
	}
	if (!any || val[strlen(val) - 1] == ',' || val[0] == ',')
		goto bad;
	*d = t;
	return 0;
bad:
	snprintf(err, n,
		 "--%s: '%s' is not allowed (allowed: random, zero, compress=N with N from 0 to 99, "
		 "dedupe=N with N from 0 to 100, compress=N,dedupe=N, pattern=0xHEX)",
		 opt, val);
	return -1;
}
