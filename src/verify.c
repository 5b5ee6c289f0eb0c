/* Verification: block headers, checksums from libraries, the expected state of every block. */
#include "common.h"
#include "job.h"
#include "options.h"
#include "pattern.h"
#include "verify.h"
#include "worker.h"
#include "engines/engine.h"

#include <errno.h>
#include <inttypes.h>
#include <isa-l/crc.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

const char *const verify_names[] = { "none", "crc32c", "xxhash", "md5", "sha256", "pattern", NULL };
const char *const verify_kind_names[VK_NR] = { "corrupt", "no header", "misplaced", "foreign",
					       "lost write", "unknown write", "pattern" };

#define VHDR_MAGIC 0x46564749u /* "IGVF" */
#define VHDR_VERSION 1
/* Expected write numbers kept per block: 8 bytes each, at most this much in all. */
#define TABLE_MAX (1ULL << 30)

/* The header at the start of every written block (little-endian, as the machine). */
struct vhdr {
	uint32_t magic;
	uint8_t version;
	uint8_t algo;
	uint16_t size; /* sizeof(struct vhdr) */
	uint32_t len;  /* the block's length */
	uint32_t thread;
	uint64_t offset; /* where the block belongs */
	uint64_t seed;   /* the job's */
	uint64_t seq;    /* the thread's write number, from 1 */
	uint8_t csum[32]; /* of the whole block with this field zeroed */
};

/*
 * A block with two writes in flight at once (a request that stays out while
 * the offsets come round again) ends with either on disk, or parts of both:
 * it is not checked until a write alone in flight settles it.  The flag marks
 * a busy spell (writes in flight without a pause) that saw two at once.
 */
#define AMBIG (1ULL << 63)

struct vthread {
	uint64_t *table;   /* last write number of each block (| AMBIG); 0: never written */
	uint16_t *busy;    /* writes in flight on each block */
	uint64_t *snap;    /* per request slot: a read's block state when issued; UINT64_MAX: a write was in flight */
	uint64_t seq;      /* last write number stamped */
	uint64_t *ring;    /* verify_backlog: blocks written since the last read-back */
	unsigned nring, ring_pos;
	uint64_t scan;     /* final read-back: next block */
	bool scanning, in_round;
	uint64_t round_start, last_read;
	EVP_MD_CTX *md;
	struct verify_stats st;
	char pad[64]; /* threads' counters on their own cache lines */
};

struct verify_ctx {
	struct worker_hooks hooks;
	int algo;
	uint64_t region, bs, nblocks, seed; /* nblocks: of each thread */
	uint64_t step; /* from one thread's region to the next: a slice (split), --offset_increment or 0 */
	unsigned nthreads, backlog, depth;
	bool final;
	struct data_spec pattern;
	const EVP_MD *md;
	struct vthread *t;
	struct verify_stats total;
};

/* ---- checksums */

static unsigned csum_len(int algo)
{
	switch (algo) {
	case VERIFY_CRC32C:
		return 4;
	case VERIFY_XXHASH:
		return 8;
	case VERIFY_MD5:
		return 16;
	case VERIFY_SHA256:
		return 32;
	default:
		return 0;
	}
}

static void checksum(const struct verify_ctx *v, struct vthread *t, const void *buf, size_t len,
		     uint8_t out[32])
{
	memset(out, 0, 32);
	switch (v->algo) {
	case VERIFY_CRC32C: {
		uint32_t c = crc32_iscsi((unsigned char *)buf, (int)len, 0xffffffffu);
		memcpy(out, &c, 4);
		break;
	}
	case VERIFY_XXHASH: {
		uint64_t h = XXH3_64bits(buf, len);
		memcpy(out, &h, 8);
		break;
	}
	default: {
		unsigned n = 0;
		/* The context was made for this thread before the run: no allocation here. */
		if (!EVP_DigestInit_ex(t->md, v->md, NULL) || !EVP_DigestUpdate(t->md, buf, len) ||
		    !EVP_DigestFinal_ex(t->md, out, &n))
			memset(out, 0xff, 32); /* never matches a real digest's stamp */
		break;
	}
	}
}

/* The first bytes of a checksum (at most 8), as they are stored, for messages. */
static uint64_t first8(const uint8_t *c, unsigned len)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < len && i < 8; i++)
		v = v << 8 | c[i];
	return v;
}

/* ---- the hooks */

