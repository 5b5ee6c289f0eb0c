/* psync: one pread/pwrite per request, like fio's psync (the request carries its file). */
#include "engines/engine.h"

#include <errno.h>
#include <unistd.h>

static int psync_init(struct engine_ctx *ctx)
{
	return ctx->fd < 0 ? -EBADF : 0;
}

static void psync_cleanup(struct engine_ctx *ctx)
{
	(void)ctx;
}

/* Syncs and trims: rarer than reads and writes, out of the hot path. */
static __attribute__((noinline)) int64_t psync_other(struct engine_ctx *ctx, struct io_u *u)
{
	int r;
	switch (u->op) {
	case IO_FSYNC:
	case IO_FDATASYNC:
		do
			r = u->op == IO_FSYNC ? fsync(u->fd) : fdatasync(u->fd);
		while (r < 0 && errno == EINTR);
		return r < 0 ? -errno : 0;
	case IO_TRIM:
		return engine_trim(ctx, u);
	default:
		return -EINVAL;
	}
}

static int64_t psync_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	ssize_t r;
	if (u->op > IO_WRITE)
		return psync_other(ctx, u);
	do
		r = u->op == IO_READ ? pread(u->fd, u->buf, u->len, (off_t)u->offset) :
				       pwrite(u->fd, u->buf, u->len, (off_t)u->offset);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

const struct engine_ops engine_psync = {
	.name = "psync",
	.flags = ENGINE_SYNC | ENGINE_TRIM,
	.init = psync_init,
	.cleanup = psync_cleanup,
	.do_io = psync_do_io,
};
