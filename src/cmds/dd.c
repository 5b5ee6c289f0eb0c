/*
 * `iogauge dd`: GNU dd's operands (if= of= bs= count= iflag= oflag= conv=
 * status=) become one job for the runner, and dd's own summary comes out,
 * plus one iogauge line of per-block latency and, for buffered writes, how
 * much was still in the page cache when the clock stopped.
 *
 * /dev/zero (or /dev/urandom) as input is a write job with zero (random)
 * data; /dev/null as output is a read job; a file or device to a file or
 * device is a copy job (each block read and written, both timed).
 */
#include "base/common.h"
#include "cmds/session.h"
#include "base/result_keys.h"
#include "cmds/commands.h"
#include "base/ctx.h"
#include "options/options.h"
#include "options/args.h"
#include "cmds/help.h"
#include "run/runner.h"
#include "run/worker.h"
#include "report/classic.h"
#include "report/report.h"
#include "report/result_read.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define DD_MAX_BS (1ULL << 30) /* the option table's limit for --bs */

enum dd_kind { DK_PATH, DK_BYTES, DK_BLOCKS, DK_FLAGS, DK_WORD };

/* What the operands say, before it becomes a job. */
struct dd_args {
	char in[PATH_MAX], out[PATH_MAX];
	uint64_t bs, ibs, obs, count, skip, seek;
	bool set_bs, set_count;
	unsigned iflag, oflag, conv; /* bit i: words[i] of the operand */
	unsigned status;             /* index into status_words */
	bool seen[16];
};

/* Bits of iflag/oflag: the index of the word in flag_words. */
enum { F_DIRECT, F_DSYNC, F_SYNC, F_NONBLOCK, F_FULLBLOCK };
static const char *const flag_words[] = { "direct", "dsync", "sync", "nonblock", "fullblock", NULL };
static const char *const oflag_words[] = { "direct", "dsync", "sync", "nonblock", NULL };
enum { C_FDATASYNC, C_FSYNC, C_NOTRUNC };
static const char *const conv_words[] = { "fdatasync", "fsync", "notrunc", NULL };
enum { S_DEFAULT, S_NONE, S_NOXFER, S_PROGRESS };
static const char *const status_words[] = { "default", "none", "noxfer", "progress", NULL };

#define A(f) offsetof(struct dd_args, f)
static const struct operand operands[] = {
	{ "if", "FILE", "read from FILE: a file or block device; /dev/zero (/dev/urandom) makes a write test of zeros (random data)",
	  NULL, DK_PATH, A(in) },
	{ "of", "FILE", "write to FILE: a file (created, or iogauge's own, or with --allow-overwrite) or a block device (the write interlock applies); /dev/null makes a read test",
	  NULL, DK_PATH, A(out) },
	{ "bs", "BYTES", "read and write BYTES at a time (default 512); overrides ibs and obs", NULL, DK_BYTES, A(bs) },
	{ "ibs", "BYTES", "read BYTES at a time (default 512)", NULL, DK_BYTES, A(ibs) },
	{ "obs", "BYTES", "write BYTES at a time (default 512)", NULL, DK_BYTES, A(obs) },
	{ "count", "N", "copy N input blocks (needed when if= is /dev/zero and of= a file)", NULL, DK_BLOCKS, A(count) },
	{ "skip", "N", "skip N ibs-sized blocks at the start of the input", NULL, DK_BLOCKS, A(skip) },
	{ "seek", "N", "skip N obs-sized blocks at the start of the output", NULL, DK_BLOCKS, A(seek) },
	{ "iflag", "FLAGS", "read with these flags, comma-separated; nonblock and fullblock change nothing for files and devices",
	  flag_words, DK_FLAGS, A(iflag) },
	{ "oflag", "FLAGS", "write with these flags, comma-separated", oflag_words, DK_FLAGS, A(oflag) },
	{ "conv", "CONVS", "fdatasync or fsync: the clock stops after the data is on disk; notrunc: do not cut the output file at seek",
	  conv_words, DK_FLAGS, A(conv) },
	{ "status", "LEVEL", "none: print nothing but errors; noxfer: no bytes line; progress: a bytes line every second on stderr",
	  status_words, DK_WORD, A(status) },
	{ NULL, NULL, NULL, NULL, 0, 0 },
};
#undef A

/* ---- numbers: dd's suffixes (c w b, K/KiB 1024, KB 1000, M, G, T, P, E) and N x M */