/* Where thread's region starts: threads sharing a file have slices (split) or --offset_increment. */
static uint64_t base_of(const struct verify_ctx *v, unsigned thread)
{
	return v->region + (uint64_t)thread * v->step;
}

/* The block's index in its thread's table. */
static uint64_t block_of(const struct verify_ctx *v, unsigned thread, uint64_t offset)
{
	return (offset - base_of(v, thread)) / v->bs;
}

static void stamp(struct verify_ctx *v, unsigned thread, struct io_u *u)
{
	struct vthread *t = &v->t[thread];
	struct vhdr h = {
		.magic = VHDR_MAGIC, .version = VHDR_VERSION, .algo = (uint8_t)v->algo,
		.size = sizeof(struct vhdr), .len = u->len, .thread = thread,
		.offset = u->offset, .seed = v->seed, .seq = ++t->seq,
	};
	uint8_t c[32];
	memcpy(u->buf, &h, sizeof(h));
	checksum(v, t, u->buf, u->len, c);
	memcpy((char *)u->buf + offsetof(struct vhdr, csum), c, csum_len(v->algo));
}

static void hook_prep(void *arg, unsigned thread, struct io_u *u)
{
	struct verify_ctx *v = arg;
	struct vthread *t = &v->t[thread];
	uint64_t b = block_of(v, thread, u->offset);
	if (u->op == IO_READ) {
		t->snap[u->idx] = t->busy[b] ? UINT64_MAX : t->table[b];
		return;
	}
	if (u->op != IO_WRITE)
		return;
	if (!u->buf) {
		/* A replay (verify_only): what the earlier run's write there was numbered. */
		t->table[b] = v->algo == VERIFY_PATTERN ? 1 : ++t->seq;
		return;
	}
	if (t->busy[b]) /* the order on disk of the two is unknown */
		t->table[b] |= AMBIG;
	else /* a new busy spell */
		t->table[b] &= ~AMBIG;
	if (t->busy[b] < UINT16_MAX)
		t->busy[b]++;
	if (v->algo != VERIFY_PATTERN)
		stamp(v, thread, u);
}

static void bad(struct vthread *t, const struct io_u *u, unsigned thread, int kind,
		uint64_t expected, uint64_t found, uint64_t at)
{
	struct verify_stats *s = &t->st;
	s->bad++;
	s->by_kind[kind]++;
	if (s->nkept < VERIFY_REPORT_MAX)
		s->list[s->nkept++] = (struct verify_bad){ u->offset, expected, found, at, thread, kind };
}

static void check_pattern(struct verify_ctx *v, struct vthread *t, unsigned thread, const struct io_u *u)
{
	const uint8_t *b = u->buf;
	const struct data_spec *p = &v->pattern;
	for (uint32_t i = 0; i < u->len; i++) {
		uint8_t want = p->pattern[i % p->pattern_len];
		if (b[i] != want) {
			bad(t, u, thread, VK_PATTERN, want, b[i], u->offset + i);
			return;
		}
	}
}

/* One block read back (or read by a mixed job) that this thread wrote. */
static void check(struct verify_ctx *v, unsigned thread, const struct io_u *u, uint64_t want_seq)
{
	struct vthread *t = &v->t[thread];
	t->st.checked++;
	t->st.bytes += u->len;
	if (v->algo == VERIFY_PATTERN) {
		check_pattern(v, t, thread, u);
		return;
	}
	struct vhdr h;
	memcpy(&h, u->buf, sizeof(h));
	if (h.magic != VHDR_MAGIC || h.version != VHDR_VERSION || h.size != sizeof(h) ||
	    h.len != u->len || h.algo != v->algo) {
		bad(t, u, thread, VK_NO_HEADER, VHDR_MAGIC, h.magic, u->offset);
		return;
	}
	/*
	 * The checksum covers the whole block with its own bytes zeroed; the
	 * unused rest of the field is covered too (it must still be zero).
	 */
	uint8_t c[32];
	char *field = (char *)u->buf + offsetof(struct vhdr, csum);
	memset(field, 0, csum_len(v->algo));
	checksum(v, t, u->buf, u->len, c);
	if (memcmp(c, h.csum, csum_len(v->algo))) {
		/* Eight bytes from the first that differs: what a reader compares. */
		unsigned n = csum_len(v->algo), d = 0;
		while (h.csum[d] == c[d])
			d++;
		d &= ~7u;
		unsigned w = n - d < 8 ? n - d : 8;
		bad(t, u, thread, VK_CORRUPT, first8(h.csum + d, w), first8(c + d, w), d << 8 | w);
		return;
	}
	if (h.offset != u->offset)
		bad(t, u, thread, VK_MISPLACED, u->offset, h.offset, u->offset);
	else if (h.seed != v->seed || h.thread != thread)
		bad(t, u, thread, VK_FOREIGN, v->seed, h.seed, h.thread);
	else if (h.seq < want_seq)
		bad(t, u, thread, VK_LOST, want_seq, h.seq, u->offset);
	else if (h.seq > want_seq)
		bad(t, u, thread, VK_NEWER, want_seq, h.seq, u->offset);
}

