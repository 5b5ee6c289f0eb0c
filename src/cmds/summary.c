/*
 * A saved result's summary as its command prints it, for the HTML report's
 * summary box.  The command layer owns it: it knows the command table and
 * the suites, which src/report must not (report gets this function as a
 * callback: html_write, outputs_open).
 */
#include "base/common.h"
#include "cmds/commands.h"
#include "cmds/suite_read.h"
#include "report/report.h"
#include "report/result_read.h"

#include <stdio.h>

int command_saved_summary(FILE *f, const json_t *root, struct ig_err *e)
{
	struct result_head h;
	result_head(root, &h);
	const struct command *c = *h.command ? command_find(h.command) : NULL;
	/* The command's own saved text (dd's lines, ioping's statistics), then a suite's table. */
	if (c && c->print_saved)
		c->print_saved(f, root);
	if (h.suite) {
		struct suite_saved ss;
		int rc = suite_from_json(root, &ss, e);
		if (!rc)
			ss.suite.print(f, &ss.sr);
		suite_saved_free(&ss);
		if (rc)
			return -1;
	}
	return 0;
}
