/* Report writers: results in, text or JSON out.  They never measure. */
#ifndef IOGAUGE_REPORT_H
#define IOGAUGE_REPORT_H

#include <stdio.h>
#include <jansson.h>
#include "runner.h"

/* fio-style text for `run`. */
void report_text(FILE *f, const struct run_result *r);
/* Errors of failed jobs, one line each, on stderr. */
void report_errors(const struct run_result *r);

/* The one JSON schema (docs/json.md): {"iogauge":..., "jobs":[...], "devices":[...]}. */
json_t *report_json(const struct run_result *r, const char *command);
/* The object every command's JSON starts from: {"iogauge": {"version", "command"}}. */
json_t *json_root(const char *command);
json_t *json_thread_stats(const struct thread_stats *t, const struct job *j);
json_t *json_devices(const struct run_result *r);
/* A JSON string of any bytes: non-UTF-8 bytes become "?" so the key is never lost. */
json_t *json_text(const char *s);
/* Write to path ("" or "-": stdout); 0 or -1 with a message. */
int report_json_write(json_t *root, const char *path);

/* Honest labels shared by text writers: what a job's numbers may include. */
const char *report_io_mode(const struct job_result *jr);
/* Latency percentile of a ddir (ns); 0 when no requests. */
uint64_t report_pct(const struct thread_stats *t, int ddir, double p);
/* "12.3", "1.23k" style figures for IOPS. */
const char *fmt_count(char *buf, size_t len, double v);
/*
 * Open an output named by option opt ("output", "json") before the run, so a
 * bad path is a usage error, not a lost result: stdout for "" or "-".
 */
FILE *report_open(const char *opt, const char *path);
/* Write JSON to an open stream; name is for the error message. 0 or -1. */
int report_json_dump(json_t *root, FILE *f, const char *name);
/* Write a whole run's output: text or JSON to out, JSON also to json (may be NULL). */
int report_finish(const struct run_result *r, const char *command, const struct settings *s,
		  FILE *out, FILE *json);

#endif
