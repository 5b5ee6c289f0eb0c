/*
 * Report writers: results in, text or JSON out.  They never measure.  The
 * command layer calls them; they write to the streams they are given (and
 * report_errors to stderr).
 */
#ifndef IOGAUGE_REPORT_H
#define IOGAUGE_REPORT_H

#include <stdio.h>
#include <jansson.h>
#include "runner.h"

/* ---- text (text.c) */

/* fio-style text for `run`. */
void report_text(FILE *f, const struct run_result *r);
/* The refusal or the jobs' errors, one line each, and the notes, on stderr. */
void report_errors(const struct run_result *r);
/* What a job's numbers may include, in words: O_DIRECT, buffered, fallback. */
const char *report_io_mode(const struct job_result *jr);
/* "12.3", "1.23k" style figures for IOPS. */
const char *fmt_count(char *buf, size_t len, double v);

/* ---- JSON (json.c): the one schema, docs/json.md */

/*
 * The root every command's JSON starts from: {"iogauge": {"version",
 * "command"}, "status", "interrupted", "error"}.  Commands add their keys.
 */
json_t *json_root(const char *command, int status, bool interrupted, const struct ig_err *err);
/* "jobs", "groups", "devices" and "notes" of one run, added to o. */
void json_add_run(json_t *o, const struct run_result *r, unsigned groups);
json_t *json_job(const struct job_result *jr, unsigned groups);
json_t *json_devices(const struct run_result *r);
/* A latency object: samples, min, max, mean, stddev, sum, percentiles, histogram buckets. */
json_t *json_lat(const struct lat_stats *l, const double *pcts, unsigned npcts);
/* A JSON string of any bytes: non-UTF-8 bytes become "?" so the key is never lost. */
json_t *json_text(const char *s);
/* Integers as JSON integers, above INT64_MAX as reals: never negative. */
json_t *json_u64(uint64_t v);

/* ---- a run merged from several ranks (cluster.c) */

/* Ranks, hosts, clocks, the spread between ranks and what each had left. */
void report_cluster_text(FILE *f, const struct run_result *r);
/* Root "cluster" object. */
json_t *json_cluster(const struct run_result *r);
/* A merged job's "ranks_n", "rank_spread", "error_rank" and "ranks" (every rank's own job object). */
void json_job_ranks(json_t *o, const struct job_result *jr);

/* ---- reading saved results back (json_read.c) */

/*
 * A latency object written by json_lat into l (histogram included).  l must
 * be initialised (lat_init, or zeroed); what it held is freed.  0 or -1 with
 * e set.  Counts, min and max must agree with the buckets.
 */
int lat_from_json(const json_t *o, struct lat_stats *l, struct ig_err *e);

/* ---- outputs (output.c) */

struct settings;
struct outputs {
	FILE *out;  /* results: stdout or --output */
	FILE *json; /* --json FILE, or NULL */
	const char *out_name, *json_name;
};
/*
 * Open --output and --json before the run, so a bad path is a usage error and
 * not a lost result; the two naming one file is refused.  0 or -1 with e set.
 */
int outputs_open(struct outputs *o, const struct settings *s, struct ig_err *e);
/*
 * Write root as JSON where asked (stdout with --output-format=json, --json
 * FILE) and close the files.  Returns status, or 1 when it was 0 and a
 * write failed (with a message).
 */
int outputs_finish(struct outputs *o, const struct settings *s, json_t *root, int status);

#endif
