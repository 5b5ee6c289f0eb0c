/*
 * A saved result's summary as its command prints it, for the HTML report's
 * summary box.  The command layer owns it: it knows the command table and
 * the suites, which src/report must not (report gets this function as a
 * callback: html_write, outputs_open).
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "cmds/commands.h"
#include "suite/suite.h"
#include "report/report.h"

#include <stdio.h>

int command_saved_summary(FILE *f, const json_t *root, struct ig_err *e)
{
	const json_t *me = json_object_get(root, RK_IOGAUGE);
	const char *name = json_string_value(json_object_get(me, RK_COMMAND));
	const struct command *c = name ? command_find(name) : NULL;
	/* The command's own saved text (dd's lines, ioping's statistics), then a suite's table. */
	if (c && c->print_saved)
		c->print_saved(f, root);
	if (json_object_get(root, RK_SUITE)) {
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
