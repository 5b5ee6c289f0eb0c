/*
 * `iogauge fs`: seed 000's and 003's comparison of file systems on the same
 * devices — ext4, xfs, btrfs, with mount options (noatime, compress=lzo,
 * nossd) and btrfs across several devices (raid0, raid1).  Each file system
 * is made (mkfs), mounted, measured with a suite's cases and dd's buffered
 * write, and unmounted; the writeback that goes on after that write returns
 * and the unmount's flush are timed.  One column per file system, and the
 * multi-device layouts against one device.  A table of cases and a
 * formatter; the executor (suite_exec.c) runs them, fsmake.c makes the file
 * systems.
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "options/command.h"
#include "base/ctx.h"
#include "run/fsmake.h"
#include "options/options.h"
#include "model/job_names.h"
#include "suites/fs_opts.h"
#include "run/safety.h"
#include "suite/suite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const struct command cmd_quick, cmd_mix;

/* dd's buffered write of seed 000 (dd if=/dev/zero of=haha bs=1M): the clock stops when it returns. */
#define DD_WRITE_NAME "dd write bs=1M (returns)"
#define DD_WRITE_OPTS "--rw=write --bs=1m --direct=0 --overwrite=0 --ioengine=psync --iodepth=1 --numjobs=1 " \
		      "--time_based=0 --runtime=0 --ramp_time=0"
static const struct suite_case dd_cases[] = {
	{ "dd read bs=4M", "--rw=read --bs=4m --direct=0 --invalidate=1 --ioengine=psync --iodepth=1 "
			   "--numjobs=1 --time_based=0 --runtime=0 --ramp_time=0" },
};
/* bonnie++'s block tests (its -f): output, rewrite, input, seeks (8000 by 3 seekers). */
#define BONNIE_COMMON "--ioengine=psync --direct=0 --iodepth=1 --time_based=0 --runtime=0 --ramp_time=0 --bs=8k "
static const struct suite_case bonnie_cases[] = {
	{ "put_block", BONNIE_COMMON "--rw=write --overwrite=0 --numjobs=1 --end_fsync=1" },
	{ "rewrite", BONNIE_COMMON "--rw=read --rewrite_pct=100 --numjobs=1 --end_fsync=1" },
	{ "get_block", BONNIE_COMMON "--rw=read --numjobs=1" },
	{ "seeks", BONNIE_COMMON "--rw=randread --norandommap=1 --rewrite_pct=10 --numjobs=3 --number_ios=2666 "
			     "--group_reporting=1" },
};

struct fs_made {
	struct fs_spec spec;
	unsigned ndevs;
	bool made, mounted, unmounted;
	uint64_t mkfs_ns, unmount_ns;
	uint64_t *wb_ns;     /* [pass]: syncfs after dd's buffered write returned; UINT64_MAX: not measured */
	struct ig_err unmount_err;
};

struct fs_state {
	struct fs_made *fs;
	unsigned nfs;
	char *devs[FS_MAX_DEVS];
	unsigned ndevs;
	bool loops;                   /* the devices are loop devices over images in --loop-dir */
	int loop_fd[2];
	char loop_dev[2][32];
	char mnt[64];                 /* the mount point, made and removed here */
	unsigned dd_case;             /* the case whose writeback is timed */
};

static struct fs_state *state(const struct suite_run *sr)
{
	return sr->priv;
}

/* ---- before anything runs: the list, the devices, the interlock */

