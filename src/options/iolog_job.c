/*
 * A job's fio iolog options: what a job that writes or replays a log may be,
 * and the replayed log made into the job's requests.  Safety: a log names
 * files; the requests go to the job's own file (the one the log names must be
 * the one the job was given) or to replay_redirect, and the usual checks
 * (allow-overwrite, allow-destroy) apply to that file when the run prepares it.
 */
#include "base/common.h"
#include "model/iolog.h"
#include "options/iolog_job.h"
#include "options/opt_def.h"
#include "model/ops.h"
#include "model/engine.h"
#include "model/place.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

static const char *const skip_words[] = { "read", "write", "trim", "sync" };
static const unsigned skip_bits[] = { 1u << IO_READ, 1u << IO_WRITE, 1u << IO_TRIM, 1u << IO_FSYNC };

int iolog_set_skip(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	unsigned *f = (unsigned *)((char *)obj + o->off), mask = 0;
	char buf[128];
	if (!*val || strlen(val) >= sizeof(buf))
		goto bad;
	strcpy(buf, val);
	if (!strcmp(buf, "none"))
		goto done; /* what an empty list prints as */
	for (char *save, *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		size_t k;
		for (k = 0; k < 4 && strcmp(p, skip_words[k]); k++)
			;
		if (k == 4)
			goto bad;
		mask |= skip_bits[k];
	}
done:
	*f = mask;
	return 0;
bad:
	snprintf(err, n, "--%s: '%s' is not a list of read, write, trim, sync", o->name, val);
	return -1;
}

void iolog_print_skip(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	unsigned m = *(const unsigned *)((const char *)obj + o->off);
	size_t at = 0;
	snprintf(buf, len, "none");
	for (size_t k = 0; k < 4; k++)
		if (m & skip_bits[k])
			at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s", at ? "," : "", skip_words[k]);
}

/* Loaded logs live as long as the run (jobs point at them). */
static struct iolog *loaded[64];
static unsigned nloaded;
/* Each job's list of its logs (read_iolog=A:B: one a thread, as fio assigns them). */
static const struct iolog *lists[64][IOLOG_JOB_LOGS];
static unsigned nlists;

/*
 * The kernel moves at most this much in one read or write (MAX_RW_COUNT,
 * INT_MAX rounded down to a page): fio 3.33 sends a longer request whole and
 * sends the rest again when the kernel stops there, so iogauge replays it as
 * those pieces.  A trim has no such limit.
 */
#define IOLOG_RW_MAX 0x7ffff000u

static bool same_file(const char *a, const char *b)
{
	if (!strcmp(a, b))
		return true;
	struct stat sa, sb;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * The replay's own entries: requests and waits, skipped kinds left out,
 * offsets scaled and aligned, reads and writes longer than the kernel moves
 * at once cut where the kernel cuts them.  -1: out of memory.
 */
static int transform(struct iolog *log, const struct job *j)
{
	size_t extra = 0;
	for (size_t i = 0; i < log->n; i++)
		if (log->e[i].kind == IOLOG_IO && (log->e[i].op == IO_READ || log->e[i].op == IO_WRITE))
			extra += (log->e[i].len - 1) / IOLOG_RW_MAX;
	struct iolog_entry *out = malloc((log->n + extra + 1) * sizeof(*out));
	if (!out)
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < log->n; i++) {
		struct iolog_entry x = log->e[i];
		if (x.kind == IOLOG_WAIT && j->replay_no_stall)
			continue;
		if (x.kind != IOLOG_IO && x.kind != IOLOG_WAIT)
			continue;
		unsigned bit = 1u << (x.op == IO_FDATASYNC ? IO_FSYNC : x.op);
		if (x.kind == IOLOG_IO && (j->replay_skip & bit))
			continue;
		if (x.kind == IOLOG_IO && x.op <= IO_TRIM) {
			/* fio rounds a blktrace request's length up to replay_align too (t_bytes_align). */
			if (log->blktrace && j->replay_align && x.len % j->replay_align) {
				uint64_t up = ((uint64_t)x.len / j->replay_align + 1) * j->replay_align;
				x.len = up > UINT32_MAX ? UINT32_MAX : (uint32_t)up;
			}
			x.offset /= j->replay_scale;
			if (j->replay_align)
				x.offset -= x.offset % j->replay_align;
		}
		while (x.kind == IOLOG_IO && x.op <= IO_WRITE && x.len > IOLOG_RW_MAX) {
			struct iolog_entry piece = x;
			piece.len = IOLOG_RW_MAX;
			out[k++] = piece;
			/* The rest goes at once, as fio's resubmission: no wait of its own. */
			x.offset += IOLOG_RW_MAX;
			x.len -= IOLOG_RW_MAX;
		}
		out[k++] = x;
	}
	free(log->e);
	log->e = out;
	log->n = k;
	log->cap = log->n + extra + 1;
	return 0;
}

