/* The store commands' own rows (store_opts.h), registered with OPTION_ROWS (no core table lists them). */
#include "base/common.h"
#include "cmds/store_opts.h"
#include "options/options.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define OWN(f) OPT_FIELD(SCOPE_OWN, struct store_opts, f)

static int set_pct(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	char *end;
	double v = strtod(val, &end);
	if (end == val || (*end && !(end[0] == '%' && !end[1])) || !(v >= 0 && v < 100)) {
		snprintf(err, n, "--%s: '%s' is not a percentage from 0 to 100 (2.5, 10%%)", o->name, val);
		return -1;
	}
	*(double *)(void *)((char *)obj + o->off) = v;
	return 0;
}

static void print_pct(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	snprintf(buf, len, "%g", *(const double *)(const void *)((const char *)obj + o->off));
}

static const struct opt_def history_rows[] = {
	{ .name = "label", .owner = "history", .type = OT_STR, OWN(label), .arg = "LABEL",
	  .help = "Only the results saved under LABEL (--save=LABEL)" },
	{ .name = "host", .owner = "history", .type = OT_STR, OWN(host), .arg = "HOST",
	  .help = "Only the results measured on HOST (its host name)" },
	{ .name = "target", .owner = "history", .type = OT_STR, OWN(target), .arg = "PATH",
	  .help = "Only the results with PATH among their targets (as it was named)" },
	{ .name = "command", .owner = "history", .type = OT_STR, OWN(command), .arg = "COMMAND",
	  .help = "Only the results of COMMAND (quick, run, fio, ...)" },
	{ .name = "since", .owner = "history", .type = OT_STR, OWN(since), .arg = "DATE",
	  .help = "Only the results measured at or after DATE (UTC: 2025-01-31, 2025-01-31T08:00, or 7d, 12h: that long ago)" },
	{ .name = "until", .owner = "history", .type = OT_STR, OWN(until), .arg = "DATE",
	  .help = "Only the results measured before DATE (UTC; a day alone: until its end)" },
	{ .name = "limit", .owner = "history", .type = OT_UINT, OWN(limit), .def = "0", .min = 0, .max = 1000000,
	  .arg = "N", .help = "The newest N results only (0: all)" },
	{ .name = NULL },
};
OPTION_ROWS(history_block, .after = "db", .order = 10, .rows = history_rows);

static const struct opt_def forget_rows[] = {
	{ .name = "yes", .owner = "forget", .type = OT_BOOL, OWN(yes), .def = "0", .bare = "1",
	  .help = "Remove without asking (needed when stdin is not a terminal)" },
	{ .name = NULL },
};
OPTION_ROWS(forget_block, .after = "db", .order = 20, .rows = forget_rows);

static const struct opt_def check_rows[] = {
	{ .name = "max-drop", .owner = "check", .type = OT_SPECIAL, OWN(max_drop), .def = "0", .set = set_pct,
	  .print = print_pct, .arg = "PCT",
	  .help = "A figure beyond the earlier runs' spread fails only when it is also more than PCT percent worse than their median (a floor for noisy figures)" },
	{ .name = "runs", .owner = "check", .type = OT_UINT, OWN(runs), .def = "10", .min = 2, .max = 1000, .arg = "N",
	  .help = "Judge the newest result against the N results of the label before it" },
	{ .name = NULL },
};
OPTION_ROWS(check_block, .after = "db", .order = 30, .rows = check_rows);

static const struct opt_def import_rows[] = {
	{ .name = "label", .owner = "import", .type = OT_STR, OWN(label), .arg = "LABEL",
	  .help = "Store the imported results under LABEL" },
	{ .name = NULL },
};
OPTION_ROWS(import_block, .after = "db", .order = 40, .rows = import_rows);

static const struct opt_def report_rows[] = {
	{ .name = "trend", .owner = "report", .type = OT_STR, OWN(trend), .arg = "LABEL",
	  .help = "Draw every figure of LABEL's saved results over time, with the spread of the runs before each as a band (the band `iogauge check` judges against)" },
	{ .name = "runs", .owner = "report", .type = OT_UINT, OWN(runs), .def = "10", .min = 2, .max = 1000, .arg = "N",
	  .help = "With --trend: the band of a point is the spread of the N results before it" },
	{ .name = NULL },
};
OPTION_ROWS(report_block, .after = "db", .order = 50, .rows = report_rows);
