/*
 * iostat -x and iopp for the measured phase: device counters read at the
 * phase's start and end and once a second between (by the runner's waiting
 * thread), and every other process's /proc/PID/io at both ends.
 */
#include "run/iostat.h"
#include "base/common.h"
#include "run/run_result.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert(MAX_DEVS <= IOSTAT_MAX_DEVS, "the series are parallel to run_result.devs");
_Static_assert(sizeof(struct dev_delta) == 11 * sizeof(uint64_t), "last_sample adds the fields as an array");

void iostat_cols(const struct dev_delta *d, struct iostat_cols *c)
{
	memset(c, 0, sizeof(*c));
	if (!d->span_ns)
		return;
	double s = (double)d->span_ns / 1e9, ms = (double)d->span_ns / 1e6;
	c->r_s = (double)d->rd_ios / s;
	c->w_s = (double)d->wr_ios / s;
	c->rmb_s = (double)d->rd_sectors / 2048 / s;
	c->wmb_s = (double)d->wr_sectors / 2048 / s;
	c->rrqm_s = (double)d->rd_merges / s;
	c->wrqm_s = (double)d->wr_merges / s;
	c->r_await = d->rd_ios ? (double)d->rd_ticks_ms / (double)d->rd_ios : 0;
	c->w_await = d->wr_ios ? (double)d->wr_ticks_ms / (double)d->wr_ios : 0;
	c->aqu_sz = (double)d->in_queue_ms / ms;
	c->util = 100.0 * (double)d->io_ticks_ms / ms;
	if (c->util > 100)
		c->util = 100; /* as iostat: io_ticks is jiffy-granular */
}

static void delta(const struct devstat *a, const struct devstat *b, struct dev_delta *d)
{
	d->rd_ios = b->rd_ios - a->rd_ios;
	d->rd_merges = b->rd_merges - a->rd_merges;
	d->rd_sectors = b->rd_sectors - a->rd_sectors;
	d->rd_ticks_ms = b->rd_ticks_ms - a->rd_ticks_ms;
	d->wr_ios = b->wr_ios - a->wr_ios;
	d->wr_merges = b->wr_merges - a->wr_merges;
	d->wr_sectors = b->wr_sectors - a->wr_sectors;
	d->wr_ticks_ms = b->wr_ticks_ms - a->wr_ticks_ms;
	d->io_ticks_ms = b->io_ticks_ms - a->io_ticks_ms;
	d->in_queue_ms = b->in_queue_ms - a->in_queue_ms;
	d->span_ns = b->when_ns - a->when_ns;
}

void iostat_delta_of(const struct dev_result *d, struct dev_delta *o)
{
	*o = (struct dev_delta){ d->rd_ios, d->rd_merges, d->rd_sectors, d->rd_ticks_ms,
				 d->wr_ios, d->wr_merges, d->wr_sectors, d->wr_ticks_ms,
				 d->io_ticks_ms, d->in_queue_ms, d->span_ns };
}

void iostat_disk_of(const char *dev, char *disk, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX];
	disk[0] = 0;
	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", dev);
	if (access(path, F_OK))
		return;
	/* /sys/class/block/vda1 -> .../block/vda/vda1: the parent directory is the disk. */
	snprintf(path, sizeof(path), "/sys/class/block/%s/..", dev);
	if (!realpath(path, real))
		return;
	const char *slash = strrchr(real, '/');
	snprintf(disk, len, "%s", slash ? slash + 1 : real);
}

void iostat_note_target(struct run_result *r, const char *path, const char *device, const char *fstype)
{
	struct iostat_run *io = &r->iostat;
	if (device[0] || !path[0] || io->nnodev == sizeof(io->nodev) / sizeof(io->nodev[0]))
		return;
	for (unsigned i = 0; i < io->nnodev; i++)
		if (!strcmp(io->nodev[i].fstype, fstype))
			return; /* one line per kind of file system is enough */
	snprintf(io->nodev[io->nnodev].path, sizeof(io->nodev[0].path), "%s", path);
	snprintf(io->nodev[io->nnodev++].fstype, sizeof(io->nodev[0].fstype), "%s", fstype);
}

/* ---- other processes (/proc/PID/io, as iopp) */

struct proc_entry {
	int pid, ppid;
	uint64_t start, rb, wb;
	char name[16];
};
struct proc_snap {
	struct proc_entry *e;
	unsigned n, cap;
};

/* comm and start time from /proc/PID/stat ("pid (comm) state ... field 22"); 0 or -1. */
static int proc_stat(int pid, struct proc_entry *e)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	char *open = strchr(buf, '('), *close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return -1;
	size_t len = (size_t)(close - open - 1);
	if (len >= sizeof(e->name))
		len = sizeof(e->name) - 1;
	memcpy(e->name, open + 1, len);
	e->name[len] = 0;
	/* After ")": state is field 3, ppid field 4, starttime field 22. */
	char *p = close + 1;
	for (int field = 2; field < 21 && p; field++) {
		p = strchr(p + 1, ' ');
		if (field == 3 && p)
			e->ppid = atoi(p + 1);
	}
	e->start = p ? strtoull(p + 1, NULL, 10) : 0;
	return 0;
}

