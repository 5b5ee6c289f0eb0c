/* The run context: stop request, test files to remove, claims. */
#include "base/ctx.h"
#include "base/marker.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * A node is complete before it is published with a release store at the
 * head of the list, so a signal arriving during a registration sees either
 * the whole node or none.  `done` is claimed with a compare-and-swap: a file
 * is unlinked once even when the handler and the main thread race.
 */
struct ctx_file {
	struct ctx_file *next;
	int done;
	bool tree; /* a directory: removed with everything below it */
	char path[];
};

static struct run_ctx *installed;

void ctx_init(struct run_ctx *c)
{
	memset(c, 0, sizeof(*c));
}

static int push(struct run_ctx *c, const char *path, bool tree)
{
	size_t n = strlen(path) + 1;
	struct ctx_file *f = calloc(1, sizeof(*f) + n);
	if (!f)
		return -1;
	memcpy(f->path, path, n);
	f->tree = tree;
	f->next = __atomic_load_n(&c->files, __ATOMIC_ACQUIRE);
	__atomic_store_n(&c->files, f, __ATOMIC_RELEASE);
	return 0;
}

int ctx_register_file(struct run_ctx *c, const char *path)
{
	return push(c, path, false);
}

int ctx_register_tree(struct run_ctx *c, const char *path)
{
	return push(c, path, true);
}

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * Empty the directory dirfd: raw getdents64 into a stack buffer, unlinkat,
 * no allocation — safe in a signal handler and flat in memory however many
 * files it holds.  Entries removed behind the read position do not upset
 * the walk; a final rewind catches any the file system reordered.
 */
static void empty_dir(int dirfd, dev_t dev, unsigned depth)
{
	char buf[2048] __attribute__((aligned(8)));
	for (int round = 0; round < 4; round++) {
		bool any = false;
		long n;
		lseek(dirfd, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, dirfd, buf, sizeof(buf))) > 0) {
			for (long off = 0; off < n;) {
				struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
				off += d->d_reclen;
				const char *nm = d->d_name;
				if (nm[0] == '.' && (!nm[1] || (nm[1] == '.' && !nm[2])))
					continue;
				any = true;
				if (!unlinkat(dirfd, nm, 0) || depth >= 64)
					continue;
				int sub = openat(dirfd, nm, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (sub < 0)
					continue;
				/* A file system mounted below is someone else's: never emptied. */
				struct stat st;
				if (fstat(sub, &st) || st.st_dev != dev) {
					close(sub);
					continue;
				}
				empty_dir(sub, dev, depth + 1);
				close(sub);
				unlinkat(dirfd, nm, AT_REMOVEDIR);
			}
		}
		if (!any)
			return;
	}
}

int ctx_remove_tree(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (!fstat(fd, &st))
		empty_dir(fd, st.st_dev, 0);
	close(fd);
	return rmdir(path);
}

static void remove_tree(const char *path)
{
	ctx_remove_tree(path);
}

