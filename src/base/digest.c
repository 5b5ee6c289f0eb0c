/* Whole-file checksums, fed a block at a time (digest.h). */
#include "base/digest.h"

#include <isa-l/crc.h>
#include <openssl/evp.h>
#include <string.h>
#include <xxhash.h>

const char *const digest_names[] = { "none", "md5", "sha256", "xxhash", "crc32c", NULL };

size_t digest_len(int kind)
{
	static const size_t len[DIGEST_NR] = { 0, 16, 32, 8, 4 };
	return kind > 0 && kind < DIGEST_NR ? len[kind] : 0;
}

static const EVP_MD *evp_md(int kind)
{
	return kind == DIGEST_MD5 ? EVP_md5() : EVP_sha256();
}

int digest_init(struct digest *d, int kind)
{
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	if (kind == DIGEST_MD5 || kind == DIGEST_SHA256) {
		d->evp = EVP_MD_CTX_new();
		if (!d->evp || !EVP_DigestInit_ex(d->evp, evp_md(kind), NULL))
			return -1;
	} else if (kind == DIGEST_XXHASH) {
		d->xxh = XXH64_createState();
		if (!d->xxh)
			return -1;
	}
	return 0;
}

void digest_start(struct digest *d)
{
	switch (d->kind) {
	case DIGEST_MD5:
	case DIGEST_SHA256:
		EVP_DigestInit_ex(d->evp, NULL, NULL); /* the same algorithm again: no allocation */
		break;
	case DIGEST_XXHASH:
		XXH64_reset(d->xxh, 0);
		break;
	case DIGEST_CRC32C:
		d->crc = 0xffffffffu;
		break;
	}
}

void digest_update(struct digest *d, const void *p, size_t n)
{
	switch (d->kind) {
	case DIGEST_MD5:
	case DIGEST_SHA256:
		EVP_DigestUpdate(d->evp, p, n);
		break;
	case DIGEST_XXHASH:
		XXH64_update(d->xxh, p, n);
		break;
	case DIGEST_CRC32C:
		/* isa-l takes an int length: a block of up to 1 GiB at a time. */
		for (const unsigned char *c = p; n;) {
			size_t k = n < (1u << 30) ? n : (1u << 30);
			d->crc = crc32_iscsi((unsigned char *)c, (int)k, d->crc);
			c += k;
			n -= k;
		}
		break;
	}
}

size_t digest_final(struct digest *d, uint8_t *out)
{
	unsigned n = 0;
	switch (d->kind) {
	case DIGEST_MD5:
	case DIGEST_SHA256:
		EVP_DigestFinal_ex(d->evp, out, &n);
		return n;
	case DIGEST_XXHASH: {
		XXH64_canonical_t c; /* big-endian: what xxhsum prints */
		XXH64_canonicalFromHash(&c, XXH64_digest(d->xxh));
		memcpy(out, c.digest, 8);
		return 8;
	}
	case DIGEST_CRC32C: {
		uint32_t v = ~d->crc;
		for (int i = 0; i < 4; i++)
			out[i] = (uint8_t)(v >> (24 - 8 * i));
		return 4;
	}
	}
	return 0;
}

void digest_free(struct digest *d)
{
	if (d->evp)
		EVP_MD_CTX_free(d->evp);
	if (d->xxh)
		XXH64_freeState(d->xxh);
	memset(d, 0, sizeof(*d));
}

void digest_hex(const uint8_t *p, size_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hex[p[i] >> 4];
		out[2 * i + 1] = hex[p[i] & 15];
	}
	out[2 * n] = 0;
}
