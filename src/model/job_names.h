/*
 * The words of a job's enumerations (job_names.c): the option table reads
 * them, the reports print them, the model's code names its values with them.
 */
#ifndef IOGAUGE_JOB_NAMES_H
#define IOGAUGE_JOB_NAMES_H


/* Names of enum rw_mode and enum dist_kind values, NULL-terminated (reports use them too). */
extern const char *const rw_names[];
extern const char *const dist_names[];
extern const char *const segment_names[];
extern const char *const rank_results_names[];
extern const char *const fileop_names[];

#endif
