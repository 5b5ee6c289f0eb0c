/*
 * fio job files: ini sections ([global] and [jobname]), key=value and bare
 * flags, ';' and '#' comments (also after a value, as fio 3.33 reads them),
 * `include FILE`, ${VAR} and $VAR from the environment, fio's $pagesize,
 * $ncpus and $mb_memory with integer arithmetic.  Every line's problem is
 * named (FILE:LINE: ...), not only the first; options fio has and iogauge
 * lacks are "unsupported fio option" lines.
 */
#include "base/common.h"
#include "options/command.h"
#include "options/options.h"
#include "options/args.h"
#include "options/jobfile.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define INCLUDE_DEPTH_MAX 8
#define VALUE_MAX 4096

const struct fio_name *fio_name_find(const char *name, size_t len)
{
	for (const struct fio_name *f = fio_names; f->name; f++)
		if (strlen(f->name) == len && !strncmp(f->name, name, len))
			return f;
	return NULL;
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

/* ---- $VAR, ${VAR} and fio's keywords */

/* fio's keywords: replaced in job files, and they make the value integer arithmetic. */
static bool keyword(const char *name, size_t len, uint64_t *v)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	if (len == 8 && !strncmp(name, "pagesize", 8))
		*v = (uint64_t)psz;
	else if (len == 5 && !strncmp(name, "ncpus", 5))
		*v = (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);
	else if (len == 9 && !strncmp(name, "mb_memory", 9))
		*v = (uint64_t)pages * (uint64_t)psz >> 20;
	else
		return false;
	return true;
}

/* filename_format's own placeholders: left for the runner to fill in. */
static bool placeholder(const char *name, size_t len)
{
	static const char *const names[] = { "jobname", "jobnum", "filenum", "clientuid" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return true;
	return false;
}

/*
 * Integer arithmetic as fio's keyword math does it (bc, scale 0): + - * / %
 * and parentheses over unsigned numbers.  -1 on a syntax error, division by
 * zero or a negative result.
 */
struct expr {
	const char *p;
	bool bad;
};

static int64_t expr_sum(struct expr *x);

static void skip_blank(struct expr *x)
{
	while (*x->p == ' ' || *x->p == '\t')
		x->p++;
}

static int64_t expr_atom(struct expr *x)
{
	skip_blank(x);
	if (*x->p == '(') {
		x->p++;
		int64_t v = expr_sum(x);
		skip_blank(x);
		if (*x->p != ')')
			x->bad = true;
		else
			x->p++;
		return v;
	}
	if (*x->p == '-') {
		x->p++;
		return -expr_atom(x);
	}
	if (!isdigit((unsigned char)*x->p)) {
		x->bad = true;
		return 0;
	}
	char *end;
	errno = 0;
	long long v = strtoll(x->p, &end, 10);
	if (errno)
		x->bad = true;
	x->p = end;
	return v;
}

static int64_t expr_product(struct expr *x)
{
	int64_t v = expr_atom(x);
	for (;;) {
		skip_blank(x);
		char op = *x->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		x->p++;
		int64_t r = expr_atom(x);
		if (op == '*') {
			if (__builtin_mul_overflow(v, r, &v))
				x->bad = true;
		} else if (!r) {
			x->bad = true;
		} else {
			v = op == '/' ? v / r : v % r;
		}
	}
}

static int64_t expr_sum(struct expr *x)
{
	int64_t v = expr_product(x);
	for (;;) {
		skip_blank(x);
		char op = *x->p;
		if (op != '+' && op != '-')
			return v;
		x->p++;
		int64_t r = expr_product(x);
		if (op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v))
			x->bad = true;
	}
}

