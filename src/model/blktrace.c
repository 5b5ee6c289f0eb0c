/*
 * blktrace's binary traces as fio 3.33 reads them for read_iolog
 * (fio's blktrace.c): the queue events become requests (reads, writes,
 * discards as trims, flushes as syncs), timed by the event's clock.  Every
 * record is checked against the bytes left: a truncated or hostile trace is
 * refused with one line, never read past.
 */
#include "base/common.h"
#include "model/iolog.h"
#include "model/ops.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* From the kernel's uapi linux/blktrace_api.h. */
#define BT_MAGIC 0x65617400u
#define BT_VERSION 0x07u
#define BT_RECORD 48u /* sizeof(struct blk_io_trace), packed as the kernel writes it */
#define BT_TC_READ (1u << 0)
#define BT_TC_WRITE (1u << 1)
#define BT_TC_FLUSH (1u << 2)
#define BT_TC_NOTIFY (1u << 10)
#define BT_TC_DISCARD (1u << 13)
#define BT_ACT(c) ((c) << 16)
#define BT_TA_QUEUE 1u

static uint32_t get32(const unsigned char *p, bool be)
{
	return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
		  : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint64_t get64(const unsigned char *p, bool be)
{
	uint64_t a = get32(p, be), b = get32(p + 4, be);
	return be ? a << 32 | b : b << 32 | a;
}

static uint16_t get16(const unsigned char *p, bool be)
{
	return (uint16_t)(be ? p[0] << 8 | p[1] : p[1] << 8 | p[0]);
}

int blktrace_byte_order(const unsigned char *b, size_t n)
{
	if (n < 4)
		return -1;
	if ((get32(b, false) & 0xffffff00u) == BT_MAGIC)
		return 0;
	if ((get32(b, true) & 0xffffff00u) == BT_MAGIC)
		return 1;
	return -1;
}

static int bad(char *err, size_t n, size_t rec, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int bad(char *err, size_t n, size_t rec, const char *fmt, ...)
{
	char what[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(err, n, "blktrace record %zu: %s", rec, what);
	return -1;
}

/* The log's file for a device (kernel dev_t: 12 bits major, 20 bits minor, as fio reads it). */
static int device_index(struct iolog *log, uint32_t dev)
{
	for (unsigned i = 0; i < log->nfiles; i++)
		if (log->dev[i] == dev)
			return (int)i;
	if (log->nfiles == IOLOG_MAX_FILES)
		return -1;
	char name[64];
	snprintf(name, sizeof(name), "device %u:%u", dev >> 20, dev & 0xfffffu);
	log->files[log->nfiles] = strdup(name);
	if (!log->files[log->nfiles])
		return -1;
	log->dev[log->nfiles] = dev;
	return (int)log->nfiles++;
}

static int parse(const unsigned char *b, size_t len, struct iolog *log, char *err, size_t errlen)
{
	int order = blktrace_byte_order(b, len);
	if (order < 0)
		return bad(err, errlen, 1, "no blktrace magic (0x%08x)", BT_MAGIC);
	bool be = order == 1;
	uint64_t last_ns = 0, at_ns = 0; /* the last queue event's clock; the replay's clock */
	size_t rec = 0;
	for (size_t p = 0; p < len;) {
		rec++;
		if (len - p < BT_RECORD)
			return bad(err, errlen, rec, "truncated (%zu bytes of a %u-byte record)", len - p, BT_RECORD);
		const unsigned char *r = b + p;
		uint32_t magic = get32(r, be);
		if ((magic & 0xffffff00u) != BT_MAGIC)
			return bad(err, errlen, rec, "bad magic 0x%08x", magic);
		if ((magic & 0xffu) != BT_VERSION)
			return bad(err, errlen, rec, "blktrace version %u (fio reads version %u)", magic & 0xffu, BT_VERSION);
		uint64_t time = get64(r + 8, be), sector = get64(r + 16, be);
		uint32_t bytes = get32(r + 24, be), action = get32(r + 28, be), device = get32(r + 36, be);
		uint16_t pdu = get16(r + 46, be);
		if (len - p - BT_RECORD < pdu)
			return bad(err, errlen, rec, "a payload of %u bytes runs past the end of the trace", pdu);
		p += BT_RECORD + pdu;
		/* fio takes the queue events only: the others are the block layer's own steps. */
		if ((action & 0xffffu) != BT_TA_QUEUE || (action & BT_ACT(BT_TC_NOTIFY)))
			continue;
		/* The time since the last queue event, as fio's delay_since_ttime (a clock going back: none). */
		if (last_ns && time > last_ns)
			at_ns += time - last_ns;
		last_ns = time;
		int op;
		if (action & BT_ACT(BT_TC_DISCARD))
			op = IO_TRIM;
		else if (action & BT_ACT(BT_TC_FLUSH))
			op = IO_FSYNC; /* fio: a flush, whatever else the request carries */
		else
			op = action & BT_ACT(BT_TC_WRITE) ? IO_WRITE : IO_READ;
		if (op != IO_FSYNC && !bytes)
			continue; /* fio ignores requests of no bytes */
		if (op != IO_FSYNC && sector > (UINT64_MAX - bytes) / 512)
			return bad(err, errlen, rec, "sector %llu + %u bytes is past 2^64 bytes", (unsigned long long)sector,
				   bytes);
		int f = device_index(log, device);
		if (f < 0)
			return bad(err, errlen, rec, "more than %d devices", IOLOG_MAX_FILES);
		struct iolog_entry *e = iolog_push(log);
		if (!e)
			return bad(err, errlen, rec, "out of memory");
		e->kind = IOLOG_IO;
		e->op = (uint8_t)op;
		e->offset = op == IO_FSYNC ? 0 : sector * 512;
		e->len = op == IO_FSYNC ? 0 : bytes;
		e->t_us = at_ns / 1000;
		e->line = rec > UINT32_MAX ? UINT32_MAX : (uint32_t)rec;
		e->file = (uint16_t)f;
	}
	return 0;
}

int blktrace_parse(const unsigned char *b, size_t len, struct iolog *log, char *err, size_t errlen)
{
	memset(log, 0, sizeof(*log));
	log->version = 3; /* timed by its clock from the first request, as a version 3 log */
	log->blktrace = true;
	if (parse(b, len, log, err, errlen)) {
		iolog_free(log);
		return -1;
	}
	return 0;
}
