/* GNU dd's and ioping's number formats, exactly (classic.h). */
#include "report/classic.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/*
 * gnulib's human_readable on the exact integer path, as dd calls it:
 * autoscale, round to nearest (half to even), a space before the unit, "B"
 * suffix.  Below 10 of a unit one decimal, else a whole number.
 */
const char *dd_human(char *buf, size_t len, uint64_t n, unsigned base)
{
	static const char letters[] = " KMGTPEZY";
	uint64_t amt = n;
	unsigned tenths = 0, rounding = 0, exponent = 0;
	const char *frac = "";
	char fbuf[4];
	if (base <= amt) {
		do {
			unsigned r10 = (unsigned)(amt % base) * 10 + tenths;
			unsigned r2 = (r10 % base) * 2 + (rounding >> 1);
			amt /= base;
			tenths = r10 / base;
			rounding = r2 < base ? (r2 + rounding != 0) : 2 + (base < r2 + rounding);
			exponent++;
		} while (base <= amt && exponent < 8);
		if (amt < 10) {
			if (2 < rounding + (tenths & 1)) {
				tenths++;
				rounding = 0;
				if (tenths == 10) {
					amt++;
					tenths = 0;
				}
			}
			if (amt < 10) {
				snprintf(fbuf, sizeof(fbuf), ".%u", tenths);
				frac = fbuf;
				tenths = rounding = 0;
			}
		}
	}
	if (5 < tenths + (0 < rounding + (amt & 1))) {
		amt++;
		if (amt == base && exponent < 8) {
			exponent++;
			frac = ".0";
			amt = 1;
		}
	}
	if (!exponent)
		snprintf(buf, len, "%" PRIu64 "%s B", amt, frac);
	else
		snprintf(buf, len, "%" PRIu64 "%s %c%s", amt, frac,
			 base == 1000 && exponent == 1 ? 'k' : letters[exponent], base == 1024 ? "iB" : "B");
	return buf;
}

/* The floating path: never plain B/s; one decimal below 100 of the unit, else whole. */
const char *dd_rate(char *buf, size_t len, uint64_t n, uint64_t ns)
{
	static const char letters[] = " KMGTPEZY";
	if (!ns) {
		snprintf(buf, len, "Infinity B/s");
		return buf;
	}
	long double damt = (long double)n * (1e9L / (long double)ns), e = 1000;
	unsigned exponent = 1;
	while (e * 1000 <= damt && exponent < 8) {
		e *= 1000;
		exponent++;
	}
	damt /= e;
	char num[64];
	snprintf(num, sizeof(num), "%.1Lf", damt);
	if (strlen(num) > 4)
		snprintf(num, sizeof(num), "%.0Lf", damt);
	snprintf(buf, len, "%s %cB/s", num, exponent == 1 ? 'k' : letters[exponent]);
	return buf;
}

const char *dd_bytes_line(char *buf, size_t len, uint64_t n, uint64_t ns, int progress)
{
	char si[32], iec[32], t[48], rate[48];
	dd_human(si, sizeof(si), n, 1000);
	dd_human(iec, sizeof(iec), n, 1024);
	dd_rate(rate, sizeof(rate), n, ns);
	if (progress)
		snprintf(t, sizeof(t), "%.0f s", (double)ns / 1e9);
	else
		snprintf(t, sizeof(t), "%g s", (double)ns / 1e9);
	size_t sl = strlen(si), il = strlen(iec);
	bool si_plain = sl >= 2 && !strcmp(si + sl - 2, " B");
	bool iec_plain = il >= 2 && !strcmp(iec + il - 2, " B");
	if (si_plain)
		snprintf(buf, len, "%" PRIu64 " byte%s copied, %s, %s", n, n == 1 ? "" : "s", t, rate);
	else if (iec_plain)
		snprintf(buf, len, "%" PRIu64 " bytes (%s) copied, %s, %s", n, si, t, rate);
	else
		snprintf(buf, len, "%" PRIu64 " bytes (%s, %s) copied, %s, %s", n, si, iec, t, rate);
	return buf;
}

const char *dd_records(char *buf, size_t len, uint64_t bytes, uint64_t bs, const char *dir)
{
	snprintf(buf, len, "%" PRIu64 "+%u records %s", bytes / bs, bytes % bs ? 1u : 0u, dir);
	return buf;
}

/*
 * ioping's print_suffix: the first unit the value reaches; no decimals when
 * exact, one from 10 units up, two below.  Values are whole numbers first.
 */
const char *ioping_fmt(char *buf, size_t len, long long v, enum ioping_unit u)
{
	static const struct sfx {
		const char *name;
		long long mul;
	} size[] = { { "PiB", 1LL << 50 }, { "TiB", 1LL << 40 }, { "GiB", 1LL << 30 },
		     { "MiB", 1LL << 20 }, { "KiB", 1LL << 10 }, { "B", 1 } },
	  time[] = { { "hour", 3600000000000LL }, { "min", 60000000000LL }, { "s", 1000000000LL },
		     { "ms", 1000000LL }, { "us", 1000LL }, { "ns", 1 } },
	  ints[] = { { "T", 1000000000000LL }, { "G", 1000000000LL }, { "M", 1000000LL },
		     { "k", 1000LL }, { "", 1 } };
	const struct sfx *t = u == IOPING_SIZE ? size : u == IOPING_TIME ? time : ints;
	while (v < t->mul && t->mul > 1)
		t++;
	int prec = v % t->mul == 0 ? 0 : v >= 10 * t->mul ? 1 : 2;
	int n = snprintf(buf, len, "%.*f", prec, (double)v / (double)t->mul);
	if (t->name[0] && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " %s", t->name);
	return buf;
}
