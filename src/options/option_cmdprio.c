/*
 * fio's cmdprio options (cmdprio.h): cmdprio_percentage=R[,W],
 * cmdprio_class=C[,C], cmdprio=L[,L] and cmdprio_bssplit, parsed as fio 3.33
 * parses them (a single value for both directions; a trim part ignored).
 */
#include "model/cmdprio.h"
#include "options/option_cmdprio.h"
#include "base/common.h"
#include "options/opt_def.h"
#include "base/units.h"

#include "options/fio_opts.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmdprio_percentage, cmdprio_class, cmdprio: a number a direction within [lo, hi]. */
static int set_pair(struct job *j, const struct opt_def *o, const char *val, unsigned *field, unsigned lo,
		    unsigned hi, unsigned said, char *err, size_t n)
{
	char parts[DDIR_NR][256];
	unsigned v[DDIR_NR];
	if (split_dirs(val, parts))
		goto bad;
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t x;
		if (parse_uint(parts[d], &x) || x < lo || x > hi)
			goto bad;
		v[d] = (unsigned)x;
	}
	memcpy(field, v, sizeof(v));
	j->cmdprio.said |= said;
	return 0;
bad:
	snprintf(err, n, "--%s: '%s' is not a number from %u to %u (or READ,WRITE numbers)", o->name, val, lo, hi);
	return -1;
}

static void print_pair(const unsigned *v, char *buf, size_t len)
{
	if (v[0] == v[1])
		snprintf(buf, len, "%u", v[0]);
	else
		snprintf(buf, len, "%u,%u", v[0], v[1]);
}

int set_cmdprio_percentage(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	return set_pair(j, o, val, j->cmdprio.pct, 0, 100, CMDPRIO_SAID_PCT, err, n);
}

void print_cmdprio_percentage(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	print_pair(((const struct job *)obj)->cmdprio.pct, buf, len);
}

int set_cmdprio_class(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	return set_pair(j, o, val, j->cmdprio.cls, 1, 3, CMDPRIO_SAID_CLASS, err, n);
}

void print_cmdprio_class(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const unsigned *c = ((const struct job *)obj)->cmdprio.cls;
	unsigned v[DDIR_NR] = { c[0] ? c[0] : 1, c[1] ? c[1] : 1 }; /* unset: real-time, as fio */
	(void)o;
	print_pair(v, buf, len);
}

int set_cmdprio_level(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	return set_pair(j, o, val, j->cmdprio.level, 0, 7, CMDPRIO_SAID_LEVEL, err, n);
}

void print_cmdprio_level(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	print_pair(((const struct job *)obj)->cmdprio.level, buf, len);
}

