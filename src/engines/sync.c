/*
 * sync: lseek + read/write, like fio's "sync" engine; vsync: the same with
 * readv/writev of one vector (fio's vsync).  As in fio, the lseek is skipped
 * when the file position already equals the requested offset (sequential
 * I/O), so each thread needs its own open file description.
 */
#include "model/engine.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#define POS_UNKNOWN UINT64_MAX

struct sync_priv {
	uint64_t pos; /* file position after the last request */
};

static int sync_init(struct engine_ctx *ctx)
{
	struct sync_priv *p;

	if (ctx->fd < 0)
		return -EBADF;
	p = malloc(sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->pos = POS_UNKNOWN;
	ctx->priv = p;
	return 0;
}

static void sync_cleanup(struct engine_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

/* vec: readv/writev (vsync), else read/write; inlined into each engine's do_io, no branch left. */
static inline __attribute__((always_inline)) int64_t seek_rw(struct engine_ctx *ctx, struct io_u *u,
							     bool vec)
{
	struct sync_priv *p = ctx->priv;
	ssize_t r;

	if (u->op == IO_FSYNC || u->op == IO_FDATASYNC) {
		do
			r = u->op == IO_FSYNC ? fsync(u->fd) : fdatasync(u->fd);
		while (r < 0 && errno == EINTR);
		return r < 0 ? -errno : 0;
	}
	if (u->op == IO_TRIM)
		return engine_trim(ctx, u); /* no read or write: the file position stays */
	if (u->op != IO_READ && u->op != IO_WRITE)
		return -EINVAL;

	if (p->pos != u->offset) {
		if (lseek(u->fd, (off_t)u->offset, SEEK_SET) < 0) {
			p->pos = POS_UNKNOWN;
			return -errno;
		}
		p->pos = u->offset;
	}
	struct iovec iov = { u->buf, u->len };
	do {
		if (vec)
			r = u->op == IO_READ ? readv(u->fd, &iov, 1) : writev(u->fd, &iov, 1);
		else if (u->op == IO_READ)
			r = read(u->fd, u->buf, u->len);
		else
			r = write(u->fd, u->buf, u->len);
	} while (r < 0 && errno == EINTR);
	if (r < 0) {
		int err = errno;
		p->pos = POS_UNKNOWN;
		return -err;
	}
	p->pos += (uint64_t)r;
	return r;
}

static int64_t sync_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	return seek_rw(ctx, u, false);
}

static int64_t vsync_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	return seek_rw(ctx, u, true);
}

const struct engine_ops engine_sync = {
	.name = "sync",
	.flags = ENGINE_SYNC | ENGINE_TRIM,
	.init = sync_init,
	.cleanup = sync_cleanup,
	.do_io = sync_do_io,
};

const struct engine_ops engine_vsync = {
	.name = "vsync",
	.flags = ENGINE_SYNC | ENGINE_TRIM,
	.init = sync_init,
	.cleanup = sync_cleanup,
	.do_io = vsync_do_io,
};
