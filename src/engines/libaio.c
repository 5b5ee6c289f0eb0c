/*
 * libaio: Linux native AIO.  One preallocated iocb per io_u slot (u->idx);
 * submit and reap allocate nothing.
 *
 * Kernels or files without AIO fsync support reject IOCB_CMD_FSYNC/FDSYNC
 * with -EINVAL at io_submit time; such syncs are then done synchronously and
 * handed back by the next reap.  Trims (no AIO opcode) are always done so.
 */
#include "base/common.h"
#include "model/engine.h"
#include "model/cmdprio.h"

#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1) /* linux/aio_abi.h: aio_reqprio is an ioprio */
#endif

struct aio_priv {
	io_context_t aio;
	unsigned depth;
	struct iocb *iocbs;       /* [depth], indexed by io_u->idx */
	struct iocb **ptrs;       /* [depth], submit batch */
	struct io_event *events;  /* [depth] */
	struct io_u **done;       /* [depth], completed inline, FIFO */
	unsigned done_head, done_count;
	bool sync_inline;         /* kernel refused AIO fsync once */
};

static void aio_free(struct aio_priv *p)
{
	free(p->iocbs);
	free(p->ptrs);
	free(p->events);
	free(p->done);
	free(p);
}

static int aio_init(struct engine_ctx *ctx)
{
	struct aio_priv *p;
	unsigned depth = ctx->depth ? ctx->depth : 1;
	int ret;

	if (ctx->fd < 0)
		return -EBADF;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->depth = depth;
	p->iocbs = calloc(depth, sizeof(*p->iocbs));
	p->ptrs = calloc(depth, sizeof(*p->ptrs));
	p->events = calloc(depth, sizeof(*p->events));
	p->done = calloc(depth, sizeof(*p->done));
	if (!p->iocbs || !p->ptrs || !p->events || !p->done) {
		aio_free(p);
		return -ENOMEM;
	}
	ret = io_setup((int)depth, &p->aio);
	if (ret < 0) {
		aio_free(p);
		return ret;
	}
	ctx->priv = p;
	return 0;
}

static void aio_cleanup(struct engine_ctx *ctx)
{
	struct aio_priv *p = ctx->priv;

	if (!p)
		return;
	io_destroy(p->aio);
	aio_free(p);
	ctx->priv = NULL;
}

static void done_push(struct aio_priv *p, struct io_u *u)
{
	unsigned tail = p->done_head + p->done_count;
	if (tail >= p->depth)
		tail -= p->depth;
	p->done[tail] = u;
	p->done_count++;
}

static int sync_now(struct engine_ctx *ctx, struct io_u *u)
{
	int r;
	(void)ctx;

	do
		r = u->op == IO_FSYNC ? fsync(u->fd) : fdatasync(u->fd);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

static int aio_submit(struct engine_ctx *ctx, struct io_u **us, unsigned n)
{
	struct aio_priv *p = ctx->priv;
	unsigned accepted = 0, k = 0, i;
	int ret, bad = 0;

	if (n > p->depth)
		n = p->depth;

	/* Build the batch; syncs the kernel cannot queue are done in place. */
	for (i = 0; i < n; i++) {
		struct io_u *u = us[i];
		struct iocb *cb;

		if (unlikely(u->idx >= p->depth)) {
			bad = -EINVAL;
			break;
		}
		cb = &p->iocbs[u->idx];
		switch (u->op) {
		case IO_READ:
			io_prep_pread(cb, u->fd, u->buf, u->len, (long long)u->offset);
			break;
		case IO_WRITE:
			io_prep_pwrite(cb, u->fd, u->buf, u->len, (long long)u->offset);
			break;
		case IO_TRIM:
			goto inline_sync; /* no AIO discard: done here, as fio does */
		case IO_FSYNC:
		case IO_FDATASYNC:
			if (p->sync_inline)
				goto inline_sync;
			if (u->op == IO_FSYNC)
				io_prep_fsync(cb, u->fd);
			else
				io_prep_fdsync(cb, u->fd);
			break;
		default:
			bad = -EINVAL;
			goto stop;
		}
		/* fio's cmdprio: the drawn requests carry their priority (the others the thread's). */
		if (unlikely(ctx->prio != NULL) && u->op <= IO_WRITE && cmdprio_pick(ctx->prio, u)) {
			cb->aio_reqprio = (short)u->ioprio;
			cb->u.c.flags |= IOCB_FLAG_IOPRIO;
		}
		cb->data = u;
		p->ptrs[k++] = cb;
		continue;
inline_sync:
		/* Keep ordering simple: only when nothing precedes it in the batch. */
		if (k)
			goto stop;
		u->res = u->op == IO_TRIM ? engine_trim(ctx, u) : sync_now(ctx, u);
		done_push(p, u);
		accepted++;
	}
stop:
	i = 0;
	while (i < k) {
		ret = io_submit(p->aio, (long)(k - i), p->ptrs + i);
		if (ret > 0) {
			i += (unsigned)ret;
			accepted += (unsigned)ret;
			continue;
		}
		if (ret == -EINTR)
			continue;
		if (ret == -EINVAL) {
			struct io_u *u = p->ptrs[i]->data;
			if (u->op == IO_FSYNC || u->op == IO_FDATASYNC) {
				p->sync_inline = true;
				u->res = sync_now(ctx, u);
				done_push(p, u);
				accepted++;
				i++;
				continue;
			}
		}
		if (ret == -EAGAIN || ret == 0 || accepted)
			break;
		return ret;
	}
	/* An invalid request at the head of the batch is an error, not "busy". */
	if (!accepted && i == k && bad)
		return bad;
	return (int)accepted;
}

static int aio_reap(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	struct aio_priv *p = ctx->priv;
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
	if (got && got >= min)
		return (int)got;

	while (got < max) {
		unsigned want = got >= min ? 0 : min - got;
		int ret = io_getevents(p->aio, (long)want, (long)(max - got), p->events, NULL);

		if (ret < 0) {
			if (ret == -EINTR)
				continue;
			return got ? (int)got : ret;
		}
		for (int j = 0; j < ret; j++) {
			struct io_event *ev = &p->events[j];
			struct io_u *u = ev->data;
			/* res is unsigned long holding a long: negative = -errno. */
			u->res = (int64_t)(long)ev->res;
			out[got++] = u;
		}
		if (got >= min)
			break;
	}
	return (int)got;
}

const struct engine_ops engine_libaio = {
	.name = "libaio",
	.flags = ENGINE_TRIM,
	.init = aio_init,
	.cleanup = aio_cleanup,
	.do_io = NULL,
	.submit = aio_submit,
	.reap = aio_reap,
};
