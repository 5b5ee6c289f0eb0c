/* A job's CPUs and memory policy on this machine (cpus_apply.c). */
#ifndef IOGAUGE_CPUS_APPLY_H
#define IOGAUGE_CPUS_APPLY_H

#include <stddef.h>
#include "model/cpus.h"

/* The CPUs and nodes c names exist on this machine: 0, or -1 with one line in err.. */
int cpus_check(const struct job_cpus *c, char *err, size_t n);
/*
 * Place the calling thread as c asks (sched_setaffinity, set_mempolicy);
 * index: its number among the run's threads from 0 (cpus_allowed_policy=split
 * gives it the index-th CPU of the set, round robin).  0 or -errno.
 */
int cpus_apply(const struct job_cpus *c, unsigned index);

#endif
