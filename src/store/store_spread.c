/*
 * The run-to-run spread of a figure (store.h): what `check` judges the
 * newest result against and what `report --trend` draws as a band, so a
 * point beyond the band is exactly what check calls a fall.  Each earlier
 * result counts with its figure and, when it ran --passes, its passes'
 * range: a result's median lies inside its own range, and the noise of one
 * pass is part of the noise a later run may show.
 */
#include "store/store_int.h"

#include <math.h>
#include <stdlib.h>

bool store_fig_same(const struct store_fig *a, const struct store_fig *b)
{
	return !strcmp(a->target, b->target) && !strcmp(a->job, b->job) && !strcmp(a->dir, b->dir) &&
	       !strcmp(a->metric, b->metric);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

bool store_spread(const struct store_run *runs, unsigned n, const struct store_fig *f, struct store_spread *out)
{
	double *vals = xcalloc(n ? n : 1, sizeof(double));
	out->lo = INFINITY;
	out->hi = -INFINITY;
	out->median = NAN;
	out->runs = 0;
	for (unsigned r = 0; r < n; r++)
		for (unsigned i = 0; i < runs[r].nfigs; i++) {
			const struct store_fig *g = &runs[r].figs[i];
			if (!store_fig_same(g, f))
				continue;
			vals[out->runs++] = g->value;
			out->lo = fmin(out->lo, fmin(g->min, g->value));
			out->hi = fmax(out->hi, fmax(g->max, g->value));
			break;
		}
	unsigned k = out->runs;
	if (k) {
		qsort(vals, k, sizeof(double), cmp_d);
		out->median = k % 2 ? vals[k / 2] : (vals[k / 2 - 1] + vals[k / 2]) / 2;
	}
	free(vals);
	return k >= STORE_SPREAD_MIN_RUNS;
}
