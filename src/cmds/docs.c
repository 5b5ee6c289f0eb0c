/*
 * --help, the man page and docs/options.md, all generated from the option and
 * command tables.  The command table and iogauge fio's own section are handed
 * in by main.c (the command layer): nothing here looks the table up.
 */
#include "base/common.h"
#include "options/command.h"
#include "options/options.h"
#include "options/args.h"
#include "cmds/help.h"
#include "options/fio_engines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "--name=VALUES" as a command takes it (c NULL: as any command does, the man page's). */
static void option_synopsis(const struct opt_def *o, const struct command *c, char *buf, size_t len)
{
	char vals[256] = "";
	if (o->cmd_values) {
		o->cmd_values(c, vals, sizeof(vals));
	} else if (o->type == OT_ENUM) {
		size_t k = 0;
		for (unsigned i = 0; o->values[i] && k < sizeof(vals); i++)
			k += (size_t)snprintf(vals + k, sizeof(vals) - k, "%s%s", i ? "|" : "", o->values[i]);
	} else if (o->list_values) {
		o->list_values(vals, sizeof(vals));
	} else if (o->arg) {
		snprintf(vals, sizeof(vals), "%s", o->arg);
	}
	if (strlen(o->name) == 1) /* ioping's one-letter options, spelled as ioping users type them */
		snprintf(buf, len, "-%s%s%s", o->name, o->bare ? "" : " ", o->bare ? "" : vals);
	else if (o->type == OT_BOOL)
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
	if (args_apply_defaults(c, j, s, &e)) {
		msg_err("internal: defaults of %s: %s", c->name, e.msg);
		abort();
	}
	option_print(o, j, s, buf, len);
	/* Shown only where it is a value the option takes: "--size (default: 0)" would mislead. */
	char err[256];
	/* Another name for an echoed field says nothing new; ioping's letters are latency's own. */
	bool alias = o->flags & OPT_NO_ECHO && strlen(o->name) > 1;
	if (alias || o->flags & OPT_NO_EFFECT || ((o->type == OT_BOOL || o->bare) && !strcmp(buf, "0")) ||
	    option_apply(o, j, s, buf, err, sizeof(err)))
		buf[0] = 0;
	free(j);
	free(s);
}

/* "direct, dsync, sync" from an operand's allowed words. */
static void operand_words(const struct operand *op, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (unsigned i = 0; op->words && op->words[i] && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "", op->words[i]);
}

/* The description column of --help's lists. */
#define HELP_COLUMN 37

static void operands_help(FILE *f, const struct command *c, unsigned width)
{
	if (!c->operands)
		return;
	fprintf(f, "\nOperands:\n");
	for (const struct operand *op = c->operands; op->name; op++) {
		char syn[64], words[256], text[1024];
		snprintf(syn, sizeof(syn), "%s=%s", op->name, op->arg);
		operand_words(op, words, sizeof(words));
		snprintf(text, sizeof(text), "%s%s%s%s", op->help, words[0] ? " (" : "", words, words[0] ? ")" : "");
		help_item(f, width, HELP_COLUMN, syn, text);
	}
}

void options_help(FILE *f, const struct command *c)
{
	unsigned width = help_width();
	char line[4096];
	fprintf(f, "Usage: ");
	help_wrap(f, width, 7, 7, c->usage);
	fprintf(f, "\n");
	snprintf(line, sizeof(line), "%s.", c->summary);
	help_wrap(f, width, 0, 0, line);
	help_wrap(f, width, 0, 0, c->description);
	operands_help(f, c, width);
	fprintf(f, "\nOptions:\n");
	OPTIONS_EACH(o) {
		if (!option_takes(o, c))
			continue;
		char syn[300], def[512];
		option_synopsis(o, c, syn, sizeof(syn));
		cmd_default(c, o, def, sizeof(def));
		snprintf(line, sizeof(line), "%s%s%s%s", o->help, def[0] ? " (default:" HELP_NBSP_STR : "", def, def[0] ? ")" : "");
		help_item(f, width, HELP_COLUMN, syn, line);
	}
	fprintf(f, "\n");
	help_wrap(f, width, 0, 0, "Sizes take k, m, g, t, p (Ki, KB, KiB: 1024 too); times take ns, us, ms, s, m, h.");
	help_wrap(f, width, 0, 0,
		  "Exit status: 0 done, 1 an I/O error or disk full (partial results are printed), "
		  "2 a bad option or a refused target, 128+N after signal N.");
}

