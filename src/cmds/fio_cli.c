/*
 * fio's program options (fio 3.33): the words of its command line that are
 * not job options, read out of argv (the rest left for args_parse), and
 * their help: --help, --cmdhelp, --enghelp, docs/fio.md's table.
 */
#include "base/common.h"
#include "cmds/commands.h"
#include "cmds/fio_int.h"
#include "cmds/help.h"
#include "options/options.h"
#include "base/units.h"
#include "model/engine.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The fio this command follows: what `fio --version` prints. */
#define FIO_FOLLOWED "fio-3.33"

enum cli_id {
	C_OUTPUT, C_BW_LOG, C_MINIMAL, C_FORMAT, C_APPEND_TERSE, C_VERSION, C_HELP,
	C_CMDHELP, C_ENGHELP, C_SHOWCMD, C_READONLY, C_ETA, C_ETA_INTERVAL, C_ETA_NEWLINE, C_DEBUG,
	C_PARSE_ONLY, C_SECTION, C_ALLOC_SIZE, C_WARNINGS_FATAL, C_MAX_JOBS, C_TERSE_VERSION,
	C_AUX_PATH, C_REFUSED,
};
enum { ARG_NONE, ARG_REQUIRED, ARG_OPTIONAL };

/* fio's program options: the words of fio's command line that are not job options. */
struct cli_opt {
	const char *name;
	char letter;  /* fio's one-letter form ("-v"); 0: none */
	int arg;
	enum cli_id id;
	const char *help; /* taken: what it does here; refused (C_REFUSED): why */
};

static const struct cli_opt cli_opts[] = {
	{ "output", 'o', ARG_REQUIRED, C_OUTPUT, "Write the results to FILE instead of stdout" },
	{ "output-format", 'F', ARG_REQUIRED, C_FORMAT,
	  "normal (default: the text report), json (fio's JSON), json+ (with latency bins), terse (fio's version 3); a comma list prints terse, then JSON, then text" },
	{ "minimal", 'm', ARG_NONE, C_MINIMAL, "The same as --output-format=terse" },
	{ "append-terse", 'f', ARG_OPTIONAL, C_APPEND_TERSE, "Also print the terse line" },
	{ "terse-version", 'V', ARG_REQUIRED, C_TERSE_VERSION, "Terse format version: 3 (the only one iogauge writes)" },
	{ "bandwidth-log", 'b', ARG_NONE, C_BW_LOG,
	  "Write agg-read_bw.log, agg-write_bw.log and agg-trim_bw.log: every job's bandwidth summed, a line per second (KiB/s)" },
	{ "parse-only", 'P', ARG_NONE, C_PARSE_ONLY, "Read and check the options and job files; run nothing" },
	{ "showcmd", 's', ARG_NONE, C_SHOWCMD, "Print each job file as one fio command line; run nothing" },
	{ "section", 'x', ARG_REQUIRED, C_SECTION, "Run only the job (section) NAME; repeatable" },
	{ "readonly", 'r', ARG_NONE, C_READONLY,
	  "Refuse any job that writes, and never create, extend or lay out a file" },
	{ "eta", 'e', ARG_REQUIRED, C_ETA, "The progress line on stdout: auto (when stdout is a terminal), always, never" },
	{ "eta-interval", 'O', ARG_REQUIRED, C_ETA_INTERVAL, "Redraw the progress line this often (default 1s, at least 250ms)" },
	{ "eta-newline", 'E', ARG_REQUIRED, C_ETA_NEWLINE, "Start a new progress line every TIME" },
	{ "max-jobs", 'j', ARG_REQUIRED, C_MAX_JOBS, "Accepted and ignored, as fio 3.33 ignores it" },
	{ "alloc-size", 'a', ARG_REQUIRED, C_ALLOC_SIZE, "Accepted, no effect: iogauge has no shared memory pool to size" },
	{ "warnings-fatal", 'w', ARG_NONE, C_WARNINGS_FATAL, "A warning while reading the options is an error" },
	{ "debug", 'd', ARG_REQUIRED, C_DEBUG, "fio's debug categories are checked; iogauge writes no debug log" },
	{ "aux-path", 'K', ARG_REQUIRED, C_AUX_PATH, "Directory for state files (iogauge writes none)" },
	{ "version", 'v', ARG_NONE, C_VERSION, "Print the fio version this command follows (" FIO_FOLLOWED ")" },
	{ "help", 'h', ARG_NONE, C_HELP, "This list" },
	{ "cmdhelp", 'c', ARG_OPTIONAL, C_CMDHELP, "Help on a job option (all: every option)" },
	{ "enghelp", 'i', ARG_OPTIONAL, C_ENGHELP, "The I/O engines, or the options of one" },
	{ "latency-log", 'l', ARG_REQUIRED, C_REFUSED, "fio 3.33 refuses it too: use write_lat_log in the job" },
	{ "status-interval", 'L', ARG_REQUIRED, C_REFUSED,
	  "not supported: iogauge reports once, at the end of the run (no interim status)" },
	{ "server", 'S', ARG_OPTIONAL, C_REFUSED, "not supported: iogauge has no client/server mode (iogauge-mpi runs on many hosts)" },
	{ "daemonize", 'D', ARG_REQUIRED, C_REFUSED, "not supported: iogauge has no server mode" },
	{ "client", 'C', ARG_REQUIRED, C_REFUSED, "not supported: iogauge has no client/server mode (iogauge-mpi runs on many hosts)" },
	{ "remote-config", 'R', ARG_REQUIRED, C_REFUSED, "not supported: iogauge has no client/server mode" },
	{ "trigger-file", 'W', ARG_REQUIRED, C_REFUSED, "not supported: iogauge has no triggers" },
	{ "trigger-timeout", 'B', ARG_REQUIRED, C_REFUSED, "not supported: iogauge has no triggers" },
	{ "trigger", 'H', ARG_REQUIRED, C_REFUSED, "not supported: iogauge has no triggers" },
	{ "trigger-remote", 'J', ARG_REQUIRED, C_REFUSED, "not supported: iogauge has no triggers" },
	{ "profile", 'p', ARG_REQUIRED, C_REFUSED, "not supported: iogauge has none of fio's profiles" },
	{ "idle-prof", 'I', ARG_REQUIRED, C_REFUSED, "not supported: iogauge reports the jobs' own CPU use" },
	{ "inflate-log", 'X', ARG_REQUIRED, C_REFUSED, "not supported: iogauge writes no compressed logs" },
	{ "cpuclock-test", 'T', ARG_NONE, C_REFUSED, "not supported: clocksource=cpu checks and calibrates the counter itself" },
	{ "crctest", 'G', ARG_OPTIONAL, C_REFUSED, "not supported: not a storage test" },
	{ "memcpytest", 'M', ARG_OPTIONAL, C_REFUSED, "not supported: not a storage test" },
	{ "merge-blktrace-only", 'A', ARG_NONE, C_REFUSED, "not supported: iogauge replays one blktrace trace a job (read_iolog), merges none" },
	{ NULL, 0, 0, 0, NULL },
};

