/*
 * mmap: the whole file [0, file_size) is mapped once at init; requests are
 * memcpy()s between the mapping and the request buffer, syncs are msync().
 * A file truncated under the run, or a page the disk cannot read, raises
 * SIGBUS on the copy: the request returns a short transfer (past the new end
 * of the file) or EIO instead of the process dying with its files left.
 */
#include "base/common.h"
#include "model/engine.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

struct mmap_priv {
	unsigned char *map;
	uint64_t size;
	bool writable;
};

/* The copy this thread is doing, if any: where SIGBUS returns to. */
static __thread sigjmp_buf *volatile bus_jump; /* volatile: the stores must stay around the copy */

static void on_sigbus(int sig)
{
	sigjmp_buf *jb = bus_jump;
	if (jb)
		siglongjmp(*jb, 1);
	/* Not ours: die as the signal says. */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_sigbus(void)
{
	static int done;
	if (__atomic_exchange_n(&done, 1, __ATOMIC_ACQ_REL))
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sa.sa_flags = SA_NODEFER; /* left by siglongjmp: must not stay blocked */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

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
	catch_sigbus();
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

/* SIGBUS during a copy: past the end of a file that shrank (a short transfer), else EIO. */
static int64_t bus_error(struct engine_ctx *ctx, const struct io_u *u)
{
	struct stat st;
	if (fstat(ctx->fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > u->offset)
		return -EIO;
	return 0;
}

static int64_t guarded_copy(struct engine_ctx *ctx, const struct io_u *u, void *dst,
			   const void *src, size_t n)
{
	sigjmp_buf jb;
	if (sigsetjmp(jb, 0)) {
		bus_jump = NULL;
		return bus_error(ctx, u);
	}
	bus_jump = &jb;
	memcpy(dst, src, n);
	bus_jump = NULL;
	return (int64_t)n;
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
	case IO_TRIM:
		return engine_trim(ctx, u); /* the mapping sees the hole (zeros) */
	default:
		return -EINVAL;
	}
	if (unlikely(u->offset >= p->size))
		return -EINVAL;
	if (unlikely(len > p->size - u->offset))
		len = p->size - u->offset; /* short transfer at the end, like pread */
	if (u->op == IO_READ)
		return guarded_copy(ctx, u, u->buf, p->map + u->offset, (size_t)len);
	if (!p->writable)
		return -EBADF;
	return guarded_copy(ctx, u, p->map + u->offset, u->buf, (size_t)len);
}

const struct engine_ops engine_mmap = {
	.name = "mmap",
	.flags = ENGINE_SYNC | ENGINE_NO_DIRECT | ENGINE_TRIM,
	.init = mmap_init,
	.cleanup = mmap_cleanup,
	.do_io = mmap_do_io,
};
