/*
 * --output-format=terse (fio's --minimal): fio's terse version 3, one line
 * per thread (or per group with group_reporting), fields separated by ';':
 * 121 fields, 9 more per disk, the description last.  YABS reads fields 7,
 * 8, 48 and 49 (read KiB/s and IOPS, write KiB/s and IOPS).
 */
#include "base/common.h"
#include "report/fio.h"

#include <inttypes.h>
#include <string.h>

static void t_lat(FILE *f, const struct fio_lat *l)
{
	if (!l->n) {
		fputs(";0;0;0.000000;0.000000", f);
		return;
	}
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f", l->min / 1000, l->max / 1000, l->mean / 1000.0,
		l->stddev / 1000.0);
}

/* Twenty "P%=V" fields, V in us (truncated); past the list "0%=0". */
static void t_pct(FILE *f, const struct fio_lat *l, const struct job *j, bool on)
{
	double p[MAX_PERCENTILES];
	unsigned n = on ? j->n_percentiles : 0;
	if (n > 20)
		n = 20;
	memcpy(p, j->percentiles, n * sizeof(*p));
	for (unsigned a = 1; a < n; a++)
		for (unsigned b = a; b > 0 && p[b - 1] > p[b]; b--) {
			double t = p[b];
			p[b] = p[b - 1];
			p[b - 1] = t;
		}
	for (unsigned i = 0; i < 20; i++) {
		if (i < n)
			fprintf(f, ";%f%%=%" PRIu64, p[i], fio_lat_pct(l, p[i]) / 1000);
		else
			fputs(";0%=0", f);
	}
}

static void t_dir(FILE *f, const struct fio_dir *d, const struct job *j, uint64_t agg_bps)
{
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64, d->io_bytes >> 10,
		d->bw_bytes / 1024, (uint64_t)d->iops, d->runtime_ms);
	t_lat(f, &d->slat);
	t_lat(f, &d->clat);
	/* With lat_percentiles the fields hold total-latency percentiles, as in fio. */
	bool lat = j->lat_percentiles;
	t_pct(f, lat ? &d->lat : &d->clat, j, lat || j->clat_percentiles);
	t_lat(f, &d->lat);
	const struct fio_samples *bw = &d->bw;
	if (!bw->n) {
		fputs(";0;0;0.000000%;0.000000;0.000000", f);
		return;
	}
	uint64_t agg_kib = agg_bps / 1024;
	double pct = agg_kib ? bw->mean * 100.0 / (double)agg_kib : 100.0;
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f", bw->min, bw->max, pct > 100 ? 100 : pct,
		bw->mean, fio_samples_dev(bw));
}

static void t_dist(FILE *f, const uint64_t *c, unsigned n, uint64_t total, const char *fmt,
		   double floor_pct)
{
	for (unsigned i = 0; i < n; i++)
		fprintf(f, fmt, fio_pct_clamped(c[i], total, floor_pct));
}

void report_terse(FILE *f, const struct run_result *r)
{
	struct fio_report fr;
	fio_report_build(&fr, r);
	for (unsigned i = 0; i < fr.n; i++) {
		const struct fio_ts *ts = &fr.ts[i];
		const struct job *j = &ts->jr->job;
		fprintf(f, "3;%s;%s;%u;%d", FIO_VERSION_STRING, j->name, ts->groupid, ts->error);
		for (int d = 0; d < DDIR_NR; d++)
			t_dir(f, &ts->dir[d], j, fio_group_bps(&fr, ts->groupid, d));
		uint64_t rt = ts->job_runtime_ms;
		fprintf(f, ";%f%%;%f%%;%" PRIu64 ";%" PRIu64 ";%" PRIu64,
			rt ? (double)ts->usr_ns / 1e6 * 100.0 / (double)rt : 0,
			rt ? (double)ts->sys_ns / 1e6 * 100.0 / (double)rt : 0, ts->ctx, ts->majf, ts->minf);
		uint64_t total = ts->dir[0].ios + ts->dir[1].ios + ts->dir[2].ios; /* v3 shows no trim status */
		t_dist(f, ts->depth, DEPTH_BUCKETS, total, ";%3.1f%%", 0.1);
		/* lat_2us holds every sub-microsecond request too, as in fio. */
		uint64_t us[10];
		memcpy(us, ts->lat_us, sizeof(us));
		for (int k = 0; k < 10; k++)
			us[0] += ts->lat_ns[k];
		t_dist(f, us, 10, total, ";%3.2f%%", 0.01);
		t_dist(f, ts->lat_ms, 12, total, ";%3.2f%%", 0.01);
		for (unsigned k = 0; k < r->ndevs; k++) {
			const struct dev_result *d = &r->devs[k];
			if (!d->ok)
				continue;
			double util = d->span_ns ? 100.0 * (double)d->io_ticks_ms * 1e6 / (double)d->span_ns : 0;
			fprintf(f, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
				   ";%" PRIu64 ";%3.2f%%",
				d->name, d->rd_ios, d->wr_ios, d->rd_merges, d->wr_merges, d->rd_ticks_ms,
				d->wr_ticks_ms, d->in_queue_ms, util > 100 ? 100 : util);
		}
		if (j->description[0])
			fprintf(f, ";%s", j->description);
		fputc('\n', f);
	}
	fio_report_free(&fr);
}
