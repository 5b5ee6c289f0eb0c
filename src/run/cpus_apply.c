/*
 * A worker thread places itself before it allocates anything (its buffers
 * then follow the memory policy): the CPUs, nodes, memory policy and I/O
 * priority its job names.  NUMA without libnuma: nodes' CPUs from sysfs,
 * set_mempolicy(2).
 */
#include "run/cpus_apply.h"

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * The machine's part, at the run (as fio's run checks; its --parse-only does
 * not): CPUs and nodes the job names exist here.
 */
int cpus_check(const struct job_cpus *c, char *err, size_t n)
{
	int cpu = cpus_last_bit(c->set, CPUS_MAX / 64);
	int node = cpus_last_bit(&c->nodes, 1), mnode = cpus_last_bit(&c->mpol_nodes, 1);
	if (cpu >= (int)cpus_here()) {
		snprintf(err, n, "--cpus_allowed: CPU %d does not exist here (CPUs 0 to %u)", cpu, cpus_here() - 1);
		return -1;
	}
	if (node >= (int)nodes_here() || mnode >= (int)nodes_here()) {
		snprintf(err, n, "--%s: NUMA node %d does not exist here (nodes 0 to %u)",
			 node >= (int)nodes_here() ? "numa_cpu_nodes" : "numa_mem_policy",
			 node >= (int)nodes_here() ? node : mnode, nodes_here() - 1);
		return -1;
	}
	return 0;
}

/* The CPUs of the nodes in mask, read from sysfs, added to set. */
static int node_cpus(uint64_t mask, uint64_t *set)
{
	for (unsigned i = 0; i < NODES_MAX; i++) {
		if (!(mask >> i & 1))
			continue;
		char p[64], line[4096], e[128];
		snprintf(p, sizeof(p), "/sys/devices/system/node/node%u/cpulist", i);
		FILE *f = fopen(p, "r");
		if (!f)
			return -errno;
		bool ok = fgets(line, sizeof(line), f) != NULL;
		fclose(f);
		line[strcspn(line, "\n")] = 0;
		if (!ok || cpus_parse_list(line, set, CPUS_MAX, "cpulist", "CPU", e, sizeof(e)))
			return -EINVAL;
	}
	return 0;
}

int cpus_apply(const struct job_cpus *c, unsigned index)
{
	uint64_t set[CPUS_MAX / 64] = { 0 };
	bool any = false;
	/* As in fio, the nodes' CPUs replace cpus_allowed's. */
	if (c->nodes) {
		int rc = node_cpus(c->nodes, set);
		if (rc)
			return rc;
	} else {
		memcpy(set, c->set, sizeof(set));
	}
	for (unsigned i = 0; i < CPUS_MAX / 64; i++)
		any |= set[i] != 0;
	if (!any && c->policy == CPUS_SPLIT) {
		/* split with no set: the CPUs this process may use. */
		cpu_set_t cs;
		if (sched_getaffinity(0, sizeof(cs), &cs))
			return -errno;
		for (unsigned i = 0; i < CPUS_MAX; i++)
			if (CPU_ISSET(i, &cs))
				cpus_bit_set(set, i);
		any = true;
	}
	if (any) {
		unsigned count = 0, pick = 0;
		for (unsigned i = 0; i < CPUS_MAX; i++)
			count += cpus_bit_get(set, i);
		if (c->policy == CPUS_SPLIT && count)
			pick = index % count + 1; /* the pick-th CPU of the set */
		cpu_set_t cs;
		CPU_ZERO(&cs);
		for (unsigned i = 0, k = 0; i < CPUS_MAX; i++)
			if (cpus_bit_get(set, i) && (!pick || ++k == pick))
				CPU_SET(i, &cs);
		if (sched_setaffinity(0, sizeof(cs), &cs))
			return -errno;
	}
	if (c->prio || c->prioclass) {
		/* As fio: no class is best-effort (2); IOPRIO_WHO_PROCESS (1), who 0: this thread. */
		int v = (int)((c->prioclass ? c->prioclass : 2) << 13 | c->prio);
		if (syscall(SYS_ioprio_set, 1, 0, v))
			return -errno;
	}
	if (c->mpol) {
		unsigned long nodes = (unsigned long)c->mpol_nodes;
		if (syscall(SYS_set_mempolicy, c->mpol - 1, nodes ? &nodes : NULL,
			    nodes ? (unsigned long)NODES_MAX + 1 : 0UL))
			return -errno;
	}
	return 0;
}
