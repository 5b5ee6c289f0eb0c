/*
 * fio's cpus_allowed, cpumask, cpus_allowed_policy, numa_cpu_nodes and
 * numa_mem_policy (and prio, prioclass): parsed into struct job_cpus, applied by each worker thread
 * to itself before it allocates anything (its buffers then follow the memory
 * policy).  NUMA without libnuma: nodes' CPUs from sysfs, set_mempolicy(2).
 */
#include "model/cpus.h"
#include "model/job.h"
#include "options/options.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *const cpus_policy_names[] = { "shared", "split", NULL };
/* numa_mem_policy's words, index = MPOL_* (linux/mempolicy.h). */
static const char *const mpol_names[] = { "default", "prefer", "bind", "interleave", "local", NULL };
enum { MPOL_DEFAULT_, MPOL_PREFERRED_, MPOL_BIND_, MPOL_INTERLEAVE_, MPOL_LOCAL_ };

static bool bit_get(const uint64_t *b, unsigned i)
{
	return b[i / 64] >> (i % 64) & 1;
}

static void bit_set(uint64_t *b, unsigned i)
{
	b[i / 64] |= 1ull << (i % 64);
}

/* "0-3,5" into bits (each below max); 0, or -1 with one line in err naming option opt. */
static int parse_list(const char *s, uint64_t *bits, unsigned max, const char *opt, const char *what,
		      char *err, size_t n)
{
	const char *p = s;
	if (!*p)
		goto bad;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (end == p)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
			if (end == p || hi < lo)
				goto bad;
		}
		if (hi >= max) {
			snprintf(err, n, "--%s: %s %lu does not exist here (%ss 0 to %u)", opt, what, hi, what, max - 1);
			return -1;
		}
		for (unsigned long i = lo; i <= hi; i++)
			bit_set(bits, (unsigned)i);
		if (*end && *end != ',')
			goto bad;
		p = *end ? end + 1 : end;
	}
	return 0;
bad:
	snprintf(err, n, "--%s: '%s' is not a list of %ss (N, N-M, separated by commas)", opt, s, what);
	return -1;
}

/* Bits as "0-3,5"; "" when none. */
static void print_list(const uint64_t *bits, unsigned max, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < max && k < len; i++) {
		if (!bit_get(bits, i) || (i && bit_get(bits, i - 1)))
			continue;
		unsigned j = i;
		while (j + 1 < max && bit_get(bits, j + 1))
			j++;
		k += (size_t)(j > i ? snprintf(buf + k, len - k, "%s%u-%u", k ? "," : "", i, j) :
				      snprintf(buf + k, len - k, "%s%u", k ? "," : "", i));
	}
}

/* The highest bit set in bits[0..words), or -1. */
static int last_bit(const uint64_t *bits, unsigned words)
{
	for (unsigned i = words; i-- > 0;)
		if (bits[i])
			return (int)(i * 64 + 63 - (unsigned)__builtin_clzll(bits[i]));
	return -1;
}

static unsigned cpus_here(void)
{
	long c = sysconf(_SC_NPROCESSORS_CONF);
	return c < 1 ? 1 : c > CPUS_MAX ? CPUS_MAX : (unsigned)c;
}

/* The nodes this machine has: node N is /sys/devices/system/node/nodeN. */
static unsigned nodes_here(void)
{
	char p[64];
	unsigned i = 0;
	while (i < NODES_MAX) {
		snprintf(p, sizeof(p), "/sys/devices/system/node/node%u", i);
		if (access(p, F_OK))
			break;
		i++;
	}
	return i ? i : 1;
}

static struct job_cpus *cpus_of(void *obj)
{
	return &((struct job *)obj)->cpus;
}

int set_cpus_allowed(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	uint64_t bits[CPUS_MAX / 64] = { 0 };
	/* "": any CPU, as an unset one prints */
	if (*val && parse_list(val, bits, CPUS_MAX, o->name, "CPU", err, n))
		return -1;
	memcpy(cpus_of(obj)->set, bits, sizeof(bits));
	return 0;
}

void print_cpus_allowed(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	print_list(((const struct job *)obj)->cpus.set, CPUS_MAX, buf, len);
}

/* 0x hex of any length (up to CPUS_MAX bits) into bits; 0 or -1. */
static int parse_hex_mask(const char *s, uint64_t *bits)
{
	size_t len = strlen(s);
	if (!len || len > CPUS_MAX / 4)
		return -1;
	for (size_t i = 0; i < len; i++) {
		char ch = s[len - 1 - i];
		unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0') :
			     ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10) :
			     ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) : 16;
		if (d > 15)
			return -1;
		bits[i / 16] |= (uint64_t)d << (i % 16 * 4);
	}
	return 0;
}

