/*
 * offload: fio's io_submit_mode=offload.  To the worker loop it is an
 * asynchronous engine; submit() hands each request to a pool of `depth`
 * threads (fio's workqueue, sized by iodepth), each with its own context of
 * the job's engine (one request at a time: do_io, or submit and reap of
 * one), and reap() hands back what they completed.  So a synchronous engine
 * (psync...) has up to iodepth requests in flight.
 *
 * The lock and the condition variables are per request, as fio's workqueue
 * has them: this is the offload mode's cost, never the inline path's.
 * Each thread stamps when it issued a request and when it completed; the
 * worker reads the stamps (io_u.issued, engine_ctx.end_ns) as fio's issue_time and
 * completion time.  All accounting stays on the job thread.
 */
#include "base/common.h"
#include "model/engine.h"
#include "model/job.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define OFFLOAD_STACK (1u << 20)

struct offload;

struct oslot {
	struct offload *o;
	struct engine_ctx ctx; /* this thread's own context of the inner engine */
	pthread_t tid;
	bool started, ready;
};

struct offload {
	const struct engine_ops *inner;
	unsigned n;             /* threads, and the queues' capacity (the job's depth) */
	struct oslot *slot;
	pthread_mutex_t lock;
	pthread_cond_t work;    /* a request queued, or quit */
	pthread_cond_t done;    /* a request completed (reap waits), or a thread is set up */
	struct io_u **q, **d;   /* rings: queued (not yet taken), completed (not yet reaped) */
	unsigned qhead, qlen, dhead, dlen;
	uint64_t *t_issue, *t_end; /* by io_u.idx: the thread's stamps */
	unsigned waiting;       /* reap is waiting on done */
	unsigned inited;        /* threads that finished their inner init */
	int init_err;
	bool quit;
};

/* One request through this thread's context of the inner engine. */
static int64_t run_one(const struct engine_ops *e, struct engine_ctx *c, struct io_u *u)
{
	if (e->flags & ENGINE_SYNC)
		return e->do_io(c, u);
	int r = e->submit(c, &u, 1);
	if (r != 1)
		return r < 0 ? r : -EAGAIN;
	struct io_u *got = NULL;
	do
		r = e->reap(c, 1, 1, &got);
	while (r == -EINTR);
	return r == 1 ? got->res : r < 0 ? r : -EIO;
}

static void *offload_thread(void *arg)
{
	struct oslot *s = arg;
	struct offload *o = s->o;
	/* The run's signals belong to the job threads' side: a request here is never cut short by one. */
	sigset_t set;
	sigfillset(&set);
	sigdelset(&set, SIGBUS);
	sigdelset(&set, SIGSEGV);
	sigdelset(&set, SIGFPE);
	sigdelset(&set, SIGILL);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	/* Each thread sets its context up itself: io_uring's ring is its issuer's only. */
	int rc = o->inner->init ? o->inner->init(&s->ctx) : 0;
	pthread_mutex_lock(&o->lock);
	s->ready = rc == 0;
	if (rc && !o->init_err)
		o->init_err = rc;
	o->inited++;
	pthread_cond_broadcast(&o->done);
	for (;;) {
		while (!o->qlen && !o->quit)
			pthread_cond_wait(&o->work, &o->lock);
		if (o->quit)
			break;
		struct io_u *u = o->q[o->qhead];
		o->qhead = (o->qhead + 1) % o->n;
		o->qlen--;
		pthread_mutex_unlock(&o->lock);
		o->t_issue[u->idx] = now_ns();
		u->res = run_one(o->inner, &s->ctx, u);
		o->t_end[u->idx] = now_ns();
		pthread_mutex_lock(&o->lock);
		o->d[(o->dhead + o->dlen) % o->n] = u;
		o->dlen++;
		if (o->waiting)
			pthread_cond_signal(&o->done);
	}
	pthread_mutex_unlock(&o->lock);
	return NULL;
}

