/* Command-line arguments, option strings and fio-style job files into jobs, through the option table. */
#include "common.h"
#include "commands.h"
#include "options.h"
#include "engines/engine.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int push_job(struct parsed_args *pa, const char *name, const char *where, struct ig_err *e)
{
	if (!*name)
		return err_set(e, EXIT_USAGE, "%s--name: the name is empty", where);
	if (strlen(name) >= JOB_NAME_MAX)
		return err_set(e, EXIT_USAGE, "%s--name: '%.32s...' is longer than %d characters",
			       where, name, JOB_NAME_MAX - 1);
	struct job *jobs = realloc(pa->jobs, (pa->njobs + 1) * sizeof(*pa->jobs));
	if (!jobs)
		return err_set(e, EXIT_IOERR, "out of memory for job %u", pa->njobs + 1);
	pa->jobs = jobs;
	struct job *j = &pa->jobs[pa->njobs++];
	*j = pa->global;
	strcpy(j->name, name);
	return 0;
}

/*
 * One option by name (nlen bytes of name) for a command's groups; where is ""
 * on the command line, "FILE:LINE: " in job files.  The message spells the
 * option as the user wrote it.
 */
static int apply_named(const char *name, size_t nlen, const char *val, unsigned groups,
		       bool from_file, const char *where, struct job *j, struct settings *s,
		       struct ig_err *e)
{
	const struct opt_def *o = option_find_n(name, nlen);
	char err[ERR_MSG_MAX - 64];
	if (!o || !(o->group & groups))
		return err_set(e, EXIT_USAGE, "%sunknown option '%.*s' (see --help)", where,
			       (int)nlen, name);
	if (from_file && (o->flags & OPT_CLI_ONLY))
		return err_set(e, EXIT_USAGE,
			       "%s%.*s is refused in job files: it is the user's word on the command "
			       "line (--%s)",
			       where, (int)nlen, name, o->name);
	if (option_apply(o, j, s, val, err, sizeof(err)))
		return err_set(e, EXIT_USAGE, "%s%s", where, err);
	return 0;
}

int args_apply_string(const char *opts, unsigned groups, struct job *j, struct settings *s,
		      struct ig_err *e)
{
	char *copy = xstrdup(opts), *save = NULL;
	struct settings ignored;
	int rc = 0;
	if (!s)
		s = &ignored; /* cases and layouts set job options only */
	for (char *t = strtok_r(copy, " ", &save); t && !rc; t = strtok_r(NULL, " ", &save)) {
		const char *name = t + (t[0] == '-') + (t[1] == '-');
		const char *eq = strchr(name, '=');
		rc = apply_named(name, eq ? (size_t)(eq - name) : strlen(name), eq ? eq + 1 : NULL,
				 groups, false, "", j, s, e);
	}
	free(copy);
	return rc;
}

int args_parse(int argc, char **argv, const struct command *cmd, struct parsed_args *pa,
	       struct ig_err *e)
{
	struct job *cur = NULL;
	memset(pa, 0, sizeof(*pa));
	options_defaults(&pa->global, &pa->settings);
	if (cmd->defaults && args_apply_string(cmd->defaults, OG_ALL, &pa->global, &pa->settings, e))
		return -1;
	pa->words = xcalloc((size_t)argc + 1, sizeof(char *));
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
		const struct opt_def *o = option_find_n(name, nlen);
		if (!o || !(o->group & cmd->groups))
			return err_set(e, EXIT_USAGE, "unknown option %s (see iogauge %s --help)", a,
				       cmd->name);
		if (!val && !o->bare && i + 1 < argc)
			val = argv[++i];
		if (o->flags & OPT_NEW_JOB) {
			if (!val)
				return err_set(e, EXIT_USAGE, "--%s needs a value (%s)", o->name, o->arg);
			/* As in fio: --name=global collects defaults for the jobs after it. */
			if (!strcmp(val, "global")) {
				cur = NULL;
				continue;
			}
			if (push_job(pa, val, "", e))
				return -1;
			cur = &pa->jobs[pa->njobs - 1];
			continue;
		}
		if (apply_named(name, nlen, val, cmd->groups, false, "", cur ? cur : &pa->global,
				&pa->settings, e))
			return -1;
	}
	return 0;
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

