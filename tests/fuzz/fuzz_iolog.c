/*
 * Fuzz target: fio's iolog parser (iolog.c) on any bytes.  A log it accepts
 * has entries whose file indexes, ops and lines are in range.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "model/iolog.h"
#include "model/ops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iolog log;
	char err[512];
	if (iolog_parse((const char *)data, size, &log, err, sizeof(err)))
		return 0;
	for (size_t i = 0; i < log.n; i++) {
		const struct iolog_entry *e = &log.e[i];
		if (e->file >= log.nfiles || (e->kind == IOLOG_IO && e->op > IO_FDATASYNC) || e->line < 2)
			abort();
	}
	iolog_free(&log);
	return 0;
}
