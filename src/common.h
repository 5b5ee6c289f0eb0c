/* Small helpers shared by every part: clock, exit codes, messages. */
#ifndef IOGAUGE_COMMON_H
#define IOGAUGE_COMMON_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define IOGAUGE_VERSION "0.1.0"

/* Exit statuses: 0 ok, 1 run-time failure (I/O error, disk full), 2 bad input. */
enum { EXIT_OK = 0, EXIT_IOERR = 1, EXIT_USAGE = 2 };

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* One-line diagnostics on stderr, prefixed "iogauge: ". */
void msg_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Bad input: print one line and exit 2 (after removing test files). */
void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

void *xcalloc(size_t n, size_t sz);
void *xaligned(size_t align, size_t sz);

/* Human units: "1.5 GiB", "12.3MiB/s". buf must hold 32 bytes. */
const char *fmt_bytes(char *buf, size_t len, double bytes);

#endif
