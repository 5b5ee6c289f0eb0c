/*
 * inject: a wrapper engine that makes chosen requests fail, for the tests
 * of what iogauge does when a disk does (a kernel without device-mapper has
 * no dm-flakey or dm-dust).  --ioengine=inject --inject=SPEC, where SPEC is
 * comma-separated faults KIND@OFFSET[+K][:N] (the requests that cover OFFSET,
 * after the first K of them; only N of them, default every one) and engine=NAME, the engine that does the
 * real I/O (psync by default; sync, libaio and io_uring too); an empty SPEC
 * injects nothing.  Kinds:
 *
 *   eio        the request fails with EIO            eio-read, eio-write: that op only
 *   enospc     a write fails with ENOSPC
 *   short      the request moves half its bytes
 *   drop       a write reports success but is never made (a lost write)
 *   flip       a read returns the byte at OFFSET inverted (silent corruption)
 *   hang       the request is held 5 s before it is made, whatever a stop asks
 *              (a device that stops answering: what a run does meanwhile)
 *
 * Whatever the inner engine, this one is asynchronous: a synchronous inner
 * engine does the request inside submit, and the completion waits in a
 * queue for reap.  Faults decided before the I/O never reach the inner
 * engine.  Each thread counts its own faults.
 */
#include "base/common.h"
#include "model/engine.h"
#include "model/job.h"
#include "base/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum inj_kind { INJ_EIO, INJ_EIO_READ, INJ_EIO_WRITE, INJ_ENOSPC, INJ_SHORT, INJ_DROP, INJ_FLIP, INJ_HANG };
static const char *const kind_names[] = { "eio", "eio-read", "eio-write", "enospc",
					  "short", "drop", "flip", "hang" };
#define INJ_HANG_NS (5 * NSEC_PER_SEC)

#define INJ_MAX 16

struct fault {
	int kind;
	uint64_t offset;
	uint64_t skip; /* requests covering offset let through first */
	uint64_t left; /* then faults to make; UINT64_MAX: every time */
};

struct inj_spec {
	struct fault f[INJ_MAX];
	unsigned n;
	const struct engine_ops *inner;
};

static int parse(const char *spec, struct inj_spec *s, char *err, size_t n)
{
	char buf[256], *save = NULL;
	memset(s, 0, sizeof(*s));
	s->inner = &engine_psync;
	if (!*spec)
		return 0; /* no faults: the inner engine alone */
	if (strlen(spec) >= sizeof(buf))
		goto bad;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strncmp(t, "engine=", 7)) {
			const struct engine_ops *e = engine_by_name(t + 7);
			if (!e || e == &engine_inject || e == &engine_null || e == &engine_mmap) {
				snprintf(err, n, "--inject: '%s' is not an engine inject can wrap (allowed: psync, sync, libaio, io_uring)",
					 t + 7);
				return -1;
			}
			s->inner = e;
			continue;
		}
		char *at = strchr(t, '@');
		if (!at || s->n == INJ_MAX)
			goto bad;
		*at = 0;
		int kind = -1;
		for (int k = 0; k < (int)ARRAY_SIZE(kind_names); k++)
			if (!strcmp(t, kind_names[k]))
				kind = k;
		char *colon = strchr(at + 1, ':'), *plus;
		uint64_t off, cnt = UINT64_MAX, skip = 0;
		if (colon)
			*colon = 0;
		plus = strchr(at + 1, '+');
		if (plus)
			*plus = 0;
		if (kind < 0 || parse_size(at + 1, &off) || (plus && parse_uint(plus + 1, &skip)) ||
		    (colon && (parse_uint(colon + 1, &cnt) || !cnt)))
			goto bad;
		s->f[s->n++] = (struct fault){ kind, off, skip, cnt };
	}
	if (!s->n)
		goto bad;
	return 0;
bad:
	snprintf(err, n,
		 "--inject: '%s' is not a fault list (allowed: KIND@OFFSET[+K][:N],... with KIND one of "
		 "eio, eio-read, eio-write, enospc, short, drop, flip, hang, at most %d; engine=NAME)",
		 spec, INJ_MAX);
	return -1;
}

int inject_parse(const char *spec, char *err, size_t n)
{
	struct inj_spec s;
	return parse(spec, &s, err, n);
}

struct inj_priv {
	struct inj_spec s;
	struct engine_ctx inner; /* the inner engine's view: the same fd and buffers */
	struct io_u **ready;     /* completed here, waiting for reap */
	unsigned nready;
	unsigned inner_inflight;
};