static int mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
	if (b && a > UINT64_MAX / b)
		return -1;
	*out = a * b;
	return 0;
}

static int dd_factor(const char *s, uint64_t *out, const char **end)
{
	char *e;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	uint64_t v = strtoull(s, &e, 10);
	if (errno)
		return -1;
	uint64_t m = 1;
	static const char letters[] = "KMGTPE";
	const char *l = *e ? strchr(letters, *e == 'k' ? 'K' : *e) : NULL;
	if (*e == 'c') {
		e++;
	} else if (*e == 'w') {
		m = 2;
		e++;
	} else if (*e == 'b') {
		m = 512;
		e++;
	} else if (l) {
		unsigned power = (unsigned)(l - letters) + 1, base = 1024;
		e++;
		if (*e == 'B') {
			base = 1000;
			e++;
		} else if (e[0] == 'i' && e[1] == 'B') {
			e += 2;
		}
		for (unsigned i = 0; i < power; i++)
			if (mul_ok(m, base, &m))
				return -1;
	}
	*end = e;
	return mul_ok(v, m, out);
}

/* "1M", "2x512", "16G": 0 or -1. */
static int dd_number(const char *s, uint64_t *out)
{
	uint64_t v = 1, f;
	const char *end;
	for (;;) {
		if (dd_factor(s, &f, &end) || mul_ok(v, f, &v))
			return -1;
		if (!*end)
			break;
		if (*end != 'x')
			return -1;
		s = end + 1;
	}
	*out = v;
	return 0;
}

/* ---- operands */

static int parse_words(const struct operand *op, const char *val, bool many, unsigned *out,
		       struct ig_err *e)
{
	char *copy = xstrdup(val), *save = NULL;
	int rc = 0;
	unsigned bits = 0;
	for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
		unsigned i = 0;
		while (op->words[i] && strcmp(op->words[i], w))
			i++;
		if (!op->words[i]) {
			char allowed[256];
			size_t k = 0;
			for (unsigned n = 0; op->words[n] && k < sizeof(allowed); n++)
				k += (size_t)snprintf(allowed + k, sizeof(allowed) - k, "%s%s", n ? ", " : "",
						      op->words[n]);
			rc = err_set(e, EXIT_USAGE, "dd: %s=%s: '%s' is not supported (allowed: %s)", op->name,
				     val, w, allowed);
		}
		bits = many ? bits | 1u << i : i;
	}
	free(copy);
	if (!rc && !*val)
		rc = err_set(e, EXIT_USAGE, "dd: %s= needs a value", op->name);
	*out = bits;
	return rc;
}

static int parse_operand(struct dd_args *a, const char *word, struct ig_err *e)
{
	const char *eq = strchr(word, '=');
	const struct operand *op = operands;
	while (op->name && (!eq || strlen(op->name) != (size_t)(eq - word) ||
			    strncmp(op->name, word, (size_t)(eq - word))))
		op++;
	if (!op->name)
		return err_set(e, EXIT_USAGE,
			       "dd: unknown operand '%s' (operands: if= of= bs= ibs= obs= count= skip= seek= iflag= oflag= conv= status=; see iogauge dd --help)",
			       word);
	const char *val = eq + 1;
	void *field = (char *)a + op->off;
	a->seen[op - operands] = true;
	switch (op->kind) {
	case DK_PATH:
		if (!*val || strlen(val) >= PATH_MAX)
			return err_set(e, EXIT_USAGE, "dd: %s= needs a file name", op->name);
		strcpy(field, val);
		return 0;
	case DK_BYTES:
	case DK_BLOCKS: {
		uint64_t v;
		if (dd_number(val, &v))
			return err_set(e, EXIT_USAGE,
				       "dd: %s=%s: not a number (digits with an optional c, w, b, K, KB, KiB, M, MB, G, ... suffix; NxM multiplies)",
				       op->name, val);
		if (op->kind == DK_BYTES && (!v || v > DD_MAX_BS))
			return err_set(e, EXIT_USAGE, "dd: %s=%s: a block size from 1 byte to 1 GiB", op->name, val);
		*(uint64_t *)field = v;
		return 0;
	}
	case DK_FLAGS:
		return parse_words(op, val, true, field, e);
	default:
		return parse_words(op, val, false, field, e);
	}
}

/* ---- the job */

enum end_kind { END_FILE, END_DEV, END_ZERO, END_RANDOM, END_NULL, END_NEW };

