/*
 * Sizes and times as users write them (4k, 1m, 500ms) and back (parse.c).
 * Every option, operand and suite reads its numbers through these.
 */
#ifndef IOGAUGE_UNITS_H
#define IOGAUGE_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Value parsers, exposed for tests and suites.  0 or -1. */
int parse_size(const char *s, uint64_t *out);
/* Sizes as fio 3.33 reads them from now on (KiB, MiB... powers of 1000): iogauge fio only. */
void parse_size_fio_units(bool on);
int parse_time(const char *s, const char *default_unit, uint64_t *out_ns);
int parse_bool(const char *s, bool *out);
int parse_uint(const char *s, uint64_t *out);
/* Exact short forms: 4096 -> "4k", 5e9 ns -> "5s". */
void print_size(uint64_t v, char *buf, size_t len);
void print_time(uint64_t ns, char *buf, size_t len);

#endif