/* fio's cpumask: a number whose bit N is CPU N (0x hex, any length, or decimal); "": any CPU. */
int set_cpumask(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	uint64_t bits[CPUS_MAX / 64] = { 0 };
	bool ok = true;
	if (!strncmp(val, "0x", 2) || !strncmp(val, "0X", 2)) {
		ok = !parse_hex_mask(val + 2, bits);
	} else if (*val) {
		char *end;
		errno = 0;
		bits[0] = strtoull(val, &end, 10);
		ok = *val >= '0' && *val <= '9' && !*end && !errno;
	}
	if (!ok || (*val && last_bit(bits, CPUS_MAX / 64) < 0)) {
		snprintf(err, n, "--%s: '%s' is not a mask of CPUs (a number, bit N for CPU N)", o->name, val);
		return -1;
	}
	memcpy(cpus_of(obj)->set, bits, sizeof(bits));
	return 0;
}

void print_cpumask(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const uint64_t *set = ((const struct job *)obj)->cpus.set;
	int last = last_bit(set, CPUS_MAX / 64);
	size_t k = 0;
	(void)o;
	buf[0] = 0;
	if (last < 0)
		return;
	k += (size_t)snprintf(buf, len, "0x%" PRIx64, set[last / 64]);
	for (int w = last / 64 - 1; w >= 0 && k < len; w--)
		k += (size_t)snprintf(buf + k, len - k, "%016" PRIx64, set[w]);
}

int set_numa_cpu_nodes(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	uint64_t bits = 0;
	if (*val && parse_list(val, &bits, NODES_MAX, o->name, "NUMA node", err, n))
		return -1;
	cpus_of(obj)->nodes = bits;
	return 0;
}

void print_numa_cpu_nodes(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	print_list(&((const struct job *)obj)->cpus.nodes, NODES_MAX, buf, len);
}

/* fio's "MODE[:NODES]": prefer takes one node, bind and interleave a list, default and local none. */
int set_numa_mem_policy(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	if (!*val) {
		cpus_of(obj)->mpol = 0; /* the system's policy, as an unset one prints */
		cpus_of(obj)->mpol_nodes = 0;
		return 0;
	}
	const char *colon = strchr(val, ':');
	size_t ml = colon ? (size_t)(colon - val) : strlen(val);
	int mode = -1;
	for (int i = 0; mpol_names[i]; i++)
		if (strlen(mpol_names[i]) == ml && !strncmp(val, mpol_names[i], ml))
			mode = i;
	if (mode < 0) {
		snprintf(err, n, "--%s: '%s' is not MODE[:NODES] (MODE: default, prefer, bind, interleave, local)",
			 o->name, val);
		return -1;
	}
	bool wants = mode == MPOL_PREFERRED_ || mode == MPOL_BIND_ || mode == MPOL_INTERLEAVE_;
	uint64_t nodes = 0;
	if (wants != (colon != NULL)) {
		snprintf(err, n, "--%s: %s %s", o->name, mpol_names[mode],
			 wants ? "needs its nodes (MODE:NODES)" : "takes no nodes");
		return -1;
	}
	if (colon && parse_list(colon + 1, &nodes, NODES_MAX, o->name, "NUMA node", err, n))
		return -1;
	if (mode == MPOL_PREFERRED_ && __builtin_popcountll(nodes) != 1) {
		snprintf(err, n, "--%s: prefer takes one node ('%s')", o->name, val);
		return -1;
	}
	struct job_cpus *c = cpus_of(obj);
	c->mpol = mode + 1;
	c->mpol_nodes = nodes;
	return 0;
}

void print_numa_mem_policy(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const struct job_cpus *c = &((const struct job *)obj)->cpus;
	(void)o;
	if (!c->mpol) {
		buf[0] = 0;
		return;
	}
	char nodes[256];
	print_list(&c->mpol_nodes, NODES_MAX, nodes, sizeof(nodes));
	snprintf(buf, len, "%s%s%s", mpol_names[c->mpol - 1], *nodes ? ":" : "", nodes);
}

/*
 * The machine's part, at the run (as fio's run checks; its --parse-only does
 * not): CPUs and nodes the job names exist here.
 */
int cpus_check(const struct job_cpus *c, char *err, size_t n)
{
	int cpu = last_bit(c->set, CPUS_MAX / 64);
	int node = last_bit(&c->nodes, 1), mnode = last_bit(&c->mpol_nodes, 1);
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
		if (!ok || parse_list(line, set, CPUS_MAX, "cpulist", "CPU", e, sizeof(e)))
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
				bit_set(set, i);
		any = true;
	}
	if (any) {
		unsigned count = 0, pick = 0;
		for (unsigned i = 0; i < CPUS_MAX; i++)
			count += bit_get(set, i);
		if (c->policy == CPUS_SPLIT && count)
			pick = index % count + 1; /* the pick-th CPU of the set */
		cpu_set_t cs;
		CPU_ZERO(&cs);
		for (unsigned i = 0, k = 0; i < CPUS_MAX; i++)
			if (bit_get(set, i) && (!pick || ++k == pick))
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
