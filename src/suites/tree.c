/*
 * `iogauge tree DIR`: seed 003's whole-file-system read — `tar cf - . | dd
 * of=/dev/null bs=1M` with 2 to 25 parallel streams, and md5 of every file
 * (tracemini) — as a table of cases: one stream count each, a tree job
 * (tree.h) that reads every regular file of DIR whole, the files split among
 * the streams.  The executor (suite_exec.c) runs them; this file makes the cases,
 * hangs the tree on each case's job, and prints per stream count the files,
 * bytes, MB/s, files/s, p99 per-file latency, CPU and, with --hash or
 * --compress, the read rate alone, the checksum's rate and the compression
 * ratio, with the best stream count by scale's knee rule (knee.c): the last
 * count where more streams still raised MB/s by more than they raised the
 * time each file takes.
 *
 * DIR is only read.  --make-tree builds a reproducible tree in a new
 * directory in DIR first, and removes it at the end unless --keep.
 */
#include "base/cluster.h"
#include "base/common.h"
#include "options/command.h"
#include "base/compress.h"
#include "base/digest.h"
#include "stats/knee.h"
#include "options/options.h"
#include "suites/tree_opts.h"
#include "suite/suite.h"
#include "run/tree.h"
#include "suites/tree_int.h"
#include "report/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_MAX_STREAMS 25 /* seed 003: at 25 streams the system chokes */

/* ---- options and cases */

static int start(struct suite_run *sr, struct job *base, struct ig_err *e)
{
	const struct tree_opts *o = tree_opts_c(sr->s);
	if (cluster_size() > 1)
		return err_set(e, EXIT_USAGE, "tree reads one tree from one machine: run it without mpirun");
	if (o->hash_out[0] && !o->hash)
		return err_set(e, EXIT_USAGE, "--hash-out: give --hash (md5, sha256, xxhash or crc32c)");
	if (o->level && !o->compress)
		return err_set(e, EXIT_USAGE, "--compress-level: give --compress (lzo, zlib or zstd)");
	if (o->level > compress_max_level(o->compress))
		return err_set(e, EXIT_USAGE, "--compress-level: %s takes 1 to %u", compress_names[o->compress],
			       compress_max_level(o->compress));
	if (o->make && o->fanout == 1)
		return err_set(e, EXIT_USAGE, "--tree-fanout=1 makes an endless chain; use 0 or at least 2");
	struct tree_priv *p = xcalloc(1, sizeof(*p));
	p->make = (struct tree_make){ .files = o->files, .size_lo = o->size_lo, .size_hi = o->size_hi,
				      .seed = o->seed, .per_dir = o->per_dir, .fanout = o->fanout,
				      .data = base->data };
	p->ntargets = sr->ntargets;
	p->npasses = sr->s->passes;
	p->trees = xcalloc(p->ntargets, sizeof(*p->trees));
	for (unsigned t = 0; t < p->ntargets; t++)
		tree_job_init(&p->trees[t]);
	sr->priv = p;
	return 0;
}

static void end(struct suite_run *sr)
{
	struct tree_priv *p = priv_of(sr);
	if (!p)
		return;
	for (unsigned t = 0; t < p->ntargets; t++) {
		tree_job_free(&p->trees[t]);
		if (p->bad)
			free(p->bad[t]);
	}
	free(p->bad);
	free(p->trees);
	free(p->runs);
	free(p);
	sr->priv = NULL;
}

/* The stream counts: --streams, or 1, 2, 4 ... up to twice the CPUs (at least 4, at most 25). */
static unsigned stream_counts(const struct tree_opts *o, unsigned *out)
{
	if (o->nstreams) {
		memcpy(out, o->streams, o->nstreams * sizeof(*out));
		return o->nstreams;
	}
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned max = cpus > 0 ? 2 * (unsigned)cpus : 4, n = 0;
	max = max < 4 ? 4 : max > DEFAULT_MAX_STREAMS ? DEFAULT_MAX_STREAMS : max;
	for (unsigned v = 1; v < max; v *= 2)
		out[n++] = v;
	out[n++] = max;
	return n;
}

