/*
 * null: completes every request at once without a syscall (tool overhead).
 * As fio's null engine, it is synchronous at iodepth=1 and asynchronous
 * above: requests are queued by submit and handed back by the next reap, so
 * the depth, slat and clat are accounted as for a real asynchronous engine.
 */
#include "model/engine.h"

#include <errno.h>
#include <stdlib.h>

static int null_init(struct engine_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static void null_cleanup(struct engine_ctx *ctx)
{
	(void)ctx;
}

static int64_t null_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	(void)ctx;
	return io_op_is_data(u->op) ? u->len : 0;
}

const struct engine_ops engine_null = {
	.name = "null",
	.flags = ENGINE_SYNC | ENGINE_NO_FILE | ENGINE_TRIM,
	.init = null_init,
	.cleanup = null_cleanup,
	.do_io = null_do_io,
};

/* The asynchronous null: a ring of the requests submitted and not yet reaped. */
struct null_ring {
	struct io_u **q;
	unsigned depth, head, count;
};

static int null_async_init(struct engine_ctx *ctx)
{
	struct null_ring *r = calloc(1, sizeof(*r));
	unsigned depth = ctx->depth ? ctx->depth : 1;
	if (!r || !(r->q = calloc(depth, sizeof(*r->q)))) {
		free(r);
		return -ENOMEM;
	}
	r->depth = depth;
	ctx->priv = r;
	return 0;
}

static void null_async_cleanup(struct engine_ctx *ctx)
{
	struct null_ring *r = ctx->priv;
	if (r)
		free(r->q);
	free(r);
	ctx->priv = NULL;
}

static int null_submit(struct engine_ctx *ctx, struct io_u **us, unsigned n)
{
	struct null_ring *r = ctx->priv;
	unsigned i;
	for (i = 0; i < n && r->count < r->depth; i++) {
		unsigned tail = r->head + r->count;
		us[i]->res = null_do_io(ctx, us[i]);
		r->q[tail >= r->depth ? tail - r->depth : tail] = us[i];
		r->count++;
	}
	return (int)i;
}

static int null_reap(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	struct null_ring *r = ctx->priv;
	unsigned got = 0;
	(void)min; /* everything queued is complete */
	while (r->count && got < max) {
		out[got++] = r->q[r->head];
		if (++r->head == r->depth)
			r->head = 0;
		r->count--;
	}
	return (int)got;
}

/* Not in the registry: the job takes it for --ioengine=null with --iodepth > 1 (job_normalise). */
const struct engine_ops engine_null_async = {
	.name = "null",
	.flags = ENGINE_NO_FILE | ENGINE_TRIM,
	.init = null_async_init,
	.cleanup = null_async_cleanup,
	.submit = null_submit,
	.reap = null_reap,
};
