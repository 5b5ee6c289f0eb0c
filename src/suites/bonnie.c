/*
 * `iogauge bonnie`: bonnie++'s tests as a table of cases — per-character
 * output (stdio putc), block output, rewrite (read, change, write back),
 * per-character input (getc), block input, random seeks (several seeker
 * threads, a tenth of the blocks rewritten), and sequential and random
 * create / stat (or read) / delete of N x 1024 files — printed as bonnie++'s
 * text table and its CSV line (format 1.98), which Debian's bon_csv2txt and
 * bon_csv2html read.  The executor (suite_exec.c) runs the cases.
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "options/command.h"
#include "options/options.h"
#include "base/units.h"
#include "suites/bonnie.h"
#include "suites/bonnie_opts.h"
#include "suite/suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>

#define MIN_TIME 0.5 /* bonnie++'s MinTime: a test shorter than this shows +++++ */
#define MIB (1ULL << 20)

enum { T_PUTC, T_WRITE, T_REWRITE, T_GETC, T_READ, T_SEEKS, T_SCREATE, T_SREAD, T_SDELETE,
       T_RCREATE, T_RREAD, T_RDELETE, T_NR };
static const char *const test_names[T_NR] = {
	"putc", "put_block", "rewrite", "getc", "get_block", "seeks",
	"seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del",
};
/* The direction whose rate a test reports (its latency is the worst of any request). */
static const int test_dir[T_NR] = { FD_WRITE, FD_WRITE, FD_READ, FD_READ, FD_READ, FD_READ,
				    FD_TOTAL, FD_TOTAL, FD_TOTAL, FD_TOTAL, FD_TOTAL, FD_TOTAL };

static uint64_t machine_ram(void)
{
	struct sysinfo si;
	if (sysinfo(&si))
		return 0;
	return (uint64_t)si.totalram * si.mem_unit / MIB * MIB;
}

static void machine_name(const struct settings *s, char *buf, size_t len)
{
	struct utsname u;
	if (bonnie_opts_c(s)->name[0])
		snprintf(buf, len, "%s", bonnie_opts_c(s)->name);
	else if (!uname(&u))
		snprintf(buf, len, "%s", u.nodename);
	else
		snprintf(buf, len, "localhost");
}

