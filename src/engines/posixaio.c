/*
 * posixaio: POSIX asynchronous I/O (glibc's aio_read, aio_write, aio_fsync;
 * its helper threads do the requests).  Completions are found by asking each
 * request in flight (aio_error) and, when none is done, waiting in
 * aio_suspend for any of them, as fio's posixaio does.  Trims have no POSIX
 * call: like fio, one is done in place once nothing is in flight.  One
 * preallocated aiocb per io_u slot; submit and reap allocate nothing.
 */
#include "base/common.h"
#include "model/engine.h"

#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

struct paio_priv {
	unsigned depth;
	struct aiocb *cbs;               /* [depth], by io_u->idx */
	struct io_u **flight;            /* [depth]: submitted, not yet seen complete */
	const struct aiocb **wait;       /* [depth]: aio_suspend's list */
	unsigned nflight;
	struct io_u **done;              /* [depth]: completed in place (trims, refused requests), FIFO */
	unsigned done_head, done_count;
};

static void paio_free(struct paio_priv *p)
{
	free(p->cbs);
	free(p->flight);
	free(p->wait);
	free(p->done);
	free(p);
}

static int paio_init(struct engine_ctx *ctx)
{
	unsigned depth = ctx->depth ? ctx->depth : 1;
	if (ctx->fd < 0)
		return -EBADF;
	struct paio_priv *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->depth = depth;
	p->cbs = calloc(depth, sizeof(*p->cbs));
	p->flight = calloc(depth, sizeof(*p->flight));
	p->wait = calloc(depth, sizeof(*p->wait));
	p->done = calloc(depth, sizeof(*p->done));
	if (!p->cbs || !p->flight || !p->wait || !p->done) {
		paio_free(p);
		return -ENOMEM;
	}
	ctx->priv = p;
	return 0;
}

static void paio_cleanup(struct engine_ctx *ctx)
{
	struct paio_priv *p = ctx->priv;
	if (!p)
		return;
	/* Nothing may be left in flight in memory about to be freed. */
	for (unsigned i = 0; i < p->nflight; i++) {
		struct aiocb *cb = &p->cbs[p->flight[i]->idx];
		if (aio_cancel(cb->aio_fildes, cb) == AIO_NOTCANCELED) {
			const struct aiocb *one[1] = { cb };
			while (aio_error(cb) == EINPROGRESS)
				aio_suspend(one, 1, NULL);
		}
	}
	paio_free(p);
	ctx->priv = NULL;
}

static void done_push(struct paio_priv *p, struct io_u *u)
{
	unsigned tail = p->done_head + p->done_count;
	p->done[tail >= p->depth ? tail - p->depth : tail] = u;
	p->done_count++;
}

/* Queue one request: 1 taken (in flight or done in place), 0 busy (reap first). */
static int queue_one(struct engine_ctx *ctx, struct paio_priv *p, struct io_u *u)
{
	if (u->op == IO_TRIM) {
		if (p->nflight)
			return 0; /* fio: a trim waits until nothing is in flight */
		u->res = engine_trim(ctx, u);
		done_push(p, u);
		return 1;
	}
	struct aiocb *cb = &p->cbs[u->idx];
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = u->fd;
	cb->aio_buf = u->buf;
	cb->aio_nbytes = u->len;
	cb->aio_offset = (off_t)u->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	int r;
	switch (u->op) {
	case IO_READ:
		r = aio_read(cb);
		break;
	case IO_WRITE:
		r = aio_write(cb);
		break;
	case IO_FSYNC:
		r = aio_fsync(O_SYNC, cb);
		break;
	case IO_FDATASYNC:
		r = aio_fsync(O_DSYNC, cb);
		break;
	default:
		errno = EINVAL;
		r = -1;
		break;
	}
	if (r && errno == EAGAIN && p->nflight)
		return 0;
	if (r) {
		u->res = -errno;
		done_push(p, u);
		return 1;
	}
	p->flight[p->nflight++] = u;
	return 1;
}

static int paio_submit(struct engine_ctx *ctx, struct io_u **us, unsigned n)
{
	struct paio_priv *p = ctx->priv;
	unsigned i;
	for (i = 0; i < n; i++) {
		if (unlikely(us[i]->idx >= p->depth))
			return i ? (int)i : -EINVAL;
		if (!queue_one(ctx, p, us[i]))
			break;
	}
	return (int)i;
}

/* Move the requests found complete to out; the rest stay in flight. */
static unsigned collect(struct paio_priv *p, unsigned max, struct io_u **out)
{
	unsigned got = 0;
	for (unsigned i = 0; i < p->nflight && got < max;) {
		struct io_u *u = p->flight[i];
		struct aiocb *cb = &p->cbs[u->idx];
		int err = aio_error(cb);
		if (err == EINPROGRESS) {
			i++;
			continue;
		}
		ssize_t r = aio_return(cb);
		u->res = err ? -err : (int64_t)r;
		out[got++] = u;
		p->flight[i] = p->flight[--p->nflight];
	}
	return got;
}

static int paio_reap(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	struct paio_priv *p = ctx->priv;
	unsigned got = 0;
	if (max > p->depth)
		max = p->depth;
	if (min > max)
		min = max;
	while (p->done_count && got < max) {
		out[got++] = p->done[p->done_head];
		if (++p->done_head == p->depth)
			p->done_head = 0;
		p->done_count--;
	}
	for (;;) {
		got += collect(p, max - got, out + got);
		if (got >= min || got >= max || !p->nflight)
			return (int)got;
		for (unsigned i = 0; i < p->nflight; i++)
			p->wait[i] = &p->cbs[p->flight[i]->idx];
		if (aio_suspend(p->wait, (int)p->nflight, NULL) && errno != EINTR && errno != EAGAIN)
			return got ? (int)got : -errno;
	}
}

const struct engine_ops engine_posixaio = {
	.name = "posixaio",
	.flags = ENGINE_TRIM,
	.init = paio_init,
	.cleanup = paio_cleanup,
	.submit = paio_submit,
	.reap = paio_reap,
};