static int proc_io(int pid, struct proc_entry *e)
{
	char path[64], line[128];
	int got = 0;
	snprintf(path, sizeof(path), "/proc/%d/io", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "read_bytes: ", 12))
			got |= 1, e->rb = strtoull(line + 12, NULL, 10);
		else if (!strncmp(line, "write_bytes: ", 13))
			got |= 2, e->wb = strtoull(line + 13, NULL, 10);
	}
	fclose(f);
	return got == 3 ? 0 : -1;
}

static int by_pid(const void *a, const void *b)
{
	const struct proc_entry *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Every process but this one, sorted by pid; NULL when /proc cannot be read. */
static struct proc_snap *proc_snapshot(void)
{
	DIR *d = opendir("/proc");
	if (!d)
		return NULL;
	struct proc_snap *s = xcalloc(1, sizeof(*s));
	int self = getpid();
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0 || pid == self)
			continue;
		struct proc_entry e = { .pid = (int)pid };
		if (proc_io(e.pid, &e) || proc_stat(e.pid, &e))
			continue; /* gone meanwhile, or a kernel without task I/O accounting */
		if (s->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 256;
			struct proc_entry *g = realloc(s->e, s->cap * sizeof(*g));
			if (!g)
				break;
			s->e = g;
		}
		s->e[s->n++] = e;
	}
	closedir(d);
	if (s->n) /* qsort's base must not be NULL, even for no elements */
		qsort(s->e, s->n, sizeof(*s->e), by_pid);
	return s;
}

static void proc_free(struct proc_snap *s)
{
	if (s)
		free(s->e);
	free(s);
}

static void add_other(struct iostat_run *io, const struct proc_entry *e, uint64_t rb, uint64_t wb)
{
	for (unsigned i = 0; i < io->nothers; i++)
		if (io->others[i].pid == e->pid && io->others[i].start == e->start) {
			io->others[i].read_bytes += rb;
			io->others[i].write_bytes += wb;
			return;
		}
	struct other_io *g = realloc(io->others, (io->nothers + 1) * sizeof(*g));
	if (!g)
		return;
	io->others = g;
	struct other_io *o = &io->others[io->nothers++];
	*o = (struct other_io){ .pid = e->pid, .start = e->start, .read_bytes = rb, .write_bytes = wb };
	snprintf(o->name, sizeof(o->name), "%s", e->name);
}

/* Most bytes first. */
static int by_bytes(const void *a, const void *b)
{
	const struct other_io *x = a, *y = b;
	uint64_t m = x->read_bytes + x->write_bytes, n = y->read_bytes + y->write_bytes;
	return (m < n) - (m > n);
}

/*
 * A process alive at both ends counts its difference; one that started
 * meanwhile counts all it did.  A child reaped meanwhile hands its whole
 * life's counts to its parent (the kernel adds them at wait()): what it had
 * done before the phase is taken back off the parent.  A process that ended
 * meanwhile is otherwise lost, as in iopp.
 */
static void proc_diff(struct iostat_run *io, const struct proc_snap *a, const struct proc_snap *b)
{
	uint64_t *rb = xcalloc(b->n + 1, sizeof(*rb)), *wb = xcalloc(b->n + 1, sizeof(*wb));
	for (unsigned i = 0; i < b->n; i++) {
		const struct proc_entry *e = &b->e[i];
		const struct proc_entry *was = bsearch(e, a->e, a->n, sizeof(*e), by_pid);
		rb[i] = e->rb;
		wb[i] = e->wb;
		if (was && was->start == e->start) {
			rb[i] = e->rb >= was->rb ? e->rb - was->rb : 0;
			wb[i] = e->wb >= was->wb ? e->wb - was->wb : 0;
		}
	}
	for (unsigned i = 0; i < a->n; i++) {
		const struct proc_entry *gone = &a->e[i], *now = bsearch(gone, b->e, b->n, sizeof(*gone), by_pid);
		if (now && now->start == gone->start)
			continue;
		struct proc_entry key = { .pid = gone->ppid };
		const struct proc_entry *parent = bsearch(&key, b->e, b->n, sizeof(key), by_pid);
		if (!parent)
			continue;
		size_t k = (size_t)(parent - b->e);
		rb[k] = rb[k] >= gone->rb ? rb[k] - gone->rb : 0;
		wb[k] = wb[k] >= gone->wb ? wb[k] - gone->wb : 0;
	}
	for (unsigned i = 0; i < b->n; i++)
		if (rb[i] || wb[i])
			add_other(io, &b->e[i], rb[i], wb[i]);
	free(rb);
	free(wb);
}

/* ---- the phase */

static void read_all(const struct run_result *r, struct devstat *snap)
{
	for (unsigned i = 0; i < r->ndevs; i++)
		if (devstat_read(r->devs[i].name, &snap[i]))
			snap[i].when_ns = 0;
}

