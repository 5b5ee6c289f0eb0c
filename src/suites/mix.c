/*
 * `iogauge mix`: YABS's disk test — random 50/50 reads and writes at 4k, 64k,
 * 512k and 1m, printed in YABS's table.  A table of cases and a formatter;
 * the executor (suite_exec.c) runs them.
 */
#include "base/common.h"
#include "options/command.h"
#include "options/options.h"
#include "suite/suite.h"

#include <math.h>
#include <string.h>

static const struct suite_case cases[] = {
	{ "4k", "--rw=randrw --bs=4k" },
	{ "64k", "--rw=randrw --bs=64k" },
	{ "512k", "--rw=randrw --bs=512k" },
	{ "1m", "--rw=randrw --bs=1m" },
};

/* YABS's units: KB/s, MB/s, GB/s by powers of 1000, two decimals cut (not rounded). */
static void fmt_speed(const struct fig3 *v, char *buf, size_t len)
{
	if (!v->n) {
		snprintf(buf, len, "-");
		return;
	}
	double kb = v->median * 1e3; /* MB/s -> KB/s */
	const char *unit = kb >= 1e6 ? "GB/s" : kb >= 1e3 ? "MB/s" : "KB/s";
	double x = kb >= 1e6 ? kb / 1e6 : kb >= 1e3 ? kb / 1e3 : kb;
	snprintf(buf, len, "%.2f %s", floor(x * 100) / 100, unit);
}

static void fmt_iops(const struct fig3 *v, char *buf, size_t len)
{
	if (!v->n)
		snprintf(buf, len, "(-)");
	else if (v->median >= 1000)
		snprintf(buf, len, "(%.1fk)", floor(v->median / 100) / 10);
	else
		snprintf(buf, len, "(%.0f)", floor(v->median));
}

static void print_pair(FILE *f, const struct suite_run *sr, unsigned t, unsigned c0)
{
	static const char *const rows[] = { "Read", "Write", "Total" };
	static const int dirs[] = { FD_READ, FD_WRITE, FD_TOTAL };
	unsigned c1 = c0 + 1 < sr->suite->ncases ? c0 + 1 : c0;
	fprintf(f, "%-10s | %-11s %8s | %-11s %8s\n", "Block Size", cases[c0].name, "(IOPS)",
		c1 != c0 ? cases[c1].name : "", c1 != c0 ? "(IOPS)" : "");
	fprintf(f, "%-10s | %-11s %8s | %-11s %8s\n", "  ------", "---", "---- ", "----", "---- ");
	for (unsigned r = 0; r < 3; r++) {
		char s0[32], i0[32], s1[32] = "", i1[32] = "";
		struct fig3 a = suite_fig(sr, t, c0, dirs[r], FIG_MBS), ai = suite_fig(sr, t, c0, dirs[r], FIG_IOPS);
		fmt_speed(&a, s0, sizeof(s0));
		fmt_iops(&ai, i0, sizeof(i0));
		if (c1 != c0) {
			struct fig3 b = suite_fig(sr, t, c1, dirs[r], FIG_MBS), bi = suite_fig(sr, t, c1, dirs[r], FIG_IOPS);
			fmt_speed(&b, s1, sizeof(s1));
			fmt_iops(&bi, i1, sizeof(i1));
		}
		fprintf(f, "%-10s | %-11s %8s | %-11s %8s\n", rows[r], s0, i0, s1, i1);
	}
}

static void print_target(FILE *f, const struct suite_run *sr, unsigned t)
{
	suite_print_header(f, sr, t);
	if (sr->targets[t].refused.status)
		return;
	const struct suite_target *q = &sr->targets[t];
	fprintf(f, "fio Disk Speed Tests (Mixed R/W %u/%u) (%s %s%s):\n", sr->base->rwmixread,
		100 - sr->base->rwmixread, q->is_dev ? "Device" : "Partition",
		q->info.device[0] ? "/dev/" : "", q->info.device[0] ? q->info.device : q->shown);
	fprintf(f, "---------------------------------\n");
	for (unsigned c = 0; c < sr->suite->ncases; c += 2) {
		if (c)
			fprintf(f, "%-10s | %-20s | %-20s\n", "", "", "");
		print_pair(f, sr, t, c);
	}
	suite_print_device(f, sr, t);
}

static void bs_label(const struct suite_run *sr, unsigned t, unsigned c, char *buf, size_t len)
{
	(void)sr;
	(void)t;
	snprintf(buf, len, "%s", cases[c].name);
}

/* A comparison cell: Total MB/s and IOPS, as in YABS's rows. */
static void total_cell(const struct suite_run *sr, unsigned t, unsigned c, char *buf, size_t len)
{
	struct fig3 v = suite_fig(sr, t, c, FD_TOTAL, FIG_MBS), n = suite_fig(sr, t, c, FD_TOTAL, FIG_IOPS);
	char s[32], io[32];
	fmt_speed(&v, s, sizeof(s));
	fmt_iops(&n, io, sizeof(io));
	snprintf(buf, len, "%-11s %8s", s, io);
}

static void print_mix(FILE *f, const struct suite_run *sr)
{
	suite_print_targets(f, sr, print_target);
	if (sr->ntargets > 1)
		suite_print_columns(f, sr, "Total (read + write)", "Block Size", sr->suite->ncases,
				    bs_label, total_cell);
}

static const struct suite mix = { .cases = cases, .ncases = ARRAY_SIZE(cases), .print = print_mix };

const struct command cmd_mix = {
	.name = "mix",
	.usage = "iogauge mix [OPTIONS] [PATH...]",
	.summary = "YABS's disk test: random 50/50 reads and writes at 4k, 64k, 512k and 1m",
	.description =
		"Each block size runs for --runtime with --iodepth requests in flight in each of "
		"--numjobs threads on one test file, O_DIRECT, random data, after a ramp. Read, Write "
		"and Total MB/s (10^6 bytes per second, cut to two decimals as YABS prints them) and "
		"IOPS in parentheses. A PATH is a directory (a test file is created there and removed "
		"at the end) or a block device. Several PATHs add a table with a column per target.",
	.groups = OG_RESULTS | OG_DESTROY | OG_KEEP | OG_SUITE | OG_SIZING | OG_ENGINE | OG_QUEUE | OG_DATA | OG_VERIFY | OG_SAVE | OG_STORE,
	.defaults = "--size=2g --runtime=30s --ramp_time=2s --direct=1 --ioengine=auto "
		    "--iodepth=64 --numjobs=2 --rwmixread=50 --time_based=1 --invalidate=1 "
		    "--group_reporting=1",
	.suite = &mix,
};
