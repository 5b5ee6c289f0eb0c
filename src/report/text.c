/* fio-style text report for `run`, with iogauge's honesty notes. */
#include "base/common.h"
#include "report/report.h"
#include "model/engine.h"
#include "run/merge.h"
#include "options/options.h"
#include "model/job_names.h"
#include "model/verify.h"
#include "report/result_read.h"

#include <errno.h>
#include <string.h>
#include <time.h>

const char *fmt_count(char *buf, size_t len, double v)
{
	if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

const char *report_io_mode(const struct job_result *jr)
{
	const struct job *j = &jr->job;
	if (j->engine->flags & ENGINE_NO_FILE)
		return "no I/O (null engine: the tool's own overhead)";
	if (j->fileop)
		return "metadata operations, one system call at a time, through the page cache";
	if (j->direct && !jr->buffered_fallback)
		return "O_DIRECT";
	if (jr->buffered_fallback)
		return "buffered (O_DIRECT refused): cache invalidated before reads, writes timed to fsync";
	if (job_writes(j) && !j->end_fsync && !j->fsync_every && !j->fdatasync_every && !j->sync)
		return "buffered: writes may end in the page cache (add --end_fsync=1 to time them to disk)";
	return "buffered";
}

/* Unit for a latency block, chosen by a typical value (mean or median). */
static void lat_unit(uint64_t typical, const char **name, double *div)
{
	if (typical < 10 * NSEC_PER_USEC) {
		*name = "nsec";
		*div = 1;
	} else if (typical < 10 * NSEC_PER_MSEC) {
		*name = "usec";
		*div = 1e3;
	} else {
		*name = "msec";
		*div = 1e6;
	}
}

static void print_lat(FILE *f, const char *label, const struct lat_stats *l)
{
	const char *u;
	double div;
	if (!l->n)
		return;
	lat_unit((uint64_t)lat_mean(l), &u, &div);
	fprintf(f, "    %4s (%s): min=%.1f, max=%.1f, avg=%.2f, stdev=%.2f\n", label, u,
		(double)l->min / div, (double)l->max / div, lat_mean(l) / div, lat_stddev(l) / div);
}

static void print_percentiles(FILE *f, const char *label, const struct lat_stats *l,
			      const struct job *j)
{
	const char *u;
	double div;
	lat_unit(lat_pct(l, 50), &u, &div);
	fprintf(f, "    %s percentiles (%s):\n", label, u);
	for (unsigned i = 0; i < j->n_percentiles; i++) {
		double v = (double)lat_pct(l, j->percentiles[i]) / div;
		fprintf(f, "%s%6.2fth=[%7.*f]%s", i % 4 ? " " : "     |", j->percentiles[i], v < 100 ? 1 : 0, v,
			i + 1 == j->n_percentiles ? "\n" : i % 4 == 3 ? ",\n" : ",");
	}
}

static void print_series(FILE *f, const struct thread_stats *t, int d)
{
	const struct series *s = &t->series;
	if (s->n < 2)
		return;
	double lo = 0, hi = 0, sum = 0, prev_b = 0, prev_t = 0;
	unsigned n = 0;
	for (unsigned i = 0; i < s->n; i++) {
		double dt = (double)(s->pts[i].t_ns - prev_t) / 1e9;
		double bw = dt > 0 ? ((double)s->pts[i].bytes[d] - prev_b) / dt : 0;
		prev_b = (double)s->pts[i].bytes[d];
		prev_t = (double)s->pts[i].t_ns;
		if (dt < 0.5)
			continue; /* a short tail interval says little */
		lo = n && lo < bw ? lo : bw;
		hi = hi > bw ? hi : bw;
		sum += bw;
		n++;
	}
	if (!n)
		return;
	char a[32], b[32], c[32];
	fprintf(f, "    bw per second: min=%s/s, max=%s/s, avg=%s/s, intervals=%u\n",
		fmt_bytes(a, sizeof(a), lo), fmt_bytes(b, sizeof(b), hi),
		fmt_bytes(c, sizeof(c), sum / n), n);
}

static void print_op(FILE *f, const struct thread_stats *t, int op, const struct job *j)
{
	const struct op_stats *s = &t->op[op];
	if (!s->ios)
		return;
	char iops[32], bw[32], io[32];
	if (io_op_is_data(op)) {
		double rate = result_bw(t, op);
		fprintf(f, "  %s: IOPS=%s, BW=%s/s (%.1fMB/s)(%s/%llumsec)\n", io_op_names[op],
			fmt_count(iops, sizeof(iops), result_iops(t, op)), fmt_bytes(bw, sizeof(bw), rate),
			rate / 1e6, fmt_bytes(io, sizeof(io), (double)s->bytes),
			(unsigned long long)(stats_dir_ns(t, op) / NSEC_PER_MSEC));
	} else if (io_op_is_file(op)) {
		char b[32];
		fprintf(f, "  %s: ops/s=%s, ops=%llu, bytes=%s (%llumsec)\n", io_op_names[op],
			fmt_count(iops, sizeof(iops), result_iops(t, op)), (unsigned long long)s->ios,
			fmt_bytes(b, sizeof(b), (double)s->bytes), (unsigned long long)(t->elapsed_ns / NSEC_PER_MSEC));
	} else {
		fprintf(f, "  %s: ios=%llu\n", io_op_names[op], (unsigned long long)s->ios);
	}
	print_lat(f, "slat", &s->slat);
	print_lat(f, "clat", &s->clat);
	print_lat(f, "lat", &s->lat);
	/* cmdprio: per priority, as fio prints it when two or more have samples. */
	unsigned withs = 0;
	const char *kind = j->lat_percentiles ? "lat" : "clat";
	char label[64];
	for (unsigned i = 0; op < DDIR_NR && i < t->nprio[op]; i++)
		withs += t->prio[op][i].lat.n > 0;
	for (unsigned i = 0; withs >= 2 && i < t->nprio[op]; i++) {
		const struct prio_lat *p = &t->prio[op][i];
		snprintf(label, sizeof(label), "%s prio %u/%u", kind, p->ioprio >> 13u, p->ioprio & 7u);
		print_lat(f, label, &p->lat);
	}
	print_percentiles(f, "clat", &s->clat, j);
	for (unsigned i = 0; withs >= 2 && i < t->nprio[op]; i++) {
		const struct prio_lat *p = &t->prio[op][i];
		if (!p->lat.n)
			continue;
		snprintf(label, sizeof(label), "%s prio %u/%u (%.2f%% of IOs)", kind, p->ioprio >> 13u,
			 p->ioprio & 7u, 100.0 * (double)p->lat.n / (double)(s->clat.n ? s->clat.n : 1));
		print_percentiles(f, label, &p->lat, j);
	}
	if (io_op_is_data(op) && op < DDIR_NR)
		print_series(f, t, op);
}

static void print_thread(FILE *f, const struct job_result *jr, const struct thread_stats *t,
			 unsigned nthreads)
{
	const struct job *j = &jr->job;
	char why[160];
	/* A short transfer has no errno to show: what it moved says it. */
	if (t->short_io)
		fprintf(f, "%s: (groupid=%u, jobs=%u): %s (%s)", j->name, jr->group, nthreads,
			err_text(t, why, sizeof(why)), t->err == ENODATA ? "end of file" : "no space");
	else
		fprintf(f, "%s: (groupid=%u, jobs=%u): err=%2d", j->name, jr->group, nthreads, t->err);
	if (t->err && !t->short_io)
		fprintf(f, " (%s)", err_text(t, why, sizeof(why)));
	fprintf(f, "%s\n", t->interrupted ? " (interrupted)" : "");
	for (int op = 0; op < IO_OP_NR; op++)
		print_op(f, t, op, j);
	double el = t->elapsed_ns ? (double)t->elapsed_ns : 1;
	fprintf(f, "  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%llu\n",
		100.0 * (double)t->cpu.usr_ns / el, 100.0 * (double)t->cpu.sys_ns / el,
		(unsigned long long)t->cpu.ctx);
	if (j->errtol.coe) {
		uint64_t n = 0;
		for (int op = 0; op < IO_OP_NR; op++)
			n += t->errs[op];
		/* fio's line, and which requests failed. */
		fprintf(f, "  errors       : total=%llu, first_error=%d/<%s> (by request:",
			(unsigned long long)n, t->first_error, strerror(t->first_error));
		for (int op = 0; op < IO_OP_NR; op++)
			if (t->errs[op])
				fprintf(f, " %s=%llu", io_op_names[op], (unsigned long long)t->errs[op]);
		fprintf(f, "%s)\n", n ? "" : " none");
	}
	if (t->prepared_items)
		fprintf(f, "  prepared     : %llu missing items made before the job in %.3f s (not timed)\n",
			(unsigned long long)t->prepared_items, (double)t->prepare_ns / 1e9);
	if (t->invalidations)
		fprintf(f, "  cache        : invalidated after each of %llu passes, %.3f s (not timed)\n",
			(unsigned long long)t->invalidations, (double)t->invalidate_ns / 1e9);
	if (t->lat_depth)
		fprintf(f, "  latency      : target=%llu, window=%llu, percentile=%.2f%%, depth=%u\n",
			(unsigned long long)j->lat_target_ns, (unsigned long long)(j->lat_window_ns / 1000),
			j->lat_pct, t->lat_depth);
	if (t->overlap_held)
		fprintf(f, "  overlap      : %llu times a request waited for an overlapping one in flight (serialize_overlap)\n",
			(unsigned long long)t->overlap_held);
}

static void print_job_header(FILE *f, const struct job_result *jr)
{
	const struct job *j = &jr->job;
	char sz[32], bs[32];
	if (j->fileop) {
		char fsz[64];
		option_print(option_find("filesize"), j, NULL, fsz, sizeof(fsz));
		fprintf(f, "%s: fileop=%s, nrfiles=%llu, filesize=%s, files_per_dir=%u, dir_fanout=%u, order=%s, numjobs=%u\n",
			j->name, fileop_names[j->fileop], (unsigned long long)j->nrfiles, fsz, j->files_per_dir,
			j->dir_fanout, j->file_order ? "random" : "sequential", j->numjobs);
		fprintf(f, "  target: %s/t<thread>/ (%s%s%s)\n  I/O: %s\n", jr->targets[0].path,
			jr->targets[0].fstype[0] ? jr->targets[0].fstype : "unknown fs",
			jr->targets[0].device[0] ? " on " : "", jr->targets[0].device, report_io_mode(jr));
		return;
	}
	/* A block size that is not whole KiB is shown exactly: 4100 is not "4.00 KiB". */
	if (j->bs % 1024)
		snprintf(bs, sizeof(bs), "%llu B", (unsigned long long)j->bs);
	else
		fmt_bytes(bs, sizeof(bs), (double)j->bs);
	fprintf(f, "%s: rw=%s, bs=%s, ioengine=%s, iodepth=%u, numjobs=%u, size=%s", j->name,
		rw_names[j->rw], bs, j->engine->name, j->iodepth,
		j->numjobs, fmt_bytes(sz, sizeof(sz), (double)j->size));
	if (j->size_pct)
		fprintf(f, " (%u%%)", j->size_pct); /* fio's share of the file or device */
	if (j->verify)
		fprintf(f, ", verify=%s%s", verify_names[j->verify], j->verify_only ? " (verify only: nothing written)" : "");
	if (rw_writes(j->rw) && !j->verify_only) {
		char data[128];
		data_print(&j->data, data, sizeof(data));
		fprintf(f, ", data=%s%s", data,
			j->data.mode == DATA_RANDOM && !j->refill_buffers ? " (each buffer filled once)" : "");
	}
	fprintf(f, "\n");
	for (unsigned i = 0; i < jr->ntargets; i++) {
		const struct target *t = &jr->targets[i];
		if (j->engine->flags & ENGINE_NO_FILE)
			break; /* no file: nothing to name */
		/* Merged: rank 0's targets stand for every rank's (each rank's are in the JSON). */
		fprintf(f, "  target%s: %s",
			!jr->cluster	     ? "" :
			j->shared_file ? " (shared: a segment per rank)" :
					 " (rank 0's; each rank has its own)",
			t->path);
		if (t->fstype[0] || t->device[0])
			fprintf(f, " (%s%s%s)", t->fstype[0] ? t->fstype : "raw",
				t->device[0] ? " on " : "", t->device);
		if (t->layout_bytes)
			fprintf(f, ", laid out %s of %s in %.2f s (not timed)",
				fmt_bytes(sz, sizeof(sz), (double)t->layout_bytes),
				t->layout_what[0] ? t->layout_what : "random data",
				(double)t->layout_ns / 1e9);
		fprintf(f, "\n");
	}
	fprintf(f, "  I/O: %s", report_io_mode(jr));
	if (jr->resident_before >= 0 && rw_reads(j->rw))
		fprintf(f, "; %s of the region cached before reads",
			fmt_bytes(sz, sizeof(sz), (double)jr->resident_before));
	if (jr->invalidate_ns)
		fprintf(f, "; cache invalidated in %.3f s (not timed)", (double)jr->invalidate_ns / 1e9);
	fprintf(f, "\n");
	if (job_offload(j))
		fprintf(f, "  submit: io_submit_mode=offload: each job thread hands its requests to %u threads, each with its own %s\n",
			j->iodepth, j->engine->name);
	else if (j->submit_mode)
		fprintf(f, "  submit: io_submit_mode=offload runs inline (this job's loop is its thread's own)\n");
	if (j->lat_target_ns)
		fprintf(f, "  latency target: %.3f ms at %g%% of each %.3f ms window: the queue depth is searched for, from 1 to %u\n",
			(double)j->lat_target_ns / 1e6, j->lat_pct, (double)j->lat_window_ns / 1e6, j->iodepth);
}

/* A group's file operations: operations over its longest job. */
static void print_group_fileops(FILE *f, const struct run_result *r, unsigned g)
{
	for (int op = IO_CREATE; op < IO_OP_NR; op++) {
		uint64_t ios = 0, hi = 0;
		for (unsigned i = 0; i < r->njobs; i++) {
			const struct thread_stats *t = &r->jobs[i].total;
			if (r->jobs[i].group != g || !r->jobs[i].threads || !t->op[op].ios)
				continue;
			ios += t->op[op].ios;
			hi = t->elapsed_ns > hi ? t->elapsed_ns : hi;
		}
		if (!ios || !hi)
			continue;
		char n[32];
		fprintf(f, "  %6s: ops/s=%s, ops=%llu, run=%llumsec\n", io_op_names[op],
			fmt_count(n, sizeof(n), (double)ios * 1e9 / (double)hi), (unsigned long long)ios,
			(unsigned long long)(hi / NSEC_PER_MSEC));
	}
}

/* fio's group summary: a group's bytes over its longest job, per stonewall group. */
static void print_groups(FILE *f, const struct run_result *r)
{
	static const char *const up[] = { [IO_READ] = "READ", [IO_WRITE] = "WRITE", [IO_TRIM] = "TRIM" };
	unsigned ngroups = 0;
	for (unsigned i = 0; i < r->njobs; i++)
		if (r->jobs[i].threads && r->jobs[i].group + 1 > ngroups)
			ngroups = r->jobs[i].group + 1;
	for (unsigned g = 0; g < ngroups; g++) {
		fprintf(f, "\nRun status group %u (all jobs):\n", g);
		for (int d = IO_READ; d <= IO_TRIM; d++) {
			uint64_t bytes = 0, lo = UINT64_MAX, hi = 0;
			for (unsigned i = 0; i < r->njobs; i++) {
				const struct thread_stats *t = &r->jobs[i].total;
				if (r->jobs[i].group != g || !r->jobs[i].threads || !t->op[d].ios)
					continue;
				/* Reads also over the verify phases (fio's accounting). */
				uint64_t ns = stats_dir_ns(t, d);
				bytes += t->op[d].bytes;
				lo = ns < lo ? ns : lo;
				hi = ns > hi ? ns : hi;
			}
			if (!bytes || !hi)
				continue;
			double bw = (double)bytes * 1e9 / (double)hi;
			char b[32], io[32];
			fprintf(f, "  %5s: bw=%s/s (%.1fMB/s), io=%s, run=%llu-%llumsec\n", up[d],
				fmt_bytes(b, sizeof(b), bw), bw / 1e6, fmt_bytes(io, sizeof(io), (double)bytes),
				(unsigned long long)(lo / NSEC_PER_MSEC), (unsigned long long)(hi / NSEC_PER_MSEC));
		}
		print_group_fileops(f, r, g);
	}
}

/*
 * Written data on a file system that compresses it (btrfs compress=): say
 * what the data was and what reached the device (seed 003's lesson).  True
 * when it said something.
 */
static bool compression_note(FILE *f, const struct run_result *r, double share)
{
	for (unsigned i = 0; i < r->njobs; i++) {
		const struct job_result *jr = &r->jobs[i];
		if (!jr->threads || !rw_writes(jr->job.rw) || !jr->targets || !jr->targets[0].fs_compress[0])
			continue;
		const struct target *t = &jr->targets[0];
		const struct data_spec *ds = &jr->job.data;
		char data[128];
		data_print(ds, data, sizeof(data));
		bool shrinks = ds->mode != DATA_RANDOM || ds->compress;
		if (shrinks)
			fprintf(f, "  note: %.0f%% of the bytes written reached the device: the data (%s) compresses, "
				   "and %s stores it compressed (compress=%s); this measures compression, not the disk\n",
				100 * share, data, t->fstype, t->fs_compress);
		else
			fprintf(f, "  note: %s compresses new data (compress=%s), but %s data does not shrink: "
				   "%.0f%% of the bytes written reached the device\n",
				t->fstype, t->fs_compress, data, 100 * share);
		return true;
	}
	return false;
}

static void print_devices(FILE *f, const struct run_result *r)
{
	uint64_t req[DDIR_NR] = { 0, 0 };
	for (unsigned i = 0; i < r->njobs && r->jobs[i].threads; i++)
		for (int d = 0; d < DDIR_NR; d++)
			req[d] += r->jobs[i].total.op[d].bytes;
	/* Several ranks: every host's devices. */
	const struct dev_result *devs = r->cluster ? r->cluster->devs : r->devs;
	unsigned ndevs = r->cluster ? r->cluster->ndevs : r->ndevs;
	bool any = false;
	for (unsigned i = 0; i < ndevs; i++)
		any |= devs[i].ok;
	report_nodev_text(f, r);
	if (!any) {
		if (r->iostat.nnodev)
			report_other_io_text(f, r);
		return;
	}
	fprintf(f, "\nDisk stats (read/write), measured part only:\n");
	for (unsigned i = 0; i < ndevs; i++) {
		const struct dev_result *d = &devs[i];
		if (!d->ok)
			continue;
		char rb[32], wb[32];
		double util = d->span_ns ? 100.0 * (double)d->io_ticks_ms * 1e6 / (double)d->span_ns : 0;
		fprintf(f, "  %s%s%s: ios=%llu/%llu, bytes=%s/%s, util=%.2f%%\n", d->host, d->host[0] ? ":" : "", d->name,
			(unsigned long long)d->rd_ios, (unsigned long long)d->wr_ios,
			fmt_bytes(rb, sizeof(rb), (double)d->rd_sectors * 512),
			fmt_bytes(wb, sizeof(wb), (double)d->wr_sectors * 512), util > 100 ? 100 : util);
	}
	report_iostat_text(f, r);
	report_other_io_text(f, r);
	if (ndevs == 1 && devs[0].ok) {
		const struct dev_result *d = &devs[0];
		double rd = (double)d->rd_sectors * 512, wr = (double)d->wr_sectors * 512;
		if (req[IO_READ] && rd < 0.5 * (double)req[IO_READ])
			fprintf(f, "  note: the device delivered %.0f%% of the bytes read: the rest came "
				   "from a cache, not the disk\n", 100 * rd / (double)req[IO_READ]);
		if (req[IO_WRITE] && !compression_note(f, r, wr / (double)req[IO_WRITE]) &&
		    wr < 0.5 * (double)req[IO_WRITE])
			fprintf(f, "  note: only %.0f%% of the bytes written reached the device during the run "
				   "(page cache, compression or deduplication)\n",
				100 * wr / (double)req[IO_WRITE]);
	}
}

void report_text(FILE *f, const struct run_result *r)
{
	for (unsigned i = 0; i < r->njobs; i++) {
		const struct job_result *jr = &r->jobs[i];
		if (!jr->threads)
			continue;
		print_job_header(f, jr);
		if (jr->cluster) /* merged: every rank's threads together */
			print_thread(f, jr, &jr->total, jr->nthreads * r->cluster->nranks);
		else if (jr->job.group_reporting || jr->nthreads == 1)
			print_thread(f, jr, &jr->total, jr->nthreads);
		else
			for (unsigned t = 0; t < jr->nthreads; t++)
				print_thread(f, jr, &jr->threads[t], 1);
		if (jr->verify)
			report_verify_text(f, jr);
		if (jr->ss.n) {
			char ss[512];
			ss_describe(&jr->ss, ss, sizeof(ss));
			fprintf(f, "  steady state : %s\n", ss);
		}
	}
	print_groups(f, r);
	if (r->cluster)
		report_cluster_text(f, r);
	print_devices(f, r);
	if (r->interrupted)
		fprintf(f, "\nInterrupted: the figures above cover the time until the signal.\n");
}

void report_notes(const struct run_result *r, bool fio_silent)
{
	for (unsigned i = 0; i < r->nnotes; i++)
		if ((!fio_silent || !(r->info_notes & (1u << i))) && !(r->report_only & (1u << i)))
			msg_warn("%s", r->notes[i]);
}

void report_errors(const struct run_result *r)
{
	report_notes(r, false);
	report_failures(r);
}

void report_failures(const struct run_result *r)
{
	if (r->err.status)
		msg_err("%s", r->err.msg);
	for (unsigned i = 0; i < r->njobs; i++) {
		const struct thread_stats *t = &r->jobs[i].total;
		char name[JOB_NAME_MAX + 128];
		const struct cluster_job *cj = r->jobs[i].cluster;
		if (!r->jobs[i].threads || !t->err)
			continue;
		/* Several ranks: which one failed, and where. */
		if (cj && cj->err_rank >= 0)
			snprintf(name, sizeof(name), "%s (rank %d on %s)", r->jobs[i].job.name, cj->err_rank,
				 r->cluster->ranks[cj->err_rank].host);
		else
			snprintf(name, sizeof(name), "%s", r->jobs[i].job.name);
		if (report_verify_error(&r->jobs[i], name))
			continue;
		if (t->err_op == ERR_OP_RATE)
			msg_err("job %s: below its minimum rate (--ratemin / --rate_iops_min): %llu in the last second",
				name, (unsigned long long)t->err_offset);
		else if (io_op_is_file(t->err_op))
			msg_err("job %s: %s failed on %s: %s", name, err_op_name(t->err_op), t->err_file,
				t->short_io ? "shorter than its size" : strerror(t->err));
		else if (t->err_op == ERR_OP_HOOK)
			msg_err("job %s: %s failed on %s at offset %llu", name, err_op_name(t->err_op),
				t->err_file, (unsigned long long)t->err_offset);
		else if (t->err_op >= ERR_OP_OPEN)
			msg_err("job %s: %s setup failed on %s: %s", name, err_op_name(t->err_op),
				t->err_file, strerror(t->err));
		else if (t->short_io)
			msg_err("job %s: short %s on %s at offset %llu (%s): %u of %u bytes", name,
				err_op_name(t->err_op), t->err_file,
				(unsigned long long)t->err_offset,
				t->err == ENODATA ? "end of file" : "no space", t->short_got, t->short_len);
		else
			msg_err("job %s: %s error on %s at offset %llu: %s", name, err_op_name(t->err_op),
				t->err_file, (unsigned long long)t->err_offset, strerror(t->err));
	}
}

int report_saved_text(FILE *f, const json_t *root, html_summary_fn summary, struct ig_err *e)
{
	long at = ftell(f);
	struct result_head h;
	result_head(root, &h);
	/* fio's figures hold no histogram for fio's text: their own summary. */
	if (*h.imported)
		return report_import_text(f, root) ? err_set(e, EXIT_IOERR, "cannot write the summary") : 0;
	/* The command's own text: the command layer's callback (command_saved_summary). */
	if (summary && summary(f, root, e))
		return -1;
	fflush(f);
	/* run, and suites that print only while they run: fio's text. */
	if (ftell(f) == at) {
		struct run_result rr;
		int rc = run_result_from_json(root, &rr, e);
		if (!rc)
			report_text(f, &rr);
		run_result_free(&rr);
		return rc;
	}
	return 0;
}