/* What a path is: /dev/zero, /dev/urandom, /dev/null are the character devices 1:5, 1:8/1:9, 1:3. */
static int classify(const char *path, const char *which, enum end_kind *k, struct ig_err *e)
{
	struct stat st;
	if (stat(path, &st)) {
		if (errno == ENOENT && !strcmp(which, "of")) {
			*k = END_NEW;
			return 0;
		}
		return err_set(e, EXIT_USAGE, "dd: %s=%s: %s", which, path, strerror(errno));
	}
	if (S_ISREG(st.st_mode)) {
		*k = END_FILE;
	} else if (S_ISBLK(st.st_mode)) {
		*k = END_DEV;
	} else if (S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 5) {
		*k = END_ZERO;
	} else if (S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
		   (minor(st.st_rdev) == 8 || minor(st.st_rdev) == 9)) {
		*k = END_RANDOM;
	} else if (S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 3) {
		*k = END_NULL;
	} else {
		return err_set(e, EXIT_USAGE,
			       "dd: %s=%s: iogauge dd reads and writes files and block devices (and /dev/zero, /dev/urandom as input, /dev/null as output); this is %s",
			       which, path, S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
			       S_ISCHR(st.st_mode) ? "another character device" : "not a file");
	}
	if ((*k == END_NULL && !strcmp(which, "if")) ||
	    ((*k == END_ZERO || *k == END_RANDOM) && !strcmp(which, "of")))
		return err_set(e, EXIT_USAGE, "dd: %s=%s: %s", which, path,
			       *k == END_NULL ? "/dev/null gives no data to read" :
						"writing to it stores nothing to measure");
	return 0;
}

static int sync_mode(unsigned flags)
{
	return flags & 1u << F_SYNC ? SYNC_SYNC : flags & 1u << F_DSYNC ? SYNC_DSYNC : SYNC_NONE;
}

struct dd_plan {
	struct dd_args a;
	enum end_kind in, out;
	struct job job;
};

static int same_file(const char *a, const char *b)
{
	struct stat x, y;
	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino &&
	       (S_ISREG(x.st_mode) ? 1 : x.st_rdev == y.st_rdev);
}

/* Bytes in a file or block device; -1 when unknown. */
static int input_size(const char *path, uint64_t *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc = -1;
	if (fd < 0)
		return -1;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		rc = 0;
	} else if (S_ISBLK(st.st_mode) && !ioctl(fd, BLKGETSIZE64, size)) {
		rc = 0;
	}
	close(fd);
	return rc;
}

