/*
 * Files the user names for results, and saved results read back: never a
 * device, FIFO or socket (a block device behind `-o` would lose its data; a
 * FIFO's open blocks).  The path is checked with stat before anything is
 * measured, then opened with O_NONBLOCK (no FIFO blocks the open) and checked
 * again on the descriptor, so a path swapped in between is refused too.
 */
#include "base/userfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static const char *kind(mode_t m)
{
	return S_ISBLK(m) ? "a block device" : S_ISCHR(m) ? "a character device" :
	       S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISDIR(m) ? "a directory" :
	       "not a regular file";
}

/* The null and full devices: what is written goes nowhere (/dev/full tests a full disk). */
static bool sink(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 &&
	       (minor(st->st_rdev) == 3 || minor(st->st_rdev) == 7);
}

/* What stdout or stderr already is (/dev/stdout, /proc/self/fd/1): "-" by another name; never a disk. */
static bool own_stream(const struct stat *st)
{
	struct stat s;
	for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++)
		if (!fstat(fd, &s) && s.st_dev == st->st_dev && s.st_ino == st->st_ino && !S_ISBLK(s.st_mode))
			return true;
	return false;
}

static bool writable(const struct stat *st)
{
	return S_ISREG(st->st_mode) || sink(st) || own_stream(st);
}

/* "PATH" or "PATH -> TARGET" when PATH is a symlink. */
static void shown(const char *path, char *buf, size_t len)
{
	struct stat l;
	char *real = NULL;
	if (!lstat(path, &l) && S_ISLNK(l.st_mode))
		real = realpath(path, NULL);
	snprintf(buf, len, "%s%s%s", path, real ? " -> " : "", real ? real : "");
	free(real);
}

static int refuse(const char *opt, const char *path, mode_t m, struct ig_err *e)
{
	char name[2 * PATH_MAX + 8];
	shown(path, name, sizeof(name));
	return err_set(e, EXIT_USAGE, "%s %s: %s, refused: an output file must be a regular file or a new path",
		       opt, name, kind(m));
}

int outfile_check(const char *opt, const char *path, struct ig_err *e)
{
	struct stat st;
	/* Not there (or a dangling symlink, whose open creates a regular file): the open says the rest. */
	if (stat(path, &st))
		return 0;
	return writable(&st) ? 0 : refuse(opt, path, st.st_mode, e);
}

FILE *outfile_open(const char *opt, const char *path, bool append, struct ig_err *e)
{
	struct stat st = { 0 };
	if (outfile_check(opt, path, e))
		return NULL;
	/* No O_TRUNC: nothing is cut before the descriptor is known to be a regular file. */
	int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (append ? O_APPEND : 0),
		      0644);
	if (fd < 0) {
		err_set(e, EXIT_USAGE, "%s %s: cannot open it: %s", opt, path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !writable(&st)) {
		refuse(opt, path, st.st_mode, e);
		close(fd);
		return NULL;
	}
	int fl = fcntl(fd, F_GETFL);
	if ((S_ISREG(st.st_mode) && !append && ftruncate(fd, 0)) || fl < 0 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		err_set(e, EXIT_USAGE, "%s %s: %s", opt, path, strerror(errno));
		close(fd);
		return NULL;
	}
	FILE *f = fdopen(fd, append ? "a" : "w");
	if (!f) {
		err_set(e, EXIT_USAGE, "%s %s: %s", opt, path, strerror(errno));
		close(fd);
	}
	return f;
}

FILE *infile_open(const char *what, const char *path, struct ig_err *e)
{
	struct stat st = { 0 };
	/* O_NONBLOCK: a FIFO opens at once (and is refused below) instead of waiting for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		err_set(e, EXIT_USAGE, "%s %s: %s", what, path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		char name[2 * PATH_MAX + 8];
		shown(path, name, sizeof(name));
		err_set(e, EXIT_USAGE, "%s %s: %s, refused: only a regular file is read", what, name,
			kind(st.st_mode));
		close(fd);
		return NULL;
	}
	int fl = fcntl(fd, F_GETFL);
	FILE *f = fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) ? NULL : fdopen(fd, "r");
	if (!f) {
		err_set(e, EXIT_USAGE, "%s %s: %s", what, path, strerror(errno));
		close(fd);
	}
	return f;
}
