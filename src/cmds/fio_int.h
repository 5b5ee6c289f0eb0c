/*
 * The fio command's own parts, shared by its files (fio.c: the jobs and the
 * command; fio_cli.c: fio's program options; fio_out.c: its progress line
 * and bandwidth logs); not for others.
 */
#ifndef IOGAUGE_CMDS_FIO_INT_H
#define IOGAUGE_CMDS_FIO_INT_H

#include <stdbool.h>
#include <stdint.h>

struct command;
struct run_live;
struct run_result;

enum { ETA_AUTO, ETA_ALWAYS, ETA_NEVER };

/* What fio's program options asked for. */
struct fio_cli {
	unsigned formats;     /* 1 << enum out_format; 0: normal */
	const char *output;
	const char **sections;
	unsigned nsections;
	bool parse_only, showcmd, readonly, bw_log, warnings_fatal;
	int eta;
	uint64_t eta_interval_ns, eta_newline_ns;
	char **rest; /* job options and job files, for args_parse */
	int nrest;
	char **owned; /* words made here (rest points at them) */
	unsigned nowned;
};

/* The command's name in messages: "iogauge fio", or "fio" when called as fio (fio_main_as_fio). */
extern const char *fio_prog;
/*
 * fio's program options out of argv; the rest (job options, job files) in
 * cli->rest, in order.  *exit_now >= 0: done (--version, --help...), exit with it.
 */
int fio_parse_cli(const struct command *cmd, int argc, char **argv, struct fio_cli *cli, int *exit_now);
void fio_cli_free(struct fio_cli *cli);
/* An error of fio's command line: one line, status 2. */
int fio_usage_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* --help */
void fio_cli_help(void);

/* fio's progress line, on stdout as fio draws it (run_present's progress and progress_end). */
struct fio_eta {
	const struct fio_cli *cli;
	uint64_t last_ns, line_ns;
	bool shown;
};
void fio_eta_draw(void *arg, const struct run_live *l);
void fio_eta_end(void *arg);
/* --bandwidth-log: agg-read_bw.log, agg-write_bw.log, agg-trim_bw.log (run_present's after). */
int fio_agg_logs(void *arg, const struct run_result *r);

#endif
