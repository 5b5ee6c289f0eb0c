/*
 * ftruncate: fio's ftruncate engine.  Each write sets the file's size to the
 * request's offset (fio's ftruncate(fd, offset); no data moves, the request's
 * bytes are counted as fio counts them).  Writes only (job_validate); the
 * file is not laid out first (ENGINE_ALLOC).
 */
#include "model/engine.h"

#include <errno.h>
#include <unistd.h>

static int ftrunc_init(struct engine_ctx *ctx)
{
	return ctx->fd < 0 ? -EBADF : 0;
}

static void ftrunc_cleanup(struct engine_ctx *ctx)
{
	(void)ctx;
}

static int64_t ftrunc_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	(void)ctx;
	switch (u->op) {
	case IO_WRITE:
		return ftruncate(u->fd, (off_t)u->offset) ? -errno : (int64_t)u->len;
	case IO_FSYNC:
		return fsync(u->fd) ? -errno : 0;
	case IO_FDATASYNC:
		return fdatasync(u->fd) ? -errno : 0;
	default:
		return -EINVAL;
	}
}

const struct engine_ops engine_ftruncate = {
	.name = "ftruncate",
	.flags = ENGINE_SYNC | ENGINE_ALLOC | ENGINE_WRITES_ONLY,
	.init = ftrunc_init,
	.cleanup = ftrunc_cleanup,
	.do_io = ftrunc_do_io,
};