static int plan(const struct suite_run *sr, struct job *base, struct suite_case **cases, unsigned *n,
		struct ig_err *e)
{
	unsigned counts[TREE_MAX_STREAMS];
	unsigned k = stream_counts(tree_opts_c(sr->s), counts);
	struct tree_priv *p = priv_of(sr);
	(void)base;
	(void)e;
	*cases = xcalloc(k, sizeof(**cases));
	for (unsigned i = 0; i < k; i++) {
		char name[32], opts[32];
		snprintf(name, sizeof(name), "%u stream%s", counts[i], counts[i] == 1 ? "" : "s");
		snprintf(opts, sizeof(opts), "--numjobs=%u", counts[i]);
		(*cases)[i].name = xstrdup(name);
		(*cases)[i].opts = xstrdup(opts);
	}
	*n = k;
	if (p) {
		p->ncases = k;
		p->runs = xcalloc((size_t)p->ntargets * p->npasses * k, sizeof(*p->runs));
	}
	return 0;
}

/* A case's job: the target's tree (built or walked at its first run), what the streams meet counted in its run. */
static void case_job(struct suite_run *sr, struct suite_target *t, unsigned c, struct job *j)
{
	struct tree_priv *p = priv_of(sr);
	const struct tree_opts *o = tree_opts_c(sr->s);
	unsigned ti = (unsigned)(t - sr->targets);
	struct tree_job *tj = &p->trees[ti];
	if (!tj->root[0]) {
		if (o->make && (size_t)snprintf(tj->root, sizeof(tj->root), "%s/iogauge-tree.%d.%u", t->file,
						(int)getpid(), ti) >= sizeof(tj->root))
			tj->root[0] = 0; /* too long: tree_prepare refuses an empty root */
		else if (!o->make)
			snprintf(tj->root, sizeof(tj->root), "%s", t->file);
		tj->make = o->make ? &p->make : NULL;
		tj->hash = o->hash;
		tj->compress = o->compress;
		tj->level = o->level;
		tj->keep_digests = o->hash && o->hash_out[0];
	}
	p->kept = sr->s->keep;
	tj->cur = run_at(sr, ti, sr->pass, c);
	if (tj->cur)
		memset(tj->cur, 0, sizeof(*tj->cur));
	j->plan.tree = tj;
	snprintf(j->filename, sizeof(j->filename), "%s", tj->root);
}

/* A target read: its size is the tree's bytes (the JSON's and the page's), not a test file's. */
static void target_done(FILE *f, struct suite_run *sr, unsigned t)
{
	const struct tree_priv *p = priv_of(sr);
	(void)f;
	if (p && t < p->ntargets && p->trees[t].walked)
		sr->targets[t].size = p->trees[t].walk.bytes;
}

/* ---- figures */

