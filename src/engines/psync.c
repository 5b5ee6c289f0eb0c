/*
 * psync: one pread/pwrite per request, like fio's psync (the request carries
 * its file); pvsync and pvsync2: the same with preadv/pwritev and
 * preadv2/pwritev2 of one vector, as fio's.  pvsync2 passes the job's
 * hipri (on hipri_percentage of the requests), nowait and uncached as RWF_ flags.
 */
#include "base/common.h"
#include "model/engine.h"
#include "model/fiorand.h"
#include "model/job.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
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

/* pvsync2's RWF_ flags, computed once, and hipri_percentage's draw (fio's stream, seeded 1 as fio's). */
struct pv2 {
	int flags;
	bool draw;        /* hipri with hipri_percentage < 100: RWF_HIPRI on the drawn requests */
	unsigned pct;
	struct fio_rand r;
};

static int pvsync2_init(struct engine_ctx *ctx)
{
	struct pv2 *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->flags = (ctx->opts & ENGINE_OPT_HIPRI ? RWF_HIPRI : 0) |
		   (ctx->opts & ENGINE_OPT_NOWAIT ? RWF_NOWAIT : 0) |
		   (ctx->opts & ENGINE_OPT_UNCACHED ? RWF_DONTCACHE : 0);
	p->pct = ctx->job ? ctx->job->hipri_pct : 100;
	p->draw = (ctx->opts & ENGINE_OPT_HIPRI) && p->pct < 100;
	fio_rand_init(&p->r, 1, false);
	ctx->priv = p;
	return psync_init(ctx);
}

static void pvsync2_cleanup(struct engine_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
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
							 enum vec_mode m, int flags)
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
	return prw(ctx, u, PLAIN, 0);
}

static int64_t pvsync_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	return prw(ctx, u, VEC, 0);
}

static int64_t pvsync2_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	struct pv2 *p = ctx->priv;
	int flags = p->flags;
	/* fio draws for every request it queues (rand_between(1, 100) <= hipri_percentage). */
	if (unlikely(p->draw) && fio_rand_pct(&p->r) > p->pct)
		flags &= ~RWF_HIPRI;
	return prw(ctx, u, VEC2, flags);
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
	.cleanup = pvsync2_cleanup,
	.do_io = pvsync2_do_io,
};
