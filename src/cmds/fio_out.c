/* What fio writes around a run: its progress line on stdout (--eta) and --bandwidth-log's files. */
#include "base/common.h"
#include "cmds/fio_int.h"
#include "run/runner.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- fio's progress line, on stdout as fio draws it */

void fio_eta_draw(void *arg, const struct run_live *l)
{
	struct fio_eta *t = arg;
	uint64_t every = t->cli->eta_interval_ns ? t->cli->eta_interval_ns : NSEC_PER_SEC;
	if (t->shown && l->elapsed_ns < t->last_ns + every)
		return;
	t->last_ns = l->elapsed_ns;
	if (t->cli->eta_newline_ns && t->shown && l->elapsed_ns >= t->line_ns + t->cli->eta_newline_ns) {
		t->line_ns = l->elapsed_ns;
		fputc('\n', stdout);
	}
	t->shown = true;
	printf("Jobs: %u (f=%u): ", l->running, l->running);
	if (l->planned_ns) {
		double left = l->planned_ns > l->elapsed_ns ? (double)(l->planned_ns - l->elapsed_ns) / 1e9 : 0;
		unsigned s = (unsigned)(left + 0.5);
		printf("[%.1f%%][eta %02um:%02us]", 100.0 * (double)l->elapsed_ns / (double)l->planned_ns, s / 60, s % 60);
	} else {
		printf("[-.-%%][eta --m:--s]");
	}
	printf("\r");
	fflush(stdout);
}

void fio_eta_end(void *arg)
{
	struct fio_eta *t = arg;
	if (t->shown) {
		fputc('\n', stdout);
		fflush(stdout);
	}
}

/* ---- --bandwidth-log: agg-read_bw.log, agg-write_bw.log, agg-trim_bw.log */

int fio_agg_logs(void *arg, const struct run_result *r)
{
	(void)arg;
	static const char *const names[] = { "agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log" };
	int status = 0;
	for (unsigned d = 0; d < ARRAY_SIZE(names); d++) {
		FILE *f = fopen(names[d], "w");
		if (!f) {
			msg_err("--bandwidth-log: cannot create %s: %s", names[d], strerror(errno));
			status = EXIT_IOERR;
			continue;
		}
		/* Second k of every job's series: KiB/s summed over the jobs (trim: none measured). */
		unsigned most = 0;
		for (unsigned i = 0; i < r->njobs && d < DDIR_NR; i++)
			if (r->jobs[i].threads && r->jobs[i].total.series.n > most)
				most = r->jobs[i].total.series.n;
		for (unsigned k = 0; k < most; k++) {
			uint64_t bytes = 0, t_ns = 0, span = 0;
			for (unsigned i = 0; i < r->njobs; i++) {
				const struct series *s = &r->jobs[i].total.series;
				if (!r->jobs[i].threads || k >= s->n)
					continue;
				bytes += s->pts[k].bytes[d] - (k ? s->pts[k - 1].bytes[d] : 0);
				uint64_t dt = s->pts[k].t_ns - (k ? s->pts[k - 1].t_ns : 0);
				span = dt > span ? dt : span;
				t_ns = s->pts[k].t_ns > t_ns ? s->pts[k].t_ns : t_ns;
			}
			if (span)
				fprintf(f, "%llu, %llu, %u, 0, 0\n", (unsigned long long)(t_ns / NSEC_PER_MSEC),
					(unsigned long long)((double)bytes / 1024.0 / ((double)span / 1e9) + 0.5), d);
		}
		if (fclose(f)) {
			msg_err("--bandwidth-log: cannot write %s: %s", names[d], strerror(errno));
			status = EXIT_IOERR;
		}
	}
	return status;
}