static void add_case(struct suite_case *c, unsigned *n, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add_case(struct suite_case *c, unsigned *n, const char *name, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	c[*n].name = xstrdup(name);
	c[*n].opts = xstrdup(buf);
	(*n)++;
}

/* The file size bonnie++ insists on: twice the RAM, so the page cache cannot hold the file. */
static int file_size(const struct bonnie_opts *b, uint64_t *size, struct ig_err *e)
{
	char r[32], f[32];
	uint64_t ram = b->ram < 0 ? machine_ram() : (uint64_t)b->ram;
	*size = b->size;
	if (b->size == UINT64_MAX) {
		if (!ram)
			return err_set(e, EXIT_USAGE, "-s: the RAM is not known (-r 0); give the file size");
		*size = 2 * ram;
	}
	if (*size % MIB)
		return err_set(e, EXIT_USAGE, "-s: bonnie++ counts the file in whole MiB");
	if (*size && ram && *size < 2 * ram)
		return err_set(e, EXIT_USAGE,
			       "-s: %s is less than twice the RAM (%s): the page cache could hold the file; give -r with the RAM to defeat, or -r 0 to measure anyway",
			       fmt_bytes(f, sizeof(f), (double)*size), fmt_bytes(r, sizeof(r), (double)ram));
	if (*size && *size < b->chunk)
		return err_set(e, EXIT_USAGE, "-s: the file is smaller than one block");
	return 0;
}

static int plan(const struct suite_run *sr, struct job *base, struct suite_case **out, unsigned *n,
		struct ig_err *e)
{
	const struct bonnie_opts *b = bonnie_opts_c(sr->s);
	uint64_t size;
	if (file_size(b, &size, e))
		return -1;
	if (!size && !b->nfiles)
		return err_set(e, EXIT_USAGE, "-s 0 and -n 0: no test left to run");
	base->size = size;
	base->invalidate = !b->keep_cache;
	struct suite_case *c = xcalloc(T_NR, sizeof(*c));
	const char *d = b->direct ? "--direct=1" : "--direct=0";
	unsigned bs = (unsigned)b->chunk, per = b->seeks / b->seekers;
	*n = 0;
	/* Every test closes with an fsync inside its time, as bonnie++ does. */
	if (size && !b->no_chars)
		add_case(c, n, test_names[T_PUTC],
			 "--rw=write --ioengine=stdio --direct=0 --bs=%u --overwrite=0 --end_fsync=1", bs);
	if (size) {
		add_case(c, n, test_names[T_WRITE], "--rw=write %s --bs=%u --overwrite=0 --end_fsync=1", d, bs);
		add_case(c, n, test_names[T_REWRITE], "--rw=read --rewrite_pct=100 %s --bs=%u --end_fsync=1", d, bs);
	}
	if (size && !b->no_chars)
		add_case(c, n, test_names[T_GETC], "--rw=read --ioengine=stdio --direct=0 --bs=%u", bs);
	if (size) {
		add_case(c, n, test_names[T_READ], "--rw=read %s --bs=%u", d, bs);
		add_case(c, n, test_names[T_SEEKS],
			 "--rw=randread --norandommap=1 --rewrite_pct=10 %s --bs=%u --numjobs=%u --number_ios=%u --group_reporting=1",
			 d, bs, b->seekers, per);
	}
	if (b->nfiles) {
		uint64_t files = (uint64_t)b->nfiles * 1024;
		char tree[160];
		snprintf(tree, sizeof(tree), "--direct=0 --nrfiles=%llu --filesize=%llu-%llu --files_per_dir=%llu",
			 (unsigned long long)files, (unsigned long long)b->min_size,
			 (unsigned long long)b->max_size,
			 (unsigned long long)(b->dirs > 1 ? (files + b->dirs - 1) / b->dirs : 0));
		/* bonnie++ stats the files, or reads them when they hold data. */
		const char *rd = b->max_size ? "open" : "stat";
		for (int order = 0; order < 2; order++) {
			const char *o = order ? "random" : "sequential";
			add_case(c, n, test_names[order ? T_RCREATE : T_SCREATE], "%s --fileop=create --file_order=%s", tree, o);
			add_case(c, n, test_names[order ? T_RREAD : T_SREAD], "%s --fileop=%s --file_order=%s", tree, rd, o);
			add_case(c, n, test_names[order ? T_RDELETE : T_SDELETE], "%s --fileop=unlink --file_order=%s", tree, o);
		}
	}
	*out = c;
	return 0;
}

/* ---- figures */

struct test_fig {
	bool run;          /* the test was part of the run and measured */
	bool missed;       /* part of the run, not measured (interrupted, an error): '-' */
	bool short_;       /* under MIN_TIME: +++++ */
	double value;      /* KiB/s, seeks/s or files/s */
	double cpu;        /* percent of one CPU */
	double lat_ns;     /* the slowest request */
	double seconds;
};

static int case_of(const struct suite_run *sr, int test)
{
	for (unsigned c = 0; c < sr->suite->ncases; c++)
		if (!strcmp(sr->suite->cases[c].name, test_names[test]))
			return (int)c;
	return -1;
}

static struct test_fig figure(const struct suite_run *sr, int test)
{
	struct test_fig f = { 0 };
	int c = case_of(sr, test);
	if (c < 0 || !sr->ntargets)
		return f;
	int d = test_dir[test];
	struct fig3 secs = suite_fig(sr, 0, (unsigned)c, d, FIG_SECONDS);
	f.missed = !secs.n;
	if (!secs.n)
		return f;
	bool rate_is_ops = test == T_SEEKS || d == FD_TOTAL;
	struct fig3 v = suite_fig(sr, 0, (unsigned)c, d, rate_is_ops ? FIG_IOPS : FIG_MBS);
	f.run = true;
	f.seconds = secs.median;
	f.short_ = secs.median < MIN_TIME;
	f.value = rate_is_ops ? v.median : v.median * 1e6 / 1024;
	f.cpu = suite_fig(sr, 0, (unsigned)c, d, FIG_CPU).median;
	f.lat_ns = suite_fig(sr, 0, (unsigned)c, FD_TOTAL, FIG_LAT_MAX).median;
	return f;
}

/* ---- bonnie++'s cells */

static void io_cell(char *buf, size_t len, const struct test_fig *f)
{
	double k = f->value;
	if (f->missed) {
		snprintf(buf, len, "     -");
		return;
	}
	if (!f->run)
		snprintf(buf, len, "      ");
	else if (f->short_)
		snprintf(buf, len, " +++++");
	else if (k < 10000)
		snprintf(buf, len, " %4dk", (int)k);
	else if (k / 1024 < 1000)
		snprintf(buf, len, k / 1024 < 100 ? " %4.1fm" : " %4.0fm",
			 k / 1024 < 100 ? k / 1024 : floor(k / 1024 + 0.5));
	else
		snprintf(buf, len, " %4.1fg", k / 1024 / 1024);
}

static void seeks_cell(char *buf, size_t len, const struct test_fig *f)
{
	if (f->missed) {
		snprintf(buf, len, "     -");
		return;
	}
	if (!f->run)
		snprintf(buf, len, "      ");
	else if (f->short_)
		snprintf(buf, len, " +++++");
	else
		snprintf(buf, len, f->value >= 1000 ? " %5.0f" : " %5.1f", f->value);
}

static void files_cell(char *buf, size_t len, const struct test_fig *f)
{
	if (f->missed) {
		snprintf(buf, len, "     -");
		return;
	}
	if (!f->run)
		snprintf(buf, len, "      ");
	else if (f->short_)
		snprintf(buf, len, " +++++");
	else
		snprintf(buf, len, " %5d", (int)f->value);
}

static void cpu_cell(char *buf, size_t len, const struct test_fig *f)
{
	if (f->missed) {
		snprintf(buf, len, "   -");
		return;
	}
	if (!f->run)
		snprintf(buf, len, "    ");
	else if (f->short_)
		snprintf(buf, len, " +++");
	else
		snprintf(buf, len, " %3d", (int)f->cpu);
}

/* bonnie++'s latency: whole microseconds, milliseconds from 0.1 s, seconds from 100 s. */
static void lat_str(char *buf, size_t len, const struct test_fig *f)
{
	double s = f->lat_ns / 1e9;
	if (!f->run || f->lat_ns <= 0)
		buf[0] = 0;
	else if (s > 99.999999)
		snprintf(buf, len, "%ds", (int)s);
	else if (s > 0.099999)
		snprintf(buf, len, "%dms", (int)(s * 1000));
	else
		snprintf(buf, len, "%dus", (int)(s * 1e6));
}

/* The value as the CSV holds it: an integer (seeks with a decimal below 1000), +++++, or empty. */
static void csv_value(char *buf, size_t len, const struct test_fig *f, int test)
{
	if (!f->run)
		buf[0] = 0;
	else if (f->short_)
		snprintf(buf, len, "+++++");
	else if (test == T_SEEKS)
		snprintf(buf, len, f->value >= 1000 ? "%.0f" : "%.1f", f->value);
	else
		snprintf(buf, len, "%d", (int)f->value);
}

static void csv_cpu(char *buf, size_t len, const struct test_fig *f)
{
	if (!f->run)
		buf[0] = 0;
	else if (f->short_)
		snprintf(buf, len, "+++");
	else
		snprintf(buf, len, "%d", (int)f->cpu);
}

/* "64M", "2G": the file size in MiB, in GiB when whole. */
static void size_str(char *buf, size_t len, uint64_t size)
{
	uint64_t m = size / MIB;
	if (m && m % 1024 == 0)
		snprintf(buf, len, "%lluG", (unsigned long long)(m / 1024));
	else
		snprintf(buf, len, "%lluM", (unsigned long long)m);
}

/* The text's size field: SIZE, and :CHUNK, :SEEKS, :SEEKERS where they differ from bonnie++'s defaults. */
static void size_field(char *buf, size_t len, const struct bonnie_opts *b, uint64_t size)
{
	char s[32], ch[32];
	size_str(s, sizeof(s), size);
	print_size(b->chunk, ch, sizeof(ch));
	if (b->seekers != 5)
		snprintf(buf, len, "%s:%s:%u:%u", s, ch, b->seeks, b->seekers);
	else if (b->seeks != 8192)
		snprintf(buf, len, "%s:%s:%u", s, ch, b->seeks);
	else if (b->chunk != 8192)
		snprintf(buf, len, "%s:%s", s, ch);
	else
		snprintf(buf, len, "%s", s);
}

/* bonnie++'s 19 columns: the name cut to fit, a space, the size field at the right. */
static void label(char *buf, const char *name, const char *size)
{
	char tmp[64];
	size_t sl = strlen(size);
	snprintf(tmp, sizeof(tmp), "%.40s                   ", name);
	if (sl >= 18) {
		memcpy(buf, size, 19); /* bonnie++ shows the size alone, cut to the column */
		buf[19] = 0;
		return;
	}
	memcpy(buf, tmp, 18 - sl);
	buf[18 - sl] = ' ';
	memcpy(buf + 19 - sl, size, sl + 1);
}

static void files_field(char *buf, size_t len, const struct bonnie_opts *b)
{
	if (b->min_size)
		snprintf(buf, len, "%u:%llu:%llu", b->nfiles, (unsigned long long)b->max_size,
			 (unsigned long long)b->min_size);
	else if (b->max_size)
		snprintf(buf, len, "%u:%llu", b->nfiles, (unsigned long long)b->max_size);
	else
		snprintf(buf, len, "%u", b->nfiles);
	if (b->dirs > 1)
		snprintf(buf + strlen(buf), len - strlen(buf), "/%u", b->dirs);
}

/* bonnie++'s text table: from a run's figures (print_text) or from a CSV line (bonnie_csv_table). */
struct table {
	const char *version, *name;
	const char *size;  /* the size field; NULL: no block tests */
	const char *files; /* the files field; NULL: no file tests */
	int files_kind;    /* 0 files, 1 files:max, 2 files:max:min */
	struct test_fig t[T_NR];
	const char *lat[T_NR]; /* a latency as a CSV line holds it; NULL: from t */
};

static void lat_cell(char *buf, size_t len, const struct table *b, int i)
{
	if (b->lat[i])
		snprintf(buf, len, "%s", b->t[i].missed ? "-" : b->lat[i]);
	else if (b->t[i].missed)
		snprintf(buf, len, "-");
	else
		lat_str(buf, len, &b->t[i]);
}

static void print_table(FILE *f, const struct table *b)
{
	char lab[32], v[32], cpu[16], lat[32];
	const struct test_fig *t = b->t;
	if (b->size) {
		fprintf(f, "Version %5s       ------Sequential Output------ --Sequential Input- --Random-\n", b->version);
		fprintf(f, "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n");
		fprintf(f, "Name:Size etc        /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n");
		label(lab, b->name, b->size);
		fprintf(f, "%s", lab);
		for (int i = T_PUTC; i <= T_SEEKS; i++) {
			if (i == T_SEEKS)
				seeks_cell(v, sizeof(v), &t[i]);
			else
				io_cell(v, sizeof(v), &t[i]);
			cpu_cell(cpu, sizeof(cpu), &t[i]);
			fprintf(f, "%s%s", v, cpu);
		}
		fprintf(f, "\nLatency          ");
		for (int i = T_PUTC; i <= T_SEEKS; i++) {
			lat_cell(lat, sizeof(lat), b, i);
			fprintf(f, " %9s", lat);
		}
		fprintf(f, "\n");
	}
	if (b->files) {
		fprintf(f, "Version %5s       ------Sequential Create------ --------Random Create--------\n",
			b->version);
		fprintf(f, "%-19.19s -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n", b->name);
		fprintf(f, "%s /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP\n",
			b->files_kind == 2 ? "files:max:min       " : b->files_kind == 1 ? "files:max           " :
									   "              files ");
		fprintf(f, "%19s", b->files);
		for (int i = T_SCREATE; i <= T_RDELETE; i++) {
			files_cell(v, sizeof(v), &t[i]);
			cpu_cell(cpu, sizeof(cpu), &t[i]);
			fprintf(f, "%s%s", v, cpu);
		}
		fprintf(f, "\nLatency          ");
		for (int i = T_SCREATE; i <= T_RDELETE; i++) {
			lat_cell(lat, sizeof(lat), b, i);
			fprintf(f, " %9s", lat);
		}
		fprintf(f, "\n");
	}
}

static void print_text(FILE *f, const struct suite_run *sr)
{
	const struct bonnie_opts *b = bonnie_opts_c(sr->s);
	struct table tb = { .version = IOGAUGE_VERSION, .files_kind = b->min_size ? 2 : b->max_size ? 1 : 0 };
	char name[256], sz[128], files[128];
	for (int i = 0; i < T_NR; i++)
		tb.t[i] = figure(sr, i);
	machine_name(sr->s, name, sizeof(name));
	tb.name = name;
	if (sr->targets[0].size) {
		size_field(sz, sizeof(sz), b, sr->targets[0].size);
		tb.size = sz;
	}
	if (b->nfiles) {
		files_field(files, sizeof(files), b);
		tb.files = files;
	}
	print_table(f, &tb);
}

/* A CSV cell as the table's figure: a number, +++++ (too short to time), or empty (not run). */
static void csv_fig(const char *v, const char *cpu, struct test_fig *t)
{
	char *end;
	t->run = *v != 0;
	t->short_ = *v == '+';
	t->value = strtod(v, &end);
	t->cpu = strtod(cpu, &end);
}

int bonnie_csv_table(FILE *f, const char *line, struct ig_err *e)
{
	char buf[4096], *fl[BONNIE_CSV_FIELDS + 1] = { 0 };
	unsigned n = 0;
	snprintf(buf, sizeof(buf), "%s", line);
	buf[strcspn(buf, "\r\n")] = 0;
	for (char *p = buf; n <= BONNIE_CSV_FIELDS;) {
		fl[n++] = p;
		char *c = strchr(p, ',');
		if (!c)
			break;
		*c = 0;
		p = c + 1;
	}
	if (n != BONNIE_CSV_FIELDS || (strcmp(fl[0], "1.97") && strcmp(fl[0], "1.98")))
		return err_set(e, EXIT_USAGE, "not a bonnie++ CSV line of format 1.97 or 1.98 (%u fields, %d expected)", n,
			       BONNIE_CSV_FIELDS);
	/* 5 size, 6 chunk, 7 seeks, 8 seekers; 9-20 the block tests; 21-25 files; 26-37 file tests; 38-49 latencies. */
	struct table tb = { .version = fl[1], .name = fl[2] };
	char size[128], files[128];
	if (*fl[5]) {
		long seeks = atol(fl[7]), seekers = atol(fl[8]);
		const char *chunk = *fl[6] ? fl[6] : "8k";
		if (seekers && seekers != 5)
			snprintf(size, sizeof(size), "%s:%s:%ld:%ld", fl[5], chunk, seeks, seekers);
		else if (seeks && seeks != 8192)
			snprintf(size, sizeof(size), "%s:%s:%ld", fl[5], chunk, seeks);
		else if (*fl[6])
			snprintf(size, sizeof(size), "%s:%s", fl[5], fl[6]);
		else
			snprintf(size, sizeof(size), "%s", fl[5]);
		tb.size = size;
	}
	if (*fl[21]) {
		snprintf(files, sizeof(files), "%s%s%s%s%s%s%s", fl[21], *fl[22] ? ":" : "", fl[22], *fl[23] ? ":" : "",
			 fl[23], *fl[24] ? "/" : "", fl[24]);
		tb.files = files;
		tb.files_kind = *fl[23] ? 2 : *fl[22] ? 1 : 0;
	}
	for (int i = 0; i < T_NR; i++) {
		unsigned at = i < 6 ? 9 + 2 * (unsigned)i : 26 + 2 * (unsigned)(i - 6);
		csv_fig(fl[at], fl[at + 1], &tb.t[i]);
		tb.lat[i] = fl[38 + i];
	}
	print_table(f, &tb);
	fprintf(f, "%.*s\n", (int)strcspn(line, "\r\n"), line); /* then the line itself, as bonnie++ prints it */
	return ferror(f) ? err_set(e, EXIT_IOERR, "cannot write bonnie++'s table") : 0;
}

/* bonnie++'s CSV line, format 1.98: 50 fields (see docs/json.md and classic-formats 4.3). */
static void csv_line(char *out, size_t len, const struct suite_run *sr)
{
	const struct bonnie_opts *b = bonnie_opts_c(sr->s);
	struct test_fig t[T_NR];
	char name[256], sz[32], v[32], c[16];
	size_t k = 0;
#define ADD(...) (k += (size_t)snprintf(out + k, k < len ? len - k : 0, __VA_ARGS__))
	for (int i = 0; i < T_NR; i++)
		t[i] = figure(sr, i);
	machine_name(sr->s, name, sizeof(name));
	ADD("1.98,%s,%s,1,%llu", IOGAUGE_VERSION, name, (unsigned long long)sr->base->randseed);
	if (sr->targets[0].size) {
		size_str(sz, sizeof(sz), sr->targets[0].size);
		ADD(",%s,,%u,%u", sz, b->seeks, b->seekers);
		for (int i = T_PUTC; i <= T_SEEKS; i++) {
			csv_value(v, sizeof(v), &t[i], i);
			csv_cpu(c, sizeof(c), &t[i]);
			ADD(",%s,%s", v, c);
		}
	} else {
		ADD(",,,,,,,,,,,,,,,,");
	}
	if (b->nfiles) {
		ADD(",%u", b->nfiles);
		if (b->max_size)
			ADD(",%llu", (unsigned long long)b->max_size);
		else
			ADD(",");
		if (b->min_size)
			ADD(",%llu", (unsigned long long)b->min_size);
		else
			ADD(",");
		if (b->dirs > 1)
			ADD(",%u,", b->dirs);
		else
			ADD(",,");
		for (int i = T_SCREATE; i <= T_RDELETE; i++) {
			csv_value(v, sizeof(v), &t[i], i);
			csv_cpu(c, sizeof(c), &t[i]);
			ADD(",%s,%s", v, c);
		}
	} else {
		ADD(",,,,,,,,,,,,,,,,,");
	}
	for (int i = 0; i < T_NR; i++) {
		lat_str(v, sizeof(v), &t[i]);
		ADD(",%s", v);
	}
#undef ADD
}

static void print_bonnie(FILE *f, const struct suite_run *sr)
{
	const struct suite_target *q = &sr->targets[0];
	const struct bonnie_opts *b = bonnie_opts_c(sr->s);
	char sz[32], ch[32], line[2048];
	if (q->refused.status) {
		suite_print_header(f, sr, 0);
		return;
	}
	/* What the figures are, on stderr: the tables themselves stay bonnie++'s (not again from a saved result). */
	if (sr->out)
		fprintf(stderr, "iogauge bonnie: %s (%s on %s), file %s in %s blocks, %u x 1024 files; %s; "
				"%s; +++++: a test under 0.5 s\n",
			q->shown, q->info.fstype[0] ? q->info.fstype : "unknown fs",
			q->info.device[0] ? q->info.device : "no block device",
			fmt_bytes(sz, sizeof(sz), (double)sr->targets[0].size),
			fmt_bytes(ch, sizeof(ch), (double)b->chunk), b->nfiles,
			b->direct ? "block tests O_DIRECT, per-character through stdio" : "buffered, through the page cache",
			b->keep_cache ? "the page cache is kept between tests (--keep-cache): reads may come from it" :
					"the page cache is dropped before each read test");
	print_text(b->csv && sr->out ? stderr : f, sr);
	csv_line(line, sizeof(line), sr);
	fprintf(f, "%s\n", line);
}

static json_t *bonnie_json(const struct suite_run *sr)
{
	static const char *const units[T_NR] = { "KiB/s", "KiB/s", "KiB/s", "KiB/s", "KiB/s", "seeks/s",
						 "files/s", "files/s", "files/s", "files/s", "files/s", "files/s" };
	json_t *o = json_object(), *tests = json_object();
	char line[2048];
	for (int i = 0; i < T_NR; i++) {
		struct test_fig f = figure(sr, i);
		if (!f.run)
			continue;
		json_t *t = json_object();
		json_object_set_new(t, "value", json_real(f.value));
		json_object_set_new(t, "unit", json_string(units[i]));
		json_object_set_new(t, "cpu_pct", json_real(f.cpu));
		json_object_set_new(t, "latency_max_ns", json_real(f.lat_ns));
		json_object_set_new(t, "seconds", json_real(f.seconds));
		/* bonnie++ hides these behind +++++; the value is kept, marked. */
		json_object_set_new(t, "too_short", json_boolean(f.short_));
		json_object_set_new(tests, test_names[i], t);
	}
	csv_line(line, sizeof(line), sr);
	json_t *opts = json_object();
	OPTIONS_EACH(d) {
		if (!option_owned(d, sr->cmd))
			continue;
		char v[256];
		option_print(d, sr->base, sr->s, v, sizeof(v));
		json_object_set_new(opts, d->name, json_string(v));
	}
	json_object_set_new(o, RK_OPTIONS, opts);
	json_object_set_new(o, "file_size", json_integer((json_int_t)sr->targets[0].size));
	json_object_set_new(o, "tests", tests);
	json_object_set_new(o, "csv", json_string(line));
	return o;
}

static const struct suite bonnie = {
	.print = print_bonnie,
	.flags = SUITE_ONE_TARGET | SUITE_DIRS_ONLY | SUITE_EXACT_SIZE,
	.size_opts = "s",
	.plan = plan,
	.json = bonnie_json,
};

const struct command cmd_bonnie = {
	.name = "bonnie",
	.usage = "iogauge bonnie [OPTIONS] [PATH]",
	.summary = "bonnie++'s tests: per-character and block output, rewrite, input, seeks, file create/stat/delete",
	.description =
		"In a directory PATH (default .): per-character output through stdio putc, block output, "
		"rewrite (each block read, changed and written back), per-character input through getc, "
		"block input, random seeks (several seeker threads, a tenth of the blocks rewritten), then "
		"sequential and random create, stat (read, when the files hold data) and delete of -n N x "
		"1024 files, each with its rate, %CPU and slowest request. The file is twice the RAM "
		"unless -s and -r say otherwise, as bonnie++ insists, and a file that does not fit is "
		"refused. The page cache is dropped before each read test; --keep-cache keeps it, as "
		"bonnie++ does (which, with a file smaller than the RAM, reads the cache). Prints "
		"bonnie++'s text table and its CSV line (format 1.98; bon_csv2txt and bon_csv2html read it); with -q the CSV alone on stdout and the table on stderr. A test "
		"shorter than 0.5 s shows +++++ as in bonnie++; the JSON keeps its value, marked too_short.",
	.groups = OG_RESULTS | OG_KEEP | OG_SUITE | OG_DATA | OG_VERIFY | OG_SAVE | OG_STORE,
	.defaults = "--ioengine=psync --direct=0 --numjobs=1 --iodepth=1 --runtime=0 --ramp_time=0 "
		    "--time_based=0 --invalidate=1 --group_reporting=1",
	.suite = &bonnie,
};
