/* Making file systems to measure: specs, mkfs, mount, timed unmount, loop devices (fsmake.h). */
#include "run/fsmake.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const fs_types[] = { "ext2", "ext3", "ext4", "xfs", "btrfs", NULL };
static const char *const layouts[] = { "raid0", "raid1", "md-raid0", "md-raid1", "lvm-stripe", NULL };

/* Mount options the VFS takes as flags; the rest go to the file system as data. */
static const struct {
	const char *name;
	unsigned long flag;
} vfs_flags[] = {
	{ "noatime", MS_NOATIME },   { "nodiratime", MS_NODIRATIME }, { "relatime", MS_RELATIME },
	{ "strictatime", MS_STRICTATIME }, { "lazytime", MS_LAZYTIME }, { "sync", MS_SYNCHRONOUS },
	{ "dirsync", MS_DIRSYNC },   { "nosuid", MS_NOSUID },         { "nodev", MS_NODEV },
	{ "noexec", MS_NOEXEC },
};

static bool in_list(const char *const *l, const char *w)
{
	for (; *l; l++)
		if (!strcmp(*l, w))
			return true;
	return false;
}

static int add_word(char *buf, size_t len, const char *w)
{
	size_t used = strlen(buf);
	return (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "", w) >= len - used ? -1 : 0;
}

static int add_option(struct fs_spec *f, const char *w, struct ig_err *e)
{
	if (!strcmp(w, "ro") || !strcmp(w, "remount") || !strcmp(w, "bind"))
		return err_set(e, EXIT_USAGE, "--fs: %s: mount option %s cannot be measured (writes are tested)",
			       f->label, w);
	for (size_t i = 0; i < ARRAY_SIZE(vfs_flags); i++)
		if (!strcmp(w, vfs_flags[i].name)) {
			f->flags |= vfs_flags[i].flag;
			return add_word(f->opts, sizeof(f->opts), w) ? err_set(e, EXIT_USAGE, "--fs: %s: too long", f->label) : 0;
		}
	if (add_word(f->opts, sizeof(f->opts), w) || add_word(f->data, sizeof(f->data), w))
		return err_set(e, EXIT_USAGE, "--fs: %s: too many options", f->label);
	return 0;
}

int fs_spec_parse(const char *s, struct fs_spec *f, struct ig_err *e)
{
	memset(f, 0, sizeof(*f));
	if ((size_t)snprintf(f->label, sizeof(f->label), "%s", s) >= sizeof(f->label))
		return err_set(e, EXIT_USAGE, "--fs: %.40s...: too long", s);
	char copy[sizeof(f->label)], *save = NULL;
	snprintf(copy, sizeof(copy), "%s", s);
	char *w = strtok_r(copy, ":", &save);
	if (!w || !in_list(fs_types, w))
		return err_set(e, EXIT_USAGE, "--fs: %s: the file system is one of ext4, xfs, btrfs, ext3, ext2",
			       *s ? s : "(empty)");
	snprintf(f->type, sizeof(f->type), "%s", w);
	while ((w = strtok_r(NULL, ":", &save))) {
		if (in_list(layouts, w)) {
			if (f->layout[0])
				return err_set(e, EXIT_USAGE, "--fs: %s: one layout (%s or %s)", s, f->layout, w);
			if (!strncmp(w, "raid", 4) && strcmp(f->type, "btrfs"))
				return err_set(e, EXIT_USAGE, "--fs: %s: %s across devices is btrfs's own; %s takes md-%s",
					       s, w, f->type, w);
			snprintf(f->layout, sizeof(f->layout), "%s", w);
			continue;
		}
		for (char *o = strtok(w, ","); o; o = strtok(NULL, ","))
			if (add_option(f, o, e))
				return -1;
	}
	return 0;
}

bool fs_spec_multi(const struct fs_spec *f)
{
	return f->layout[0] != 0;
}

unsigned fs_spec_devices(const struct fs_spec *f, unsigned given)
{
	return fs_spec_multi(f) ? given : 1;
}

/* /proc/misc lists device-mapper when the kernel has it (a /dev/mapper/control node alone may be stale). */
static bool kernel_has_dm(void)
{
	FILE *p = fopen("/proc/misc", "r");
	char line[128];
	bool dm = false;
	if (!p) {
		int fd = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		return fd >= 0;
	}
	while (!dm && fgets(line, sizeof(line), p))
		dm = strstr(line, "device-mapper") != NULL;
	fclose(p);
	return dm;
}

