/*
 * fileops: the engine of --fileop jobs.  A request is one item of the
 * thread's file set (fileset.h): its number is the request's offset, its
 * operation the request's op.  One system call at a time (two or three for
 * create and open: the close is part of the operation), timed like a block
 * request.  The request's length is the file's size, set here.
 *
 * fio's file engines are the same operations under fio's names: filecreate
 * (an empty file, as fio's open(O_CREAT)), filestat, filedelete, dircreate,
 * dirstat (of directories made before the job) and dirdelete.
 */
#include "base/common.h"
#include "run/fileset.h"
#include "model/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fileops_init(struct engine_ctx *ctx)
{
	struct fileset *fs = xcalloc(1, sizeof(*fs));
	fileset_geometry(fs, ctx->job);
	if (ctx->job->engine == &engine_filecreate)
		fs->size_lo = fs->size_hi = 0; /* fio's filecreate writes nothing into its files */
	fs->dir_items = ctx->job->engine == &engine_dirstat;
	ctx->priv = fs;
	uint64_t t = now_ns();
	int rc = fileset_open_thread(fs, ctx->path, ctx->thread, job_file_op(ctx->job), ctx->ios[0].buf,
				     ctx->buf_size, ctx->stop, &ctx->prepared);
	ctx->prepare_ns = now_ns() - t;
	return rc;
}

static void fileops_cleanup(struct engine_ctx *ctx)
{
	struct fileset *fs = ctx->priv;
	if (fs && fs->dirfd >= 0)
		close(fs->dirfd);
	free(fs);
	ctx->priv = NULL;
}

static int64_t create_file(struct engine_ctx *ctx, const struct fileset *fs, const char *path,
			   struct io_u *u)
{
	/* fio's filecreate opens with O_CREAT alone: its next loop opens the files it made again. */
	int excl = ctx->job->engine == &engine_filecreate ? 0 : O_EXCL;
	int fd = openat(fs->dirfd, path, O_CREAT | excl | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	uint64_t left = u->len;
	if (left >= 8 && ctx->buf_size >= 8)
		*(uint64_t *)u->buf ^= u->offset + 1; /* no two files alike */
	while (left) {
		size_t n = left < ctx->buf_size ? (size_t)left : ctx->buf_size;
		ssize_t w = write(fd, u->buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int err = w < 0 ? errno : ENOSPC;
			close(fd);
			return -err;
		}
		left -= (uint64_t)w;
	}
	return close(fd) ? -errno : (int64_t)u->len;
}

/* Open, read the file through to its end (at most its expected size is counted), close. */
static int64_t open_read(struct engine_ctx *ctx, const struct fileset *fs, const char *path,
			 struct io_u *u)
{
	int fd = openat(fs->dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	uint64_t got = 0;
	while (got < u->len) {
		size_t n = u->len - got < ctx->buf_size ? (size_t)(u->len - got) : ctx->buf_size;
		ssize_t r = read(fd, u->buf, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;
			close(fd);
			return -err;
		}
		if (!r)
			break; /* shorter than it should be: a short read */
		got += (uint64_t)r;
	}
	return close(fd) ? -errno : (int64_t)got;
}

static int64_t fileops_do_io(struct engine_ctx *ctx, struct io_u *u)
{
	const struct fileset *fs = ctx->priv;
	char path[FILESET_PATH_MAX];
	struct stat st;
	int r;
	fileset_item_path(fs, u->offset, path);
	u->len = 0;
	switch (u->op) {
	case IO_CREATE:
		u->len = (uint32_t)fileset_item_size(fs, u->offset);
		return create_file(ctx, fs, path, u);
	case IO_OPEN:
		u->len = (uint32_t)fileset_item_size(fs, u->offset);
		return open_read(ctx, fs, path, u);
	case IO_STAT:
		r = fstatat(fs->dirfd, path, &st, AT_SYMLINK_NOFOLLOW);
		break;
	case IO_UNLINK:
		r = unlinkat(fs->dirfd, path, 0);
		break;
	case IO_MKDIR:
		r = mkdirat(fs->dirfd, path, 0755);
		break;
	case IO_RMDIR:
		r = unlinkat(fs->dirfd, path, AT_REMOVEDIR);
		break;
	case IO_FSYNC:
	case IO_FDATASYNC:
		r = fsync(fs->dirfd);
		break;
	default:
		return -EINVAL;
	}
	return r ? -errno : 0;
}

const struct engine_ops engine_fileops = {
	.name = "fileops",
	.flags = ENGINE_SYNC | ENGINE_NO_DIRECT,
	.init = fileops_init,
	.cleanup = fileops_cleanup,
	.do_io = fileops_do_io,
};

#define FIO_FILE_ENGINE(n, op)                                                                      \
	const struct engine_ops engine_##n = {                                                     \
		.name = #n,                                                                        \
		.flags = ENGINE_SYNC | ENGINE_NO_DIRECT,                                           \
		.fileop = op,                                                                      \
		.init = fileops_init,                                                              \
		.cleanup = fileops_cleanup,                                                        \
		.do_io = fileops_do_io,                                                            \
	}
FIO_FILE_ENGINE(filecreate, FILEOP_CREATE);
FIO_FILE_ENGINE(filestat, FILEOP_STAT);
FIO_FILE_ENGINE(filedelete, FILEOP_UNLINK);
FIO_FILE_ENGINE(dircreate, FILEOP_MKDIR);
FIO_FILE_ENGINE(dirstat, FILEOP_STAT);
FIO_FILE_ENGINE(dirdelete, FILEOP_RMDIR);
