/* fio's READ,WRITE,TRIM rate options (option_rate.c). */
#ifndef IOGAUGE_OPTION_RATE_H
#define IOGAUGE_OPTION_RATE_H

#include <stddef.h>

#define RATE_DIRS 3 /* read, write, trim: IO_READ..IO_TRIM */

struct opt_def;
int set_rate_sizes(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
int set_rate_counts(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_rate_sizes(const void *obj, const struct opt_def *o, char *buf, size_t len);
void print_rate_counts(const void *obj, const struct opt_def *o, char *buf, size_t len);

#endif
