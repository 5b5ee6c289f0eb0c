/*
 * fio's iologs (iolog.c): versions 2 and 3 parsed as fio writes them, bad
 * lines refused with their line number, blktrace traces (either byte
 * order) read as fio reads them and hostile ones refused, and a
 * written log that reads back as the requests that went into it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/iolog.h"
#include "model/ops.h"

static char err[512];

static int parse(const char *text, struct iolog *log)
{
	return iolog_parse(text, strlen(text), log, err, sizeof(err));
}

static void refused(const char *text, const char *want)
{
	struct iolog log;
	err[0] = 0;
	if (parse(text, &log) != -1)
		fail_msg("accepted: %s", text);
	if (!strstr(err, want))
		fail_msg("'%s' lacks '%s'", err, want);
}

static void test_v2(void **state)
{
	(void)state;
	struct iolog log;
	assert_int_equal(parse("fio version 2 iolog\n/dev/x add\n/dev/x open\n/dev/x read 4096 512\n"
			       "/dev/x wait 1000 0\n/dev/x write 0 8192\n/dev/x sync 0 0\n/dev/y add\n"
			       "/dev/y trim 65536 4096\n/dev/x close\n",
			       &log),
			 0);
	assert_int_equal(log.version, 2);
	assert_int_equal(log.nfiles, 2);
	assert_string_equal(log.files[1], "/dev/y");
	assert_int_equal(log.n, 9);
	assert_int_equal(log.e[2].kind, IOLOG_IO);
	assert_int_equal(log.e[2].op, IO_READ);
	assert_int_equal(log.e[2].offset, 4096);
	assert_int_equal(log.e[2].len, 512);
	assert_int_equal(log.e[2].line, 4);
	assert_int_equal(log.e[3].kind, IOLOG_WAIT);
	assert_int_equal(log.e[3].t_us, 1000);
	assert_int_equal(log.e[5].op, IO_FSYNC);
	assert_int_equal(log.e[7].op, IO_TRIM);
	assert_int_equal(log.e[7].file, 1);
	assert_int_equal(log.e[8].kind, IOLOG_CLOSE);
	iolog_free(&log);
}

static void test_v3(void **state)
{
	(void)state;
	struct iolog log;
	/* As fio 3.33 writes it; a v3 wait is ignored (as fio does); no final newline. */
	assert_int_equal(parse("fio version 3 iolog\n285 /tmp/ff add\n4995 /tmp/ff open\n"
			       "5018 /tmp/ff read 0 4096\n15609 /tmp/ff write 28672 4096\n"
			       "15700 /tmp/ff wait 10 0\n\n16000 /tmp/ff datasync 28672 0\n16946 /tmp/ff close",
			       &log),
			 0);
	assert_int_equal(log.version, 3);
	assert_int_equal(log.n, 6);
	assert_int_equal(log.e[2].t_us, 5018);
	assert_int_equal(log.e[3].op, IO_WRITE);
	assert_int_equal(log.e[3].offset, 28672);
	assert_int_equal(log.e[4].op, IO_FDATASYNC);
	assert_int_equal(log.e[4].line, 8);
	assert_int_equal(log.e[5].kind, IOLOG_CLOSE);
	iolog_free(&log);
}

