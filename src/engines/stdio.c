/*
 * stdio: a request of bs bytes is bs characters, each through putc() or
 * getc() on a stdio stream with its own buffer — bonnie's per-character
 * tests.  The stream's buffer decides when the kernel sees the bytes; a
 * sync flushes the stream first.  A request is timed as a whole (one clock
 * read per character would measure the clock).
 */
#include "model/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct stdio_priv {
	FILE *f;
	uint64_t pos; /* stream position after the last request; UINT64_MAX unknown */
};

static int stdio_init(struct engine_ctx *ctx)
{
	if (ctx->fd < 0)
		return -EBADF;
	int fd = dup(ctx->fd);
	if (fd < 0)
		return -errno;
	int acc = fcntl(fd, F_GETFL) & O_ACCMODE;
	FILE *f = fdopen(fd, acc == O_RDONLY ? "r" : "r+");
	if (!f) {
		int err = errno;
		close(fd);
		return -err;
	}
	struct stdio_priv *p = malloc(sizeof(*p));
	if (!p) {
		fclose(f);
		return -ENOMEM;
	}
	p->f = f;
	p->pos = UINT64_MAX;
	ctx->priv = p;
	return 0;
}

static void stdio_cleanup(struct engine_ctx *ctx)
{
	struct stdio_priv *p = ctx->priv;
	if (p)
		fclose(p->f); /* writes what the buffer still holds: less than one buffer, not timed */
	free(p);
	ctx->priv = NULL;
}

static int64_t stdio_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	struct stdio_priv *p = ctx->priv;
	FILE *f = p->f;
	const unsigned char *in = u->buf;
	unsigned char *out = u->buf;
	int r;

	switch (u->op) {
	case IO_FSYNC:
	case IO_FDATASYNC:
		if (fflush(f))
			return -errno;
		do
			r = u->op == IO_FSYNC ? fsync(fileno(f)) : fdatasync(fileno(f));
		while (r < 0 && errno == EINTR);
		return r < 0 ? -errno : 0;
	case IO_READ:
	case IO_WRITE:
		break;
	default:
		return -EINVAL;
	}
	if (p->pos != u->offset && fseeko(f, (off_t)u->offset, SEEK_SET)) {
		p->pos = UINT64_MAX;
		return -errno;
	}
	p->pos = u->offset;
	uint32_t i = 0;
	if (u->op == IO_WRITE) {
		for (; i < u->len; i++)
			if (putc(in[i], f) == EOF)
				break;
	} else {
		for (; i < u->len; i++) {
			int c = getc(f);
			if (c == EOF)
				break;
			out[i] = (unsigned char)c;
		}
	}
	p->pos += i;
	if (i < u->len && ferror(f)) {
		int err = errno ? errno : EIO;
		clearerr(f);
		p->pos = UINT64_MAX;
		return -err;
	}
	return i;
}

const struct engine_ops engine_stdio = {
	.name = "stdio",
	.flags = ENGINE_SYNC | ENGINE_NO_DIRECT,
	.init = stdio_init,
	.cleanup = stdio_cleanup,
	.do_io = stdio_do_io,
};
