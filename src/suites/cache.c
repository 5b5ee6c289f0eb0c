/*
 * `iogauge cache`: the table seeds 001 and 002 build by hand with hdparm and
 * dd — cached read (hdparm -T), device read (hdparm -t --direct), direct
 * write, buffered write, buffered write + fdatasync, direct copy — in MB/s,
 * with the page-cache residency before each read and a line saying why the
 * numbers differ.  A table of cases and a formatter; the executor (suite_exec.c)
 * runs them, and the runner's copy jobs do the copy.
 */
#include "base/common.h"
#include "options/command.h"
#include "options/options.h"
#include "suite/suite.h"

#include <string.h>

enum { C_CACHED, C_DEVICE, C_DIRECT_W, C_BUF_W, C_BUF_SYNC_W, C_COPY, C_NR };

/*
 * hdparm reads 2 MiB at a time: -T re-reads the same 2 MiB for 2 s, -t reads on for 3 s;
 * both reads here last --runtime (3 s).  The writes and the copy go once over the region (--size).
 */
static const struct suite_case cases[] = {
	[C_CACHED] = { "cached read", "--rw=read --bs=2m --size=2m --direct=0 --invalidate=0 --time_based=1" },
	[C_DEVICE] = { "device read", "--rw=read --bs=2m --direct=1 --time_based=1" },
	[C_DIRECT_W] = { "direct write", "--rw=write --bs=1m --direct=1 --runtime=0" },
	[C_BUF_W] = { "buffered write", "--rw=write --bs=1m --direct=0 --runtime=0" },
	[C_BUF_SYNC_W] = { "buffered write + fdatasync", "--rw=write --bs=1m --direct=0 --end_fdatasync=1 --runtime=0" },
	[C_COPY] = { "direct copy", "--rw=read --bs=1m --direct=1 --runtime=0" },
};

/* The cached read follows a read of its region that leaves it in the page cache (not timed). */
static const char *const warmups[C_NR] = {
	[C_CACHED] = "--rw=read --bs=2m --size=2m --direct=0 --invalidate=0 --time_based=0 --runtime=0",
};

/* What each row measures and why it differs from the others. */
static const struct {
	const char *label;
	int dir;
	const char *why;
} rows[C_NR] = {
	[C_CACHED] = { "cached read (hdparm -T)", FD_READ,
		       "re-reads 2 MiB already in the page cache: memory speed, the disk is not touched" },
	[C_DEVICE] = { "device read (hdparm -t --direct)", FD_READ,
		       "O_DIRECT reads, 2 MiB each: what the disk delivers, no cache in between" },
	[C_DIRECT_W] = { "direct write (dd oflag=direct)", FD_WRITE,
			 "O_DIRECT: each 1 MiB write has reached the device when it returns" },
	[C_BUF_W] = { "buffered write (dd)", FD_WRITE, "cached: a write returns once its data is in the page cache" },
	[C_BUF_SYNC_W] = { "buffered + fdatasync (conv=fdatasync)", FD_WRITE,
			   "the clock stops after fdatasync: all the data is on the disk" },
	[C_COPY] = { "direct copy (iflag=oflag=direct)", FD_WRITE,
		     "each 1 MiB block is read, then written, with O_DIRECT: the disk does both in turn" },
};

/* The copy: the first half of the region to the second half of the same file or device. */
static void job(struct suite_run *sr, struct suite_target *t, unsigned c, struct job *j)
{
	(void)sr;
	if (c != C_COPY)
		return;
	uint64_t half = t->size / 2 & ~((1ULL << 20) - 1);
	if (!half)
		half = t->size / 2 & ~4095ULL;
	j->size = half;
	snprintf(j->plan.copy.path, sizeof(j->plan.copy.path), "%s", t->file);
	j->plan.copy.offset = half;
	j->plan.copy.direct = true;
}

static void fmt_pct(char *buf, size_t len, int64_t part, uint64_t whole)
{
	char b[32], w[32];
	if (part < 0 || !whole)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%s of %s (%.0f%%)", fmt_bytes(b, sizeof(b), (double)part),
			 fmt_bytes(w, sizeof(w), (double)whole), 100.0 * (double)part / (double)whole);
}

/* The last pass that measured case c: its residency and what was left unsynced. */
static const struct suite_cell *last_cell(const struct suite_run *sr, unsigned t, unsigned c)
{
	const struct suite_cell *found = NULL;
	for (unsigned p = 0; p < sr->s->passes; p++) {
		const struct suite_cell *cell = &sr->targets[t].cells[p * sr->suite->ncases + c];
		if (cell->done)
			found = cell;
	}
	return found;
}

