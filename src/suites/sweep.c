/*
 * `iogauge sweep`: iozone's auto mode.  File sizes x record sizes x tests
 * (0 write/rewrite, 1 read/reread, 2 random read/write, 3 backward read,
 * 4 record rewrite, 5 stride read), each a case for the executor on one test
 * file, with iozone's options and its two reports: the main table (kB,
 * reclen, a column per test, KiB/s) and, with -R, the Excel-style block.
 * iozone's reads and rewrites follow its writes without dropping the page
 * cache (that is its method); the report says how many read cells began
 * with the file in the cache.
 */
#include "base/common.h"
#include "options/command.h"
#include "options/options.h"
#include "suites/sweep_opts.h"
#include "suite/suite.h"
#include "base/userfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIB 1024ULL
#define CROSSOVER (16384 * KIB) /* iozone: from larger files on, records start at 64 KiB */
#define LARGE_REC (64 * KIB)
#define STRIDE 17               /* iozone's stride read: every 17th record */
#define MAX_AXIS 64

enum { W_WRITE, W_REWRITE, W_READ, W_REREAD, W_RREAD, W_RWRITE, W_BKWD, W_RECREWRITE, W_STRIDE, W_NR };
static const char *const cell_names[W_NR] = { "write",	     "rewrite",	     "read",
					      "reread",	     "random read",  "random write",
					      "bkwd read",   "record rewrite", "stride read" };
static const char *const report_names[W_NR] = {
	"Writer report",	"Re-writer report",	 "Reader report",
	"Re-Reader report",	"Random read report",	 "Random write report",
	"Backward read report", "Record rewrite report", "Stride read report",
};
static const unsigned cell_test[W_NR] = { 0, 0, 1, 1, 2, 2, 3, 4, 5 }; /* iozone's -i */
static const int cell_dir[W_NR] = { FD_WRITE, FD_WRITE, FD_READ, FD_READ, FD_READ,
				    FD_WRITE, FD_READ,	FD_WRITE, FD_READ };
/* iozone's column widths (print_header / the row printfs). */
static const int cell_width[W_NR] = { 9, 9, 9, 9, 9, 9, 9, 10, 10 };

static unsigned tests_of(const struct sweep_opts *w)
{
	return w->tests ? w->tests : 0x3f;
}

/* File sizes: -s, else -n to -g by powers of two in auto mode, else iozone's 512 KiB. */
static unsigned file_sizes(const struct sweep_opts *w, uint64_t *out)
{
	unsigned n = 0;
	if (w->nsizes) {
		memcpy(out, w->sizes, w->nsizes * sizeof(*out));
		return w->nsizes;
	}
	if (!w->auto_mode) {
		out[0] = 512 * KIB;
		return 1;
	}
	for (uint64_t s = w->min_size; s <= w->max_size && n < MAX_AXIS; s *= 2)
		out[n++] = s;
	return n;
}

/* Record sizes in the report's header: -r, else -y to -q in auto mode, else 4 KiB. */
static unsigned rec_axis(const struct sweep_opts *w, uint64_t *out)
{
	unsigned n = 0;
	if (w->nrecs) {
		memcpy(out, w->recs, w->nrecs * sizeof(*out));
		return w->nrecs;
	}
	if (!w->auto_mode) {
		out[0] = 4 * KIB;
		return 1;
	}
	for (uint64_t r = w->min_rec; r <= w->max_rec && n < MAX_AXIS; r *= 2)
		out[n++] = r;
	return n;
}

/* Is record r tested with file size f?  (No record above the file; auto mode's crossover.) */
static bool tested(const struct sweep_opts *w, uint64_t f, uint64_t r)
{
	if (r > f)
		return false;
	return w->nrecs || !w->auto_mode || w->no_crossover || f <= CROSSOVER || r >= LARGE_REC;
}

static void case_name(char *buf, size_t len, uint64_t f, uint64_t r, int k)
{
	snprintf(buf, len, "%llu/%llu %s", (unsigned long long)(f / KIB), (unsigned long long)(r / KIB),
		 cell_names[k]);
}