int fs_layout_check(const struct fs_spec *f, struct ig_err *e)
{
	bool md = !strncmp(f->layout, "md-", 3), lvm = !strncmp(f->layout, "lvm-", 4);
	if (md && access("/proc/mdstat", F_OK))
		return err_set(e, EXIT_USAGE,
			       "--fs: %s: this kernel has no md RAID (no /proc/mdstat: the md_mod module is not loaded or not built)",
			       f->label);
	if (lvm && !kernel_has_dm())
		return err_set(e, EXIT_USAGE,
			       "--fs: %s: this kernel has no device-mapper (not in /proc/misc: dm_mod is not loaded or not built), which LVM stripes need",
			       f->label);
	if (md || lvm)
		return err_set(e, EXIT_USAGE, "--fs: %s: md RAID and LVM layouts are not built by iogauge yet (only btrfs's raid0/raid1)",
			       f->label);
	return 0;
}

/* ---- mkfs */

/* The child: stdout to /dev/null, stderr to the pipe; mkfs from sbin even when PATH lacks it. */
static void exec_mkfs(char **argv, int errfd)
{
	char path[64];
	int null = open("/dev/null", O_RDWR);
	signal(SIGINT, SIG_IGN); /* the parent decides; mkfs finishes what it started */
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
	}
	dup2(errfd, 2);
	const char *dirs[] = { "/usr/sbin/", "/sbin/" };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s%s", dirs[i], argv[0]);
		execv(path, argv);
	}
	execvp(argv[0], argv);
	_exit(127);
}

/* What mkfs said first: its error (a usage text may follow it). */
static void first_line(const char *buf, char *out, size_t len)
{
	buf += strspn(buf, "\n ");
	snprintf(out, len, "%.*s", (int)strcspn(buf, "\n"), buf);
}

static int run_mkfs(char **argv, const char *dev, uint64_t *ns, struct ig_err *e)
{
	int p[2];
	char buf[4096] = "", line[256];
	size_t used = 0;
	if (pipe2(p, O_CLOEXEC))
		return err_set(e, EXIT_IOERR, "%s: pipe: %s", argv[0], strerror(errno));
	uint64_t t0 = now_ns();
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return err_set(e, EXIT_IOERR, "%s: fork: %s", argv[0], strerror(errno));
	}
	if (!pid)
		exec_mkfs(argv, p[1]);
	close(p[1]);
	for (;;) {
		ssize_t r = read(p[0], buf + used, sizeof(buf) - 1 - used);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		used += (size_t)r;
		buf[used] = 0;
		if (used == sizeof(buf) - 1) /* the start is kept: the rest is drained */
			used--;
	}
	close(p[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	*ns = now_ns() - t0;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	first_line(buf, line, sizeof(line));
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return err_set(e, EXIT_USAGE, "%s: not found (install %s)", argv[0],
			       !strcmp(argv[0], "mkfs.xfs") ? "xfsprogs" : !strcmp(argv[0], "mkfs.btrfs") ? "btrfs-progs" : "e2fsprogs");
	return err_set(e, EXIT_USAGE, "%s %s failed (%s %d): %s", argv[0], dev, WIFEXITED(st) ? "status" : "signal",
		       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), line[0] ? line : "(no message)");
}

int fs_mkfs(const struct fs_spec *f, char *const *devs, unsigned n, uint64_t *ns, struct ig_err *e)
{
	char prog[32], prof[16];
	char *argv[12 + FS_MAX_DEVS];
	unsigned a = 0;
	snprintf(prog, sizeof(prog), "mkfs.%s", f->type);
	argv[a++] = prog;
	if (!strcmp(f->type, "xfs")) {
		argv[a++] = "-f";
		argv[a++] = "-q";
	} else if (!strcmp(f->type, "btrfs")) {
		argv[a++] = "-f";
		argv[a++] = "-q";
		if (f->layout[0] == 'r') { /* btrfs's own raid0/raid1: data and metadata alike */
			snprintf(prof, sizeof(prof), "%s", f->layout);
			argv[a++] = "-d";
			argv[a++] = prof;
			argv[a++] = "-m";
			argv[a++] = prof;
		}
	} else {
		/* No lazy init: a background thread would zero inode tables while we measure. */
		argv[a++] = "-F";
		argv[a++] = "-q";
		argv[a++] = "-E";
		argv[a++] = "lazy_itable_init=0,lazy_journal_init=0";
	}
	for (unsigned i = 0; i < n && i < FS_MAX_DEVS; i++)
		argv[a++] = devs[i];
	argv[a] = NULL;
	return run_mkfs(argv, devs[0], ns, e);
}

