/* Messages, exits and small allocation helpers. */
#include "common.h"
#include "target.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void vmsg(const char *tag, const char *fmt, va_list ap)
{
	char line[1024];
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

void die_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	cleanup_files();
	exit(EXIT_USAGE);
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);
	if (!p) {
		msg_err("out of memory (%zu x %zu bytes)", n, sz);
		cleanup_files();
		exit(EXIT_IOERR);
	}
	return p;
}

void *xaligned(size_t align, size_t sz)
{
	void *p = NULL;
	if (posix_memalign(&p, align, sz ? sz : align)) {
		msg_err("out of memory (%zu aligned bytes)", sz);
		cleanup_files();
		exit(EXIT_IOERR);
	}
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
