/*
 * The suite executor's own helpers, shared by its files (suite_exec.c: the
 * steps; suite_target.c: resolving targets; suite_passes.c: a target's run);
 * not for others.
 */
#ifndef IOGAUGE_SUITE_EXEC_INT_H
#define IOGAUGE_SUITE_EXEC_INT_H

#include <stdbool.h>
#include "suite/suite.h"
#include "suite/suite_exec.h"

/* Does any case write (a precondition counts), read?  Devices need the interlock, a layout before reads. */
bool suite_writes(const struct suite_exec *x);
bool suite_reads(const struct suite_exec *x);
/* Decide the file (or device) and its size; a refusal is kept in the target, not fatal. */
void suite_resolve_target(struct suite_exec *x, struct suite_target *t, const char *path);
/* A target the suite makes (setup): 0 when made (to be torn down), -1 when refused or nothing was made. */
int suite_made_target(struct suite_exec *x, struct suite_target *t);
/* A target's layout or precondition, then its passes of every case: 0, or the status that ends it. */
int suite_run_target(struct suite_exec *x, struct suite_target *t);

#endif
