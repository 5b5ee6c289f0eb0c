/* A suite's targets: each PATH resolved to a test file or a device, and the size that fits there. */
#include "base/cluster.h"
#include "base/common.h"
#include "base/stale.h"
#include "options/command.h"
#include "run/safety.h"
#include "suite/suite_exec_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define MIN_FREE (64ULL << 20)
/*
 * Free space a test file leaves alone: a tenth of the file system, at most
 * 1 GiB.  A tenth keeps a small file system out of the "90% full" alarms and
 * leaves its other writers room; on a large one a tenth is far more than the
 * logs, journals and temporary files of a benchmark's few minutes need, and
 * would refuse sizes that leave plenty free, so 1 GiB caps it.
 */
#define FLOOR_MAX (1ULL << 30)

/* Does any case write (read)?  Then devices need the interlock (and a layout before reads). */
static bool suite_does(const struct suite_exec *x, bool (*does)(int rw))
{
	for (unsigned c = 0; c < x->sr.suite->ncases; c++) {
		struct job j[SUITE_MAX_JOBS];
		unsigned n;
		struct ig_err e = { 0 };
		if (suite_case_jobs(&x->sr, c, j, &n, &e))
			continue;
		for (unsigned k = 0; k < n; k++) {
			bool writes = j[k].fileop || job_writes(&j[k]) || job_copies(&j[k]);
			if (does == rw_writes ? writes : does(j[k].rw) && !j[k].fileop)
				return true;
		}
	}
	return false;
}

static void said_stale(void *arg, const struct stale_file *f)
{
	(void)arg;
	msg_warn("removed %s, a %s left by iogauge process %d, which is no longer running", f->path,
		 f->tree ? "file set" : "test file", f->pid);
}

bool suite_writes(const struct suite_exec *x)
{
	return suite_does(x, rw_writes) || x->sr.suite->prepare; /* a precondition writes */
}

bool suite_reads(const struct suite_exec *x)
{
	return suite_does(x, rw_reads);
}

/* A test file that does not fit above the floor: one line, the size, the free space, the floor. */
static void refuse_floor(struct suite_exec *x, struct suite_target *t, const char *path, uint64_t free_bytes,
			 uint64_t room)
{
	char a[32], f[32], fl[32], fit[96] = "nothing fits here";
	fmt_bytes(a, sizeof(a), (double)t->size);
	fmt_bytes(f, sizeof(f), (double)free_bytes);
	fmt_bytes(fl, sizeof(fl), (double)t->floor);
	if (room >= (1ULL << 20))
		snprintf(fit, sizeof(fit), "%s %llum or less fits%s", x->size_opt,
			 (unsigned long long)(room >> 20), cluster_size() > 1 ? " (each rank)" : "");
	else if (x->size_given)
		snprintf(fit, sizeof(fit), "no %s fits here", x->size_opt);
	if (x->size_given)
		err_set(&t->refused, EXIT_USAGE,
			"%s: %s %s does not fit: %s free, and iogauge keeps %s of the file system free (a tenth of it, at most 1 GiB); %s",
			path, x->size_opt, a, f, fl, fit);
	else
		err_set(&t->refused, EXIT_USAGE,
			"%s: the default %s test file does not fit: %s free, and iogauge keeps %s of the file system free (a tenth of it, at most 1 GiB); %s",
			path, a, f, fl, fit);
}