static int inj_init(struct engine_ctx *ctx)
{
	char err[512];
	if (!ctx->job)
		return -EINVAL;
	struct inj_priv *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	if (parse(ctx->job->inject, &p->s, err, sizeof(err))) {
		free(p);
		return -EINVAL;
	}
	p->ready = calloc(ctx->depth ? ctx->depth : 1, sizeof(*p->ready));
	if (!p->ready) {
		free(p);
		return -ENOMEM;
	}
	p->inner = *ctx;
	p->inner.priv = NULL;
	int rc = p->s.inner->init ? p->s.inner->init(&p->inner) : 0;
	if (rc < 0) {
		free(p->ready);
		free(p);
		return rc;
	}
	ctx->priv = p;
	return 0;
}

static void inj_cleanup(struct engine_ctx *ctx)
{
	struct inj_priv *p = ctx->priv;
	if (!p)
		return;
	if (p->s.inner->cleanup)
		p->s.inner->cleanup(&p->inner);
	free(p->ready);
	free(p);
	ctx->priv = NULL;
}

static bool covers(const struct io_u *u, uint64_t off)
{
	return u->len && off >= u->offset && off - u->offset < u->len;
}

/* The first fault that applies to u before any I/O and has uses left; NULL: none. */
static struct fault *before_io(struct inj_priv *p, const struct io_u *u)
{
	for (unsigned i = 0; i < p->s.n; i++) {
		struct fault *f = &p->s.f[i];
		bool op = f->kind == INJ_EIO || f->kind == INJ_SHORT || f->kind == INJ_HANG ||
			  (f->kind == INJ_EIO_READ && u->op == IO_READ) ||
			  ((f->kind == INJ_EIO_WRITE || f->kind == INJ_ENOSPC || f->kind == INJ_DROP) &&
			   u->op == IO_WRITE);
		if (op && f->left && covers(u, f->offset)) {
			if (f->skip) {
				f->skip--;
				continue;
			}
			if (f->left != UINT64_MAX)
				f->left--;
			return f;
		}
	}
	return NULL;
}

/* After a read: flip the byte a flip fault names. */
static void after_io(struct inj_priv *p, struct io_u *u)
{
	if (u->op != IO_READ || u->res != (int64_t)u->len)
		return;
	for (unsigned i = 0; i < p->s.n; i++) {
		struct fault *f = &p->s.f[i];
		if (f->kind == INJ_FLIP && f->left && covers(u, f->offset)) {
			if (f->skip) {
				f->skip--;
				continue;
			}
			if (f->left != UINT64_MAX)
				f->left--;
			((unsigned char *)u->buf)[f->offset - u->offset] ^= 0xff;
		}
	}
}

/* Deaf to signals and stops on purpose: the device, not iogauge, is slow. */
static void hang(void)
{
	struct timespec ts = { .tv_sec = (time_t)(INJ_HANG_NS / NSEC_PER_SEC), .tv_nsec = (long)(INJ_HANG_NS % NSEC_PER_SEC) };
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

static int inj_submit(struct engine_ctx *ctx, struct io_u **us, unsigned n)
{
	struct inj_priv *p = ctx->priv;
	const struct engine_ops *in = p->s.inner;
	unsigned i;
	for (i = 0; i < n; i++) {
		struct io_u *u = us[i];
		struct fault *f = before_io(p, u);
		if (f && f->kind == INJ_HANG) {
			hang();
			f = NULL;
		}
		if (f) {
			static const int res[] = { [INJ_EIO] = -EIO, [INJ_EIO_READ] = -EIO,
						   [INJ_EIO_WRITE] = -EIO, [INJ_ENOSPC] = -ENOSPC };
			u->res = f->kind == INJ_SHORT ? (int64_t)(u->len / 2) :
				 f->kind == INJ_DROP  ? (int64_t)u->len :
							res[f->kind];
			p->ready[p->nready++] = u;
			continue;
		}
		if (in->flags & ENGINE_SYNC) {
			u->res = in->do_io(&p->inner, u);
			after_io(p, u);
			p->ready[p->nready++] = u;
			continue;
		}
		int r = in->submit(&p->inner, &u, 1);
		if (r < 0)
			return i ? (int)i : r;
		if (r == 0)
			break;
		p->inner_inflight++;
	}
	return (int)i;
}

static int inj_reap(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	struct inj_priv *p = ctx->priv;
	unsigned got = 0;
	while (got < max && p->nready)
		out[got++] = p->ready[--p->nready];
	if (got >= min || !p->inner_inflight || got == max)
		return (int)got;
	int r = p->s.inner->reap(&p->inner, min - got, max - got, out + got);
	if (r < 0)
		return got ? (int)got : r;
	for (int k = 0; k < r; k++)
		after_io(p, out[got + (unsigned)k]);
	p->inner_inflight -= (unsigned)r;
	return (int)got + r;
}

const struct engine_ops engine_inject = {
	.name = "inject",
	.flags = 0,
	.init = inj_init,
	.cleanup = inj_cleanup,
	.submit = inj_submit,
	.reap = inj_reap,
};