/* "quick, mix, run" and the defaults each gives: "1g (quick), 2g (mix)". */
static void per_command(const struct command *const *table, const struct opt_def *o, char *cmds, size_t clen,
			char *defs, size_t dlen)
{
	char first[512] = "", d[512];
	bool differ = false, any = false;
	size_t k = 0;
	cmds[0] = 0;
	for (unsigned i = 0; table[i]; i++) {
		if (!option_takes(o, table[i]))
			continue;
		k += (size_t)snprintf(cmds + k, clen > k ? clen - k : 0, "%s%s", k ? ", " : "", table[i]->name);
		cmd_default(table[i], o, d, sizeof(d));
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
	for (unsigned i = 0; table[i]; i++) {
		if (!option_takes(o, table[i]))
			continue;
		cmd_default(table[i], o, d, sizeof(d));
		k += (size_t)snprintf(defs + k, dlen > k ? dlen - k : 0, "%s%s (%s)", k ? ", " : "",
				      d[0] ? d : "none", table[i]->name);
	}
}

/*
 * roff needs '-' and '\' escaped.  A ':', '|' or ',' inside a word may end
 * a line (\:, a break point): "1:5:10:...:99.99" and "--rw=read|write|..."
 * are wider than a narrow terminal, and troff warns when it cannot break one.
 */
static void roff(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == '-' || *p == '\\')
			fputc('\\', f);
		fputc(*p, f);
		if (strchr(":|,", *p) && p > s && p[-1] != ' ' && p[1] && p[1] != ' ')
			fputs("\\:", f);
	}
}

void options_man(FILE *f, const struct command *const *table)
{
	fprintf(f, ".TH IOGAUGE 1 \"\" \"iogauge %s\" \"User Commands\"\n", IOGAUGE_VERSION);
	/* Ragged right: a line of one long option cannot be spread to the margin (troff would warn). */
	fprintf(f, ".ad l\n");
	fprintf(f, ".SH NAME\niogauge \\- an honest storage benchmark\n.SH SYNOPSIS\n");
	for (unsigned i = 0; table[i]; i++) {
		fprintf(f, ".B ");
		roff(f, table[i]->usage);
		fprintf(f, "\n.br\n");
	}
	fprintf(f, ".SH DESCRIPTION\niogauge measures files and block devices and says what it measured: "
		   "O_DIRECT by default in its suites, real random data laid out before reads, the page "
		   "cache and device counters reported beside the figures. It never writes to a device that "
		   "carries data without \\fB\\-\\-allow\\-destroy\\fR, nor into a file it did not create "
		   "without \\fB\\-\\-allow\\-overwrite\\fR.\n.SH COMMANDS\n");
	for (unsigned i = 0; table[i]; i++) {
		fprintf(f, ".TP\n.B %s\n", table[i]->name);
		roff(f, table[i]->summary);
		fprintf(f, ". ");
		roff(f, table[i]->description);
		fprintf(f, "\n");
		for (const struct operand *op = table[i]->operands; op && op->name; op++) {
			char words[256];
			operand_words(op, words, sizeof(words));
			fprintf(f, ".RS\n.TP\n.BI ");
			roff(f, op->name);
			fprintf(f, "= ");
			roff(f, op->arg);
			fprintf(f, "\n");
			roff(f, op->help);
			if (words[0]) {
				fprintf(f, " (");
				roff(f, words);
				fprintf(f, ")");
			}
			fprintf(f, "\n.RE\n");
		}
	}
	fprintf(f, ".SH OPTIONS\n");
	OPTIONS_EACH(o) {
		char syn[300], cmds[256], defs[1024];
		option_synopsis(o, NULL, syn, sizeof(syn));
		per_command(table, o, cmds, sizeof(cmds), defs, sizeof(defs));
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

void options_markdown(FILE *f, const struct command *const *table)
{
	fprintf(f, "# iogauge options\n\nGenerated by `iogauge --help-markdown` from the option and "
		   "command tables (src/options/options.c, src/cmds/commands.c); do not edit by hand.\n\n## Commands\n\n");
	for (unsigned i = 0; table[i]; i++) {
		fprintf(f, "- `%s`: %s. %s\n", table[i]->usage, table[i]->summary,
			table[i]->description);
		for (const struct operand *op = table[i]->operands; op && op->name; op++) {
			char words[256];
			operand_words(op, words, sizeof(words));
			fprintf(f, "  - `%s=%s`: %s%s%s%s\n", op->name, op->arg, op->help, words[0] ? " (" : "",
				words, words[0] ? ")" : "");
		}
	}
	fprintf(f, "\n## Options\n\n| option | default | commands | meaning |\n| --- | --- | --- | --- |\n");
	OPTIONS_EACH(o) {
		char syn[300], cmds[256], defs[1024];
		option_synopsis(o, NULL, syn, sizeof(syn));
		per_command(table, o, cmds, sizeof(cmds), defs, sizeof(defs));
		fprintf(f, "| `");
		for (const char *p = syn; *p; p++)
			fprintf(f, *p == '|' ? "\\|" : "%c", *p);
		fprintf(f, "` | %s | %s | %s%s |\n", defs, cmds, o->help,
			o->flags & OPT_CLI_ONLY ? " (refused in job files)" : "");
	}
	fprintf(f, "\nSizes take k, m, g, t, p suffixes; k, Ki, KB and KiB all mean 1024 (docs/fio.md: fio reads KiB as 1000). "
		   "Times take ns, us, ms, s, m, h; a bare number is in the unit the option names.\n");
}

/* fio's own spelling of an option's value form, for the tables. */
static void fio_synopsis(const struct opt_def *o, char *buf, size_t len)
{
	option_synopsis(o, NULL, buf, len);
	/* "--bs=SIZE" -> "bs=SIZE": job-file form, as fio's HOWTO writes it. */
	memmove(buf, buf + 2, strlen(buf + 2) + 1);
}

static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++)
		fprintf(f, *s == '|' ? "\\|" : "%c", *s);
}

