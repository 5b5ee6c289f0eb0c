/* Option setters and printers for fio's block sizes and patterns (fio_opts.c). */
#ifndef IOGAUGE_FIO_OPTS_H
#define IOGAUGE_FIO_OPTS_H

#include <stddef.h>
#include "model/job.h"

struct opt_def;
int fio_set_bs(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void fio_print_bs(const void *obj, const struct opt_def *o, char *buf, size_t len);
int fio_set_bsrange(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void fio_print_bsrange(const void *obj, const struct opt_def *o, char *buf, size_t len);
int fio_set_bssplit(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void fio_print_bssplit(const void *obj, const struct opt_def *o, char *buf, size_t len);
int fio_set_blockalign(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void fio_print_blockalign(const void *obj, const struct opt_def *o, char *buf, size_t len);
int fio_set_pct_random(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void fio_print_pct_random(const void *obj, const struct opt_def *o, char *buf, size_t len);
int fio_set_rw(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void fio_print_rw(const void *obj, const struct opt_def *o, char *buf, size_t len);
int fio_set_fservice(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void fio_print_fservice(const void *obj, const struct opt_def *o, char *buf, size_t len);
int fio_set_filesize(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void fio_print_filesize(const void *obj, const struct opt_def *o, char *buf, size_t len);
int fio_set_startdelay(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void fio_print_startdelay(const void *obj, const struct opt_def *o, char *buf, size_t len);
/* "60/10:30/20:10/70" (zoned:) or "60/1g:40/10g" (zoned_abs:) into j; 0 or -1. */
int fio_parse_zones(const char *spec, bool absolute, struct job *j);
void fio_print_zones(const struct job *j, char *buf, size_t len);

/* "R[,W[,T]]": the read and write parts of a per-direction value (a single value is both; T is ignored).  0, or -1: too long. */
int split_dirs(const char *val, char parts[DDIR_NR][256]);

#endif
