/* Command-line arguments and option strings into jobs, through the option table (job files: jobfile.c). */
#include "base/common.h"
#include "model/cmdprio.h"
#include "options/option_cmdprio.h"
#include "options/command.h"
#include "options/iolog_job.h"
#include "options/options.h"
#include "model/job_names.h"
#include "options/args.h"
#include "stats/steady.h"
#include "base/ctx.h"
#include "model/engine.h"
#include "model/fio_fileops.h"
#include "model/pattern.h"
#include "model/percent.h"
#include "model/place.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Options as written, for fio's echo. */
void kv_push(struct kv_list *l, const char *key, size_t klen, const char *val)
{
	struct kv *v = realloc(l->v, (l->n + 1) * sizeof(*v));
	if (!v) {
		msg_err("out of memory");
		ctx_emergency();
		exit(EXIT_IOERR);
	}
	l->v = v;
	char *k = xcalloc(1, klen + 1);
	memcpy(k, key, klen);
	v[l->n].key = k;
	v[l->n].val = val ? xstrdup(val) : NULL;
	l->n++;
}

void kv_free(struct kv_list *l)
{
	for (unsigned i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].val);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void args_diag(struct parsed_args *pa, int kind, const char *fmt, ...)
{
	struct diag *d = realloc(pa->diags, (pa->ndiags + 1) * sizeof(*d));
	if (!d) {
		msg_err("out of memory");
		ctx_emergency();
		exit(EXIT_IOERR);
	}
	pa->diags = d;
	char buf[ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	d[pa->ndiags].kind = kind;
	d[pa->ndiags].text = xstrdup(buf);
	pa->ndiags++;
}

unsigned args_errors(const struct parsed_args *pa)
{
	unsigned n = 0;
	for (unsigned i = 0; i < pa->ndiags; i++)
		n += pa->diags[i].kind == DIAG_ERR;
	return n;
}

int args_take_error(struct parsed_args *pa, struct ig_err *e)
{
	for (unsigned i = pa->ndiags; i-- > 0;) {
		if (pa->diags[i].kind != DIAG_ERR)
			continue;
		err_set(e, EXIT_USAGE, "%s", pa->diags[i].text);
		pa->err_listed = true;
		return -1;
	}
	return 0;
}

int args_finish(struct parsed_args *pa, struct ig_err *e)
{
	for (unsigned i = 0; i < pa->ndiags; i++) {
		struct diag *d = &pa->diags[i];
		if (d->kind != DIAG_UNSUPPORTED)
			continue;
		d->kind = pa->settings.warn_unsupported ? DIAG_WARN : DIAG_ERR;
		if (d->kind == DIAG_WARN) {
			char buf[ERR_MSG_MAX];
			snprintf(buf, sizeof(buf), "%s: ignored (--warn-unsupported)", d->text);
			free(d->text);
			d->text = xstrdup(buf);
		}
	}
	return args_take_error(pa, e);
}

void args_print_diags(const struct parsed_args *pa)
{
	for (unsigned i = 0; i < pa->ndiags; i++) {
		if (pa->diags[i].kind == DIAG_WARN)
			msg_warn("%s", pa->diags[i].text);
		else
			msg_err("%s", pa->diags[i].text);
	}
}

int args_push_job(struct parsed_args *pa, const char *name, const char *where, struct ig_err *e)
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
	struct kv_list *echo = realloc(pa->echo, (pa->njobs + 1) * sizeof(*pa->echo));
	if (!echo)
		return err_set(e, EXIT_IOERR, "out of memory for job %u", pa->njobs + 1);
	pa->echo = echo;
	memset(&pa->echo[pa->njobs], 0, sizeof(*pa->echo));
	struct job *j = &pa->jobs[pa->njobs++];
	*j = pa->global;
	strcpy(j->name, name);
	return 0;
}

/*
 * option_apply's message names the option "--NAME" (the classic tools'
 * "-NAME"); it is named as the user wrote it: "blocksize" or "end-fsync" in a
 * job file, "-size_small" or "--size-small" on the command line.
 */
static void respell(char *err, size_t len, const struct opt_def *o, const char *key, size_t klen)
{
	size_t nl = strlen(o->name), dashes = strspn(err, "-");
	if (dashes < 1 || dashes > 2 || strncmp(err + dashes, o->name, nl) ||
	    (err[dashes + nl] && (isalnum((unsigned char)err[dashes + nl]) || strchr("_-", err[dashes + nl]))))
		return;
	size_t rest = strlen(err + dashes + nl);
	if (klen + rest >= len)
		return;
	memmove(err + klen, err + dashes + nl, rest + 1);
	memcpy(err, key, klen);
}

