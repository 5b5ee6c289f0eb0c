/*
 * psync: one pread/pwrite per request, like fio's psync (the request carries
 * its file); pvsync and pvsync2: the same with preadv/pwritev and
 * preadv2/pwritev2 of one vector, as fio's.  pvsync2 passes the job's
 * hipri, nowait and uncached as RWF_ flags.
 */
#include "engines/engine.h"

#include <errno.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

/* Newer than some C libraries' headers: the kernel's values. */
#ifndef RWF_HIPRI
#define RWF_HIPRI 0x00000001
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif
/* fio 3.33's uncached is RWF_UNCACHED (0x40, a patch Linux never took; 0x40 is RWF_ATOMIC since
 * 6.11): the kernel's own uncached buffered I/O is RWF_DONTCACHE (6.14). */
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif

enum vec_mode { PLAIN, VEC, VEC2 };

static int psync_init(struct engine_ctx *ctx)
{
	return ctx->fd < 0 ? -EBADF : 0;
}

/* pvsync2's RWF_ flags, computed once: kept in priv itself (no allocation to free). */
static int pvsync2_init(struct engine_ctx *ctx)
{
	uintptr_t f = (ctx->opts & ENGINE_OPT_HIPRI ? RWF_HIPRI : 0) |
		      (ctx->opts & ENGINE_OPT_NOWAIT ? RWF_NOWAIT : 0) |
		      (ctx->opts & ENGINE_OPT_UNCACHED ? RWF_DONTCACHE : 0);
	ctx->priv = (void *)f;
	return psync_init(ctx);
}

static void psync_cleanup(struct engine_ctx *ctx)
{
	ctx->priv = NULL;
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

/* The one positioned read or write of each engine; inlined per engine, the mode folds away. */
static inline __attribute__((always_inline)) int64_t prw(struct engine_ctx *ctx, struct io_u *u,
							 enum vec_mode m)
{
	ssize_t r;
	if (u->op > IO_WRITE)
		return psync_other(ctx, u);
	/* Everything read from u inside the loop: psync's code is exactly pread/pwrite's. */
	do {
		if (m == PLAIN) {
			r = u->op == IO_READ ? pread(u->fd, u->buf, u->len, (off_t)u->offset) :
					       pwrite(u->fd, u->buf, u->len, (off_t)u->offset);
		} else {
			struct iovec iov = { u->buf, u->len };
			off_t off = (off_t)u->offset;
			int flags = m == VEC2 ? (int)(uintptr_t)ctx->priv : 0;
			if (m == VEC)
				r = u->op == IO_READ ? preadv(u->fd, &iov, 1, off) : pwritev(u->fd, &iov, 1, off);
			else
				r = u->op == IO_READ ? preadv2(u->fd, &iov, 1, off, flags) :
						       pwritev2(u->fd, &iov, 1, off, flags);
		}
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

static int64_t psync_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	return prw(ctx, u, PLAIN);
}

static int64_t pvsync_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	return prw(ctx, u, VEC);
}

static int64_t pvsync2_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	return prw(ctx, u, VEC2);
}

const struct engine_ops engine_psync = {
	.name = "psync",
	.flags = ENGINE_SYNC | ENGINE_TRIM,
	.init = psync_init,
	.cleanup = psync_cleanup,
	.do_io = psync_do_io,
};

const struct engine_ops engine_pvsync = {
	.name = "pvsync",
	.flags = ENGINE_SYNC | ENGINE_TRIM,
	.init = psync_init,
	.cleanup = psync_cleanup,
	.do_io = pvsync_do_io,
};

const struct engine_ops engine_pvsync2 = {
	.name = "pvsync2",
	.flags = ENGINE_SYNC | ENGINE_TRIM,
	.honours = ENGINE_OPT_HIPRI | ENGINE_OPT_NOWAIT | ENGINE_OPT_UNCACHED,
	.init = pvsync2_init,
	.cleanup = psync_cleanup,
	.do_io = pvsync2_do_io,
};
