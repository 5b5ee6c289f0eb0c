/* --help, the man page and docs/options.md, all generated from the option and command tables. */
#include "common.h"
#include "commands.h"
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void option_synopsis(const struct opt_def *o, char *buf, size_t len)
{
	char vals[256] = "";
	if (o->type == OT_ENUM) {
		size_t k = 0;
		for (unsigned i = 0; o->values[i] && k < sizeof(vals); i++)
			k += (size_t)snprintf(vals + k, sizeof(vals) - k, "%s%s", i ? "|" : "", o->values[i]);
	} else if (o->list_values) {
		o->list_values(vals, sizeof(vals));
	} else if (o->arg) {
		snprintf(vals, sizeof(vals), "%s", o->arg);
	}
	if (o->type == OT_BOOL)
		snprintf(buf, len, "--%s[=0|1]", o->name);
	else
		snprintf(buf, len, "--%s=%s", o->name, vals);
}

/* A command's default for an option as the user would type it; "" when there is none to show. */
static void cmd_default(const struct command *c, const struct opt_def *o, char *buf, size_t len)
{
	struct job *j = xcalloc(1, sizeof(*j));
	struct settings *s = xcalloc(1, sizeof(*s));
	struct ig_err e = { 0 };
	options_defaults(j, s);
	if (c->defaults && args_apply_string(c->defaults, OG_ALL, j, s, &e)) {
		msg_err("internal: defaults of %s: %s", c->name, e.msg);
		abort();
	}
	option_print(o, j, s, buf, len);
	/* Shown only where it is a value the option takes: "--size (default: 0)" would mislead. */
	char err[256];
	if (o->flags & OPT_NO_ECHO || (o->type == OT_BOOL && !strcmp(buf, "0")) ||
	    option_apply(o, j, s, buf, err, sizeof(err)))
		buf[0] = 0;
	free(j);
	free(s);
}

void options_help(FILE *f, const struct command *c)
{
	fprintf(f, "Usage: %s\n\n%s.\n%s\n\nOptions:\n", c->usage, c->summary, c->description);
	for (const struct opt_def *o = options; o->name; o++) {
		if (!(o->group & c->groups))
			continue;
		char syn[300], def[512];
		option_synopsis(o, syn, sizeof(syn));
		cmd_default(c, o, def, sizeof(def));
		if (strlen(syn) > 34)
			fprintf(f, "  %s\n  %-34s %s", syn, "", o->help);
		else
			fprintf(f, "  %-34s %s", syn, o->help);
		if (def[0])
			fprintf(f, " (default: %s)", def);
		fprintf(f, "\n");
	}
	fprintf(f, "\nSizes take k, m, g, t (KiB, KB: 1024 as in fio); times take ns, us, ms, s, m, h.\n"
		   "Exit status: 0 done, 1 an I/O error or disk full (partial results are printed), "
		   "2 a bad option or a refused target, 128+N after signal N.\n");
}

/* "quick, mix, run" and the defaults each gives: "1g (quick), 2g (mix)". */
static void per_command(const struct opt_def *o, char *cmds, size_t clen, char *defs, size_t dlen)
{
	char first[512] = "", d[512];
	bool differ = false, any = false;
	size_t k = 0;
	cmds[0] = 0;
	for (unsigned i = 0; commands[i]; i++) {
		if (!(o->group & commands[i]->groups))
			continue;
		k += (size_t)snprintf(cmds + k, clen > k ? clen - k : 0, "%s%s", k ? ", " : "", commands[i]->name);
		cmd_default(commands[i], o, d, sizeof(d));
		if (!any)
			snprintf(first, sizeof(first), "%s", d);
		differ |= any && strcmp(first, d);
		any = true;
	}
	if (!differ) {
		snprintf(defs, dlen, "%s", first);
		return;
	}
	k = 0;
	defs[0] = 0;
	for (unsigned i = 0; commands[i]; i++) {
		if (!(o->group & commands[i]->groups))
			continue;
		cmd_default(commands[i], o, d, sizeof(d));
		k += (size_t)snprintf(defs + k, dlen > k ? dlen - k : 0, "%s%s (%s)", k ? ", " : "",
				      d[0] ? d : "none", commands[i]->name);
	}
}

