/*
 * fio's per-command I/O priorities (cmdprio_percentage, cmdprio_class,
 * cmdprio, cmdprio_bssplit of the io_uring and libaio engines): which
 * requests carry an ioprio (sqe->ioprio, IOCB_FLAG_IOPRIO + aio_reqprio).
 * The options (option_cmdprio.c) fill struct job_cmdprio; each worker
 * thread gets a struct cmdprio (cmdprio.c) drawing fio's own stream
 * (FIO_RAND_PRIO_CMDS of the job's seed), so the same requests as fio's get
 * the priority; its per-priority latencies are kept per thread
 * (thread_stats.prio) and merged after the run.
 */
#ifndef IOGAUGE_CMDPRIO_H
#define IOGAUGE_CMDPRIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/ops.h"
#include "model/fiorand.h"

#include "model/cmdprio_opts.h"

/* ioprio value as fio's ioprio_value(): class 0 is best-effort. */
static inline uint16_t cmdprio_value(unsigned cls, unsigned level)
{
	return (uint16_t)((cls ? cls : 2) << 13 | level);
}

struct job;
struct io_u;
struct opt_def;


/* Per thread: the choice of each request's priority (fio's tables and its random stream). */
struct cmdprio_entry {
	uint16_t prio;
	uint8_t idx;  /* index of prio in the direction's statistics */
	unsigned pct; /* bssplit: this entry's percentage */
};
struct cmdprio_bs {
	uint64_t bs;
	unsigned tot;
	unsigned n;
	struct cmdprio_entry e[CMDPRIO_SPLIT_MAX];
};
struct cmdprio {
	bool bssplit;                 /* else percentage mode */
	struct cmdprio_entry perc[DDIR_NR];
	struct cmdprio_bs *bsp[DDIR_NR];
	unsigned nbs[DDIR_NR];
	struct fio_rand r;            /* fio's prio_state: 32-bit Tausworthe */
	/* The priorities each direction keeps statistics for; [0] is the job's default. */
	uint16_t prios[DDIR_NR][CMDPRIO_PRIOS_MAX];
	unsigned nprios[DDIR_NR];
};

/* Does the job use cmdprio (a percentage or a split)? */
bool job_cmdprio_on(const struct job *j);
/* The job's own priority (prio, prioclass) as fio's ts->ioprio: 0 when neither is given. */
uint16_t job_default_ioprio(const struct job *j);
/* A thread's state (NULL: cmdprio off); seed: the thread's own when randrepeat is off. */
struct cmdprio *cmdprio_new(const struct job *j, unsigned thread_number, uint64_t seed);
void cmdprio_free(struct cmdprio *c);

/*
 * Draw the request's priority as fio's fio_cmdprio_set_ioprio does: sets
 * u->ioprio and u->prio_idx and returns true when it gets one (the engine
 * then passes u->ioprio to the kernel); false leaves the default.
 */
bool cmdprio_pick(struct cmdprio *c, struct io_u *u);

#endif