/* The block size's own option, named in messages about it: `said` as typed, or "" (--bs) for a suite's. */
static void note_bs(const struct opt_def *o, struct job *j, const char *said, size_t slen)
{
	if (o->scope == SCOPE_JOB && o->off == offsetof(struct job, bs) && j)
		snprintf(j->plan.bs_said, sizeof(j->plan.bs_said), "%.*s", (int)slen, said);
}

/* One option into j (or the settings); message in err on failure. */
static int apply_one(const struct opt_def *o, const char *key, size_t klen, const char *val,
		     bool from_file, struct job *j, struct settings *s, char *err, size_t len)
{
	if (from_file && (o->flags & OPT_CLI_ONLY)) {
		snprintf(err, len,
			 "%.*s is refused in job files: it is the user's word on the command line (--%s)",
			 (int)klen, key, o->name);
		return -1;
	}
	if (option_apply(o, j, s, val, err, len)) {
		if (from_file)
			respell(err, len, o, key, klen);
		return -1;
	}
	return 0;
}

int args_apply(struct parsed_args *pa, const struct command *cmd, const char *key, size_t klen,
	       const char *val, bool from_file, const char *where, struct job *j,
	       struct kv_list *echo)
{
	const struct opt_def *o = option_find_cmd(key, klen, cmd);
	char err[ERR_MSG_MAX - 64];
	if (!o || !option_takes(o, cmd)) {
		const struct fio_name *fn = cmd->jobs ? fio_name_find(key, klen) : NULL;
		char wbuf[256];
		const char *why = fn ? fio_name_why(fn, wbuf, sizeof(wbuf)) : NULL;
		if (fn)
			args_diag(pa, DIAG_UNSUPPORTED, "%sunsupported fio option '%.*s'%s%s%s", where, (int)klen, key,
				  why ? " (" : "", why ? why : "", why ? ")" : "");
		else
			args_diag(pa, DIAG_ERR, "%sunknown option '%.*s' (see iogauge %s --help)", where,
				  (int)klen, key, cmd->name);
		return -1;
	}
	if (apply_one(o, key, klen, val, from_file, j, &pa->settings, err, sizeof(err))) {
		args_diag(pa, DIAG_ERR, "%s%s", where, err);
		return -1;
	}
	if (from_file) {
		note_bs(o, j, key, klen);
	} else {
		char said[40];
		snprintf(said, sizeof(said), "%s%.*s", klen == 1 ? "-" : "--", (int)klen, key);
		note_bs(o, j, said, strlen(said));
	}
	/* fio echoes job options, and drops empty values: bare flags never appear. */
	if (echo && val && *val && o->scope == SCOPE_JOB)
		kv_push(echo, key, klen, val);
	return 0;
}

/*
 * Options in one string; names are looked up among command c's first (c
 * NULL: in `groups`), then anywhere in `groups` or c's own rows.
 */
static int apply_string(const char *opts, const struct command *c, unsigned groups, struct job *j,
			struct settings *s, struct ig_err *e)
{
	char *copy = xstrdup(opts), *save = NULL;
	struct settings ignored;
	int rc = 0;
	if (!s)
		s = &ignored; /* cases and layouts set job options only */
	for (char *t = strtok_r(copy, " ", &save); t && !rc; t = strtok_r(NULL, " ", &save)) {
		const char *name = t + (t[0] == '-') + (t[1] == '-');
		const char *eq = strchr(name, '=');
		size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
		const struct opt_def *o = c ? option_find_cmd(name, nlen, c) : option_find_pref(name, nlen, groups);
		char err[ERR_MSG_MAX - 64];
		if (!o || !((o->group & groups) || (c && option_owned(o, c))))
			rc = err_set(e, EXIT_USAGE, "unknown option '%.*s' (see --help)", (int)nlen, name);
		else if (apply_one(o, name, nlen, eq ? eq + 1 : NULL, false, j, s, err, sizeof(err)))
			rc = err_set(e, EXIT_USAGE, "%s", err);
		else
			note_bs(o, j, "", 0); /* a case's own block size: not the user's option */
	}
	free(copy);
	return rc;
}

