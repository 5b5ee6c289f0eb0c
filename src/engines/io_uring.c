/*
 * io_uring via liburing.  The ring is created in init (on the worker thread,
 * so IORING_SETUP_SINGLE_ISSUER holds).  The file is registered
 * (IOSQE_FIXED_FILE) and, when ctx->buf_size is known and the memlock limit
 * allows, so are the worker's buffers (READ_FIXED/WRITE_FIXED, buf_index =
 * io_u->idx).  Either registration may fail; plain ops are used instead.
 * Nothing is allocated on the submit/reap path.  Trims are done at submit
 * (engine_trim, as fio does them) and handed back by the next reap.
 */
#include "base/common.h"
#include "model/engine.h"
#include "model/cmdprio.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/uio.h>

struct uring_priv {
	struct io_uring ring;
	int fd;                      /* fixed-file index 0, or the real fd */
	unsigned char sqe_flags;     /* IOSQE_FIXED_FILE or 0 */
	unsigned nbufs;              /* registered buffers (0: none) */
	struct iovec *iov;           /* [nbufs], what was registered */
	unsigned ncqes;
	struct io_uring_cqe **cqes;  /* [ncqes], reap scratch */
	struct io_u **done;          /* [depth]: trims done at submit, FIFO */
	unsigned depth, done_head, done_count;
};

static unsigned roundup_pow2(unsigned v)
{
	unsigned r = 1;
	while (r < v && r < (1u << 15))
		r <<= 1;
	return r;
}

static int ring_setup(struct uring_priv *p, unsigned entries, unsigned opts)
{
	unsigned extra = (opts & ENGINE_OPT_SQPOLL ? IORING_SETUP_SQPOLL : 0) |
			 (opts & ENGINE_OPT_HIPRI ? IORING_SETUP_IOPOLL : 0);
	/*
	 * DEFER_TASKRUN (6.1): completions are run when the worker asks for them
	 * (its reap), in one batch, not as task work interrupting its loop, as fio
	 * and t/io_uring set up their rings.  SQPOLL does not take it.
	 */
	static const unsigned tries[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL,
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN |
			IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL,
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG |
			IORING_SETUP_SUBMIT_ALL,
		0,
	};
	int ret = -EINVAL;

	for (unsigned i = 0; i < ARRAY_SIZE(tries); i++) {
		if ((opts & ENGINE_OPT_SQPOLL) && (tries[i] & IORING_SETUP_DEFER_TASKRUN))
			continue;
		struct io_uring_params par = { .flags = tries[i] | extra };

		ret = io_uring_queue_init_params(entries, &p->ring, &par);
		if (ret != -EINVAL)
			break;
	}
	return ret;
}

static void register_buffers(struct engine_ctx *ctx, struct uring_priv *p)
{
	unsigned n = ctx->depth;

	if (!(ctx->opts & ENGINE_OPT_FIXEDBUFS) || !ctx->ios || !ctx->buf_size ||
	    ctx->buf_size > (1u << 30))
		return;
	for (unsigned i = 0; i < n; i++)
		if (!ctx->ios[i].buf)
			return;
	p->iov = calloc(n, sizeof(*p->iov));
	if (!p->iov)
		return;
	for (unsigned i = 0; i < n; i++) {
		p->iov[i].iov_base = ctx->ios[i].buf;
		p->iov[i].iov_len = ctx->buf_size;
	}
	if (io_uring_register_buffers(&p->ring, p->iov, n) < 0) {
		/* Typically RLIMIT_MEMLOCK; plain READ/WRITE work as well. */
		free(p->iov);
		p->iov = NULL;
		return;
	}
	p->nbufs = n;
}

static int uring_init(struct engine_ctx *ctx)
{
	struct uring_priv *p;
	unsigned depth = ctx->depth ? ctx->depth : 1;
	int ret;

	if (ctx->fd < 0)
		return -EBADF;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	ret = ring_setup(p, roundup_pow2(depth), ctx->opts);
	if (ret < 0) {
		free(p);
		return ret;
	}
	p->ncqes = p->ring.cq.ring_entries;
	p->cqes = calloc(p->ncqes, sizeof(*p->cqes));
	p->depth = depth;
	p->done = calloc(depth, sizeof(*p->done));
	if (!p->cqes || !p->done) {
		io_uring_queue_exit(&p->ring);
		free(p->cqes);
		free(p->done);
		free(p);
		return -ENOMEM;
	}
	const int *fds = ctx->nfiles ? ctx->fds : &ctx->fd;
	unsigned nfiles = ctx->nfiles ? ctx->nfiles : 1;
	if ((ctx->opts & ENGINE_OPT_REGFILES) && io_uring_register_files(&p->ring, fds, nfiles) == 0) {
		p->fd = 0;
		p->sqe_flags = IOSQE_FIXED_FILE;
	} else {
		p->fd = ctx->fd;
		p->sqe_flags = 0;
	}
	register_buffers(ctx, p);
	/* Each io_uring_enter then finds the ring without a file table lookup (5.18; else plain). */
	io_uring_register_ring_fd(&p->ring);
	ctx->priv = p;
	return 0;
}

static void uring_cleanup(struct engine_ctx *ctx)
{
	struct uring_priv *p = ctx->priv;

	if (!p)
		return;
	/* Closing the ring drops the file and buffer registrations too. */
	io_uring_queue_exit(&p->ring);
	free(p->iov);
	free(p->cqes);
	free(p->done);
	free(p);
	ctx->priv = NULL;
}

