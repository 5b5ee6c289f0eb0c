/*
 * fio's cpus_allowed, cpumask, cpus_allowed_policy, numa_cpu_nodes and
 * numa_mem_policy (and prio, prioclass): parsed into struct job_cpus; each
 * worker thread applies them to itself (run/cpus_apply.c).
 */
#include "options/option_cpus.h"
#include "model/cpus.h"
#include "model/job.h"
#include "options/opt_def.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* numa_mem_policy's words, index = MPOL_* (linux/mempolicy.h). */
static const char *const mpol_names[] = { "default", "prefer", "bind", "interleave", "local", NULL };
enum { MPOL_DEFAULT_, MPOL_PREFERRED_, MPOL_BIND_, MPOL_INTERLEAVE_, MPOL_LOCAL_ };

static struct job_cpus *cpus_of(void *obj)
{
	return &((struct job *)obj)->cpus;
}

int set_cpus_allowed(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	uint64_t bits[CPUS_MAX / 64] = { 0 };
	/* "": any CPU, as an unset one prints */
	if (*val && cpus_parse_list(val, bits, CPUS_MAX, o->name, "CPU", err, n))
		return -1;
	memcpy(cpus_of(obj)->set, bits, sizeof(bits));
	return 0;
}

/* fio refuses a CPU this machine has not ("CPU 999 too large"); so does verify_async_cpus here. */
int set_verify_async_cpus(void *obj, const struct opt_def *o, const char *val, char *err, size_t n)
{
	uint64_t bits[CPUS_MAX / 64] = { 0 };
	unsigned here = cpus_here();
	if (*val && cpus_parse_list(val, bits, here < CPUS_MAX ? here : CPUS_MAX, o->name, "CPU", err, n))
		return -1;
	memcpy(cpus_of(obj)->verify, bits, sizeof(bits));
	return 0;
}

void print_verify_async_cpus(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	cpus_print_list(((const struct job *)obj)->cpus.verify, CPUS_MAX, buf, len);
}

void print_cpus_allowed(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	cpus_print_list(((const struct job *)obj)->cpus.set, CPUS_MAX, buf, len);
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
	if (!ok || (*val && cpus_last_bit(bits, CPUS_MAX / 64) < 0)) {
		snprintf(err, n, "--%s: '%s' is not a mask of CPUs (a number, bit N for CPU N)", o->name, val);
		return -1;
	}
	memcpy(cpus_of(obj)->set, bits, sizeof(bits));
	return 0;
}

void print_cpumask(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	const uint64_t *set = ((const struct job *)obj)->cpus.set;
	int last = cpus_last_bit(set, CPUS_MAX / 64);
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
	if (*val && cpus_parse_list(val, &bits, NODES_MAX, o->name, "NUMA node", err, n))
		return -1;
	cpus_of(obj)->nodes = bits;
	return 0;
}

void print_numa_cpu_nodes(const void *obj, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	cpus_print_list(&((const struct job *)obj)->cpus.nodes, NODES_MAX, buf, len);
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
	if (colon && cpus_parse_list(colon + 1, &nodes, NODES_MAX, o->name, "NUMA node", err, n))
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
	cpus_print_list(&c->mpol_nodes, NODES_MAX, nodes, sizeof(nodes));
	snprintf(buf, len, "%s%s%s", mpol_names[c->mpol - 1], *nodes ? ":" : "", nodes);
}
