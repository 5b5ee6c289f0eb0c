/*
 * Why iogauge refuses each fio option it does not build (fio_names.c lists
 * them; the option table lacks them): one reason a name, for the parser's
 * "unsupported fio option" line, `iogauge fio --cmdhelp` and docs/fio.md.
 * An option of fio engines iogauge does not have, and the act and tiobench
 * profiles' options, take their reason from fio_names' engines column.
 * tests/unit/test_options.c checks that every refused name has one.
 */
#include "model/engine.h"
#include "options/options.h"

#include <stdio.h>
#include <string.h>

#define ONE_PROCESS "iogauge runs every job as a thread of one process"
#define NO_HIST "iogauge's latency histograms are in its JSON (exact, mergeable); fio's histogram log format is not written"

static const struct {
	const char *name, *why;
} refused[] = {
	{ "allow_file_create", "iogauge creates the test files a job needs and removes them after the run; a job on files that must exist names them with --filename" },
	{ "allow_mounted_write", "writing to a mounted block device is always refused; a file on the mounted file system is the way to test it" },
	{ "atomic", "RWF_ATOMIC writes (Linux 6.11) are not sent by iogauge's engines" },
	{ "block_error_percentiles", "trim-block error histograms are not recorded" },
	{ "bs_is_seq_rand", "block sizes are per direction (bs=READ,WRITE,TRIM), not per sequential and random request" },
	{ "buffer_compress_chunk", "buffer_compress_percentage (--data compress=N%) lays out each block whole, one random and one repeated part" },
	{ "bwavgtime", "bandwidth statistics are taken over iogauge's one-second series, not a configurable window" },
	{ "cgroup", "iogauge does not create or join control groups: put the whole run in one (systemd-run, cgexec)" },
	{ "cgroup_nodelete", "iogauge does not create control groups (see cgroup)" },
	{ "cgroup_weight", "iogauge does not create control groups (see cgroup)" },
	{ "cmd_type", "an option of fio's io_uring_cmd engine (NVMe passthrough), which iogauge does not have" },
	{ "cmdprio_hint", "I/O priority hints (command duration limits) are not sent; cmdprio_class and cmdprio are" },
	{ "comm", ONE_PROCESS ": a job has no process name of its own" },
	{ "create_only", "iogauge lays out and then runs a job; a layout alone is a write job (rw=write)" },
	{ "end_syncfs", "end_fsync syncs each written file; syncfs(2) over the whole file system is not offered" },
	{ "exec_postrun", "iogauge runs no shell commands of a job file (a job file is data)" },
	{ "exec_prerun", "iogauge runs no shell commands of a job file (a job file is data)" },
	{ "exitall_on_error", "the first I/O error ends the run for every job (exit 1 with partial results)" },
	{ "file_append", "a job writes within its region; appending past a file's end is not offered" },
	{ "filetype", "iogauge stats each target to refuse devices that carry data; the stat cannot be skipped" },
	{ "force_async", "iogauge's io_uring engine leaves the kernel to choose inline or async issue (IOSQE_ASYNC is not set)" },
	{ "fsync_on_close", "end_fsync syncs each written file at the end; files are not closed and reopened during a job" },
	{ "gid", ONE_PROCESS ": a job cannot take a group of its own" },
	{ "hugepage-size", "buffers come from anonymous memory; huge-page backed buffers (mem=shmhuge, mmaphuge) are not offered" },
	{ "iomem", "buffers are aligned anonymous memory (fio's mem=malloc); shm, mmap files and huge pages are not offered" },
	{ "iomem_align", "buffers are aligned to the page (and to the device's direct-I/O alignment); another alignment is not offered" },
	{ "iopsavgtime", "IOPS statistics are taken over iogauge's one-second series, not a configurable window" },
	{ "ioscheduler", "iogauge does not change a device's I/O scheduler (a change to the system that outlives the run)" },
	{ "job_start_clock_id", "the JSON's job_start is CLOCK_REALTIME, fio's default; another clock is not offered" },
	{ "kb_base", "sizes are always read as fio's default kb_base=1024 (4k is 4096; 4ki is not accepted either)" },
	{ "libaio_vectored", "iogauge's libaio engine submits plain (non-vectored) reads and writes" },
	{ "lockfile", "requests of a job's threads are not serialized by a lock on the file" },
	{ "lockmem", "iogauge does not pin memory to shrink the page cache; a smaller cache is a cgroup's or the machine's" },
	{ "log_alternate_epoch", "log timestamps count from the job's start, as fio's default" },
	{ "log_alternate_epoch_clock_id", "log timestamps count from the job's start, as fio's default" },
	{ "log_compression", "logs are kept in memory and written plainly at the end" },
	{ "log_compression_cpus", "logs are not compressed (see log_compression)" },
	{ "log_hist_coarseness", NO_HIST },
	{ "log_hist_msec", NO_HIST },
	{ "log_store_compressed", "logs are written as text; fio's .fz compressed logs are not" },
	{ "log_unix_epoch", "log timestamps count from the job's start, as fio's default" },
	{ "max_latency", "a job does not end on one slow request; latency_target searches a depth under a target" },
	{ "mem", "buffers are aligned anonymous memory (fio's mem=malloc); shm, mmap files and huge pages are not offered" },
	{ "mem_align", "buffers are aligned to the page (and to the device's direct-I/O alignment); another alignment is not offered" },
	{ "merge_blktrace_file", "several blktrace traces are not merged into one; each job replays its own trace (read_iolog)" },
	{ "merge_blktrace_iters", "several blktrace traces are not merged (see merge_blktrace_file)" },
	{ "merge_blktrace_scalars", "several blktrace traces are not merged (see merge_blktrace_file); replay_time_scale scales one" },
	{ "nice", ONE_PROCESS ": a job cannot take a nice value of its own (run iogauge under nice)" },
	{ "nonvectored", "iogauge's io_uring engine sends plain reads and writes already (IORING_OP_READ, IORING_OP_WRITE)" },
	{ "opendir", "a job's files are named (filename, nrfiles) or made by iogauge; a directory's existing files are not opened" },
	{ "priohint", "I/O priority hints (command duration limits) are not sent; prio and prioclass are" },
	{ "profile", "fio's act and tiobench profiles are not built; iogauge's own suites (quick, mix, matrix, sweep, bonnie) are its profiles" },
	{ "ramp_size", "ramp_time ramps by time; a ramp by bytes is not offered" },
	{ "rate_cycle", "ratemin and rate_iops_min are checked over one-second windows (fio's default rate_cycle=1000)" },
	{ "rate_ignore_thinktime", "a rate-limited job with thinktime catches up after each think, fio's default" },
	{ "ratecycle", "ratemin and rate_iops_min are checked over one-second windows (fio's default rate_cycle=1000)" },
	{ "recover_zbd_write_error", "zonemode=zbd is refused" },
	{ "scramble_buffers", "iogauge refreshes every written block's data already (--data random), so no two blocks dedupe" },
	{ "softrandommap", "iogauge's random offsets need no map (a full-period permutation), so there is nothing to fall back from" },
	{ "spr_cs", "sprandom is not built (see sprandom)" },
	{ "spr_num_regions", "sprandom is not built (see sprandom)" },
	{ "spr_op", "sprandom is not built (see sprandom)" },
	{ "sprandom", "SSD preconditioning by fio's sprandom regions is not built; the steady suite preconditions and waits for steady state" },
	{ "sqthread_poll_cpu", "sqthread_poll's kernel thread runs where the kernel places it; pinning it to a CPU is not offered" },
	{ "ss_interval", "steady state is judged on one-second samples, fio's default steadystate_check_interval" },
	{ "stat_type", "the filestat engine times stat(2) only; statx and lstat are not offered" },
	{ "stats", "every job is measured and reported" },
	{ "steadystate_check_interval", "steady state is judged on one-second samples, fio's default" },
	{ "sync_file_range", "fsync and fdatasync every N writes are offered; sync_file_range(2) is not" },
	{ "thinkcycles", "thinktime waits a time; busy loops of a CPU cycle count are not offered" },
	{ "thinktime_blocks", "thinktime follows every request (fio's default thinktime_blocks=1)" },
	{ "thinktime_blocks_type", "thinktime follows every request (fio's default thinktime_blocks=1)" },
	{ "thinktime_iotime", "thinktime follows every request; a think after a time of I/O is not offered" },
	{ "thinktime_spin", "thinktime sleeps; spinning part of it is not offered" },
	{ "thp", "the mmap engine maps the file as it is; transparent huge pages for it are not offered" },
	{ "trim_backlog", "trims are a workload's (rw=trim, randtrim, trimwrite); verification does not trim its blocks" },
	{ "trim_backlog_batch", "trims are a workload's (rw=trim, randtrim, trimwrite); verification does not trim its blocks" },
	{ "trim_percentage", "trims are a workload's (rw=trim, randtrim, trimwrite); verification does not trim its blocks" },
	{ "trim_verify_zero", "verification checks written blocks; trimmed blocks are not read back for zeros" },
	{ "uid", ONE_PROCESS ": a job cannot take a user of its own" },
	{ "unified_rw_reporting", "reads, writes and trims are reported apart, each direction with its own figures" },
	{ "unit_base", "reports are in bytes (fio's unit_base=8); bits are not offered" },
	{ "unlink_each_loop", "test files are removed at the end of the run (or kept with --keep), not between loops" },
	{ "verify_header_seed", "iogauge's own header always has its seed checked; fio's (iogauge fio) is checked as fio 3.33 checks it, without" },
	{ "verify_offset", "the verification header sits at the start of each block (or verify_interval)" },
	{ "verify_pattern_interval", "verify_pattern fills each block whole; a pattern restarted every N bytes is not offered" },
	{ "verify_write_sequence", "iogauge's own header always has its write number checked (a stale block is found); fio's (iogauge fio) where fio 3.33 checks it" },
	{ "write_barrier", "barrier writes are gone from Linux (REQ_PREFLUSH and FUA replaced them); fsync or sync=dsync gives the ordering" },
	{ "write_hint", "write life-time hints (F_SET_RW_HINT) are not set" },
	{ "write_hist_log", NO_HIST },
	{ "write_zone_remainders", "zonemode=zbd is refused" },
};

const char *fio_name_why(const struct fio_name *fn, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (!strcmp(refused[i].name, fn->name))
			return refused[i].why;
	if (fn->engines && !strcmp(fn->engines, "profile")) {
		snprintf(buf, len, "an option of fio's act or tiobench profile, which iogauge does not build");
		return buf;
	}
	if (fn->engines) {
		/* Only where no engine of the list is iogauge's: the table above names the others. */
		char list[256];
		snprintf(list, sizeof(list), "%s", fn->engines);
		for (char *save, *e = strtok_r(list, ", ", &save); e; e = strtok_r(NULL, ", ", &save))
			if (engine_by_name(e))
				return NULL;
		snprintf(buf, len, "an option of fio's %s engine%s, which iogauge does not have", fn->engines,
			 strchr(fn->engines, ',') ? "s" : "");
		return buf;
	}
	return NULL;
}
