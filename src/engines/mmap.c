/*
 * mmap: the whole file [0, file_size) is mapped once at init; requests are
 * memcpy()s between the mapping and the request buffer, syncs are msync().
 */
#include "common.h"
#include "engines/engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

struct mmap_priv {
	unsigned char *map;
	uint64_t size;
	bool writable;
};

static int mmap_init(struct engine_ctx *ctx)
{
	struct mmap_priv *p;
	struct stat st;
	uint64_t size = ctx->file_size;
	void *m;

	if (ctx->fd < 0)
		return -EBADF;
	if (fstat(ctx->fd, &st) < 0)
		return -errno;
	/* Touching pages past EOF of a regular file raises SIGBUS: stop there. */
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size < size)
		size = (uint64_t)st.st_size;
	if (size == 0 || size > SIZE_MAX)
		return -EINVAL;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->writable = true;
	m = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->fd, 0);
	if (m == MAP_FAILED && errno == EACCES) {
		/* Read-only descriptor. */
		p->writable = false;
		m = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, ctx->fd, 0);
	}
	if (m == MAP_FAILED) {
		int err = errno;
		free(p);
		return -err;
	}
	p->map = m;
	p->size = size;
	ctx->priv = p;
	return 0;
}

static void mmap_cleanup(struct engine_ctx *ctx)
{
	struct mmap_priv *p = ctx->priv;

	if (!p)
		return;
	munmap(p->map, (size_t)p->size);
	free(p);
	ctx->priv = NULL;
}

static int64_t mmap_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	struct mmap_priv *p = ctx->priv;
	uint64_t len = u->len;

	switch (u->op) {
	case IO_READ:
	case IO_WRITE:
		break;
	case IO_FSYNC:
	case IO_FDATASYNC:
		return msync(p->map, (size_t)p->size, MS_SYNC) < 0 ? -errno : 0;
	default:
		return -EINVAL;
	}
	if (unlikely(u->offset >= p->size))
		return -EINVAL;
	if (unlikely(len > p->size - u->offset))
		len = p->size - u->offset; /* short transfer at the end, like pread */
	if (u->op == IO_READ) {
		memcpy(u->buf, p->map + u->offset, (size_t)len);
	} else {
		if (!p->writable)
			return -EBADF;
		memcpy(p->map + u->offset, u->buf, (size_t)len);
	}
	return (int64_t)len;
}

const struct engine_ops engine_mmap = {
	.name = "mmap",
	.flags = ENGINE_SYNC | ENGINE_NO_DIRECT,
	.init = mmap_init,
	.cleanup = mmap_cleanup,
	.do_io = mmap_do_io,
};
