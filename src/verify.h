/*
 * Verification (--verify): every written block starts with a header (magic,
 * offset, job seed, thread, write sequence number) and carries a checksum of
 * the whole block (crc32c from isa-l, xxhash from libxxhash, md5 and sha256
 * from OpenSSL's libcrypto).  Each thread remembers the sequence number of
 * the last write of every block of its region; reading a block back finds
 * (a) corrupted bytes (the checksum), (b) a block written for another offset
 * (misplaced), (c) an older write than the last one made there (a lost
 * write), and blocks of another job or run.  verify=pattern checks the bytes
 * against the data pattern instead (no header).
 *
 * It runs through the worker's hooks (worker.h): prep stamps writes,
 * complete checks reads and records writes, readback hands the worker the
 * blocks to read back (every written block after the writes; the last
 * verify_backlog ones along the way).  verify_only replays the job's writes
 * without I/O (prep with no buffer) and reads back: with the same options
 * (the default seed is fixed), a later run checks what an earlier one wrote.
 */
#ifndef IOGAUGE_VERIFY_H
#define IOGAUGE_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common.h"

struct job;
struct worker_hooks;

enum verify_algo { VERIFY_NONE = 0, VERIFY_CRC32C, VERIFY_XXHASH, VERIFY_MD5, VERIFY_SHA256,
		   VERIFY_PATTERN };
/* Names by enum verify_algo, NULL-terminated ("none", "crc32c", ...). */
extern const char *const verify_names[];

/* Bad blocks described in full per job (the rest are counted). */
#define VERIFY_REPORT_MAX 10

enum verify_kind {
	VK_CORRUPT,   /* the checksum does not match: expected = stored, found = computed (8 bytes at most) */
	VK_NO_HEADER, /* no iogauge header: expected = magic, found = what is there */
	VK_MISPLACED, /* written for another offset: expected = this offset, found = the header's */
	VK_FOREIGN,   /* another job's or run's block: expected = this job's seed, found = the header's */
	VK_LOST,      /* an older write: expected = the last write's number, found = the block's */
	VK_NEWER,     /* a write this job does not know of: expected, found as for lost */
	VK_PATTERN,   /* verify=pattern: expected, found = the bytes at `at` */
	VK_NR
};
extern const char *const verify_kind_names[VK_NR]; /* "corrupt", "no header", "misplaced", ... */

struct verify_bad {
	uint64_t offset; /* the block's offset in the file or device */
	uint64_t expected, found, at;
	unsigned thread;
	int kind;
};

struct verify_stats {
	uint64_t written;      /* blocks written (completed) */
	uint64_t checked;      /* blocks read back and checked */
	uint64_t bytes;        /* bytes checked */
	uint64_t readback_ns;  /* time reading back (not in the job's measured time) */
	uint64_t overlapped;   /* reads that met a write of their block in flight: not checked */
	uint64_t bad;          /* bad blocks found */
	uint64_t by_kind[VK_NR];
	unsigned nkept;        /* in list[], sorted by offset */
	struct verify_bad list[VERIFY_REPORT_MAX];
};

struct verify_ctx;

/* What verification cannot check, refused before any I/O (status 2). */
int verify_job_check(const struct job *j, struct ig_err *e);
/* For a job whose region is known; NULL with e set (status 2: too many blocks to track). */
struct verify_ctx *verify_new(const struct job *j, unsigned nthreads, struct ig_err *e);
const struct worker_hooks *verify_hooks(struct verify_ctx *v);
/* All threads merged, once they ended; verify_stats gives the same afterwards. */
const struct verify_stats *verify_collect(struct verify_ctx *v);
const struct verify_stats *verify_stats(const struct verify_ctx *v);
int verify_algo(const struct verify_ctx *v);
void verify_free(struct verify_ctx *v);
/* One bad block in words: "misplaced: it holds the block written for offset 4096". */
void verify_describe(const struct verify_bad *b, char *buf, size_t len);

#endif
