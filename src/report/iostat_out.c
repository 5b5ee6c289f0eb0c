/*
 * The device's iostat -x columns over the measured phase and per second,
 * other processes' I/O meanwhile, and targets without a block device: in
 * text and JSON (the HTML page renders the JSON).
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "run/iostat.h"
#include "run/merge.h"
#include "report/report.h"

#include <string.h>

static const struct dev_result *run_devs(const struct run_result *r, unsigned *n)
{
	/* Several ranks: every host's devices (their series stay with each rank). */
	*n = r->cluster ? r->cluster->ndevs : r->ndevs;
	return r->cluster ? r->cluster->devs : r->devs;
}

void report_iostat_text(FILE *f, const struct run_result *r)
{
	unsigned n;
	const struct dev_result *devs = run_devs(r, &n);
	bool header = false;
	for (unsigned i = 0; i < n; i++) {
		const struct dev_result *d = &devs[i];
		if (!d->ok)
			continue;
		struct dev_delta x;
		struct iostat_cols c;
		iostat_delta_of(d, &x);
		iostat_cols(&x, &c);
		if (!header) {
			fprintf(f, "  iostat -x over the measured part (%.2f s; MB = 1,048,576 bytes, as iostat):\n",
				(double)d->span_ns / 1e9);
			fprintf(f, "  %-16s %9s %9s %9s %9s %8s %8s %8s %7s\n", "Device", "r/s", "w/s", "rMB/s",
				"wMB/s", "r_await", "w_await", "aqu-sz", "%util");
			header = true;
		}
		char name[136];
		snprintf(name, sizeof(name), "%.63s%s%.63s", d->host, d->host[0] ? ":" : "", d->name);
		fprintf(f, "  %-16s %9.2f %9.2f %9.2f %9.2f %8.2f %8.2f %8.2f %7.2f\n", name, c.r_s, c.w_s,
			c.rmb_s, c.wmb_s, c.r_await, c.w_await, c.aqu_sz, c.util);
	}
	for (unsigned i = 0; i < n; i++)
		if (devs[i].ok && devs[i].disk[0])
			fprintf(f, "  %s is a partition of %s\n", devs[i].name, devs[i].disk);
}

void report_nodev_text(FILE *f, const struct run_result *r)
{
	for (unsigned i = 0; i < r->iostat.nnodev; i++) {
		const struct nodev_target *t = &r->iostat.nodev[i];
		fprintf(f, "\nDisk stats: none: %s is on %s, which has no block device\n", t->path,
			t->fstype[0] ? t->fstype : "a file system");
	}
}

#define OTHERS_SHOWN 5

void report_other_io_text(FILE *f, const struct run_result *r)
{
	const struct iostat_run *io = &r->iostat;
	if (!io->others_ok)
		return;
	fprintf(f, "  other I/O while measuring:%s", io->nothers ? "" : " none\n");
	uint64_t rest_r = 0, rest_w = 0;
	for (unsigned i = 0; i < io->nothers; i++) {
		const struct other_io *o = &io->others[i];
		if (i >= OTHERS_SHOWN) {
			rest_r += o->read_bytes;
			rest_w += o->write_bytes;
			continue;
		}
		fprintf(f, "%s PID %d %s %.1f MB read, %.1f MB written", i ? ";" : "", o->pid, o->name,
			(double)o->read_bytes / 1e6, (double)o->write_bytes / 1e6);
	}
	if (io->nothers > OTHERS_SHOWN)
		fprintf(f, "; and %u more processes, %.1f MB read, %.1f MB written", io->nothers - OTHERS_SHOWN,
			(double)rest_r / 1e6, (double)rest_w / 1e6);
	if (io->nothers)
		fputc('\n', f);
}

static json_t *ig_json_cols(const struct dev_delta *x)
{
	struct iostat_cols c;
	iostat_cols(x, &c);
	json_t *o = json_object();
	json_object_set_new(o, "r_s", json_real(c.r_s));
	json_object_set_new(o, "w_s", json_real(c.w_s));
	json_object_set_new(o, "rMB_s", json_real(c.rmb_s));
	json_object_set_new(o, "wMB_s", json_real(c.wmb_s));
	json_object_set_new(o, "rrqm_s", json_real(c.rrqm_s));
	json_object_set_new(o, "wrqm_s", json_real(c.wrqm_s));
	json_object_set_new(o, "r_await_ms", json_real(c.r_await));
	json_object_set_new(o, "w_await_ms", json_real(c.w_await));
	json_object_set_new(o, "aqu_sz", json_real(c.aqu_sz));
	json_object_set_new(o, "util_pct", json_real(c.util));
	return o;
}

void ig_json_iostat_device(json_t *o, const struct run_result *r, const struct dev_result *d)
{
	struct dev_delta x;
	iostat_delta_of(d, &x);
	if (d->disk[0])
		json_object_set_new(o, "disk", ig_json_text(d->disk));
	json_object_set_new(o, RK_IOSTAT, ig_json_cols(&x));
	if (r->cluster || d < r->devs || d >= r->devs + r->ndevs)
		return; /* the series are this rank's own */
	const struct dev_series *s = &r->iostat.series[d - r->devs];
	json_t *a = json_array();
	for (unsigned i = 0; i < s->n; i++) {
		json_t *p = ig_json_cols(&s->pts[i].d);
		json_object_set_new(p, "t_ns", ig_json_u64(s->pts[i].t_ns));
		json_object_set_new(p, "span_ns", ig_json_u64(s->pts[i].d.span_ns));
		json_array_append_new(a, p);
	}
	json_object_set_new(o, RK_SERIES, a);
}

void ig_json_add_iostat(json_t *o, const struct run_result *r)
{
	const struct iostat_run *io = &r->iostat;
	json_t *a = json_array();
	for (unsigned i = 0; i < io->nothers; i++) {
		json_t *p = json_object();
		json_object_set_new(p, "pid", json_integer(io->others[i].pid));
		json_object_set_new(p, RK_NAME, ig_json_text(io->others[i].name));
		json_object_set_new(p, "read_bytes", ig_json_u64(io->others[i].read_bytes));
		json_object_set_new(p, "write_bytes", ig_json_u64(io->others[i].write_bytes));
		json_array_append_new(a, p);
	}
	if (io->others_ok)
		json_object_set_new(o, RK_OTHER_IO, a);
	else
		json_decref(a);
	a = json_array();
	for (unsigned i = 0; i < io->nnodev; i++) {
		json_t *p = json_object();
		json_object_set_new(p, RK_PATH, ig_json_text(io->nodev[i].path));
		json_object_set_new(p, "fstype", ig_json_text(io->nodev[i].fstype));
		json_array_append_new(a, p);
	}
	json_object_set_new(o, RK_NO_DEVICE, a);
}