int args_apply_string(const char *opts, unsigned groups, struct job *j, struct settings *s,
		      struct ig_err *e)
{
	return apply_string(opts, NULL, groups, j, s, e);
}

int args_apply_cmd_string(const char *opts, const struct command *cmd, struct job *j, struct settings *s,
			  struct ig_err *e)
{
	return apply_string(opts, cmd, cmd->groups, j, s, e);
}

int args_apply_defaults(const struct command *cmd, struct job *j, struct settings *s,
			struct ig_err *e)
{
	char err[ERR_MSG_MAX - 64];
	/* The command's own rows' defaults first: its own area held nobody's (options_defaults). */
	OPTIONS_EACH(o) {
		if (o->def && option_owned(o, cmd) && option_apply(o, j, s, o->def, err, sizeof(err)))
			return err_set(e, EXIT_USAGE, "internal: default of %s", err);
	}
	return cmd->defaults ? apply_string(cmd->defaults, cmd, OG_ALL, j, s, e) : 0;
}

/*
 * A single-dash word that names no option, read as getopt reads it: bundled
 * one-letter options ("-Rab": -R -a -b), the first that takes a value taking
 * the rest of the word or the next word ("-s64G", "-b out").
 */
static int apply_bundle(int argc, char **argv, int *i, const struct command *cmd,
			struct parsed_args *pa, struct job *j, struct ig_err *e)
{
	const char *a = argv[*i];
	for (const char *p = a + 1; *p; p++) {
		const struct opt_def *o = option_find_cmd(p, 1, cmd);
		if (!o || !option_takes(o, cmd) || o->name[1])
			return err_set(e, EXIT_USAGE, "unknown option %s (see iogauge %s --help)", a,
				       cmd->name);
		const char *val = NULL;
		if (!o->bare) {
			val = p[1] ? p + 1 : *i + 1 < argc ? argv[++*i] : NULL;
			if (!val)
				return err_set(e, EXIT_USAGE, "-%s needs a value (%s)", o->name,
					       o->arg ? o->arg : "see --help");
		}
		if (args_apply(pa, cmd, o->name, 1, val, false, "", j, NULL))
			return args_take_error(pa, e);
		if (val)
			break;
	}
	return 0;
}

/*
 * The rows the environment may give (.env): NAME=1 is the option given, 0
 * or empty not given, anything else an error.  Applied before the command
 * line, which wins (--allow-overwrite=0 beats the environment's 1).
 */
static int apply_env(const struct command *cmd, struct job *j, struct settings *s, struct ig_err *e)
{
	char err[ERR_MSG_MAX - 64];
	OPTIONS_EACH(o) {
		const char *v = o->env && option_takes(o, cmd) ? getenv(o->env) : NULL;
		if (!v || !*v || !strcmp(v, "0"))
			continue;
		size_t shown = strcspn(v, "\n\r"); /* the message stays one line */
		if (strcmp(v, "1"))
			return err_set(e, EXIT_USAGE,
				       "%s=%.*s%s in the environment: 1 gives --%s, 0 or empty leaves it out",
				       o->env, (int)(shown < 40 ? shown : 40), v, v[shown] || shown > 40 ? "..." : "",
				       o->name);
		if (option_apply(o, j, s, "1", err, sizeof(err)))
			return err_set(e, EXIT_USAGE, "%s: %s", o->env, err);
	}
	return 0;
}

