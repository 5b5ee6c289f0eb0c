/*
 * A verified block: its data and headers when written, the checks when read,
 * verify_dump's files.
 */
#include "run/verify.h"
#include "base/common.h"
#include "run/verify_int.h"

#include <errno.h>
#include <inttypes.h>
#include <isa-l/crc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* ---- checksums */

unsigned verify_csum_len(int algo)
{
	switch (algo) {
	case VERIFY_CRC32C:
	case VERIFY_META:
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

void verify_checksum(const struct verify_ctx *v, struct vthread *t, bool fio, const void *buf, size_t len,
		     uint8_t out[32])
{
	memset(out, 0, 32);
	switch (v->algo) {
	case VERIFY_CRC32C:
	case VERIFY_META: {
		uint32_t c = crc32_iscsi((unsigned char *)buf, (int)len, 0xffffffffu);
		memcpy(out, &c, 4);
		break;
	}
	case VERIFY_XXHASH:
		if (fio) { /* fio's xxhash: XXH32 with seed 1 */
			uint32_t h = XXH32(buf, len, 1);
			memcpy(out, &h, 4);
		} else {
			uint64_t h = XXH3_64bits(buf, len);
			memcpy(out, &h, 8);
		}
		break;
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
	uint64_t x = 0;
	for (unsigned i = 0; i < len && i < 8; i++)
		x = x << 8 | c[i];
	return x;
}

/* ---- a block's pieces: one header a block, or one per verify_interval (the last takes the rest) */

static unsigned pieces(const struct verify_ctx *v, uint32_t len)
{
	return v->interval && v->interval < len ? (unsigned)(len / v->interval) : 1;
}

static void piece(const struct verify_ctx *v, uint32_t len, unsigned i, unsigned n, uint32_t *off,
		  uint32_t *plen)
{
	*off = n == 1 ? 0 : (uint32_t)(i * v->interval);
	*plen = i + 1 == n ? len - *off : (uint32_t)v->interval;
}

/* The seed of a write's data: the job's, the thread's and the write's number. */
static uint64_t block_seed(const struct verify_ctx *v, uint64_t thread, uint64_t seq)
{
	return v->seed ^ thread << 48 ^ seq * 0x9e3779b97f4a7c15ULL;
}

/* The checksum is of the piece with its own field zeroed, or of the header alone (meta). */
static void seal(const struct verify_ctx *v, struct vthread *t, uint8_t *p, uint32_t plen)
{
	uint8_t c[32];
	verify_checksum(v, t, false, p, v->algo == VERIFY_META ? sizeof(struct vhdr) : plen, c);
	memcpy(p + offsetof(struct vhdr, csum), c, verify_csum_len(v->algo));
}

unsigned verify_hdr_size(const struct verify_ctx *v, bool fio)
{
	return fio ? verify_fio_hdr_size(v->algo) : (unsigned)sizeof(struct vhdr);
}

/*
 * The headers of a block written at offset as write number seq.  fio's: the
 * seed of its data (0 for a pattern, as fio's), the time of the slot's last
 * submission (time_ns; fio stamps its io_u's too, and checks neither).
 */
static void stamp_headers(const struct verify_ctx *v, struct vthread *t, unsigned thread, uint8_t *buf,
			  uint64_t offset, uint32_t len, uint64_t seq, uint64_t time_ns)
{
	unsigned n = pieces(v, len);
	uint64_t seed = v->fill ? block_seed(v, thread, seq) : 0;
	for (unsigned i = 0; i < n; i++) {
		uint32_t off, plen;
		piece(v, len, i, n, &off, &plen);
		if (v->fio) {
			verify_fio_stamp(v, t, thread, buf + off, offset + off, plen, seq, seed, time_ns);
			continue;
		}
		struct vhdr h = {
			.magic = VHDR_MAGIC, .version = VHDR_VERSION, .algo = (uint8_t)v->algo,
			.size = sizeof(struct vhdr), .len = plen, .thread = thread,
			.offset = offset + off, .seed = v->seed, .seq = seq,
		};
		memcpy(buf + off, &h, sizeof(h));
		seal(v, t, buf + off, plen);
	}
}

void verify_stamp(struct verify_ctx *v, unsigned thread, struct io_u *u, uint64_t seq)
{
	struct vthread *t = &v->t[thread];
	if (v->fill)
		data_random_seeded(&t->dg, u->buf, u->len, block_seed(v, thread, seq));
	if (v->algo != VERIFY_PATTERN)
		stamp_headers(v, t, thread, u->buf, u->offset, u->len, seq, u->start);
}

bool verify_layout_fills(const struct verify_ctx *v)
{
	return v->fill || v->pattern.mode == DATA_PATTERN;
}

void verify_layout_block(struct verify_ctx *v, unsigned thread, uint64_t seq, void *buf, uint64_t offset,
			 uint32_t len)
{
	struct io_u u = { .buf = buf, .offset = offset, .len = len, .op = IO_WRITE };
	/* The worker lays a pattern from each write's own offset (its %o); random data is verify_stamp's. */
	if (!v->fill && v->pattern.mode == DATA_PATTERN)
		data_fill_at(&v->t[thread].dg, buf, len, offset);
	verify_stamp(v, thread, &u, seq);
}

/* ---- verify_dump: what was read and what was expected, as fio names the files */

static void dump_file(const struct verify_ctx *v, unsigned thread, unsigned file, uint64_t offset,
		      const char *what, const uint8_t *buf, uint32_t len)
{
	const char *path = v->paths[thread * v->nfiles + (file < v->nfiles ? file : 0)], *base = strrchr(path, '/');
	char name[PATH_MAX];
	snprintf(name, sizeof(name), "%s.%" PRIu64 ".%s", base ? base + 1 : path, offset, what);
	FILE *f = fopen(name, "wb");
	if (!f)
		return; /* the report names the block; a dump is a convenience */
	fwrite(buf, 1, len, f);
	fclose(f);
}

/*
 * The block as it was written: pattern data, or random data from the write's
 * own seed, with its headers (a read-only job: as its first header says).
 * False when that cannot be made again (compressible or deduplicated data).
 */
static bool expected(const struct verify_ctx *v, struct vthread *t, unsigned thread, const struct io_u *u,
		     uint64_t seq)
{
	struct vhdr h;
	memcpy(&h, u->buf, sizeof(h));
	if (!seq && v->algo != VERIFY_PATTERN) {
		/* fio's header does not say which of this job's writes it was. */
		if (v->fio || h.magic != VHDR_MAGIC || h.seed != v->seed)
			return false;
		seq = h.seq;
		thread = h.thread;
	}
	/* A block fio wrote has fio's random data, which iogauge cannot make again. */
	if (v->fio && v->fill && verify_fio_seed(u->buf) != block_seed(v, thread, seq))
		return false;
	if (v->pattern.mode == DATA_PATTERN)
		data_fill_at(&t->dg, t->expect, u->len, u->offset);
	else if (v->fill)
		data_random_seeded(&t->dg, t->expect, u->len, block_seed(v, thread, seq));
	else
		return false;
	if (v->algo != VERIFY_PATTERN)
		stamp_headers(v, t, thread, t->expect, u->offset, u->len, seq, 0);
	/* fio's headers: the time each write stamped is not kept; what was read has it. */
	for (unsigned i = 0, n = pieces(v, u->len); v->fio && v->algo != VERIFY_PATTERN && i < n; i++) {
		uint32_t off, plen;
		piece(v, u->len, i, n, &off, &plen);
		verify_fio_keep(t->expect + off, (const uint8_t *)u->buf + off);
	}
	return true;
}

/* A bad header: the piece as read (fio's .hdr_fail); bad data: as read and as expected. */
static void dump(struct verify_ctx *v, struct vthread *t, unsigned thread, const struct io_u *u, uint32_t off,
		 uint32_t plen, uint64_t seq, bool header)
{
	if (!v->dump || t->dumps >= VERIFY_REPORT_MAX || u->len > v->maxbs)
		return;
	t->dumps++;
	t->st.dumped++;
	dump_file(v, thread, u->file, u->offset + off, header ? "hdr_fail" : "received", (const uint8_t *)u->buf + off,
		  plen);
	if (header)
		return;
	if (expected(v, t, thread, u, seq))
		dump_file(v, thread, u->file, u->offset + off, "expected", t->expect + off, plen);
}

/* ---- checks */

void verify_bad_add(struct verify_ctx *v, struct vthread *t, unsigned thread, const struct io_u *u,
		    uint64_t offset, uint32_t len, const struct verify_bad *what)
{
	struct verify_stats *s = &t->st;
	s->bad++;
	s->by_kind[what->kind]++;
	if (s->nkept >= VERIFY_REPORT_MAX)
		return;
	struct verify_bad *b = &s->list[s->nkept++];
	*b = *what;
	b->offset = offset;
	b->len = len;
	b->thread = thread;
	b->file = u->file < v->nfiles ? u->file : 0;
	b->req_offset = u->offset;
	b->req_len = u->len;
	b->fio = v->fio;
	b->algo = (uint8_t)v->algo;
	b->hsize = (uint16_t)verify_hdr_size(v, v->fio);
	b->given = v->fio_type;
}

static void bad(struct verify_ctx *v, struct vthread *t, unsigned thread, const struct io_u *u, uint64_t offset,
		uint32_t len, int kind, uint64_t expected, uint64_t found, uint64_t at)
{
	struct verify_bad what = { .kind = kind, .expected = expected, .found = found, .at = at };
	verify_bad_add(v, t, thread, u, offset, len, &what);
}

/* Bytes [from, to) of the block against the pattern laid from its start (%o: its offset). */
static bool check_pattern(struct verify_ctx *v, struct vthread *t, unsigned thread,
			  const struct io_u *u, uint32_t from, uint32_t to, uint64_t piece_off, uint32_t plen)
{
	uint8_t p[DATA_PATTERN_MAX];
	size_t n = data_pattern_at(&v->pattern, u->offset, p);
	const uint8_t *b = u->buf;
	for (uint32_t i = from, k = (uint32_t)(from % n); i < to; i++) {
		if (b[i] != p[k]) {
			bad(v, t, thread, u, u->offset + piece_off, plen, VK_PATTERN, p[k], b[i],
			    u->offset + i);
			return true;
		}
		if (++k == n)
			k = 0;
	}
	return false;
}

/* What check_piece found: expected, found and where (see struct verify_bad), and the kind. */
static int found(uint64_t x[3], uint64_t expected, uint64_t got, uint64_t at, int kind)
{
	x[0] = expected;
	x[1] = got;
	x[2] = at;
	return kind;
}

/* Does p start with an iogauge header (its magic, version and size)? */
static bool own_header(const uint8_t *p)
{
	struct vhdr h;
	memcpy(&h, p, sizeof(h));
	return h.magic == VHDR_MAGIC && h.version == VHDR_VERSION && h.size == sizeof(h);
}

/* One piece's header and checksum; the kind of damage, or -1 when it is sound. */
static int check_piece(struct verify_ctx *v, struct vthread *t, unsigned thread, const struct io_u *u,
		       uint32_t off, uint32_t plen, uint64_t want_seq, uint64_t x[3])
{
	uint8_t *p = (uint8_t *)u->buf + off, c[32], *field = p + offsetof(struct vhdr, csum);
	uint64_t where = u->offset + off;
	unsigned clen = verify_csum_len(v->algo);
	struct vhdr h;
	memcpy(&h, p, sizeof(h));
	if (h.magic != VHDR_MAGIC || h.version != VHDR_VERSION || h.size != sizeof(h))
		return found(x, VHDR_MAGIC, h.magic, UINT64_MAX, VK_NO_HEADER);
	/* An iogauge header of another algorithm (fio's "verify type mismatch"): at holds it. */
	if (h.algo != v->algo)
		return found(x, VHDR_MAGIC, h.magic, h.algo, VK_NO_HEADER);
	if (h.len != plen)
		return found(x, plen, h.len, where, VK_LENGTH);
	/* The checksum covers its own field zeroed (the unused rest of it must still be zero). */
	memset(field, 0, clen);
	verify_checksum(v, t, false, p, v->algo == VERIFY_META ? sizeof(h) : plen, c);
	memcpy(field, h.csum, clen); /* the block as read, for a dump */
	if (memcmp(c, h.csum, clen)) {
		/* Eight bytes from the first that differs: what a reader compares. */
		unsigned d = 0;
		while (h.csum[d] == c[d])
			d++;
		d &= ~7u;
		unsigned w = clen - d < 8 ? clen - d : 8;
		return found(x, first8(h.csum + d, w), first8(c + d, w), d << 8 | w, VK_CORRUPT);
	}
	if (h.offset != where)
		return found(x, where, h.offset, where, VK_MISPLACED);
	if (!want_seq)
		return -1; /* a read-only job: which write was last there, it cannot know */
	if (h.seed != v->seed || h.thread != thread)
		return found(x, v->seed, h.seed, h.thread, VK_FOREIGN);
	if (h.seq != want_seq)
		return found(x, want_seq, h.seq, where, h.seq < want_seq ? VK_LOST : VK_NEWER);
	return -1;
}

bool verify_block(struct verify_ctx *v, unsigned thread, const struct io_u *u, uint64_t want_seq)
{
	struct vthread *t = &v->t[thread];
	t->st.checked++;
	t->st.bytes += u->len;
	if (v->algo == VERIFY_PATTERN) {
		if (!check_pattern(v, t, thread, u, 0, u->len, 0, u->len))
			return false;
		dump(v, t, thread, u, 0, u->len, want_seq, false);
		return true;
	}
	unsigned n = pieces(v, u->len);
	for (unsigned i = 0; i < n; i++) {
		uint32_t off, plen;
		struct verify_bad what = { 0 };
		piece(v, u->len, i, n, &off, &plen);
		/*
		 * Either command reads either header: a sound one of the other kind
		 * is checked by its own rules (a file `iogauge fio` wrote, read by
		 * `iogauge run`); anything else as the job's own kind.
		 */
		const uint8_t *p = (const uint8_t *)u->buf + off;
		bool fio = plen >= verify_hdr_size(v, false) && own_header(p) ? false :
			   plen >= verify_hdr_size(v, true) && verify_fio_looks(p) ? true :
										v->fio;
		unsigned hsize = verify_hdr_size(v, fio);
		bool broken;
		if (fio) {
			broken = verify_fio_check(v, t, u, off, plen, want_seq, &what);
		} else {
			uint64_t x[3] = { 0 };
			what.kind = check_piece(v, t, thread, u, off, plen, want_seq, x);
			broken = what.kind >= 0;
			what.expected = x[0];
			what.found = x[1];
			what.at = x[2];
		}
		if (broken) {
			verify_bad_add(v, t, thread, u, u->offset + off, plen, &what);
			dump(v, t, thread, u, off, plen, want_seq, what.kind != VK_CORRUPT);
			return true;
		}
		/* meta checks the header alone; a verify_pattern after it, as fio does. */
		if (v->algo == VERIFY_META && v->check_pattern &&
		    check_pattern(v, t, thread, u, off + hsize, off + plen, off, plen)) {
			dump(v, t, thread, u, off, plen, want_seq, false);
			return true;
		}
	}
	return false;
}
