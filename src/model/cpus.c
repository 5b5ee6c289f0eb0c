/*
 * CPU and NUMA node lists (cpus_allowed's "0-3,5", cpumask's bits) and the
 * machine's counts: the words the options read (options/option_cpus.c) and
 * the run applies (run/cpus_apply.c).
 */
#include "model/cpus.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

const char *const cpus_policy_names[] = { "shared", "split", NULL };

bool cpus_bit_get(const uint64_t *b, unsigned i)
{
	return b[i / 64] >> (i % 64) & 1;
}

void cpus_bit_set(uint64_t *b, unsigned i)
{
	b[i / 64] |= 1ull << (i % 64);
}

/* "0-3,5" into bits (each below max); 0, or -1 with one line in err naming option opt. */
int cpus_parse_list(const char *s, uint64_t *bits, unsigned max, const char *opt, const char *what,
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
			cpus_bit_set(bits, (unsigned)i);
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
void cpus_print_list(const uint64_t *bits, unsigned max, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < max && k < len; i++) {
		if (!cpus_bit_get(bits, i) || (i && cpus_bit_get(bits, i - 1)))
			continue;
		unsigned j = i;
		while (j + 1 < max && cpus_bit_get(bits, j + 1))
			j++;
		k += (size_t)(j > i ? snprintf(buf + k, len - k, "%s%u-%u", k ? "," : "", i, j) :
				      snprintf(buf + k, len - k, "%s%u", k ? "," : "", i));
	}
}

/* The highest bit set in bits[0..words), or -1. */
int cpus_last_bit(const uint64_t *bits, unsigned words)
{
	for (unsigned i = words; i-- > 0;)
		if (bits[i])
			return (int)(i * 64 + 63 - (unsigned)__builtin_clzll(bits[i]));
	return -1;
}

unsigned cpus_here(void)
{
	long c = sysconf(_SC_NPROCESSORS_CONF);
	return c < 1 ? 1 : c > CPUS_MAX ? CPUS_MAX : (unsigned)c;
}

/* The nodes this machine has: node N is /sys/devices/system/node/nodeN. */
unsigned nodes_here(void)
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
