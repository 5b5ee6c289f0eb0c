/* The knee of an IOPS curve by Little's law (knee.h). */
#include "stats/knee.h"

#include <math.h>

void knee_find(const struct knee_pt *pts, unsigned n, struct knee_out *k)
{
	*k = (struct knee_out){ .knee = -1, .next = -1 };
	for (unsigned i = 0; i < n && k->next < 0; i++) {
		const struct knee_pt *s = &pts[i];
		if (k->knee < 0) {
			k->knee = (int)i;
			continue;
		}
		const struct knee_pt *a = &pts[k->knee];
		double dn = s->little - a->little;
		if (s->iops > a->iops && dn <= 0) {
			k->knee = (int)i; /* more IOPS with no more outstanding I/O */
			continue;
		}
		double gain = dn > 0 ? (s->iops - a->iops) / dn : 0;
		/* The gain at which IOPS and latency grow by the same factor. */
		double thr = dn > 0 ? a->iops * (sqrt(s->little / a->little) - 1) / dn : 0;
		if (s->iops > a->iops && gain >= thr) {
			k->knee = (int)i;
		} else {
			k->next = (int)i;
			k->gain = gain;
			k->threshold = thr;
		}
	}
}
