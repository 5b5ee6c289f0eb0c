/*
 * `iogauge quick`: CrystalDiskMark's default profile.  The suite is a table
 * of jobs plus a formatter; every test runs through the runner.
 */
#include "common.h"
#include "commands.h"
#include "options.h"
#include "runner.h"
#include "report/report.h"
#include "engines/engine.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define MIN_FREE (64ULL << 20)

struct quick_test {
	const char *label;
	uint64_t bs;
	unsigned depth;
	bool random;
};

static const struct quick_test tests[] = {
	{ "SEQ1M Q8T1", 1 << 20, 8, false },
	{ "SEQ1M Q1T1", 1 << 20, 1, false },
	{ "RND4K Q32T1", 4096, 32, true },
	{ "RND4K Q1T1", 4096, 1, true },
};
#define NTESTS ARRAY_SIZE(tests)

/* One measured cell: figures of one test, one direction, one pass. */
struct cell {
	double mbs, iops, mean_ns, p99_ns;
	bool done; /* measured (possibly cut short by a signal or an error) */
};

struct quick_target {
	char path[PATH_MAX];     /* the test file or device */
	char shown[PATH_MAX];    /* what the user named */
	struct target info;      /* fstype, device: from the first run */
	uint64_t size;
	bool shrunk, fallback;
	uint64_t layout_ns;      /* writing a device's region before the reads */
	bool is_dev;
	uint64_t free_bytes;
	struct cell *cells;      /* [pass][test][ddir] */
	uint64_t req[DDIR_NR], dev[DDIR_NR];
	bool dev_ok;
};

static struct cell *cell_at(struct quick_target *q, unsigned pass, unsigned t, int d)
{
	return &q->cells[(pass * NTESTS + t) * DDIR_NR + d];
}

/* Decide the file and its size; shrink it when space is short. */
static void resolve_target(struct quick_target *q, const char *path, uint64_t size,
			   bool allow_destroy)
{
	struct stat st;
	snprintf(q->shown, sizeof(q->shown), "%s", path);
	if (stat(path, &st))
		die_usage("%s: %s", path, strerror(errno));
	q->size = size;
	if (S_ISBLK(st.st_mode)) {
		/* The write tests come after the reads: refuse now, before any I/O. */
		if (safety_check_blockdev(path, allow_destroy))
			exit(EXIT_USAGE);
		snprintf(q->path, sizeof(q->path), "%s", path);
		q->is_dev = true;
		uint64_t devsize = 0;
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || ioctl(fd, BLKGETSIZE64, &devsize))
			die_usage("%s: %s", path, strerror(errno));
		close(fd);
		if (devsize < size) {
			q->size = devsize & ~((1ULL << 20) - 1);
			q->shrunk = true;
		}
		return;
	}
	if (!S_ISDIR(st.st_mode))
		die_usage("%s: not a directory or block device (quick writes its own test file there)", path);
	if ((size_t)snprintf(q->path, sizeof(q->path), "%s/iogauge-quick.%d.tmp", path, (int)getpid()) >=
	    sizeof(q->path))
		die_usage("%s: path too long", path);
	struct statvfs vfs;
	if (statvfs(path, &vfs))
		die_usage("%s: %s", path, strerror(errno));
	q->free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (!vfs.f_blocks)
		return; /* no size reported (ramfs): a full disk would show as ENOSPC */
	if (q->free_bytes < MIN_FREE) {
		char b[32];
		msg_err("%s: only %s free; quick needs at least 64 MiB", path,
			fmt_bytes(b, sizeof(b), (double)q->free_bytes));
		exit(EXIT_IOERR);
	}
	/* Leave a tenth of the free space (and the file system's own needs) alone. */
	uint64_t room = q->free_bytes / 10 * 9;
	if (size > room) {
		q->size = room & ~((1ULL << 20) - 1);
		q->shrunk = true;
	}
}

