/*
 * bonnie++'s table of a CSV line (bonnie.c): a bonnie++ result imported
 * into the store is shown again as bonnie++ printed it (cmds/show.c).
 */
#ifndef IOGAUGE_SUITES_BONNIE_H
#define IOGAUGE_SUITES_BONNIE_H

#include <stdio.h>
#include "base/common.h"

/* bonnie++'s CSV line (formats 1.97 and 1.98): 50 fields. */
#define BONNIE_CSV_FIELDS 50
/*
 * bonnie++'s text table of line, each cell as bonnie++ formats it from the
 * line's values (K/sec, +++++, %CP, its latency as written), then the line
 * itself.  0, or -1 with e set (status 2: not such a line).
 */
int bonnie_csv_table(FILE *f, const char *line, struct ig_err *e);

#endif
