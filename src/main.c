/* iogauge: dispatch to a command. */
#include "base/cluster.h"
#include "base/common.h"
#include "cmds/commands.h"
#include "cmds/help.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void usage(FILE *f)
{
	unsigned width = help_width();
	fprintf(f, "iogauge %s - an honest storage benchmark\n\nUsage:\n", IOGAUGE_VERSION);
	for (unsigned i = 0; commands[i]; i++)
		help_item(f, width, 43, commands[i]->usage, commands[i]->summary);
	fprintf(f, "\n`iogauge COMMAND --help` lists a command's options.\n");
}

/*
 * `iogauge WORD`: a command, or a PATH for quick.  A word that names no
 * file and has no '/' is taken for a mistyped command: said so, with the
 * commands (quick with a PATH that is not there would only say "No such file").
 */
/* Edits (insert, delete, change, swap two letters) from a to b, up to 3: enough to spot a typo. */
static unsigned edits(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 16 || lb > 16)
		return 3;
	unsigned d[17][17];
	for (size_t i = 0; i <= la; i++)
		for (size_t j = 0; j <= lb; j++) {
			if (!i || !j) {
				d[i][j] = (unsigned)(i + j);
				continue;
			}
			unsigned v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			v = v < d[i - 1][j] + 1 ? v : d[i - 1][j] + 1;
			v = v < d[i][j - 1] + 1 ? v : d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb] < 3 ? d[la][lb] : 3;
}

static int unknown_command(const char *a)
{
	struct stat st;
	if (!*a || a[0] == '-' || strchr(a, '/') || !lstat(a, &st))
		return 0;
	char list[512], hint[64] = "";
	size_t k = 0;
	unsigned best = 3;
	for (unsigned i = 0; commands[i] && k < sizeof(list); i++) {
		k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%s", i ? ", " : "", commands[i]->name);
		unsigned d = edits(a, commands[i]->name);
		/* A near miss: one edit, or two in a longer word ("sweap", "bonie"). */
		if (d < best && (d == 1 || strlen(commands[i]->name) > 4)) {
			best = d;
			snprintf(hint, sizeof(hint), "did you mean '%s'? ", commands[i]->name);
		}
	}
	msg_err("unknown command '%s', and no file or directory of that name: %scommands: %s (iogauge --help)",
		a, hint, list);
	return EXIT_USAGE;
}

static int dispatch(int argc, char **argv)
{
	/* A link named fio: fio's command line, whatever it says (fio --version is fio's). */
	const char *base = argc ? strrchr(argv[0], '/') : NULL;
	base = base ? base + 1 : argc ? argv[0] : "";
	if (!strcmp(base, "fio"))
		return fio_main_as_fio(argc, argv);
	const char *a = argc > 1 ? argv[1] : "";
	if (!strcmp(a, "--help-man")) {
		options_man(stdout, commands);
		return 0;
	}
	if (!strcmp(a, "--help-markdown")) {
		options_markdown(stdout, commands);
		return 0;
	}
	if (!strcmp(a, "--help-fio-markdown")) {
		options_fio_markdown(stdout, fio_cli_markdown);
		return 0;
	}
	if (!strcmp(a, "--version")) {
		printf("iogauge %s\n", iogauge_version);
		return 0;
	}
	if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "help")) {
		usage(stdout);
		return 0;
	}
	/* No command word: `iogauge [options] [PATH...]` is the first command (quick). */
	const struct command *c = argc > 1 ? command_find(argv[1]) : NULL;
	if (c)
		return command_run(c, argc - 2, argv + 2);
	int bad = argc > 1 ? unknown_command(argv[1]) : 0;
	if (bad)
		return bad;
	return command_run(commands[0], argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	/* iogauge-mpi under mpirun: every rank runs the same command, rank 0 reports. */
	cluster_init(&argc, &argv);
	return cluster_exit(dispatch(argc, argv));
}
