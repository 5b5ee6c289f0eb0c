/*
 * fio 3.33's verification header, as `iogauge fio` writes and checks it, so
 * that fio and iogauge verify each other's data: a header of 40 bytes at
 * the start of every block (or verify_interval piece), in the machine's
 * byte order, then the checksum of the rest of the piece.
 *
 *   0  u16 magic (0xacca)       2  u16 verify_type (fio's number)
 *   4  u32 len (of the piece)   8  u64 rand_seed (of its random data; 0: a pattern)
 *  16  u64 offset (of the piece)
 *  24  u32 time_sec            28  u32 time_nsec (when the slot was last submitted)
 *  32  u16 thread (fio's thread number in the run, from 1)
 *  34  u16 numberio (the thread's writes before this one)
 *  36  u32 crc32c of bytes 0-35
 *  40  the checksum: crc32c 4 bytes, xxhash 4 (XXH32, seed 1), md5 16,
 *      sha256 a field of 64 (the digest in its first 32); meta none.
 *
 * A read is checked in fio's order (verify.c's verify_header): magic,
 * length, offset, the write number (where fio checks it: a writer of one
 * block size, size-bound, not verify_only), the header's crc, then the
 * job's checksum of the data; each failure with fio's own words.
 */
#include "base/common.h"
#include "model/job.h"
#include "run/verify_int.h"

#include <inttypes.h>
#include <isa-l/crc.h>
#include <stdio.h>
#include <string.h>

#define FIO_MAGIC 0xaccau

/* fio 3.33's verify types (verify.h), by number. */
enum {
	FIO_VT_HDR_ONLY = 1, /* verify=meta */
	FIO_VT_MD5 = 2,
	FIO_VT_CRC32C = 5,   /* crc32c and crc32c-intel alike */
	FIO_VT_SHA256 = 9,
	FIO_VT_XXHASH = 15,
	FIO_VT_PATTERN = 17,        /* verify_pattern alone: a header, then the pattern */
	FIO_VT_PATTERN_NO_HDR = 18, /* verify=pattern */
};

struct fio_hdr {
	uint16_t magic;
	uint16_t verify_type;
	uint32_t len;
	uint64_t rand_seed;
	uint64_t offset;
	uint32_t time_sec;
	uint32_t time_nsec;
	uint16_t thread;
	uint16_t numberio;
	uint32_t crc32;
};
_Static_assert(sizeof(struct fio_hdr) == 40, "fio's verify header is 40 bytes");

/*
 * fio's sha256 (crc/sha256.c): SHA-256's compression over the data, padded
 * with 0x80 and zeros as SHA-256 pads, but the bit count appended in the
 * machine's byte order, not big-endian; what fio keeps is its 64-byte work
 * buffer after the last block: that block, with the low byte of each of the
 * eight state words in its first eight bytes.  fio compares all 64.
 */
static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotr(uint32_t x, unsigned n)
{
	return x >> n | x << (32 - n);
}