static void fill_job(struct job *j, const struct job *user, const struct quick_target *q,
		     const struct quick_test *t, int d)
{
	*j = *user;
	snprintf(j->name, sizeof(j->name), "%s %s", t->label, d == DDIR_READ ? "read" : "write");
	snprintf(j->filename, sizeof(j->filename), "%s", q->path);
	j->size = q->size;
	j->bs = t->bs;
	j->iodepth = t->depth;
	j->numjobs = 1;
	j->rw = t->random ? (d == DDIR_READ ? RW_RANDREAD : RW_RANDWRITE) : (d == DDIR_READ ? RW_READ : RW_WRITE);
	j->time_based = true;
	j->invalidate = true;
	if (j->engine->flags & ENGINE_SYNC)
		j->iodepth = 1;
}

static void record(struct quick_target *q, unsigned pass, unsigned ti, int d, const struct run_result *r,
		   json_t *runs)
{
	const struct job_result *jr = &r->jobs[0];
	const struct thread_stats *s = &jr->total;
	struct cell *c = cell_at(q, pass, ti, d);
	c->mbs = result_bw(s, d) / 1e6;
	c->iops = result_iops(s, d);
	c->mean_ns = lat_mean(&s->d[d].clat);
	c->p99_ns = (double)report_pct(s, d, 99.0);
	c->done = s->elapsed_ns > 0;
	if (!q->info.path[0])
		q->info = jr->targets[0];
	q->fallback |= jr->buffered_fallback;
	q->req[d] += s->d[d].bytes;
	if (r->ndevs && r->devs[0].ok) {
		q->dev_ok = true;
		q->dev[d] += (d == DDIR_READ ? r->devs[0].rd_sectors : r->devs[0].wr_sectors) * 512;
	}
	if (runs) {
		json_t *o = report_json(r, "quick");
		json_t *jobs = json_object_get(o, "jobs");
		size_t i;
		json_t *jj;
		json_array_foreach(jobs, i, jj) {
			json_object_set_new(jj, "test", json_string(tests[ti].label));
			json_object_set_new(jj, "pass", json_integer(pass + 1));
			json_object_set(jj, "devices", json_object_get(o, "devices"));
			json_array_append(runs, jj);
		}
		json_decref(o);
	}
}

/* A progress line with ETA, on a terminal only: logs and pipes stay clean. */
static void progress(const struct quick_target *q, const struct settings *s, unsigned pass,
		     unsigned step, const struct job *j)
{
	if (s->quiet || !isatty(STDERR_FILENO))
		return;
	unsigned left = (s->passes - pass) * NTESTS * DDIR_NR - step;
	double eta = (double)left * (double)(j->runtime_ns + j->ramp_ns) / 1e9;
	fprintf(stderr, "\r\033[Kiogauge: %s: pass %u/%u, %s ... about %.0f s left", q->shown, pass + 1,
		s->passes, j->name, eta);
	if (left == 1)
		fprintf(stderr, "\r\033[K");
	fflush(stderr);
}

/*
 * A device is never laid out by the runner (it reads whatever is there), but
 * unwritten or trimmed blocks read faster than data: write the region first.
 * Shown, never counted.
 */
static int layout_device(struct quick_target *q, const struct job *user, const struct settings *s)
{
	struct job j = *user;
	snprintf(j.name, sizeof(j.name), "layout");
	snprintf(j.filename, sizeof(j.filename), "%s", q->path);
	j.size = q->size;
	j.bs = 1 << 20;
	j.rw = RW_WRITE;
	j.iodepth = j.engine->flags & ENGINE_SYNC ? 1 : 8;
	j.numjobs = 1;
	j.time_based = false;
	j.runtime_ns = j.ramp_ns = 0;
	struct run_result r;
	int rc = runner_run(&j, 1, s, &r);
	q->layout_ns = r.jobs[0].total.elapsed_ns;
	if (rc)
		report_errors(&r);
	run_result_free(&r);
	return rc;
}