static void test_bad_lines(void **state)
{
	(void)state;
	refused("", "line 1: not a fio iolog");
	refused("fio version 1 iolog\n", "line 1: not a fio iolog");
	refused("fio version 3 iolog\nx /f add\n", "line 2: 'x' is not a timestamp");
	refused("fio version 3 iolog\n1 /f add\n2 /f read 4k 4096\n", "line 3: '4k' is not an offset");
	refused("fio version 3 iolog\n1 /f read 0 -1\n", "line 2: '-1' is not a length");
	refused("fio version 3 iolog\n1 /f read 0 4294967296\n", "line 2: '4294967296' is not a length");
	refused("fio version 3 iolog\n1 /f read 0\n", "line 2: expected TIME FILE ACTION");
	refused("fio version 2 iolog\n/f read 0 1 2\n", "line 2: expected FILE ACTION");
	refused("fio version 2 iolog\n/f add\n/f erase 0 4096\n", "line 3: 'erase' is not an action");
	refused("fio version 2 iolog\n/f remove\n", "line 2: 'remove' is not a file action");
	refused("fio version 2 iolog\n/f write 0 0\n", "line 2: a write of 0 bytes");
	refused("fio version 2 iolog\n/f write 18446744073709551615 4096\n", "past 2^64");
	refused("fio version 2 iolog\n/f read 99999999999999999999 1\n", "is not an offset");
	refused("fio version 2 iolog\n/f read 0 1 2 3 4 5 6\n", "line 2: expected");
	static const char nul[] = "fio version 2 iolog\n/f read 0 1\0\n";
	struct iolog log;
	assert_int_equal(iolog_parse(nul, sizeof(nul) - 1, &log, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 2: not text"));
}

static void test_blktrace_and_write(void **state)
{
	(void)state;
	char dir[] = "/tmp/iogauge-test-iolog.XXXXXX", path[128];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bt", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fwrite("\x07\x74\x61\x65 and the rest", 1, 18, f);
	fclose(f);
	struct iolog log;
	assert_int_equal(iolog_load(path, &log, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "blktrace"));

	/* A written log reads back as what was written. */
	snprintf(path, sizeof(path), "%s/w.log", dir);
	struct iolog_writer *w = calloc(1, sizeof(*w));
	assert_non_null(w);
	assert_int_equal(iolog_writer_open(w, path, "/data/f"), 0);
	iolog_writer_file(w, "open");
	iolog_writer_io(w, IO_WRITE, 8192, 4096);
	iolog_writer_io(w, IO_FSYNC, 0, 0);
	iolog_writer_io(w, IO_READ, 0, 512);
	iolog_writer_io(w, IO_STAT, 0, 0); /* no word for it in fio's logs: left out */
	iolog_writer_file(w, "close");
	assert_int_equal(iolog_writer_close(w), 0);
	free(w);
	assert_int_equal(iolog_load(path, &log, err, sizeof(err)), 0);
	assert_int_equal(log.version, 3);
	assert_int_equal(log.n, 6);
	assert_int_equal(log.e[0].kind, IOLOG_ADD);
	assert_int_equal(log.e[2].op, IO_WRITE);
	assert_int_equal(log.e[2].offset, 8192);
	assert_int_equal(log.e[3].op, IO_FSYNC);
	assert_int_equal(log.e[3].offset, 8192); /* fio's sync carries the request before's offset */
	assert_int_equal(log.e[4].len, 512);
	assert_string_equal(log.files[0], "/data/f");
	assert_true(log.e[5].t_us >= log.e[0].t_us);
	iolog_free(&log);
	unlink(path);
	snprintf(path, sizeof(path), "%s/bt", dir);
	unlink(path);
	rmdir(dir);
}

/* One blk_io_trace record (48 bytes) and PDU payload bytes, in either byte order. */
static size_t record(unsigned char *p, bool be, uint64_t time, uint64_t sector, uint32_t bytes, uint32_t action,
		     uint16_t pdu)
{
	const struct { unsigned off, n; uint64_t v; } f[] = {
		{ 0, 4, 0x65617407 }, { 4, 4, 1 }, { 8, 8, time }, { 16, 8, sector }, { 24, 4, bytes },
		{ 28, 4, action }, { 32, 4, 42 }, { 36, 4, (8u << 20) | 16 }, { 40, 4, 0 }, { 44, 2, 0 },
		{ 46, 2, pdu },
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		for (unsigned b = 0; b < f[i].n; b++)
			p[f[i].off + (be ? f[i].n - 1 - b : b)] = (unsigned char)(f[i].v >> (8 * b));
	memset(p + 48, 'x', pdu);
	return 48u + pdu;
}

#define Q(tc) ((((tc) | (1u << 4)) << 16) | 1u) /* a queue event of these categories */

static void test_blktrace(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		unsigned char b[1024];
		size_t n = 0;
		n += record(b + n, be, 1000, 8, 4096, Q(1), 0);              /* a read */
		n += record(b + n, be, 2001000, 16, 8192, Q(2), 10);         /* a write, a payload */
		n += record(b + n, be, 2500000, 16, 8192, (2u << 16) | 7, 0); /* its issue: left out */
		n += record(b + n, be, 3000000, 0, 0, Q(1u << 10), 0);       /* a notify: left out */
		n += record(b + n, be, 4001000, 0, 0, Q(4 | 2), 0);          /* a flush: a sync */
		n += record(b + n, be, 5001000, 32, 0, Q(1), 0);             /* no bytes: left out */
		n += record(b + n, be, 6001000, 64, 4096, Q((1u << 13) | 2), 0); /* a discard: a trim */
		struct iolog log;
		assert_int_equal(blktrace_byte_order(b, n), be);
		assert_int_equal(blktrace_parse(b, n, &log, err, sizeof(err)), 0);
		assert_true(log.blktrace);
		assert_int_equal(log.n, 4);
		assert_int_equal(log.nfiles, 1);
		assert_int_equal(log.dev[0], (8u << 20) | 16);
		assert_string_equal(log.files[0], "device 8:16");
		static const int ops[] = { IO_READ, IO_WRITE, IO_FSYNC, IO_TRIM };
		static const uint64_t off[] = { 4096, 8192, 0, 32768 }, t[] = { 0, 2000, 4000, 6000 };
		static const uint32_t len[] = { 4096, 8192, 0, 4096 }, rec[] = { 1, 2, 5, 7 };
		for (size_t i = 0; i < 4; i++) {
			assert_int_equal(log.e[i].op, ops[i]);
			assert_int_equal(log.e[i].offset, off[i]);
			assert_int_equal(log.e[i].len, len[i]);
			assert_int_equal(log.e[i].t_us, t[i]);
			assert_int_equal(log.e[i].line, rec[i]);
		}
		iolog_free(&log);
		/* Every cut short of the whole trace, at any byte, is refused (never read past). */
		for (size_t cut = 1; cut < n; cut++) {
			size_t k = 0, at = 0;
			while (at < cut)
				at += 48 + (k++ == 1 ? 10 : 0);
			int rc = blktrace_parse(b, cut, &log, err, sizeof(err));
			assert_int_equal(rc, at == cut ? 0 : -1);
			if (!rc)
				iolog_free(&log);
		}
	}
	unsigned char b[256];
	size_t n = record(b, false, 1, 0, 4096, Q(1), 0);
	n += record(b + n, false, 2, 8, 4096, Q(1), 0);
	b[48 + 46] = b[48 + 47] = 0xff; /* the second record says 65535 payload bytes, has none */
	struct iolog log;
	assert_int_equal(blktrace_parse(b, n, &log, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "record 2: a payload of 65535 bytes"));
	record(b, false, 1, UINT64_MAX / 256, 4096, Q(1), 0);
	assert_int_equal(blktrace_parse(b, 48, &log, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "past 2^64"));
	record(b, false, 1, 0, 4096, Q(1), 0);
	b[0] = 6; /* version 6 */
	assert_int_equal(blktrace_parse(b, 48, &log, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "version 6"));
	(void)n;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v2),
		cmocka_unit_test(test_v3),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_blktrace_and_write),
		cmocka_unit_test(test_blktrace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