static void offload_cleanup(struct engine_ctx *ctx)
{
	struct offload *o = ctx->priv;
	if (!o)
		return;
	pthread_mutex_lock(&o->lock);
	o->quit = true;
	pthread_cond_broadcast(&o->work);
	pthread_mutex_unlock(&o->lock);
	for (unsigned i = 0; i < o->n; i++) {
		struct oslot *s = &o->slot[i];
		if (s->started)
			pthread_join(s->tid, NULL);
		if (s->ready && o->inner->cleanup)
			o->inner->cleanup(&s->ctx);
	}
	pthread_cond_destroy(&o->work);
	pthread_cond_destroy(&o->done);
	pthread_mutex_destroy(&o->lock);
	free(o->slot);
	free(o->q);
	free(o->d);
	free(o->t_issue);
	free(o->t_end);
	free(o);
	ctx->priv = NULL;
	ctx->end_ns = NULL;
}

static int offload_init(struct engine_ctx *ctx)
{
	struct offload *o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	o->inner = ctx->job->engine;
	o->n = ctx->depth ? ctx->depth : 1;
	o->slot = calloc(o->n, sizeof(*o->slot));
	o->q = calloc(o->n, sizeof(*o->q));
	o->d = calloc(o->n, sizeof(*o->d));
	o->t_issue = calloc(o->n, sizeof(*o->t_issue));
	o->t_end = calloc(o->n, sizeof(*o->t_end));
	pthread_mutex_init(&o->lock, NULL);
	pthread_cond_init(&o->work, NULL);
	pthread_cond_init(&o->done, NULL);
	ctx->priv = o;
	ctx->end_ns = o->t_end;
	if (!o->slot || !o->q || !o->d || !o->t_issue || !o->t_end) {
		offload_cleanup(ctx);
		return -ENOMEM;
	}
	int rc = 0;
	unsigned started = 0;
	/* iodepth may be 4096: a small stack each (one engine call deep), not the default 8 MiB. */
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, OFFLOAD_STACK);
	for (unsigned i = 0; i < o->n; i++) {
		struct oslot *s = &o->slot[i];
		s->o = o;
		s->ctx = *ctx; /* the same files, slots and buffers; its own engine state */
		s->ctx.priv = NULL;
		s->ctx.thread = ctx->thread;
		int e = pthread_create(&s->tid, &attr, offload_thread, s);
		if (e) {
			rc = -e;
			break;
		}
		s->started = true;
		started++;
	}
	pthread_attr_destroy(&attr);
	/* Every started thread reports its inner init before the run may use any. */
	pthread_mutex_lock(&o->lock);
	while (o->inited < started)
		pthread_cond_wait(&o->done, &o->lock);
	if (!rc)
		rc = o->init_err;
	pthread_mutex_unlock(&o->lock);
	if (rc)
		offload_cleanup(ctx);
	return rc;
}

static int offload_submit(struct engine_ctx *ctx, struct io_u **us, unsigned n)
{
	struct offload *o = ctx->priv;
	unsigned k = 0;
	pthread_mutex_lock(&o->lock);
	for (; k < n && o->qlen < o->n; k++) {
		o->q[(o->qhead + o->qlen) % o->n] = us[k];
		o->qlen++;
	}
	if (k == 1)
		pthread_cond_signal(&o->work);
	else if (k)
		pthread_cond_broadcast(&o->work);
	pthread_mutex_unlock(&o->lock);
	return (int)k;
}

static int offload_reap(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	struct offload *o = ctx->priv;
	pthread_mutex_lock(&o->lock);
	while (o->dlen < min) {
		o->waiting++;
		pthread_cond_wait(&o->done, &o->lock);
		o->waiting--;
	}
	unsigned k = 0;
	for (; k < max && o->dlen; k++) {
		struct io_u *u = o->d[o->dhead];
		o->dhead = (o->dhead + 1) % o->n;
		o->dlen--;
		u->issued = o->t_issue[u->idx];
		out[k] = u;
	}
	pthread_mutex_unlock(&o->lock);
	return (int)k;
}

/* Not in the registry: the worker puts it before the job's engine when the job asks for offload. */
const struct engine_ops engine_offload = {
	.name = "offload",
	.init = offload_init,
	.cleanup = offload_cleanup,
	.submit = offload_submit,
	.reap = offload_reap,
};
