/* fio's logs: the storage a worker records into (fiolog.h). */
#include "stats/fiolog.h"
#include "base/common.h"
#include "model/job.h"
#include "stats/thread_stats.h" /* the counters a window copies; not stats.h, which frees the logs */

#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>

bool job_logs(const struct job *j)
{
	return j->bw_log[0] || j->iops_log[0] || j->lat_log[0];
}

int fiolog_window_value(const struct job *j)
{
	/* The words: avg, max, both, 0 (avg), 1 (max). */
	return j->log_window == 4 ? FIOLOG_WIN_MAX : j->log_window == 3 ? FIOLOG_WIN_AVG : j->log_window;
}

struct fiolog *fiolog_new(const struct job *j)
{
	if (!job_logs(j))
		return NULL;
	struct fiolog *l = xcalloc(1, sizeof(*l));
	l->interval_ns = j->log_avg_ns;
	l->track_max = l->interval_ns && fiolog_window_value(j) != FIOLOG_WIN_AVG;
	if (l->interval_ns)
		return l;
	/* Mapped without reserve: only the pages the records reach are ever touched. */
	size_t want = FIOLOG_MAX_RECS;
	void *p = mmap(NULL, want * sizeof(struct fiolog_rec), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p != MAP_FAILED) {
		l->recs = p;
		l->caprec = want;
	}
	return l;
}

void fiolog_free(struct fiolog *l)
{
	if (!l)
		return;
	if (l->recs)
		munmap(l->recs, l->caprec * sizeof(struct fiolog_rec));
	free(l->wins);
	free(l);
}

void fiolog_reset(struct fiolog *l)
{
	if (!l)
		return;
	l->nrec = 0;
	l->nwin = 0;
	l->dropped = false;
	memset(l->cur_max, 0, sizeof(l->cur_max));
}

void fiolog_window(struct fiolog *l, const struct thread_stats *st, uint64_t t_ns, bool final)
{
	if (l->nwin == l->capwin) {
		unsigned cap = l->capwin ? l->capwin * 2 : 64;
		struct fiolog_win *w = realloc(l->wins, (size_t)cap * sizeof(*w));
		if (!w)
			return; /* the log ends early; the run goes on */
		l->wins = w;
		l->capwin = cap;
	}
	struct fiolog_win *w = &l->wins[l->nwin++];
	memset(w, 0, sizeof(*w));
	w->t_ns = t_ns;
	w->final = final;
	for (int d = 0; d < FIOLOG_DIRS; d++) {
		const struct op_stats *o = &st->op[d];
		w->ios[d] = o->ios;
		w->bytes[d] = o->bytes;
		w->slat_sum[d] = o->slat.sum;
		w->slat_n[d] = o->slat.n;
		w->clat_sum[d] = o->clat.sum;
		w->clat_n[d] = o->clat.n;
		w->lat_sum[d] = o->lat.sum;
		w->lat_n[d] = o->lat.n;
	}
	memcpy(w->max, l->cur_max, sizeof(w->max));
	memset(l->cur_max, 0, sizeof(l->cur_max));
}
