/* Value parsers for the option table: sizes, times, booleans, numbers. */
#include "base/common.h"
#include "base/units.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int parse_uint(const char *s, uint64_t *out)
{
	char *end;
	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	/* Decimal, or hex after 0x; a leading zero is not octal (fio reads 010 as ten). */
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	unsigned long long v = strtoull(s, &end, hex ? 16 : 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

/* A non-negative decimal number and the suffix after it. */
static int split_number(const char *s, long double *num, const char **suffix)
{
	char *end;
	if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -1;
	errno = 0;
	*num = strtold(s, &end);
	if (errno || end == s || !isfinite(*num) || *num < 0)
		return -1;
	*suffix = end;
	return 0;
}

struct unit {
	const char *name;
	long double mult;
};

static int apply_unit(long double num, const char *suffix, const struct unit *units, size_t n,
		      uint64_t *out)
{
	for (size_t i = 0; i < n; i++) {
		if (strcasecmp(suffix, units[i].name))
			continue;
		long double v = num * units[i].mult;
		if (v > (long double)UINT64_MAX || v != floorl(v))
			return -1;
		*out = (uint64_t)v;
		return 0;
	}
	return -1;
}

/*
 * k, ki, KB and KiB alike are 1024 (fio's kb_base=1024 reads k, ki and KB so;
 * its reading of KiB as 1000 is a trap not copied: docs/fio.md).
 */
/* iogauge fio reads sizes as fio 3.33 does: set once by the command, before any parsing. */
static bool fio_units;

void parse_size_fio_units(bool on)
{
	fio_units = on;
}

int parse_size(const char *s, uint64_t *out)
{
	/* Matched without regard to case: k, K, Ki, KB, kib, KiB ... all 1024. */
	static const struct unit units[] = {
		{ "", 1 },	    { "b", 1 },
		{ "k", 1ULL << 10 }, { "kb", 1ULL << 10 }, { "ki", 1ULL << 10 }, { "kib", 1ULL << 10 },
		{ "m", 1ULL << 20 }, { "mb", 1ULL << 20 }, { "mi", 1ULL << 20 }, { "mib", 1ULL << 20 },
		{ "g", 1ULL << 30 }, { "gb", 1ULL << 30 }, { "gi", 1ULL << 30 }, { "gib", 1ULL << 30 },
		{ "t", 1ULL << 40 }, { "tb", 1ULL << 40 }, { "ti", 1ULL << 40 }, { "tib", 1ULL << 40 },
		{ "p", 1ULL << 50 }, { "pb", 1ULL << 50 }, { "pi", 1ULL << 50 }, { "pib", 1ULL << 50 },
	};
	/* fio's kb_base=1024 reads the IEC spellings as powers of 1000 (KiB: 1000). */
	static const struct unit fio[] = {
		{ "kib", 1000ULL }, { "mib", 1000000ULL }, { "gib", 1000000000ULL },
		{ "tib", 1000000000000ULL }, { "pib", 1000000000000000ULL },
	};
	long double num;
	const char *suffix;
	if (split_number(s, &num, &suffix))
		return -1;
	if (fio_units && !apply_unit(num, suffix, fio, ARRAY_SIZE(fio), out))
		return 0;
	return apply_unit(num, suffix, units, ARRAY_SIZE(units), out);
}

int parse_time(const char *s, const char *default_unit, uint64_t *out_ns)
{
	static const struct unit units[] = {
		{ "ns", 1 },
		{ "us", NSEC_PER_USEC },     { "usec", NSEC_PER_USEC },
		{ "ms", NSEC_PER_MSEC },     { "msec", NSEC_PER_MSEC },
		{ "s", NSEC_PER_SEC },	     { "sec", NSEC_PER_SEC },
		{ "m", 60 * NSEC_PER_SEC },  { "min", 60 * NSEC_PER_SEC },
		{ "h", 3600 * NSEC_PER_SEC }, { "d", 86400 * NSEC_PER_SEC },
	};
	long double num;
	const char *suffix;
	if (split_number(s, &num, &suffix))
		return -1;
	if (!*suffix)
		suffix = default_unit ? default_unit : "s";
	/* Fractions of a nanosecond are meaningless: round to whole ns. */
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcasecmp(suffix, units[i].name))
			continue;
		long double v = roundl(num * units[i].mult);
		if (v > (long double)UINT64_MAX)
			return -1;
		*out_ns = (uint64_t)v;
		return 0;
	}
	return -1;
}

void print_size(uint64_t v, char *buf, size_t len)
{
	static const char sfx[] = "kmgtp";
	int u = -1;
	while (v && v % 1024 == 0 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "%" PRIu64 "%c", v, sfx[u]);
}

void print_time(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		const char *name;
		uint64_t mult;
	} units[] = { { "h", 3600 * NSEC_PER_SEC }, { "m", 60 * NSEC_PER_SEC }, { "s", NSEC_PER_SEC },
		      { "ms", NSEC_PER_MSEC },	    { "us", NSEC_PER_USEC },	  { "ns", 1 } };
	if (!ns) {
		snprintf(buf, len, "0");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (ns % units[i].mult == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", ns / units[i].mult, units[i].name);
			return;
		}
	}
}
