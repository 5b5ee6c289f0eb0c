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

static int64_t psync_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	ssize_t r;

	for (;;) {
		switch (u->op) {
		case IO_READ:
			r = pread(u->fd, u->buf, u->len, (off_t)u->offset);
			break;
		case IO_WRITE:
			r = pwrite(u->fd, u->buf, u->len, (off_t)u->offset);
			break;
		case IO_FSYNC:
			r = fsync(u->fd);
			break;
		case IO_FDATASYNC:
			r = fdatasync(u->fd);
			break;
		case IO_TRIM:
			return engine_trim(ctx, u);
		default:
			return -EINVAL;
		}
		if (r >= 0)
			return r;
		if (errno != EINTR)
			return -errno;
	}
}

const struct engine_ops engine_psync = {
	.name = "psync",
	.flags = ENGINE_SYNC | ENGINE_TRIM,
	.init = psync_init,
	.cleanup = psync_cleanup,
	.do_io = psync_do_io,
};
