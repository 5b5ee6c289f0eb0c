/* Written data: random, zero, pattern, compressible and deduplicable blocks. */
#include "model/data.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Eight xorshift128+ lanes, stepped together: no lane waits for another, so
 * the compiler keeps them in vector registers (one AVX-512 vector, two AVX2
 * ones, or four SSE2 ones) and the loop costs a few instructions per 64
 * bytes.  Not cryptographic; random enough that no compressor finds a
 * repeat, and cheap enough to refill every write.  Every variant gives the
 * same bytes for the same state (a block made again, by seed, is the same
 * block on any CPU).
 *
 * A large buffer is written with non-temporal stores: its lines go to memory
 * without being read first (a plain store reads each line it fills, and a
 * buffer the kernel has just copied out sits in another cache or in memory),
 * which halves the traffic; a small one stays in the cache, where the
 * kernel's copy finds it.
 */
typedef uint64_t v4u __attribute__((vector_size(32)));
typedef uint64_t v8u __attribute__((vector_size(64)));
#define STEP 64
/* From this size on (and 64-byte aligned), non-temporal stores. */
#define NT_MIN (256u << 10)

/* The state as the lanes: a0 = st[0..3], b0 = st[4..7], a1 = st[8..11], b1 = st[12..15]. */
#define STEP4(a0, b0, a1, b1, o0, o1)                                       \
	do {                                                                 \
		v4u x0 = a0, y0 = b0, x1 = a1, y1 = b1;                      \
		a0 = y0;                                                     \
		a1 = y1;                                                     \
		x0 ^= x0 << 23;                                              \
		x1 ^= x1 << 23;                                              \
		b0 = x0 ^ y0 ^ (x0 >> 17) ^ (y0 >> 26);                      \
		b1 = x1 ^ y1 ^ (x1 >> 17) ^ (y1 >> 26);                      \
		o0 = b0 + y0;                                                \
		o1 = b1 + y1;                                                \
	} while (0)

static inline __attribute__((always_inline)) void gen_body(uint64_t *st, unsigned char *p, size_t nsteps)
{
	v4u a0, b0, a1, b1;
	memcpy(&a0, st, 32);
	memcpy(&b0, st + 4, 32);
	memcpy(&a1, st + 8, 32);
	memcpy(&b1, st + 12, 32);
	for (size_t i = 0; i < nsteps; i++, p += STEP) {
		v4u o0, o1;
		STEP4(a0, b0, a1, b1, o0, o1);
		memcpy(p, &o0, 32);
		memcpy(p + 32, &o1, 32);
	}
	memcpy(st, &a0, 32);
	memcpy(st + 4, &b0, 32);
	memcpy(st + 8, &a1, 32);
	memcpy(st + 12, &b1, 32);
}

/*
 * The same loop compiled for each CPU, chosen once per generator: an ifunc
 * (target_clones) would run before ThreadSanitizer is ready.
 */
static void gen_default(uint64_t *st, unsigned char *p, size_t nsteps)
{
	gen_body(st, p, nsteps);
}

#if defined(__x86_64__)
#include <immintrin.h>

/* SSE2 (every x86-64): the portable loop with streaming stores. */
static void gen_default_nt(uint64_t *st, unsigned char *p, size_t nsteps)
{
	v4u a0, b0, a1, b1;
	memcpy(&a0, st, 32);
	memcpy(&b0, st + 4, 32);
	memcpy(&a1, st + 8, 32);
	memcpy(&b1, st + 12, 32);
	for (size_t i = 0; i < nsteps; i++, p += STEP) {
		v4u o0, o1;
		STEP4(a0, b0, a1, b1, o0, o1);
		__m128i q[4];
		memcpy(q, &o0, 32);
		memcpy(q + 2, &o1, 32);
		for (int k = 0; k < 4; k++)
			_mm_stream_si128((__m128i *)(void *)(p + 16 * k), q[k]);
	}
	_mm_sfence(); /* visible before the request that carries them */
	memcpy(st, &a0, 32);
	memcpy(st + 4, &b0, 32);
	memcpy(st + 8, &a1, 32);
	memcpy(st + 12, &b1, 32);
}

