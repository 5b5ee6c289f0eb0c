/*
 * What the devices under the targets did while jobs were measuring, in
 * iostat -x's columns (r/s, w/s, rMB/s, wMB/s, r_await, w_await, aqu-sz,
 * %util) over the whole measured phase and per second, and which other
 * processes did I/O meanwhile (iopp's method: /proc/PID/io deltas).
 * Sampled by the runner's waiting thread, never by the workers.
 */
#ifndef IOGAUGE_IOSTAT_H
#define IOGAUGE_IOSTAT_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/devinfo.h"
#include "run/run_result.h"

/* iostat -x's columns; MB = 1,048,576 bytes, awaits in ms, as iostat prints them. */
struct iostat_cols {
	double r_s, w_s, rmb_s, wmb_s, rrqm_s, wrqm_s, r_await, w_await, aqu_sz, util;
};

/* iostat -x's formulas: r_await = d(read ticks)/d(reads), aqu-sz = d(time in queue)/interval, ... */
void iostat_cols(const struct dev_delta *d, struct iostat_cols *c);

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
void iostat_delta_of(const struct dev_result *d, struct dev_delta *out);

#endif
