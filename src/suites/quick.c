/*
 * `iogauge quick` (the default command): CrystalDiskMark's default profile.
 * A table of cases and a formatter; the executor (suite_exec.c) runs them.
 */
#include "base/common.h"
#include "options/command.h"
#include "options/options.h"
#include "suite/suite.h"

#include <string.h>

static const struct suite_case cases[] = {
	{ "SEQ1M Q8T1 read", "--rw=read --bs=1m --iodepth=8" },
	{ "SEQ1M Q1T1 read", "--rw=read --bs=1m --iodepth=1" },
	{ "RND4K Q32T1 read", "--rw=randread --bs=4k --iodepth=32" },
	{ "RND4K Q1T1 read", "--rw=randread --bs=4k --iodepth=1" },
	{ "SEQ1M Q8T1 write", "--rw=write --bs=1m --iodepth=8" },
	{ "SEQ1M Q1T1 write", "--rw=write --bs=1m --iodepth=1" },
	{ "RND4K Q32T1 write", "--rw=randwrite --bs=4k --iodepth=32" },
	{ "RND4K Q1T1 write", "--rw=randwrite --bs=4k --iodepth=1" },
};
#define NROWS (ARRAY_SIZE(cases) / 2)

/* Row r's label ("SEQ1M Q8T1") and its case for direction d. */
static unsigned case_of(unsigned row, int d)
{
	return row + (d == FD_WRITE ? NROWS : 0);
}

static void row_label(const struct suite_run *sr, unsigned t, unsigned row, char *buf, size_t len)
{
	const char *n = cases[row].name;
	(void)sr;
	(void)t;
	snprintf(buf, len, "%.*s", (int)(strrchr(n, ' ') - n), n);
}

/* A comparison cell: read and write MB/s. */
static void mbs_cell(const struct suite_run *sr, unsigned t, unsigned row, char *buf, size_t len)
{
	struct fig3 r = suite_fig(sr, t, case_of(row, FD_READ), FD_READ, FIG_MBS);
	struct fig3 w = suite_fig(sr, t, case_of(row, FD_WRITE), FD_WRITE, FIG_MBS);
	char a[16] = "-", b[16] = "-";
	if (r.n)
		snprintf(a, sizeof(a), "%.2f", r.median);
	if (w.n)
		snprintf(b, sizeof(b), "%.2f", w.median);
	snprintf(buf, len, "%9s / %9s", a, b);
}

static void print_target(FILE *f, const struct suite_run *sr, unsigned t)
{
	unsigned passes = sr->s->passes;
	suite_print_header(f, sr, t);
	if (sr->targets[t].refused.status)
		return;
	fprintf(f, "%-12s|%-38s|%s\n", "", "  Read", "  Write");
	fprintf(f, "%-12s|", "Test");
	for (int d = 0; d < DDIR_NR; d++) {
		fprintf(f, " %9s", "MB/s");
		if (passes > 1)
			fprintf(f, " %19s", "min-max");
		fprintf(f, " %9s %9s %9s%s", "IOPS", "mean us", "p99 us", d ? "\n" : " |");
	}
	for (unsigned row = 0; row < NROWS; row++) {
		char label[32];
		bool random = strstr(cases[row].opts, "rand") != NULL;
		row_label(sr, t, row, label, sizeof(label));
		fprintf(f, "%-12s|", label);
		for (int d = 0; d < DDIR_NR; d++) {
			unsigned c = case_of(row, d);
			struct fig3 mbs = suite_fig(sr, t, c, d, FIG_MBS);
			suite_print_num(f, &mbs, 9, 2, 1);
			if (passes > 1) {
				char range[48] = "-";
				if (mbs.n)
					snprintf(range, sizeof(range), "%.2f-%.2f", mbs.min, mbs.max);
				fprintf(f, " %19s", range);
			}
			if (random) {
				struct fig3 iops = suite_fig(sr, t, c, d, FIG_IOPS);
				struct fig3 mean = suite_fig(sr, t, c, d, FIG_LAT_MEAN);
				struct fig3 p99 = suite_fig(sr, t, c, d, FIG_LAT_P99);
				suite_print_num(f, &iops, 9, 0, 1);
				suite_print_num(f, &mean, 9, 1, 1e3);
				suite_print_num(f, &p99, 9, 1, 1e3);
			} else {
				fprintf(f, " %9s %9s %9s", "-", "-", "-");
			}
			fprintf(f, "%s", d ? "\n" : " |");
		}
	}
	suite_print_device(f, sr, t);
}

static void print_quick(FILE *f, const struct suite_run *sr)
{
	for (unsigned t = 0; t < sr->ntargets; t++)
		if (sr->targets[t].tested || sr->targets[t].refused.status)
			print_target(f, sr, t);
	if (sr->ntargets > 1)
		suite_print_columns(f, sr, "MB/s (read / write)", "Test", NROWS, row_label, mbs_cell);
}

static const struct suite quick = { .cases = cases, .ncases = ARRAY_SIZE(cases), .print = print_quick };

const struct command cmd_quick = {
	.name = "quick",
	.usage = "iogauge [quick] [OPTIONS] [PATH...]",
	.summary = "CrystalDiskMark's default profile on a test file in each PATH (default: .)",
	.description =
		"SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1 and RND4K Q1T1, each read and write, with O_DIRECT, "
		"random data, a 1 GiB file and 5 s a test after a 1 s ramp. MB/s for every row; IOPS, "
		"mean and p99 latency for the random rows. A PATH is a directory (a test file is created "
		"there and removed at the end) or a block device (written only when it carries no "
		"signature, or with --allow-destroy). Several PATHs add a table with a column per "
		"target. --passes N reports the median and the min-max range.",
	.groups = OG_RESULTS | OG_DESTROY | OG_KEEP | OG_SUITE | OG_SIZING | OG_ENGINE | OG_DATA | OG_VERIFY | OG_SAVE | OG_STORE,
	.defaults = "--size=1g --runtime=5s --ramp_time=1s --direct=1 --ioengine=auto --numjobs=1 "
		    "--time_based=1 --invalidate=1",
	.suite = &quick,
};