/* fio's --debug categories (fio 3.33), checked so a typo is named as fio names it. */
static const char *const debug_names[] = {
	"process", "file", "io", "mem", "blktrace", "verify", "random", "parse", "diskutil", "job",
	"mutex", "profile", "time", "net", "rate", "compress", "steadystate", "helperthread", "zbd",
	"all", "?", "help", NULL,
};

void fio_cli_free(struct fio_cli *cli)
{
	for (unsigned i = 0; i < cli->nowned; i++)
		free(cli->owned[i]);
	free(cli->owned);
	free(cli->rest);
	free(cli->sections);
}

const char *fio_prog = "iogauge fio";

/* An error of fio's command line: one line, status 2. */
int fio_usage_err(const char *fmt, ...)
{
	char buf[ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	msg_err("%s", buf);
	return EXIT_USAGE;
}

static bool is_job_option(const struct command *cmd, const char *name, size_t len)
{
	const struct opt_def *o = option_find_cmd(name, len, cmd);
	return (o && option_takes(o, cmd)) || fio_name_find(name, len);
}

/*
 * fio's program option a word names: exactly, as a prefix only it takes (as
 * getopt_long_only allows: --vers), or as fio's one letter ("-v", "-ofile").
 * *letter_val: the value glued to a one-letter form.
 */
static const struct cli_opt *cli_find(const struct command *cmd, const char *word, const char *name,
				      size_t len, const char **letter_val)
{
	const struct cli_opt *hit = NULL;
	unsigned n = 0;
	*letter_val = NULL;
	for (const struct cli_opt *c = cli_opts; c->name; c++)
		if (strlen(c->name) == len && !strncmp(c->name, name, len))
			return c;
	if (is_job_option(cmd, name, len))
		return NULL;
	for (const struct cli_opt *c = cli_opts; c->name; c++)
		if (len && !strncmp(c->name, name, len)) {
			hit = c;
			n++;
		}
	bool job_prefix = false;
	for (const struct fio_name *f = fio_names; f->name && !job_prefix; f++)
		job_prefix = !strncmp(f->name, name, len);
	if (n == 1 && !job_prefix && len > 1)
		return hit;
	/* One dash and a letter: fio's short option, its value glued on or the next word. */
	if (word[0] == '-' && word[1] != '-' && word[1])
		for (const struct cli_opt *c = cli_opts; c->name; c++)
			if (c->letter == word[1] && (!word[2] || c->arg != ARG_NONE)) {
				*letter_val = word[2] ? word + 2 : NULL;
				return c;
			}
	return NULL;
}

/* fio's --output-format list: normal, json, json+, terse. */
static int parse_formats(const char *val, unsigned *out)
{
	static const struct {
		const char *name;
		int fmt;
	} names[] = { { "normal", OUT_NORMAL }, { "json", OUT_FIO_JSON }, { "json+", OUT_FIO_JSONPLUS },
		      { "terse", OUT_TERSE } };
	unsigned mask = 0;
	for (const char *p = val;;) {
		size_t len = strcspn(p, ",");
		bool ok = false;
		for (size_t i = 0; i < ARRAY_SIZE(names); i++)
			if (strlen(names[i].name) == len && !strncmp(names[i].name, p, len)) {
				mask |= 1u << names[i].fmt;
				ok = true;
			}
		if (!ok)
			return fio_usage_err("--output-format: '%s' is not allowed (allowed: normal, json, json+, terse, or a comma list of them)",
					 val);
		if (!p[len])
			break;
		p += len + 1;
	}
	/* json+ is fio's JSON with the latency bins: one JSON document, as fio prints. */
	if (mask & (1u << OUT_FIO_JSONPLUS))
		mask &= ~(1u << OUT_FIO_JSON);
	*out = mask;
	return 0;
}

static int parse_debug(const char *val)
{
	char *copy = xstrdup(val), *save = NULL;
	int rc = 0;
	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(t, ':'); /* fio's "io:JOBNUMBER" */
		if (colon)
			*colon = 0;
		bool ok = false;
		for (unsigned i = 0; debug_names[i]; i++)
			ok |= !strcmp(debug_names[i], t);
		if (!ok)
			rc = fio_usage_err("--debug: '%s' is not one of fio's debug categories", t);
	}
	free(copy);
	return rc;
}

