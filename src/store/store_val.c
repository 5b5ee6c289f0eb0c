/*
 * The store's plumbing (store_int.h): values out of a back end's rows, one
 * statement run, the end of a transaction, the pause before a retry, and
 * the documents' zstd compression (a suite's JSON shrinks about tenfold).
 */
#include "store/store_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

/*
 * zstd's level for documents: 3, its default, packs a quick suite's 88 KB of
 * JSON ninefold in about 0.6 ms here; 1 would save 0.2 ms for 1% more bytes,
 * 9 take 2.3 ms for 8% fewer, 19 80 ms for 16% fewer (HACKING.md, "The time
 * a save adds").
 */
#define STORE_ZSTD_LEVEL 3

char *store_val_dup(const struct store_val *v)
{
	if (!v->p)
		return NULL;
	char *s = xcalloc(1, v->len + 1);
	memcpy(s, v->p, v->len);
	return s;
}

long long store_val_ll(const struct store_val *v)
{
	char buf[32];
	size_t n = v->len < sizeof(buf) - 1 ? v->len : sizeof(buf) - 1;
	if (!v->p)
		return 0;
	memcpy(buf, v->p, n);
	buf[n] = 0;
	return strtoll(buf, NULL, 10);
}

double store_val_d(const struct store_val *v)
{
	char buf[64];
	size_t n = v->len < sizeof(buf) - 1 ? v->len : sizeof(buf) - 1;
	if (!v->p)
		return 0;
	memcpy(buf, v->p, n);
	buf[n] = 0;
	return strtod(buf, NULL);
}

int store_none(struct ig_err *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	e->status = EXIT_USAGE;
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return 1;
}

int store_exec(struct store *st, const char *sql, unsigned n, const struct store_val *par, store_row_fn fn,
	       void *arg, struct ig_err *e)
{
	return st->db.ops->exec(&st->db, sql, n, par, fn, arg, e);
}

int store_row_ll(void *arg, unsigned n, const struct store_val *c)
{
	if (n)
		*(long long *)arg = store_val_ll(&c[0]);
	return 0;
}

int store_row_seen(void *arg, unsigned n, const struct store_val *c)
{
	(void)n;
	(void)c;
	*(bool *)arg = true;
	return 0;
}

int store_end_tx(struct store *st, int rc, struct ig_err *e)
{
	if (!rc)
		rc = store_exec(st, "COMMIT", 0, NULL, NULL, NULL, e);
	if (rc) {
		struct ig_err ignore = { 0 };
		store_exec(st, "ROLLBACK", 0, NULL, NULL, NULL, &ignore);
	}
	return rc;
}

void store_backoff(unsigned attempt)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	unsigned ms = 5 + (unsigned)((ts.tv_nsec / 1000 + getpid()) % (20u << (attempt < 5 ? attempt : 5)));
	usleep(ms * 1000);
}

void *store_pack(const char *p, size_t n, size_t *out)
{
	size_t cap = ZSTD_compressBound(n);
	void *z = xcalloc(1, cap ? cap : 1);
	size_t r = ZSTD_compress(z, cap, p, n, STORE_ZSTD_LEVEL);
	if (ZSTD_isError(r)) {
		free(z);
		return NULL;
	}
	*out = r;
	return z;
}

char *store_unpack(const struct store_val *v, size_t *len)
{
	if (!v->p)
		return NULL;
	unsigned long long n = ZSTD_getFrameContentSize(v->p, v->len);
	if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN || n > (1ULL << 34))
		return NULL;
	char *s = xcalloc(1, (size_t)n + 1);
	size_t r = ZSTD_decompress(s, (size_t)n, v->p, v->len);
	if (ZSTD_isError(r) || r != n) {
		free(s);
		return NULL;
	}
	*len = (size_t)n;
	return s;
}

void store_now_utc(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