int fs_mount(const struct fs_spec *f, char *const *devs, unsigned n, const char *dir, struct ig_err *e)
{
	char data[sizeof(f->data) + FS_MAX_DEVS * 48];
	snprintf(data, sizeof(data), "%s", f->data);
	for (unsigned i = 1; i < n && !strcmp(f->type, "btrfs"); i++) {
		char w[64];
		snprintf(w, sizeof(w), "device=%s", devs[i]);
		add_word(data, sizeof(data), w);
	}
	if (mount(devs[0], dir, f->type, f->flags, data[0] ? data : NULL))
		return err_set(e, EXIT_USAGE, "%s: mount -t %s%s%s on %s: %s", f->label, f->type, f->opts[0] ? " -o " : "",
			       f->opts, devs[0], strerror(errno));
	return 0;
}

int fs_umount(const char *dir, uint64_t *ns, struct ig_err *e)
{
	uint64_t t0 = now_ns();
	/* Busy a moment after the last close (a late opener): tried for a second. */
	for (int i = 0; umount2(dir, 0); i++) {
		if (errno != EBUSY || i == 20) {
			int err = errno;
			umount2(dir, MNT_DETACH);
			return err_set(e, EXIT_IOERR, "umount %s: %s (detached lazily)", dir, strerror(err));
		}
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	*ns = now_ns() - t0;
	return 0;
}

/* ---- loop devices */

static int loop_attach(int ctl, int img, char *dev, size_t len, int *fd)
{
	for (int tries = 0; tries < 16; tries++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0)
			return -1;
		snprintf(dev, len, "/dev/loop%d", n);
		*fd = open(dev, O_RDWR | O_CLOEXEC);
		if (*fd < 0)
			return -1;
		struct loop_config cfg = { .fd = (unsigned)img };
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
		if (!ioctl(*fd, LOOP_CONFIGURE, &cfg))
			return 0;
		int err = errno;
		if (err == EINVAL || err == ENOTTY) { /* before Linux 5.8 */
			struct loop_info64 info = { .lo_flags = LO_FLAGS_AUTOCLEAR };
			if (!ioctl(*fd, LOOP_SET_FD, img)) {
				if (!ioctl(*fd, LOOP_SET_STATUS64, &info))
					return 0;
				err = errno;
				ioctl(*fd, LOOP_CLR_FD, 0);
			} else {
				err = errno;
			}
		}
		close(*fd);
		*fd = -1;
		if (err != EBUSY) { /* EBUSY: another process took it first */
			errno = err;
			return -1;
		}
	}
	errno = EBUSY;
	return -1;
}

int loop_make(const char *image, uint64_t size, char *dev, size_t len, int *fd, struct ig_err *e)
{
	*fd = -1;
	int img = open(image, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (img < 0)
		return err_set(e, EXIT_USAGE, "%s: %s", image, strerror(errno));
	if (ftruncate(img, (off_t)size)) {
		err_set(e, EXIT_IOERR, "%s: %s", image, strerror(errno));
		close(img);
		unlink(image);
		return -1;
	}
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	int rc = ctl < 0 ? -1 : loop_attach(ctl, img, dev, len, fd);
	if (rc)
		err_set(e, EXIT_USAGE, "%s: a loop device: %s%s", image, strerror(errno),
			ctl < 0 ? " (/dev/loop-control)" : "");
	if (ctl >= 0)
		close(ctl);
	close(img);
	unlink(image); /* the loop device holds it; gone with the loop device */
	return rc;
}

void loop_drop(int fd)
{
	if (fd < 0)
		return;
	ioctl(fd, LOOP_CLR_FD, 0);
	close(fd);
}