static void sha_block(uint32_t st[8], const uint8_t *b)
{
	uint32_t w[64], s[8];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 | (uint32_t)b[4 * i + 2] << 8 | b[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ w[i - 15] >> 3;
		uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ w[i - 2] >> 10;
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(s, st, sizeof(s));
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = s[7] + (rotr(s[4], 6) ^ rotr(s[4], 11) ^ rotr(s[4], 25)) +
			      ((s[4] & s[5]) ^ (~s[4] & s[6])) + sha_k[i] + w[i];
		uint32_t t2 = (rotr(s[0], 2) ^ rotr(s[0], 13) ^ rotr(s[0], 22)) +
			      ((s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]));
		memmove(s + 1, s, 7 * sizeof(*s));
		s[4] += t1;
		s[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		st[i] += s[i];
}

static void fio_sha256(const uint8_t *p, size_t len, uint8_t out[64])
{
	uint32_t st[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	size_t full = len / 64 * 64, tail = len - full;
	uint64_t bits = (uint64_t)len << 3;
	for (size_t o = 0; o < full; o += 64)
		sha_block(st, p + o);
	uint8_t b[64];
	memset(b, 0, sizeof(b));
	memcpy(b, p + full, tail);
	b[tail] = 0x80;
	if (tail >= 56) { /* the count goes into a block of its own */
		sha_block(st, b);
		memset(b, 0, sizeof(b));
	}
	memcpy(b + 56, &bits, 8);
	sha_block(st, b);
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)st[i];
	memcpy(out, b, 64);
}

static uint32_t crc32c(const void *p, size_t len)
{
	/* fio's crc32c: seeded with ~0, not inverted at the end. */
	return crc32_iscsi((unsigned char *)p, (int)len, 0xffffffffu);
}

uint16_t verify_fio_type(const struct job *j)
{
	switch (j->verify) {
	case VERIFY_CRC32C:
		return FIO_VT_CRC32C;
	case VERIFY_XXHASH:
		return FIO_VT_XXHASH;
	case VERIFY_MD5:
		return FIO_VT_MD5;
	case VERIFY_SHA256:
		return FIO_VT_SHA256;
	case VERIFY_PATTERN:
		return FIO_VT_PATTERN_NO_HDR;
	default:
		return j->verify_implied && j->verify_pattern ? FIO_VT_PATTERN : FIO_VT_HDR_ONLY;
	}
}

/* The checksum's field after the header (fio's vhdr_* structs). */
static unsigned field_len(int algo)
{
	switch (algo) {
	case VERIFY_CRC32C:
	case VERIFY_XXHASH:
		return 4;
	case VERIFY_MD5:
		return 16;
	case VERIFY_SHA256:
		return 64;
	default:
		return 0;
	}
}

/* The bytes of the checksum in that field: all of it (fio compares sha256's 64). */
static unsigned sum_len(int algo)
{
	return field_len(algo);
}

/* The checksum of the data after the header, as fio makes it, in out (field_len bytes). */
static void fio_sum(const struct verify_ctx *v, struct vthread *t, const uint8_t *p, size_t len, uint8_t out[64])
{
	if (v->algo == VERIFY_SHA256)
		fio_sha256(p, len, out);
	else
		verify_checksum(v, t, true, p, len, out);
}

/*
 * The header's size by its own verify_type, as fio reads it: the data a
 * checksum covers starts after the header the block carries, whatever the
 * job's verify (fio 3.33's types: crc64 8 bytes after it, crc16 2, crc7 1,
 * sha512 128, sha3 28 to 64, sha1 20); 0 for a type fio does not have.
 */
static unsigned media_hdr_size(uint16_t type)
{
	static const uint8_t field[] = { [1] = 0, [2] = 16, [3] = 8, [4] = 4, [5] = 4, [6] = 4, [7] = 2,
					 [8] = 1, [9] = 64, [10] = 128, [11] = 28, [12] = 32, [13] = 48,
					 [14] = 64, [15] = 4, [16] = 20, [17] = 0, [19] = 0 };
	if (!type || type >= sizeof(field) || type == FIO_VT_PATTERN_NO_HDR)
		return 0;
	return (unsigned)sizeof(struct fio_hdr) + field[type];
}

unsigned verify_fio_hdr_size(int algo)
{
	return algo == VERIFY_PATTERN ? 0 : (unsigned)sizeof(struct fio_hdr) + field_len(algo);
}

static void seal_header(struct fio_hdr *h)
{
	h->crc32 = crc32c(h, offsetof(struct fio_hdr, crc32));
}

void verify_fio_stamp(const struct verify_ctx *v, struct vthread *t, unsigned thread, uint8_t *p,
		      uint64_t offset, uint32_t plen, uint64_t seq, uint64_t rand_seed, uint64_t time_ns)
{
	unsigned hsize = verify_fio_hdr_size(v->algo), flen = field_len(v->algo);
	struct fio_hdr h = {
		.magic = FIO_MAGIC,
		.verify_type = v->fio_type,
		.len = plen,
		.rand_seed = rand_seed,
		.offset = offset,
		.time_sec = (uint32_t)(time_ns / NSEC_PER_SEC),
		.time_nsec = (uint32_t)(time_ns % NSEC_PER_SEC),
		.thread = (uint16_t)(v->first_thread + thread),
		.numberio = (uint16_t)(seq - 1),
	};
	seal_header(&h);
	memcpy(p, &h, sizeof(h));
	if (!flen)
		return;
	uint8_t c[64];
	fio_sum(v, t, p + hsize, plen - hsize, c);
	memcpy(p + sizeof(h), c, flen);
}

void verify_fio_keep(uint8_t *expect, const uint8_t *read)
{
	struct fio_hdr h, r;
	memcpy(&h, expect, sizeof(h));
	memcpy(&r, read, sizeof(r));
	h.time_sec = r.time_sec;
	h.time_nsec = r.time_nsec;
	seal_header(&h);
	memcpy(expect, &h, sizeof(h));
}

uint64_t verify_fio_seed(const void *p)
{
	struct fio_hdr h;
	memcpy(&h, p, sizeof(h));
	return h.rand_seed;
}

bool verify_fio_looks(const uint8_t *p)
{
	uint16_t magic;
	memcpy(&magic, p, sizeof(magic));
	return magic == FIO_MAGIC;
}

bool verify_fio_check(const struct verify_ctx *v, struct vthread *t, const struct io_u *u, uint32_t off,
		      uint32_t plen, uint64_t want_seq, struct verify_bad *what)
{
	const uint8_t *p = (const uint8_t *)u->buf + off;
	uint64_t where = u->offset + off;
	unsigned hsize = verify_fio_hdr_size(v->algo);
	struct fio_hdr h;
	memcpy(&h, p, sizeof(h));
	/* fio's order: magic, length, offset, write number, the header's crc, the data's checksum. */
	if (h.magic != FIO_MAGIC) {
		*what = (struct verify_bad){ .kind = VK_NO_HEADER, .expected = FIO_MAGIC, .found = h.magic,
					     .at = UINT64_MAX };
		return true;
	}
	if (h.len != plen) {
		*what = (struct verify_bad){ .kind = VK_LENGTH, .expected = plen, .found = h.len };
		return true;
	}
	if (h.offset != where) {
		*what = (struct verify_bad){ .kind = VK_MISPLACED, .expected = where, .found = h.offset };
		return true;
	}
	/* fio compares the number of the last write there, in its 16 bits. */
	uint16_t nio = (uint16_t)(want_seq - 1);
	if (want_seq && v->fio_numberio && h.numberio != nio) {
		*what = (struct verify_bad){ .kind = h.numberio < nio ? VK_LOST : VK_NEWER, .expected = nio,
					     .found = h.numberio };
		return true;
	}
	uint32_t crc = crc32c(p, offsetof(struct fio_hdr, crc32));
	if (crc != h.crc32) {
		*what = (struct verify_bad){ .kind = VK_HEADER, .expected = h.crc32, .found = crc };
		return true;
	}
	unsigned n = sum_len(v->algo), mh = media_hdr_size(h.verify_type);
	if (!n)
		return false; /* meta: the header alone (a verify_pattern after it: the caller's) */
	/* The data starts after the header the block has (fio's hdr_size of its verify_type). */
	if (mh && mh < plen)
		hsize = mh;
	uint8_t c[64];
	fio_sum(v, t, p + hsize, plen - hsize, c);
	if (!memcmp(c, p + sizeof(h), n))
		return false;
	*what = (struct verify_bad){ .kind = VK_CORRUPT, .clen = (uint8_t)n, .at = (uint64_t)(n < 8 ? n : 8) };
	memcpy(what->want, p + sizeof(h), n);
	memcpy(what->got, c, n);
	for (unsigned i = 0; i < n && i < 8; i++) {
		what->expected = what->expected << 8 | what->want[i];
		what->found = what->found << 8 | what->got[i];
	}
	/* A header of another verify type: fio says so after the checksum's failure. */
	if (h.verify_type != v->fio_type)
		what->media = h.verify_type;
	return true;
}

static void hex(const uint8_t *p, unsigned n, char *out)
{
	for (unsigned i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = 0;
}

bool verify_fio_format(const struct verify_ctx *v)
{
	return v->fio;
}

bool verify_describe_fio(const struct verify_bad *b, const char *path, char *buf, size_t len)
{
	if (!b->fio)
		return false;
	char where[PATH_MAX + 160], w[144], g[144];
	snprintf(where, sizeof(where), " at file %s offset %" PRIu64 ", length %u (requested block: offset=%" PRIu64 ", length=%u)",
		 path, b->offset, b->len, b->req_offset, b->req_len);
	switch (b->kind) {
	case VK_NO_HEADER:
		snprintf(buf, len, "verify: bad magic header %" PRIx64 ", wanted %" PRIx64 "%s", b->found, b->expected, where);
		break;
	case VK_LENGTH:
		snprintf(buf, len, "verify: bad header length %" PRIu64 ", wanted %" PRIu64 "%s", b->found, b->expected, where);
		break;
	case VK_MISPLACED:
		/* fio names the request's offset as the one wanted, also for a later piece. */
		snprintf(buf, len, "verify: bad header offset %" PRIu64 ", wanted %" PRIu64 "%s", b->found, b->req_offset, where);
		break;
	case VK_LOST:
	case VK_NEWER:
		snprintf(buf, len, "verify: bad header numberio %" PRIu64 ", wanted %" PRIu64 "%s", b->found, b->expected, where);
		break;
	case VK_HEADER:
		snprintf(buf, len, "verify: bad header crc %" PRIx64 ", calculated %" PRIx64 "%s", b->expected, b->found, where);
		break;
	case VK_PATTERN: {
		unsigned bits = (unsigned)__builtin_popcountll(b->expected ^ b->found);
		snprintf(buf, len, "fio: got pattern '%02" PRIx64 "', wanted '%02" PRIx64 "'. Bad bits %u\n"
			 "fio: bad pattern block offset %" PRIu64 "\npattern: verify failed at file %s offset %" PRIu64 ", length %u (requested block: offset=%" PRIu64 ", length=%u)",
			 b->found, b->expected, bits, b->at - b->offset - b->hsize, path, b->offset, b->len,
			 b->req_offset, b->req_len);
		break;
	}
	case VK_CORRUPT: {
		hex(b->want, b->clen, w);
		hex(b->got, b->clen, g);
		int n = snprintf(buf, len, "%.8s: verify failed at file %s offset %" PRIu64 ", length %u (requested block: offset=%" PRIu64 ", length=%u)\n"
				 "       Expected CRC: %s\n       Received CRC: %s",
				 verify_names[b->algo <= VERIFY_META ? b->algo : 0], path, b->offset, b->len, b->req_offset,
				 b->req_len, w, g);
		if (b->media && n > 0 && (size_t)n < len)
			snprintf(buf + n, len - (size_t)n, "\nfio: verify type mismatch (%u media, %u given)",
				 (unsigned)b->media, (unsigned)b->given);
		break;
	}
	default:
		snprintf(buf, len, "verify: bad block%s", where);
	}
	return true;
}
