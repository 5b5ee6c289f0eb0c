/* The start gate: workers counted in, then released (or called off) by the runner together. */
#include "worker.h"
#include "worker_int.h"

#include <pthread.h>

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
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cv, NULL);
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
