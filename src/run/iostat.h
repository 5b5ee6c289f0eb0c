/*
 * What the devices under the targets did while jobs were measuring, in
 * iostat -x's columns (r/s, w/s, rMB/s, wMB/s, r_await, w_await, aqu-sz,
 * %util) over the whole measured phase and per second, and which other
 * processes did I/O meanwhile (iopp's method: /proc/PID/io deltas).
 * Sampled by the runner's waiting thread, never by the workers.
 */
#ifndef IOGAUGE_IOSTAT_H
#define IOGAUGE_IOSTAT_H

#include <limits.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/devinfo.h"

#define IOSTAT_MAX_DEVS 16

/* The difference of two /sys/block/DEV/stat readings and the time between them. */
struct dev_delta {
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks_ms;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks_ms;
	uint64_t io_ticks_ms, in_queue_ms, span_ns;
};

/* iostat -x's columns; MB = 1,048,576 bytes, awaits in ms, as iostat prints them. */
struct iostat_cols {
	double r_s, w_s, rmb_s, wmb_s, rrqm_s, wrqm_s, r_await, w_await, aqu_sz, util;
};

/* iostat -x's formulas: r_await = d(read ticks)/d(reads), aqu-sz = d(time in queue)/interval, ... */
void iostat_cols(const struct dev_delta *d, struct iostat_cols *c);

/* One per-second sample of a device: t_ns is its end, from the run's first measured phase. */
struct dev_sample {
	uint64_t t_ns;
	struct dev_delta d;
};
struct dev_series {
	struct dev_sample *pts;
	unsigned n, cap;
};

/* Another process that read or wrote a block device while jobs were measuring. */
struct other_io {
	int pid;
	uint64_t start;    /* its start time (clock ticks since boot): a reused pid is another process */
	char name[16];     /* comm */
	uint64_t read_bytes, write_bytes;
};

/* A target with no block device beneath (tmpfs, a network file system). */
struct nodev_target {
	char path[PATH_MAX];
	char fstype[32];
};

/* This rank's device series, other processes' I/O and targets without a device. */
struct iostat_run {
	struct dev_series series[IOSTAT_MAX_DEVS]; /* parallel to run_result.devs */
	struct other_io *others; /* most bytes first */
	unsigned nothers;
	bool others_ok;      /* /proc was scanned at both ends of a measured phase */
	uint64_t t0_ns;      /* start of the first measured phase: series times count from it */
	struct nodev_target nodev[4];
	unsigned nnodev;
};

struct run_result;

/* One measured phase (a stonewall group), from iostat_begin to iostat_end. */
struct iostat_phase {
	bool begun;
	struct devstat before[IOSTAT_MAX_DEVS], last[IOSTAT_MAX_DEVS];
	uint64_t next_ns;    /* when the next per-second sample is due */
	unsigned first[IOSTAT_MAX_DEVS]; /* each series' first sample of this phase */
	struct proc_snap *procs;
};

/* Phase start: other processes' counters, then the devices' (just before the workers measure). */
void iostat_begin(struct iostat_phase *p, struct run_result *r);
/* A per-second sample when one is due; returns the ns until the next one (for the sleep). */
uint64_t iostat_tick(struct iostat_phase *p, struct run_result *r, uint64_t now);
/* Phase end: the last (partial) sample, the totals into r->devs, other processes' deltas. */
void iostat_end(struct iostat_phase *p, struct run_result *r);
/* A target's device, or why it has none (a file system without a block device). */
void iostat_note_target(struct run_result *r, const char *path, const char *device, const char *fstype);
/* The whole disk a partition belongs to ("vda" for "vda1"); "" for a disk. */
void iostat_disk_of(const char *dev, char *disk, size_t len);
void iostat_run_free(struct iostat_run *io);

/* The counters of a run's device over its measured phases. */
struct dev_result;
void iostat_delta_of(const struct dev_result *d, struct dev_delta *out);

#endif