/* The operands, checked, into p->job (which holds the command's defaults). */
static int plan_job(struct dd_plan *p, struct ig_err *e)
{
	struct dd_args *a = &p->a;
	struct job *j = &p->job;
	if (!a->in[0])
		return err_set(e, EXIT_USAGE, "dd: if= is needed (a file, a block device, /dev/zero or /dev/urandom)");
	if (!a->out[0])
		return err_set(e, EXIT_USAGE, "dd: of= is needed (a file, a block device or /dev/null)");
	if (classify(a->in, "if", &p->in, e) || classify(a->out, "of", &p->out, e))
		return -1;
	bool src_gen = p->in == END_ZERO || p->in == END_RANDOM, sink = p->out == END_NULL;
	if (src_gen && sink)
		return err_set(e, EXIT_USAGE, "dd: if=%s of=/dev/null moves no data through storage: nothing to measure",
			       a->in);
	if (!src_gen && !sink && same_file(a->in, a->out))
		return err_set(e, EXIT_USAGE, "dd: if= and of= name the same file (%s): iogauge dd copies from one file to another, never a file onto itself", a->out);
	if (a->set_bs)
		a->ibs = a->obs = a->bs;
	if (!src_gen && !sink && a->ibs != a->obs)
		return err_set(e, EXIT_USAGE,
			       "dd: a copy uses one block size: give bs= (or ibs= equal to obs=), not ibs=%" PRIu64 " obs=%" PRIu64,
			       a->ibs, a->obs);
	if (src_gen && a->iflag & 1u << F_DIRECT)
		return err_set(e, EXIT_USAGE, "dd: iflag=direct: %s cannot be read with O_DIRECT", a->in);
	if (sink && a->oflag & (1u << F_DIRECT | 1u << F_SYNC | 1u << F_DSYNC))
		return err_set(e, EXIT_USAGE, "dd: oflag=%s: /dev/null takes no such flags (they belong to the file written)",
			       a->oflag & 1u << F_DIRECT ? "direct" : "sync");
	if (sink && a->conv & (1u << C_FDATASYNC | 1u << C_FSYNC))
		return err_set(e, EXIT_USAGE, "dd: conv=%s: of=/dev/null has nothing to sync",
			       a->conv & 1u << C_FSYNC ? "fsync" : "fdatasync");
	uint64_t size = 0;
	if (a->set_count && mul_ok(a->count, a->ibs, &size))
		return err_set(e, EXIT_USAGE, "dd: count=%" PRIu64 " blocks of %" PRIu64 " bytes is too many", a->count, a->ibs);
	if (a->set_count && !size)
		return err_set(e, EXIT_USAGE, "dd: count=0: nothing to measure");
	if (src_gen && !a->set_count && p->out != END_DEV)
		return err_set(e, EXIT_USAGE,
			       "dd: count= is needed with if=%s and a file as of= (iogauge never writes without a bound)", a->in);
	uint64_t skip, seek;
	if (mul_ok(a->skip, a->ibs, &skip) || mul_ok(a->seek, a->obs, &seek) || skip > (uint64_t)INT64_MAX ||
	    seek > (uint64_t)INT64_MAX || size > (uint64_t)INT64_MAX)
		return err_set(e, EXIT_USAGE, "dd: skip=, seek= or count= is beyond the largest file offset");

	/* As dd: a count past the end of the input reads to its end; a skip past it is an error. */
	uint64_t in_size;
	if (!src_gen && !input_size(a->in, &in_size)) {
		if (!in_size)
			return err_set(e, EXIT_USAGE, "dd: if=%s is empty (0 bytes): nothing to read", a->in);
		if (skip >= in_size)
			return err_set(e, EXIT_USAGE, "dd: skip=%" PRIu64 " (%" PRIu64 " bytes) is at or past the end of %s (%" PRIu64 " bytes)",
				       a->skip, skip, a->in, in_size);
		if (size > in_size - skip)
			size = in_size - skip;
	}
	snprintf(j->name, sizeof(j->name), "dd");
	j->size = size;
	j->plan.short_tail = true;
	j->rw = RW_READ;
	bool grows = p->out == END_FILE || p->out == END_NEW;
	if (src_gen) {
		/* A write test: zeros (or random data) written obs at a time from seek. */
		j->rw = RW_WRITE;
		memset(&j->data, 0, sizeof(j->data));
		j->data.mode = p->in == END_ZERO ? DATA_ZERO : DATA_RANDOM;
		snprintf(j->filename, sizeof(j->filename), "%s", a->out);
		j->bs = a->obs;
		j->offset = seek;
		j->direct = a->oflag & 1u << F_DIRECT;
		j->sync = sync_mode(a->oflag);
	} else {
		/* A read test (of=/dev/null) or a copy: ibs at a time from skip. */
		snprintf(j->filename, sizeof(j->filename), "%s", a->in);
		j->bs = a->ibs;
		j->offset = skip;
		j->direct = a->iflag & 1u << F_DIRECT;
		j->sync = sync_mode(a->iflag);
		if (!sink) {
			snprintf(j->plan.copy.path, sizeof(j->plan.copy.path), "%s", a->out);
			j->plan.copy.offset = seek;
			j->plan.copy.direct = a->oflag & 1u << F_DIRECT;
			j->plan.copy.sync = sync_mode(a->oflag);
		}
	}
	j->plan.grow = grows;
	j->plan.truncate = grows && !(a->conv & 1u << C_NOTRUNC);
	j->end_fsync = a->conv & 1u << C_FSYNC;
	j->end_fdatasync = a->conv & 1u << C_FDATASYNC && !j->end_fsync;
	return 0;
}

/*
 * What dd's clock holds besides the requests, done the same way so that the
 * same operands give the same rate (bench/vs-classic.sh checks it): a block is
 * read from /dev/zero before it is written, what was read is written to
 * /dev/null, and the block buffer's pages are faulted in inside the clock, by
 * a kernel copy, as dd's first read does (dd allocates its buffer after
 * starting its clock; the faults cost about 0.1 ms a MiB on bare metal and ten
 * to forty times that in some VMs).  None of it is in the per-block latency;
 * the iogauge line says how long the requests alone took.  /dev/urandom is not
 * read: its cost is the kernel's random generator, not storage (said in --help).
 */
