/*
 * Verification (--verify): every written block starts with a header (magic,
 * offset, length, job seed, thread, write sequence number) and carries a
 * checksum of the block (crc32c from isa-l, xxhash from libxxhash, md5 and
 * sha256 from OpenSSL's libcrypto; meta: of the header alone), or one such
 * header per verify_interval bytes.  Each thread remembers, for every unit of
 * its region (the smallest block size or alignment), the sequence number of
 * the last write that covered it; reading a block back finds (a) corrupted
 * bytes (the checksum), (b) a block written for another offset (misplaced),
 * (c) an older write than the last one made there (a lost write), (d) a
 * header of another length, and blocks of another job or run.
 * verify=pattern checks the bytes against the data pattern instead (no
 * header); a verify_pattern is also checked after each header of verify=meta.
 *
 * It runs through the worker's hooks (worker.h): prep stamps writes,
 * complete checks reads and records writes, readback hands the worker the
 * blocks to read back (the blocks written and not yet checked, after each
 * loop as fio does; the last verify_backlog ones along the way).  Those
 * reads are the job's reads, as fio counts them.  verify_only replays the
 * job's writes without I/O (prep with no buffer) and reads back: with the
 * same options (the default seed is fixed), a later run checks what an
 * earlier one wrote.  A job that only reads (rw=read, randread) checks each
 * block it reads against its own header: what an earlier run wrote there.
 */
#ifndef IOGAUGE_VERIFY_H
#define IOGAUGE_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/common.h"

struct job;
struct worker_hooks;

enum verify_algo { VERIFY_NONE = 0, VERIFY_CRC32C, VERIFY_XXHASH, VERIFY_MD5, VERIFY_SHA256,
		   VERIFY_PATTERN, VERIFY_META };
/* Names by enum verify_algo, NULL-terminated ("none", "crc32c", ...). */
extern const char *const verify_names[];

/* Bad blocks described in full per job (the rest are counted); also verify_dump's files per thread. */
#define VERIFY_REPORT_MAX 10

enum verify_kind {
	VK_CORRUPT,   /* the checksum does not match: expected = stored, found = computed (8 bytes at most) */
	VK_NO_HEADER, /* no iogauge header: expected = magic, found = what is there */
	VK_MISPLACED, /* written for another offset: expected = this offset, found = the header's */
	VK_FOREIGN,   /* another job's or run's block: expected = this job's seed, found = the header's */
	VK_LOST,      /* an older write: expected = the last write's number, found = the block's */
	VK_NEWER,     /* a write this job does not know of: expected, found as for lost */
	VK_PATTERN,   /* verify=pattern: expected, found = the bytes at `at` */
	VK_LENGTH,    /* a header for another length: expected = the length read, found = the header's */
	VK_HEADER,    /* fio's header checksum does not match: expected = stored, found = computed */
	VK_NR
};
extern const char *const verify_kind_names[VK_NR]; /* "corrupt", "no header", "misplaced", ... */

struct verify_bad {
	uint64_t offset; /* the block's (or verify_interval's piece's) offset in the file or device */
	uint64_t expected, found, at;
	uint32_t len;    /* the bytes of that block or piece */
	unsigned thread;
	unsigned file;   /* among the thread's files (nrfiles, a filename list) */
	int kind;
	/* The read it was found by (fio's "requested block"). */
	uint64_t req_offset;
	uint32_t req_len;
	/* fio's header (verify_fio.c): its messages, the whole checksums, the header's verify_type. */
	bool fio;
	uint8_t algo;    /* the job's --verify (enum verify_algo) */
	uint8_t clen;    /* bytes of want and got: the checksum stored, the one the data gives */
	uint16_t hsize;  /* the header's bytes (a pattern's offset in the piece's data is after it) */
	uint16_t media, given; /* a corrupt piece's header's verify_type and the job's, when they differ */
	uint8_t want[64], got[64];
};

struct verify_stats {
	uint64_t written;      /* blocks written (completed) */
	uint64_t checked;      /* blocks read and checked */
	uint64_t bytes;        /* bytes checked */
	uint64_t readback_ns;  /* time reading back (the longest thread's) */
	uint64_t readbacks;    /* reads made to read blocks back (verify_backlog's and each loop's end): among the job's reads */
	uint64_t overlapped;   /* reads that met a write of their block in flight: not checked */
	uint64_t bad;          /* bad blocks found */
	uint64_t dumped;       /* verify_dump: blocks written to files */
	uint64_t by_kind[VK_NR];
	unsigned nkept;        /* in list[], sorted by offset */
	struct verify_bad list[VERIFY_REPORT_MAX];
};

#endif