__attribute__((target("avx2"))) static void gen_avx2(uint64_t *st, unsigned char *p, size_t nsteps)
{
	gen_body(st, p, nsteps);
}

__attribute__((target("avx2"))) static void gen_avx2_nt(uint64_t *st, unsigned char *p, size_t nsteps)
{
	v4u a0, b0, a1, b1;
	memcpy(&a0, st, 32);
	memcpy(&b0, st + 4, 32);
	memcpy(&a1, st + 8, 32);
	memcpy(&b1, st + 12, 32);
	for (size_t i = 0; i < nsteps; i++, p += STEP) {
		v4u o0, o1;
		STEP4(a0, b0, a1, b1, o0, o1);
		_mm256_stream_si256((__m256i *)(void *)p, (__m256i)o0);
		_mm256_stream_si256((__m256i *)(void *)(p + 32), (__m256i)o1);
	}
	_mm_sfence();
	memcpy(st, &a0, 32);
	memcpy(st + 4, &b0, 32);
	memcpy(st + 8, &a1, 32);
	memcpy(st + 12, &b1, 32);
}

/* AVX-512: the eight lanes in one vector, a0's four then a1's, so a step's 64 bytes are one store. */
__attribute__((target("avx512f"))) static inline __attribute__((always_inline)) void gen512_body(uint64_t *st, unsigned char *p, size_t nsteps,
							     bool nt)
{
	uint64_t la[8], lb[8];
	memcpy(la, st, 32);
	memcpy(la + 4, st + 8, 32);
	memcpy(lb, st + 4, 32);
	memcpy(lb + 4, st + 12, 32);
	v8u a, b;
	memcpy(&a, la, 64);
	memcpy(&b, lb, 64);
	for (size_t i = 0; i < nsteps; i++, p += STEP) {
		v8u x = a, y = b;
		a = y;
		x ^= x << 23;
		b = x ^ y ^ (x >> 17) ^ (y >> 26);
		v8u o = b + y;
		if (nt)
			_mm512_stream_si512((void *)p, (__m512i)o);
		else
			memcpy(p, &o, 64);
	}
	if (nt)
		_mm_sfence();
	memcpy(la, &a, 64);
	memcpy(lb, &b, 64);
	memcpy(st, la, 32);
	memcpy(st + 8, la + 4, 32);
	memcpy(st + 4, lb, 32);
	memcpy(st + 12, lb + 4, 32);
}

__attribute__((target("avx512f"))) static void gen_avx512(uint64_t *st, unsigned char *p, size_t nsteps)
{
	gen512_body(st, p, nsteps, false);
}

__attribute__((target("avx512f"))) static void gen_avx512_nt(uint64_t *st, unsigned char *p, size_t nsteps)
{
	gen512_body(st, p, nsteps, true);
}
#endif

/* The variants, best last: data_impl picks one by name (tests), data_init the best this CPU runs. */
static const struct gen_impl {
	const char *name;
	void (*gen)(uint64_t *st, unsigned char *p, size_t nsteps);
	void (*gen_nt)(uint64_t *st, unsigned char *p, size_t nsteps); /* 64-byte aligned p */
} impls[] = {
#if defined(__x86_64__)
	{ "sse2", gen_default, gen_default_nt },
	{ "avx2", gen_avx2, gen_avx2_nt },
	{ "avx512", gen_avx512, gen_avx512_nt },
#else
	{ "portable", gen_default, gen_default },
#endif
};

static bool impl_runs(const struct gen_impl *m)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (!strcmp(m->name, "avx2"))
		return __builtin_cpu_supports("avx2");
	if (!strcmp(m->name, "avx512"))
		return __builtin_cpu_supports("avx512f");
