/*
 * Fuzz target: the blktrace reader (blktrace.c) on any bytes, either byte
 * order.  A trace it accepts has entries whose devices, ops, lengths and
 * records are in range (a request's end within 2^64).
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
	if (blktrace_parse(data, size, &log, err, sizeof(err)))
		return 0;
	if (blktrace_byte_order(data, size) < 0 && size)
		abort();
	for (size_t i = 0; i < log.n; i++) {
		const struct iolog_entry *e = &log.e[i];
		if (e->file >= log.nfiles || e->kind != IOLOG_IO || e->line < 1 || (size_t)e->line * 48 > size)
			abort();
		if (e->op == IO_FSYNC ? e->len != 0 : (e->op > IO_TRIM || !e->len || e->offset + e->len < e->offset))
			abort();
	}
	iolog_free(&log);
	return 0;
}
