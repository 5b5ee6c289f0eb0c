/*
 * A saved suite result back in memory (suite_read.c): the command layer
 * rebuilds a suite's run from the reader's typed suite and jobs, so the
 * suite's own formatter prints its table again (report, compare, the HTML
 * summary box).
 */
#ifndef IOGAUGE_SUITE_READ_H
#define IOGAUGE_SUITE_READ_H

#include <jansson.h>
#include "base/common.h"
#include "model/job.h"
#include "suite/suite.h"

struct suite_saved {
	struct suite_run sr;
	struct suite suite;       /* the command's, with the cases as saved */
	struct suite_case *cases;
	struct job base;
	struct settings s;
};
/* root: a saved result of a suite command.  0, or -1 with e set (status 2). */
int suite_from_json(const json_t *root, struct suite_saved *out, struct ig_err *e);
void suite_saved_free(struct suite_saved *ss);
/*
 * A saved suite result whose cases are not its suite's fixed table (a
 * hand-edited file) is refused when read: 0, or -1 with e set (status 2).
 * Anything else passes.
 */
int suite_saved_check(const char *path, const json_t *root, struct ig_err *e);

#endif
