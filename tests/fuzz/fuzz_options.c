/*
 * Fuzz target: the command line through the option table.  The input is
 * split into words at NUL and newline; the first byte picks the command.
 * Every word also goes through the size, time, number and boolean parsers
 * and, as a value, through every option's setter.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/common.h"
#include "cmds/commands.h"
#include "options/options.h"
#include "base/units.h"
#include "options/args.h"

#define MAX_WORDS 64

static struct job j, dj;
static struct settings s, ds;
static bool ready;

static void each_parser(const char *w)
{
	uint64_t v;
	bool b;
	char err[512];
	parse_size(w, &v);
	parse_time(w, "s", &v);
	parse_time(w, "us", &v);
	parse_uint(w, &v);
	parse_bool(w, &b);
	if (!ready) {
		options_defaults(&dj, &ds);
		ready = true;
	}
	OPTIONS_EACH(o) {
		j = dj;
		s = ds;
		if (option_apply(o, &j, &s, w, err, sizeof(err)) == 0) {
			char buf[4096];
			option_print(o, &j, &s, buf, sizeof(buf));
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size || size > 4096)
		return 0;
	unsigned ncmd = 0;
	while (commands[ncmd])
		ncmd++;
	const struct command *cmd = commands[data[0] % ncmd];
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	char *argv[MAX_WORDS + 1];
	int argc = 0;
	for (char *p = text, *end = text + size - 1; p < end && argc < MAX_WORDS;) {
		argv[argc++] = p;
		while (p < end && *p && *p != '\n')
			p++;
		*p++ = 0;
	}
	argv[argc] = NULL;
	for (int i = 0; i < argc && i < 4; i++)
		each_parser(argv[i]);
	struct parsed_args pa;
	struct ig_err e = { 0 };
	args_parse(argc, argv, cmd, &pa, &e);
	args_free(&pa);
	free(text);
	return 0;
}