static int eval_expr(const char *s, uint64_t *out)
{
	struct expr x = { .p = s };
	int64_t v = expr_sum(&x);
	skip_blank(&x);
	if (x.bad || *x.p || v < 0)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

/*
 * Expand $NAME and ${NAME} in val into out: fio's keywords, then the
 * environment.  A value with a keyword that is arithmetic is evaluated.  -1
 * with the reason in err (an unset variable is named, never left empty).
 */
static int expand(const char *val, char *out, size_t len, bool fio, char *err, size_t elen)
{
	size_t k = 0;
	bool kw = false;
	for (const char *p = val; *p;) {
		const char *name = NULL;
		size_t nlen = 0, skip = 0;
		if (p[0] == '$' && p[1] == '{') {
			const char *end = strchr(p + 2, '}');
			if (end) {
				name = p + 2;
				nlen = (size_t)(end - name);
				skip = nlen + 3;
			}
		} else if (p[0] == '$' && (isalpha((unsigned char)p[1]) || p[1] == '_')) {
			name = p + 1;
			while (isalnum((unsigned char)name[nlen]) || name[nlen] == '_')
				nlen++;
			skip = nlen + 1;
		}
		char piece[VALUE_MAX];
		const char *add = piece;
		size_t alen;
		uint64_t v;
		if (!name) {
			add = p;
			alen = 1;
			skip = 1;
		} else if (keyword(name, nlen, &v)) {
			alen = (size_t)snprintf(piece, sizeof(piece), "%" PRIu64, v);
			kw = true;
		} else if (placeholder(name, nlen)) {
			add = p;
			alen = skip;
		} else if (fio && p[1] != '{') {
			add = p; /* $NAME, not a keyword: fio keeps it as written */
			alen = skip;
		} else {
			char var[256];
			snprintf(var, sizeof(var), "%.*s", (int)nlen, name);
			const char *env = nlen < sizeof(var) ? getenv(var) : NULL;
			if (!env && fio)
				env = ""; /* fio: an unset ${NAME} is empty */
			if (!env) {
				snprintf(err, elen, "environment variable %s is not set", var);
				return -1;
			}
			add = env;
			alen = strlen(env);
		}
		if (k + alen >= len) {
			snprintf(err, elen, "the value is longer than %zu characters once expanded", len - 1);
			return -1;
		}
		memcpy(out + k, add, alen);
		k += alen;
		p += skip;
	}
	out[k] = 0;
	uint64_t v;
	if (kw && strpbrk(out, "+-*/%()") && !eval_expr(out, &v))
		snprintf(out, len, "%" PRIu64, v);
	return 0;
}

/* ---- the file */

struct jobfile {
	const struct command *cmd;
	struct parsed_args *pa;
	struct ig_err *e;
	struct job *cur; /* NULL: in [global] */
	bool in_global, any;
	bool skipping; /* after a bad section header: its lines are not errors of their own */
	bool fio;      /* iogauge fio: fio's variables (${NAME} only, unset is empty) */
	unsigned depth;
};

static int parse_text(struct jobfile *jf, const char *path, char *text);

/* `include FILE`: relative to the including file's directory, as fio resolves it. */
static int include(struct jobfile *jf, const char *path, const char *where, const char *file)
{
	char full[PATH_MAX];
	const char *slash = strrchr(path, '/');
	if (file[0] == '/' || !slash)
		snprintf(full, sizeof(full), "%s", file);
	else
		snprintf(full, sizeof(full), "%.*s/%s", (int)(slash - path), path, file);
	if (jf->depth >= INCLUDE_DEPTH_MAX) {
		args_diag(jf->pa, DIAG_ERR, "%sinclude %s: more than %d levels deep (a loop?)", where,
			  file, INCLUDE_DEPTH_MAX);
		return 0;
	}
	struct ig_err ie = { 0 };
	char *text = read_jobfile(full, &ie);
	if (!text) {
		args_diag(jf->pa, DIAG_ERR, "%sinclude: %s", where, ie.msg);
		return 0;
	}
	jf->depth++;
	int rc = parse_text(jf, full, text);
	jf->depth--;
	free(text);
	return rc;
}

static int section(struct jobfile *jf, char *s, const char *where)
{
	char *end = strchr(s, ']');
	char *after = end ? trim(end + 1) : NULL;
	if (!end || end == s + 1 || (*after && *after != ';' && *after != '#')) {
		args_diag(jf->pa, DIAG_ERR, "%sbad section header '%s'", where, s);
		jf->cur = NULL;
		jf->in_global = false;
		jf->skipping = true;
		return 0;
	}
	*end = 0;
	jf->skipping = false;
	jf->any = true;
	if (jf->pa->on_line)
		jf->pa->on_line(jf->pa->on_line_arg, s + 1, NULL, NULL);
	jf->in_global = !strcmp(s + 1, "global");
	jf->cur = NULL;
	if (jf->in_global)
		return 0;
	if (args_push_job(jf->pa, s + 1, where, jf->e))
		return -1;
	jf->cur = &jf->pa->jobs[jf->pa->njobs - 1];
	return 0;
}

static void option_line(struct jobfile *jf, char *s, const char *where)
{
	struct parsed_args *pa = jf->pa;
	char *eq = strchr(s, '='), *name = s, *val = NULL;
	if (eq) {
		*eq = 0;
		val = eq + 1;
		/* fio drops a comment after a value, and the blanks before it. */
		val[strcspn(val, "#;")] = 0;
		name = trim(s);
		val = trim(val);
	}
	char expanded[VALUE_MAX], err[ERR_MSG_MAX - 64];
	if (val && expand(val, expanded, sizeof(expanded), jf->fio, err, sizeof(err))) {
		args_diag(pa, DIAG_ERR, "%s%s: %s", where, name, err);
		return;
	}
	if (pa->on_line)
		pa->on_line(pa->on_line_arg, NULL, name, val ? expanded : NULL);
	struct job *j = jf->cur ? jf->cur : &pa->global;
	struct kv_list *echo = jf->cur ? &pa->echo[jf->cur - pa->jobs] : &pa->global_echo;
	args_apply(pa, jf->cmd, name, strlen(name), val ? expanded : NULL, true, where, j, echo);
}

static int parse_text(struct jobfile *jf, const char *path, char *text)
{
	char where[PATH_MAX + 32];
	unsigned lineno = 0;
	/* A UTF-8 byte order mark (Windows editors write one) is not part of the first line. */
	if (!strncmp(text, "\xef\xbb\xbf", 3))
		text += 3;
	/* strtok_r would skip empty lines and lose the count: split by hand. */
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		lineno++;
		snprintf(where, sizeof(where), "%s:%u: ", path, lineno);
		char *s = trim(line);
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			if (section(jf, s, where))
				return -1;
			continue;
		}
		if (!strncmp(s, "include", 7) && isspace((unsigned char)s[7])) {
			if (include(jf, path, where, trim(s + 7)))
				return -1;
			continue;
		}
		if (jf->skipping)
			continue;
		if (!jf->cur && !jf->in_global) {
			args_diag(jf->pa, DIAG_ERR, "%soption outside a section: '%s'", where, s);
			continue;
		}
		option_line(jf, s, where);
	}
	return 0;
}