/* Runs every test of one target; false when interrupted or failed. */
static int run_target(struct quick_target *q, const struct job *user, const struct settings *s,
		      unsigned pass, json_t *runs)
{
	for (int d = 0; d < DDIR_NR; d++) {
		for (unsigned ti = 0; ti < NTESTS; ti++) {
			struct job j;
			fill_job(&j, user, q, &tests[ti], d);
			progress(q, s, pass, d * NTESTS + ti, &j);
			struct run_result r;
			int rc = runner_run(&j, 1, s, &r);
			record(q, pass, ti, d, &r, runs);
			if (rc || r.interrupted) {
				report_errors(&r);
				run_result_free(&r);
				return rc ? rc : 128 + (int)g_stop;
			}
			run_result_free(&r);
		}
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median, min and max of one figure over the passes measured; NAN when none. */
static void summarize(struct quick_target *q, unsigned passes, unsigned ti, int d, size_t field,
		      double out[3])
{
	double v[passes];
	unsigned n = 0;
	for (unsigned p = 0; p < passes; p++)
		if (cell_at(q, p, ti, d)->done)
			v[n++] = *(double *)((char *)cell_at(q, p, ti, d) + field);
	if (!n) {
		out[0] = out[1] = out[2] = NAN;
		return;
	}
	qsort(v, n, sizeof(double), cmp_double);
	out[0] = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	out[1] = v[0];
	out[2] = v[n - 1];
}

/* A figure, or "-" where nothing was measured. */
static void print_num(FILE *f, double v, int prec)
{
	if (isnan(v))
		fprintf(f, " %9s", "-");
	else
		fprintf(f, " %9.*f", prec, v);
}

static void print_header(FILE *f, const struct quick_target *q, const struct job *user, const struct settings *s)
{
	char sz[32];
	const struct target *t = &q->info;
	fprintf(f, "iogauge quick: %s", q->shown);
	if (t->is_blockdev)
		fprintf(f, " (block device, region written in %.2f s before the reads, not timed)",
			(double)q->layout_ns / 1e9);
	else
		fprintf(f, " (%s on %s)", t->fstype[0] ? t->fstype : "unknown fs", t->device[0] ? t->device : "no block device");
	fprintf(f, ", %s %s%s, %s, %s, random data, %g s a test after %g s ramp, %u pass%s\n",
		t->is_blockdev ? "region" : "file", fmt_bytes(sz, sizeof(sz), (double)q->size), q->shrunk ? (t->is_blockdev ? " (the whole device)" : " (shrunk: short of free space)") : "",
		q->fallback ? "buffered (the file system refuses O_DIRECT): cache invalidated before reads, "
			      "writes timed to fsync"
			    : user->direct ? "O_DIRECT" : "buffered",
		user->engine->name, (double)user->runtime_ns / 1e9, (double)user->ramp_ns / 1e9, s->passes,
		s->passes == 1 ? "" : "es (median, min-max)");
}

static void print_table(FILE *f, struct quick_target *q, const struct job *user, const struct settings *s)
{
	unsigned passes = s->passes;
	print_header(f, q, user, s);
	fprintf(f, "%-12s|%-38s|%s\n", "", passes > 1 ? "  Read" : "  Read", "  Write");
	fprintf(f, "%-12s|", "Test");
	for (int d = 0; d < DDIR_NR; d++) {
		fprintf(f, " %9s", "MB/s");
		if (passes > 1)
			fprintf(f, " %19s", "min-max");
		fprintf(f, " %9s %9s %9s%s", "IOPS", "mean us", "p99 us", d ? "\n" : " |");
	}
	for (unsigned ti = 0; ti < NTESTS; ti++) {
		fprintf(f, "%-12s|", tests[ti].label);
		for (int d = 0; d < DDIR_NR; d++) {
			double mbs[3], iops[3], mean[3], p99[3];
			summarize(q, passes, ti, d, offsetof(struct cell, mbs), mbs);
			summarize(q, passes, ti, d, offsetof(struct cell, iops), iops);
			summarize(q, passes, ti, d, offsetof(struct cell, mean_ns), mean);
			summarize(q, passes, ti, d, offsetof(struct cell, p99_ns), p99);
			print_num(f, mbs[0], 2);
			if (passes > 1) {
				char range[48] = "-";
				if (!isnan(mbs[0]))
					snprintf(range, sizeof(range), "%.2f-%.2f", mbs[1], mbs[2]);
				fprintf(f, " %19s", range);
			}
			if (tests[ti].random) {
				print_num(f, iops[0], 0);
				print_num(f, mean[0] / 1e3, 1);
				print_num(f, p99[0] / 1e3, 1);
			} else
				fprintf(f, " %9s %9s %9s", "-", "-", "-");
			fprintf(f, "%s", d ? "\n" : " |");
		}
	}
	if (q->dev_ok) {
		char a[32], b[32], c[32], e[32];
		fprintf(f, "Device %s: read %s for %s requested, wrote %s for %s requested (measured parts)\n",
			q->info.device, fmt_bytes(a, sizeof(a), (double)q->dev[DDIR_READ]),
			fmt_bytes(b, sizeof(b), (double)q->req[DDIR_READ]),
			fmt_bytes(c, sizeof(c), (double)q->dev[DDIR_WRITE]),
			fmt_bytes(e, sizeof(e), (double)q->req[DDIR_WRITE]));
	}
}

static json_t *json_figure(const double v[3])
{
	if (isnan(v[0]))
		return json_null(); /* not measured */
	json_t *o = json_object();
	json_object_set_new(o, "median", json_real(v[0]));
	json_object_set_new(o, "min", json_real(v[1]));
	json_object_set_new(o, "max", json_real(v[2]));
	return o;
}

static json_t *json_target(struct quick_target *q, unsigned passes)
{
	static const char *const keys[] = { "mb_s", "iops", "lat_mean_ns", "lat_p99_ns" };
	static const size_t fields[] = { offsetof(struct cell, mbs), offsetof(struct cell, iops),
					 offsetof(struct cell, mean_ns), offsetof(struct cell, p99_ns) };
	json_t *o = json_object();
	json_object_set_new(o, "path", json_text(q->shown));
	json_object_set_new(o, "file", json_text(q->path));
	json_object_set_new(o, "fstype", json_text(q->info.fstype));
	json_object_set_new(o, "device", json_text(q->info.device));
	json_object_set_new(o, "size", json_integer((json_int_t)q->size));
	json_object_set_new(o, "shrunk", json_boolean(q->shrunk));
	json_object_set_new(o, "buffered_fallback", json_boolean(q->fallback));
	json_t *rows = json_array();
	for (unsigned ti = 0; ti < NTESTS; ti++) {
		json_t *row = json_object();
		json_object_set_new(row, "test", json_string(tests[ti].label));
		for (int d = 0; d < DDIR_NR; d++) {
			json_t *x = json_object();
			for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
				double v[3];
				summarize(q, passes, ti, d, fields[k], v);
				json_object_set_new(x, keys[k], json_figure(v));
			}
			json_object_set_new(row, d == DDIR_READ ? "read" : "write", x);
		}
		json_array_append_new(rows, row);
	}
	json_object_set_new(o, "rows", rows);
	return o;
}

/* Several targets: one line per test, a column per target. */
static void print_comparison(FILE *f, struct quick_target *qs, unsigned n, unsigned passes)
{
	/* Columns as wide as the paths: long paths must stay tellable apart. */
	int w = 21;
	for (unsigned i = 0; i < n; i++)
		if ((int)strlen(qs[i].shown) > w)
			w = (int)strlen(qs[i].shown);
	fprintf(f, "\nMB/s (read / write), median of %u pass%s:\n%-12s", passes, passes == 1 ? "" : "es", "Test");
	for (unsigned i = 0; i < n; i++)
		fprintf(f, " | %-*s", w, qs[i].shown);
	fprintf(f, "\n");
	for (unsigned ti = 0; ti < NTESTS; ti++) {
		fprintf(f, "%-12s", tests[ti].label);
		for (unsigned i = 0; i < n; i++) {
			double r[3], wr[3];
			char cell[64];
			summarize(&qs[i], passes, ti, DDIR_READ, offsetof(struct cell, mbs), r);
			summarize(&qs[i], passes, ti, DDIR_WRITE, offsetof(struct cell, mbs), wr);
			snprintf(cell, sizeof(cell), "%9.2f / %9.2f", r[0], wr[0]);
			fprintf(f, " | %-*s", w, cell);
		}
		fprintf(f, "\n");
	}
}

static void quick_defaults(struct parsed_args *pa)
{
	options_defaults(&pa->global, &pa->settings);
	pa->global.size = 1ULL << 30;
	pa->global.runtime_ns = 5 * NSEC_PER_SEC;
	pa->global.ramp_ns = 1 * NSEC_PER_SEC;
	pa->global.direct = true;
	pa->global.engine = engine_default();
}

int cmd_quick(int argc, char **argv)
{
	struct parsed_args pa = { 0 };
	quick_defaults(&pa);
	args_parse(argc, argv, CMD_QUICK, &pa);
	if (pa.help) {
		options_help(stdout, CMD_QUICK);
		args_free(&pa);
		return 0;
	}
	struct settings *s = &pa.settings;
	if (pa.global.size < (1ULL << 20))
		die_usage("--size: quick needs at least 1 MiB (its largest request)");
	if (!pa.global.runtime_ns)
		die_usage("--runtime: quick's tests are timed; give a time above 0");
	unsigned n = pa.nwords ? pa.nwords : 1;
	struct quick_target *qs = xcalloc(n, sizeof(*qs));
	for (unsigned i = 0; i < n; i++) {
		resolve_target(&qs[i], pa.nwords ? pa.words[i] : ".", pa.global.size, s->allow_destroy);
		qs[i].cells = xcalloc((size_t)s->passes * NTESTS * DDIR_NR, sizeof(struct cell));
	}
	FILE *out = report_open("output", s->output);
	FILE *jsonf = s->json[0] ? report_open("json", s->json) : NULL;
	bool want_json = s->output_format == OUT_JSON || s->json[0];
	json_t *runs = want_json ? json_array() : NULL;
	int status = 0;
	unsigned tested = 0;
	for (unsigned i = 0; i < n && !status; i++, tested++) {
		if (qs[i].is_dev)
			status = layout_device(&qs[i], &pa.global, s);
		for (unsigned p = 0; p < s->passes && !status; p++)
			status = run_target(&qs[i], &pa.global, s, p, runs);
		/* The file is needed only while its target is tested. */
		if (!s->keep)
			cleanup_files();
		if (qs[i].shrunk && !qs[i].info.is_blockdev)
			msg_warn("%s: the test file was shrunk to fit the free space", qs[i].shown);
		/* Whatever was measured is printed, also after Ctrl-C or an error. */
		if (s->output_format == OUT_NORMAL)
			print_table(out, &qs[i], &pa.global, s);
	}
	if (status && s->output_format == OUT_NORMAL)
		fprintf(out, "%s: the figures above cover what was measured until then; '-' was not measured.\n",
			status == EXIT_IOERR ? "Stopped by an I/O error" : "Interrupted");
	if (!status && n > 1 && s->output_format == OUT_NORMAL)
		print_comparison(out, qs, n, s->passes);
	if (want_json) {
		json_t *root = json_root("quick");
		json_object_set_new(root, "interrupted", json_boolean(status > EXIT_USAGE));
		json_object_set_new(root, "status", json_integer(status));
		json_t *suite = json_object();
		json_object_set_new(suite, "name", json_string("quick"));
		json_object_set_new(suite, "passes", json_integer(s->passes));
		json_t *targets = json_array();
		for (unsigned i = 0; i < tested; i++)
			json_array_append_new(targets, json_target(&qs[i], s->passes));
		json_object_set_new(suite, "targets", targets);
		json_object_set_new(root, "suite", suite);
		json_object_set_new(root, "jobs", runs);
		runs = NULL;
		if (s->output_format == OUT_JSON && report_json_dump(root, out, s->output[0] ? s->output : "stdout") &&
		    !status)
			status = EXIT_IOERR;
		if (jsonf && report_json_dump(root, jsonf, s->json) && !status)
			status = EXIT_IOERR;
		json_decref(root);
	}
	json_decref(runs);
	if (out != stdout)
		fclose(out);
	if (jsonf && jsonf != stdout)
		fclose(jsonf);
	for (unsigned i = 0; i < n; i++)
		free(qs[i].cells);
	free(qs);
	args_free(&pa);
	return status;
}
