/* A job's verify options checked before any I/O: sizes a header fits in, combinations (verify.h). */
#include "base/common.h"
#include "model/job.h"
#include "model/job_names.h"
#include "model/pattern.h"
#include "run/verify_int.h"

/* The bytes a header takes: iogauge's, or fio's with the checksum after it (`iogauge fio`). */
static size_t hdr_bytes(const struct job *j)
{
	return j->plan.fio_verify ? verify_fio_hdr_size(j->verify) : sizeof(struct vhdr);
}

static int check_sizes(const struct job *j, struct ig_err *e)
{
	const char *n = j->name;
	uint64_t unit = pattern_unit(j), minbs = pattern_min_bs(j);
	size_t hb = hdr_bytes(j);
	if (j->verify != VERIFY_PATTERN && minbs < hb)
		return err_set(e, EXIT_USAGE, "job %s: --verify needs --bs of at least %zu bytes (each block carries a header)",
			       n, hb);
	if (j->verify != VERIFY_PATTERN && j->verify_interval && j->verify_interval < hb)
		return err_set(e, EXIT_USAGE, "job %s: --verify_interval needs at least %zu bytes (each piece carries a header)",
			       n, hb);
	if (j->bs_unaligned && pattern_wanted(j))
		return err_set(e, EXIT_USAGE, "job %s: --verify keeps track of whole blocks: drop --bs_unaligned", n);
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t a = j->blockalign[d];
		if (a && a != unit && rw_is_random(j->rw) && (minbs % a || a % unit))
			return err_set(e, EXIT_USAGE,
				       "job %s: --verify needs block sizes that are multiples of --blockalign", n);
	}
	return 0;
}

int verify_job_check(const struct job *j, struct ig_err *e)
{
	const char *n = j->name;
	if (!j->verify) {
		if (j->verify_only || j->verify_backlog)
			return err_set(e, EXIT_USAGE, "job %s: --%s needs --verify=ALGO", n,
				       j->verify_only ? "verify_only" : "verify_backlog");
		return 0;
	}
	if (j->fileop)
		return err_set(e, EXIT_USAGE, "job %s: --verify checks blocks; --fileop=%s has none", n,
			       fileop_names[j->fileop]);
	if (j->rewrite_pct)
		return err_set(e, EXIT_USAGE,
			       "job %s: --verify and --rewrite_pct do not go together (a rewritten block's expected state is not kept)", n);
	if (j->verify_only && !rw_writes(j->rw))
		return err_set(e, EXIT_USAGE,
			       "job %s: --verify_only replays what a writing job wrote, and --rw=%s writes nothing (a read job with --verify checks the blocks it reads)",
			       n, rw_names[j->rw]);
	if (j->verify == VERIFY_PATTERN && j->data.mode != DATA_PATTERN)
		return err_set(e, EXIT_USAGE, "job %s: --verify=pattern needs --verify_pattern (or --buffer_pattern, --data=pattern=...)", n);
	if (check_sizes(j, e))
		return -1;
	if (j->verify_only && j->time_based)
		return err_set(e, EXIT_USAGE,
			       "job %s: --verify_only replays a size-bound run; a --time_based run's writes cannot be known", n);
	if (j->verify_only && !j->randrepeat)
		return err_set(e, EXIT_USAGE,
			       "job %s: --verify_only replays the earlier run's random sequence: it needs --randrepeat=1", n);
	/* Without verify_only, the job writes again and checks what the earlier run had written (fio's). */
	if (j->verify_state_load && !rw_writes(j->rw))
		return err_set(e, EXIT_USAGE,
			       "job %s: --verify_state_load tells a writing job how far its earlier run wrote, and --rw=%s writes nothing",
			       n, rw_names[j->rw]);
	if (j->verify_state_load && !j->verify_only && (j->time_based || !j->randrepeat))
		return err_set(e, EXIT_USAGE,
			       "job %s: --verify_state_load checks the writes an earlier run made, the same again: it needs a size-bound job with --randrepeat=1",
			       n);
	return 0;
}