/* The whole job file, NUL-terminated; refuses what is not a small regular text file. */
static char *read_jobfile(const char *path, struct ig_err *e)
{
	struct stat st;
	/* O_NONBLOCK: a FIFO named as a job file must not block the open. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		err_set(e, EXIT_USAGE, "job file %s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		err_set(e, EXIT_USAGE, "job file %s: not a regular file (%s)", path,
			S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
			S_ISCHR(st.st_mode) ? "a character device" : S_ISBLK(st.st_mode) ? "a block device" :
			"not a file");
		close(fd);
		return NULL;
	}
	if (st.st_size > JOBFILE_MAX) {
		err_set(e, EXIT_USAGE, "job file %s: %lld bytes is too large for a job file (at most %u)",
			path, (long long)st.st_size, JOBFILE_MAX);
		close(fd);
		return NULL;
	}
	char *buf = xcalloc(1, (size_t)st.st_size + 1);
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (memchr(buf, 0, got)) {
		unsigned line = 1;
		for (const char *p = buf; *p; p++)
			line += *p == '\n';
		err_set(e, EXIT_USAGE, "job file %s:%u: a NUL byte: this is not a text job file", path,
			line);
		free(buf);
		return NULL;
	}
	buf[got] = 0;
	return buf;
}

int jobfile_parse(const char *path, const struct command *cmd, struct parsed_args *pa,
		  struct ig_err *e)
{
	char *text = read_jobfile(path, e), *save = NULL, where[PATH_MAX + 32];
	if (!text)
		return -1;
	struct job *cur = NULL;
	bool in_global = false, any = false;
	unsigned lineno = 0;
	int rc = 0;
	/* strtok_r would skip empty lines and lose the count: split by hand. */
	for (char *line = text, *next; line && !rc; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		lineno++;
		snprintf(where, sizeof(where), "%s:%u: ", path, lineno);
		char *s = trim(line);
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');
			if (!end || end == s + 1) {
				rc = err_set(e, EXIT_USAGE, "%sbad section header '%s'", where, s);
				break;
			}
			*end = 0;
			any = true;
			in_global = !strcmp(s + 1, "global");
			cur = NULL;
			if (!in_global) {
				rc = push_job(pa, s + 1, where, e);
				cur = rc ? NULL : &pa->jobs[pa->njobs - 1];
			}
			continue;
		}
		if (!cur && !in_global) {
			rc = err_set(e, EXIT_USAGE, "%soption outside a section: '%s'", where, s);
			break;
		}
		char *eq = strchr(s, '='), *name = s, *val = NULL;
		if (eq) {
			*eq = 0;
			name = trim(s);
			val = trim(eq + 1);
		}
		rc = apply_named(name, strlen(name), val, cmd->groups, true, where,
				 cur ? cur : &pa->global, &pa->settings, e);
	}
	free(text);
	(void)save;
	if (!rc && !any)
		rc = err_set(e, EXIT_USAGE, "job file %s: no [section] in it: not a job file", path);
	return rc;
}

int job_validate(struct job *j, struct ig_err *e)
{
	const struct engine_ops *en = j->engine;
	if (en->flags & ENGINE_SYNC)
		j->iodepth = 1; /* a synchronous engine has one request in flight, as in fio */
	if (en->flags & ENGINE_NO_DIRECT && j->direct)
		return err_set(e, EXIT_USAGE, "job %s: --ioengine=%s cannot do O_DIRECT (drop --direct=1)",
			       j->name, en->name);
	if (j->time_based && !j->runtime_ns)
		return err_set(e, EXIT_USAGE, "job %s: --time_based needs --runtime", j->name);
	if (!(en->flags & ENGINE_NO_FILE) && !j->filename[0] && !j->size)
		return err_set(e, EXIT_USAGE,
			       "job %s: --size is needed to create a test file (or give --filename)",
			       j->name);
	if (j->size && j->bs > j->size)
		return err_set(e, EXIT_USAGE, "job %s: --bs=%llu is larger than --size=%llu", j->name,
			       (unsigned long long)j->bs, (unsigned long long)j->size);
	if (en->flags & ENGINE_NO_FILE && !j->size)
		return err_set(e, EXIT_USAGE, "job %s: --ioengine=%s needs --size", j->name, en->name);
	if (en->flags & ENGINE_NO_FILE && (j->fsync_every || j->fdatasync_every))
		return err_set(e, EXIT_USAGE, "job %s: --fsync/--fdatasync need a file; --ioengine=%s has none",
			       j->name, en->name);
	/* Offsets are off_t: the region must end below 2^63. */
	if (j->offset > (uint64_t)INT64_MAX || j->size > (uint64_t)INT64_MAX - j->offset)
		return err_set(e, EXIT_USAGE,
			       "job %s: --offset=%llu plus --size=%llu is beyond the largest file offset",
			       j->name, (unsigned long long)j->offset, (unsigned long long)j->size);
	return 0;
}