static int parse_list(struct fs_state *st, const char *list, struct ig_err *e)
{
	char copy[sizeof(((struct fs_opts *)0)->list)], *save = NULL;
	snprintf(copy, sizeof(copy), "%s", list);
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		/* "btrfs:compress=lzo,space_cache": a word without a type continues the one before. */
		struct fs_spec probe;
		if (st->nfs && !strchr(w, ':') && fs_spec_parse(w, &probe, &(struct ig_err){ 0 })) {
			struct fs_spec *p = &st->fs[st->nfs - 1].spec;
			char again[sizeof(p->label) + 64];
			snprintf(again, sizeof(again), "%s,%s", p->label, w);
			if (fs_spec_parse(again, p, e))
				return -1;
			continue;
		}
		st->fs = realloc(st->fs, (st->nfs + 1) * sizeof(*st->fs));
		if (!st->fs)
			abort();
		struct fs_made *m = &st->fs[st->nfs];
		memset(m, 0, sizeof(*m));
		if (fs_spec_parse(w, &m->spec, e) || fs_layout_check(&m->spec, e))
			return -1;
		st->nfs++;
	}
	if (!st->nfs)
		return err_set(e, EXIT_USAGE, "--fs: give at least one file system (ext4, xfs, btrfs)");
	return 0;
}

static int check_devices(struct suite_run *sr, struct fs_state *st, struct ig_err *e)
{
	if (sr->nwords > FS_MAX_DEVS)
		return err_set(e, EXIT_USAGE, "fs takes at most %d DEVICEs (%u given)", FS_MAX_DEVS, sr->nwords);
	for (unsigned i = 0; i < sr->nwords; i++) {
		const char *d = sr->words[i];
		struct stat s;
		if (stat(d, &s))
			return err_set(e, EXIT_USAGE, "%s: %s", d, strerror(errno));
		if (!S_ISBLK(s.st_mode))
			return err_set(e, EXIT_USAGE, "%s: not a block device (fs makes file systems on DEVICEs; "
						      "--loop-dir DIR makes loop devices over images in DIR)", d);
		for (unsigned k = 0; k < i; k++) {
			struct stat o;
			if (!stat(sr->words[k], &o) && o.st_rdev == s.st_rdev)
				return err_set(e, EXIT_USAGE, "%s: given twice (as %s)", d, sr->words[k]);
		}
		/* Mounted or in use: refused always; a signature: refused without --allow-destroy. */
		if (safety_check_blockdev(sr->ctx, d, sr->s->allow_destroy, e))
			return -1;
		if (!sr->s->allow_destroy)
			return err_set(e, EXIT_USAGE, "%s: fs makes a file system on it, destroying what it holds; "
						      "give --allow-destroy (command line only)", d);
		st->devs[st->ndevs++] = sr->words[i];
	}
	return 0;
}

/* No devices: loop devices over images in --loop-dir, two when a layout spans several. */
static int make_loops(struct suite_run *sr, struct fs_state *st, struct ig_err *e)
{
	unsigned want = 1;
	for (unsigned i = 0; i < st->nfs; i++)
		want = fs_spec_multi(&st->fs[i].spec) ? 2 : want;
	st->loops = true;
	for (unsigned i = 0; i < want; i++) {
		char img[PATH_MAX];
		if ((size_t)snprintf(img, sizeof(img), "%s/iogauge-fs.%d.%u.img", fs_opts_c(sr->s)->loop_dir, (int)getpid(), i) >=
		    sizeof(img))
			return err_set(e, EXIT_USAGE, "--loop-dir: %s: path too long", fs_opts_c(sr->s)->loop_dir);
		if (loop_make(img, fs_opts_c(sr->s)->image_size, st->loop_dev[i], sizeof(st->loop_dev[i]), &st->loop_fd[i], e))
			return -1;
		st->devs[st->ndevs++] = st->loop_dev[i];
	}
	return 0;
}