/* The direction a job of the logs' requests has: it decides the safety checks and the layout. */
static int log_rw(const struct job *j, const struct iolog *const *logs, unsigned n, int *rw)
{
	bool r = false, w = false, t = false;
	for (unsigned l = 0; l < n; l++)
		for (size_t i = 0; i < logs[l]->n; i++) {
			const struct iolog_entry *x = &logs[l]->e[i];
			if (x->kind != IOLOG_IO)
				continue;
			r |= x->op == IO_READ;
			w |= x->op == IO_WRITE || x->op == IO_FSYNC || x->op == IO_FDATASYNC;
			t |= x->op == IO_TRIM;
		}
	(void)j;
	if (t && r)
		return -1;
	*rw = t ? (w ? RW_RANDTRIMWRITE : RW_RANDTRIM) : r && w ? RW_RANDRW : w ? RW_RANDWRITE : RW_RANDREAD;
	return 0;
}

/*
 * A blktrace trace names a device, not a path: fio finds it under /dev
 * itself; iogauge replays onto it only when it is the job's --filename.
 */
static int blktrace_target(struct job *j, const char *path, const struct iolog *log, unsigned used,
			   struct ig_err *e)
{
	uint32_t dev = log->nfiles ? log->dev[used] : 0;
	unsigned maj = dev >> 20, min = dev & 0xfffffu;
	struct stat st;
	if (j->filename[0] && !stat(j->filename, &st) && S_ISBLK(st.st_mode) && major(st.st_rdev) == maj &&
	    minor(st.st_rdev) == min)
		return 0;
	return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s is a blktrace trace of device %u:%u%s%s: give --filename=that device or --replay_redirect=PATH",
		       j->name, path, maj, min, j->filename[0] ? ", not this job's --filename=" : "",
		       j->filename);
}

/*
 * The files the requests go to: replay_redirect (every request), or the
 * job's own files, each of which a log names (filename=A:B for a log of
 * A and B); each entry's file becomes the index of its job file.
 */
