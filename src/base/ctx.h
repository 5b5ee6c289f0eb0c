/*
 * The run context: what a command hands down to the runner, the targets and
 * the workers instead of globals — the stop request (a signal number), the
 * test files to remove, and the claims this run holds (devices opened
 * exclusively, files it created), so that two jobs on one target do not
 * refuse each other.
 */
#ifndef IOGAUGE_CTX_H
#define IOGAUGE_CTX_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct ctx_file; /* a test file to remove: a node of a list the signal handler can walk */

struct run_ctx {
	volatile sig_atomic_t stop; /* signal number asking to stop; 0: run on */
	volatile sig_atomic_t halt; /* several ranks: another rank asked every rank to stop the measured phase */
	uint64_t first_signal_ns;   /* CLOCK_MONOTONIC of the first signal; 0: none yet (atomic) */
	int late_signals;           /* signals after the first one's window (atomic) */
	struct ctx_file *files;     /* pushed atomically; walked by the handler */
	bool keep;                  /* --keep: never remove */
	struct ctx_claim {
		dev_t dev;
		ino_t ino;   /* 0 for a device held with O_EXCL */
		unsigned refs;
	} *claims;
	unsigned nclaims, capclaims;
};

void ctx_init(struct run_ctx *c);
/* Removes the registered files (unless keep) and frees the context. */
void ctx_finish(struct run_ctx *c);

/* A file this run created: removed by ctx_remove_files, on a second signal, or at exit; -1 out of memory. */
int ctx_register_file(struct run_ctx *c, const char *path);
/* A directory this run created: removed with everything below it, like a file. */
int ctx_register_tree(struct run_ctx *c, const char *path);
/*
 * Remove the directory path and everything below it, never following a link
 * nor entering another file system; async-signal-safe.  0, or -1 (errno) when
 * the directory itself could not be opened or removed.
 */
int ctx_remove_tree(const char *path);
/*
 * Unlink every registered file not yet removed; with keep, mark them kept
 * instead (stale.h).  Async-signal-safe, idempotent.
 */
void ctx_remove_files(struct run_ctx *c);
/*
 * Unlink one registered file now, keep or not: a file whose layout failed
 * holds no test data worth keeping.  Nothing when path is not registered.
 */
void ctx_remove_file(struct run_ctx *c, const char *path);

/* Claims: a device held exclusively (ino 0) or a file created in this run. */
void ctx_claim(struct run_ctx *c, dev_t dev, ino_t ino);
void ctx_unclaim(struct run_ctx *c, dev_t dev, ino_t ino);
bool ctx_claimed(const struct run_ctx *c, dev_t dev, ino_t ino);

/*
 * SIGINT, SIGTERM and SIGHUP set c->stop: the run stops its workers, prints
 * what it measured and exits 128+N.  Signals within a second of the first are
 * the same request (`timeout` and shells send the group's and their own); a
 * later second signal removes the test files at once, and the run still
 * prints its partial results; a third exits 128+N at once.  SIGPIPE is ignored (a closed reader is a write
 * error, not death with test files left behind).  The handler can only reach
 * a static pointer: this sets it to c.
 */
void ctx_install_signals(struct run_ctx *c);
/* Out of memory or exit(): remove the files of the installed context. */
void ctx_emergency(void);

#endif