static int start(struct suite_run *sr, struct job *base, struct ig_err *e)
{
	(void)base;
	struct fs_state *st = xcalloc(1, sizeof(*st));
	st->loop_fd[0] = st->loop_fd[1] = -1;
	sr->priv = st;
	if (parse_list(st, fs_opts_c(sr->s)->list, e))
		return -1;
	bool dir = fs_opts_c(sr->s)->loop_dir[0] != 0;
	if (dir && sr->nwords)
		return err_set(e, EXIT_USAGE, "--loop-dir: give DEVICEs or --loop-dir, not both");
	if (!dir && !sr->nwords)
		return err_set(e, EXIT_USAGE, "fs needs DEVICE... (with --allow-destroy) or --loop-dir DIR");
	for (unsigned i = 0; i < st->nfs; i++)
		if (fs_spec_multi(&st->fs[i].spec) && !dir && sr->nwords < 2)
			return err_set(e, EXIT_USAGE, "--fs: %s spans devices: give 2 or more DEVICEs (%u given)",
				       st->fs[i].spec.label, sr->nwords);
	if (dir ? make_loops(sr, st, e) : check_devices(sr, st, e))
		return -1;
	/* Under $TMPDIR as mktemp(1) puts its directories (a test, or a user, keeps them apart). */
	const char *tmp = getenv("TMPDIR");
	if ((size_t)snprintf(st->mnt, sizeof(st->mnt), "%s/iogauge-fs.XXXXXX", tmp && *tmp ? tmp : "/tmp") >=
	    sizeof(st->mnt))
		return err_set(e, EXIT_USAGE, "TMPDIR is too long for a mount point: %s", tmp);
	if (!mkdtemp(st->mnt)) {
		err_set(e, EXIT_IOERR, "%s: %s", st->mnt, strerror(errno));
		st->mnt[0] = 0;
		return -1;
	}
	for (unsigned i = 0; i < st->nfs; i++) {
		st->fs[i].ndevs = fs_spec_devices(&st->fs[i].spec, st->ndevs);
		st->fs[i].wb_ns = xcalloc(sr->s->passes, sizeof(uint64_t));
		for (unsigned p = 0; p < sr->s->passes; p++)
			st->fs[i].wb_ns[p] = UINT64_MAX;
	}
	sr->ntargets = st->nfs;
	return 0;
}

/* The cases: the chosen suite's, then dd's buffered write (whose writeback is timed). */
static int plan(const struct suite_run *sr, struct job *base, struct suite_case **cases, unsigned *n,
		struct ig_err *e)
{
	(void)base;
	(void)e;
	const struct suite_case *from = NULL;
	unsigned nfrom = 0;
	const char *prefix = "";
	switch (fs_opts_c(sr->s)->suite) {
	case FS_SUITE_QUICK:
		from = cmd_quick.suite->cases, nfrom = cmd_quick.suite->ncases;
		break;
	case FS_SUITE_MIX: /* mix's own defaults, but the size and the time are fs's */
		from = cmd_mix.suite->cases, nfrom = cmd_mix.suite->ncases;
		prefix = "--iodepth=64 --numjobs=2 --rwmixread=50 --group_reporting=1 ";
		break;
	case FS_SUITE_BONNIE:
		from = bonnie_cases, nfrom = ARRAY_SIZE(bonnie_cases);
		break;
	default:
		break;
	}
	struct suite_case *c = xcalloc(nfrom + 2, sizeof(*c));
	*n = 0;
	struct fs_state *st = state(sr);
	if (fs_opts_c(sr->s)->suite == FS_SUITE_DD) { /* dd's write first: its file is what dd reads back */
		st->dd_case = (*n)++;
		c[0] = (struct suite_case){ xstrdup(DD_WRITE_NAME), xstrdup(DD_WRITE_OPTS) };
		from = dd_cases, nfrom = ARRAY_SIZE(dd_cases);
	}
	for (unsigned i = 0; i < nfrom; i++, (*n)++) {
		char *o = xcalloc(1, strlen(prefix) + strlen(from[i].opts) + 1);
		sprintf(o, "%s%s", prefix, from[i].opts);
		c[*n] = (struct suite_case){ xstrdup(from[i].name), o };
	}
	if (fs_opts_c(sr->s)->suite != FS_SUITE_DD) {
		st->dd_case = *n;
		c[(*n)++] = (struct suite_case){ xstrdup(DD_WRITE_NAME), xstrdup(DD_WRITE_OPTS) };
	}
	*cases = c;
	return 0;
}

/* ---- each file system: made, measured, unmade */

static const char *target_name(const struct suite_run *sr, unsigned t)
{
	return state(sr)->fs[t].spec.label;
}