static char *cell_opts(const struct sweep_opts *w, uint64_t f, uint64_t r, int k)
{
	static const char *const what[W_NR] = {
		"--rw=write --overwrite=0", "--rw=write", "--rw=read", "--rw=read", "--rw=randread",
		"--rw=randwrite", "--rw=read --seq_order=backward", "--rw=write", "--rw=read",
	};
	char buf[256];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "%s --bs=%llu --size=%llu", what[k],
				    (unsigned long long)r,
				    (unsigned long long)(k == W_RECREWRITE ? r : f));
	if (k == W_RECREWRITE) /* the same record, a file's worth of times */
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " --loops=%llu", (unsigned long long)(f / r));
	if (k == W_STRIDE)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " --seq_order=stride:%d", STRIDE);
	if (w->fsync && cell_dir[k] == FD_WRITE)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " --end_fsync=1");
	if (w->close)
		snprintf(buf + n, sizeof(buf) - n, " --end_close=1");
	return xstrdup(buf);
}

static int plan(const struct suite_run *sr, struct job *base, struct suite_case **out, unsigned *n,
		struct ig_err *e)
{
	const struct sweep_opts *w = sweep_opts_c(sr->s);
	uint64_t fs[MAX_AXIS], rs[MAX_AXIS];
	unsigned nf = file_sizes(w, fs), nr = rec_axis(w, rs), tests = tests_of(w);
	char b1[32], b2[32];
	if (w->auto_mode && !w->nsizes && w->min_size > w->max_size)
		return err_set(e, EXIT_USAGE, "-n %s is above -g %s", fmt_bytes(b1, sizeof(b1), (double)w->min_size),
			       fmt_bytes(b2, sizeof(b2), (double)w->max_size));
	if (w->auto_mode && !w->nrecs && w->min_rec > w->max_rec)
		return err_set(e, EXIT_USAGE, "-y %s is above -q %s", fmt_bytes(b1, sizeof(b1), (double)w->min_rec),
			       fmt_bytes(b2, sizeof(b2), (double)w->max_rec));
	for (unsigned i = 0; i < nr; i++)
		if (rs[i] > (16ULL << 20) || rs[i] < 512)
			return err_set(e, EXIT_USAGE, "-r %s: record sizes run from 512 bytes to 16m",
				       fmt_bytes(b1, sizeof(b1), (double)rs[i]));
	struct suite_case *c = xcalloc((size_t)nf * nr * W_NR + 1, sizeof(*c));
	uint64_t biggest = 0;
	*n = 0;
	for (unsigned i = 0; i < nf; i++) {
		for (unsigned j = 0; j < nr; j++) {
			if (!tested(w, fs[i], rs[j]))
				continue;
			for (int k = 0; k < W_NR; k++) {
				if (!(tests & (1u << cell_test[k])))
					continue;
				char name[96];
				case_name(name, sizeof(name), fs[i], rs[j], k);
				c[*n].name = xstrdup(name);
				c[*n].opts = cell_opts(w, fs[i], rs[j], k);
				(*n)++;
			}
			biggest = fs[i] > biggest ? fs[i] : biggest;
		}
	}
	*out = c;
	if (!*n)
		return err_set(e, EXIT_USAGE, "no record size fits any file size: nothing to run");
	base->size = biggest; /* the free space is checked for the largest file */
	if (w->direct)
		base->direct = true;
	return 0;
}

/* ---- figures: KiB/s as iozone prints them, -1 when not measured */

static long cell(const struct suite_run *sr, uint64_t f, uint64_t r, int k, double *cached)
{
	char name[96];
	case_name(name, sizeof(name), f, r, k);
	for (unsigned c = 0; c < sr->suite->ncases; c++) {
		if (strcmp(sr->suite->cases[c].name, name))
			continue;
		struct fig3 v = suite_fig(sr, 0, c, cell_dir[k], FIG_MBS);
		if (cached && sr->targets[0].cells) { /* the first pass: how much of the file was in the page cache before it */
			const struct suite_cell *cl = &sr->targets[0].cells[c];
			*cached = cl->done && cl->resident >= 0 && cl->region ? 100.0 * (double)cl->resident / (double)cl->region : 0;
		}
		return v.n ? (long)(v.median * 1e6 / KIB) : -1;
	}
	return -1;
}

/* ---- the main table */

