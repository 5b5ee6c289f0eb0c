/* Command-line arguments and fio-style job files into jobs, through the option table. */
#include "common.h"
#include "options.h"
#include "engines/engine.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct job *push_job(struct parsed_args *pa, const char *name)
{
	pa->jobs = realloc(pa->jobs, (pa->njobs + 1) * sizeof(*pa->jobs));
	if (!pa->jobs)
		die_usage("out of memory");
	struct job *j = &pa->jobs[pa->njobs++];
	*j = pa->global;
	if (strlen(name) >= sizeof(j->name))
		die_usage("--name: '%s' is longer than %zu characters", name, sizeof(j->name) - 1);
	strcpy(j->name, name);
	return j;
}

/* Apply one option; where is "" for the command line or "FILE:LINE: " for job files. */
static void apply_one(struct parsed_args *pa, struct job *j, const char *where, const char *name,
		      size_t nlen, const char *val)
{
	char err[512];
	const struct opt_def *o = NULL;
	for (const struct opt_def *p = options; p->name; p++) {
		if (strlen(p->name) == nlen && !strncmp(p->name, name, nlen)) {
			o = p;
			break;
		}
	}
	if (!o) {
		char buf[128];
		snprintf(buf, sizeof(buf), "%.*s", (int)nlen, name);
		o = option_find(buf);
	}
	if (!o)
		die_usage("%sunknown option --%.*s (see --help)", where, (int)nlen, name);
	if (option_apply(o, j, &pa->settings, val, err, sizeof(err)))
		die_usage("%s%s", where, err);
}

void args_parse(int argc, char **argv, unsigned cmd, struct parsed_args *pa)
{
	struct job *cur = NULL;
	pa->words = calloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++) {
		char *a = argv[i];
		if (a[0] != '-' || !a[1]) {
			pa->words[pa->nwords++] = a;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			pa->help = true;
			continue;
		}
		const char *name = a + (a[1] == '-' ? 2 : 1);
		const char *eq = strchr(name, '=');
		size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
		const char *val = eq ? eq + 1 : NULL;
		char buf[128];
		snprintf(buf, sizeof(buf), "%.*s", (int)nlen, name);
		const struct opt_def *o = option_find(buf);
		if (!o || !(o->cmds & cmd))
			die_usage("unknown option %s (see iogauge %s --help)", a,
				  cmd & CMD_QUICK ? "quick" : "run");
		if (!val && !option_bare_ok(o) && i + 1 < argc)
			val = argv[++i];
		if (o->scope == SCOPE_JOB && !strcmp(o->name, "name")) {
			if (!val)
				die_usage("--name needs a value (NAME)");
			/* As in fio: --name=global collects defaults for the jobs after it. */
			cur = strcmp(val, "global") ? push_job(pa, val) : NULL;
			continue;
		}
		apply_one(pa, cur ? cur : &pa->global, "", name, nlen, val);
	}
}

void args_free(struct parsed_args *pa)
{
	free(pa->jobs);
	free(pa->words);
	pa->jobs = NULL;
	pa->words = NULL;
	pa->njobs = pa->nwords = 0;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

void jobfile_parse(const char *path, struct parsed_args *pa)
{
	FILE *f = fopen(path, "r");
	if (!f)
		die_usage("job file %s: %s", path, strerror(errno));
	char line[4096], where[PATH_MAX + 32];
	struct job *cur = NULL;
	bool in_global = false;
	unsigned lineno = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		snprintf(where, sizeof(where), "%s:%u: ", path, lineno);
		char *s = trim(line);
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *e = strchr(s, ']');
			if (!e || e == s + 1)
				die_usage("%sbad section header '%s'", where, s);
			*e = 0;
			in_global = !strcmp(s + 1, "global");
			cur = in_global ? NULL : push_job(pa, s + 1);
			continue;
		}
		if (!cur && !in_global)
			die_usage("%soption outside a section: '%s'", where, s);
		char *eq = strchr(s, '=');
		if (eq) {
			*eq = 0;
			char *name = trim(s);
			apply_one(pa, cur ? cur : &pa->global, where, name, strlen(name), trim(eq + 1));
		} else {
			apply_one(pa, cur ? cur : &pa->global, where, s, strlen(s), NULL);
		}
	}
	fclose(f);
}

void job_validate(struct job *j)
{
	if (j->engine->flags & ENGINE_SYNC && j->iodepth > 1) {
		msg_warn("job %s: --ioengine=%s is synchronous; --iodepth=%u acts as 1", j->name,
			 j->engine->name, j->iodepth);
		j->iodepth = 1;
	}
	if (j->engine->flags & ENGINE_NO_DIRECT && j->direct)
		die_usage("job %s: --ioengine=%s cannot do O_DIRECT (drop --direct=1)", j->name,
			  j->engine->name);
	if (j->time_based && !j->runtime_ns)
		die_usage("job %s: --time_based needs --runtime", j->name);
	if (!(j->engine->flags & ENGINE_NO_FILE) && !j->filename[0] && !j->size)
		die_usage("job %s: --size is needed to create a test file (or give --filename)",
			  j->name);
	if (j->size && j->bs > j->size)
		die_usage("job %s: --bs=%llu is larger than --size=%llu", j->name,
			  (unsigned long long)j->bs, (unsigned long long)j->size);
	if (j->engine->flags & ENGINE_NO_FILE && !j->size)
		die_usage("job %s: --ioengine=null needs --size", j->name);
	if (j->engine->flags & ENGINE_NO_FILE && (j->fsync_every || j->fdatasync_every))
		die_usage("job %s: --fsync/--fdatasync need a file; --ioengine=%s has none", j->name,
			  j->engine->name);
	/* Offsets are off_t: the region must end below 2^63. */
	if (j->offset > (uint64_t)INT64_MAX || j->size > (uint64_t)INT64_MAX - j->offset)
		die_usage("job %s: --offset=%llu plus --size=%llu is beyond the largest file offset",
			  j->name, (unsigned long long)j->offset, (unsigned long long)j->size);
}
