/*
 * Trims for every engine that takes them.  The kernel offers no queued
 * discard to this tool's engines (libaio has none; io_uring's block discard
 * command needs a newer liburing), and fio issues its trims synchronously in
 * each engine as well: a discard ioctl on a device, a punched hole in a file
 * (fio 3.33 sends the ioctl to files too, which they refuse).
 */
#include "model/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

int64_t engine_trim(const struct engine_ctx *ctx, const struct io_u *u)
{
	int r;
	if (ctx->blkdev) {
		uint64_t range[2] = { u->offset, u->len };
		int fd = u->fd;
		for (unsigned f = 0; ctx->trim_fds && f < (ctx->fds ? ctx->nfiles : 1); f++)
			if ((ctx->fds ? ctx->fds[f] : ctx->fd) == u->fd && ctx->trim_fds[f] >= 0)
				fd = ctx->trim_fds[f];
		r = ioctl(fd, BLKDISCARD, range);
	} else {
		do
			r = fallocate(u->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)u->offset,
				      (off_t)u->len);
		while (r < 0 && errno == EINTR);
	}
	return r < 0 ? -errno : (int64_t)u->len;
}
