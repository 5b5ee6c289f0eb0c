/* fio's I/O logs, version 2 and 3: parsing and writing (iolog.h). */
#include "base/common.h"
#include "model/iolog.h"
#include "model/ops.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char ver2[] = "fio version 2 iolog", ver3[] = "fio version 3 iolog";

static const struct {
	const char *name;
	int op;
} io_words[] = { { "read", IO_READ },	  { "write", IO_WRITE },	 { "trim", IO_TRIM },
		 { "sync", IO_FSYNC }, { "datasync", IO_FDATASYNC } };

const char *iolog_op_name(int op)
{
	for (size_t i = 0; i < sizeof(io_words) / sizeof(io_words[0]); i++)
		if (io_words[i].op == op)
			return io_words[i].name;
	return NULL;
}

static int bad(char *err, size_t n, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int bad(char *err, size_t n, unsigned line, const char *fmt, ...)
{
	char what[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(err, n, "line %u: %s", line, what);
	return -1;
}

/* A decimal number, all of the word. */
static bool number(const char *w, uint64_t *out)
{
	if (!*w || *w < '0' || *w > '9')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(w, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

static int file_index(struct iolog *log, const char *name)
{
	for (unsigned i = 0; i < log->nfiles; i++)
		if (!strcmp(log->files[i], name))
			return (int)i;
	if (log->nfiles == IOLOG_MAX_FILES)
		return -1;
	log->files[log->nfiles] = strdup(name);
	if (!log->files[log->nfiles])
		return -1;
	return (int)log->nfiles++;
}

struct iolog_entry *iolog_push(struct iolog *log)
{
	if (log->n == log->cap) {
		size_t cap = log->cap ? log->cap * 2 : 1024;
		struct iolog_entry *e = realloc(log->e, cap * sizeof(*e));
		if (!e)
			return NULL;
		log->e = e;
		log->cap = cap;
	}
	struct iolog_entry *e = &log->e[log->n++];
	memset(e, 0, sizeof(*e));
	return e;
}

/* One line's words (at most 6, so a seventh is seen and refused). */
static unsigned split(char *s, char *w[6])
{
	unsigned n = 0;
	for (char *p = strtok(s, " \t\r"); p; p = strtok(NULL, " \t\r")) {
		if (n == 6)
			return 7;
		w[n++] = p;
	}
	return n;
}

static int parse_line(struct iolog *log, char *s, unsigned line, char *err, size_t n)
{
	char *w[6];
	unsigned nw = split(s, w), i = 0;
	if (!nw)
		return 0; /* an empty line */
	uint64_t t = 0;
	if (log->version == 3) {
		if (!number(w[0], &t))
			return bad(err, n, line, "'%s' is not a timestamp (microseconds)", w[0]);
		i = 1;
	}
	if (nw - i != 2 && nw - i != 4)
		return bad(err, n, line, "expected %sFILE ACTION [OFFSET LENGTH], got %u words",
			   log->version == 3 ? "TIME " : "", nw);
	const char *act = w[i + 1];
	struct iolog_entry e = { .t_us = t, .line = line };
	if (nw - i == 2) {
		if (!strcmp(act, "add"))
			e.kind = IOLOG_ADD;
		else if (!strcmp(act, "open"))
			e.kind = IOLOG_OPEN;
		else if (!strcmp(act, "close"))
			e.kind = IOLOG_CLOSE;
		else
			return bad(err, n, line, "'%s' is not a file action (add, open, close)", act);
	} else {
		uint64_t off, len;
		if (!number(w[i + 2], &off))
			return bad(err, n, line, "'%s' is not an offset", w[i + 2]);
		if (!number(w[i + 3], &len) || len > UINT32_MAX)
			return bad(err, n, line, "'%s' is not a length", w[i + 3]);
		e.offset = off;
		e.len = (uint32_t)len;
		if (!strcmp(act, "wait")) {
			if (log->version == 3)
				return 0; /* fio ignores waits in version 3 logs */
			e.kind = IOLOG_WAIT;
			e.t_us = off; /* version 2: the wait in microseconds */
		} else {
			size_t k;
			for (k = 0; k < sizeof(io_words) / sizeof(io_words[0]); k++)
				if (!strcmp(act, io_words[k].name))
					break;
			if (k == sizeof(io_words) / sizeof(io_words[0]))
				return bad(err, n, line, "'%s' is not an action (read, write, trim, sync, datasync, wait)",
					   act);
			e.kind = IOLOG_IO;
			e.op = (uint8_t)io_words[k].op;
			if (!len && e.op <= IO_TRIM)
				return bad(err, n, line, "a %s of 0 bytes", act);
			if (off + len < off)
				return bad(err, n, line, "offset %s + length %s is past 2^64", w[i + 2], w[i + 3]);
		}
	}
	int f = file_index(log, w[i]);
	if (f < 0)
		return bad(err, n, line, "more than %d files", IOLOG_MAX_FILES);
	e.file = (uint16_t)f;
	struct iolog_entry *slot = iolog_push(log);
	if (!slot)
		return bad(err, n, line, "out of memory");
	*slot = e;
	return 0;
}

int iolog_parse(const char *text, size_t len, struct iolog *log, char *err, size_t errlen)
{
	memset(log, 0, sizeof(*log));
	const char *nl = memchr(text, '\n', len);
	size_t l0 = nl ? (size_t)(nl - text) : len;
	if (l0 >= sizeof(ver2) - 1 && !memcmp(text, ver2, sizeof(ver2) - 1))
		log->version = 2;
	else if (l0 >= sizeof(ver3) - 1 && !memcmp(text, ver3, sizeof(ver3) - 1))
		log->version = 3;
	else
		return bad(err, errlen, 1, "not a fio iolog (the first line is not 'fio version 2 iolog' or 'fio version 3 iolog')");
	char buf[4096];
	unsigned line = 1;
	for (size_t p = nl ? l0 + 1 : len; p < len; line++) {
		const char *e = memchr(text + p, '\n', len - p);
		size_t ll = e ? (size_t)(e - (text + p)) : len - p;
		if (ll >= sizeof(buf)) {
			iolog_free(log);
			return bad(err, errlen, line + 1, "longer than %zu characters", sizeof(buf) - 1);
		}
		if (memchr(text + p, 0, ll)) {
			iolog_free(log);
			return bad(err, errlen, line + 1, "not text (a NUL byte)");
		}
		memcpy(buf, text + p, ll);
		buf[ll] = 0;
		if (parse_line(log, buf, line + 1, err, errlen)) {
			iolog_free(log);
			return -1;
		}
		p += ll + 1;
	}
	return 0;
}

int iolog_load(const char *path, struct iolog *log, char *err, size_t errlen)
{
	memset(log, 0, sizeof(*log));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > IOLOG_MAX_BYTES) {
		snprintf(err, errlen, "%s: not a regular file of at most %u MiB", path, IOLOG_MAX_BYTES >> 20);
		close(fd);
		return -1;
	}
	size_t size = (size_t)st.st_size, got = 0;
	char *text = malloc(size + 1);
	if (!text) {
		close(fd);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	while (got < size) {
		ssize_t r = read(fd, text + got, size - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	int rc;
	char why[256];
	if (blktrace_byte_order((const unsigned char *)text, got) >= 0)
		rc = blktrace_parse((const unsigned char *)text, got, log, why, sizeof(why));
	else
		rc = iolog_parse(text, got, log, why, sizeof(why));
	if (rc)
		snprintf(err, errlen, "%s: %s", path, why);
	free(text);
	return rc;
}

void iolog_free(struct iolog *log)
{
	for (unsigned i = 0; i < log->nfiles; i++)
		free(log->files[i]);
	free(log->e);
	memset(log, 0, sizeof(*log));
}

bool iolog_has_op(const struct iolog *log, int op)
{
	for (size_t i = 0; i < log->n; i++)
		if (log->e[i].kind == IOLOG_IO && log->e[i].op == op)
			return true;
	return false;
}

/* ---- writing */

static void put(struct iolog_writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct iolog_writer *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (vfprintf(w->f, fmt, ap) < 0 && !w->err)
		w->err = errno ? errno : EIO;
	va_end(ap);
}

static unsigned long long since(const struct iolog_writer *w)
{
	return (unsigned long long)((now_ns() - w->t0) / 1000);
}

int iolog_writer_open(struct iolog_writer *w, const char *path, const char *name)
{
	/*
	 * Checked before the run (outfile_check); again on the descriptor, as the
	 * path may have changed: a regular file or /dev/null only, and a FIFO
	 * never blocks the open.
	 */
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) || !(S_ISREG(st.st_mode) || (S_ISCHR(st.st_mode) && !strcmp(path, "/dev/null"))) ||
	    fcntl(fd, F_SETFL, O_APPEND) < 0 || !(w->f = fdopen(fd, "a"))) {
		close(fd);
		return -EINVAL;
	}
	setvbuf(w->f, w->buf, _IOFBF, sizeof(w->buf));
	w->t0 = now_ns();
	w->name = name;
	w->last_off = 0;
	w->err = 0;
	put(w, "%s\n", ver3);
	iolog_writer_file(w, "add");
	return 0;
}

void iolog_writer_file(struct iolog_writer *w, const char *action)
{
	put(w, "%llu %s %s\n", since(w), w->name, action);
}

void iolog_writer_io(struct iolog_writer *w, int op, uint64_t offset, uint64_t len)
{
	const char *word = iolog_op_name(op);
	if (!word)
		return;
	if (op == IO_FSYNC || op == IO_FDATASYNC) {
		offset = w->last_off;
		len = 0;
	}
	put(w, "%llu %s %s %llu %llu\n", since(w), w->name, word, (unsigned long long)offset,
	    (unsigned long long)len);
	w->last_off = offset;
}

int iolog_writer_close(struct iolog_writer *w)
{
	if (!w->f)
		return 0;
	if (fclose(w->f) && !w->err)
		w->err = errno ? errno : EIO;
	w->f = NULL;
	return w->err ? -w->err : 0;
}