void fio_cli_help(void)
{
	unsigned width = help_width();
	char line[512];
	printf("Usage: ");
	snprintf(line, sizeof(line), "%s [OPTIONS] [JOB OPTIONS] [JOBFILE...]", fio_prog);
	help_wrap(stdout, width, 7, 7, line);
	printf("\n");
	help_wrap(stdout, width, 0, 0,
		  "fio 3.33's command line, run by iogauge: fio's job files and job options (--name=NAME "
		  "starts a job), fio's JSON and terse output.  Called as `fio` (the optional link from "
		  "`make install-fio-link`), iogauge behaves the same.  docs/fio.md lists what differs.");
	printf("\nOptions:\n");
	for (const struct cli_opt *c = cli_opts; c->name; c++) {
		char syn[64];
		snprintf(syn, sizeof(syn), "--%s%s", c->name,
			 c->arg == ARG_REQUIRED ? "=VALUE" : c->arg == ARG_OPTIONAL ? "[=VALUE]" : "");
		snprintf(line, sizeof(line), "%s%s", c->id == C_REFUSED ? "refused: " : "", c->help);
		help_item(stdout, width, 31, syn, line);
	}
	printf("\n");
	snprintf(line, sizeof(line),
		 "Job options: `%s --cmdhelp=all` lists them; iogauge's own (--allow-overwrite, "
		 "--allow-destroy, --keep, --json FILE) work here too. A script that calls fio and cannot "
		 "add --allow-overwrite sets " ALLOW_OVERWRITE_ENV "=1 instead.", fio_prog);
	help_wrap(stdout, width, 0, 0, line);
	help_wrap(stdout, width, 0, 0,
		  "Exit status: 0 done, 1 an I/O error, 2 a bad or unsupported option (each one named), "
		  "128+N after signal N.");
}

