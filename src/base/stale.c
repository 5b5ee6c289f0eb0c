/* Stale test files: the creator's marker, and sweeping what a killed run left. */
#include "base/stale.h"
#include "base/ctx.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

/* The start time of process pid in clock ticks since boot (/proc/PID/stat field 22); 0 unknown. */
static unsigned long long start_time(int pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* The command name may hold spaces and parentheses: fields count from the last ')'. */
	char *p = strrchr(buf, ')');
	if (!p)
		return 0;
	unsigned long long v = 0;
	int field = 2;
	for (char *save = NULL, *t = strtok_r(p + 1, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (++field == 22) {
			v = strtoull(t, NULL, 10);
			break;
		}
	return v;
}

static void boot_id(char *buf, size_t len)
{
	buf[0] = 0;
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n ")] = 0;
}

static void host_name(char *buf, size_t len)
{
	if (gethostname(buf, len - 1))
		buf[0] = 0;
	buf[len - 1] = 0;
	/* One word: the marker is split at spaces. */
	for (char *p = buf; *p; p++)
		if (isspace((unsigned char)*p))
			*p = '_';
	if (!buf[0])
		snprintf(buf, len, "-");
}

void stale_marker(char *buf, size_t len)
{
	char boot[64], host[128];
	int pid = (int)getpid();
	boot_id(boot, sizeof(boot));
	host_name(host, sizeof(host));
	snprintf(buf, len, "1 pid=%d start=%llu boot=%s host=%s", pid, start_time(pid),
		 boot[0] ? boot : "-", host);
}

bool stale_is_marker(const char *v, size_t n)
{
	return n >= 1 && v[0] == '1' && (n == 1 || v[1] == ' ');
}

/* The process a marker names is certainly gone; false when alive or unknown. */
static bool creator_gone(const char *v, int *pid_out)
{
	int pid;
	unsigned long long start;
	char boot[64], now[64], host[128], here[128];
	if (sscanf(v, "1 pid=%d start=%llu boot=%63s host=%127s", &pid, &start, boot, host) != 4 ||
	    pid <= 0)
		return false; /* "1" (older), "1 kept", or unreadable: never stale */
	*pid_out = pid;
	/* Another host's process (a shared directory) cannot be checked from here. */
	host_name(here, sizeof(here));
	if (strcmp(host, here))
		return false;
	boot_id(now, sizeof(now));
	if (now[0] && strcmp(boot, "-") && strcmp(boot, now))
		return true; /* created before the last boot */
	if (kill(pid, 0) && errno == ESRCH)
		return true;
	/* The number is in use again: by another process only if it started at another time. */
	unsigned long long s = start_time(pid);
	return start && s && s != start;
}

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* NAME.JOB.THREAD[.rRANK] (run) or iogauge-CMD.PID.N.tmp (suites). */
static bool iogauge_name(const char *name)
{
	const char *e = name + strlen(name);
	/* A rank suffix (iogauge-mpi): .r and digits. */
	const char *r = strrchr(name, '.');
	if (r && r[1] == 'r' && all_digits(r + 2, (size_t)(e - r - 2)))
		e = r;
	if (!strncmp(name, "iogauge-", 8) && e - name > 12 && !strcmp(e - 4, ".tmp")) {
		const char *n = e - 4, *d2 = n, *d1;
		while (d2 > name && d2[-1] != '.')
			d2--;
		if (d2 <= name + 8 || !all_digits(d2, (size_t)(n - d2)))
			return false;
		d1 = d2 - 1;
		while (d1 > name && d1[-1] != '.')
			d1--;
		return d1 > name + 8 && all_digits(d1, (size_t)(d2 - 1 - d1));
	}
	const char *t = e;
	while (t > name && t[-1] != '.')
		t--;
	if (t <= name + 1)
		return false;
	t--; /* the dot before THREAD */
	if (!all_digits(t + 1, (size_t)(e - t - 1)))
		return false;
	const char *j = t;
	while (j > name && j[-1] != '.')
		j--;
	return j > name + 1 && all_digits(j, (size_t)(t - j));
}

/*
 * A file set's directory: NAME.files (run --fileop without --filename) or
 * iogauge-CMD.PID.N.files (a suite's, bonnie's), with a rank suffix or not.
 */
static bool iogauge_set_name(const char *name)
{
	const char *e = name + strlen(name);
	const char *r = strrchr(name, '.');
	if (r && r[1] == 'r' && all_digits(r + 2, (size_t)(e - r - 2)))
		e = r;
	return e - name > 6 && !memcmp(e - 6, ".files", 6);
}

/* A regular file or a directory (never followed through a link) whose marker names a process that is gone. */
static bool stale_at(const char *path, bool dir, int *pid)
{
	char v[256];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (dir ? O_DIRECTORY : 0));
	if (fd < 0)
		return false;
	struct stat st;
	bool kind = !fstat(fd, &st) && (dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
	ssize_t len = !kind ? -1 : fgetxattr(fd, IOGAUGE_XATTR, v, sizeof(v) - 1);
	close(fd);
	if (len <= 0)
		return false;
	v[len] = 0;
	*pid = 0;
	return stale_is_marker(v, (size_t)len) && creator_gone(v, pid);
}

bool stale_path(const char *path, int *pid)
{
	return stale_at(path, false, pid);
}

bool stale_tree(const char *path, int *pid)
{
	return stale_at(path, true, pid);
}

int stale_sweep(const char *dir, void (*said)(void *arg, const struct stale_file *f), void *arg)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		bool file = iogauge_name(de->d_name), tree = !file && iogauge_set_name(de->d_name);
		if (!file && !tree)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path))
			continue;
		int pid = 0;
		if (!stale_at(path, tree, &pid))
			continue;
		struct stale_file f = { path, pid, tree };
		if (said)
			said(arg, &f);
		if (!(tree ? ctx_remove_tree(path) : unlink(path)))
			n++;
	}
	closedir(d);
	return n;
}