static void push(struct dev_series *s, const struct dev_sample *p)
{
	if (s->n == s->cap) {
		unsigned cap = s->cap ? 2 * s->cap : 16;
		struct dev_sample *g = realloc(s->pts, cap * sizeof(*g));
		if (!g)
			return; /* a sample lost, never the run */
		s->pts = g;
		s->cap = cap;
	}
	s->pts[s->n++] = *p;
}

/* A sample of every device from p->last to now. */
static void sample(struct iostat_phase *p, struct run_result *r)
{
	struct devstat now[IOSTAT_MAX_DEVS];
	read_all(r, now);
	for (unsigned i = 0; i < r->ndevs; i++) {
		if (!now[i].when_ns || !p->last[i].when_ns)
			continue;
		struct dev_sample s = { .t_ns = now[i].when_ns - r->iostat.t0_ns };
		delta(&p->last[i], &now[i], &s.d);
		if (s.d.span_ns)
			push(&r->iostat.series[i], &s);
		p->last[i] = now[i];
	}
}

void iostat_begin(struct iostat_phase *p, struct run_result *r)
{
	memset(p, 0, sizeof(*p));
	p->begun = true;
	p->procs = proc_snapshot();
	for (unsigned i = 0; i < r->ndevs; i++)
		if (!r->devs[i].disk[0])
			iostat_disk_of(r->devs[i].name, r->devs[i].disk, sizeof(r->devs[i].disk));
	read_all(r, p->before);
	memcpy(p->last, p->before, sizeof(p->last));
	for (unsigned i = 0; i < r->ndevs; i++)
		p->first[i] = r->iostat.series[i].n;
	uint64_t t = now_ns();
	if (!r->iostat.t0_ns)
		r->iostat.t0_ns = t;
	p->next_ns = t + NSEC_PER_SEC;
}

uint64_t iostat_tick(struct iostat_phase *p, struct run_result *r, uint64_t now)
{
	if (!p->begun || !r->ndevs)
		return UINT64_MAX;
	if (now >= p->next_ns) {
		sample(p, r);
		/* Due times stay on the phase's one-second grid, however late this tick ran. */
		while (p->next_ns <= now)
			p->next_ns += NSEC_PER_SEC;
	}
	return p->next_ns - now;
}

/*
 * The phase's last part-second: its own sample, unless it is a sliver (the
 * workers ended just after a sample), which joins the sample before it so
 * no near-empty point drags a plot to zero; the sums stay exact.
 */
static void last_sample(struct iostat_phase *p, struct run_result *r)
{
	sample(p, r);
	for (unsigned i = 0; i < r->ndevs; i++) {
		struct dev_series *s = &r->iostat.series[i];
		if (s->n < p->first[i] + 2 || s->pts[s->n - 1].d.span_ns >= NSEC_PER_SEC / 10)
			continue;
		struct dev_sample *a = &s->pts[s->n - 2];
		const struct dev_sample *b = &s->pts[s->n - 1];
		uint64_t *x = &a->d.rd_ios;
		const uint64_t *y = &b->d.rd_ios;
		for (size_t k = 0; k < sizeof(a->d) / sizeof(uint64_t); k++)
			x[k] += y[k]; /* every field is a count or a time: they add */
		a->t_ns = b->t_ns;
		s->n--;
	}
}

void iostat_end(struct iostat_phase *p, struct run_result *r)
{
	if (!p->begun)
		return;
	last_sample(p, r);
	for (unsigned i = 0; i < r->ndevs; i++) {
		struct dev_result *d = &r->devs[i];
		if (!p->before[i].when_ns || !p->last[i].when_ns)
			continue;
		struct dev_delta x;
		delta(&p->before[i], &p->last[i], &x);
		d->ok = true;
		d->rd_ios += x.rd_ios;
		d->rd_sectors += x.rd_sectors;
		d->wr_ios += x.wr_ios;
		d->wr_sectors += x.wr_sectors;
		d->io_ticks_ms += x.io_ticks_ms;
		d->rd_merges += x.rd_merges;
		d->wr_merges += x.wr_merges;
		d->rd_ticks_ms += x.rd_ticks_ms;
		d->wr_ticks_ms += x.wr_ticks_ms;
		d->in_queue_ms += x.in_queue_ms;
		d->span_ns += x.span_ns;
	}
	struct proc_snap *after = p->procs ? proc_snapshot() : NULL;
	if (after) {
		proc_diff(&r->iostat, p->procs, after);
		r->iostat.others_ok = true;
		if (r->iostat.nothers)
			qsort(r->iostat.others, r->iostat.nothers, sizeof(*r->iostat.others), by_bytes);
	}
	proc_free(after);
	proc_free(p->procs);
	p->procs = NULL;
	p->begun = false;
}

void iostat_run_free(struct iostat_run *io)
{
	for (unsigned i = 0; i < IOSTAT_MAX_DEVS; i++)
		free(io->series[i].pts);
	free(io->others);
	memset(io, 0, sizeof(*io));
}
