/*
 * Several processes running one command together (mpirun): the small
 * interface the runner, the suite executor and main see.  The plain binary
 * links cluster_none.c (one process: every call is a no-op); iogauge-mpi
 * links src/cluster/mpi/ instead, and behaves exactly like the plain binary when it
 * is not started by mpirun.  Nothing outside src/cluster/mpi/ names MPI.
 *
 * Calls marked "collective" are made by every rank at the same point of the
 * run, so the path between two of them must depend only on agreed values
 * (what a collective returned), never on a rank's own state: a signal, an
 * error or a refusal on one rank reaches the others through these calls.
 */
#ifndef IOGAUGE_CLUSTER_H
#define IOGAUGE_CLUSTER_H

#include <stdbool.h>
#include <stdint.h>

struct run_ctx;
struct run_result;
struct ig_err;

/* main: first.  Joins the other ranks when started by mpirun; ranks other than 0 then write nothing. */
void cluster_init(int *argc, char ***argv);
/* main: last.  Every rank ends with the same status (the most serious one); returns it. */
int cluster_exit(int status);

unsigned cluster_rank(void);
unsigned cluster_size(void); /* 1: this process alone */
const char *cluster_host(void);
unsigned cluster_host_ranks(void); /* ranks on this host, this one included */
bool cluster_host_first(void);     /* the lowest rank on this host (alone: true) */

/*
 * Collective.  An error of any rank becomes every rank's: returns the agreed
 * status (a refusal outranks a signal, which outranks an I/O error), and e
 * holds the message of the lowest rank with that status, naming the rank and
 * its host and how many ranks failed.  A stop request (signal) on any rank is
 * set on every rank's c->stop.
 */
int cluster_agree(struct run_ctx *c, struct ig_err *e);
/*
 * Collective.  fn(arg) on every rank, the ranks of one host one after
 * another (so that their probes of a shared device never overlap).
 */
void cluster_host_turns(void (*fn)(void *arg), void *arg);
/* Collective.  Has any rank been asked to stop?  Sets c->stop on all. */
bool cluster_stopping(struct run_ctx *c);

/* ---- the runner's hooks around the measured phase of a stonewall group */

/*
 * Collective: the barrier all ranks pass together before the measured phase
 * (after layouts and, with --ramp_time, after the ramp).  ok false: this rank
 * cannot start.  Returns whether every rank can.
 */
bool cluster_start(struct run_ctx *c, bool ok);

/* What the local workers are doing, for cluster_poll. */
struct cluster_local {
	bool done;       /* every local worker has ended */
	bool failed;     /* one ended with an error */
	bool stonewall;  /* --stonewall-all: the first rank done stops everyone */
};
/*
 * Not collective: while the local workers run, about every 10 ms.  Tells the
 * other ranks when this one fails (or finishes first under --stonewall-all),
 * and sets c->halt when another rank asks everyone to stop.
 */
void cluster_poll(struct run_ctx *c, const struct cluster_local *l);
/* Collective: once the local workers have ended; waits for every rank, still passing stops on. */
void cluster_group_end(struct run_ctx *c, const struct cluster_local *l);

/*
 * Collective, once at the end of a run: rank 0's r becomes the merged result
 * of every rank (histograms and sums added exactly, the slowest rank's time,
 * every host's devices, every rank's own results in r->cluster); the status
 * is agreed on every rank.
 */
void cluster_merge(struct run_ctx *c, struct run_result *r);

#endif
