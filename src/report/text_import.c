/*
 * The text of a result imported from another tool and read as iogauge's
 * (result_fio.c): each job's figures per direction as that tool measured
 * them, and the notes that say what is not carried.  The HTML page's summary
 * box shows it; `iogauge show` prints the imported file itself.
 */
#include "base/common.h"
#include "report/report.h"
#include "report/result_read.h"

#include <math.h>
#include <stdio.h>

int report_import_text(FILE *f, const json_t *root)
{
	struct result_head h;
	struct result_job *jobs;
	result_head(root, &h);
	unsigned n = result_jobs(root, &jobs);
	char a[32];
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "%s: %s's figures, imported (%s)\n", jobs[i].name ? jobs[i].name : "?", h.imported,
			*jobs[i].target ? jobs[i].target : "no file named");
		for (unsigned d = 0; d < DDIR_NR; d++) {
			const struct result_dir *x = &jobs[i].dir[d];
			double pct[32], ns[32];
			if (!(x->bytes > 0))
				continue;
			fprintf(f, "  %s: IOPS=%.0f, BW=%.1fMB/s, %s in %.0f ms\n", io_op_names[d], x->iops, x->bw_bytes / 1e6,
				fmt_bytes(a, sizeof(a), x->bytes), jobs[i].elapsed_ns / 1e6);
			if (isfinite(x->clat_mean))
				fprintf(f, "    clat (usec): min=%.1f, max=%.1f, avg=%.2f, stdev=%.2f\n", x->clat_min / 1e3,
					x->clat_max / 1e3, x->clat_mean / 1e3, x->clat_stddev / 1e3);
			unsigned np = result_clat_percentiles(x, pct, ns, 32);
			if (np) {
				fprintf(f, "    clat percentiles (usec):");
				for (unsigned k = 0; k < np; k++)
					fprintf(f, " %.2fth=%.1f", pct[k], ns[k] / 1e3);
				fputc('\n', f);
			}
		}
	}
	for (unsigned i = 0; i < h.nnotes; i++)
		fprintf(f, "note: %s\n", result_note(root, i));
	result_jobs_free(jobs, n);
	return ferror(f) ? -1 : 0;
}
