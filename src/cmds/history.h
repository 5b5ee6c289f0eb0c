/* history's OpenMetrics writer (history_om.c), for history.c. */
#ifndef IOGAUGE_CMDS_HISTORY_H
#define IOGAUGE_CMDS_HISTORY_H

#include <stdio.h>
#include "base/common.h"
#include "cmds/store_opts.h"
#include "store/store.h"

/* The newest result of every label (or of o->label) as OpenMetrics text on f: 0, or -1 with e set. */
int history_openmetrics(FILE *f, struct store *st, const struct store_opts *o, struct ig_err *e);

#endif
