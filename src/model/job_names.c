/* The words of a job's enumerations (job_names.h). */
#include "model/job_names.h"

#include <stddef.h>

const char *const rw_names[] = { "read", "write", "randread", "randwrite", "rw", "readwrite", "randrw",
				 "trim", "randtrim", "trimwrite", "randtrimwrite", NULL };
const char *const dist_names[] = { "random", "zipf", "pareto", "normal", "zoned", NULL };
const char *const segment_names[] = { "block", "interleaved", NULL };
const char *const rank_results_names[] = { "auto", "full", "brief", "none", NULL };
const char *const fileop_names[] = { "none", "create", "stat", "open", "unlink", "mkdir", "rmdir", NULL };
