/* Small helpers shared by every part: clock, exit codes, errors as values, messages. */
#ifndef IOGAUGE_COMMON_H
#define IOGAUGE_COMMON_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include "base/clock.h" /* now_ns */

/* The release number (equal to the VERSION file; scripts/version.sh checks). */
#define IOGAUGE_VERSION "0.2.0"
/* The version as built: the release and, from a git clone, the commit (version.c). */
extern const char iogauge_version[];

/* Exit statuses: 0 ok, 1 run-time failure (I/O error, disk full), 2 bad input; 128+N signal N. */
enum { EXIT_OK = 0, EXIT_IOERR = 1, EXIT_USAGE = 2 };

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* A busy-wait's pause: lets a sibling hyperthread run and saves power, costs no syscall. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/*
 * An error as a value: the exit status it leads to and its one-line message.
 * Everything below the command layer reports through one of these; only the
 * command layer prints it and exits.
 */
#define ERR_MSG_MAX 1024
struct ig_err {
	int status; /* 0: no error */
	char msg[ERR_MSG_MAX];
};

/* Record an error unless one is recorded already (the first cause wins); returns -1. */
int err_set(struct ig_err *e, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* One-line diagnostics on stderr, prefixed "iogauge: " (command layer). */
void msg_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Out of memory is the one failure that does not travel as a value: these
 * print one line, remove the test files (ctx_emergency) and exit 1.
 */
void *xcalloc(size_t n, size_t sz);
void *xaligned(size_t align, size_t sz);
char *xstrdup(const char *s);

/* Human units: "1.5 GiB". buf should hold 32 bytes. */
const char *fmt_bytes(char *buf, size_t len, double bytes);

#endif
