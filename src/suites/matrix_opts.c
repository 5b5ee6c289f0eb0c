/* matrix's own options: its rows, registered with OPTION_ROWS (no core table lists them). */
#include "base/common.h"
#include "options/options.h"
#include "options/option_values.h"
#include "suites/matrix_opts.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define J(f) OPT_FIELD(SCOPE_JOB, struct job, f)
#define S(f) OPT_FIELD(SCOPE_SETTINGS, struct settings, f)
#define OWN(f) OPT_FIELD(SCOPE_OWN, struct matrix_opts, f)

static const char *const matrix_runs[] = { "simple", "normal", "oltp", "dss", "advanced", NULL };
static const char *const matrix_types[] = { "rand", "seq", NULL };
static const char *const matrix_kinds[] = { "basic", "detailed", "point", "col", "row", "max", NULL };

static const struct opt_def rows[] = {
	/* ---- matrix (src/suites/matrix.c): Oracle Orion's options ('-' and '_' alike: -num_disks) */
	{ .name = "run", .owner = "matrix", .type = OT_ENUM, OWN(run), .def = "simple", .values = matrix_runs,
	  .help = "Orion's run level: simple (small I/O alone at rising load, then large alone), normal (every combination), oltp (small at rising load), dss (large at rising load), advanced (--matrix)" },
	{ .name = "testname", .owner = "matrix", .type = OT_STR, OWN(testname), .def = "orion", .arg = "NAME",
	  .help = "Prefix of the result files NAME_summary.txt, NAME_iops.csv, NAME_mbps.csv, NAME_lat.csv (each a regular file or a new path: a device, FIFO or directory is refused)" },
	{ .name = "num-disks", .owner = "matrix", .type = OT_UINT, OWN(num_disks), .def = "1", .min = 1, .max = 256,
	  .arg = "N",
	  .help = "Disks (spindles) behind the target: the outstanding-I/O levels scale with it" },
	{ .name = "size-small", .owner = "matrix", .type = OT_SPECIAL, OWN(size_small), .def = "8", .set = set_kib,
	  .print = print_kib, .arg = "KIB",
	  .help = "Size of the small (random) I/Os, KiB when bare" },
	{ .name = "size-large", .owner = "matrix", .type = OT_SPECIAL, OWN(size_large), .def = "1024", .set = set_kib,
	  .print = print_kib, .arg = "KIB", .help = "Size of the large I/Os, KiB when bare" },
	{ .name = "type", .owner = "matrix", .type = OT_ENUM, OWN(type), .def = "rand", .values = matrix_types,
	  .help = "Large I/Os: random, or sequential streams (a level is the number of streams)" },
	{ .name = "write", .owner = "matrix", .type = OT_UINT, OWN(write_pct), .def = "0", .max = 100, .arg = "PCT",
	  .help = "Percentage of writes among small and large I/Os (a device is written only under the interlock's rules)" },
	{ .name = "duration", .owner = "matrix", .type = OT_TIME, J(runtime_ns), .unit = "s", .arg = "TIME",
	  .flags = OPT_NO_ECHO,
	  .help = "Time of each data point (Orion's name for --runtime; bare numbers are seconds)" },
	{ .name = "matrix", .owner = "matrix", .type = OT_ENUM, OWN(matrix), .def = "basic", .values = matrix_kinds,
	  .help = "With --run=advanced: basic (the first row and column), detailed (every point), point (--num-small, --num-large), col (large varies, --num-small small), row (small varies, --num-large large), max (every point up to --num-small, --num-large)" },
	{ .name = "num-small", .owner = "matrix", .type = OT_UINT, OWN(num_small), .def = "0", .max = 4096, .arg = "N",
	  .help = "Outstanding small I/Os for --matrix=point, col, max" },
	{ .name = "num-large", .owner = "matrix", .type = OT_UINT, OWN(num_large), .def = "0", .max = 4096, .arg = "N",
	  .help = "Outstanding large I/Os (sequential: streams) for --matrix=point, row, max" },
	{ .name = "num-streamio", .owner = "matrix", .type = OT_UINT, OWN(num_streamio), .def = "4", .min = 1,
	  .max = 4096, .arg = "N",
	  .help = "Requests in flight per sequential stream (--type=seq)" },
	{ .name = NULL },
};
OPTION_ROWS(matrix_rows, .after = "warn-unsupported", .order = 20, .rows = rows);
