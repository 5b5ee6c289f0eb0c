/* The setters and printers of fio's continue_on_error and ignore_error (errtol.c; the table's rows). */
#ifndef IOGAUGE_OPTIONS_ERRTOL_H
#define IOGAUGE_OPTIONS_ERRTOL_H

#include <stddef.h>
#include "model/errtol.h"

struct opt_def;
int set_continue_on_error(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_continue_on_error(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_ignore_error(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_ignore_error(const void *obj, const struct opt_def *o, char *buf, size_t len);

#endif