int args_parse(int argc, char **argv, const struct command *cmd, struct parsed_args *pa,
	       struct ig_err *e)
{
	struct job *cur = NULL;
	memset(pa, 0, sizeof(*pa));
	options_defaults(&pa->global, &pa->settings);
	if (args_apply_defaults(cmd, &pa->global, &pa->settings, e) || apply_env(cmd, &pa->global, &pa->settings, e))
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
		const struct opt_def *o = option_find_cmd(name, nlen, cmd);
		bool known = o && option_takes(o, cmd);
		if (!known && a[1] != '-' && !eq && !(cmd->jobs && fio_name_find(name, nlen))) {
			if (apply_bundle(argc, argv, &i, cmd, pa, cur ? cur : &pa->global, e))
				return -1;
			continue;
		}
		if ((!o || !option_takes(o, cmd)) && !(cmd->jobs && fio_name_find(name, nlen)))
			return err_set(e, EXIT_USAGE, "unknown option %s (see iogauge %s --help)", a,
				       cmd->name);
		if (o && option_takes(o, cmd) && !val && !o->bare && i + 1 < argc)
			val = argv[++i];
		if (o && option_takes(o, cmd) && (o->flags & OPT_NEW_JOB)) {
			if (!val)
				return err_set(e, EXIT_USAGE, "--%s needs a value (%s)", o->name, o->arg);
			/* As in fio: --name=global collects defaults for the jobs after it. */
			if (!strcmp(val, "global")) {
				cur = NULL;
				kv_push(&pa->global_echo, name, nlen, val);
				continue;
			}
			if (args_push_job(pa, val, "", e))
				return -1;
			cur = &pa->jobs[pa->njobs - 1];
			kv_push(&pa->echo[pa->njobs - 1], name, nlen, val);
			continue;
		}
		struct kv_list *echo = cur ? &pa->echo[cur - pa->jobs] : &pa->global_echo;
		if (args_apply(pa, cmd, name, nlen, val, false, "", cur ? cur : &pa->global, echo)) {
			if (pa->ndiags && pa->diags[pa->ndiags - 1].kind == DIAG_UNSUPPORTED)
				continue; /* named with the others at the end */
			int rc = args_take_error(pa, e);
			/* Named as typed: latency's "-c", Orion's "-size_small", not "--c" or "-size-small". */
			if (o)
				respell(e->msg, sizeof(e->msg), o, a, (size_t)(name - a) + nlen);
			return rc;
		}
		/* Job options for every job: they win over job files' values too. */
		if (!cur && o && o->scope == SCOPE_JOB)
			kv_push(&pa->cli_global, name, nlen, val);
		if (o && option_takes(o, cmd)) {
			char said[64];
			snprintf(said, sizeof(said), "%.*s", (int)((size_t)(name - a) + nlen), a);
			kv_push(&pa->typed, o->name, strlen(o->name), said);
		}
	}
	return 0;
}

const char *args_typed(const struct parsed_args *pa, const char *name)
{
	for (unsigned i = pa ? pa->typed.n : 0; i-- > 0;)
		if (!strcmp(pa->typed.v[i].key, name))
			return pa->typed.v[i].val;
	return NULL;
}

void args_free(struct parsed_args *pa)
{
	for (unsigned i = 0; pa->echo && i < pa->njobs; i++)
		kv_free(&pa->echo[i]);
	free(pa->echo);
	kv_free(&pa->global_echo);
	kv_free(&pa->cli_global);
	kv_free(&pa->typed);
	for (unsigned i = 0; i < pa->ndiags; i++)
		free(pa->diags[i].text);
	free(pa->diags);
	free(pa->jobs);
	free(pa->words);
	pa->jobs = NULL;
	pa->echo = NULL;
	pa->diags = NULL;
	pa->words = NULL;
	pa->njobs = pa->nwords = pa->ndiags = 0;
}

/* A --fileop job: the combinations a tree of items allows (its engine: job_normalise). */
static int fileop_validate(const struct job *j, struct ig_err *e)
{
	const char *op = fileop_names[j->fileop];
	/* fio's filecreate opens its files again each loop (O_CREAT); removing or making a directory cannot. */
	bool once = (j->fileop == FILEOP_CREATE && j->engine != &engine_filecreate) || j->fileop == FILEOP_UNLINK ||
		    j->fileop == FILEOP_MKDIR || j->fileop == FILEOP_RMDIR;
	if (j->engine->fileop && j->engine->fileop != j->fileop)
		return err_set(e, EXIT_USAGE, "job %s: --ioengine=%s and --fileop=%s ask for different operations",
			       j->name, j->engine->name, op);
	if (j->direct)
		return err_set(e, EXIT_USAGE, "job %s: --fileop=%s works through the page cache; drop --direct=1",
			       j->name, op);
	if (once && (j->time_based || j->loops > 1))
		return err_set(e, EXIT_USAGE,
			       "job %s: --fileop=%s makes or removes each item once; --time_based and --loops do not apply",
			       j->name, op);
	struct fio_fileop_plan fp;
	fio_fileop_plan(j, 1, &fp);
	if (once && j->engine->fileop && fp.loops > 1)
		return err_set(e, EXIT_USAGE,
			       "job %s: --ioengine=%s makes or removes each item once; --io_size=%" PRIu64 " is more than its files' %" PRIu64 " bytes (fio 3.33 fails the second pass)",
			       j->name, j->engine->name, j->io_size, fp.fsize * (j->nrfiles ? j->nrfiles : 1));
	if (j->filesize[1] > (1ULL << 30))
		return err_set(e, EXIT_USAGE, "job %s: --filesize: a file of --fileop=%s holds at most 1g", j->name, op);
	if (j->dir_fanout == 1)
		return err_set(e, EXIT_USAGE, "job %s: --dir_fanout=1 makes an endless chain; use 0 or at least 2",
			       j->name);
	if (j->dir_fanout && !j->files_per_dir)
		return err_set(e, EXIT_USAGE, "job %s: --dir_fanout needs --files_per_dir (leaf directories)",
			       j->name);
	if (j->time_based && !j->runtime_ns)
		return err_set(e, EXIT_USAGE, "job %s: --time_based needs --runtime", j->name);
	return 0;
}

