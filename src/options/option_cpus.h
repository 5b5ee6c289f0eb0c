/* fio's CPU and NUMA options: their setters and printers (option_cpus.c). */
#ifndef IOGAUGE_OPTION_CPUS_H
#define IOGAUGE_OPTION_CPUS_H

#include <stddef.h>

/* The options (options/option_cpus.c).. */
struct opt_def;
int set_cpus_allowed(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_cpus_allowed(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_verify_async_cpus(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_verify_async_cpus(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_cpumask(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_cpumask(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_numa_cpu_nodes(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_numa_cpu_nodes(const void *obj, const struct opt_def *o, char *buf, size_t len);
int set_numa_mem_policy(void *obj, const struct opt_def *o, const char *val, char *err, size_t n);
void print_numa_mem_policy(const void *obj, const struct opt_def *o, char *buf, size_t len);

#endif