static int setup(struct suite_run *sr, unsigned t, char *dir, size_t len, struct ig_err *e)
{
	struct fs_state *st = state(sr);
	struct fs_made *m = &st->fs[t];
	if (fs_mkfs(&m->spec, st->devs, m->ndevs, &m->mkfs_ns, e))
		return -1;
	m->made = true;
	if (sr->ctx->stop)
		return -1; /* interrupted: nothing mounted, nothing to say */
	if (fs_mount(&m->spec, st->devs, m->ndevs, st->mnt, e))
		return -1;
	m->mounted = true;
	snprintf(dir, len, "%s", st->mnt);
	return 0;
}

static void teardown(struct suite_run *sr, unsigned t)
{
	struct fs_made *m = &state(sr)->fs[t];
	if (!m->mounted)
		return;
	if (fs_umount(state(sr)->mnt, &m->unmount_ns, &m->unmount_err))
		msg_err("%s", m->unmount_err.msg);
	else
		m->unmounted = true;
	m->mounted = false;
}

/* dd's write has returned: how long the file system still writes what it holds (syncfs). */
static void case_done(struct suite_run *sr, unsigned t, unsigned c)
{
	struct fs_state *st = state(sr);
	if (c != st->dd_case || !st->fs[t].mounted)
		return;
	int fd = open(st->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	uint64_t t0 = now_ns();
	if (!syncfs(fd))
		st->fs[t].wb_ns[sr->pass] = now_ns() - t0;
	close(fd);
}

static void end(struct suite_run *sr)
{
	struct fs_state *st = state(sr);
	if (!st)
		return;
	for (unsigned i = 0; i < st->nfs; i++) {
		uint64_t ns;
		struct ig_err e = { 0 };
		if (st->fs[i].mounted && fs_umount(st->mnt, &ns, &e)) /* an error's way out */
			msg_err("%s", e.msg);
		free(st->fs[i].wb_ns);
	}
	for (unsigned i = 0; i < 2; i++)
		loop_drop(st->loop_fd[i]);
	if (st->mnt[0])
		rmdir(st->mnt);
	free(st->fs);
	free(st);
	sr->priv = NULL;
}

/* ---- figures */

/* The direction a case reports: reads, writes, or both (a mix). */
static int case_dir(const struct suite_case *c)
{
	if (strstr(c->opts, "rw=randrw") || strstr(c->opts, "rw=rw "))
		return FD_TOTAL;
	return strstr(c->opts, "write") ? FD_WRITE : FD_READ;
}

/* Median of the timed writebacks of target t, in seconds; -1 when none. */
static double writeback_s(const struct suite_run *sr, unsigned t)
{
	const struct fs_state *st = state(sr);
	double v[64];
	unsigned n = 0;
	for (unsigned p = 0; st && p < sr->s->passes && n < ARRAY_SIZE(v); p++)
		if (st->fs[t].wb_ns[p] != UINT64_MAX)
			v[n++] = (double)st->fs[t].wb_ns[p] / 1e9;
	for (unsigned i = 1; i < n; i++) /* a few passes: insertion sort */
		for (unsigned k = i; k && v[k - 1] > v[k]; k--) {
			double x = v[k];
			v[k] = v[k - 1];
			v[k - 1] = x;
		}
	return !n ? -1 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* dd's write through to the disk: its bytes over the time to return plus the writeback. */
static double to_disk_mbs(const struct suite_run *sr, unsigned t)
{
	const struct fs_state *st = state(sr);
	struct fig3 secs = suite_fig(sr, t, st->dd_case, FD_WRITE, FIG_SECONDS);
	struct fig3 mbs = suite_fig(sr, t, st->dd_case, FD_WRITE, FIG_MBS);
	double wb = writeback_s(sr, t);
	if (!secs.n || wb < 0 || secs.median + wb <= 0)
		return -1;
	return mbs.median * secs.median / (secs.median + wb);
}

/* Rows after the cases: what fs adds (only while it runs: a saved result has them in its JSON). */
enum { R_TO_DISK, R_WRITEBACK, R_UNSYNCED, R_UNMOUNT, R_MKFS, R_DEVICES, R_NR };
static const char *const extra_rows[R_NR] = {
	"dd write + writeback MB/s", "writeback after return s", "dirty at return MiB", "unmount s",
	"mkfs s", "devices",
};

static unsigned nrows(const struct suite_run *sr)
{
	return sr->suite->ncases + (state(sr) ? R_NR : 0);
}

static void row_label(const struct suite_run *sr, unsigned t, unsigned row, char *buf, size_t len)
{
	(void)t;
	if (row < sr->suite->ncases)
		snprintf(buf, len, "%s MB/s", sr->suite->cases[row].name);
	else
		snprintf(buf, len, "%s", extra_rows[row - sr->suite->ncases]);
}

static void extra_cell(const struct suite_run *sr, unsigned t, unsigned r, char *buf, size_t len)
{
	const struct fs_state *st = state(sr);
	const struct fs_made *m = &st->fs[t];
	double v = -1;
	int prec = 2;
	switch (r) {
	case R_TO_DISK:
		v = to_disk_mbs(sr, t);
		break;
	case R_WRITEBACK:
		v = writeback_s(sr, t), prec = 3;
		break;
	case R_UNSYNCED: {
		struct fig3 u = { 0 };
		for (unsigned p = sr->s->passes; p-- > 0 && !u.n;) /* the last pass that measured it */
			if (sr->targets[t].cells && sr->targets[t].cells[p * sr->suite->ncases + st->dd_case].done &&
			    sr->targets[t].cells[p * sr->suite->ncases + st->dd_case].unsynced >= 0)
				u.n = 1, v = (double)sr->targets[t].cells[p * sr->suite->ncases + st->dd_case].unsynced / (1 << 20);
		prec = 1;
		break;
	}
	case R_UNMOUNT:
		v = m->unmounted ? (double)m->unmount_ns / 1e9 : -1, prec = 3;
		break;
	case R_MKFS:
		v = m->made ? (double)m->mkfs_ns / 1e9 : -1, prec = 3;
		break;
	case R_DEVICES:
		snprintf(buf, len, "%u%s%s%s", m->ndevs, m->spec.layout[0] ? " (" : "", m->spec.layout,
			 m->spec.layout[0] ? ")" : "");
		return;
	}
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", prec, v);
}

static void cell(const struct suite_run *sr, unsigned t, unsigned row, char *buf, size_t len)
{
	if (sr->targets[t].refused.status) {
		snprintf(buf, len, row ? "" : "not measured");
		return;
	}
	if (row >= sr->suite->ncases) {
		extra_cell(sr, t, row - sr->suite->ncases, buf, len);
		return;
	}
	struct fig3 v = suite_fig(sr, t, row, case_dir(&sr->suite->cases[row]), FIG_MBS);
	if (v.n)
		snprintf(buf, len, "%.2f", v.median);
	else
		snprintf(buf, len, "-");
}

/* A multi-device layout's single-device counterpart: the same type, no layout, its options if any. */
static int single_of(const struct fs_state *st, unsigned t)
{
	int best = -1;
	for (unsigned i = 0; i < st->nfs; i++) {
		const struct fs_spec *a = &st->fs[t].spec, *b = &st->fs[i].spec;
		if (i == t || b->layout[0] || strcmp(a->type, b->type))
			continue;
		if (best < 0 || !strcmp(a->opts, b->opts))
			best = (int)i;
	}
	return best;
}

/* The ratio of a row's figure, multi-device over single; -1 when either is missing. */
static double ratio(const struct suite_run *sr, unsigned t, unsigned s, unsigned row)
{
	double a, b;
	if (row == sr->suite->ncases) { /* dd write + writeback */
		a = to_disk_mbs(sr, t), b = to_disk_mbs(sr, s);
	} else {
		int d = case_dir(&sr->suite->cases[row]);
		struct fig3 x = suite_fig(sr, t, row, d, FIG_MBS), y = suite_fig(sr, s, row, d, FIG_MBS);
		a = x.n ? x.median : -1, b = y.n ? y.median : -1;
	}
	return a > 0 && b > 0 ? a / b : -1;
}

static void print_scaling(FILE *f, const struct suite_run *sr)
{
	const struct fs_state *st = state(sr);
	for (unsigned t = 0; st && t < st->nfs; t++) {
		int s = fs_spec_multi(&st->fs[t].spec) ? single_of(st, t) : -1;
		if (s < 0 || !sr->targets[t].tested || !sr->targets[s].tested)
			continue;
		fprintf(f, "\nScaling: %s over %u devices vs %s on one (2.00 would be linear):\n", st->fs[t].spec.label,
			st->fs[t].ndevs, st->fs[s].spec.label);
		for (unsigned row = 0; row <= sr->suite->ncases; row++) {
			char label[160];
			double r = ratio(sr, t, (unsigned)s, row);
			row_label(sr, 0, row, label, sizeof(label));
			if (r > 0)
				fprintf(f, "  %-40s x%.2f\n", label, r);
		}
	}
}

static void print_fs(FILE *f, const struct suite_run *sr)
{
	const struct fs_state *st = state(sr);
	char title[PATH_MAX + 128] = "File systems";
	if (st) {
		size_t used = (size_t)snprintf(title, sizeof(title), "File systems made on");
		for (unsigned i = 0; i < st->ndevs && used < sizeof(title); i++)
			used += (size_t)snprintf(title + used, sizeof(title) - used, " %s", st->devs[i]);
		if (st->loops && used < sizeof(title))
			snprintf(title + used, sizeof(title) - used,
				 " (loop devices over images in %s: that file system is measured too, not a device%s)",
				 fs_opts_c(sr->s)->loop_dir, st->ndevs > 1 ? "; both images share it" : "");
	}
	for (unsigned t = 0; t < sr->ntargets; t++)
		if (sr->targets[t].refused.status)
			fprintf(f, "%s: not measured: %s\n", sr->targets[t].shown, sr->targets[t].refused.msg);
	suite_print_columns(f, sr, title, "Test", nrows(sr), row_label, cell);
	if (st)
		fprintf(f, "\ndd write returns when its data is in the page cache; the writeback after it is the "
			   "syncfs that follows, the unmount the flush of what remains.\n");
	print_scaling(f, sr);
}

/* ---- JSON */

static json_t *num_or_null(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

static json_t *fs_json(const struct suite_run *sr)
{
	const struct fs_state *st = state(sr);
	json_t *o = json_object(), *devs = json_array(), *list = json_array(), *sc = json_array();
	json_object_set_new(o, RK_SUITE, json_string(fs_suite_names[fs_opts_c(sr->s)->suite]));
	for (unsigned i = 0; st && i < st->ndevs; i++)
		json_array_append_new(devs, json_string(st->devs[i]));
	json_object_set_new(o, RK_DEVICES, devs);
	json_object_set_new(o, RK_LOOP_DIR, st && st->loops ? json_string(fs_opts_c(sr->s)->loop_dir) : json_null());
	json_object_set_new(o, "dd_case", json_string(DD_WRITE_NAME));
	for (unsigned t = 0; st && t < st->nfs; t++) {
		const struct fs_made *m = &st->fs[t];
		json_t *x = json_object(), *wb = json_array();
		json_object_set_new(x, "label", json_string(m->spec.label));
		json_object_set_new(x, "type", json_string(m->spec.type));
		json_object_set_new(x, "layout", m->spec.layout[0] ? json_string(m->spec.layout) : json_null());
		json_object_set_new(x, "mount_options", json_string(m->spec.opts));
		json_object_set_new(x, RK_DEVICES, json_integer(m->ndevs));
		json_object_set_new(x, RK_MEASURED, json_boolean(sr->targets[t].tested));
		json_object_set_new(x, "refused", sr->targets[t].refused.status ? json_string(sr->targets[t].refused.msg) : json_null());
		json_object_set_new(x, "mkfs_s", num_or_null(m->made ? (double)m->mkfs_ns / 1e9 : -1));
		for (unsigned p = 0; p < sr->s->passes; p++)
			json_array_append_new(wb, num_or_null(m->wb_ns[p] == UINT64_MAX ? -1 : (double)m->wb_ns[p] / 1e9));
		json_object_set_new(x, "writeback_s", wb);
		json_object_set_new(x, "dd_to_disk_mb_s", num_or_null(to_disk_mbs(sr, t)));
		json_object_set_new(x, "unmount_s", num_or_null(m->unmounted ? (double)m->unmount_ns / 1e9 : -1));
		json_array_append_new(list, x);
		int s = fs_spec_multi(&m->spec) ? single_of(st, t) : -1;
		if (s < 0 || !sr->targets[t].tested || !sr->targets[s].tested)
			continue;
		json_t *r = json_object(), *cases = json_object();
		json_object_set_new(r, RK_TARGET, json_string(m->spec.label));
		json_object_set_new(r, "single", json_string(st->fs[s].spec.label));
		json_object_set_new(r, RK_DEVICES, json_integer(m->ndevs));
		for (unsigned row = 0; row <= sr->suite->ncases; row++)
			json_object_set_new(cases, row < sr->suite->ncases ? sr->suite->cases[row].name : "dd write + writeback",
					    num_or_null(ratio(sr, t, (unsigned)s, row)));
		json_object_set_new(r, "ratio", cases);
		json_array_append_new(sc, r);
	}
	json_object_set_new(o, RK_FILESYSTEMS, list);
	json_object_set_new(o, "scaling", sc);
	return o;
}

static const struct suite fs = {
	.print = print_fs,
	.flags = SUITE_DIRS_ONLY,
	.start = start,
	.plan = plan,
	.setup = setup,
	.target_name = target_name,
	.teardown = teardown,
	.case_done = case_done,
	.end = end,
	.json = fs_json,
};

const struct command cmd_fs = {
	.name = "fs",
	.usage = "iogauge fs [OPTIONS] --allow-destroy DEVICE... | iogauge fs [OPTIONS] --loop-dir DIR",
	.summary = "Make each file system of --fs on the DEVICEs, measure it, unmount it: a column per file system",
	.description =
		"Seeds 000 and 003: ext4 against xfs against btrfs on the same devices, with mount options "
		"(ext4:noatime, btrfs:compress=lzo, btrfs:nossd) and btrfs across every DEVICE (btrfs:raid0, "
		"btrfs:raid1). Each file system is made with mkfs.TYPE (e2fsprogs, xfsprogs, btrfs-progs), "
		"mounted, measured with --suite's tests (quick by default) and dd's buffered 1 MiB write, "
		"then unmounted. dd's write is timed to its return, as dd does; the writeback that goes on "
		"after it (a syncfs) and the unmount's flush are timed apart, and MB/s through to the disk "
		"counts both. A multi-device layout is compared with the same file system on one device "
		"(the scaling ratio; seed 000 found 1.5, not 2). Making a file system destroys what the "
		"DEVICEs hold: --allow-destroy is needed (command line only), and a mounted or busy device is "
		"refused. md RAID and LVM stripes (FS:md-raid1, FS:lvm-stripe) need the kernel's md and "
		"device-mapper. Without DEVICEs, --loop-dir DIR makes loop devices over image files in DIR "
		"(labelled so: a loop over a file measures that file's file system too). Everything made is "
		"unmounted, detached and removed at the end, on an error and on Ctrl-C.",
	.groups = OG_RESULTS | OG_DESTROY | OG_SUITE | OG_SIZING | OG_ENGINE | OG_DATA | OG_VERIFY | OG_SAVE | OG_STORE,
	.defaults = "--size=256m --runtime=5s --ramp_time=1s --direct=1 --ioengine=auto --numjobs=1 "
		    "--time_based=1 --invalidate=1",
	.suite = &fs,
};
