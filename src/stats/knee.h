/*
 * The knee of an IOPS curve by Little's law: the last level where more
 * outstanding I/O still raised IOPS by more than it raised latency.  Used by
 * `scale` (queue depth x threads) and `matrix` (Orion's small or large I/O
 * alone at rising load).
 */
#ifndef IOGAUGE_KNEE_H
#define IOGAUGE_KNEE_H

/* One level of the curve: its IOPS and the I/O actually outstanding (IOPS x mean latency). */
struct knee_pt {
	double iops, little;
};

struct knee_out {
	int knee, next;         /* indexes into the curve; -1: none */
	double gain, threshold; /* IOPS per added outstanding I/O from knee to next, and the bar */
};

/*
 * pts: the levels in increasing nominal outstanding I/O, each measured.
 * From level a to b, IOPS grew by more than latency did exactly when the
 * IOPS added per added outstanding I/O reach IOPS_a x (sqrt(N_b / N_a) - 1)
 * / (N_b - N_a); the knee is the last level before the first that does not.
 */
void knee_find(const struct knee_pt *pts, unsigned n, struct knee_out *k);

#endif
