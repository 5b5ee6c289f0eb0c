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

static bool same_file(const char *a, const char *b)
{
	if (!strcmp(a, b))
		return true;
	struct stat sa, sb;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The replay's own entries: requests and waits, skipped kinds left out, offsets scaled and aligned. */
static void transform(struct iolog *log, const struct job *j)
{
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
		log->e[k++] = x;
	}
	log->n = k;
}

/* The direction a job of the log's requests has: it decides the safety checks and the layout. */
static int log_rw(const struct job *j, const struct iolog *log, const char *path, struct ig_err *e, int *rw)
{
	bool r = false, w = false, t = false;
	for (size_t i = 0; i < log->n; i++) {
		if (log->e[i].kind != IOLOG_IO)
			continue;
		r |= log->e[i].op == IO_READ;
		w |= log->e[i].op == IO_WRITE || log->e[i].op == IO_FSYNC || log->e[i].op == IO_FDATASYNC;
		t |= log->e[i].op == IO_TRIM;
	}
	if (t && r)
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s: trims mixed with reads are not supported (--replay_skip=trim or read)",
			       j->name, path);
	*rw = t ? (w ? RW_RANDTRIMWRITE : RW_RANDTRIM) : r && w ? RW_RANDRW : w ? RW_RANDWRITE : RW_RANDREAD;
	return 0;
}

/*
 * A blktrace trace names a device, not a path: fio finds it under /dev
 * itself; iogauge replays onto it only when it is the job's --filename.
 */
static int blktrace_target(struct job *j, const struct iolog *log, unsigned used, struct ig_err *e)
{
	uint32_t dev = log->nfiles ? log->dev[used] : 0;
	unsigned maj = dev >> 20, min = dev & 0xfffffu;
	struct stat st;
	if (j->filename[0] && !stat(j->filename, &st) && S_ISBLK(st.st_mode) && major(st.st_rdev) == maj &&
	    minor(st.st_rdev) == min)
		return 0;
	return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s is a blktrace trace of device %u:%u%s%s: give --filename=that device or --replay_redirect=PATH",
		       j->name, j->read_iolog, maj, min, j->filename[0] ? ", not this job's --filename=" : "",
		       j->filename);
}

/* The file the requests go to: replay_redirect, or the job's own file, which the log must name. */
static int replay_target(struct job *j, const struct iolog *log, struct ig_err *e)
{
	if (j->engine && (j->engine->flags & ENGINE_NO_FILE))
		return 0; /* the null engine touches no file: the log's names do not matter */
	if (j->replay_redirect[0]) {
		snprintf(j->filename, sizeof(j->filename), "%s", j->replay_redirect);
		return 0;
	}
	int used = -1;
	for (size_t i = 0; i < log->n; i++) {
		if (log->e[i].kind != IOLOG_IO)
			continue;
		if (used >= 0 && used != log->e[i].file)
			return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s names several files (%s, %s): give --replay_redirect=PATH to replay them onto one",
				       j->name, j->read_iolog, log->files[used], log->files[log->e[i].file]);
		used = log->e[i].file;
	}
	const char *named = used >= 0 ? log->files[used] : log->nfiles ? log->files[0] : "";
	if (log->blktrace)
		return blktrace_target(j, log, used >= 0 ? (unsigned)used : 0, e);
	if (!j->filename[0])
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s replays onto %s, a file this job was not given: give --filename=%s or --replay_redirect=PATH",
			       j->name, j->read_iolog, named, named);
	if (*named && !same_file(named, j->filename))
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s replays onto %s, not this job's --filename=%s: give --replay_redirect=%s to replay it there",
			       j->name, j->read_iolog, named, j->filename, j->filename);
	return 0;
}

/* Block size, size and region from the log: every request must lie in the job's region. */
static int fit_job(struct job *j, const struct iolog *log, struct ig_err *e)
{
	uint64_t maxlen = 0, end = 0;
	for (size_t i = 0; i < log->n; i++) {
		const struct iolog_entry *x = &log->e[i];
		if (x->kind != IOLOG_IO || x->op > IO_TRIM)
			continue;
		maxlen = x->len > maxlen ? x->len : maxlen;
		end = x->offset + x->len > end ? x->offset + x->len : end;
	}
	if (!maxlen)
		maxlen = 4096; /* syncs only */
	if (maxlen > (1ULL << 30))
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s: a request of %llu bytes (at most 1 GiB)", j->name,
			       j->read_iolog, (unsigned long long)maxlen);
	j->bs = maxlen;
	j->bs_write = j->bs_trim = 0;
	if (!j->size)
		j->size = end > j->offset ? (end - j->offset + maxlen - 1) / maxlen * maxlen : maxlen;
	for (size_t i = 0; i < log->n; i++) {
		const struct iolog_entry *x = &log->e[i];
		if (x->kind == IOLOG_IO && x->op <= IO_TRIM &&
		    (x->offset < j->offset || x->offset + x->len > j->offset + j->size))
			return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s: %s %u: %llu bytes at %llu lie outside the job's region (--offset %llu, --size %llu)",
				       j->name, j->read_iolog, log->blktrace ? "record" : "line", x->line, (unsigned long long)x->len,
				       (unsigned long long)x->offset, (unsigned long long)j->offset,
				       (unsigned long long)j->size);
	}
	return 0;
}

static int load(struct job *j, struct ig_err *e)
{
	if (nloaded == sizeof(loaded) / sizeof(loaded[0]))
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog: at most %zu logs a run", j->name,
			       sizeof(loaded) / sizeof(loaded[0]));
	struct iolog *log = calloc(1, sizeof(*log));
	char why[512];
	if (!log)
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog: out of memory", j->name);
	if (iolog_load(j->read_iolog, log, why, sizeof(why))) {
		free(log);
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s", j->name, why);
	}
	loaded[nloaded++] = log;
	transform(log, j);
	size_t ios = 0;
	for (size_t i = 0; i < log->n; i++)
		ios += log->e[i].kind == IOLOG_IO;
	if (!ios)
		return err_set(e, EXIT_USAGE, "job %s: --read_iolog=%s holds no request to replay", j->name, j->read_iolog);
	int rw = RW_RANDREAD;
	if (log_rw(j, log, j->read_iolog, e, &rw) || replay_target(j, log, e) || fit_job(j, log, e))
		return -1;
	j->rw = rw;
	j->plan.replay = log;
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
	if (j->numjobs > 1)
		return err_set(e, EXIT_USAGE, "job %s: %s with numjobs=%u: one thread a job (fio mixes the threads' lines in one log)",
			       j->name, opt, j->numjobs);
	if (j->nrfiles > 1 || strchr(j->filename, ':'))
		return err_set(e, EXIT_USAGE, "job %s: %s with several files: one file a job", j->name, opt);
	if (!j->read_iolog[0] || j->plan.replay)
		return 0;
	return load(j, e);
}
