/*
 * The text of a result imported from another tool and read as iogauge's
 * (result_fio.c): each job's figures per direction as that tool measured
 * them, and the notes that say what is not carried.  The HTML page's summary
 * box shows it; `iogauge show` prints the imported file itself.
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "report/report.h"
#include "report/result_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void lat_line(FILE *f, const char *what, const json_t *l)
{
	double mean = rk_num(l, RK_MEAN);
	if (!isfinite(mean))
		return;
	fprintf(f, "    %s (usec): min=%.1f, max=%.1f, avg=%.2f, stdev=%.2f\n", what, rk_num(l, RK_MIN) / 1e3,
		rk_num(l, RK_MAX) / 1e3, mean / 1e3, rk_num(l, RK_STDDEV) / 1e3);
}

int report_import_text(FILE *f, const json_t *root)
{
	struct result_head h;
	struct result_job *jobs;
	result_head(root, &h);
	unsigned n = result_jobs(root, &jobs);
	char a[32];
	for (unsigned i = 0; i < n; i++) {
		const json_t *j = jobs[i].job;
		fprintf(f, "%s: %s's figures, imported (%s)\n", jobs[i].name ? jobs[i].name : "?", h.imported,
			*jobs[i].target ? jobs[i].target : "no file named");
		for (unsigned d = 0; d < DDIR_NR; d++) {
			const struct result_dir *x = &jobs[i].dir[d];
			if (!(x->bytes > 0))
				continue;
			fprintf(f, "  %s: IOPS=%.0f, BW=%.1fMB/s, %s in %.0f ms\n", io_op_names[d], x->iops, x->bw_bytes / 1e6,
				fmt_bytes(a, sizeof(a), x->bytes), rk_num(j, "elapsed_ns") / 1e6);
			const json_t *op = json_object_get(j, io_op_names[d]);
			lat_line(f, "slat", json_object_get(op, "slat_ns"));
			lat_line(f, "clat", json_object_get(op, RK_CLAT_NS));
			lat_line(f, " lat", json_object_get(op, "lat_ns"));
			const json_t *pct = json_object_get(x->clat, RK_PERCENTILES), *v;
			const char *k;
			if (json_object_size(pct)) {
				fprintf(f, "    clat percentiles (usec):");
				json_object_foreach((json_t *)pct, k, v)
					fprintf(f, " %.2fth=%.1f", atof(k), json_number_value(v) / 1e3);
				fputc('\n', f);
			}
		}
	}
	for (unsigned i = 0; i < h.nnotes; i++)
		fprintf(f, "note: %s\n", result_note(root, i));
	result_jobs_free(jobs, n);
	return ferror(f) ? -1 : 0;
}
