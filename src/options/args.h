/*
 * A command's arguments and job files parsed into jobs and settings
 * (args.c, jobfile.c), with the diagnostics found on the way.
 */
#ifndef IOGAUGE_ARGS_H
#define IOGAUGE_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include "base/common.h"
#include "model/job.h"

/*
 * A command's arguments: options (--opt=val, --opt val, -opt=val) and
 * positional words.  With jobs (run), --name starts a new job and options
 * before the first --name are defaults for every job.
 */
/* Options as the user wrote them (fio's JSON echoes them verbatim): val NULL for a bare flag. */
struct kv {
	char *key, *val;
};
struct kv_list {
	struct kv *v;
	unsigned n;
};
void kv_push(struct kv_list *l, const char *key, size_t klen, const char *val);
void kv_free(struct kv_list *l);

/* Diagnostics found while parsing, printed by the command in order. */
enum { DIAG_WARN, DIAG_ERR, DIAG_UNSUPPORTED /* an error unless --warn-unsupported */ };
struct diag {
	int kind;
	char *text;
};

struct parsed_args {
	struct job *jobs;
	unsigned njobs;
	struct job global;
	struct settings settings;
	char **words; /* positional arguments */
	unsigned nwords;
	bool help;
	/* fio's echo: the global options and each job's own, as written (run). */
	struct kv_list global_echo;
	struct kv_list *echo; /* njobs entries */
	/* Command-line options for every job: applied again over each job file's values. */
	struct kv_list cli_global;
	/* Every command-line option as typed ("-size_small"), by its table name: messages name it so. */
	struct kv_list typed;
	struct diag *diags;
	unsigned ndiags;
	bool err_listed; /* the error in ig_err is one of diags: print the list, not it again */
	/*
	 * fio's --showcmd (cmds/fio.c): each job-file section (key NULL) and
	 * option (section NULL; val NULL for a bare flag) as read; NULL: none.
	 */
	void (*on_line)(void *arg, const char *section, const char *key, const char *val);
	void *on_line_arg;
};
struct command;
/* The command's defaults, then argv.  0, or -1 with e set (status 2). */
int args_parse(int argc, char **argv, const struct command *cmd, struct parsed_args *pa,
	       struct ig_err *e);
/* Options in one string ("--rw=read --bs=1m"), for suite cases and command defaults. */
int args_apply_string(const char *opts, unsigned groups, struct job *j, struct settings *s,
		      struct ig_err *e);
/* The same, as command cmd takes them: its groups and its own rows (owned rows are in no group). */
int args_apply_cmd_string(const char *opts, const struct command *cmd, struct job *j, struct settings *s,
			  struct ig_err *e);
/* A command's own defaults (its own rows', then cmd->defaults), its option names first. */
int args_apply_defaults(const struct command *cmd, struct job *j, struct settings *s,
			struct ig_err *e);
void args_free(struct parsed_args *pa);
/* How the user typed option NAME (the table's name) on the command line; NULL when not given. */
const char *args_typed(const struct parsed_args *pa, const char *name);
/*
 * After argv and the job files: unsupported fio options become warnings
 * (--warn-unsupported) or errors.  -1 with e set to the last error when there
 * is one (the command prints pa->diags, which hold it too).
 */
int args_finish(struct parsed_args *pa, struct ig_err *e);
/* Errors in pa->diags; the last one copied into e (err_listed): -1, or 0 if none. */
unsigned args_errors(const struct parsed_args *pa);
int args_take_error(struct parsed_args *pa, struct ig_err *e);
/* Print pa->diags on stderr, in order (command layer). */
void args_print_diags(const struct parsed_args *pa);

/* Shared by argv and job-file parsing (args.c). */
int args_push_job(struct parsed_args *pa, const char *name, const char *where, struct ig_err *e);
void args_diag(struct parsed_args *pa, int kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * One option by name as written (key, klen bytes) for the command's groups.
 * where: "" on the command line, "FILE:LINE: " in job files.  Unknown words,
 * fio options iogauge lacks, refusals and bad values go to pa->diags (-1);
 * echo, when not NULL, gets the option as written on success.
 */
int args_apply(struct parsed_args *pa, const struct command *cmd, const char *key, size_t klen,
	       const char *val, bool from_file, const char *where, struct job *j,
	       struct kv_list *echo);

/*
 * The job as it will run, before job_validate checks it (fio's
 * fixup_options): read_iolog's log loaded and the job fitted to it; a tree
 * read's engine; a file engine's job (filestat ...) made a --fileop job, a
 * --fileop job given the fileops engine; null at iodepth>1 made null_async;
 * a synchronous engine's iodepth 1; zonerange's default; pre_read clearing
 * invalidate.  Every change to a job is here.  0, or -1 with e set (status
 * 2): the iolog's refusals, which loading the log needs first.
 */
int job_normalise(struct job *j, struct ig_err *e);
/*
 * Combinations no single option can reject, in a job job_normalise has made
 * ready; changes nothing.  0, or -1 with e set (status 2).
 */
int job_validate(const struct job *j, struct ig_err *e);

#endif
