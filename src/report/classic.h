/*
 * The number formats of the classic tools, reproduced exactly: GNU dd's
 * summary line (coreutils 9.1, gnulib human_readable) and ioping's
 * print_suffix (1.3).  See /work/notes/classic-formats.md; the unit tests
 * check them against real captures.
 */
#ifndef IOGAUGE_CLASSIC_H
#define IOGAUGE_CLASSIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* dd's byte count: "1.0 MB" (base 1000) or "977 KiB" (base 1024); "999 B" below one unit. */
const char *dd_human(char *buf, size_t len, uint64_t n, unsigned base);
/* dd's rate of n bytes in ns nanoseconds: "292 MB/s", "0.0 kB/s", "Infinity B/s" when ns is 0. */
const char *dd_rate(char *buf, size_t len, uint64_t n, uint64_t ns);
/*
 * dd's bytes line without the newline: "1048576 bytes (1.0 MB, 1.0 MiB) copied, 0.00359117 s,
 * 292 MB/s"; progress lines show whole seconds ("%.0f s") as dd's status=progress does.
 */
const char *dd_bytes_line(char *buf, size_t len, uint64_t n, uint64_t ns, int progress);
/* "N+M records in": full and partial records of bytes in blocks of bs. */
const char *dd_records(char *buf, size_t len, uint64_t bytes, uint64_t bs, const char *dir);

/* ioping's print_suffix tables. */
enum ioping_unit { IOPING_SIZE, IOPING_TIME, IOPING_INT };
/* v in bytes (size), nanoseconds (time) or a count (int): "4 KiB", "210.1 us", "10.7 k". */
const char *ioping_fmt(char *buf, size_t len, long long v, enum ioping_unit u);

#endif