#endif
	(void)m;
	return true;
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
	if (len >= NT_MIN && !((uintptr_t)buf % STEP))
		g->gen_nt(st, buf, whole);
	else
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
	for (size_t i = ARRAY_LEN(impls); i-- > 0;)
		if (impl_runs(&impls[i])) {
			g->gen = impls[i].gen;
			g->gen_nt = impls[i].gen_nt;
			break;
		}
	g->spec = *d;
	lanes_seed(g->s, seed);
	rng_seed(&g->rng, seed ^ 0x64656475706521ULL);
}

const char *data_impl(struct data_gen *g, unsigned i)
{
	if (i >= ARRAY_LEN(impls) || !impl_runs(&impls[i]))
		return NULL;
	g->gen = impls[i].gen;
	g->gen_nt = impls[i].gen_nt;
	return impls[i].name;
}

void data_random(struct data_gen *g, void *buf, size_t len)
{
	stream(g, g->s, buf, len);
}

void data_random_seeded(const struct data_gen *g, void *buf, size_t len, uint64_t seed)
{
	uint64_t st[16];
	lanes_seed(st, seed);
	stream(g, st, buf, len);
}

size_t data_pattern_at(const struct data_spec *d, uint64_t offset, uint8_t *out)
{
	memcpy(out, d->pattern, d->pattern_len);
	for (unsigned i = 0; i < d->nfmt; i++) {
		/* Little-endian, as fio pastes it; cut where the pattern ends. */
		for (unsigned k = 0; k < DATA_OFFSET_LEN && d->fmt_off[i] + k < d->pattern_len; k++)
			out[d->fmt_off[i] + k] = (uint8_t)(offset >> (8 * k));
	}
	return d->pattern_len;
}

static void fill_pattern(const struct data_spec *d, unsigned char *p, size_t len, uint64_t offset)
{
	size_t n = d->pattern_len < len ? d->pattern_len : len;
	if (d->nfmt) {
		uint8_t tmp[DATA_PATTERN_MAX];
		data_pattern_at(d, offset, tmp);
		memcpy(p, tmp, n);
	} else {
		memcpy(p, d->pattern, n);
	}
	/* Doubling copies: log2(len / pattern) calls. */
	while (n < len) {
		size_t k = n < len - n ? n : len - n;
		memcpy(p + n, p, k);
		n += k;
	}
}

void data_working_set(struct data_gen *g, uint64_t ws_blocks, uint64_t run_seed, unsigned thread,
		      unsigned nthreads, bool global)
{
	g->global = global;
	g->ws_n = ws_blocks ? ws_blocks : 1;
	g->run_base = run_seed;
	g->thread = thread;
	g->nthreads = nthreads ? nthreads : 1;
	g->base = splitmix(&run_seed) ^ ((uint64_t)thread << 32 | thread);
	g->per_thread = g->ws_n / g->nthreads ? g->ws_n / g->nthreads : 1;
}

/* The k-th fresh block's seed of a thread (working_set: its seeds are known to the others). */
static uint64_t fresh_seed(const struct data_gen *g, unsigned thread, uint64_t k)
{
	uint64_t rb = g->run_base, x = (splitmix(&rb) ^ ((uint64_t)thread << 32 | thread)) + k * 0x9e3779b97f4a7c15ULL;
	return splitmix(&x);
}

/*
 * The working set's i-th block: this thread's i-th fresh block, or with
 * dedupe_global fio's rotation: runs of per_thread blocks taken from each
 * thread in turn, starting with this one.
 */
static uint64_t ws_seed(const struct data_gen *g, uint64_t i)
{
	if (!g->global)
		return fresh_seed(g, g->thread, i);
	uint64_t run = i / g->per_thread;
	return fresh_seed(g, (unsigned)((g->thread + run) % g->nthreads), i - run * g->per_thread);
}

