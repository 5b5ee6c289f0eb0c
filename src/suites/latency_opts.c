/* latency's own options: its rows, registered with OPTION_ROWS (no core table lists them). */
#include "base/common.h"
#include "options/options.h"
#include "options/option_values.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define J(f) OPT_FIELD(SCOPE_JOB, struct job, f)
#define S(f) OPT_FIELD(SCOPE_SETTINGS, struct settings, f)

static const struct opt_def rows[] = {
	/* latency: ioping's options, one letter each, on the same fields as fio's. */
	{ .name = "c", .owner = "latency", .type = OT_U64, J(number_ios), .arg = "COUNT",
	  .flags = OPT_NO_ECHO, .help = "Stop after COUNT requests (0: run until Ctrl-C)" },
	{ .name = "i", .owner = "latency", .type = OT_TIME, J(thinktime_ns), .unit = "s", .arg = "INTERVAL",
	  .flags = OPT_NO_ECHO,
	  .help = "Pause between requests (bare numbers are seconds; 0: back to back)" },
	{ .name = "s", .owner = "latency", .type = OT_SIZE, J(bs), .min = 1, .max = 1ULL << 30, .arg = "SIZE",
	  .flags = OPT_NO_ECHO, .help = "Request size" },
	{ .name = "S", .owner = "latency", .type = OT_SIZE, J(size), .min = 1, .arg = "SIZE",
	  .flags = OPT_NO_ECHO,
	  .help = "Working set: the region requests fall in (default: a 1 MiB test file in a directory, the whole file or device)" },
	{ .name = "D", .owner = "latency", .type = OT_BOOL, J(direct), .bare = "1",
	  .flags = OPT_NO_ECHO, .help = "O_DIRECT (the default for block devices)" },
	{ .name = "C", .owner = "latency", .type = OT_BOOL, J(invalidate), .bare = "1", .invert = true,
	  .flags = OPT_NO_ECHO,
	  .help = "Cached: keep the page cache (by default each buffered request's pages are dropped before it, and buffered writes are O_DSYNC)" },
	{ .name = "W", .owner = "latency", .type = OT_SPECIAL, J(rw), .bare = "1", .set = set_ioping_rw,
	  .print = print_ioping_rw, .flags = OPT_NO_ECHO,
	  .help = "Write instead of read (the write interlocks apply)" },
	{ .name = "L", .owner = "latency", .type = OT_SPECIAL, J(rw), .bare = "1", .set = set_ioping_rw,
	  .print = print_ioping_rw, .flags = OPT_NO_ECHO,
	  .help = "Sequential requests instead of random ones" },
	{ .name = "w", .owner = "latency", .type = OT_SPECIAL, J(runtime_ns), .set = set_deadline, .print = print_deadline,
	  .arg = "DEADLINE", .flags = OPT_NO_ECHO,
	  .help = "Stop after this long (bare numbers are seconds)" },
	{ .name = "q", .owner = "latency", .type = OT_BOOL, S(quiet), .bare = "1",
	  .flags = OPT_NO_ECHO, .help = "No line per request: only the statistics" },
	{ .name = NULL },
};
OPTION_ROWS(latency_rows, .after = "terse-version", .order = 10, .rows = rows);