static int replay_target(struct job *j, const char *path, struct iolog *log, struct ig_err *e)
{
	if (j->engine && (j->engine->flags & ENGINE_NO_FILE))
		return 0; /* the null engine touches no file: the log's names do not matter */
	if (j->replay_redirect[0]) {
		snprintf(j->filename, sizeof(j->filename), "%s", j->replay_redirect);
		for (size_t i = 0; i < log->n; i++)
			log->e[i].file = 0;
		return 0;
	}
	int used = -1;
	bool several = false;
	for (size_t i = 0; i < log->n; i++) {
		if (log->e[i].kind != IOLOG_IO)
			continue;
		several |= used >= 0 && used != log->e[i].file;
		used = log->e[i].file;
	}
	if (log->blktrace) {
		if (several)
			return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s is a trace of several devices: give --replay_redirect=PATH to replay them onto one",
				       j->name, path);
		return blktrace_target(j, path, log, used >= 0 ? (unsigned)used : 0, e);
	}
	const char *first = used >= 0 ? log->files[used] : log->nfiles ? log->files[0] : "";
	if (!j->filename[0])
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s replays onto %s, a file this job was not given: give --filename=%s or --replay_redirect=PATH",
			       j->name, path, first, first);
	/* Each file the log names is one of the job's (in their ':' list), or the replay is refused. */
	unsigned nf = job_nfiles(j);
	int map[IOLOG_MAX_FILES];
	for (unsigned f = 0; f < log->nfiles; f++) {
		map[f] = -1;
		for (unsigned k = 0; k < nf && map[f] < 0; k++) {
			char p[PATH_MAX];
			struct ig_err pe = { 0 };
			if (!place_path(j, 0, k, p, sizeof(p), &pe) && same_file(log->files[f], p))
				map[f] = (int)k;
		}
	}
	for (size_t i = 0; i < log->n; i++) {
		struct iolog_entry *x = &log->e[i];
		if (x->kind != IOLOG_IO)
			continue;
		if (map[x->file] < 0)
			return err_set(e, EXIT_USAGE, nf > 1 ?
				       "job %s: --read_iolog=%s replays onto %s, not one of this job's files (--filename=%s): give it as one of them, or --replay_redirect=PATH" :
				       "job %s: --read_iolog=%s replays onto %s, not this job's --filename=%s: give --replay_redirect=%s to replay it there",
				       j->name, path, log->files[x->file], j->filename, j->filename);
		x->file = (uint16_t)map[x->file];
	}
	return 0;
}

/*
 * Block size, size and region from the logs: the largest read or write
 * (a buffer's size), each file's region covering what the logs reach in it
 * (--size: each of nf files a share of it, as fio divides it).
 */
static int fit_job(struct job *j, const struct iolog *const *logs, unsigned n, struct ig_err *e)
{
	uint64_t maxlen = 0, end = 0;
	for (unsigned l = 0; l < n; l++)
		for (size_t i = 0; i < logs[l]->n; i++) {
			const struct iolog_entry *x = &logs[l]->e[i];
			if (x->kind != IOLOG_IO || x->op > IO_TRIM)
				continue;
			if (x->op == IO_TRIM && x->len > (1ULL << 30))
				return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s: %s %u: a trim of %u bytes (at most 1 GiB)",
					       j->name, j->read_iolog, logs[l]->blktrace ? "record" : "line", x->line, x->len);
			maxlen = x->len > maxlen ? x->len : maxlen;
			end = x->offset + x->len > end ? x->offset + x->len : end;
		}
	if (!maxlen)
		maxlen = 4096; /* syncs only */
	unsigned nf = j->replay_redirect[0] ? 1 : job_nfiles(j);
	j->bs = maxlen;
	j->bs_write = j->bs_trim = 0;
	/* What the logs reach, in whole pages (a request of several GiB does not round it past the file). */
	if (!j->size)
		j->size = nf * (end > j->offset ? (end - j->offset + 4095) / 4096 * 4096 : maxlen);
	uint64_t share = nf > 1 ? j->size / nf : j->size;
	for (unsigned l = 0; l < n; l++)
		for (size_t i = 0; i < logs[l]->n; i++) {
			const struct iolog_entry *x = &logs[l]->e[i];
			if (x->kind == IOLOG_IO && x->op <= IO_TRIM &&
			    (x->offset < j->offset || x->offset + x->len > j->offset + share))
				return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s: %s %u: %u bytes at %llu lie outside the job's region (--offset %llu, --size %llu%s)",
					       j->name, j->read_iolog, logs[l]->blktrace ? "record" : "line", x->line, x->len,
					       (unsigned long long)x->offset, (unsigned long long)j->offset,
					       (unsigned long long)j->size, nf > 1 ? " divided among the files" : "");
		}
	return 0;
}

