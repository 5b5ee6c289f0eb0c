/*
 * Unit tests for verification (src/run/verify.c) through its hooks, with no I/O:
 * every byte of a block flipped is found, a block at the wrong offset is
 * misplaced, an older write is a lost write, another seed is foreign, reads
 * that overlap a write are not held against the block, and the report keeps
 * VERIFY_REPORT_MAX blocks and counts the rest; the blocks a layout makes for
 * a verifying reader check clean (reads of several sizes with a
 * verify_interval), and what cannot be laid out is refused with why; fio's
 * header (`iogauge fio`) has fio's fields at fio's offsets, every byte of it
 * and of its checksum is covered, and a misplaced and a stale block are
 * named in fio's words.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/common.h"
#include "options/options.h"
#include "run/verify.h"
#include "run/worker.h"
#include "model/engine.h"

#define BS 512
#define NB 64

static struct job gj;
static struct settings gs;
static bool fio_fmt; /* make() builds jobs with fio's headers (`iogauge fio`) */
static unsigned char disk[NB][BS]; /* what a device would hold */

static struct verify_ctx *make(int algo, unsigned depth)
{
	struct ig_err e = { 0 };
	options_defaults(&gj, &gs);
	snprintf(gj.name, sizeof(gj.name), "v");
	snprintf(gj.filename, sizeof(gj.filename), "/nonexistent");
	gj.bs = BS;
	gj.size = (uint64_t)NB * BS;
	gj.rw = RW_RANDWRITE;
	gj.verify = algo;
	gj.engine = depth > 1 ? &engine_io_uring : &engine_psync;
	gj.iodepth = depth;
	gj.plan.fio_verify = fio_fmt;
	if (algo == VERIFY_PATTERN) {
		gj.data.mode = DATA_PATTERN;
		gj.data.pattern_len = 3;
		memcpy(gj.data.pattern, "\x11\x22\x33", 3);
	}
	assert_int_equal(verify_job_check(&gj, &e), 0);
	struct verify_ctx *v = verify_new(&gj, 1, 1, NULL, 1, &e);
	assert_non_null(v);
	return v;
}

/* Write block b (prep stamps it, complete records it), as a device would keep it. */
static void write_block(struct verify_ctx *v, unsigned b, unsigned idx)
{
	const struct worker_hooks *h = verify_hooks(v);
	static unsigned char buf[BS];
	struct io_u u = { .buf = buf, .offset = (uint64_t)b * BS, .len = BS, .op = IO_WRITE, .idx = idx };
	if (gj.verify == VERIFY_PATTERN)
		for (unsigned i = 0; i < BS; i++)
			buf[i] = gj.data.pattern[i % 3];
	else
		for (unsigned i = 0; i < BS; i++)
			buf[i] = (unsigned char)(rand() & 0xff);
	h->prep(h->arg, 0, &u);
	memcpy(disk[b], buf, BS);
	u.res = BS;
	assert_int_equal(h->complete(h->arg, 0, &u, 0), 0);
}

/* Read block b from `from` (default: the disk) at b's offset. */
static void read_block(struct verify_ctx *v, unsigned b, const unsigned char *from)
{
	const struct worker_hooks *h = verify_hooks(v);
	unsigned char buf[BS];
	struct io_u u = { .buf = buf, .offset = (uint64_t)b * BS, .len = BS, .op = IO_READ };
	memcpy(buf, from ? from : disk[b], BS);
	h->prep(h->arg, 0, &u);
	u.res = BS;
	assert_int_equal(h->complete(h->arg, 0, &u, 0), 0);
}

static const struct verify_stats *result(struct verify_ctx *v)
{
	return verify_collect(v);
}

static void clean_roundtrip(void **state)
{
	(void)state;
	for (int algo = VERIFY_CRC32C; algo <= VERIFY_PATTERN; algo++) {
		struct verify_ctx *v = make(algo, 1);
		for (unsigned b = 0; b < NB; b++)
			write_block(v, b, 0);
		for (unsigned b = 0; b < NB; b++)
			read_block(v, b, NULL);
		const struct verify_stats *s = result(v);
		assert_int_equal(s->checked, NB);
		assert_int_equal(s->written, NB);
		assert_int_equal(s->bad, 0);
		verify_free(v);
	}
}