static int hook_complete(void *arg, unsigned thread, const struct io_u *u, uint64_t lat_ns)
{
	struct verify_ctx *v = arg;
	struct vthread *t = &v->t[thread];
	(void)lat_ns;
	uint64_t b = block_of(v, thread, u->offset);
	if (u->op == IO_WRITE) {
		t->st.written++;
		if (t->busy[b])
			t->busy[b]--;
		uint64_t seq = 1;
		/* Recorded when done: a request prepared but never submitted promises nothing. */
		if (v->algo != VERIFY_PATTERN)
			memcpy(&seq, (const char *)u->buf + offsetof(struct vhdr, seq), sizeof(seq));
		t->table[b] = seq | (t->table[b] & AMBIG);
		if (!v->backlog)
			return 0;
		/* Room for what completes in the same batch as the one that asked. */
		if (t->nring < v->backlog + v->depth)
			t->ring[t->nring++] = b;
		return t->nring >= v->backlog ? HOOK_READBACK : 0;
	}
	if (u->op != IO_READ)
		return 0;
	uint64_t want = t->table[b];
	if (t->snap[u->idx] != want || t->busy[b] || (want & AMBIG)) {
		/*
		 * A write of this block was in flight while it was read, or two
		 * writes of it were in flight together: it may hold either, or
		 * parts of both.  Nothing to hold against it.
		 */
		if (want)
			t->st.overlapped++;
	} else if (want) {
		/* Blocks this job never wrote hold the layout's data: nothing to check. */
		check(v, thread, u, want);
	}
	if (t->in_round)
		t->last_read = now_ns();
	return 0;
}

static void round_end(struct vthread *t)
{
	if (t->in_round && t->last_read > t->round_start)
		t->st.readback_ns += t->last_read - t->round_start;
	t->in_round = false;
}

static bool hook_readback(void *arg, unsigned thread, bool final, uint64_t *offset)
{
	struct verify_ctx *v = arg;
	struct vthread *t = &v->t[thread];
	if (!t->in_round) {
		t->in_round = true;
		t->round_start = t->last_read = now_ns();
		t->ring_pos = 0;
		t->scan = 0;
		/* Nothing is in flight now, nor will be: writes prepared and never issued are not. */
		if (final)
			memset(t->busy, 0, v->nblocks * sizeof(*t->busy));
	}
	if (!final) {
		if (t->ring_pos < t->nring) {
			*offset = base_of(v, thread) + t->ring[t->ring_pos++] * v->bs;
			return true;
		}
		t->nring = 0;
		round_end(t);
		return false;
	}
	uint64_t base = base_of(v, thread);
	while (v->final && t->scan < v->nblocks) {
		uint64_t b = t->scan++;
		if (t->table[b]) {
			*offset = base + b * v->bs;
			return true;
		}
	}
	round_end(t);
	return false;
}

/* ---- setting up */