/* A tree read (tree.h): each file read once by one thread (its engine: job_normalise). */
static int tree_validate(const struct job *j, struct ig_err *e)
{
	if (j->direct || j->time_based || j->loops > 1 || j->rw != RW_READ || j->fileop)
		return err_set(e, EXIT_USAGE, "job %s: a tree read reads each file once, buffered", j->name);
	return 0;
}

/* fio's zonemode: strided zones of one file and one block size; zbd is refused at the target. */
static int zone_validate(const struct job *j, struct ig_err *e)
{
	if (j->zonemode == ZONEMODE_NONE && j->zonesize)
		return err_set(e, EXIT_USAGE, "job %s: --zonesize needs --zonemode=strided (fio 3.33 refuses it with zonemode=none, the default)",
			       j->name);
	if (j->zonemode != ZONEMODE_STRIDED)
		return 0;
	if (!j->zonesize)
		return err_set(e, EXIT_USAGE, "job %s: --zonemode=strided needs --zonesize", j->name);
	if (j->zonerange < j->bs)
		return err_set(e, EXIT_USAGE, "job %s: --zonerange=%llu holds no block of --bs=%llu", j->name,
			       (unsigned long long)j->zonerange, (unsigned long long)j->bs);
	if (pattern_wanted(j) || job_nfiles(j) > 1 || j->plan.stride || j->plan.short_tail || job_copies(j))
		return err_set(e, EXIT_USAGE,
			       "job %s: --zonemode=strided takes one file and one block size (not with bsrange, bssplit, rw=...:N, percentage_random or several files)",
			       j->name);
	return 0;
}

/* Its branches are job_validate's: a tree or file-op job takes none of block I/O's defaults. */
int job_normalise(struct job *j, struct ig_err *e)
{
	if (iolog_job_prepare(j, e))
		return -1;
	if (j->plan.tree) {
		j->engine = &engine_tree;
		j->iodepth = 1;
		return 0;
	}
	if (j->engine->fileop && !j->fileop)
		j->fileop = j->engine->fileop; /* fio's filecreate, filestat ...: a --fileop job */
	if (j->fileop) {
		/* A mismatched engine (filecreate with --fileop=unlink) stays: job_validate names it. */
		if (!j->engine->fileop)
			j->engine = &engine_fileops; /* fio's file engines keep their name (and fio's accounting) */
		j->iodepth = 1;
		return 0;
	}
	if (j->engine == &engine_null && j->iodepth > 1)
		j->engine = &engine_null_async; /* fio's null queues above iodepth=1 */
	if ((j->engine->flags & ENGINE_SYNC) && !job_offload(j))
		j->iodepth = 1; /* a synchronous engine has one request in flight, as in fio (offload: iodepth threads) */
	if (j->zonemode == ZONEMODE_STRIDED && !j->zonerange)
		j->zonerange = j->zonesize; /* fio: a zone is zonesize bytes unless told */
	if (j->pre_read)
		j->invalidate = false; /* fio: pre_read clears invalidate */
	return 0;
}