/* Every single byte flipped anywhere in a block is found, with that block's offset. */
static void every_byte_flip_found(void **state)
{
	(void)state;
	for (int algo = VERIFY_CRC32C; algo <= VERIFY_PATTERN; algo++) {
		struct verify_ctx *v = make(algo, 1);
		for (unsigned b = 0; b < NB; b++)
			write_block(v, b, 0);
		for (unsigned i = 0; i < BS; i++) {
			unsigned char copy[BS];
			memcpy(copy, disk[9], BS);
			copy[i] ^= 0x01;
			read_block(v, 9, copy);
			const struct verify_stats *s = result(v);
			if (s->bad != i + 1)
				fail_msg("%s: a flip of byte %u went unseen", verify_names[algo], i);
			assert_int_equal(s->list[0].offset, 9 * BS);
		}
		const struct verify_stats *s = result(v);
		if (algo == VERIFY_PATTERN)
			assert_int_equal(s->by_kind[VK_PATTERN], BS);
		else
			assert_int_equal(s->by_kind[VK_CORRUPT] + s->by_kind[VK_NO_HEADER] + s->by_kind[VK_LENGTH], BS);
		verify_free(v);
	}
}

static void misplaced_lost_foreign(void **state)
{
	(void)state;
	struct verify_ctx *v = make(VERIFY_CRC32C, 1);
	for (unsigned b = 0; b < NB; b++)
		write_block(v, b, 0);
	unsigned char old7[BS];
	memcpy(old7, disk[7], BS);
	write_block(v, 7, 0); /* a second write of block 7 */
	read_block(v, 5, disk[3]); /* block 3 found at block 5's place */
	read_block(v, 7, old7);    /* the first write of 7 came back */
	const struct verify_stats *s = result(v);
	assert_int_equal(s->bad, 2);
	assert_int_equal(s->list[0].kind, VK_MISPLACED);
	assert_int_equal(s->list[0].offset, 5 * BS);
	assert_int_equal(s->list[0].found, 3 * BS);
	assert_int_equal(s->list[1].kind, VK_LOST);
	assert_int_equal(s->list[1].offset, 7 * BS);
	assert_int_equal(s->list[1].expected, NB + 1);
	assert_int_equal(s->list[1].found, 8);
	char msg[256];
	verify_describe(&s->list[1], msg, sizeof(msg));
	assert_non_null(strstr(msg, "lost write"));
	verify_free(v);

	/* The same job with another seed: every block is foreign to it. */
	struct verify_ctx *a = make(VERIFY_XXHASH, 1);
	for (unsigned b = 0; b < NB; b++)
		write_block(a, b, 0);
	verify_free(a);
	gj.randseed = 99;
	struct ig_err e = { 0 };
	struct verify_ctx *other = verify_new(&gj, 1, 1, NULL, 1, &e);
	const struct worker_hooks *h = verify_hooks(other);
	struct io_u u = { .offset = 0, .len = BS, .op = IO_WRITE };
	for (unsigned b = 0; b < NB; b++) { /* replay: what a run with seed 99 wrote */
		u.offset = (uint64_t)b * BS;
		h->prep(h->arg, 0, &u);
	}
	for (unsigned b = 0; b < NB; b++)
		read_block(other, b, NULL);
	assert_int_equal(result(other)->by_kind[VK_FOREIGN], NB);
	verify_free(other);
}

/* fio's crc32c as its verify header has it: seeded with ~0, not inverted at the end. */
static uint32_t crc32c_ref(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = c >> 1 ^ (c & 1 ? 0x82f63b78u : 0);
	}
	return c;
}

/*
 * fio's header (`iogauge fio`): fio's fields at fio's offsets, a sound
 * header crc, every header and checksum byte flipped found (the data's too
 * where a checksum covers it), a misplaced and a stale block in fio's words.
 */