int verify_job_check(const struct job *j, struct ig_err *e)
{
	const char *n = j->name;
	if (!j->verify) {
		if (j->verify_only || j->verify_backlog)
			return err_set(e, EXIT_USAGE, "job %s: --%s needs --verify=ALGO", n,
				       j->verify_only ? "verify_only" : "verify_backlog");
		return 0;
	}
	if (j->fileop)
		return err_set(e, EXIT_USAGE, "job %s: --verify checks blocks; --fileop=%s has none", n,
			       fileop_names[j->fileop]);
	if (j->rewrite_pct)
		return err_set(e, EXIT_USAGE,
			       "job %s: --verify and --rewrite_pct do not go together (a rewritten block's expected state is not kept)", n);
	if (!rw_writes(j->rw))
		return err_set(e, EXIT_USAGE,
			       "job %s: --verify checks what the job writes, and --rw=%s writes nothing (to check what an earlier run wrote, give its options and --verify_only)",
			       n, rw_is_random(j->rw) ? "randread" : "read");
	if (j->verify == VERIFY_PATTERN && j->data.mode != DATA_PATTERN)
		return err_set(e, EXIT_USAGE, "job %s: --verify=pattern needs --data=pattern=0xHEX (or --buffer_pattern)", n);
	if (j->bs < sizeof(struct vhdr))
		return err_set(e, EXIT_USAGE, "job %s: --verify needs --bs of at least %zu bytes (each block carries a header)",
			       n, sizeof(struct vhdr));
	if (pattern_wanted(j))
		return err_set(e, EXIT_USAGE,
			       "job %s: --verify checks blocks of one size: drop the block-size ranges, splits and holes", n);
	if (j->engine->flags & ENGINE_NO_FILE)
		return err_set(e, EXIT_USAGE, "job %s: --verify needs a file; --ioengine=%s has none", n,
			       j->engine->name);
	if (j->verify_only && j->time_based)
		return err_set(e, EXIT_USAGE,
			       "job %s: --verify_only replays a size-bound run; a --time_based run's writes cannot be known", n);
	if (j->verify_only && !j->randrepeat)
		return err_set(e, EXIT_USAGE,
			       "job %s: --verify_only replays the earlier run's random sequence: it needs --randrepeat=1", n);
	return 0;
}

struct verify_ctx *verify_new(const struct job *j, unsigned nthreads, struct ig_err *e)
{
	/*
	 * Threads sharing one file (--filename) each verify their own slice of
	 * the region, or with --offset_increment their own region.
	 */
	bool split = j->filename[0] && nthreads > 1 && !j->offset_increment;
	uint64_t nblocks = j->size / j->bs / (split ? nthreads : 1);
	char b[32], c[32];
	if (j->filename[0] && nthreads > 1 && j->offset_increment && j->offset_increment < j->size) {
		err_set(e, EXIT_USAGE,
			"job %s: --verify: the %u threads' regions of the shared file overlap (--offset_increment=%s is less than --size=%s)",
			j->name, nthreads, fmt_bytes(b, sizeof(b), (double)j->offset_increment),
			fmt_bytes(c, sizeof(c), (double)j->size));
		return NULL;
	}
	if (!nblocks) {
		err_set(e, EXIT_USAGE, "job %s: --verify: each of %u threads needs at least one block of the region",
			j->name, nthreads);
		return NULL;
	}
	if (nblocks > TABLE_MAX / 10 / nthreads) {
		err_set(e, EXIT_USAGE,
			"job %s: --verify keeps 10 bytes per block: %" PRIu64 " blocks x %u threads is more than %s (use a larger --bs or a smaller --size)",
			j->name, nblocks, nthreads, fmt_bytes(b, sizeof(b), (double)TABLE_MAX));
		return NULL;
	}
	struct verify_ctx *v = xcalloc(1, sizeof(*v));
	v->algo = j->verify;
	v->region = j->offset;
	v->bs = j->bs;
	v->nblocks = nblocks;
	v->nthreads = nthreads;
	v->depth = j->engine->flags & ENGINE_SYNC ? 1 : j->iodepth;
	v->step = split ? nblocks * j->bs : j->offset_increment;
	v->backlog = j->verify_backlog && j->verify_backlog < nblocks ? j->verify_backlog :
		     j->verify_backlog ? (unsigned)nblocks : 0;
	v->final = j->do_verify || j->verify_only;
	v->pattern = j->data;
	/* The job's seed (as the worker draws it): a later run with the same options finds the same. */
	v->seed = (j->randseed ^ ((uint64_t)j->index << 40)) | 1;
	if (v->algo == VERIFY_MD5 || v->algo == VERIFY_SHA256)
		v->md = v->algo == VERIFY_MD5 ? EVP_md5() : EVP_sha256();
	v->t = xcalloc(nthreads, sizeof(*v->t));
	for (unsigned i = 0; i < nthreads; i++) {
		struct vthread *t = &v->t[i];
		t->table = calloc(nblocks, sizeof(uint64_t));
		t->busy = calloc(nblocks, sizeof(uint16_t));
		t->snap = calloc(v->depth, sizeof(uint64_t));
		t->ring = v->backlog ? calloc(v->backlog + v->depth, sizeof(uint64_t)) : NULL;
		t->md = v->md ? EVP_MD_CTX_new() : NULL;
		if (!t->table || !t->busy || !t->snap || (v->backlog && !t->ring) ||
		    (v->md && !t->md)) {
			verify_free(v);
			err_set(e, EXIT_IOERR, "job %s: out of memory for --verify's block table", j->name);
			return NULL;
		}
	}
	v->hooks = (struct worker_hooks){
		.arg = v,
		.prep = hook_prep,
		.complete = hook_complete,
		.readback = (v->final || v->backlog) ? hook_readback : NULL,
		.plan_only = j->verify_only,
		.split = split,
	};
	return v;
}