/* The name'th path of read_iolog's ':' list; false past its end. */
static bool log_name(const char *list, unsigned index, char *out, size_t len)
{
	for (const char *p = list;; index--) {
		const char *c = strchr(p, ':');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		if (!index) {
			if (!l || l >= len)
				return false;
			memcpy(out, p, l);
			out[l] = 0;
			return true;
		}
		if (!c)
			return false;
		p = c + 1;
	}
}

static int load_one(struct job *j, const char *path, const struct iolog **out, struct ig_err *e)
{
	if (nloaded == sizeof(loaded) / sizeof(loaded[0]))
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog: at most %zu logs a run", j->name,
			       sizeof(loaded) / sizeof(loaded[0]));
	struct iolog *log = calloc(1, sizeof(*log));
	char why[512];
	if (!log)
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog: out of memory", j->name);
	if (iolog_load(path, log, why, sizeof(why))) {
		free(log);
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s", j->name, why);
	}
	loaded[nloaded++] = log;
	if (transform(log, j))
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s: out of memory", j->name, path);
	size_t ios = 0;
	for (size_t i = 0; i < log->n; i++)
		ios += log->e[i].kind == IOLOG_IO;
	if (!ios)
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s holds no request to replay", j->name, path);
	if (replay_target(j, path, log, e))
		return -1;
	*out = log;
	return 0;
}

static int load(struct job *j, struct ig_err *e)
{
	if (nlists == sizeof(lists) / sizeof(lists[0]))
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog: at most %zu jobs replay logs", j->name,
			       sizeof(lists) / sizeof(lists[0]));
	const struct iolog **list = lists[nlists++];
	unsigned n = 0;
	char path[PATH_MAX];
	while (log_name(j->read_iolog, n, path, sizeof(path))) {
		if (n == IOLOG_JOB_LOGS)
			return err_set(e, EXIT_USAGE, "job %s: --read_iolog: at most %d logs a job", j->name, IOLOG_JOB_LOGS);
		if (load_one(j, path, &list[n], e))
			return -1;
		n++;
	}
	if (!n)
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s: no log named", j->name, j->read_iolog);
	int rw = RW_RANDREAD;
	if (log_rw(j, list, n, &rw))
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s: trims mixed with reads are not supported (--replay_skip=trim or read)",
			       j->name, j->read_iolog);
	if (fit_job(j, list, n, e))
		return -1;
	j->rw = rw;
	j->plan.replay = list[0];
	j->plan.replays = list;
	j->plan.nreplays = n;
	return 0;
}

int iolog_job_prepare(struct job *j, struct ig_err *e)
{
	if (!j->read_iolog[0] && !j->write_iolog[0]) {
		if (j->replay_redirect[0])
			return err_set(e, EXIT_USAGE, "job %s: --replay_redirect needs --read_iolog", j->name);
		return 0;
	}
	const char *opt = j->read_iolog[0] ? "--read_iolog" : "--write_iolog";
	if (j->plan.tree || j->fileop || j->plan.copy.path[0])
		return err_set(e, EXIT_USAGE, "job %s: %s works on block requests, not file operations, trees or copies", j->name, opt);
	if (!j->read_iolog[0]) {
		/* fio appends every thread's lines to the one log, mixed: iogauge writes one a job. */
		if (j->numjobs > 1)
			return err_set(e, EXIT_USAGE, "job %s: --write_iolog with numjobs=%u: one thread a job (fio mixes the threads' lines in one log)",
				       j->name, j->numjobs);
		if (j->nrfiles > 1 || strchr(j->filename, ':'))
			return err_set(e, EXIT_USAGE, "job %s: --write_iolog with several files: one file a job", j->name);
		return 0;
	}
	/* The log names the files; nrfiles would make others of the job's own. */
	if (j->nrfiles > 1)
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog with --nrfiles: the log names its files (give them as --filename=A:B)",
			       j->name);
	if (j->plan.replay)
		return 0;
	return load(j, e);
}
