/*
 * What holds a worker's next request back, beyond --rate: fio's flow (a
 * share of a flow's requests), serialize_overlap (no two overlapping
 * requests in flight) and latency_target (a queue depth searched for).  A
 * worker with none of them has no struct admit and pays one predictable
 * branch where it issues (admit.c).
 */
#ifndef IOGAUGE_ADMIT_H
#define IOGAUGE_ADMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "run/flow.h"
#include "run/lat_target.h"

struct worker;
struct io_u;
struct opt_def;

struct admit {
	struct flow *flow;       /* the flow shared with the other jobs of its flow_id; NULL: none */
	uint64_t flow_mine;      /* requests this thread issued under the flow */
	unsigned weight, flow_sleep_us;
	bool serialize;          /* serialize_overlap, where it matters (writes or trims, depth > 1) */
	uint8_t *busy;           /* depth marks: which slots are in flight (scratch of the overlap check) */
	bool targeting;          /* latency_target */
	struct lat_target lt;
};

/* The worker's struct admit when its job asks for any of them (NULL otherwise).  0 or -errno. */
int admit_setup(struct worker *w);
/* How many of `room` requests may be issued now (flow budget, the depth searched for). */
unsigned admit_room(struct worker *w, unsigned room);
/*
 * Of the n prepared requests in w->batch, how many may go: at most room, and
 * none from the first that overlaps a request in flight or before it.
 */
unsigned admit_batch(struct worker *w, unsigned n, unsigned room);
/* n requests went to the engine. */
static inline void admit_issued(struct admit *a, unsigned n)
{
	if (a->flow)
		flow_count(a->flow, &a->flow_mine, n);
}
/* Nothing may be issued and nothing is in flight: wait a little (flow_sleep, or yield). */
void admit_wait(struct worker *w);
/* A request completed (lat: from before its submit call to now): the latency search's count. */
void admit_done(struct worker *w, const struct io_u *u, uint64_t lat, uint64_t now);
/* After the job's last request: the depth found into the statistics, the flow left. */
void admit_finish(struct worker *w);
void admit_free(struct worker *w);


#endif