struct dd_ends {
	struct worker_hooks hooks;
	int zero, null; /* /dev/zero (always: the first touch), /dev/null (of=/dev/null) or -1 */
	bool gen;       /* if=/dev/zero: every block written is read from it first */
	bool touched;   /* the buffer's first touch is done */
	int err;        /* the first failure: fails the job */
};

static int read_zero(struct dd_ends *d, void *buf, uint32_t len)
{
	for (uint32_t got = 0; got < len;) {
		ssize_t n = read(d->zero, (char *)buf + got, len - got);
		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			return n < 0 ? errno : ENODATA;
		}
		got += (uint32_t)n;
	}
	return 0;
}

/* The buffer as dd's is at its first block: pages not yet there, faulted in by a read. */
static int first_touch(struct dd_ends *d, struct io_u *u)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)u->buf + pg - 1) & ~(pg - 1), to = ((uintptr_t)u->buf + u->len) & ~(pg - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
	return d->gen && u->op == IO_WRITE ? 0 : read_zero(d, u->buf, u->len);
}

static void end_prep(void *arg, unsigned thread, struct io_u *u)
{
	struct dd_ends *d = arg;
	(void)thread;
	if (!u->buf || d->err)
		return;
	if (!d->touched) {
		d->touched = true;
		d->err = first_touch(d, u);
	}
	if (d->gen && u->op == IO_WRITE && !d->err)
		d->err = read_zero(d, u->buf, u->len);
}

static int end_complete(void *arg, unsigned thread, const struct io_u *u, uint64_t lat_ns)
{
	struct dd_ends *d = arg;
	(void)thread;
	(void)lat_ns;
	if (d->null >= 0 && u->op == IO_READ && u->res > 0 && !d->err) {
		ssize_t n;
		do
			n = write(d->null, u->buf, (size_t)u->res);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			d->err = errno;
	}
	return d->err;
}

