/* Errors as values, messages and small allocation helpers. */
#include "base/common.h"
#include "base/ctx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int err_set(struct ig_err *e, int status, const char *fmt, ...)
{
	if (!e || e->status)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	e->status = status;
	return -1;
}

static void vmsg(const char *tag, const char *fmt, va_list ap)
{
	char line[ERR_MSG_MAX + 64];
	vsnprintf(line, sizeof(line), fmt, ap);
	fprintf(stderr, "iogauge: %s%s\n", tag, line);
}

void msg_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void msg_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

static void __attribute__((noreturn)) out_of_memory(size_t bytes)
{
	msg_err("out of memory (%zu bytes)", bytes);
	ctx_emergency();
	exit(EXIT_IOERR);
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);
	if (!p)
		out_of_memory(n * sz);
	return p;
}

void *xaligned(size_t align, size_t sz)
{
	void *p = NULL;
	if (posix_memalign(&p, align, sz ? sz : align))
		out_of_memory(sz);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		out_of_memory(strlen(s) + 1);
	return p;
}

const char *fmt_bytes(char *buf, size_t len, double bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned u = 0;
	while (bytes >= 1024 && u + 1 < ARRAY_SIZE(unit)) {
		bytes /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%.0f %s", bytes, unit[u]);
	else
		snprintf(buf, len, "%.*f %s", bytes < 10 ? 2 : bytes < 100 ? 1 : 0, bytes, unit[u]);
	return buf;
}
