/*
 * fio's flow: jobs sharing a flow_id keep their requests in the ratio of
 * their weights (--flow).  One counter per flow, shared by its jobs and
 * bumped atomically; each job keeps its own count.  A job may issue while
 * its share of the flow's count is not above its share of the weights
 * (fio's flow.c); a job that ends takes its count and weight out.
 */
#ifndef IOGAUGE_FLOW_H
#define IOGAUGE_FLOW_H

#include <stdint.h>

struct flow {
	unsigned id;
	uint64_t count;  /* requests of its jobs, from 1 as fio's; atomic */
	uint64_t weight; /* weights of its jobs still running; atomic */
};

/* The flows of one group of jobs, made before their threads start. */
struct flow_set {
	struct flow *v;
	unsigned n;
};
struct worker;
/* Each worker of ws[0..n) whose job has --flow gets its flow (w->flow), its weight added. */
void flow_set_build(struct flow_set *fs, struct worker *ws, unsigned n);
void flow_set_free(struct flow_set *fs);

/*
 * Of `want` requests, how many a job of this weight that issued `mine` may
 * issue now, each as fio's check would let it through one after the other,
 * given the flow's count and total weight.
 */
unsigned flow_budget(uint64_t count, uint64_t total_weight, uint64_t mine, unsigned weight,
		     unsigned want);
static inline unsigned flow_room(struct flow *f, uint64_t mine, unsigned weight, unsigned want)
{
	return flow_budget(__atomic_load_n(&f->count, __ATOMIC_RELAXED),
			   __atomic_load_n(&f->weight, __ATOMIC_RELAXED), mine, weight, want);
}
static inline void flow_count(struct flow *f, uint64_t *mine, unsigned n)
{
	__atomic_add_fetch(&f->count, n, __ATOMIC_RELAXED);
	*mine += n;
}
/* A job of the flow ended: its requests and weight no longer hold the others back. */
void flow_leave(struct flow *f, uint64_t mine, unsigned weight);

#endif
