/* Verification results in the text report, on stderr and in the JSON. */
#include "base/common.h"
#include "report/report.h"
#include "run/verify.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

/* The file a bad block is in: each thread has its own files, or they share them. */
static const char *bad_file(const struct job_result *jr, const struct verify_bad *b)
{
	unsigned nf = jr->nfiles ? jr->nfiles : 1;
	unsigned i = jr->shared_files ? b->file : b->thread * nf + b->file;
	return jr->targets[i < jr->ntargets ? i : 0].path;
}

/* A bad block in words: fio's own lines for fio's headers (`iogauge fio`), else iogauge's. */
static void describe(const struct job_result *jr, const struct verify_bad *b, char *buf, size_t len)
{
	if (!verify_describe_fio(b, bad_file(jr, b), buf, len))
		verify_describe(b, buf, len);
}

static void kinds(const struct verify_stats *s, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < VK_NR && k < len; i++)
		if (s->by_kind[i])
			k += (size_t)snprintf(buf + k, len - k, "%s%s %" PRIu64, k ? ", " : "",
					      verify_kind_names[i], s->by_kind[i]);
}

void report_verify_text(FILE *f, const struct job_result *jr)
{
	const struct verify_stats *s = verify_stats(jr->verify);
	const struct job *j = &jr->job;
	char b1[32], what[PATH_MAX + 512];
	fprintf(f, "  verify       : %s, %s%" PRIu64 " blocks checked (%s)", verify_names[j->verify],
		j->verify_only ? "verify only: " : "", s->checked, fmt_bytes(b1, sizeof(b1), (double)s->bytes));
	if (!j->verify_only)
		fprintf(f, " of %" PRIu64 " written", s->written);
	/* The read-backs are the job's reads (fio's accounting), timed apart from its writes. */
	if (s->readbacks)
		fprintf(f, ", reading back took %.3f s (%" PRIu64 " reads, counted as reads)", (double)s->readback_ns / 1e9,
			s->readbacks);
	if (s->overlapped)
		fprintf(f, ", %" PRIu64 " reads met a write of their block in flight (not checked)",
			s->overlapped);
	if (!s->bad) {
		fprintf(f, ": no errors\n");
		return;
	}
	kinds(s, what, sizeof(what));
	fprintf(f, ": %" PRIu64 " bad (%s)\n", s->bad, what);
	for (unsigned i = 0; i < s->nkept; i++) {
		describe(jr, &s->list[i], what, sizeof(what));
		if (s->list[i].fio) /* fio's lines name the file and offset themselves */
			fprintf(f, "    %s\n", what);
		else
			fprintf(f, "    offset %" PRIu64 " of %s: %s\n", s->list[i].offset,
				bad_file(jr, &s->list[i]), what);
	}
	if (s->bad > s->nkept)
		fprintf(f, "    ... and %" PRIu64 " more bad blocks\n", s->bad - s->nkept);
}

bool report_verify_error(const struct job_result *jr, const char *name)
{
	if (!jr->verify || jr->total.err != EILSEQ || jr->total.err_op != ERR_OP_HOOK)
		return false;
	const struct verify_stats *s = verify_stats(jr->verify);
	if (!s->bad)
		return false;
	char what[PATH_MAX + 512];
	if (s->list[0].fio) {
		/* fio's own lines, on stderr as fio writes them: each bad block kept. */
		for (unsigned i = 0; i < s->nkept; i++) {
			describe(jr, &s->list[i], what, sizeof(what));
			fprintf(stderr, "%s\n", what);
		}
		if (s->bad > s->nkept)
			msg_err("job %s: ... and %" PRIu64 " more bad blocks", name, s->bad - s->nkept);
		return true;
	}
	verify_describe(&s->list[0], what, sizeof(what));
	msg_err("job %s: verify found %" PRIu64 " bad block%s of %" PRIu64 " checked; the first at offset %" PRIu64 " of %s: %s",
		name, s->bad, s->bad == 1 ? "" : "s", s->checked, s->list[0].offset,
		bad_file(jr, &s->list[0]), what);
	return true;
}

json_t *ig_json_verify(const struct job_result *jr)
{
	const struct verify_stats *s = verify_stats(jr->verify);
	json_t *o = json_object(), *list = json_array(), *k = json_object();
	json_object_set_new(o, "algorithm", json_string(verify_names[jr->job.verify]));
	json_object_set_new(o, "verify_only", json_boolean(jr->job.verify_only));
	json_object_set_new(o, "written_blocks", ig_json_u64(s->written));
	json_object_set_new(o, "checked_blocks", ig_json_u64(s->checked));
	json_object_set_new(o, "checked_bytes", ig_json_u64(s->bytes));
	json_object_set_new(o, "readback_ns", ig_json_u64(s->readback_ns));
	json_object_set_new(o, "readback_reads", ig_json_u64(s->readbacks));
	json_object_set_new(o, "bad_blocks", ig_json_u64(s->bad));
	json_object_set_new(o, "overlapped_reads", ig_json_u64(s->overlapped));
	json_object_set_new(o, "dumped_blocks", ig_json_u64(s->dumped));
	for (int i = 0; i < VK_NR; i++)
		if (s->by_kind[i])
			json_object_set_new(k, verify_kind_names[i], ig_json_u64(s->by_kind[i]));
	json_object_set_new(o, "bad_by_kind", k);
	for (unsigned i = 0; i < s->nkept; i++) {
		const struct verify_bad *b = &s->list[i];
		char what[PATH_MAX + 512];
		json_t *x = json_object();
		describe(jr, b, what, sizeof(what));
		json_object_set_new(x, "offset", ig_json_u64(b->offset));
		json_object_set_new(x, "file", ig_json_text(bad_file(jr, b)));
		json_object_set_new(x, "kind", json_string(verify_kind_names[b->kind]));
		json_object_set_new(x, "expected", ig_json_u64(b->expected));
		json_object_set_new(x, "found", ig_json_u64(b->found));
		json_object_set_new(x, "message", ig_json_text(what));
		json_array_append_new(list, x);
	}
	json_object_set_new(o, "bad", list);
	return o;
}

void short_text(const struct thread_stats *t, char *buf, size_t len)
{
	/* err_offset is the short request's own offset, as for any other error. */
	if (t->short_len)
		snprintf(buf, len, "short %s: %u of %u bytes at offset %llu", err_op_name(t->err_op), t->short_got,
			 t->short_len, (unsigned long long)t->err_offset);
	else /* a result saved before the lengths were kept */
		snprintf(buf, len, "short %s at offset %llu", err_op_name(t->err_op), (unsigned long long)t->err_offset);
}

const char *err_text(const struct thread_stats *t, char *buf, size_t len)
{
	if (t->err == EILSEQ && t->err_op == ERR_OP_HOOK)
		return "bad blocks found by --verify";
	if (t->err_op == ERR_OP_RATE)
		return "below the minimum rate (ratemin, rate_iops_min); offset holds the rate of that second";
	if (!t->short_io)
		return strerror(t->err);
	short_text(t, buf, len);
	return buf;
}
