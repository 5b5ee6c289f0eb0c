/* The start gate: workers counted in, then released (or called off) by the runner together. */
#include "base/common.h"
#include "run/worker.h"
#include "run/worker_int.h"

#include <pthread.h>
#include <time.h>

int gate_wait_go(struct start_gate *g)
{
	pthread_mutex_lock(&g->lock);
	while (!g->go)
		pthread_cond_wait(&g->cv, &g->lock);
	int go = g->go;
	pthread_mutex_unlock(&g->lock);
	return go;
}

void gate_init(struct start_gate *g)
{
	pthread_condattr_t ca;
	pthread_mutex_init(&g->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* timed waits immune to clock steps */
	pthread_cond_init(&g->cv, &ca);
	pthread_condattr_destroy(&ca);
	g->finished = 0;
	g->ready = 0;
	g->go = 0;
	g->sync_ramp = false;
	g->measure = 0;
}

void gate_destroy(struct start_gate *g)
{
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->lock);
}

void gate_wait_ready(struct start_gate *g, unsigned n)
{
	pthread_mutex_lock(&g->lock);
	while (g->ready < n)
		pthread_cond_wait(&g->cv, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void gate_open(struct start_gate *g, int go)
{
	pthread_mutex_lock(&g->lock);
	g->go = go;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->lock);
}

void gate_finished(struct start_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->finished++;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->lock);
}

unsigned gate_wait_finished(struct start_gate *g, unsigned seen, uint64_t wait_ns)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t until = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec + wait_ns;
	ts.tv_sec = (time_t)(until / NSEC_PER_SEC);
	ts.tv_nsec = (long)(until % NSEC_PER_SEC);
	pthread_mutex_lock(&g->lock);
	while (g->finished <= seen)
		if (pthread_cond_timedwait(&g->cv, &g->lock, &ts))
			break;
	unsigned n = g->finished;
	pthread_mutex_unlock(&g->lock);
	return n;
}

void gate_measure(struct start_gate *g)
{
	__atomic_store_n(&g->measure, 1, __ATOMIC_RELEASE);
}

/* A worker's arrival: counted, then wait for the runner's word. */
int gate_pass(struct start_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->ready++;
	pthread_cond_broadcast(&g->cv);
	while (!g->go)
		pthread_cond_wait(&g->cv, &g->lock);
	int go = g->go;
	pthread_mutex_unlock(&g->lock);
	return go;
}