static void fio_header(void **state)
{
	(void)state;
	static const struct { int algo; uint16_t type; unsigned field; } kinds[] = {
		{ VERIFY_CRC32C, 5, 4 }, { VERIFY_XXHASH, 15, 4 }, { VERIFY_MD5, 2, 16 },
		{ VERIFY_SHA256, 9, 64 }, { VERIFY_META, 1, 0 },
	};
	fio_fmt = true;
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct verify_ctx *v = make(kinds[k].algo, 1);
		for (unsigned b = 0; b < NB; b++)
			write_block(v, b, 0);
		for (unsigned b = 0; b < NB; b++) {
			const uint8_t *d = disk[b];
			uint16_t magic, type, thread, nio;
			uint32_t len, crc;
			uint64_t off;
			memcpy(&magic, d, 2);
			memcpy(&type, d + 2, 2);
			memcpy(&len, d + 4, 4);
			memcpy(&off, d + 16, 8);
			memcpy(&thread, d + 32, 2);
			memcpy(&nio, d + 34, 2);
			memcpy(&crc, d + 36, 4);
			assert_int_equal(magic, 0xacca);
			assert_int_equal(type, kinds[k].type);
			assert_int_equal(len, BS);
			assert_int_equal(off, (uint64_t)b * BS);
			assert_int_equal(thread, 1);
			assert_int_equal(nio, b);
			assert_int_equal(crc, crc32c_ref(d, 36));
			read_block(v, b, NULL);
		}
		assert_int_equal(result(v)->bad, 0);
		/* Every byte of the header and its checksum field; the data's where a checksum covers it. */
		unsigned upto = kinds[k].field ? BS : 40, bad = 0;
		for (unsigned i = 0; i < upto; i++) {
			unsigned char copy[BS];
			memcpy(copy, disk[9], BS);
			copy[i] ^= 0x01;
			read_block(v, 9, copy);
			if (result(v)->bad != ++bad)
				fail_msg("%s: a flip of byte %u of fio's block went unseen", verify_names[kinds[k].algo], i);
		}
		verify_free(v);
	}
	struct verify_ctx *v = make(VERIFY_CRC32C, 1);
	for (unsigned b = 0; b < NB; b++)
		write_block(v, b, 0);
	unsigned char old7[BS];
	memcpy(old7, disk[7], BS);
	write_block(v, 7, 0); /* the second write of block 7: numberio 64 */
	read_block(v, 5, disk[3]);
	read_block(v, 7, old7);
	const struct verify_stats *s = result(v);
	char msg[512];
	assert_int_equal(s->bad, 2);
	assert_true(verify_describe_fio(&s->list[0], "f", msg, sizeof(msg)));
	assert_string_equal(msg, "verify: bad header offset 1536, wanted 2560 at file f offset 2560, length 512 (requested block: offset=2560, length=512)");
	assert_true(verify_describe_fio(&s->list[1], "f", msg, sizeof(msg)));
	assert_string_equal(msg, "verify: bad header numberio 7, wanted 64 at file f offset 3584, length 512 (requested block: offset=3584, length=512)");
	verify_free(v);
	fio_fmt = false;
}

/* Reads that overlap a write of their block, and blocks two writes raced on, are not judged. */
static void overlaps_not_judged(void **state)
{
	(void)state;
	struct verify_ctx *v = make(VERIFY_CRC32C, 4);
	const struct worker_hooks *h = verify_hooks(v);
	for (unsigned b = 0; b < NB; b++)
		write_block(v, b, 0);
	/* A read issued while a write of block 2 is in flight, completed after it. */
	unsigned char wb[BS], rb[BS];
	memset(wb, 0x5a, BS);
	struct io_u w = { .buf = wb, .offset = 2 * BS, .len = BS, .op = IO_WRITE, .idx = 1, .res = BS };
	struct io_u r = { .buf = rb, .offset = 2 * BS, .len = BS, .op = IO_READ, .idx = 2, .res = BS };
	h->prep(h->arg, 0, &w);
	h->prep(h->arg, 0, &r);
	memset(rb, 0xee, BS); /* a torn read */
	assert_int_equal(h->complete(h->arg, 0, &w, 0), 0);
	memcpy(disk[2], wb, BS);
	assert_int_equal(h->complete(h->arg, 0, &r, 0), 0);
	const struct verify_stats *s = result(v);
	assert_int_equal(s->bad, 0);
	assert_int_equal(s->overlapped, 1);
	/* Two writes of block 4 in flight together: not judged until a lone write settles it. */
	unsigned char a[BS], b[BS];
	struct io_u w1 = { .buf = a, .offset = 4 * BS, .len = BS, .op = IO_WRITE, .idx = 1, .res = BS };
	struct io_u w2 = { .buf = b, .offset = 4 * BS, .len = BS, .op = IO_WRITE, .idx = 2, .res = BS };
	h->prep(h->arg, 0, &w1);
	h->prep(h->arg, 0, &w2);
	h->complete(h->arg, 0, &w2, 0);
	h->complete(h->arg, 0, &w1, 0);
	memcpy(disk[4], a, BS / 2); /* parts of both */
	memcpy(disk[4] + BS / 2, b + BS / 2, BS / 2);
	read_block(v, 4, NULL);
	s = result(v);
	assert_int_equal(s->bad, 0);
	assert_int_equal(s->overlapped, 2);
	write_block(v, 4, 3); /* alone in flight: settled */
	read_block(v, 4, NULL);
	disk[4][100] ^= 1;
	read_block(v, 4, NULL);
	s = result(v);
	assert_int_equal(s->bad, 1);
	verify_free(v);
}

