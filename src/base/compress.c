/* Whole-file compression, output counted and thrown away (compress.h). */
#include "base/compress.h"

#include <lzo/lzo1x.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define LZOP_BLOCK (256u << 10) /* lzop's block */
#define LZOP_FILE 42u           /* lzop's magic, header (without the name) and end marker */
#define LZOP_PER_BLOCK 12u      /* its lengths and the Adler-32 of each block */
#define GZIP_NAME 1u            /* gzip stores the name and a NUL after the fixed header */

const char *const compress_names[] = { "none", "lzo", "zlib", "zstd", NULL };

unsigned compress_default_level(int kind)
{
	return kind == COMPRESS_ZSTD ? 3 : kind == COMPRESS_ZLIB ? 6 : kind == COMPRESS_LZO ? 3 : 0;
}

unsigned compress_max_level(int kind)
{
	return kind == COMPRESS_ZSTD ? (unsigned)ZSTD_maxCLevel() : kind == COMPRESS_NONE ? 0 : 9;
}

static int fail(char *err, size_t n, const char *what)
{
	snprintf(err, n, "%s", what);
	return -1;
}

int compressor_init(struct compressor *c, int kind, unsigned level, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->level = level ? level : compress_default_level(kind);
	if (kind == COMPRESS_ZSTD) {
		c->zstd = ZSTD_createCCtx();
		c->ocap = ZSTD_CStreamOutSize();
		if (!c->zstd)
			return fail(err, errlen, "zstd: out of memory");
	} else if (kind == COMPRESS_ZLIB) {
		c->ocap = 256u << 10;
		/* windowBits 15 + 16: a gzip member, as gzip writes. */
		if (deflateInit2(&c->zs, (int)c->level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
			return fail(err, errlen, "zlib: deflateInit2 failed");
		c->zs_ready = true;
	} else if (kind == COMPRESS_LZO) {
		if (lzo_init() != LZO_E_OK)
			return fail(err, errlen, "lzo: lzo_init failed");
		c->lzo_wrk = malloc(c->level >= 7 ? LZO1X_999_MEM_COMPRESS : LZO1X_1_MEM_COMPRESS);
		c->blk = malloc(LZOP_BLOCK);
		c->ocap = LZOP_BLOCK + LZOP_BLOCK / 16 + 64 + 3; /* LZO's worst case */
		if (!c->lzo_wrk || !c->blk)
			return fail(err, errlen, "lzo: out of memory");
	}
	if (c->ocap && !(c->obuf = malloc(c->ocap)))
		return fail(err, errlen, "out of memory");
	return 0;
}

void compressor_start(struct compressor *c, uint64_t size, size_t name_len)
{
	c->out = 0;
	c->blen = 0;
	if (c->kind == COMPRESS_ZSTD) {
		ZSTD_CCtx_reset(c->zstd, ZSTD_reset_session_only);
		ZSTD_CCtx_setParameter(c->zstd, ZSTD_c_compressionLevel, (int)c->level);
		ZSTD_CCtx_setParameter(c->zstd, ZSTD_c_checksumFlag, 1);
		ZSTD_CCtx_setPledgedSrcSize(c->zstd, size == UINT64_MAX ? ZSTD_CONTENTSIZE_UNKNOWN : size);
	} else if (c->kind == COMPRESS_ZLIB) {
		deflateReset(&c->zs);
		c->out = name_len + GZIP_NAME;
	} else if (c->kind == COMPRESS_LZO) {
		c->out = LZOP_FILE + name_len;
	}
}

static int zstd_feed(struct compressor *c, const void *p, size_t n, ZSTD_EndDirective mode)
{
	ZSTD_inBuffer in = { p, n, 0 };
	for (;;) {
		ZSTD_outBuffer o = { c->obuf, c->ocap, 0 };
		size_t left = ZSTD_compressStream2(c->zstd, &o, &in, mode);
		if (ZSTD_isError(left))
			return -1;
		c->out += o.pos;
		if (mode == ZSTD_e_end ? !left : in.pos == in.size)
			return 0;
	}
}

static int zlib_feed(struct compressor *c, const void *p, size_t n, int flush)
{
	c->zs.next_in = (Bytef *)p;
	c->zs.avail_in = (uInt)n;
	for (;;) {
		c->zs.next_out = c->obuf;
		c->zs.avail_out = (uInt)c->ocap;
		int rc = deflate(&c->zs, flush);
		if (rc == Z_STREAM_ERROR)
			return -1;
		c->out += c->ocap - c->zs.avail_out;
		if (flush == Z_FINISH ? rc == Z_STREAM_END : c->zs.avail_in == 0 && c->zs.avail_out != 0)
			return 0;
	}
}

/* One of lzop's blocks: stored as it is when it does not shrink. */
static int lzo_block(struct compressor *c)
{
	lzo_uint olen = 0;
	int rc = c->level >= 7 ? lzo1x_999_compress_level(c->blk, c->blen, c->obuf, &olen, c->lzo_wrk, NULL, 0, 0,
							 (int)c->level) :
				 lzo1x_1_compress(c->blk, c->blen, c->obuf, &olen, c->lzo_wrk);
	if (rc != LZO_E_OK)
		return -1;
	c->out += LZOP_PER_BLOCK + (olen < c->blen ? olen : c->blen);
	c->blen = 0;
	return 0;
}

int compressor_update(struct compressor *c, const void *p, size_t n)
{
	if (c->kind == COMPRESS_ZSTD)
		return zstd_feed(c, p, n, ZSTD_e_continue);
	if (c->kind == COMPRESS_ZLIB) {
		/* zlib counts in uInt: slices of at most 1 GiB. */
		for (const char *q = p; n;) {
			size_t k = n < (1u << 30) ? n : (1u << 30);
			if (zlib_feed(c, q, k, Z_NO_FLUSH))
				return -1;
			q += k;
			n -= k;
		}
		return 0;
	}
	if (c->kind == COMPRESS_LZO) {
		for (const unsigned char *q = p; n;) {
			size_t k = LZOP_BLOCK - c->blen < n ? LZOP_BLOCK - c->blen : n;
			memcpy(c->blk + c->blen, q, k);
			c->blen += k;
			q += k;
			n -= k;
			if (c->blen == LZOP_BLOCK && lzo_block(c))
				return -1;
		}
	}
	return 0;
}

int compressor_end(struct compressor *c)
{
	if (c->kind == COMPRESS_ZSTD)
		return zstd_feed(c, NULL, 0, ZSTD_e_end);
	if (c->kind == COMPRESS_ZLIB)
		return zlib_feed(c, NULL, 0, Z_FINISH);
	if (c->kind == COMPRESS_LZO && c->blen)
		return lzo_block(c);
	return 0;
}

void compressor_free(struct compressor *c)
{
	if (c->zstd)
		ZSTD_freeCCtx(c->zstd);
	if (c->zs_ready)
		deflateEnd(&c->zs);
	free(c->lzo_wrk);
	free(c->blk);
	free(c->obuf);
	memset(c, 0, sizeof(*c));
}