void ctx_remove_files(struct run_ctx *c)
{
	if (!c)
		return;
	for (struct ctx_file *f = __atomic_load_n(&c->files, __ATOMIC_ACQUIRE); f; f = f->next) {
		int zero = 0;
		if (!__atomic_compare_exchange_n(&f->done, &zero, 1, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue;
		/* Kept files are the user's now: their marker no longer names a process. */
		if (c->keep)
			setxattr(f->path, IOGAUGE_XATTR, IOGAUGE_XATTR_KEPT, strlen(IOGAUGE_XATTR_KEPT), 0);
		else if (f->tree)
			remove_tree(f->path);
		else
			unlink(f->path);
	}
}

void ctx_remove_file(struct run_ctx *c, const char *path)
{
	for (struct ctx_file *f = __atomic_load_n(&c->files, __ATOMIC_ACQUIRE); f; f = f->next) {
		int zero = 0;
		if (!f->tree && !strcmp(f->path, path) &&
		    __atomic_compare_exchange_n(&f->done, &zero, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			unlink(f->path);
	}
}

void ctx_finish(struct run_ctx *c)
{
	ctx_remove_files(c);
	/*
	 * A tree the signal handler removed while a worker was still creating
	 * items in it may have grown again: the workers are gone now.
	 */
	for (struct ctx_file *f = c->files; f && !c->keep; f = f->next)
		if (f->tree)
			remove_tree(f->path);
	if (installed == c)
		installed = NULL;
	struct ctx_file *f = c->files;
	c->files = NULL;
	while (f) {
		struct ctx_file *next = f->next;
		free(f);
		f = next;
	}
	free(c->claims);
	c->claims = NULL;
	c->nclaims = c->capclaims = 0;
}

static struct ctx_claim *claim_find(const struct run_ctx *c, dev_t dev, ino_t ino)
{
	for (unsigned i = 0; i < c->nclaims; i++)
		if (c->claims[i].refs && c->claims[i].dev == dev && c->claims[i].ino == ino)
			return &c->claims[i];
	return NULL;
}

void ctx_claim(struct run_ctx *c, dev_t dev, ino_t ino)
{
	struct ctx_claim *k = claim_find(c, dev, ino);
	if (k) {
		k->refs++;
		return;
	}
	if (c->nclaims == c->capclaims) {
		unsigned cap = c->capclaims ? c->capclaims * 2 : 16;
		struct ctx_claim *p = realloc(c->claims, cap * sizeof(*p));
		if (!p)
			return; /* unclaimed: a later job on it is refused, the safe way round */
		c->claims = p;
		c->capclaims = cap;
	}
	c->claims[c->nclaims++] = (struct ctx_claim){ dev, ino, 1 };
}

void ctx_unclaim(struct run_ctx *c, dev_t dev, ino_t ino)
{
	struct ctx_claim *k = claim_find(c, dev, ino);
	if (k)
		k->refs--;
}

bool ctx_claimed(const struct run_ctx *c, dev_t dev, ino_t ino)
{
	return c && claim_find(c, dev, ino) != NULL;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe */
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void say(const char *s)
{
	ssize_t rc = write(STDERR_FILENO, s, strlen(s));
	(void)rc;
}

/*
 * The first signal asks to stop.  `timeout`, shells and mpirun send a signal
 * to the process group and forward their own within microseconds: every
 * signal within SIGNAL_SAME_NS of the first is the same request.  A later
 * second signal removes the test files at once but the run still unwinds and
 * prints what it measured; a third exits at once.  Several threads may take
 * a signal at the same time: the counts are atomic.
 */
#define SIGNAL_SAME_NS 1000000000ull

static void on_signal(int sig)
{
	struct run_ctx *c = installed;
	if (!c)
		_exit(128 + sig);
	uint64_t now = mono_ns() | 1, zero = 0; /* | 1: never 0, the "no signal yet" value */
	if (__atomic_compare_exchange_n(&c->first_signal_ns, &zero, now, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		if (!c->stop)
			c->stop = sig;
		return;
	}
	if (now - zero < SIGNAL_SAME_NS)
		return;
	int n = __atomic_add_fetch(&c->late_signals, 1, __ATOMIC_ACQ_REL);
	if (!c->stop)
		c->stop = sig;
	ctx_remove_files(c);
	if (n >= 2)
		_exit(128 + (c->stop ? (int)c->stop : sig));
	if (n == 1)
		say(c->keep ? "\niogauge: second signal: stopping; a third one exits at once\n" :
			      "\niogauge: second signal: test files removed; stopping; a third one exits at once\n");
}

void ctx_install_signals(struct run_ctx *c)
{
	static bool at_exit;
	struct sigaction sa;
	installed = c;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (!at_exit) {
		atexit(ctx_emergency);
		at_exit = true;
	}
}

void ctx_emergency(void)
{
	ctx_remove_files(installed);
}