/* Blocks never written are not checked; the report keeps 10 and counts the rest. */
static void limits_and_unwritten(void **state)
{
	(void)state;
	struct verify_ctx *v = make(VERIFY_SHA256, 1);
	for (unsigned b = 0; b < 20; b++)
		write_block(v, b, 0);
	unsigned char zero[BS] = { 0 };
	for (unsigned b = 0; b < NB; b++)
		read_block(v, b, zero);
	const struct verify_stats *s = result(v);
	assert_int_equal(s->checked, 20);
	assert_int_equal(s->bad, 20);
	assert_int_equal(s->by_kind[VK_NO_HEADER], 20);
	assert_int_equal(s->nkept, VERIFY_REPORT_MAX);
	for (unsigned i = 1; i < s->nkept; i++)
		assert_true(s->list[i - 1].offset < s->list[i].offset);
	verify_free(v);
}

static void refusals(void **state)
{
	(void)state;
	struct ig_err e = { 0 };
	options_defaults(&gj, &gs);
	snprintf(gj.name, sizeof(gj.name), "v");
	gj.verify = VERIFY_CRC32C;
	gj.rw = RW_READ;
	/* A read job checks what it reads (fio's read-only verify); verify_only replays writes it has none of. */
	assert_int_equal(verify_job_check(&gj, &e), 0);
	gj.verify_only = true;
	assert_int_equal(verify_job_check(&gj, &e), -1);
	assert_non_null(strstr(e.msg, "writes nothing"));
	struct { int rw, algo; uint64_t bs; bool only, tb; const char *want; } cases[] = {
		{ RW_WRITE, VERIFY_PATTERN, 4096, false, false, "--verify=pattern needs" },
		{ RW_WRITE, VERIFY_CRC32C, 64, false, false, "--bs of at least" },
		{ RW_WRITE, VERIFY_CRC32C, 4096, true, true, "--time_based" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ig_err x = { 0 };
		options_defaults(&gj, &gs);
		gj.rw = cases[i].rw;
		gj.verify = cases[i].algo;
		gj.bs = cases[i].bs;
		gj.verify_only = cases[i].only;
		gj.time_based = cases[i].tb;
		assert_int_equal(verify_job_check(&gj, &x), -1);
		assert_int_equal(x.status, EXIT_USAGE);
		if (!strstr(x.msg, cases[i].want))
			fail_msg("'%s' does not say '%s'", x.msg, cases[i].want);
	}
	struct ig_err x = { 0 };
	options_defaults(&gj, &gs);
	gj.verify_only = true;
	assert_int_equal(verify_job_check(&gj, &x), -1);
	assert_non_null(strstr(x.msg, "needs --verify"));
}

/* A reader's blocks as the layout makes them (verify_layout_block) check clean, whatever the reads' sizes. */
static void read_job(int algo, uint64_t bs)
{
	options_defaults(&gj, &gs);
	snprintf(gj.name, sizeof(gj.name), "v");
	gj.bs = bs;
	gj.size = (uint64_t)NB * BS;
	gj.rw = RW_READ;
	gj.verify = algo;
	gj.engine = &engine_psync;
	if (algo == VERIFY_PATTERN) {
		gj.data.mode = DATA_PATTERN;
		gj.data.pattern_len = 3;
		memcpy(gj.data.pattern, "\x11\x22\x33", 3);
	}
}

/* Lay out [0, NB * BS) in blocks of unit, then read it back in reads of `len` at offset `at`. */
static uint64_t layout_and_read(uint64_t unit, const uint32_t *lens, unsigned nlens)
{
	struct ig_err e = { 0 };
	static unsigned char file[NB * BS];
	struct verify_ctx *lay = verify_layout_new(&gj, 1, &e);
	assert_non_null(lay);
	for (uint64_t off = 0; off + unit <= sizeof(file); off += unit) {
		for (uint64_t i = 0; i < unit; i++)
			file[off + i] = (unsigned char)(rand() & 0xff); /* the layout's own data first */
		verify_layout_block(lay, 0, off / unit + 1, file + off, off, (uint32_t)unit);
	}
	verify_free(lay);
	struct verify_ctx *v = verify_new(&gj, 1, 1, NULL, 1, &e);
	assert_non_null(v);
	const struct worker_hooks *h = verify_hooks(v);
	unsigned char buf[NB * BS];
	for (uint64_t off = 0, k = 0; off < sizeof(file); k++) {
		uint32_t len = lens[k % nlens];
		if (off + len > sizeof(file))
			break;
		memcpy(buf, file + off, len);
		struct io_u u = { .buf = buf, .offset = off, .len = len, .op = IO_READ, .res = len };
		h->prep(h->arg, 0, &u);
		assert_int_equal(h->complete(h->arg, 0, &u, 0), 0);
		off += len;
	}
	const struct verify_stats *s = verify_collect(v);
	uint64_t bad = s->bad;
	assert_true(s->checked > 0);
	verify_free(v);
	return bad;
}

static void layout_blocks(void **state)
{
	(void)state;
	char why[512];
	uint64_t unit;
	static const uint32_t one[] = { 1024 }, several[] = { 1024, 2048, 3072 };
	for (int algo = VERIFY_CRC32C; algo <= VERIFY_META; algo++) {
		read_job(algo, 1024);
		assert_true(verify_layout_checked(&gj));
		assert_int_equal(verify_layout_unit(&gj, &unit, why, sizeof(why)), 0);
		assert_int_equal(unit, 1024);
		assert_int_equal(layout_and_read(unit, one, 1), 0);
		/* Several sizes: refused without a verify_interval that divides them (a pattern: in phase). */
		gj.bsrange[IO_READ][0] = 1024;
		gj.bsrange[IO_READ][1] = 3072;
		if (algo == VERIFY_PATTERN) {
			assert_int_equal(verify_layout_unit(&gj, &unit, why, sizeof(why)), -1);
			assert_non_null(strstr(why, "3-byte --verify_pattern"));
			gj.data.pattern_len = 2; /* 1024 is a multiple of 2 */
			assert_int_equal(verify_layout_unit(&gj, &unit, why, sizeof(why)), 0);
			assert_int_equal(layout_and_read(unit, several, 3), 0);
			continue;
		}
		assert_int_equal(verify_layout_unit(&gj, &unit, why, sizeof(why)), -1);
		assert_non_null(strstr(why, "--verify_interval=1024"));
		gj.verify_interval = 512;
		assert_int_equal(verify_layout_unit(&gj, &unit, why, sizeof(why)), 0);
		assert_int_equal(unit, 512);
		assert_int_equal(layout_and_read(unit, several, 3), 0);
		gj.verify_interval = 768; /* divides no read */
		assert_int_equal(verify_layout_unit(&gj, &unit, why, sizeof(why)), -1);
		assert_non_null(strstr(why, "does not divide"));
	}
	/* A writer's layout is made where it can be, never refused: it is no reader. */
	read_job(VERIFY_CRC32C, 1024);
	gj.rw = RW_WRITE;
	assert_true(verify_layout_wanted(&gj));
	assert_false(verify_layout_checked(&gj));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_roundtrip),	 cmocka_unit_test(every_byte_flip_found),
		cmocka_unit_test(misplaced_lost_foreign), cmocka_unit_test(overlaps_not_judged),
		cmocka_unit_test(limits_and_unwritten),	 cmocka_unit_test(refusals),
		cmocka_unit_test(layout_blocks),	 cmocka_unit_test(fio_header),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
