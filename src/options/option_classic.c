/* Sizes in the classic tools' units: KiB when bare (Orion's and iozone's), bonnie++'s MiB. */
#include "base/common.h"
#include "options/options.h"
#include "base/units.h"
#include "options/option_values.h"
#include "stats/steady.h"
#include "model/engine.h"
#include "options/fio_opts.h"
#include "model/data.h"
#include "model/verify.h"

#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A classic tool's size: a bare number is in `unit` bytes; k, m, g suffixes as everywhere. */
int parse_size_in(const char *s, uint64_t unit, uint64_t *out)
{
	char *end;
	if (!*s)
		return -1;
	strtoull(s, &end, 10);
	if (!*end) {
		uint64_t v;
		if (parse_uint(s, &v) || (v && v > UINT64_MAX / unit))
			return -1;
		*out = v * unit;
		return 0;
	}
	return parse_size(s, out);
}

/* ---- sizes in KiB when bare (Orion's and iozone's unit), at the option's own field */

int set_kib(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	uint64_t v;
	if (parse_size_in(val, 1024, &v) || !v) {
		snprintf(err, n, "-%s: '%s' is not a size above 0 (KiB when bare; k, m, g suffixes)", o->name, val);
		return -1;
	}
	*(uint64_t *)((char *)obj + o->off) = v;
	return 0;
}

void print_kib(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	print_size(*(const uint64_t *)((const char *)obj + o->off), buf, len);
}