static void print_table(FILE *f, const struct suite_run *sr)
{
	const struct sweep_opts *w = sweep_opts_c(sr->s);
	uint64_t fs[MAX_AXIS], rs[MAX_AXIS];
	unsigned nf = file_sizes(w, fs), nr = rec_axis(w, rs), tests = tests_of(w);
#define CONTROL_STRING3 "%16s%8s%9s%9s%8s%10s%8s %9s%9s %9s %9s%9s%9s%9s%9s\n"
	if (w->csv) {
		fprintf(f, "kB,reclen");
		for (int k = 0; k < W_NR; k++)
			fprintf(f, ",%s", cell_names[k]);
		fprintf(f, "\n");
	} else {
		fprintf(f, CONTROL_STRING3, " ", " ", " ", " ", " ", " ", "random", "random", "bkwd",
			"record", "stride", "", "", "", "");
		fprintf(f, CONTROL_STRING3, "kB", "reclen", "write", "rewrite", "read", "reread", "read",
			"write", "read", "rewrite", "read", "fwrite", "frewrite", "fread", "freread");
	}
	for (unsigned i = 0; i < nf; i++) {
		for (unsigned j = 0; j < nr; j++) {
			if (!tested(w, fs[i], rs[j]))
				continue;
			if (w->csv)
				fprintf(f, "%llu,%llu", (unsigned long long)(fs[i] / KIB),
					(unsigned long long)(rs[j] / KIB));
			else
				fprintf(f, "%16llu%8llu", (unsigned long long)(fs[i] / KIB),
					(unsigned long long)(rs[j] / KIB));
			for (int k = 0; k < W_NR; k++) {
				long v = cell(sr, fs[i], rs[j], k, NULL);
				/* Blank: a test not asked for (-i), as iozone shows it; '-': asked, not measured. */
				const char *none = tests & (1u << cell_test[k]) ? "-" : "";
				if (w->csv && v >= 0)
					fprintf(f, ",%ld", v);
				else if (w->csv)
					fprintf(f, ",%s", none);
				else if (v >= 0)
					fprintf(f, "%*ld", cell_width[k], v);
				else
					fprintf(f, "%*s", cell_width[k], none);
			}
			fprintf(f, "\n");
		}
	}
}

/* iozone's -R block: per test a quoted title, the record sizes, a row per file size. */
static void print_excel(FILE *f, const struct suite_run *sr)
{
	const struct sweep_opts *w = sweep_opts_c(sr->s);
	uint64_t fs[MAX_AXIS], rs[MAX_AXIS];
	unsigned nf = file_sizes(w, fs), nr = rec_axis(w, rs), tests = tests_of(w);
	fprintf(f, "Excel output is below:\n");
	for (int k = 0; k < W_NR; k++) {
		if (!(tests & (1u << cell_test[k])))
			continue;
		fprintf(f, "\n\"%s\"\n      ", report_names[k]);
		for (unsigned j = 0; j < nr; j++)
			fprintf(f, "  \"%llu\"", (unsigned long long)(rs[j] / KIB));
		for (unsigned i = 0; i < nf; i++) {
			fprintf(f, "\n\"%llu\"  ", (unsigned long long)(fs[i] / KIB));
			for (unsigned j = 0; j < nr && rs[j] <= fs[i]; j++) {
				/* A record skipped by the crossover is a 0, as iozone stores it; '-': not measured. */
				long v = tested(w, fs[i], rs[j]) ? cell(sr, fs[i], rs[j], k, NULL) : 0;
				if (v < 0)
					fprintf(f, " - ");
				else
					fprintf(f, " %ld ", v);
			}
		}
		fprintf(f, "\n");
	}
}

static void print_sweep(FILE *f, const struct suite_run *sr)
{
	const struct sweep_opts *w = sweep_opts_c(sr->s);
	const struct suite_target *q = &sr->targets[0];
	if (q->refused.status) {
		suite_print_header(f, sr, 0);
		return;
	}
	fprintf(f, "\tiogauge sweep: iozone's method (iogauge %s)\n\n", IOGAUGE_VERSION);
	if (w->auto_mode)
		fprintf(f, "\tAuto Mode\n");
	if (w->fsync)
		fprintf(f, "\tInclude fsync in write timing\n");
	if (w->close)
		fprintf(f, "\tInclude close in write timing\n");
	if (w->direct)
		fprintf(f, "\tO_DIRECT feature enabled\n");
	if (w->no_crossover)
		fprintf(f, "\tCross over of record size disabled.\n");
	if (w->excel)
		fprintf(f, "\tExcel chart generation enabled\n");
	fprintf(f, "\tOutput is in kBytes/sec\n\tFile stride size set to %d * record size.\n\n", STRIDE);
	print_table(f, sr);
	if (!sr->status) /* interrupted or failed: the caller says so instead */
		fprintf(f, "\niozone test complete.\n");
	if (w->excel)
		print_excel(f, sr);
	/* What the numbers are: iozone's reads meet its own writes in the cache. */
	unsigned reads = 0, warm = 0;
	uint64_t fs[MAX_AXIS], rs[MAX_AXIS];
	unsigned nf = file_sizes(w, fs), nr = rec_axis(w, rs);
	for (unsigned i = 0; i < nf; i++)
		for (unsigned j = 0; j < nr; j++)
			for (int k = 0; k < W_NR; k++) {
				double cached = 0;
				if (cell_dir[k] != FD_READ || !tested(w, fs[i], rs[j]) || cell(sr, fs[i], rs[j], k, &cached) < 0)
					continue;
				reads++;
				warm += cached >= 99.9;
			}
	if (!sr->out)
		return; /* a saved result (report): the note was said when it ran */
	fprintf(stderr, "iogauge sweep: %s (%s on %s), %s, psync; %u of %u read cells began with the file wholly in the page cache%s%s\n",
		q->shown, q->info.fstype[0] ? q->info.fstype : "unknown fs",
		q->info.device[0] ? q->info.device : "no block device",
		w->direct ? "O_DIRECT" : "buffered, the cache kept between tests as iozone keeps it", warm, reads,
		warm ? " (memory speed, as in iozone; -I for the device)" : "",
		!w->direct && !w->fsync ? "; writes are timed to the page cache, not the disk (-e times the fsync)" : "");
}

