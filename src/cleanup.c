/*
 * Test files to remove at the end, on error and on SIGINT/SIGTERM.
 *
 * A fixed table in static storage: registering never allocates, and
 * cleanup_files() only reads the table and calls unlink(), so it may run in
 * a signal handler.  Each slot moves FREE -> BUSY -> LIVE -> DONE (or back to
 * FREE on unregister); the state changes are atomic, so a signal arriving
 * in the middle of a registration sees either a complete path or none, and
 * a second cleanup_files() (atexit after a signal) unlinks nothing twice.
 */
#include "common.h"
#include "target.h"

#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#define CLEANUP_MAX 4096

enum { SLOT_FREE = 0, SLOT_BUSY, SLOT_LIVE, SLOT_DONE };

static char cl_path[CLEANUP_MAX][PATH_MAX];
static int cl_state[CLEANUP_MAX];
static int cl_used;      /* high-water mark: slots [0, cl_used) were used */
static int cl_keep;
static pthread_mutex_t cl_lock = PTHREAD_MUTEX_INITIALIZER;

void cleanup_register(const char *path)
{
	size_t n = strlen(path);
	int i;

	if (n >= PATH_MAX) {
		msg_err("cannot register %s for removal: path too long", path);
		return;
	}
	pthread_mutex_lock(&cl_lock);
	for (i = 0; i < CLEANUP_MAX; i++) {
		int st = __atomic_load_n(&cl_state[i], __ATOMIC_ACQUIRE);
		if (st == SLOT_FREE || st == SLOT_DONE)
			break;
	}
	if (i == CLEANUP_MAX) {
		pthread_mutex_unlock(&cl_lock);
		msg_err("too many test files (%d): %s will not be removed at the end",
			CLEANUP_MAX, path);
		return;
	}
	__atomic_store_n(&cl_state[i], SLOT_BUSY, __ATOMIC_RELEASE);
	memcpy(cl_path[i], path, n + 1);
	__atomic_store_n(&cl_state[i], SLOT_LIVE, __ATOMIC_RELEASE);
	if (i >= __atomic_load_n(&cl_used, __ATOMIC_RELAXED))
		__atomic_store_n(&cl_used, i + 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&cl_lock);
}

/* Async-signal-safe: atomics and unlink() only; idempotent. */
void cleanup_files(void)
{
	int used, i;

	if (__atomic_load_n(&cl_keep, __ATOMIC_ACQUIRE))
		return;
	used = __atomic_load_n(&cl_used, __ATOMIC_ACQUIRE);
	for (i = 0; i < used; i++) {
		int st = SLOT_LIVE;
		if (!__atomic_compare_exchange_n(&cl_state[i], &st, SLOT_DONE, false,
						 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			continue;
		unlink(cl_path[i]);
	}
}

void cleanup_keep(bool keep)
{
	__atomic_store_n(&cl_keep, keep ? 1 : 0, __ATOMIC_RELEASE);
}
