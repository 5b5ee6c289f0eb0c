/* fio's cmdprio options: their setters and printers, and job_validate's check (option_cmdprio.c). */
#ifndef IOGAUGE_OPTION_CMDPRIO_H
#define IOGAUGE_OPTION_CMDPRIO_H

#include <stddef.h>
struct job;
struct opt_def;

/* The options' setters and printers (option_cmdprio.c).. */
int set_cmdprio_percentage(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_cmdprio_percentage(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_cmdprio_class(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_cmdprio_class(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_cmdprio_level(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_cmdprio_level(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_cmdprio_bssplit(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_cmdprio_bssplit(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_hipri_percentage(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_hipri_percentage(const void *obj, const struct opt_def *o, char *buf, size_t len);
/* job_validate's part: the options with an engine that takes them, one mode, few priorities; 0 or -1.. */
int cmdprio_check(const struct job *j, const char *engine, char *err, size_t n);

#endif
