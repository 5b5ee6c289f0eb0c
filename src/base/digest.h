/*
 * Checksums of whole files, fed a block at a time: md5 and sha256 (libcrypto
 * EVP), xxhash (XXH64, what xxhsum prints by default) and crc32c (isa-l).
 * Digests come out in the byte order the usual tools print (md5sum,
 * sha256sum, xxhsum's big-endian hex, crc32c as one big-endian word).  No
 * allocation after digest_init.
 */
#ifndef IOGAUGE_DIGEST_H
#define IOGAUGE_DIGEST_H

#include <stddef.h>
#include <stdint.h>

enum digest_kind { DIGEST_NONE = 0, DIGEST_MD5, DIGEST_SHA256, DIGEST_XXHASH, DIGEST_CRC32C, DIGEST_NR };
#define DIGEST_MAX 32 /* bytes of the longest (sha256) */

/* "none", "md5", "sha256", "xxhash", "crc32c", NULL: option values and JSON. */
extern const char *const digest_names[];

struct digest {
	int kind;
	void *evp;  /* EVP_MD_CTX (md5, sha256) */
	void *xxh;  /* XXH64_state_t */
	uint32_t crc;
};

/* 0, or -1 (out of memory or no such algorithm in libcrypto). */
int digest_init(struct digest *d, int kind);
void digest_start(struct digest *d);
void digest_update(struct digest *d, const void *p, size_t n);
/* The digest into out (DIGEST_MAX bytes); its length. */
size_t digest_final(struct digest *d, uint8_t *out);
void digest_free(struct digest *d);
size_t digest_len(int kind);
/* Lower-case hex of n bytes into out (2n + 1 bytes). */
void digest_hex(const uint8_t *p, size_t n, char *out);

#endif
