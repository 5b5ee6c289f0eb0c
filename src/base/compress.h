/*
 * Compression of whole files, fed a block at a time, output counted and
 * thrown away: what a backup (tar | compressor) would write.  Each file is
 * compressed as the usual tool compresses it on its own: zstd as `zstd -c`
 * (one frame, content size and checksum), zlib as `gzip -c` (one gzip
 * member), lzo as `lzop -c` (LZO1X-1, or LZO1X-999 from level 7, in lzop's
 * 256 KiB blocks, each with its lengths and Adler-32; a block that does not
 * shrink is stored).  No allocation after compressor_init.
 */
#ifndef IOGAUGE_COMPRESS_H
#define IOGAUGE_COMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

enum compress_kind { COMPRESS_NONE = 0, COMPRESS_LZO, COMPRESS_ZLIB, COMPRESS_ZSTD, COMPRESS_NR };

/* "none", "lzo", "zlib", "zstd", NULL: option values and JSON. */
extern const char *const compress_names[];
/* The default level of each (zstd 3, gzip's 6, lzop's 3), and the highest. */
unsigned compress_default_level(int kind);
unsigned compress_max_level(int kind);

struct compressor {
	int kind;
	unsigned level;
	uint64_t out;        /* bytes of output for the current file */
	unsigned char *obuf; /* output, thrown away */
	size_t ocap;
	void *zstd;          /* ZSTD_CCtx */
	z_stream zs;
	bool zs_ready;
	void *lzo_wrk;       /* LZO work memory */
	unsigned char *blk;  /* lzop's block being filled */
	size_t blen;
};

/* 0, or -1 with a line in err (out of memory, a library refusing the level). */
int compressor_init(struct compressor *c, int kind, unsigned level, char *err, size_t errlen);
/*
 * A new file of size bytes (UINT64_MAX: not known), whose name (gzip and lzop
 * store it in their header) is name_len bytes long.
 */
void compressor_start(struct compressor *c, uint64_t size, size_t name_len);
/* 0, or -1 (the library failed: a file changed size under a pledged zstd frame). */
int compressor_update(struct compressor *c, const void *p, size_t n);
/* The file's end: 0 (c->out is its compressed size), or -1. */
int compressor_end(struct compressor *c);
void compressor_free(struct compressor *c);

#endif