static double fig_median(const struct suite_run *sr, unsigned t, unsigned c, int fig)
{
	struct fig3 v = suite_fig(sr, t, c, FD_READ, fig);
	return v.n ? v.median : NAN;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median over the passes of what the streams counted (NAN: none known). */
static double run_median(const struct suite_run *sr, unsigned t, unsigned c,
			 double (*f)(const struct tree_case *r))
{
	double v[1000];
	unsigned n = 0;
	for (unsigned pass = 0; pass < sr->s->passes && n < 1000; pass++) {
		const struct tree_case *r = run_at(sr, t, pass, c);
		double x = r && r->done ? f(r) : NAN;
		if (!isnan(x))
			v[n++] = x;
	}
	if (!n)
		return NAN;
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double r_files(const struct tree_case *r)
{
	return (double)r->files;
}
static double r_bytes(const struct tree_case *r)
{
	return (double)r->bytes;
}
static double r_hash_mbs(const struct tree_case *r)
{
	return r->hash_ns ? (double)r->hash_bytes / (double)r->hash_ns * 1e3 : NAN;
}
static double r_ratio(const struct tree_case *r)
{
	return r->comp_out ? (double)r->comp_in / (double)r->comp_out : NAN;
}
static double r_work_ns(const struct tree_case *r)
{
	return (double)(r->hash_ns + r->comp_ns);
}
static double r_comp_mbs(const struct tree_case *r)
{
	return r->comp_ns ? (double)r->comp_in / (double)r->comp_ns * 1e3 : NAN;
}

static unsigned case_streams(const struct suite_run *sr, unsigned c)
{
	unsigned n = 0;
	if (sscanf(sr->suite->cases[c].opts, "--numjobs=%u", &n) != 1)
		n = 0;
	return n;
}

/* A run marked done once the executor recorded its case (the streams' counts are complete). */
static void mark_done(const struct suite_run *sr, unsigned t)
{
	for (unsigned pass = 0; pass < sr->s->passes; pass++)
		for (unsigned c = 0; c < sr->suite->ncases; c++) {
			struct tree_case *r = run_at(sr, t, pass, c);
			if (r && sr->targets[t].cells[pass * sr->suite->ncases + c].done)
				r->done = true;
		}
}

void tree_analyse(const struct suite_run *sr, unsigned t, struct curve *k)
{
	unsigned n = sr->suite->ncases, nl = 0;
	struct knee_pt *pts = xcalloc(n ? n : 1, sizeof(*pts));
	unsigned *idx = xcalloc(n ? n : 1, sizeof(unsigned));
	mark_done(sr, t);
	k->steps = xcalloc(n ? n : 1, sizeof(struct step));
	k->n = n;
	for (unsigned c = 0; c < n; c++) {
		struct step *s = &k->steps[c];
		s->streams = case_streams(sr, c);
		s->mbs = fig_median(sr, t, c, FIG_MBS);
		s->iops = fig_median(sr, t, c, FIG_IOPS);
		s->mean_ns = fig_median(sr, t, c, FIG_LAT_MEAN);
		s->p99_ns = fig_median(sr, t, c, FIG_LAT_P99);
		s->cpu = fig_median(sr, t, c, FIG_CPU);
		double secs = s->secs = fig_median(sr, t, c, FIG_SECONDS);
		/*
		 * Files in work at a time (Little's law): files/s x the time a file takes
		 * its stream, its I/O (the requests' time) and its checksum and compression.
		 */
		s->little_io = s->iops * s->mean_ns / 1e9;
		double work = run_median(sr, t, c, r_work_ns);
		s->little = s->little_io + (!isnan(work) && secs > 0 ? work / 1e9 / secs : 0);
		s->measured = !isnan(s->mbs) && s->mbs > 0 && s->little_io > 0;
		s->files = run_median(sr, t, c, r_files);
		s->bytes = run_median(sr, t, c, r_bytes);
		if (isnan(s->files))
			s->files = s->iops * secs; /* a saved result: the requests (a file, or a GiB of one) */
		if (isnan(s->bytes))
			s->bytes = s->mbs * 1e6 * secs;
		/* The streams' rate had they only read: bytes over the time files took, per stream. */
		s->read_mbs = s->measured ? s->mbs * s->streams / s->little_io : NAN;
		s->hash_mbs = run_median(sr, t, c, r_hash_mbs);
		s->ratio = run_median(sr, t, c, r_ratio);
		s->comp_mbs = run_median(sr, t, c, r_comp_mbs);
		struct fig3 res = { 0 };
		s->resident = NAN;
		for (unsigned pass = 0; pass < sr->s->passes; pass++) {
			const struct suite_cell *cell = &sr->targets[t].cells[pass * n + c];
			if (cell->done && cell->resident >= 0)
				res.median = fmax(res.median, (double)cell->resident), res.n++;
		}
		if (res.n)
			s->resident = res.median; /* the most any pass found cached */
		if (s->measured) {
			s->on_curve = true;
			pts[nl] = (struct knee_pt){ s->mbs, s->little };
			idx[nl++] = c;
		}
	}
	struct knee_out ko;
	knee_find(pts, nl, &ko);
	k->knee = ko.knee < 0 ? -1 : (int)idx[ko.knee];
	k->next = ko.next < 0 ? -1 : (int)idx[ko.next];
	k->gain = ko.gain;
	k->threshold = ko.threshold;
	free(pts);
	free(idx);
}

/* ---- text */

static const char *count(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v >= 1e7)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

static void tree_line(FILE *f, const struct suite_run *sr, unsigned t)
{
	const struct tree_priv *p = priv_of(sr);
	const struct tree_job *tj = p && t < p->ntargets ? &p->trees[t] : NULL;
	const struct tree_walk *w = tj ? &tj->walk : NULL;
	char a[32], b[32], c[32], d[128];
	if (!w || !tj->walked)
		return;
	if (tj->built) {
		data_print(&tj->make->data, d, sizeof(d));
		fprintf(f, "Built by iogauge in %s: %s files of %s to %s (log-uniform), %u a directory, fan-out %u, "
			   "%s data, seed %llu, in %.2f s (not timed)%s\n",
			tj->root, count(a, sizeof(a), (double)tj->make->files),
			fmt_bytes(b, sizeof(b), (double)tj->make->size_lo), fmt_bytes(c, sizeof(c), (double)tj->make->size_hi),
			tj->make->per_dir, tj->make->fanout, d, (unsigned long long)tj->make->seed,
			(double)tj->build_ns / 1e9, p->kept ? "; kept (--keep)" : "; removed at the end");
	}
	fprintf(f, "Tree: %s file%s, %s, in %s director%s, listed in %.2f s (not timed)\n",
		count(a, sizeof(a), (double)w->files), w->files == 1 ? "" : "s", fmt_bytes(b, sizeof(b), (double)w->bytes),
		count(c, sizeof(c), (double)w->dirs), w->dirs == 1 ? "y" : "ies", (double)w->walk_ns / 1e9);
	uint64_t skipped = w->symlinks + w->fifos + w->sockets + w->chardevs + w->blockdevs + w->other_fs +
			   w->unreadable + w->vanished;
	if (!skipped)
		return;
	fprintf(f, "Not read:");
	const char *sep = " ";
#define SAY(n, one, many, tail)                                                                     \
	do {                                                                                        \
		if (n) {                                                                            \
			fprintf(f, "%s%llu %s%s", sep, (unsigned long long)(n), (n) == 1 ? one : many, tail); \
			sep = ", ";                                                                 \
		}                                                                                   \
	} while (0)
	SAY(w->symlinks, "symbolic link", "symbolic links", " (never followed)");
	SAY(w->fifos, "FIFO", "FIFOs", "");
	SAY(w->sockets, "socket", "sockets", "");
	SAY(w->chardevs, "character device", "character devices", "");
	SAY(w->blockdevs, "block device", "block devices", "");
	SAY(w->other_fs, "directory", "directories", " of another file system (not entered)");
	SAY(w->vanished, "entry", "entries", " gone while listed");
	SAY(w->unreadable, "unreadable entry", "unreadable entries", "");
#undef SAY
	if (w->unreadable)
		fprintf(f, " (%s, the first)", w->first_unreadable);
	fprintf(f, "\n");
}

static void how_line(FILE *f, const struct suite_run *sr)
{
	const struct job *b = sr->base;
	const struct tree_opts *o = tree_opts_c(sr->s);
	char bs[32];
	fmt_bytes(bs, sizeof(bs), (double)b->bs);
	fprintf(f, "Each file read whole in %s reads, buffered, O_NOATIME where allowed; %s", bs,
		b->invalidate ? "every file's pages dropped from the page cache before each case (Resident: what stayed)" :
				"CACHED: the page cache is kept between cases (--keep-cache): reads may come from memory");
	if (o->hash)
		fprintf(f, "; %s of every file", digest_names[o->hash]);
	if (o->compress)
		fprintf(f, "; %s level %u of every file", compress_names[o->compress],
			o->level ? o->level : compress_default_level(o->compress));
	fprintf(f, "\n");
}

/* What the streams met since the walk, over every case and pass. */
static void met_line(FILE *f, const struct suite_run *sr, unsigned t)
{
	const struct tree_priv *p = priv_of(sr);
	uint64_t vanished = 0, changed = 0, unreadable = 0, failed = 0, first = 0;
	for (unsigned pass = 0; p && pass < sr->s->passes; pass++)
		for (unsigned c = 0; c < sr->suite->ncases; c++) {
			const struct tree_case *r = run_at(sr, t, pass, c);
			if (!r)
				continue;
			vanished += r->vanished;
			changed += r->changed;
			unreadable += r->unreadable;
			failed += r->comp_failed;
			first = first ? first : r->first_unreadable;
		}
	if (!(vanished + changed + unreadable + failed))
		return;
	fprintf(f, "While read (all cases): %llu file(s) gone, %llu changed (size or kind; no checksum or ratio for them), "
		   "%llu unreadable",
		(unsigned long long)vanished, (unsigned long long)changed, (unsigned long long)unreadable);
	if (first) {
		char name[PATH_MAX + 64];
		if (p->bad && p->bad[t])
			snprintf(name, sizeof(name), "%s", p->bad[t]);
		else
			tree_describe(&p->trees[t], first - 1, name, sizeof(name));
		fprintf(f, " (%s: %s)", name, strerror(EACCES));
	}
	if (failed)
		fprintf(f, ", %llu not compressed (changed under a pledged size)", (unsigned long long)failed);
	fprintf(f, "\n");
}

static void print_header(FILE *f, const struct suite_run *sr, unsigned ti)
{
	const struct suite_target *q = &sr->targets[ti];
	const struct target *t = &q->info;
	fprintf(f, "iogauge tree: %s", q->shown);
	if (q->refused.status) {
		fprintf(f, ": not measured: %s\n", q->refused.msg);
		return;
	}
	const char *rot = q->facts.rotational < 0 ? "" : q->facts.rotational ? ", rotational" : ", non-rotational";
	fprintf(f, " (%s on %s%s%s%s), %u pass%s\n",
		t->fstype[0] ? t->fstype : q->facts.fstype[0] ? q->facts.fstype : "unknown fs",
		t->device[0] ? t->device : q->facts.device[0] ? q->facts.device : "no block device",
		q->facts.mntopts[0] ? ", " : "", q->facts.mntopts, rot, sr->s->passes,
		sr->s->passes == 1 ? "" : "es (median, min-max)");
}

/* The most MB/s, when it is not the knee's: what the knee's rule gave up for the time a file takes. */
static void fastest(FILE *f, const struct curve *k)
{
	int best = -1;
	for (unsigned c = 0; c < k->n; c++)
		if (k->steps[c].measured && (best < 0 || k->steps[c].mbs > k->steps[best].mbs))
			best = (int)c;
	if (best < 0 || best == k->knee)
		return;
	const struct step *s = &k->steps[best], *b = &k->steps[k->knee];
	fprintf(f, "Fastest: %u stream%s: %.1f MB/s (%.2f x the knee's), p99 %.2f ms a file (%.2f x)\n", s->streams,
		s->streams == 1 ? "" : "s", s->mbs, s->mbs / b->mbs, s->p99_ns / 1e6,
		b->p99_ns > 0 ? s->p99_ns / b->p99_ns : NAN);
}

/* Pages the drop could not remove (dirty, or --keep-cache): those reads came partly from memory. */
static void cached_line(FILE *f, const struct curve *k)
{
	double most = 0, bytes = 0;
	for (unsigned c = 0; c < k->n; c++)
		if (k->steps[c].measured && k->steps[c].resident > most) {
			most = k->steps[c].resident;
			bytes = k->steps[c].bytes;
		}
	if (most <= 0)
		return;
	/* A few dirty KiB of a big tree are still said, not rounded to 0.0%. */
	double pct = bytes > 0 ? 100 * most / bytes : 100.0;
	char share[32];
	snprintf(share, sizeof(share), pct < 0.1 ? "under 0.1%%" : "%.1f%%", pct);
	fprintf(f, "CACHED: up to %s of the bytes were in the page cache before a case (Resident): those reads "
		   "came partly from memory, not the device\n", share);
}

static void explain(FILE *f, const struct curve *k)
{
	char name[64], nn[64];
	if (k->knee < 0) {
		fprintf(f, "Best: none (nothing was measured)\n");
		return;
	}
	const struct step *s = &k->steps[k->knee];
	snprintf(name, sizeof(name), "%u stream%s", s->streams, s->streams == 1 ? "" : "s");
	fprintf(f, "Best: %s (the knee): %.1f MB/s, %.2f files in work at a time (Little's law: files/s x the time a file takes its stream).\n",
		name, s->mbs, s->little);
	bool cut = false; /* counts after it not measured: an interrupted or failed sweep */
	for (unsigned c = (unsigned)k->knee + 1; c < k->n; c++)
		cut |= !k->steps[c].measured;
	if (k->next < 0 && cut) {
		fprintf(f, "  The sweep ended before the later stream counts ('-'): the knee of what was measured.\n");
		return;
	}
	if (k->next < 0) {
		fprintf(f, "  Every step up to it raised MB/s by more than it raised the time a file takes: the rate still\n"
			   "  rises at the end of the sweep (--streams with more may go further).\n");
		return;
	}
	const struct step *x = &k->steps[k->next];
	snprintf(nn, sizeof(nn), "%u stream%s", x->streams, x->streams == 1 ? "" : "s");
	fprintf(f, "  The next step, %s, added %.1f MB/s per added file in work, under the %.1f at which MB/s\n"
		   "  and the time a file takes grow by the same factor: beyond it, more streams slow each file more\n"
		   "  than they add.\n",
		nn, k->gain, k->threshold);
}

static void print_target(FILE *f, const struct suite_run *sr, unsigned t)
{
	const struct tree_opts *o = tree_opts_c(sr->s);
	char a[32], b[32], r[32];
	print_header(f, sr, t);
	if (sr->targets[t].refused.status)
		return;
	struct curve k;
	tree_analyse(sr, t, &k);
	tree_line(f, sr, t);
	how_line(f, sr);
	fprintf(f, "%7s %9s %10s %9s %9s %9s %6s %10s", "Streams", "Files", "GiB", "MB/s", "files/s", "p99 ms",
		"CPU %", "Resident");
	if (o->hash || o->compress)
		fprintf(f, " %9s", "Read MB/s");
	if (o->hash)
		fprintf(f, " %9s", "Hash MB/s");
	if (o->compress)
		fprintf(f, " %7s %9s", "Ratio", "Comp MB/s");
	fprintf(f, "\n");
	for (unsigned c = 0; c < k.n; c++) {
		const struct step *s = &k.steps[c];
		fprintf(f, "%7u %9s", s->streams, count(a, sizeof(a), s->files));
		if (!s->measured) {
			fprintf(f, " %10s %9s %9s %9s %6s %10s\n", "-", "-", "-", "-", "-", "-");
			continue;
		}
		if (isnan(s->resident))
			snprintf(r, sizeof(r), "-");
		else
			fmt_bytes(r, sizeof(r), s->resident);
		fprintf(f, " %10.3f %9.1f %9s %9.2f %6.0f %10s", s->bytes / (1 << 30), s->mbs,
			count(b, sizeof(b), s->secs > 0 ? s->files / s->secs : NAN),
			s->p99_ns / 1e6, s->cpu, r);
		if (o->hash || o->compress)
			fprintf(f, " %9.1f", s->read_mbs);
		if (o->hash)
			fprintf(f, " %9.1f", s->hash_mbs);
		if (o->compress)
			fprintf(f, " %7.3f %9.1f", s->ratio, s->comp_mbs);
		fprintf(f, "%s\n", (int)c == k.knee ? "  <- best" : "");
	}
	explain(f, &k);
	fastest(f, &k);
	cached_line(f, &k);
	met_line(f, sr, t);
	suite_print_device(f, sr, t);
	free(k.steps);
}

static void print_tree(FILE *f, const struct suite_run *sr)
{
	suite_print_targets(f, sr, print_target);
}

static const struct suite tree = {
	.print = print_tree,
	.flags = SUITE_DIRS_ONLY | SUITE_IN_PLACE,
	.start = start,
	.end = end,
	.plan = plan,
	.job = case_job,
	.target_done = target_done,
	.json = tree_json,
	.load = tree_load,
	.write_files = tree_write_hashes,
};

const struct command cmd_tree = {
	.name = "tree",
	.usage = "iogauge tree [OPTIONS] DIR...",
	.summary = "Read every file of a tree with 1, 2, 4 ... parallel streams and find the best count (tar | dd, md5 of a whole tree)",
	.description =
		"Lists every regular file below DIR (never following a symbolic link, never entering another "
		"file system, never opening a FIFO, device or socket: those are counted), then reads every file "
		"whole, in --buffer reads, with 1, 2, 4 ... streams (--streams), each stream a thread reading its run "
		"of the files in the order tar meets them, about the same bytes each. Per stream count: files, "
		"bytes, MB/s, files/s, p99 time a file takes (open, reads, close), CPU, and the best count by "
		"scale's knee rule (Little's law): the last count where more streams still raised MB/s by more "
		"than they raised the time a file takes. Every file's pages are dropped from the page cache "
		"before each case (--keep-cache keeps them, and the figures say cached). DIR is only read: "
		"files open read-only, without touching their access time where allowed. --hash checksums every "
		"file in its stream (md5 as md5sum, sha256, xxhash as xxhsum, crc32c), --hash-out writes lines "
		"md5sum -c checks; --compress compresses every file as zstd, gzip or lzop would (output counted, "
		"thrown away) for a backup's rate and ratio; both report the read rate alone beside the "
		"stream's. --make-tree builds a reproducible tree in a new directory in DIR, reads it and "
		"removes it unless --keep.",
	.groups = OG_RESULTS | OG_KEEP | OG_SUITE | OG_DATA | OG_SAVE | OG_STORE,
	.defaults = "--ioengine=psync --direct=0 --bs=64k --size=1m --iodepth=1 --runtime=0 --ramp_time=0 "
		    "--time_based=0 --invalidate=1 --group_reporting=1",
	.suite = &tree,
};