static int write_excel_file(const struct suite_run *sr, bool check_only, struct ig_err *e)
{
	const char *path = sweep_opts_c(sr->s)->excel_file;
	if (!path[0] || check_only)
		return path[0] ? outfile_check("-b", path, e) : 0;
	FILE *f = outfile_open("-b", path, false, e);
	if (!f) {
		e->status = EXIT_IOERR; /* checked before the run: what fails now fails at the end */
		return -1;
	}
	print_excel(f, sr);
	if (fclose(f))
		return err_set(e, EXIT_IOERR, "-b %s: %s", path, strerror(errno));
	return 0;
}

static json_t *sweep_json(const struct suite_run *sr)
{
	const struct sweep_opts *w = sweep_opts_c(sr->s);
	uint64_t fs[MAX_AXIS], rs[MAX_AXIS];
	unsigned nf = file_sizes(w, fs), nr = rec_axis(w, rs);
	json_t *o = json_object(), *rows = json_array();
	for (unsigned i = 0; i < nf; i++)
		for (unsigned j = 0; j < nr; j++) {
			if (!tested(w, fs[i], rs[j]))
				continue;
			json_t *r = json_object();
			json_object_set_new(r, "kb", json_integer((json_int_t)(fs[i] / KIB)));
			json_object_set_new(r, "reclen", json_integer((json_int_t)(rs[j] / KIB)));
			for (int k = 0; k < W_NR; k++) {
				double cached = 0;
				long v = cell(sr, fs[i], rs[j], k, &cached);
				json_object_set_new(r, cell_names[k], v >= 0 ? json_integer(v) : json_null());
			}
			json_array_append_new(rows, r);
		}
	json_object_set_new(o, "unit", json_string("KiB/s"));
	json_object_set_new(o, "rows", rows);
	return o;
}

static const struct suite sweep = {
	.print = print_sweep,
	.flags = SUITE_ONE_TARGET | SUITE_DIRS_ONLY | SUITE_EXACT_SIZE,
	.size_opts = "s g",
	.plan = plan,
	.write_files = write_excel_file,
	.json = sweep_json,
};

const struct command cmd_sweep = {
	.name = "sweep",
	.usage = "iogauge sweep [OPTIONS] [PATH]",
	.summary = "iozone's auto mode: file sizes x record sizes x tests, its table and Excel-style report",
	.description =
		"On a test file in the directory PATH (default .): for each file size (-s, or -n to -g "
		"with -a) and record size (-r, or -y to -q with -a, powers of two, no record above the "
		"file, from 64 KiB for files over 16 MiB unless -z), the tests of -i (default all): 0 "
		"write (a new file) and rewrite, 1 read and reread, 2 random read and write, 3 backward "
		"read, 4 record rewrite (one record, a file's worth of times), 5 stride read (every 17th "
		"record). -I O_DIRECT, -e the fsync and -c the close inside the time. Prints iozone's "
		"table (KiB/s; --csv: as CSV) and with -R its Excel-style block (-b FILE: also to FILE). "
		"As in iozone the page cache is kept between tests: without -I small files are read from "
		"memory, and a line on stderr says how many read cells began with the file in the cache.",
	.groups = OG_RESULTS | OG_KEEP | OG_SUITE | OG_DATA | OG_VERIFY | OG_SAVE | OG_STORE,
	.defaults = "--ioengine=psync --direct=0 --numjobs=1 --iodepth=1 --time_based=0 --runtime=0 "
		    "--ramp_time=0 --invalidate=0 --size=512k",
	.suite = &sweep,
};
