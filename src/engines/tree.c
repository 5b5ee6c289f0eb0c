/*
 * tree: the engine of tree jobs (tree.h).  A request is one item of the
 * thread's run of the tree: its file looked up (without following links),
 * opened below the root, read whole from the item's offset in the job's
 * block size, closed.  Its length is what was read.
 *
 * --hash and --compress feed every block to a checksum and a compressor on
 * the same thread.  That time is the stream's (the job's rate includes it)
 * but not the request's: the request's start moves later by it, so a
 * request's latency is the file's I/O alone.
 *
 * What changed since the walk is no error: a file gone, of another size or
 * kind, or unreadable is counted (tree_case) and the request reads what is
 * there (nothing, or to the file's end).  I/O errors fail the job.
 */
#include "base/common.h"
#include "base/compress.h"
#include "base/digest.h"
#include "run/tree.h"
#include "model/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tree_state {
	struct tree_job *t;
	struct digest dg;
	struct compressor cz;
	bool broken;   /* an item of the current file was not read whole: no digest, no ratio */
	uint64_t comp_in; /* the current file's bytes compressed */
	struct tree_case acc; /* this thread's, added to t->cur at the end */
	char path[PATH_MAX];
};

static int tree_init(struct engine_ctx *ctx)
{
	struct tree_job *t = ctx->job->plan.tree;
	struct tree_state *s = xcalloc(1, sizeof(*s));
	char err[128];
	ctx->priv = s;
	s->t = t;
	if (!t || t->rootfd < 0)
		return -EINVAL;
	if (t->hash && digest_init(&s->dg, t->hash))
		return -ENOMEM;
	if (t->compress && compressor_init(&s->cz, t->compress, t->level, err, sizeof(err)))
		return -ENOMEM;
	return 0;
}

static void add(uint64_t *dst, uint64_t v)
{
	if (v)
		__atomic_fetch_add(dst, v, __ATOMIC_RELAXED);
}

