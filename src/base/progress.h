/*
 * The progress line on stderr.  On a terminal it is redrawn in place; with
 * --eta=always and no terminal (a CI log, a test waiting for a stage) each
 * update is a line of its own, at most one a second, without escape codes.
 */
#ifndef IOGAUGE_PROGRESS_H
#define IOGAUGE_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

enum eta_mode { ETA_MODE_AUTO, ETA_MODE_ALWAYS, ETA_MODE_NEVER };
extern const char *const eta_names[];

struct progress_line {
	bool on, tty;
	uint64_t last_ns; /* the last line written (no terminal) */
};

/* From --eta and --quiet: whether a line is drawn, and how. */
void progress_line_init(struct progress_line *p, int eta, bool quiet);
/* An update begins: false when none is due; true after the terminal's line was erased. */
bool progress_line_begin(struct progress_line *p);
/* The update ends: flushed in place on a terminal, a newline elsewhere. */
void progress_line_end(struct progress_line *p);
/* Before other output: the terminal's line erased (nothing to do elsewhere). */
void progress_line_clear(const struct progress_line *p);

#endif
