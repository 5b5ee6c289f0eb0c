/* fio's CPU, NUMA and I/O priority placement of a job's threads: cpus_allowed, cpumask, numa_*, prio (cpus.c). */
#ifndef IOGAUGE_CPUS_H
#define IOGAUGE_CPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CPUS_MAX 1024 /* CPUs a job can name (CPU_SETSIZE) */
#define NODES_MAX 64  /* NUMA nodes */

/* In struct job: all zero is fio's default (anywhere, the system's memory policy). */
struct job_cpus {
	uint64_t set[CPUS_MAX / 64]; /* cpus_allowed / cpumask; empty: any CPU */
	int policy;                  /* cpus_allowed_policy: CPUS_SHARED or CPUS_SPLIT */
	uint64_t nodes;              /* numa_cpu_nodes: run on these nodes' CPUs; 0: not set */
	int mpol;                    /* numa_mem_policy's mode + 1 (MPOL_*); 0: not set */
	uint64_t mpol_nodes;
	unsigned prio, prioclass;    /* fio's I/O priority (ioprio_set); both 0: the default */
	uint64_t verify[CPUS_MAX / 64]; /* verify_async_cpus, as given (checked; iogauge has no verify threads) */
};
enum { CPUS_SHARED, CPUS_SPLIT };
extern const char *const cpus_policy_names[];

/* CPU lists and bit sets (model/cpus.c). */
bool cpus_bit_get(const uint64_t *b, unsigned i);
void cpus_bit_set(uint64_t *b, unsigned i);
/* "0-3,5" into bits (each below max); 0, or -1 with one line in err naming option opt. */
int cpus_parse_list(const char *s, uint64_t *bits, unsigned max, const char *opt, const char *what, char *err,
		    size_t n);
/* Bits as "0-3,5"; "" when none. */
void cpus_print_list(const uint64_t *bits, unsigned max, char *buf, size_t len);
/* The highest bit set in bits[0..words), or -1. */
int cpus_last_bit(const uint64_t *bits, unsigned words);
/* CPUs and NUMA nodes of this machine. */
unsigned cpus_here(void);
unsigned nodes_here(void);



#endif