/* fio's percentages (model/percent.h): of the sizes of the files and devices a job reads and writes. */
static int pct_validate(const struct job *j, struct ig_err *e)
{
	char said[48];
	job_pct_said(j, said, sizeof(said));
	if (!*said)
		return 0;
	const char *why = j->plan.tree ? "a tree read reads each file whole" :
			  j->fileop ? "--fileop makes and opens files of its own" :
			  j->read_iolog[0] ? "the requests of --read_iolog decide where the job goes" :
			  j->fill_device ? "--fill_device writes until the file system is full" : NULL;
	if (why)
		return err_set(e, EXIT_USAGE, "job %s: %s: %s; a percentage has nothing to act on", j->name, said, why);
	if (!job_pct_region(j))
		return 0; /* io_size=N% of a region in bytes: known once the files are */
	if (j->engine->flags & ENGINE_NO_FILE)
		return err_set(e, EXIT_USAGE, "job %s: %s: --ioengine=%s has no file or device to take a share of",
			       j->name, said, j->engine->name);
	if (j->filesize[0])
		return err_set(e, EXIT_USAGE,
			       "job %s: %s with --filesize: give the region in bytes (a percentage of the files --filesize makes is not supported)",
			       j->name, said);
	return 0;
}

int job_validate(const struct job *j, struct ig_err *e)
{
	if (pct_validate(j, e))
		return -1;
	if (j->plan.tree)
		return tree_validate(j, e);
	if (j->fileop)
		return fileop_validate(j, e);
	if (j->nrfiles > 4096)
		return err_set(e, EXIT_USAGE, "job %s: --nrfiles: at most 4096 files a thread for block I/O (--fileop takes more)",
			       j->name);
	const struct engine_ops *en = j->engine;
	if (en == &engine_fileops)
		return err_set(e, EXIT_USAGE, "job %s: --ioengine=fileops performs --fileop jobs; give --fileop",
			       j->name);
	char cerr[256];
	if (cmdprio_check(j, en->name, cerr, sizeof(cerr)))
		return err_set(e, EXIT_USAGE, "job %s: %s", j->name, cerr);
	/* One job's priority draws come from one stream, in submission order: the pool's threads would race on it. */
	if (j->cmdprio.said && job_offload(j))
		return err_set(e, EXIT_USAGE, "job %s: the cmdprio and hipri_percentage options run with io_submit_mode=inline only",
			       j->name);
	if (en->flags & ENGINE_NO_DIRECT && j->direct)
		return err_set(e, EXIT_USAGE, "job %s: --ioengine=%s cannot do O_DIRECT (drop --direct=1)",
			       j->name, en->name);
	if (j->time_based && !j->runtime_ns)
		return err_set(e, EXIT_USAGE, "job %s: --time_based needs --runtime", j->name);
	if (j->log_issue_time && j->lat_log[0] && !j->log_offset)
		return err_set(e, EXIT_USAGE, "job %s: --log_issue_time with --write_lat_log needs --log_offset=1 (as fio)", j->name);
	if (j->fill_device && (rw_reads(j->rw) || !rw_writes(j->rw) || job_copies(j)))
		return err_set(e, EXIT_USAGE, "job %s: --fill_device fills the file system with writes: --rw=write, randwrite or trimwrite, not %s",
			       j->name, rw_names[j->rw]);
	if (zone_validate(j, e))
		return -1;
	if (rw_trims(j->rw) && !(en->flags & ENGINE_TRIM))
		return err_set(e, EXIT_USAGE, "job %s: --ioengine=%s cannot trim (--rw=%s); use psync, sync, libaio, io_uring, posixaio, mmap, falloc or null",
			       j->name, en->name, rw_names[j->rw]);
	if ((en->flags & ENGINE_WRITES_ONLY) && (rw_reads(j->rw) || rw_trims(j->rw)))
		return err_set(e, EXIT_USAGE, "job %s: --ioengine=%s takes writes only (--rw=write or randwrite), not --rw=%s",
			       j->name, en->name, rw_names[j->rw]);
	if (rw_trims(j->rw) && (j->verify || j->verify_only))
		return err_set(e, EXIT_USAGE, "job %s: --verify checks written blocks; --rw=%s trims them (fio's trim_verify_zero is not supported)",
			       j->name, rw_names[j->rw]);
	if ((en->flags & ENGINE_ALLOC) && (j->verify || j->verify_only))
		return err_set(e, EXIT_USAGE, "job %s: --verify checks written data; --ioengine=%s writes none",
			       j->name, en->name);
	if (j->ss_dur_ns > (uint64_t)SS_MAX_WINDOW * NSEC_PER_SEC)
		return err_set(e, EXIT_USAGE,
			       "job %s: --steadystate_duration: at most %d s (a week: the window keeps a value a second)",
			       j->name, SS_MAX_WINDOW);
	if (j->rewrite_pct && (!(en->flags & ENGINE_SYNC) || (j->rw != RW_READ && j->rw != RW_RANDREAD)))
		return err_set(e, EXIT_USAGE,
			       "job %s: --rewrite_pct rewrites blocks it has read: it needs --rw=read or randread and a synchronous engine (psync, sync)",
			       j->name);
	if (j->end_close && en != &engine_psync && en != &engine_sync)
		return err_set(e, EXIT_USAGE, "job %s: --end_close needs --ioengine=psync or sync", j->name);
	if (j->end_close && job_nfiles(j) > 1)
		return err_set(e, EXIT_USAGE, "job %s: --end_close closes one file: drop --nrfiles or the filename list", j->name);
	if (j->seq_order && rw_is_random(j->rw))
		return err_set(e, EXIT_USAGE, "job %s: --seq_order orders sequential patterns; --rw=%s is random",
			       j->name, rw_names[j->rw]);
	if (!(en->flags & ENGINE_NO_FILE) && !j->filename[0] && !j->size && !j->filesize[0] && !j->size_pct)
		return err_set(e, EXIT_USAGE,
			       "job %s: --size is needed to create a test file (or give --filename)",
			       j->name);
	if (j->size && pattern_need(j) > j->size && !j->plan.short_tail && j->plan.bs_said[0])
		return err_set(e, EXIT_USAGE, "job %s: %s (%llu bytes) is larger than --size=%llu", j->name,
			       j->plan.bs_said, (unsigned long long)pattern_need(j), (unsigned long long)j->size);
	if (j->size && pattern_need(j) > j->size && !j->plan.short_tail)
		return err_set(e, EXIT_USAGE, "job %s: --bs=%llu is larger than --size=%llu", j->name,
			       (unsigned long long)pattern_need(j), (unsigned long long)j->size);
	char perr[256];
	if (pattern_check(j, perr, sizeof(perr)))
		return err_set(e, EXIT_USAGE, "job %s: %s", j->name, perr);
	unsigned nfiles = en->flags & ENGINE_NO_FILE ? 1 : job_nfiles(j);
	if (nfiles > 1 && pattern_wanted(j))
		return err_set(e, EXIT_USAGE,
			       "job %s: several files (nrfiles, a filename list) with bsrange, bssplit, rw=...:N "
			       "or percentage_random are not supported together",
			       j->name);
	if (nfiles > 1 && en == &engine_mmap)
		return err_set(e, EXIT_USAGE, "job %s: --ioengine=mmap takes one file (nrfiles=1)", j->name);
	if (j->direct && j->bs_unaligned)
		return err_set(e, EXIT_USAGE, "job %s: --blocksize_unaligned cannot be O_DIRECT (drop --direct=1)",
			       j->name);
	if (en->flags & ENGINE_NO_FILE && !j->size && !j->filesize[0])
		return err_set(e, EXIT_USAGE, "job %s: --ioengine=%s needs --size (or --filesize)", j->name, en->name);
	if (en->flags & ENGINE_NO_FILE && (j->fsync_every || j->fdatasync_every))
		return err_set(e, EXIT_USAGE, "job %s: --fsync/--fdatasync need a file; --ioengine=%s has none",
			       j->name, en->name);
	/* A copy reads one block and writes it: two requests on two descriptors, one at a time. */
	if (job_copies(j) && (!(en->flags & ENGINE_SYNC) || (en->flags & ENGINE_NO_FILE) ||
			      j->numjobs != 1 || j->rw != RW_READ))
		return err_set(e, EXIT_USAGE,
			       "job %s: a copy reads sequentially in one thread with a synchronous engine (psync, sync)",
			       j->name);
	if (j->plan.short_tail && (!(en->flags & ENGINE_SYNC) || rw_is_mixed(j->rw)))
		return err_set(e, EXIT_USAGE, "job %s: a short last block needs a synchronous engine and one direction",
			       j->name);
	if (job_copies(j) && j->plan.copy.offset > (uint64_t)INT64_MAX - j->size)
		return err_set(e, EXIT_USAGE, "job %s: the copy's end is beyond the largest file offset", j->name);
	/* Offsets are off_t: the region must end below 2^63. */
	if (j->offset > (uint64_t)INT64_MAX || j->size > (uint64_t)INT64_MAX - j->offset)
		return err_set(e, EXIT_USAGE,
			       "job %s: --offset=%llu plus --size=%llu is beyond the largest file offset",
			       j->name, (unsigned long long)j->offset, (unsigned long long)j->size);
	return 0;
}
