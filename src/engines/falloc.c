/*
 * falloc: fio's fallocate engine.  No data moves: a read preallocates its
 * range without changing the file's size (FALLOC_FL_KEEP_SIZE), a write
 * allocates it (extending the file), a trim punches it out.  A file it
 * writes or trims is not laid out first (ENGINE_ALLOC): its extents are what
 * the job makes them.
 */
#include "model/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int falloc_init(struct engine_ctx *ctx)
{
	return ctx->fd < 0 ? -EBADF : 0;
}

static void falloc_cleanup(struct engine_ctx *ctx)
{
	(void)ctx;
}

static int64_t falloc_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	int mode, r;
	switch (u->op) {
	case IO_READ:
		mode = FALLOC_FL_KEEP_SIZE;
		break;
	case IO_WRITE:
		mode = 0;
		break;
	case IO_TRIM:
		if (ctx->blkdev)
			return engine_trim(ctx, u); /* a discard, as the other engines' trims */
		mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
		break;
	case IO_FSYNC:
		return fsync(u->fd) ? -errno : 0;
	case IO_FDATASYNC:
		return fdatasync(u->fd) ? -errno : 0;
	default:
		return -EINVAL;
	}
	do
		r = fallocate(u->fd, mode, (off_t)u->offset, (off_t)u->len);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : (int64_t)u->len;
}

const struct engine_ops engine_falloc = {
	.name = "falloc",
	.flags = ENGINE_SYNC | ENGINE_TRIM | ENGINE_ALLOC,
	.init = falloc_init,
	.cleanup = falloc_cleanup,
	.do_io = falloc_do_io,
};