static void print_target(FILE *f, const struct suite_run *sr, unsigned t)
{
	const struct suite_target *q = &sr->targets[t];
	char sz[32];
	fprintf(f, "iogauge cache: %s", q->shown);
	if (q->refused.status) {
		fprintf(f, ": not measured: %s\n", q->refused.msg);
		return;
	}
	const char *rot = q->facts.rotational < 0 ? "" : q->facts.rotational ? ", rotational" : ", non-rotational";
	if (q->is_dev)
		fprintf(f, " (block device%s)", rot);
	else
		fprintf(f, " (%s on %s%s%s%s)", q->facts.fstype[0] ? q->facts.fstype : "unknown fs",
			q->facts.device[0] ? q->facts.device : "no block device", q->facts.mntopts[0] ? ", " : "",
			q->facts.mntopts, rot);
	fprintf(f, ", %s %s%s, one request at a time (psync), %u pass%s\n", q->is_dev ? "region" : "file",
		fmt_bytes(sz, sizeof(sz), (double)q->size),
		q->shrunk ? (q->is_dev ? " (the whole device)" : q->is_file ? " (the whole file)" : " (shrunk: short of free space)") : "",
		sr->s->passes, sr->s->passes == 1 ? "" : "es (median)");
	if (q->fallback)
		fprintf(f, "The file system refuses O_DIRECT: the direct rows are buffered, with the cache dropped before reads and writes timed to fsync.\n");
	fprintf(f, "%-38s %10s  %-30s %s\n", "Test", "MB/s", "in the page cache before", "why");
	for (unsigned c = 0; c < C_NR; c++) {
		struct fig3 v = suite_fig(sr, t, c, rows[c].dir, FIG_MBS);
		const struct suite_cell *cell = last_cell(sr, t, c);
		char mbs[32] = "-", res[96] = "-", why[256];
		if (v.n)
			snprintf(mbs, sizeof(mbs), "%.2f", v.median);
		if (cell && rows[c].dir == FD_READ)
			fmt_pct(res, sizeof(res), cell->resident, cell->region);
		snprintf(why, sizeof(why), "%s", rows[c].why);
		if (c == C_BUF_W && cell) {
			char left[96];
			fmt_pct(left, sizeof(left), cell->unsynced, cell->region);
			snprintf(why, sizeof(why), "%s; %s %s", rows[c].why, left,
				 cell->unsynced < 0 ? "is unknown (no cachestat)" : "was not on disk when the clock stopped");
		}
		fprintf(f, "%-38s %10s  %-30s %s\n", rows[c].label, mbs, res, why);
	}
	fprintf(f, "MB/s are 10^6 bytes a second; hdparm's \"MB/sec\" are MiB/s (1.049 times fewer).\n");
	suite_print_device(f, sr, t);
}

static void row_label(const struct suite_run *sr, unsigned target, unsigned row, char *buf, size_t len)
{
	(void)sr;
	(void)target;
	snprintf(buf, len, "%s", rows[row].label);
}

static void row_cell(const struct suite_run *sr, unsigned target, unsigned row, char *buf, size_t len)
{
	struct fig3 v = suite_fig(sr, target, row, rows[row].dir, FIG_MBS);
	if (!v.n)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", v.median);
}

static void print_cache(FILE *f, const struct suite_run *sr)
{
	suite_print_targets(f, sr, print_target);
	if (sr->ntargets > 1)
		suite_print_columns(f, sr, "MB/s", "Test", C_NR, row_label, row_cell);
}

static const struct suite cache = {
	.cases = cases,
	.ncases = ARRAY_SIZE(cases),
	.print = print_cache,
	.warmups = warmups,
	.job = job,
};

const struct command cmd_cache = {
	.name = "cache",
	.usage = "iogauge cache [OPTIONS] [PATH...]",
	.summary = "The page cache made visible: hdparm -T and -t --direct, and dd's direct, buffered and synced writes and direct copy, side by side",
	.description =
		"On a test file in each PATH (default: .) or a block device, one request at a time: cached "
		"read (re-reading 2 MiB already in the page cache, after an untimed warm-up read: hdparm -T), "
		"device read (O_DIRECT, 2 MiB requests, 3 s: hdparm -t --direct), direct write, buffered "
		"write (the clock stops when the data is in the page cache; the row says how much was not on "
		"disk yet), buffered write + fdatasync, and a direct copy of the first half of the region to "
		"the second (dd iflag=direct oflag=direct). MB/s each, the bytes of the region in the page "
		"cache before each read (mincore), and one line each saying why the numbers differ. A block "
		"device is written only when it carries no signature, or with --allow-destroy. Several PATHs "
		"add a table with a column per target. --size sets the region, --runtime the time of each read.",
	.groups = OG_RESULTS | OG_DESTROY | OG_KEEP | OG_SUITE | OG_SIZING | OG_DATA | OG_VERIFY | OG_SAVE | OG_STORE,
	.defaults = "--size=1g --runtime=3s --ramp_time=0 --ioengine=psync --iodepth=1 --numjobs=1 "
		    "--direct=1 --invalidate=1 --time_based=0",
	.suite = &cache,
};