/* The request's buffer lies inside the registered buffer of its slot. */
static inline bool fixed_ok(const struct uring_priv *p, const struct io_u *u)
{
	const char *base, *b = u->buf;

	if (u->idx >= p->nbufs)
		return false;
	base = p->iov[u->idx].iov_base;
	return b >= base && u->len <= p->iov[u->idx].iov_len &&
	       (size_t)(b - base) <= p->iov[u->idx].iov_len - u->len;
}

/* A trim, now: what was queued before it enters the kernel first. */
static void trim_now(struct engine_ctx *ctx, struct uring_priv *p, struct io_u *u)
{
	if (io_uring_sq_ready(&p->ring))
		io_uring_submit(&p->ring);
	u->res = engine_trim(ctx, u);
	unsigned tail = p->done_head + p->done_count;
	p->done[tail >= p->depth ? tail - p->depth : tail] = u;
	p->done_count++;
}

static int uring_submit(struct engine_ctx *ctx, struct io_u **us, unsigned n)
{
	struct uring_priv *p = ctx->priv;
	struct io_uring *ring = &p->ring;
	unsigned i;

	for (i = 0; i < n; i++) {
		struct io_u *u = us[i];
		struct io_uring_sqe *sqe;

		if (unlikely(u->op > IO_FDATASYNC))
			break;
		if (unlikely(u->op == IO_TRIM)) {
			trim_now(ctx, p, u);
			continue;
		}
		/* A registered file by its index, else the request's own descriptor. */
		int fd = p->sqe_flags ? (int)u->file : u->fd;
		sqe = io_uring_get_sqe(ring);
		if (unlikely(!sqe)) {
			/* SQ full of earlier, unsubmitted entries: push them. */
			if (io_uring_submit(ring) < 0)
				break;
			sqe = io_uring_get_sqe(ring);
			if (!sqe)
				break;
		}
		switch (u->op) {
		case IO_READ:
			if (fixed_ok(p, u))
				io_uring_prep_read_fixed(sqe, fd, u->buf, u->len, u->offset,
							 (int)u->idx);
			else
				io_uring_prep_read(sqe, fd, u->buf, u->len, u->offset);
			break;
		case IO_WRITE:
			if (fixed_ok(p, u))
				io_uring_prep_write_fixed(sqe, fd, u->buf, u->len, u->offset,
							  (int)u->idx);
			else
				io_uring_prep_write(sqe, fd, u->buf, u->len, u->offset);
			break;
		case IO_FSYNC:
			io_uring_prep_fsync(sqe, fd, 0);
			break;
		default: /* IO_FDATASYNC */
			io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
			break;
		}
		sqe->flags = p->sqe_flags;
		/* fio's cmdprio: the drawn requests carry their priority (the others the thread's). */
		if (unlikely(ctx->prio != NULL) && u->op <= IO_WRITE && cmdprio_pick(ctx->prio, u))
			sqe->ioprio = u->ioprio;
		io_uring_sqe_set_data(sqe, u);
	}
	if (unlikely(i == 0))
		return n && us[0]->op > IO_FDATASYNC ? -EINVAL : 0;

	/*
	 * Every prepared SQE is accepted.  They enter the kernel with the
	 * worker's next reap, in the same io_uring_enter that waits: one
	 * syscall per batch instead of two.
	 */
	return (int)i;
}

static int uring_reap(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	struct uring_priv *p = ctx->priv;
	struct io_uring *ring = &p->ring;
	unsigned got = 0;

	if (max > p->ncqes)
		max = p->ncqes;
	if (min > max)
		min = max;
	while (unlikely(p->done_count) && got < max) {
		out[got++] = p->done[p->done_head];
		if (++p->done_head == p->depth)
			p->done_head = 0;
		p->done_count--;
	}
	/* Queued SQEs go in now, whatever is already completed: never let them wait. */
	if (io_uring_sq_ready(ring)) {
		int ret = io_uring_submit_and_wait(ring, got >= min ? 0 : min - got);
		if (unlikely(ret < 0) && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY &&
		    ret != -ETIME)
			return ret;
	}
	for (;;) {
		unsigned n = io_uring_peek_batch_cqe(ring, p->cqes, max - got);

		for (unsigned j = 0; j < n; j++) {
			struct io_u *u = io_uring_cqe_get_data(p->cqes[j]);
			u->res = p->cqes[j]->res;
			out[got++] = u;
		}
		if (n)
			io_uring_cq_advance(ring, n);
		if (got >= min || got >= max)
			return (int)got;

		int ret = io_uring_submit_and_wait(ring, min - got);
		if (unlikely(ret < 0) && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY &&
		    ret != -ETIME)
			return got ? (int)got : ret;
	}
}

static void uring_commit(struct engine_ctx *ctx)
{
	struct uring_priv *p = ctx->priv;

	if (io_uring_sq_ready(&p->ring))
		io_uring_submit(&p->ring);
}

const struct engine_ops engine_io_uring = {
	.name = "io_uring",
	.flags = ENGINE_TRIM,
	.honours = ENGINE_OPT_FIXEDBUFS | ENGINE_OPT_REGFILES | ENGINE_OPT_HIPRI | ENGINE_OPT_SQPOLL,
	.init = uring_init,
	.cleanup = uring_cleanup,
	.do_io = NULL,
	.submit = uring_submit,
	.commit = uring_commit,
	.reap = uring_reap,
};