/* Decide the file (or device) and its size; a refusal is kept in the target, not fatal. */
void suite_resolve_target(struct suite_exec *x, struct suite_target *t, const char *path)
{
	const struct settings *s = x->sr.s;
	const char *name = x->sr.cmd->name;
	bool writes = suite_writes(x);
	struct stat st;
	snprintf(t->shown, sizeof(t->shown), "%s", path);
	t->size = x->base.size;
	if (stat(path, &st)) {
		err_set(&t->refused, EXIT_USAGE, "%s: %s", path, strerror(errno));
		return;
	}
	path_facts(path, &t->facts);
	if (!S_ISDIR(st.st_mode) && (x->sr.suite->flags & SUITE_DIRS_ONLY)) {
		err_set(&t->refused, EXIT_USAGE, "%s: not a directory; %s %s", path, name,
			x->sr.suite->flags & SUITE_IN_PLACE ? "reads the files below a directory"
							    : "works with files of its own in a directory");
		return;
	}
	if (S_ISBLK(st.st_mode)) {
		/* Refused now, before any target sees I/O. */
		if (writes && safety_check_blockdev(x->ctx, path, s->allow_destroy, &t->refused))
			return;
		snprintf(t->file, sizeof(t->file), "%s", path);
		t->is_dev = true;
		uint64_t devsize = 0;
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || ioctl(fd, BLKGETSIZE64, &devsize)) {
			err_set(&t->refused, EXIT_USAGE, "%s: %s", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return;
		}
		close(fd);
		t->whole = devsize;
		if (devsize < t->size) {
			t->size = devsize & ~((1ULL << 20) - 1);
			t->shrunk = true;
		}
		return;
	}
	if (S_ISREG(st.st_mode) && x->sr.suite->files) {
		/* Measured in place: the runner's interlocks decide about writing it. */
		snprintf(t->file, sizeof(t->file), "%s", path);
		t->is_file = true;
		t->whole = (uint64_t)st.st_size;
		if (t->whole < t->size) {
			t->size = t->whole;
			t->shrunk = true;
		}
		if (!t->size)
			err_set(&t->refused, EXIT_USAGE, "%s: the file is empty", path);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		err_set(&t->refused, EXIT_USAGE,
			"%s: not a directory%s or a block device (%s writes its own test file in a directory)",
			path, x->sr.suite->files ? ", a regular file" : "", name);
		return;
	}
	if (x->sr.suite->flags & SUITE_IN_PLACE) {
		/* Read where it is: nothing swept, no free space needed (the suite's jobs say what they make). */
		snprintf(t->file, sizeof(t->file), "%s", path);
		snprintf(t->set, sizeof(t->set), "%s", path);
		return;
	}
	/* What a killed run left here: removed (stale.c, strict), and said. */
	stale_sweep(path, said_stale, NULL);
	/* Several ranks (mpirun) may share the directory: each its own file (%r: the rank). */
	if ((size_t)snprintf(t->file, sizeof(t->file), "%s/iogauge-%s.%d.%u.tmp%s", path, name,
			     (int)getpid(), (unsigned)(t - x->sr.targets),
			     cluster_size() > 1 ? ".r%r" : "") >= sizeof(t->file)) {
		err_set(&t->refused, EXIT_USAGE, "%s: path too long", path);
		return;
	}
	snprintf(t->set, sizeof(t->set), "%s/iogauge-%s.%d.%u.files", path, name, (int)getpid(),
		 (unsigned)(t - x->sr.targets));
	struct statvfs vfs;
	if (statvfs(path, &vfs)) {
		err_set(&t->refused, EXIT_USAGE, "%s: %s", path, strerror(errno));
		return;
	}
	if (!vfs.f_blocks)
		return; /* no size reported (ramfs): a full disk would show as ENOSPC */
	uint64_t free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	uint64_t fs_bytes = (uint64_t)vfs.f_blocks * vfs.f_frsize;
	t->floor = fs_bytes / 10 < FLOOR_MAX ? fs_bytes / 10 : FLOOR_MAX;
	/* Ranks of one run may share the file system (a parallel one): each takes its share. */
	uint64_t room = (free_bytes > t->floor ? free_bytes - t->floor : 0) / cluster_size();
	/* A size the user gave (a typo: -S 200g) is refused, never shrunk into the floor. */
	bool exact = x->size_given || (x->sr.suite->flags & SUITE_EXACT_SIZE);
	if (t->size > room && exact) {
		refuse_floor(x, t, path, free_bytes, room);
		return;
	}
	/*
	 * The default size is not measured on a nearly full file system; a small
	 * test file (latency's 1 MiB) needs room for itself twice, not 64 MiB.
	 * A size given that fits above the floor is the user's choice.
	 */
	uint64_t min_free = t->size < MIN_FREE / 2 ? 2 * t->size : MIN_FREE;
	if (!x->size_given && free_bytes < min_free) {
		char b[32], c[32];
		err_set(&t->refused, EXIT_USAGE, "%s: only %s free; %s needs at least %s", path,
			fmt_bytes(b, sizeof(b), (double)free_bytes), name,
			fmt_bytes(c, sizeof(c), (double)min_free));
		return;
	}
	/* The default size shrinks to what fits above the floor, down to half of MIN_FREE. */
	if (t->size > room && room < MIN_FREE / 2) {
		refuse_floor(x, t, path, free_bytes, room);
		return;
	}
	if (t->size > room) {
		t->size = room & ~((1ULL << 20) - 1);
		t->shrunk = true;
	}
}

/*
 * A target the suite makes (a file system): made now, then resolved as a
 * directory; its label stays what the suite named it.  0 when made (to be
 * torn down), -1 when refused (t->refused) or nothing was made.
 */
int suite_made_target(struct suite_exec *x, struct suite_target *t)
{
	char dir[PATH_MAX], label[PATH_MAX];
	unsigned i = (unsigned)(t - x->sr.targets);
	if (x->sr.suite->setup(&x->sr, i, dir, sizeof(dir), &t->refused))
		return -1;
	snprintf(label, sizeof(label), "%s", t->shown);
	suite_resolve_target(x, t, dir);
	snprintf(t->shown, sizeof(t->shown), "%s", label);
	return 0;
}