/* What this thread met, into the case's counts (every thread, at its end). */
static void tree_cleanup(struct engine_ctx *ctx)
{
	struct tree_state *s = ctx->priv;
	if (!s)
		return;
	struct tree_case *c = s->t ? s->t->cur : NULL;
	if (c) {
		const struct tree_case *a = &s->acc;
		add(&c->files, a->files);
		add(&c->bytes, a->bytes);
		add(&c->vanished, a->vanished);
		add(&c->changed, a->changed);
		add(&c->unreadable, a->unreadable);
		add(&c->hash_bytes, a->hash_bytes);
		add(&c->hash_ns, a->hash_ns);
		add(&c->comp_in, a->comp_in);
		add(&c->comp_out, a->comp_out);
		add(&c->comp_ns, a->comp_ns);
		add(&c->comp_failed, a->comp_failed);
		uint64_t none = 0;
		if (a->first_unreadable)
			__atomic_compare_exchange_n(&c->first_unreadable, &none, a->first_unreadable, false,
						    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	}
	digest_free(&s->dg);
	compressor_free(&s->cz);
	free(s);
	ctx->priv = NULL;
}

/* A block read: checksummed and compressed, that time taken off the request's. */
static void consume(struct tree_state *s, struct io_u *u, const void *p, size_t n)
{
	uint64_t t0 = now_ns(), t1 = t0;
	if (s->t->hash) {
		digest_update(&s->dg, p, n);
		t1 = now_ns();
		s->acc.hash_ns += t1 - t0;
		s->acc.hash_bytes += n;
	}
	if (s->t->compress && !s->broken) {
		if (compressor_update(&s->cz, p, n)) {
			s->acc.comp_failed++;
			s->broken = true;
		}
		uint64_t t2 = now_ns();
		s->acc.comp_ns += t2 - t1;
		s->comp_in += n;
		t1 = t2;
	}
	u->start += t1 - t0;
}

/* The file's first item: its checksum and compression begin. */
static void file_start(struct tree_state *s, struct io_u *u, const struct tree_item *it, const char *name)
{
	uint64_t t0 = now_ns();
	s->broken = false;
	s->comp_in = 0;
	if (s->t->hash)
		digest_start(&s->dg);
	if (s->t->compress)
		compressor_start(&s->cz, (it->seg & TREE_LAST) ? it->size : UINT64_MAX, strlen(name));
	u->start += now_ns() - t0;
}

/* Its last item: the digest kept (--hash-out), the compressed size counted. */
static void file_end(struct tree_state *s, struct io_u *u, uint64_t item)
{
	struct tree_job *t = s->t;
	uint64_t t0 = now_ns();
	if (t->hash && !s->broken && t->digests) {
		digest_final(&s->dg, t->digests + item * DIGEST_MAX);
		t->have[item] = 1;
	}
	if (t->compress && !s->broken) {
		if (compressor_end(&s->cz)) {
			s->acc.comp_failed++;
		} else {
			s->acc.comp_in += s->comp_in;
			s->acc.comp_out += s->cz.out;
		}
	}
	uint64_t dt = now_ns() - t0;
	s->acc.comp_ns += t->compress ? dt : 0;
	u->start += dt;
}

/* The file is not there as the walk saw it: counted, nothing read; errors other than these fail the job. */
static int64_t missed(struct tree_state *s, uint64_t item, int err)
{
	s->broken = true;
	if (err == ENOENT || err == ENOTDIR || err == ESTALE) {
		s->acc.vanished++;
	} else if (err == ELOOP || err == EXDEV || err == EISDIR) {
		s->acc.changed++;
	} else if (err == EACCES || err == EPERM) {
		s->acc.unreadable++;
		if (!s->acc.first_unreadable)
			s->acc.first_unreadable = item + 1;
	} else {
		return -err;
	}
	return 0;
}

static int64_t read_item(struct tree_state *s, struct engine_ctx *ctx, struct io_u *u, int fd,
			 const struct tree_item *it)
{
	uint64_t off = (uint64_t)(it->seg & ~TREE_LAST) * TREE_SEGMENT, got = 0;
	while (got < it->size) {
		size_t n = it->size - got < ctx->buf_size ? (size_t)(it->size - got) : ctx->buf_size;
		ssize_t r = pread(fd, u->buf, n, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break; /* shorter than at the walk */
		got += (uint64_t)r;
		if (s->t->hash || s->t->compress)
			consume(s, u, u->buf, (size_t)r);
	}
	return (int64_t)got;
}

static int64_t tree_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	struct tree_state *s = ctx->priv;
	const struct tree_item *it = &s->t->items[u->offset];
	bool first = !(it->seg & ~TREE_LAST), last = it->seg & TREE_LAST;
	struct stat st;
	u->len = 0;
	if (!tree_item_path(s->t, u->offset, s->path))
		return missed(s, u->offset, ENOENT);
	if (first)
		file_start(s, u, it, s->t->arena + it->name);
	else if (s->broken)
		return 0; /* an earlier part of the file was missed: the rest too */
	/* As tar: looked at first, so nothing but a regular file is ever opened. */
	if (fstatat(s->t->rootfd, s->path, &st, AT_SYMLINK_NOFOLLOW))
		return missed(s, u->offset, errno);
	if (!S_ISREG(st.st_mode))
		return missed(s, u->offset, EISDIR);
	uint64_t end = (uint64_t)(it->seg & ~TREE_LAST) * TREE_SEGMENT + it->size;
	bool changed = last ? (uint64_t)st.st_size != end : (uint64_t)st.st_size < end;
	int fd = tree_open(s->t, s->path);
	if (fd < 0)
		return missed(s, u->offset, -fd);
	int64_t got = read_item(s, ctx, u, fd, it);
	close(fd);
	if (got == -EISDIR)
		return missed(s, u->offset, EISDIR); /* made a directory between the look and the open */
	if (got < 0)
		return got;
	if ((uint64_t)got < it->size)
		changed = true;
	/* Not the file the walk saw: its digest and ratio would mislead. */
	s->broken |= changed;
	s->acc.changed += changed;
	s->acc.bytes += (uint64_t)got;
	if (last) {
		s->acc.files++;
		file_end(s, u, u->offset);
	}
	u->len = (uint32_t)got;
	return got;
}

const struct engine_ops engine_tree = {
	.name = "tree",
	.flags = ENGINE_SYNC | ENGINE_NO_DIRECT,
	.init = tree_init,
	.cleanup = tree_cleanup,
	.do_io = tree_do_io,
};