/* docs/fio.md's section on `iogauge fio`: from the table above, as --help is. */
void fio_cli_markdown(FILE *f)
{
	fprintf(f, "## `iogauge fio`: fio's own command line\n\n"
		   "`iogauge fio [OPTIONS] [JOB OPTIONS] [JOBFILE...]` reads the command line as fio %s does, "
		   "for scripts written for fio; the binary called as `fio` (a link: `make install-fio-link`, "
		   "which refuses to shadow a real fio) is this command. Where it reads differently from "
		   "`iogauge run`, it reads as fio: a job file's values win over the command line's job options; "
		   "only `${VAR}` is expanded, an unset one empty; `KiB`, `MiB`... are powers of 1000; each job "
		   "file after the first starts from the defaults and waits for the jobs before it; the files "
		   "iogauge creates are kept (`unlink=1` in every job removes them), and a file it did not "
		   "create (one a real fio run left) is written only with `--allow-overwrite` or, for a "
		   "script that cannot add it, `" ALLOW_OVERWRITE_ENV "=1` in the environment; no note on stderr that "
		   "fio does not print either. `--output-format=json` is fio's JSON (`fio-json`). Its program "
		   "options:\n\n| option | short | here |\n| --- | --- | --- |\n", &FIO_FOLLOWED[4]);
	unsigned n = 0, refused = 0;
	for (const struct cli_opt *c = cli_opts; c->name; c++) {
		fprintf(f, "| `--%s%s` | %s%c%s | %s%s |\n", c->name,
			c->arg == ARG_REQUIRED ? "=VALUE" : c->arg == ARG_OPTIONAL ? "[=VALUE]" : "",
			c->letter ? "`-" : "", c->letter ? c->letter : ' ', c->letter ? "`" : "",
			c->id == C_REFUSED ? "**refused** (status 2): " : "", c->help);
		c->id == C_REFUSED ? refused++ : n++;
	}
	fprintf(f, "\n%u taken, %u refused by name.\n\n", n, refused);
}

/* --cmdhelp: one job option, or all of them. */
static int cmdhelp(const struct command *cmd, const char *name)
{
	bool all = !name || !*name || !strcmp(name, "all");
	OPTIONS_EACH(o) {
		if (!option_takes(o, cmd))
			continue;
		if (all) {
			printf("%-24s: %s\n", o->name, o->help);
			continue;
		}
		if (option_find(name) != o)
			continue;
		printf("%20s: %s\n", "name", o->name);
		printf("%20s: %s\n", "help", o->help);
		if (o->def)
			printf("%20s: %s\n", "default", o->def);
		if (o->fio)
			printf("%20s: %s\n", "differs from fio", o->fio);
		return 0;
	}
	if (all)
		return 0;
	const struct fio_name *fn = fio_name_find(name, strlen(name));
	char wbuf[256];
	const char *why = fn ? fio_name_why(fn, wbuf, sizeof(wbuf)) : NULL;
	if (fn)
		printf("%s: a fio option iogauge does not support%s%s (docs/fio.md)\n", name, why ? ": " : "", why ? why : "");
	else
		printf("No such command: %s\n", name);
	return 0;
}

/* Is engine a word of fio_names' comma-separated engines list? */
static bool lists_engine(const char *list, const char *engine)
{
	size_t n = strlen(engine);
	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ", ");
		if (len == n && !strncmp(p, engine, n))
			return true;
		p += len;
		p += strspn(p, ", ");
	}
	return false;
}

/* --enghelp: the engines, or one engine's own options (fio's names, supported or not). */
static int enghelp(const char *name)
{
	if (!name || !*name) {
		printf("Available IO engines:\n");
		for (unsigned i = 0; engines[i]; i++)
			printf("\t%s\n", engines[i]->name);
		return 0;
	}
	char eng[64];
	snprintf(eng, sizeof(eng), "%.*s", (int)strcspn(name, ","), name);
	bool known = engine_by_name(eng) != NULL;
	unsigned n = 0;
	for (const struct fio_name *f = fio_names; f->name; f++) {
		if (!f->engines || !lists_engine(f->engines, eng))
			continue;
		const struct opt_def *o = option_find(f->name);
		printf("%-20s: %s\n", f->name, o ? o->help : "not supported by iogauge");
		n++;
	}
	if (!known) {
		msg_err("--enghelp: iogauge has no engine '%s'", eng);
		return EXIT_USAGE;
	}
	if (!n)
		printf("%s: no engine-specific options\n", eng);
	return 0;
}