/* Differences that are not one option's: job-file syntax, command line, reports. */
static const char *const fio_differences[] = {
	"**Command line over job file.** `iogauge run --size=64m --runtime=5 job.fio` runs the file's "
	"jobs with those values: options before the first `--name` override the file's `[global]` and "
	"job sections. (fio 3.33 does the opposite: there the job file's values win over the command "
	"line's, and `iogauge fio` reads it so.)",
	"**Size suffixes.** `k`, `ki`, `KB`, `KiB` all mean 1024 (and `m`, `g`, `t`, `p` likewise). "
	"fio 3.33 reads the IEC spellings with a trailing B (`4KiB`, `1MiB`) as powers of 1000: `iogauge "
	"run` does not copy that trap; `iogauge fio` does, for fio's job files.",
	"**Blank after `=`.** `size= 64k` is 64 KiB here; fio 3.33 keeps the blank and reads 64 bytes.",
	"**Variables.** `${VAR}` and `$VAR` are both expanded from the environment (fio 3.33 expands "
	"only `${VAR}`); an unset variable is an error naming it, not an empty value. `$pagesize`, "
	"`$ncpus` and `$mb_memory` make the value integer arithmetic (`+ - * / %` and parentheses), "
	"as fio's keyword math does. `$jobname`, `$jobnum`, `$filenum` and `$clientuid` are left for "
	"`filename_format`. `iogauge fio` reads them as fio: `${VAR}` only, an unset one empty.",
	"**Unsupported options are named.** Every option of a job file (or the command line) that "
	"fio has and iogauge does not is listed, one line each (`FILE:LINE: unsupported fio option "
	"'X'`), and the run stops with status 2 before any I/O; `--warn-unsupported` makes them "
	"warnings. A word fio does not know either is an error in any case.",
	"**Threads.** Jobs always run as threads of one process (`thread` is accepted and changes "
	"nothing; so is `threads`, which fio 3.33 takes as its tiobench profile's option).",
	"**Random offsets.** A uniform random job of one block size takes its offsets from iogauge's "
	"own generator (a full-period permutation: every block exactly once per pass unless "
	"`norandommap`), not fio's: the same `randseed` gives other offsets. A uniform random job of "
	"several sizes (`bsrange`, `bssplit`) draws fio's offsets (tausworthe seeded as fio seeds it, "
	"fio's random map: a taken block gives the next free one, a request running into taken blocks "
	"is cut there), so it issues fio's very requests. `random_generator=lfsr` and the zipf, pareto "
	"and normal distributions use iogauge's generators; the zoned ones (`zoned`, `zoned_abs`) do with one "
	"block size and draw fio's zones and offsets with several (JESD219's mix issues fio's very "
	"requests).",
	"**The same requests as fio.** Which direction a mixed job takes next (fio's rwmix cycle) and "
	"how long each request is (`bsrange`, `bssplit`) are drawn with fio's own generator and "
	"seeds (`randseed`, the thread's number in the run), and each loop of a size-bound job starts "
	"them over as fio does: a size-bound job issues as many reads and writes, of the same sizes, "
	"as fio 3.33 (tests/e2e/test_fio_files.sh runs a job of each kind of fio's examples/ under "
	"both, tests/e2e/test_fio_verify.sh bssplit and bsrange randrw jobs whose directions differ, "
	"where fio draws each direction's random blocks in its own units and ends a loop when a block "
	"falls beyond the region). As fio's do_io, a job issues (`io_size` or `size`) x `loops` bytes "
	"in all, in loops that end where fio's next draw fails (the random map full, a sequential "
	"walk at the region's end, for a mixed one the drawn direction's; a random job without a map "
	"runs one loop of them all), then more loops while `loops` or `io_size` last: `size=3m "
	"io_size=4m` moves 4 MiB. Exception: a mixed sequential job (`rw=rw`) of one block size moves "
	"one position for both directions, where fio keeps one per direction (the same counts in one "
	"loop, other offsets; with `loops` > 1 fio's first loop runs on until one direction reaches the "
	"end, so the split differs a little).",
	"**Verification.** As fio: what each loop wrote is read back at its end (and `verify_backlog` "
	"blocks along the way), through the job's engine, and those reads are the job's reads "
	"(`rw=write verify=md5 size=100m` reports 100 MiB read and 100 MiB written; the read rate is "
	"over the verify phases, whose time iogauge also reports apart as `verify_ns`). A job that only "
	"reads (`rw=read verify=crc32c`) checks each block against the header an earlier run (iogauge's "
	"or fio's) with the same `verify` wrote there. A file iogauge lays out itself for a job that verifies (one "
	"that does not exist yet, as after a write run without `--keep`, or the holes of a file with "
	"`--allow-overwrite`) is laid out in the job's own blocks, each as the job's write of it would "
	"be (its data and its header of the job's `verify` kind, or its pattern), so a reader checks "
	"real headers and finds none bad; fio 3.33 lays such a file out with plain data and then "
	"reports a bad magic header at its first block. A reader whose blocks cannot be laid out so "
	"(reads of several sizes without a `verify_interval` that divides them all, a `%o` pattern "
	"with several sizes) is refused before any I/O, and so is one that would read blocks an "
	"earlier job of the same run laid out without its headers; a file iogauge did not lay out "
	"is checked as it is. **The headers are fio's own** under `iogauge fio`: fio 3.33's 40 bytes "
	"(magic 0xacca, verify_type, len, rand_seed, offset, time, thread, numberio, a crc32c of the "
	"header) and fio's checksum after them (crc32c for `crc32c` and `crc32c-intel`, xxhash as fio's "
	"XXH32, md5, fio's own sha256 with its 64-byte field; `meta` none), so `fio --verify_only` "
	"passes what `iogauge fio` wrote and `iogauge fio --verify_only` passes what fio wrote, for "
	"every verify type and `verify_interval`, `numjobs`, several files (tests/e2e/test_fio_vheader.sh). "
	"A block is checked in fio's order (magic, length, offset, the write number where fio checks it: "
	"a writer of one block size, size-bound, not `verify_only`; the header's crc; the checksum of "
	"the data after the header the block carries) and each bad one is named in fio's words, on "
	"stderr as fio writes them (`verify: bad header offset 0, wanted 8192 at file f offset 8192, "
	"length 4096 (requested block: offset=8192, length=4096)`, `crc32c: verify failed at file ...` "
	"with its Expected and Received CRC), `err=84` in the job's line and JSON; fio's io_u `flags=` "
	"are not printed. Like fio 3.33, the header's rand_seed and thread are not compared. `iogauge run` "
	"writes iogauge's own, richer header (offset, length, the job's seed, thread, a 64-bit write "
	"number, the checksum of the whole block), which also finds another job's or run's block and a "
	"lost write under `verify_only`; either command reads both kinds. Each bad block is named with "
	"its offset and kind (corrupt, misplaced, lost write, ...); `verify_fatal=0` goes on checking and "
	"lists them all (ten in full) where fio stops at the first. A job verifies across all its files "
	"(`nrfiles`, a `filename` list), each block read back from its own file. "
	"`verify=pattern` writes and checks the pattern alone; `verify_pattern` with no `verify` is a "
	"header (`meta`) with the pattern after it, as fio's. Patterns take fio's syntax, pieces one "
	"after another: `\"text\"`, `0xHEX` (`0xff0x14` is two numbers), decimals from INT_MIN to "
	"INT_MAX laid little-endian in as few bytes as they need (`-12` is f4 ff ff ff; a decimal runs "
	"up to the next `0x`: `\"abcd\"-120xdeadface` is -12 then 0xdeadface), `'FILE'` (its first "
	"bytes) and, in `verify_pattern`, `%o` (each block's offset, 8 bytes). `verify_state_save` "
	"writes fio's binary file under `iogauge fio` (fio loads it) and iogauge's own text under "
	"`run`, under fio's name (`local-JOBNAME-N-verify.state`); `verify_state_load` reads either. "
	"A state file only says how many writes were made and where the last ones went: across the "
	"two tools it names the same blocks for a sequential job, not for a random job of one block "
	"size that stopped early (iogauge draws other offsets); "
	"`verify_state_load` without `verify_only` runs the job again and its verify, each loop's, "
	"checks as many of the loop's writes as the earlier run made (of its last ones, those that "
	"completed), as fio (in offset order, where fio reads them in the order written). A queue "
	"deeper than `verify_backlog` reads each block back once, in batches as fio's (a batch that "
	"leaves a whole multiple of the backlog waiting is followed by another). An "
	"`io_size` larger than `size` is more loops of `size` bytes, as fio runs them, and a verifying "
	"writer's read-backs count toward it (`size=1m io_size=2m rw=randwrite verify=crc32c` writes "
	"1 MiB and reads it back). Not the same as fio: a random job of one block size with "
	"`norandommap` (other offsets, so other blocks overwritten and read back).",
	"**Logs.** `write_bw_log`, `write_iops_log` and `write_lat_log` (`_lat`, `_clat`, `_slat`) "
	"write fio's files (`NAME_bw.X.log`, X the thread's number in the run; `NAME_bw.log` with "
	"`per_job_logs=0`; a bare option in a job file: NAME is the job's name) in fio 3.33's lines "
	"(`time_ms, value, direction, size[, offset], prio`): a line per request, or per direction per "
	"`log_avg_msec` window (bandwidth in KiB/s and IOPS over the window, latencies in ns averaged "
	"in it). The files are written after the run (fio: when each job ends); a per-request log "
	"keeps the first 4,194,304 requests of a thread (a note says when it stopped); the last "
	"column is 1 for a real-time request (`prioclass=1`, or drawn by `cmdprio_percentage`) and "
	"0 otherwise, or with `log_prio=1` the request's whole ioprio as fio prints it (`0x2000`: "
	"real-time 0; averaged lines 0); averaged latency lines carry the window's end as their time "
	"(fio: the first completion after it). Of fio's current HOWTO, newer than 3.33: "
	"`log_window_value=max` (fio 3.33's `log_max_value=1`) logs each window's largest latency, "
	"`both` its average and its largest (`time_ms, avg, max, direction, ...`; a bandwidth or IOPS "
	"window's rate twice, one sample a window), and `log_issue_time=1` ends each line with the "
	"request's issue time in ns (clat and slat logs; 0 in the others and in windowed lines; with "
	"`write_lat_log` it needs `log_offset`, as fio). `log_prio` gives fio's column with every "
	"engine both have (tests/e2e/test_fio_today.sh). `write_hist_log`, `log_unix_epoch` and "
	"`log_compression` are not supported (the table below says why).",
	"**Replay.** `read_iolog` replays fio's iologs (version 2 and 3) and blktrace binary traces "
	"onto the job's files: a log naming several files replays each request onto the job's file of "
	"that name (`--filename=A:B`), `replay_redirect` sends them all to one, and "
	"`read_iolog=A:B` with `numjobs` gives each clone its log as fio does (clone k, by fio's "
	"subjob number, the log k, round the list). A request longer than the kernel moves in one "
	"call (2 GiB - 4 KiB) reaches the device as it does under fio, which sends the rest again "
	"when the kernel stops: the same calls and bytes on the device, but iogauge counts the bytes "
	"moved where fio counts the cut request by its last piece (a 2 GiB read: fio's `io_bytes` "
	"4 KiB). `write_iolog` logs the verify reads among the writes, as fio's "
	"(tests/e2e/test_fio_replay.sh, test_fio_today.sh).",
	"**Per-command priorities.** `cmdprio_percentage=R[,W]`, `cmdprio_class`, `cmdprio` and "
	"`cmdprio_bssplit` (io_uring: `sqe->ioprio`; libaio: `IOCB_FLAG_IOPRIO` and `aio_reqprio`) "
	"choose the requests with fio's own random stream of the job's seed, so the same requests as "
	"fio's get the priority (tests/e2e/test_fio_cmdprio.sh compares strace's iocbs and the "
	"kernel's `block_rq_issue` with fio's). fio-json then has fio's `prios` array in `read` and "
	"`write` (`prioclass`, `prio`, `clat_ns`, or `lat_ns` with `lat_percentiles`) when two or "
	"more priorities have samples, the text report fio's `clat prio C/L` lines, and iogauge's "
	"JSON a `prios` array per direction. Other engines refuse the options by name, as fio does. "
	"`hipri_percentage` (pvsync2 with `hipri`) sets `RWF_HIPRI` on the requests fio's stream "
	"draws. A real-time class needs root (CAP_SYS_ADMIN or CAP_SYS_NICE): the kernel refuses "
	"the request (EPERM) otherwise.",
	"**Files.** fio's names (`JOBNAME.JOBNUM.FILENUM`, `filename_format`, a `:` list in `filename`, "
	"relative to `directory`), `nrfiles` with `file_service_type` roundrobin, sequential or random "
	"(`:N`), `filesize` and `io_size` as fio reads them; a `filesize` range draws fio's sizes "
	"(fio's file-size stream of `randseed` and the thread's number; fio keeps an existing file "
	"whose size is already in the range, iogauge draws for it too). iogauge writes real data "
	"before the run (never timed) into the parts of every file it creates that the job's threads "
	"read or write, and into the holes of those parts of a file it may write; it never writes "
	"between them (threads `offset_increment` apart, the skips of strided zones): a new file is "
	"as long as fio's, and what lies between the parts stays a hole, where fio writes the whole "
	"file. `fallocate`, `create_on_open` and `overwrite` change nothing of it, and the files are "
	"removed at the end unless `--keep`. As fio, a job may name the kernel's `/dev/null`, "
	"`/dev/zero` or `/dev/full` as its file (with a `size`; fio's examples/steadystate.fio): "
	"nothing is laid out, writes go nowhere (`/dev/full`'s fail with ENOSPC), reads of "
	"`/dev/zero` are zeros and of `/dev/null` end at once (EIO, as fio's); no other character "
	"device. With `create_serialize=0` a job of no size whose file an earlier stonewall group "
	"writes is set up when its group starts, as fio sets a job's files up in its own thread then: "
	"a reader after a `fill_device` writer covers what the writer left (examples/surface-scan.fio).",
	"**Percentages.** `size`, `offset`, `offset_increment` and `io_size` take fio's `N%` (a "
	"whole number from 1 to 100) of each file's or device's size (its `stat` size, a device's "
	"BLKGETSIZE64), known when the run starts, as fio 3.33 makes them for each thread: the "
	"offset, `offset` + thread x `offset_increment`, is rounded up to `offset_align` (default: "
	"the smallest block size of any direction, used or not); a percentage `size` is N% of the "
	"whole file, no more than lies past that offset, rounded down to that block size (100%, or no "
	"`size`: all that lies past the offset); `io_size=N%` is N% of the thread's regions, the "
	"last block issued whole. Each thread rounds its own offset (with `numjobs=4 "
	"offset_increment=10%` of 64 MiB the fourth starts at 20135936, not 3 x 6713344), and a "
	"region the end of the file cuts is that thread's alone (`size=25% offset_increment=25%` on "
	"a device whose quarters are not whole blocks: the last thread does a block less); with a "
	"`:` list or `nrfiles` each file has its own. The JSON echoes `\"50%\"` as written (fio-json's "
	"job options, iogauge's `options`) and says what it came to (`region`). Refused, in one "
	"line: a percentage of a file that does not exist or is empty (fio 3.33 fails `size=50%` "
	"there, and takes `offset=10%` of it as 0), `0%` (fio: no value), above 100% (fio fails "
	"its layout), fractions (fio reads `12.5%` as 12 bytes), `-5%` (fio: 5%), a percentage with "
	"`filesize`, `fill_device`, `read_iolog`, file operations, the null engine's region and in "
	"a suite; `zonesize`, `zonerange` and `zoneskip` take none (fio 3.33 parses `10%` there and "
	"uses 2^64-11 bytes). Writes to a device still need `--allow-destroy` where it carries data "
	"(tests/e2e/test_fio_percent.sh compares each with fio).",
	"**Trims and engines.** `rw=trim`, `randtrim`, `trimwrite` (each block trimmed, then "
	"written) and `randtrimwrite` discard blocks of a device (BLKDISCARD, only where the device "
	"may be written: `--allow-destroy` for one that carries data, never a mounted one) and punch "
	"holes in a file (fio 3.33 fails trims on files); every engine does them synchronously, as "
	"fio does, and fio-json's `trim` direction counts them. `bs=R,W,T` gives the trims their own "
	"size. `ioengine=null` is synchronous at `iodepth=1` and queues above it, as fio's, and "
	"`filesize` alone sizes it. `vsync`, `pvsync` and `pvsync2` make each request one vector of "
	"`readv`/`preadv`/`preadv2` (fio's vsync, at an `iodepth` above 1, joins adjacent requests in "
	"one call; iogauge's are synchronous, one at a time). `posixaio` is glibc's POSIX AIO; `falloc` preallocates (reads), "
	"allocates (writes) and punches (trims), `ftruncate` sets the size to each write's offset: "
	"both work on files that are not laid out first (a reader's is). `filecreate`, `filestat`, "
	"`filedelete` (and `dircreate`, `dirstat`, `dirdelete`, newer than fio 3.33) time one file "
	"operation per file, in a tree under `DIRECTORY/JOBNAME.0.0`, as fio's: fio's block loop over "
	"the `nrfiles` files with no I/O done, whose `size`, `io_size`, `loops`, rwmix and "
	"`file_service_type` decide the files operated on (a file's operation is its open, when the "
	"loop first reaches it, again each loop) and what fio-json counts: the requests in each "
	"direction (a block past a file's end is not sent), the operations' latency as their clat. "
	"`filecreate` opens its files again each loop; `filedelete` and the directory engines refuse "
	"a second pass (fio fails it, ENOENT). Not the same as fio: a `filesize` under `bs` "
	"(`filecreate` in fio counts a block for some files), random file service under a `size` "
	"smaller than the files (other files reached). `zonemode=strided` walks fio's zones "
	"(`zonesize`, `zonerange`, `zoneskip`), a zone the region's end cuts short as far as it goes, back to the region's start at "
	"the region's end (fio 3.33 goes back at the file's end: on a file or device larger than "
	"`offset` + `size` it walks its zones on past the region, and writes there); `zonemode=zbd` "
	"is refused.",
	"**Run control.** `stonewall`/`wait_for_previous`, `new_group`, `wait_for` (a job before it), "
	"`startdelay` (a range draws a random delay), `exitall` with `exit_what` (as fio's: one job's "
	"`exitall` makes every thread's end stop its job's `exit_what` jobs: the reporting group, the "
	"jobs started before the next stonewall, or all, later ones listed with nothing done), `ratemin` and "
	"`rate_iops_min` (checked every second, fio's `rate_cycle`), `rate_process=poisson`; `rate` and "
	"`rate_iops` hold each request back until its time at any `iodepth`, as fio's rate_ddir. "
	"`io_submit_mode=offload`: a pool of `iodepth` threads per job thread, each with its own "
	"engine context, so `psync` has up to `iodepth` requests in flight (fio 3.33's own offload "
	"hangs on the machines iogauge is tested on; its inline run draws the same requests).",
	"**Files iogauge did not create** are never written without `--allow-overwrite`, and block "
	"devices that carry data never without `--allow-destroy`; a job file gives neither. A "
	"script that calls `fio` (iogauge installed as fio) cannot add iogauge's option and may "
	"set `" ALLOW_OVERWRITE_ENV "=1` in the environment instead, for every command (`0` or empty: "
	"not given; another value is an error, status 2). `--allow-destroy` has no such variable: "
	"the command line alone gives it.",
	NULL,
};