/* roff needs '-' and '\' escaped. */
static void roff(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '-' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void options_man(FILE *f)
{
	fprintf(f, ".TH IOGAUGE 1 \"\" \"iogauge %s\" \"User Commands\"\n", IOGAUGE_VERSION);
	fprintf(f, ".SH NAME\niogauge \\- an honest storage benchmark\n.SH SYNOPSIS\n");
	for (unsigned i = 0; commands[i]; i++) {
		fprintf(f, ".B ");
		roff(f, commands[i]->usage);
		fprintf(f, "\n.br\n");
	}
	fprintf(f, ".SH DESCRIPTION\niogauge measures files and block devices and says what it measured: "
		   "O_DIRECT by default in its suites, real random data laid out before reads, the page "
		   "cache and device counters reported beside the figures. It never writes to a device that "
		   "carries data without \\fB\\-\\-allow\\-destroy\\fR, nor into a file it did not create "
		   "without \\fB\\-\\-allow\\-overwrite\\fR.\n.SH COMMANDS\n");
	for (unsigned i = 0; commands[i]; i++) {
		fprintf(f, ".TP\n.B %s\n", commands[i]->name);
		roff(f, commands[i]->summary);
		fprintf(f, ". ");
		roff(f, commands[i]->description);
		fprintf(f, "\n");
	}
	fprintf(f, ".SH OPTIONS\n");
	for (const struct opt_def *o = options; o->name; o++) {
		char syn[300], cmds[256], defs[1024];
		option_synopsis(o, syn, sizeof(syn));
		per_command(o, cmds, sizeof(cmds), defs, sizeof(defs));
		fprintf(f, ".TP\n.B ");
		roff(f, syn);
		fprintf(f, "\n");
		roff(f, o->help);
		if (defs[0]) {
			fprintf(f, " (default: ");
			roff(f, defs);
			fprintf(f, ")");
		}
		fprintf(f, ". Commands: %s.\n", cmds);
	}
	fprintf(f, ".SH EXIT STATUS\n0 done; 1 an I/O error or a full disk (partial results are "
		   "printed, test files removed); 2 a bad option or a refused target; 128+N after "
		   "signal N (results so far are printed).\n");
	fprintf(f, ".SH SEE ALSO\n.BR fio (1),\n.BR dd (1),\n.BR hdparm (8),\n.BR ioping (1)\n");
}

void options_markdown(FILE *f)
{
	fprintf(f, "# iogauge options\n\nGenerated by `iogauge --help-markdown` from the option and "
		   "command tables (src/options.c, src/commands.c); do not edit by hand.\n\n## Commands\n\n");
	for (unsigned i = 0; commands[i]; i++)
		fprintf(f, "- `%s`: %s. %s\n", commands[i]->usage, commands[i]->summary,
			commands[i]->description);
	fprintf(f, "\n## Options\n\n| option | default | commands | meaning |\n| --- | --- | --- | --- |\n");
	for (const struct opt_def *o = options; o->name; o++) {
		char syn[300], cmds[256], defs[1024];
		option_synopsis(o, syn, sizeof(syn));
		per_command(o, cmds, sizeof(cmds), defs, sizeof(defs));
		fprintf(f, "| `");
		for (const char *p = syn; *p; p++)
			fprintf(f, *p == '|' ? "\\|" : "%c", *p);
		fprintf(f, "` | %s | %s | %s%s |\n", defs, cmds, o->help,
			o->flags & OPT_CLI_ONLY ? " (refused in job files)" : "");
	}
	fprintf(f, "\nSizes take k, m, g, t, p suffixes; k, KiB and KB all mean 1024, as in fio's default. "
		   "Times take ns, us, ms, s, m, h; a bare number is in the unit the option names.\n");
}
