/* Setters and printers of options with a syntax of their own (the table in options.c names them). */
#pragma once
#include "options/opt_def.h"

#include <stddef.h>

int set_engine(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_engine(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_rwmixwrite(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_rwmixwrite(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_sync(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_sync(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_steadystate(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_steadystate(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_distribution(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_distribution(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_percentiles(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_percentiles(const void *obj, const struct opt_def *o, char *buf, size_t len);
/* fio's iodepth_batch_submit, _complete_min, _complete_max, iodepth_low (option_queue.c). */
int set_qbatch(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_qbatch(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_inject(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_inject(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_verify(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_verify(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_data(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_data(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_data_pct(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_data_pct(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_zero_buffers(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_zero_buffers(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_buffer_pattern(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
int set_verify_pattern(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_verify_pattern(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_format(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_format(const void *obj, const struct opt_def *o, char *buf, size_t len);

/* The names of the formats in mask (1u << enum out_format each), joined by sep. */
void format_names(unsigned mask, const char *sep, char *buf, size_t len);
void format_values(const struct command *c, char *buf, size_t len);
int set_ioping_rw(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_ioping_rw(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_deadline(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_deadline(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_seq_order(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_seq_order(const void *obj, const struct opt_def *o, char *buf, size_t len);
/* A size whose bare number is in `unit` bytes (bonnie++'s MiB, iozone's KiB).  0 or -1. */
int parse_size_in(const char *s, uint64_t unit, uint64_t *out);
int set_kib(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_kib(const void *obj, const struct opt_def *o, char *buf, size_t len);
int print_double(char *buf, size_t len, double v);
/* latency_target's percentile (latency_percentile). */
int set_lat_pct(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_lat_pct(const void *obj, const struct opt_def *o, char *buf, size_t len);
