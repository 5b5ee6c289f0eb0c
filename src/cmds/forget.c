/* `iogauge forget REF...`: results removed from the store, each in one transaction; asks on a terminal. */
#include "base/common.h"
#include "cmds/commands.h"
#include "cmds/help.h"
#include "cmds/store_cli.h"
#include "cmds/store_opts.h"
#include "options/args.h"
#include "options/options.h"
#include "store/store.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct one {
	long long id;
	char line[512];
	bool seen;
};

static int describe(void *arg, const struct store_entry *en)
{
	struct one *o = arg;
	if (en->id != o->id)
		return 0;
	o->seen = true;
	snprintf(o->line, sizeof(o->line), "#%lld %s %s%s%s on %s (%.160s)", en->id, en->measured, en->command,
		 en->label ? " label " : "", en->label ? en->label : "", en->host, *en->targets ? en->targets : "-");
	return 1;
}

static bool ask(const char *what)
{
	char buf[16];
	fprintf(stderr, "iogauge: forget %s? [y/N] ", what);
	fflush(stderr);
	if (!fgets(buf, sizeof(buf), stdin))
		return false;
	return buf[0] == 'y' || buf[0] == 'Y';
}

static int cmd_forget_main(const struct command *cmd, int argc, char **argv)
{
	struct parsed_args pa;
	struct ig_err e = { 0 };
	struct store *st = NULL;
	int rc = args_parse(argc, argv, cmd, &pa, &e);
	if (!rc && pa.help) {
		options_help(stdout, cmd);
		args_free(&pa);
		return 0;
	}
	const struct store_opts *o = store_opts_c(&pa.settings);
	if (!rc && !pa.nwords)
		rc = err_set(&e, EXIT_USAGE, "name the results to forget: iogauge forget ID...");
	if (!rc && !o->yes && !isatty(STDIN_FILENO))
		rc = err_set(&e, EXIT_USAGE, "forget asks first, and stdin is not a terminal: give --yes");
	if (!rc && !(st = cli_store_open(&pa.settings, &e)))
		rc = -1;
	unsigned kept = 0;
	for (unsigned i = 0; !rc && i < pa.nwords; i++) {
		struct one one = { 0 };
		if (store_resolve(st, pa.words[i], &one.id, &e)) {
			rc = -1;
			break;
		}
		char id[32];
		snprintf(id, sizeof(id), "%lld", one.id);
		struct store_filter f = { .id = one.id };
		struct ig_err le = { 0 };
		/* What is about to go, in history's words. */
		store_list(st, &f, describe, &one, &le);
		if (!o->yes && !ask(one.seen ? one.line : id)) {
			kept++;
			continue;
		}
		rc = store_forget(st, one.id, &e);
		if (!rc)
			fprintf(stderr, "iogauge: forgot %s\n", one.seen ? one.line : id);
	}
	if (rc)
		msg_err("%s", e.msg);
	store_close(st);
	args_free(&pa);
	return rc ? e.status : kept ? 1 : 0;
}

const struct command cmd_forget = {
	.name = "forget",
	.usage = "iogauge forget [--yes] ID|LABEL|@last...",
	.summary = "Remove saved results from the store",
	.description =
		"Removes each named result (as show names them) with its figures and targets, one "
		"transaction each. It asks on the terminal first; --yes does not ask (needed when stdin is "
		"not a terminal). Exit status 1 when an answer kept a result.",
	.groups = OG_STORE,
	.main = cmd_forget_main,
};