/* The command line's options for every job win over the file's, for the jobs it defined. */
static void cli_override(struct parsed_args *pa, const struct command *cmd, unsigned first)
{
	for (unsigned i = first; i < pa->njobs; i++)
		for (unsigned k = 0; k < pa->cli_global.n; k++) {
			const struct kv *o = &pa->cli_global.v[k];
			args_apply(pa, cmd, o->key, strlen(o->key), o->val, false, "", &pa->jobs[i], NULL);
		}
}

int jobfile_parse(const char *path, const struct command *cmd, struct parsed_args *pa,
		  struct ig_err *e)
{
	char *text = read_jobfile(path, e);
	if (!text)
		return -1;
	struct jobfile jf = { .cmd = cmd, .pa = pa, .e = e, .fio = cmd->fio_cli };
	unsigned first = pa->njobs, before = args_errors(pa);
	int rc = parse_text(&jf, path, text);
	free(text);
	if (rc)
		return -1;
	/* New errors: the last one is the message, the others are printed before it. */
	if (args_errors(pa) > before)
		return args_take_error(pa, e);
	if (!jf.any)
		return err_set(e, EXIT_USAGE, "job file %s: no [section] in it: not a job file", path);
	/* fio's own command line (iogauge fio): the file's values win, as in fio. */
	if (!cmd->fio_cli)
		cli_override(pa, cmd, first);
	return args_errors(pa) > before ? args_take_error(pa, e) : 0;
}
