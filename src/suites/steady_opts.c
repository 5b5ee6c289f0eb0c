/*
 * steady's lists (--round-bs, --round-mix): comma-separated values, each
 * checked, none twice, at most STEADY_MAX_LIST.  An empty value empties the
 * list (what an empty list prints as, so a saved one reads back as it was).
 */
#include "base/common.h"
#include "options/options.h"
#include "base/units.h"
#include "options/option_values.h"
#include "suites/steady_opts.h"

#include <stdio.h>
#include <string.h>

#define ROUND_BS_MAX (1ULL << 30) /* --bs's own limit */

/* The items of val, one by one, into item[]; -1 with err set when there are too many. */
static int split(const struct opt_def *o, const char *val, char items[][32], unsigned *n, char *err,
		 size_t errlen)
{
	*n = 0;
	for (const char *p = val;;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		if (*n == STEADY_MAX_LIST) {
			snprintf(err, errlen, "--%s: at most %d values", o->name, STEADY_MAX_LIST);
			return -1;
		}
		if (!len || len >= 32) {
			snprintf(err, errlen, "--%s: '%s' has an empty or overlong item", o->name, val);
			return -1;
		}
		snprintf(items[(*n)++], 32, "%.*s", (int)len, p);
		if (!c)
			return 0;
		p = c + 1;
	}
}

static int set_round_bs(void *obj, const struct opt_def *o, const char *val, char *err, size_t errlen)
{
	struct steady_opts *st = (struct steady_opts *)obj;
	char items[STEADY_MAX_LIST][32];
	uint64_t v[STEADY_MAX_LIST];
	unsigned n = 0;
	if (*val && split(o, val, items, &n, err, errlen))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		if (parse_size(items[i], &v[i]) || !v[i] || v[i] > ROUND_BS_MAX) {
			snprintf(err, errlen, "--%s: '%s' is not a block size from 1 to 1g", o->name, items[i]);
			return -1;
		}
		for (unsigned k = 0; k < i; k++)
			if (v[k] == v[i]) {
				snprintf(err, errlen, "--%s: %s is given twice", o->name, items[i]);
				return -1;
			}
	}
	memset(st->bs, 0, sizeof(st->bs)); /* the unused tail too: a list compares as its values */
	memcpy(st->bs, v, n * sizeof(v[0]));
	st->nbs = n;
	return 0;
}

static void print_round_bs(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct steady_opts *st = (const struct steady_opts *)obj;
	size_t k = 0;
	(void)o;
	buf[0] = 0;
	for (unsigned i = 0; i < st->nbs && k + 1 < len; i++) {
		if (i)
			buf[k++] = ',';
		print_size(st->bs[i], buf + k, len - k);
		k += strlen(buf + k);
	}
}

static int set_round_mix(void *obj, const struct opt_def *o, const char *val, char *err, size_t errlen)
{
	struct steady_opts *st = (struct steady_opts *)obj;
	char items[STEADY_MAX_LIST][32];
	unsigned n = 0, v[STEADY_MAX_LIST];
	if (*val && split(o, val, items, &n, err, errlen))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		uint64_t x;
		if (parse_uint(items[i], &x) || x > 100) {
			snprintf(err, errlen, "--%s: '%s' is not a read percentage from 0 to 100", o->name, items[i]);
			return -1;
		}
		v[i] = (unsigned)x;
		for (unsigned k = 0; k < i; k++)
			if (v[k] == v[i]) {
				snprintf(err, errlen, "--%s: %s is given twice", o->name, items[i]);
				return -1;
			}
	}
	memset(st->mix, 0, sizeof(st->mix));
	memcpy(st->mix, v, n * sizeof(v[0]));
	st->nmix = n;
	return 0;
}

static void print_round_mix(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct steady_opts *st = (const struct steady_opts *)obj;
	size_t k = 0;
	(void)o;
	buf[0] = 0;
	for (unsigned i = 0; i < st->nmix && k + 1 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%u", i ? "," : "", st->mix[i]);
}

/* ---- the rows */

#define J(f) OPT_FIELD(SCOPE_JOB, struct job, f)
#define S(f) OPT_FIELD(SCOPE_SETTINGS, struct settings, f)
#define OWN(f) OPT_FIELD(SCOPE_OWN, struct steady_opts, f)

static const struct opt_def rows[] = {
	/* ---- steady (src/suites/steady.c): the cases of a round, SNIA PTS's IOPS test */
	{ .name = "round-bs", .owner = "steady", .type = OT_SPECIAL, OWN(bs), .set = set_round_bs, .print = print_round_bs,
	  .arg = "SIZE,SIZE...",
	  .help = "Block sizes of a round: each with each --round-mix is a case of random I/O that every round runs (at most 16; not given: --bs alone, or PTS's with --pts)" },
	{ .name = "round-mix", .owner = "steady", .type = OT_SPECIAL, OWN(mix), .set = set_round_mix,
	  .print = print_round_mix, .arg = "PCT,PCT...",
	  .help = "Read percentages of a round's cases: 0 is random writes, 100 random reads, others randrw at that --rwmixread (at most 16; not given: --rw's and --rwmixread's, or PTS's with --pts). With either list, --rw must be random" },
	{ .name = "pts", .owner = "steady", .type = OT_BOOL, OWN(pts), .def = "0", .bare = "1",
	  .help = "SNIA PTS's IOPS matrix for whichever of --round-bs and --round-mix is not given: block sizes 1024k,128k,64k,32k,16k,8k,4k,512 and reads 100,95,65,50,35,5,0% (56 cases a round; give --runtime to keep a round short)" },
	{ .name = NULL },
};
OPTION_ROWS(steady_rows, .after = "warn-unsupported", .order = 40, .rows = rows);