/* fio's program options out of argv; the rest (job options, job files) in cli->rest, in order. */
int fio_parse_cli(const struct command *cmd, int argc, char **argv, struct fio_cli *cli, int *exit_now)
{
	*exit_now = -1;
	cli->rest = xcalloc((size_t)argc + 1, sizeof(char *));
	cli->sections = xcalloc((size_t)argc + 1, sizeof(char *));
	cli->owned = xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++) {
		char *a = argv[i];
		if (a[0] != '-' || !a[1]) {
			cli->rest[cli->nrest++] = a;
			continue;
		}
		const char *name = a + (a[1] == '-' ? 2 : 1), *eq = strchr(name, '=');
		size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
		const char *val = eq ? eq + 1 : NULL, *glued;
		const struct cli_opt *c = cli_find(cmd, a, name, nlen, &glued);
		if (!c) {
			/* A job option: its value may be the next word (--name job1). */
			const struct opt_def *o = option_find_cmd(name, nlen, cmd);
			bool ours = o && (o->group & cmd->groups);
			if (!eq && !ours && fio_name_find(name, nlen) && i + 1 < argc && argv[i + 1][0] != '-' &&
			    access(argv[i + 1], F_OK)) {
				/* fio's option iogauge lacks, its value apart: one word, named once as unsupported. */
				char *joined = xcalloc(1, strlen(a) + strlen(argv[i + 1]) + 2);
				sprintf(joined, "%s=%s", a, argv[++i]);
				cli->owned[cli->nowned++] = joined;
				cli->rest[cli->nrest++] = joined;
				continue;
			}
			cli->rest[cli->nrest++] = a;
			if (!eq && ours && !o->bare && i + 1 < argc)
				cli->rest[cli->nrest++] = argv[++i];
			continue;
		}
		if (glued)
			val = glued;
		if (c->arg == ARG_REQUIRED && !val) {
			if (i + 1 >= argc)
				return fio_usage_err("--%s needs a value", c->name);
			val = argv[++i];
		}
		if (c->arg == ARG_NONE && val)
			return fio_usage_err("--%s takes no value", c->name);
		uint64_t ns;
		switch (c->id) {
		case C_OUTPUT:
			cli->output = val;
			break;
		case C_FORMAT:
			if (parse_formats(val, &cli->formats))
				return EXIT_USAGE;
			break;
		case C_MINIMAL:
			cli->formats = 1u << OUT_TERSE;
			break;
		case C_APPEND_TERSE:
			cli->formats = (cli->formats ? cli->formats : 1u << OUT_NORMAL) | 1u << OUT_TERSE;
			break;
		case C_TERSE_VERSION:
			if (strcmp(val, "3"))
				return fio_usage_err("--terse-version=%s: iogauge writes terse version 3 only", val);
			break;
		case C_BW_LOG:
			cli->bw_log = true;
			break;
		case C_PARSE_ONLY:
			cli->parse_only = true;
			break;
		case C_SHOWCMD:
			cli->showcmd = true;
			break;
		case C_SECTION:
			if (!strcmp(val, "global"))
				return fio_usage_err("--section=global: global cannot be the only section (as in fio)");
			cli->sections[cli->nsections++] = val;
			break;
		case C_READONLY:
			cli->readonly = true;
			break;
		case C_ETA:
			/* fio: anything but always and never leaves it at auto. */
			cli->eta = !strcmp(val, "always") ? ETA_ALWAYS : !strcmp(val, "never") ? ETA_NEVER : cli->eta;
			break;
		case C_ETA_INTERVAL:
		case C_ETA_NEWLINE:
			if (parse_time(val, "s", &ns))
				return fio_usage_err("--%s: '%s' is not a time (bare numbers are seconds)", c->name, val);
			if (c->id == C_ETA_INTERVAL && ns < 250 * NSEC_PER_MSEC)
				return fio_usage_err("--eta-interval: at least 250ms");
			if (c->id == C_ETA_NEWLINE && ns < NSEC_PER_MSEC)
				return fio_usage_err("--eta-newline: at least 1ms");
			*(c->id == C_ETA_INTERVAL ? &cli->eta_interval_ns : &cli->eta_newline_ns) = ns;
			break;
		case C_MAX_JOBS:
		case C_ALLOC_SIZE:
			if (parse_uint(val, &ns))
				return fio_usage_err("--%s: '%s' is not a number", c->name, val);
			break;
		case C_WARNINGS_FATAL:
			cli->warnings_fatal = true;
			break;
		case C_DEBUG:
			if (parse_debug(val))
				return EXIT_USAGE;
			break;
		case C_AUX_PATH:
			if (access(val, W_OK))
				return fio_usage_err("--aux-path %s: %s", val, strerror(errno));
			break;
		case C_VERSION:
			printf("%s (iogauge %s)\n", FIO_FOLLOWED, IOGAUGE_VERSION);
			*exit_now = 0;
			return 0;
		case C_HELP:
			fio_cli_help();
			*exit_now = 0;
			return 0;
		case C_CMDHELP:
			*exit_now = cmdhelp(cmd, val);
			return 0;
		case C_ENGHELP:
			*exit_now = enghelp(val);
			return 0;
		case C_REFUSED:
			return fio_usage_err("--%s: %s", c->name, c->help);
		}
	}
	return 0;
}