const struct worker_hooks *verify_hooks(struct verify_ctx *v)
{
	return &v->hooks;
}

int verify_algo(const struct verify_ctx *v)
{
	return v->algo;
}

static int cmp_bad(const void *a, const void *b)
{
	const struct verify_bad *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

const struct verify_stats *verify_stats(const struct verify_ctx *v)
{
	return &v->total;
}

const struct verify_stats *verify_collect(struct verify_ctx *v)
{
	struct verify_stats *s = &v->total;
	struct verify_bad all[VERIFY_REPORT_MAX * 4];
	unsigned n = 0;
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < v->nthreads; i++) {
		struct vthread *t = &v->t[i];
		round_end(t);
		s->written += t->st.written;
		s->checked += t->st.checked;
		s->bytes += t->st.bytes;
		s->bad += t->st.bad;
		s->overlapped += t->st.overlapped;
		s->readback_ns = t->st.readback_ns > s->readback_ns ? t->st.readback_ns : s->readback_ns;
		for (int k = 0; k < VK_NR; k++)
			s->by_kind[k] += t->st.by_kind[k];
		for (unsigned k = 0; k < t->st.nkept; k++) {
			if (n == ARRAY_SIZE(all)) {
				qsort(all, n, sizeof(all[0]), cmp_bad);
				n = VERIFY_REPORT_MAX;
			}
			all[n++] = t->st.list[k];
		}
	}
	qsort(all, n, sizeof(all[0]), cmp_bad);
	s->nkept = n < VERIFY_REPORT_MAX ? n : VERIFY_REPORT_MAX;
	memcpy(s->list, all, s->nkept * sizeof(all[0]));
	return s;
}

void verify_free(struct verify_ctx *v)
{
	if (!v)
		return;
	for (unsigned i = 0; v->t && i < v->nthreads; i++) {
		free(v->t[i].table);
		free(v->t[i].busy);
		free(v->t[i].snap);
		free(v->t[i].ring);
		EVP_MD_CTX_free(v->t[i].md);
	}
	free(v->t);
	free(v);
}

void verify_describe(const struct verify_bad *b, char *buf, size_t len)
{
	switch (b->kind) {
	case VK_CORRUPT:
	{
		/* at: the first byte shown << 8 | how many (8 bytes of a longer checksum). */
		unsigned from = (unsigned)(b->at >> 8), n = (unsigned)(b->at & 0xff);
		char where[48] = "";
		if (from || n == 8)
			snprintf(where, sizeof(where), " (bytes %u-%u)", from, from + n - 1);
		snprintf(buf, len, "corrupt: the header's checksum%s is %0*" PRIx64 ", the block's data gives %0*" PRIx64,
			 where, (int)(2 * n), b->expected, (int)(2 * n), b->found);
	}
		break;
	case VK_NO_HEADER:
		snprintf(buf, len, "corrupt: no iogauge header (magic %08" PRIx64 ", expected %08" PRIx64 ")",
			 b->found, b->expected);
		break;
	case VK_MISPLACED:
		snprintf(buf, len, "misplaced: it holds the block written for offset %" PRIu64, b->found);
		break;
	case VK_FOREIGN:
		snprintf(buf, len, "another job's or run's block: seed %" PRIu64 " thread %" PRIu64 ", expected seed %" PRIu64 " thread %u",
			 b->found, b->at, b->expected, b->thread);
		break;
	case VK_LOST:
		snprintf(buf, len, "lost write: it holds write #%" PRIu64 ", but write #%" PRIu64 " was the last one there",
			 b->found, b->expected);
		break;
	case VK_NEWER:
		snprintf(buf, len, "unknown write: it holds write #%" PRIu64 ", newer than the last one made there (#%" PRIu64 ")",
			 b->found, b->expected);
		break;
	case VK_PATTERN:
		snprintf(buf, len, "pattern mismatch at offset %" PRIu64 ": expected 0x%02" PRIx64 ", found 0x%02" PRIx64,
			 b->at, b->expected, b->found);
		break;
	default:
		snprintf(buf, len, "bad block");
	}
}
