/* null: completes every request at once without a syscall (tool overhead). */
#include "engines/engine.h"

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
	return u->op <= IO_WRITE ? u->len : 0;
}

const struct engine_ops engine_null = {
	.name = "null",
	.flags = ENGINE_SYNC | ENGINE_NO_FILE,
	.init = null_init,
	.cleanup = null_cleanup,
	.do_io = null_do_io,
};
