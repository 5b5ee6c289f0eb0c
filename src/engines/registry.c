/* The engine table, lookup by name and the default engine. */
#include "model/engine.h"

#include <liburing.h>
#include <stdio.h>
#include <string.h>

const struct engine_ops *const engines[] = {
	&engine_io_uring, &engine_libaio, &engine_psync,  &engine_sync,	  &engine_mmap,
	&engine_null,	  &engine_inject, &engine_stdio,  &engine_posixaio, &engine_falloc,
	&engine_ftruncate, &engine_filecreate, &engine_filestat, &engine_filedelete, &engine_dircreate,
	&engine_dirstat, &engine_dirdelete, &engine_vsync, &engine_pvsync, &engine_pvsync2, NULL,
};

const struct engine_ops *engine_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (unsigned i = 0; engines[i]; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

/* 0 = not probed yet, 1 = io_uring works, 2 = it does not. */
static int uring_state;

static bool uring_works(void)
{
	int st = __atomic_load_n(&uring_state, __ATOMIC_ACQUIRE);
	if (st)
		return st == 1;

	struct io_uring ring;
	st = io_uring_queue_init(2, &ring, 0) == 0 ? 1 : 2;
	if (st == 1)
		io_uring_queue_exit(&ring);
	/* Racing probes all compute the same answer; last store wins. */
	__atomic_store_n(&uring_state, st, __ATOMIC_RELEASE);
	return st == 1;
}

const struct engine_ops *engine_default(void)
{
	return uring_works() ? &engine_io_uring : &engine_libaio;
}

void engine_list(char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (unsigned i = 0; engines[i] && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s|", engines[i]->name);
	if (k < len)
		snprintf(buf + k, len - k, "auto");
}