void options_fio_markdown(FILE *f, void (*cli_markdown)(FILE *f))
{
	fprintf(f, "# fio compatibility\n\nGenerated by `iogauge --help-fio-markdown` from the option "
		   "table (src/options/options.c) and the list of fio's option names (src/options/fio_names.c, read from "
		   "fio 3.33 itself and from fio's current HOWTO by scripts/fio-option-names.sh); do not edit by hand.\n\n"
		   "`iogauge run` takes fio's options on the command line (`--rw=randread`) and fio's job "
		   "files: `[global]` and `[job]` sections, `key=value` and bare flags, `;` and `#` "
		   "comments (also after a value), `include FILE` (relative to the including file), "
		   "`$VAR`/`${VAR}` and fio's `$pagesize`, `$ncpus`, `$mb_memory`.\n\n"
		   "## Differences from fio\n\n");
	for (unsigned i = 0; fio_differences[i]; i++)
		fprintf(f, "- %s\n", fio_differences[i]);
	fprintf(f, "\n");
	cli_markdown(f);
	fio_engines_markdown(f);
	unsigned n = 0, nop = 0, un = 0;
	fprintf(f, "## Supported fio options\n\n| option | meaning in iogauge | difference from fio |\n"
		   "| --- | --- | --- |\n");
	for (const struct fio_name *fn = fio_names; fn->name; fn++) {
		const struct opt_def *o = option_find(fn->name);
		if (!o || (o->flags & OPT_NO_EFFECT))
			continue;
		char syn[300];
		fio_synopsis(o, syn, sizeof(syn));
		fprintf(f, "| `%s`", fn->name);
		if (strcmp(fn->name, o->name))
			fprintf(f, " (`%s`)", o->name);
		fprintf(f, " | ");
		md_cell(f, o->help);
		fprintf(f, " | ");
		md_cell(f, o->fio ? o->fio : "");
		fprintf(f, " |\n");
		n++;
	}
	fprintf(f, "\n%u options.\n\n## Accepted, no effect\n\nTaken and echoed in `fio-json`'s "
		   "`job options`; they change nothing measured.\n\n| option | why |\n| --- | --- |\n", n);
	for (const struct fio_name *fn = fio_names; fn->name; fn++) {
		const struct opt_def *o = option_find(fn->name);
		if (!o || !(o->flags & OPT_NO_EFFECT))
			continue;
		fprintf(f, "| `%s` | ", fn->name);
		md_cell(f, o->help);
		fprintf(f, " |\n");
		nop++;
	}
	fprintf(f, "\n%u options.\n\n## Not supported\n\nNamed as `unsupported fio option` with the reason "
		   "(status 2, or a warning with `--warn-unsupported`); the reasons are the table of "
		   "src/options/fio_refused.c. \"newer\": an option of fio's current HOWTO that fio 3.33 does not "
		   "have.\n\n| option | another name for | engines | why | |\n| --- | --- | --- | --- | --- |\n", nop);
	for (const struct fio_name *fn = fio_names; fn->name; fn++) {
		if (option_find(fn->name))
			continue;
		char wbuf[256];
		const char *why = fio_name_why(fn, wbuf, sizeof(wbuf));
		fprintf(f, "| `%s` | %s | %s | ", fn->name, fn->alias_of ? fn->alias_of : "",
			fn->engines ? fn->engines : "");
		md_cell(f, why ? why : "");
		fprintf(f, " | %s |\n", fn->newer ? "newer" : "");
		un++;
	}
	fprintf(f, "\n%u options.\n", un);
}