/* Random data; a repeat when dedupe says so (fio's dedupe_mode). */
static void fill_random(struct data_gen *g, unsigned char *p, size_t len)
{
	const struct data_spec *d = &g->spec;
	if (!d->dedupe) {
		stream(g, g->s, p, len);
		return;
	}
	uint64_t seed;
	bool ws = g->ws_n; /* dedupe_mode=working_set */
	bool repeat = d->dedupe == 100 || rng_below(&g->rng, 100) < d->dedupe;
	if (repeat && ws && d->dedupe < 100) { /* 100: every block the same, as fio's */
		seed = ws_seed(g, rng_below(&g->rng, g->ws_n));
	} else if (repeat && g->have_last) {
		seed = g->last_seed;
	} else {
		/* Fresh: the working set's blocks come first, as fio's set is its first buffers. */
		seed = ws ? fresh_seed(g, g->thread, g->fresh++) : rng_next(&g->rng);
		g->last_seed = seed;
		g->have_last = true;
	}
	uint64_t st[16];
	lanes_seed(st, seed);
	stream(g, st, p, len);
}

void data_fill(struct data_gen *g, void *buf, size_t len)
{
	data_fill_at(g, buf, len, 0);
}

void data_fill_at(struct data_gen *g, void *buf, size_t len, uint64_t offset)
{
	const struct data_spec *d = &g->spec;
	unsigned char *p = buf;
	switch (d->mode) {
	case DATA_ZERO:
		memset(p, 0, len);
		return;
	case DATA_PATTERN:
		fill_pattern(d, p, len, offset);
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
		return buffers_read || d->nfmt; /* %o: each block carries its own offset */
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
		size_t k = (size_t)snprintf(buf, len, "pattern=");
		data_print_pattern(d, buf + k, len - k);
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

void data_print_pattern(const struct data_spec *d, char *buf, size_t len)
{
	size_t k = 0;
	bool hex = false;
	buf[0] = 0;
	for (unsigned i = 0, f = 0; i < d->pattern_len && k + 8 < len;) {
		if (f < d->nfmt && d->fmt_off[f] == i) {
			k += (size_t)snprintf(buf + k, len - k, "%%o");
			i += DATA_OFFSET_LEN;
			f++;
			hex = false;
			continue;
		}
		k += (size_t)snprintf(buf + k, len - k, "%s%02x", hex ? "" : "0x", d->pattern[i++]);
		hex = true;
	}
}

/* 0xHEX at s: the bytes, fio's way (0xff0x14 is ff then 0x14).  End, or NULL. */
static const char *pat_hex(const char *s, uint8_t *out, size_t room, size_t *got)
{
	const char *h = s + 2;
	size_t digits = 0;
	while (hexval(h[digits]) >= 0)
		digits++;
	if (digits > 1 && h[digits - 1] == '0' && (h[digits] == 'x' || h[digits] == 'X'))
		digits--; /* that 0 starts the next number */
	if (!digits || (digits + 1) / 2 > room)
		return NULL;
	size_t k = 0;
	/* An odd count: the first digit is a byte of its own (0xabc is 0a bc). */
	for (size_t i = 0; i < digits;) {
		int hi = digits % 2 && i == 0 ? 0 : hexval(h[i++]);
		int lo = hexval(h[i++]);
		out[k++] = (uint8_t)(hi << 4 | lo);
	}
	*got = k;
	return h + digits;
}

/* A decimal number at s, up to a following 0x: its bytes little-endian, as fio's. */
static const char *pat_dec(const char *s, uint8_t *out, size_t room, size_t *got)
{
	char num[32];
	size_t n = 0;
	if (s[n] == '-' || s[n] == '+')
		n++;
	while (isdigit((unsigned char)s[n]) && !(s[n] == '0' && (s[n + 1] == 'x' || s[n + 1] == 'X')))
		n++;
	if (n >= sizeof(num) || !isdigit((unsigned char)s[n - (n > 0)]) || !n)
		return NULL;
	memcpy(num, s, n);
	num[n] = 0;
	errno = 0;
	char *end;
	long long v = strtoll(num, &end, 10);
	if (errno || *end || v > INT32_MAX || v < INT32_MIN)
		return NULL;
	uint32_t u = (uint32_t)(int32_t)v;
	size_t k = 0;
	do {
		if (k == room)
			return NULL;
		out[k++] = (uint8_t)u;
		u >>= 8;
	} while (u);
	*got = k;
	return s + n;
}

/* 'FILE': its first bytes, as many as there is room for. */
static const char *pat_file(const char *s, uint8_t *out, size_t room, size_t *got, char *err, size_t n,
			    const char *opt)
{
	const char *end = strchr(s + 1, '\'');
	char path[4096];
	if (!end || end == s + 1 || (size_t)(end - s - 1) >= sizeof(path))
		return NULL;
	memcpy(path, s + 1, (size_t)(end - s - 1));
	path[end - s - 1] = 0;
	FILE *f = fopen(path, "rb");
	size_t r = f ? fread(out, 1, room, f) : 0;
	if (!f || ferror(f) || !r) {
		snprintf(err, n, "--%s: the pattern file '%s': %s", opt, path,
			 !f ? strerror(errno) : r ? "read error" : "empty");
		if (f)
			fclose(f);
		*got = SIZE_MAX;
		return NULL;
	}
	fclose(f);
	*got = r;
	return end + 1;
}

int data_parse_pattern(const char *val, struct data_spec *d, bool offsets, const char *opt,
		       char *err, size_t n)
{
	struct data_spec t = *d;
	size_t k = 0;
	const char *s = val;
	memset(t.pattern, 0, sizeof(t.pattern));
	t.nfmt = 0;
	if (!*s)
		goto bad;
	while (*s) {
		size_t got = 0, room = DATA_PATTERN_MAX - k;
		const char *next;
		if (*s == '"') {
			const char *end = strchr(s + 1, '"');
			got = end ? (size_t)(end - s - 1) : 0;
			if (!end || !got)
				goto bad;
			if (got > room)
				goto too_long;
			memcpy(t.pattern + k, s + 1, got);
			next = end + 1;
		} else if (*s == '\'') {
			next = pat_file(s, t.pattern + k, room, &got, err, n, opt);
			if (!next && got == SIZE_MAX)
				return -1;
		} else if (*s == '%' && s[1] == 'o' && offsets) {
			if (t.nfmt == DATA_PATTERN_FMTS || room < DATA_OFFSET_LEN)
				goto too_long;
			t.fmt_off[t.nfmt++] = (uint16_t)k;
			got = DATA_OFFSET_LEN; /* zeros here; each block's offset when filled */
			next = s + 2;
		} else if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			next = pat_hex(s, t.pattern + k, room, &got);
		} else {
			next = pat_dec(s, t.pattern + k, room, &got);
		}
		if (!next) {
			if (room < 4)
				goto too_long;
			goto bad;
		}
		k += got;
		s = next;
	}
	t.pattern_len = (uint16_t)k;
	t.mode = DATA_PATTERN;
	t.compress = t.dedupe = 0;
	*d = t;
	return 0;
too_long:
	snprintf(err, n, "--%s: the pattern is longer than %d bytes", opt, DATA_PATTERN_MAX);
	return -1;
bad:
	snprintf(err, n,
		 "--%s: '%s' is not a pattern (allowed, one after another: 0xHEX, \"text\", a decimal number, 'FILE'%s)",
		 opt, val, offsets ? ", %o" : "");
	return -1;
}

int data_parse(const char *val, struct data_spec *d, const char *opt, char *err, size_t n)
{
	struct data_spec t = { .mode = DATA_RANDOM };
	char buf[256];
	if (!strncmp(val, "pattern=", 8)) {
		if (data_parse_pattern(val + 8, &t, true, opt, err, n))
			return -1;
		*d = t;
		return 0;
	}
	if (!*val || strlen(val) >= sizeof(buf))
		goto bad;
	if (!strcmp(val, "zero")) {
		t.mode = DATA_ZERO;
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
		 "dedupe=N with N from 0 to 100, compress=N,dedupe=N, pattern=PATTERN as fio's buffer_pattern)",
		 opt, val);
	return -1;
}