/* Open what the ends need and hook them to the job; 0 or -1 with e set. */
static int ends_open(struct dd_plan *p, struct dd_ends *d, struct ig_err *e)
{
	*d = (struct dd_ends){ .zero = -1, .null = -1, .gen = p->in == END_ZERO };
	if ((d->zero = open("/dev/zero", O_RDONLY | O_CLOEXEC)) < 0)
		return err_set(e, EXIT_IOERR, "dd: /dev/zero: %s", strerror(errno));
	if (p->out == END_NULL && (d->null = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0)
		return err_set(e, EXIT_IOERR, "dd: /dev/null: %s", strerror(errno));
	d->hooks = (struct worker_hooks){ .arg = d, .prep = end_prep, .complete = end_complete };
	p->job.plan.hooks = &d->hooks;
	return 0;
}

static void ends_close(struct dd_ends *d)
{
	if (d->zero >= 0)
		close(d->zero);
	if (d->null >= 0)
		close(d->null);
}

/* ---- output */

struct dd_out {
	FILE *f;          /* the summary: stderr as dd, or --output */
	bool copy;
	uint64_t last_s;  /* progress: the last whole second printed */
	size_t last_len;
};

/* status=progress: dd's bytes line with whole seconds, once a second, on one line. */
static void progress(void *arg, const struct run_live *l)
{
	struct dd_out *o = arg;
	uint64_t s = l->elapsed_ns / NSEC_PER_SEC;
	if (!s || s == o->last_s)
		return;
	o->last_s = s;
	char line[256];
	dd_bytes_line(line, sizeof(line), o->copy ? l->bytes / 2 : l->bytes, l->elapsed_ns, 1);
	size_t n = strlen(line);
	fprintf(stderr, "\r%s%*s", line, o->last_len > n ? (int)(o->last_len - n) : 0, "");
	o->last_len = n;
	fflush(stderr);
}

/* "35.2/41.0/88.1/1203.0 us": min/mean/p99/max in one unit, chosen by the mean. */
static void lat4(char *buf, size_t len, const struct lat_stats *l)
{
	double mean = lat_mean(l), div = mean < 1e6 ? 1e3 : 1e6;
	snprintf(buf, len, "%.1f/%.1f/%.1f/%.1f %s", (double)l->min / div, mean / div,
		 (double)lat_pct(l, 99) / div, (double)l->max / div, div == 1e3 ? "us" : "ms");
}

static bool buffered_unsynced(const struct job_result *jr)
{
	const struct job *j = &jr->job;
	bool direct = job_copies(j) ? j->plan.copy.direct : j->direct && !jr->buffered_fallback;
	int sync = job_copies(j) ? j->plan.copy.sync : j->sync;
	return (rw_writes(j->rw) || job_copies(j)) && !direct && !sync && !j->end_fsync &&
	       !j->end_fdatasync && !j->fsync_every && !j->fdatasync_every;
}

static void print_iogauge(FILE *f, const struct job_result *jr)
{
	const struct thread_stats *t = &jr->total;
	char a[96], b[96], c[32], d[32];
	int n = 0;
	for (int op = IO_READ; op <= IO_WRITE; op++) {
		if (!t->op[op].ios)
			continue;
		lat4(a, sizeof(a), &t->op[op].clat);
		fprintf(f, "%s %s %s", n++ ? "," : "iogauge: per-block latency min/mean/p99/max:",
			io_op_names[op], a);
	}
	if (n)
		fprintf(f, "\n");
	/* The requests alone (syncs included): the rest of dd's clock is dd's own work (see ends). */
	uint64_t req_ns = 0, moved = 0;
	for (int op = 0; op < IO_OP_NR; op++)
		req_ns += t->op[op].clat.sum;
	moved = t->op[IO_WRITE].ios ? t->op[IO_WRITE].bytes : t->op[IO_READ].bytes;
	if (req_ns && t->elapsed_ns)
		fprintf(f, "iogauge: the requests alone took %.6g s, %s (%.0f%% of the clock; the rest is dd's own work: reading its input, first touch of its buffer, waiting for the CPU)\n",
			(double)req_ns / 1e9, dd_rate(b, sizeof(b), moved, req_ns),
			100.0 * (double)req_ns / (double)t->elapsed_ns);
	uint64_t wr = t->op[IO_WRITE].bytes;
	if (buffered_unsynced(jr) && wr) {
		if (jr->unsynced_after > 0)
			fprintf(f, "iogauge: buffered writes: when the clock stopped, %s of the %s written (%.0f%%) was still in the page cache, not on disk (conv=fdatasync times it to the disk)\n",
				fmt_bytes(b, sizeof(b), (double)jr->unsynced_after), fmt_bytes(c, sizeof(c), (double)wr),
				100.0 * (double)jr->unsynced_after / (double)wr);
		else if (jr->unsynced_after == 0)
			fprintf(f, "iogauge: buffered writes: all %s written had been written back from the page cache when the clock stopped\n",
				fmt_bytes(c, sizeof(c), (double)wr));
		else
			fprintf(f, "iogauge: buffered writes: the clock stopped without waiting for the disk; how much was still in the page cache is not measurable on this kernel (conv=fdatasync times it to the disk)\n");
	}
	if (rw_reads(jr->job.rw) && jr->resident_before > 0)
		fprintf(f, "iogauge: %s of the input was in the page cache when the reading started\n",
			fmt_bytes(d, sizeof(d), (double)jr->resident_before));
}

/*
 * In and out bytes as dd counts them: /dev/zero gives what was written,
 * /dev/null takes what was read.  A failed write's block was read (records
 * in), and the part of a short write that went out counts in the bytes line
 * but not in the records out, as in dd.
 */
struct dd_count {
	uint64_t in, out, copied;
};

static struct dd_count dd_count(const struct dd_plan *p, const struct job_result *jr)
{
	const struct thread_stats *t = &jr->total;
	const struct job *j = &jr->job;
	uint64_t rd = t->op[IO_READ].bytes, wr = t->op[IO_WRITE].bytes;
	bool gen = p->in == END_ZERO || p->in == END_RANDOM;
	struct dd_count c = { gen ? wr : rd, p->out == END_NULL ? rd : wr, 0 };
	c.copied = c.out;
	if (t->err && t->err_op == IO_WRITE && p->out != END_NULL) {
		if (gen)
			c.in += j->bs;
		uint64_t at = (job_copies(j) ? j->plan.copy.offset : j->offset) + c.out;
		if (t->short_io && t->err_offset + t->short_got > at) /* err_offset: the short request's */
			c.copied += t->err_offset + t->short_got - at;
	}
	return c;
}

static void print_summary(FILE *f, const struct dd_plan *p, const struct job_result *jr)
{
	const struct thread_stats *t = &jr->total;
	struct dd_count c = dd_count(p, jr);
	char line[256];
	fprintf(f, "%s\n", dd_records(line, sizeof(line), c.in, p->a.ibs, "in"));
	fprintf(f, "%s\n", dd_records(line, sizeof(line), c.out, p->a.obs, "out"));
	if (p->a.status != S_NOXFER)
		fprintf(f, "%s\n", dd_bytes_line(line, sizeof(line), c.copied, t->elapsed_ns, 0));
	print_iogauge(f, jr);
}

static json_t *ig_json_dd(const struct dd_plan *p, const struct job_result *jr)
{
	json_t *o = json_object(), *ops = json_object();
	for (const struct operand *op = operands; op->name; op++) {
		if (!p->a.seen[op - operands])
			continue;
		const void *field = (const char *)&p->a + op->off;
		char buf[PATH_MAX + 32] = "";
		if (op->kind == DK_PATH)
			snprintf(buf, sizeof(buf), "%s", (const char *)field);
		else if (op->kind == DK_BYTES || op->kind == DK_BLOCKS)
			snprintf(buf, sizeof(buf), "%" PRIu64, *(const uint64_t *)field);
		else if (op->kind == DK_WORD)
			snprintf(buf, sizeof(buf), "%s", op->words[*(const unsigned *)field]);
		else
			for (unsigned i = 0, k = 0; op->words[i]; i++)
				if (*(const unsigned *)field & 1u << i)
					k += (unsigned)snprintf(buf + k, sizeof(buf) - k, "%s%s", k ? "," : "", op->words[i]);
		json_object_set_new(ops, op->name, ig_json_text(buf));
	}
	json_object_set_new(o, RK_OPERANDS, ops);
	json_object_set_new(o, "ibs", ig_json_u64(p->a.ibs));
	json_object_set_new(o, "obs", ig_json_u64(p->a.obs));
	if (jr && jr->threads) {
		struct dd_count c = dd_count(p, jr);
		uint64_t out = c.copied;
		char line[256];
		json_object_set_new(o, RK_RECORDS_IN, json_string(dd_records(line, sizeof(line), c.in, p->a.ibs, "in")));
		json_object_set_new(o, RK_RECORDS_OUT, json_string(dd_records(line, sizeof(line), c.out, p->a.obs, "out")));
		json_object_set_new(o, "bytes", ig_json_u64(out));
		json_object_set_new(o, "elapsed_ns", ig_json_u64(jr->total.elapsed_ns));
		json_object_set_new(o, "bw_bytes", json_real(jr->total.elapsed_ns ?
							      (double)out * 1e9 / (double)jr->total.elapsed_ns : 0));
		json_object_set_new(o, RK_SUMMARY, json_string(dd_bytes_line(line, sizeof(line), out, jr->total.elapsed_ns, 0)));
		uint64_t req_ns = 0;
		for (int op = 0; op < IO_OP_NR; op++)
			req_ns += jr->total.op[op].clat.sum;
		json_object_set_new(o, "requests_ns", ig_json_u64(req_ns));
		json_object_set_new(o, "buffered_unsynced", json_boolean(buffered_unsynced(jr)));
	}
	return o;
}

/* The HTML report: dd's lines as saved, then iogauge's, from the saved job. */
static void dd_print_saved(FILE *f, const json_t *root)
{
	struct result_dd dd;
	if (result_dd(root, &dd)) {
		const char *lines[] = { dd.records_in, dd.records_out, dd.noxfer ? NULL : dd.summary };
		for (unsigned i = 0; i < ARRAY_SIZE(lines); i++)
			if (lines[i])
				fprintf(f, "%s\n", lines[i]);
	}
	struct run_result rr;
	struct ig_err e = { 0 };
	if (!run_result_from_json(root, &rr, &e) && rr.njobs && rr.jobs[0].threads)
		print_iogauge(f, &rr.jobs[0]);
	run_result_free(&rr);
}

/* ---- the command */

static bool seen(const struct dd_args *a, const char *name)
{
	for (const struct operand *op = operands; op->name; op++)
		if (!strcmp(op->name, name))
			return a->seen[op - operands];
	return false;
}

static int parse(const struct command *cmd, int argc, char **argv, struct parsed_args *pa,
		 struct dd_plan *p, struct ig_err *e)
{
	if (args_parse(argc, argv, cmd, pa, e))
		return -1;
	if (pa->help)
		return 0;
	if (command_check_format(cmd, &pa->settings, e))
		return -1;
	memset(&p->a, 0, sizeof(p->a));
	p->a.ibs = p->a.obs = 512;
	for (unsigned i = 0; i < pa->nwords; i++)
		if (parse_operand(&p->a, pa->words[i], e))
			return -1;
	p->a.set_bs = seen(&p->a, "bs");
	p->a.set_count = seen(&p->a, "count");
	p->job = pa->global;
	return plan_job(p, e);
}

static int cmd_dd_main(const struct command *cmd, int argc, char **argv)
{
	struct parsed_args pa;
	struct dd_plan *p = xcalloc(1, sizeof(*p));
	struct ig_err e = { 0 };
	struct session ss;
	struct dd_ends ends = { .zero = -1, .null = -1 };
	int bad = parse(cmd, argc, argv, &pa, p, &e);
	session_init(&ss, cmd, &pa.settings);
	/* of= is the user's output, as with dd: never removed */
	if (bad || (!pa.help && (ends_open(p, &ends, &e) || session_begin(&ss, true, &e)))) {
		int status = session_refuse(&ss, &e);
		ends_close(&ends);
		args_free(&pa);
		free(p);
		return status;
	}
	if (pa.help) {
		options_help(stdout, cmd);
		args_free(&pa);
		free(p);
		return 0;
	}
	struct dd_out o = {
		.f = pa.settings.output[0] && strcmp(pa.settings.output, "-") ? ss.out.out : stderr,
		.copy = job_copies(&p->job),
	};
	struct run_opts ro = {
		.allow_destroy = pa.settings.allow_destroy,
		.allow_overwrite = pa.settings.allow_overwrite,
		.progress = p->a.status == S_PROGRESS ? progress : NULL,
		.progress_arg = &o,
	};
	struct run_result r;
	runner_run(&ss.ctx, &p->job, 1, &ro, &r);
	if (o.last_len)
		fprintf(stderr, "\n");
	report_errors(&r);
	const struct job_result *jr = r.njobs ? &r.jobs[0] : NULL;
	if (jr && jr->threads && p->a.status != S_NONE)
		print_summary(o.f, p, jr);
	json_t *root = session_root(&ss, r.status, r.interrupted, &r.err);
	if (root) {
		ig_json_add_run(root, &r, cmd->groups, NULL);
		json_object_set_new(root, RK_DD, ig_json_dd(p, jr));
	}
	int status = session_end(&ss, root, r.status);
	run_result_free(&r);
	ends_close(&ends);
	args_free(&pa);
	free(p);
	return status;
}

const struct command cmd_dd = {
	.name = "dd",
	.usage = "iogauge dd if=FILE of=FILE [bs=BYTES] [count=N] [OPERAND...] [OPTIONS]",
	.summary = "GNU dd's operands and summary, with per-block latency and the page cache made visible",
	.description =
		"if=/dev/zero of=FILE is a write test of zeros (if=/dev/urandom: random data, without the cost "
		"of reading /dev/urandom), if=FILE of=/dev/null a read test, and a file or block device to a "
		"file or block device a copy (each block read, then written; both timed). The summary is GNU "
		"dd's (records in and out, bytes, seconds, rate in dd's units) on stderr, then one iogauge "
		"line: per-block latency min/mean/p99/max of each operation, then how long the requests alone "
		"took. The clock is dd's: it runs from the first block to the last (and conv=fdatasync's "
		"sync) and holds what dd does besides the requests (reading /dev/zero before each block, "
		"writing /dev/null after each, faulting in the block buffer), so the same operands give "
		"the same rate as GNU dd; /dev/urandom is the exception: it is not read. A buffered write that the clock "
		"did not wait for (no conv=fdatasync, conv=fsync or oflag=sync/dsync) says how much of the "
		"data was still in the page cache when the clock stopped. A buffered read starts with the "
		"input's cached pages dropped (not timed). of= a block device goes through the write "
		"interlock (--allow-destroy); an existing file needs --allow-overwrite (or " ALLOW_OVERWRITE_ENV "=1) unless iogauge created "
		"it; the output file is kept.",
	.groups = OG_OUTPUT | OG_HTML | OG_FORMAT | OG_JSON | OG_DESTROY | OG_OVERWRITE | OG_SAVE | OG_STORE,
	.defaults = "--ioengine=psync --iodepth=1 --numjobs=1 --invalidate=1 --fadvise_hint=0",
	.main = cmd_dd_main,
	.operands = operands,
	.print_saved = dd_print_saved,
};
