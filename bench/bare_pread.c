/*
 * bare_pread: the floor a benchmark's psync loop is measured against.
 * THREADS threads, each a loop of pread(2) calls of BS bytes at random
 * BS-aligned offsets of FILE, and nothing else: no clock read per request,
 * no statistics, one buffer per thread.  Each thread looks at the clock once
 * every 4096 requests to know when SECONDS are over.  Prints
 * "IOPS USR_S SYS_S IOS": the total rate over the slowest thread's time and
 * the process's CPU time.  Built by bench/limit.sh (make bench-limit); not
 * part of iogauge.
 *
 *   bare_pread FILE BS SECONDS [THREADS]
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int fd;
static uint64_t nblocks, bs, run_ns;

struct thr {
	pthread_t t;
	uint64_t seed, ios, ns;
	double usr, sys;
};

static void cpu(double *usr, double *sys)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	*usr = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static uint64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *loop(void *arg)
{
	struct thr *t = arg;
	void *buf;
	if (posix_memalign(&buf, 4096, bs))
		exit(1);
	double u0, s0;
	cpu(&u0, &s0);
	uint64_t x = t->seed, ios = 0, start = now(), end = start + run_ns, t1;
	do {
		for (int i = 0; i < 4096; i++) {
			/* xorshift64*: a random block, uniform enough for a cached file. */
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
			uint64_t b = ((x * 0x2545F4914F6CDD1DULL) >> 11) % nblocks;
			if (pread(fd, buf, bs, (off_t)(b * bs)) != (ssize_t)bs) {
				perror("pread");
				exit(1);
			}
		}
		ios += 4096;
	} while ((t1 = now()) < end);
	cpu(&t->usr, &t->sys);
	t->usr -= u0;
	t->sys -= s0;
	t->ios = ios;
	t->ns = t1 - start;
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: bare_pread FILE BS SECONDS [THREADS]\n");
		return 2;
	}
	struct stat st;
	fd = open(argv[1], O_RDONLY);
	bs = strtoull(argv[2], NULL, 0);
	run_ns = (uint64_t)(atof(argv[3]) * 1e9);
	int n = argc == 5 ? atoi(argv[4]) : 1;
	if (fd < 0 || fstat(fd, &st) || !bs || !run_ns || n < 1 || n > 256) {
		perror(argv[1]);
		return 2;
	}
	nblocks = (uint64_t)st.st_size / bs;
	if (!nblocks) {
		fprintf(stderr, "%s: smaller than one block\n", argv[1]);
		return 2;
	}
	struct thr t[256];
	for (int i = 0; i < n; i++) {
		t[i].seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1);
		if (pthread_create(&t[i].t, NULL, loop, &t[i]))
			return 1;
	}
	uint64_t ios = 0, ns = 0;
	double usr = 0, sys = 0;
	for (int i = 0; i < n; i++) {
		pthread_join(t[i].t, NULL);
		ios += t[i].ios;
		usr += t[i].usr;
		sys += t[i].sys;
		if (t[i].ns > ns)
			ns = t[i].ns;
	}
	printf("%.0f %.6f %.6f %llu\n", (double)ios * 1e9 / (double)ns, usr, sys, (unsigned long long)ios);
	return 0;
}