/* One direction's list, as fio's split_parse_prio_ddir: BS/PCT[/CLASS/LEVEL], zero entries dropped, by size. */
static int split_dir(char *s, struct cmdprio_split *out, unsigned *nout)
{
	unsigned n = 0;
	for (char *save = NULL, *e = strtok_r(s, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		char *f[5];
		unsigned nf = 0;
		for (char *save2 = NULL, *x = strtok_r(e, "/", &save2); x && nf < 5; x = strtok_r(NULL, "/", &save2))
			f[nf++] = x;
		if (nf == 0 || nf == 3 || nf > 4 || n == CMDPRIO_SPLIT_MAX)
			return -1;
		uint64_t bs, pct = 0, cls = 0, lvl = 0;
		if (parse_size(f[0], &bs) || !bs || (nf > 1 && (parse_uint(f[1], &pct) || pct > 100)))
			return -1;
		if (nf == 4 && (parse_uint(f[2], &cls) || parse_uint(f[3], &lvl) || cls > 3 || lvl > 7))
			return -1;
		if (!pct)
			continue; /* fio: a zero entry says nothing */
		out[n].bs = bs;
		out[n].pct = (unsigned)pct;
		out[n].prio = nf == 4 ? cmdprio_value((unsigned)cls, (unsigned)lvl) : -1;
		n++;
	}
	/* By block size, entries of one size in the order given (their draws follow that order). */
	for (unsigned a = 1; a < n; a++)
		for (unsigned b = a; b > 0 && out[b - 1].bs > out[b].bs; b--) {
			struct cmdprio_split t = out[b];
			out[b] = out[b - 1];
			out[b - 1] = t;
		}
	/* fio refuses a size whose entries add up past 100. */
	for (unsigned a = 0; a < n;) {
		unsigned tot = 0, b = a;
		for (; b < n && out[b].bs == out[a].bs; b++)
			tot += out[b].pct;
		if (tot > 100)
			return -1;
		a = b;
	}
	*nout = n;
	return 0;
}

int set_cmdprio_bssplit(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	struct job_cmdprio *c = &j->cmdprio;
	char parts[DDIR_NR][256];
	static struct cmdprio_split tmp[DDIR_NR][CMDPRIO_SPLIT_MAX]; /* parsing is single-threaded */
	unsigned cnt[DDIR_NR] = { 0, 0 };
	if (strlen(val) >= sizeof(c->bssplit) || split_dirs(val, parts) || split_dir(parts[0], tmp[0], &cnt[0]) ||
	    split_dir(parts[1], tmp[1], &cnt[1])) {
		snprintf(err, n,
			 "--%s: '%s' is not a list BS/PCT[/CLASS/LEVEL]:... of up to %d entries (each size's "
			 "percentages at most 100 in all, class 1-3, level 0-7; READ,WRITE lists)",
			 o->name, val, CMDPRIO_SPLIT_MAX);
		return -1;
	}
	memset(c->bssplit, 0, sizeof(c->bssplit));
	snprintf(c->bssplit, sizeof(c->bssplit), "%s", val);
	for (int d = 0; d < DDIR_NR; d++)
		memcpy(c->split[d], tmp[d], cnt[d] * sizeof(tmp[d][0]));
	memcpy(c->nsplit, cnt, sizeof(cnt));
	if (*val)
		c->said |= CMDPRIO_SAID_BSSPLIT;
	return 0;
}

void print_cmdprio_bssplit(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%s", ((const struct job *)obj)->cmdprio.bssplit);
}

int set_hipri_percentage(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	struct job *j = obj;
	uint64_t v;
	if (parse_uint(val, &v) || v > 100) {
		snprintf(err, n, "--%s: '%s' is not a number from 0 to 100", o->name, val);
		return -1;
	}
	j->hipri_pct = (unsigned)v;
	j->cmdprio.said |= CMDPRIO_SAID_HIPRI_PCT;
	return 0;
}

void print_hipri_percentage(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%u", ((const struct job *)obj)->hipri_pct);
}

int cmdprio_check(const struct job *j, const char *engine, char *err, size_t n)
{
	const struct job_cmdprio *c = &j->cmdprio;
	static const char *const names[] = { "cmdprio_percentage", "cmdprio_class", "cmdprio", "cmdprio_bssplit" };
	if ((c->said & CMDPRIO_SAID_HIPRI_PCT) && strcmp(engine, "pvsync2")) {
		snprintf(err, n, "--hipri_percentage is an option of --ioengine=pvsync2 (as in fio 3.33), not of --ioengine=%s",
			 engine);
		return -1;
	}
	unsigned said = c->said & ~(unsigned)CMDPRIO_SAID_HIPRI_PCT;
	if (said && strcmp(engine, "io_uring") && strcmp(engine, "libaio")) {
		unsigned b = (unsigned)__builtin_ctz(said);
		snprintf(err, n, "--%s is an option of --ioengine=io_uring and libaio (fio's io_uring, io_uring_cmd, libaio), not of --ioengine=%s",
			 names[b < 4 ? b : 0], engine);
		return -1;
	}
	if ((c->pct[0] || c->pct[1]) && (c->nsplit[0] || c->nsplit[1])) {
		snprintf(err, n, "--cmdprio_percentage and --cmdprio_bssplit are mutually exclusive (as in fio)");
		return -1;
	}
	for (int d = 0; d < DDIR_NR; d++) {
		/* The distinct priorities of a direction, the default's place included. */
		uint16_t seen[CMDPRIO_SPLIT_MAX];
		unsigned k = 0;
		for (unsigned i = 0; i < c->nsplit[d]; i++) {
			int p = c->split[d][i].prio;
			uint16_t v = p < 0 ? 0xffff : (uint16_t)p;
			unsigned x = 0;
			while (x < k && seen[x] != v)
				x++;
			if (x == k)
				seen[k++] = v;
		}
		if (k + 1 > CMDPRIO_PRIOS_MAX) {
			snprintf(err, n, "--cmdprio_bssplit: at most %d different priorities a direction", CMDPRIO_PRIOS_MAX - 1);
			return -1;
		}
	}
	return 0;
}
