/*
 * fio's per-direction rate options (rate, rate_iops, rate_min,
 * rate_iops_min): READ,WRITE,TRIM.  As fio reads them: one value sets every
 * direction, two set read and write (trims take the writes'), an empty part
 * keeps that direction's value.
 */
#include "base/common.h"
#include "options/opt_def.h"
#include "base/units.h"
#include "options/option_rate.h"

#include <stdio.h>
#include <string.h>

static int set_triplet(void *obj, const struct opt_def *o, const char *val, char *err, size_t n,
		       bool size)
{
	uint64_t *f = (uint64_t *)((char *)obj + o->off), v[RATE_DIRS];
	char buf[256];
	size_t len = strlen(val);
	if (!len || len >= sizeof(buf))
		goto bad;
	memcpy(buf, val, len + 1);
	if (len > 1 && buf[len - 1] == ',')
		buf[len - 1] = 0; /* fio drops one trailing comma: "1m," is "1m" */
	memcpy(v, f, sizeof(v));
	unsigned nparts = 0;
	for (char *p = buf, *c; p; p = c ? c + 1 : NULL, nparts++) {
		if (nparts == RATE_DIRS)
			goto bad;
		c = strchr(p, ',');
		if (c)
			*c = 0;
		if (*p && (size ? parse_size(p, &v[nparts]) : parse_uint(p, &v[nparts])))
			goto bad;
	}
	/* The last part given stands for the directions after it. */
	for (unsigned d = nparts; d < RATE_DIRS; d++)
		v[d] = v[nparts - 1];
	memcpy(f, v, sizeof(v));
	return 0;
bad:
	snprintf(err, n, "--%s: '%s' is not %s (or READ,WRITE[,TRIM])", o->name, val,
		 size ? "a size" : "a number");
	return -1;
}

int set_rate_sizes(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	return set_triplet(obj, o, val, err, n, true);
}

int set_rate_counts(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	return set_triplet(obj, o, val, err, n, false);
}

static void print_triplet(const void *obj, const struct opt_def *o, char *buf, size_t len, bool size)
{
	const uint64_t *f = (const uint64_t *)((const char *)obj + o->off);
	char s[RATE_DIRS][32];
	for (int d = 0; d < RATE_DIRS; d++) {
		if (size)
			print_size(f[d], s[d], sizeof(s[d]));
		else
			snprintf(s[d], sizeof(s[d]), "%llu", (unsigned long long)f[d]);
	}
	if (f[0] == f[1] && f[1] == f[2])
		snprintf(buf, len, "%s", s[0]);
	else if (f[1] == f[2])
		snprintf(buf, len, "%s,%s", s[0], s[1]);
	else
		snprintf(buf, len, "%s,%s,%s", s[0], s[1], s[2]);
}

void print_rate_sizes(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	print_triplet(obj, o, buf, len, true);
}

void print_rate_counts(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	print_triplet(obj, o, buf, len, false);
}
