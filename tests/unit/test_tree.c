/*
 * Unit tests for tree reads (tree.h, engines/tree.c, digest.c, compress.c,
 * suites/tree_opts.c): checksums against published vectors, fed whole and in
 * pieces; compressed sizes framed as lzop and gzip frame them; --streams
 * lists; a built tree's sizes; the walk of a directory with every kind of
 * entry; the split of items among streams; and tree jobs through the runner,
 * with files that vanish, change or shrink after the walk.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/common.h"
#include "base/compress.h"
#include "base/digest.h"
#include "options/options.h"
#include "options/args.h"
#include "cmds/commands.h"
#include "run/runner.h"
#include "suite/suite.h"
#include "cmds/suite_read.h"
#include "run/tree.h"
#include "suites/tree_opts.h"
#include "report/report.h"
#include "report/result_read.h"

extern const struct command cmd_tree;

/* ---- checksums */

static void hex_of(int kind, const void *p, size_t n, size_t piece, char *out)
{
	struct digest d;
	uint8_t raw[DIGEST_MAX];
	assert_int_equal(digest_init(&d, kind), 0);
	digest_start(&d);
	for (size_t off = 0; off < n; off += piece)
		digest_update(&d, (const char *)p + off, n - off < piece ? n - off : piece);
	size_t len = digest_final(&d, raw);
	assert_int_equal(len, digest_len(kind));
	digest_hex(raw, len, out);
	digest_free(&d);
}

static void test_digest_vectors(void **state)
{
	(void)state;
	char hex[2 * DIGEST_MAX + 1];
	/* RFC 1321, FIPS 180-2, xxHash's XXH64("abc", 0), RFC 3720's CRC32C check value. */
	hex_of(DIGEST_MD5, "abc", 3, 3, hex);
	assert_string_equal(hex, "900150983cd24fb0d6963f7d28e17f72");
	hex_of(DIGEST_SHA256, "abc", 3, 1, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	hex_of(DIGEST_XXHASH, "abc", 3, 2, hex);
	assert_string_equal(hex, "44bc2cf5ad770999");
	hex_of(DIGEST_CRC32C, "123456789", 9, 4, hex);
	assert_string_equal(hex, "e3069283");
	hex_of(DIGEST_MD5, "", 0, 1, hex);
	assert_string_equal(hex, "d41d8cd98f00b204e9800998ecf8427e");
}

/* A digest fed in pieces is the digest of the whole, and starting again forgets the last file. */
static void test_digest_pieces(void **state)
{
	(void)state;
	enum { N = 300000 };
	unsigned char *buf = malloc(N);
	for (size_t i = 0; i < N; i++)
		buf[i] = (unsigned char)(i * 2654435761u >> 13);
	for (int k = DIGEST_MD5; k < DIGEST_NR; k++) {
		char whole[2 * DIGEST_MAX + 1], pieces[2 * DIGEST_MAX + 1];
		hex_of(k, buf, N, N, whole);
		hex_of(k, buf, N, 4093, pieces);
		assert_string_equal(whole, pieces);
		struct digest d;
		uint8_t a[DIGEST_MAX], b[DIGEST_MAX];
		assert_int_equal(digest_init(&d, k), 0);
		digest_start(&d);
		digest_update(&d, "something else", 14);
		digest_final(&d, a);
		digest_start(&d);
		digest_update(&d, buf, N);
		size_t n = digest_final(&d, b);
		digest_hex(b, n, pieces);
		assert_string_equal(whole, pieces);
		digest_free(&d);
	}
	free(buf);
}

/* ---- compression */

static uint64_t compressed(int kind, unsigned level, const void *p, size_t n, size_t piece, size_t name)
{
	struct compressor c;
	char err[128];
	assert_int_equal(compressor_init(&c, kind, level, err, sizeof(err)), 0);
	compressor_start(&c, n, name);
	for (size_t off = 0; off < n; off += piece)
		assert_int_equal(compressor_update(&c, (const char *)p + off, n - off < piece ? n - off : piece), 0);
	assert_int_equal(compressor_end(&c), 0);
	uint64_t out = c.out;
	compressor_free(&c);
	return out;
}

static void test_compress_sizes(void **state)
{
	(void)state;
	enum { N = 1 << 20 };
	unsigned char *zero = calloc(1, N), *rnd = malloc(N);
	uint64_t x = 88172645463325252ULL;
	for (size_t i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		rnd[i] = (unsigned char)x;
	}
	/* lzop's framing: 42 bytes and the name for the file, 12 for each 256 KiB block stored as it is. */
	assert_int_equal(compressed(COMPRESS_LZO, 0, rnd, 0, 1, 4), 46);
	assert_int_equal(compressed(COMPRESS_LZO, 0, rnd, N, 65536, 4), 46 + N + 4 * 12);
	assert_true(compressed(COMPRESS_LZO, 0, zero, N, 4096, 4) < 46 + 4 * 12 + 8192);
	assert_true(compressed(COMPRESS_LZO, 9, zero, N, N, 4) < 46 + 4 * 12 + 8192);
	for (int k = COMPRESS_ZLIB; k <= COMPRESS_ZSTD; k++) {
		uint64_t z = compressed(k, 0, zero, N, 100000, 3), r = compressed(k, 0, rnd, N, 100000, 3);
		assert_true(z < N / 100);
		assert_true(r >= N && r < N + N / 100); /* random data does not shrink */
		/* The same file fed whole or in pieces compresses to the same size. */
		assert_int_equal(compressed(k, 0, rnd, N, N, 3), r);
	}
	assert_int_equal(compress_default_level(COMPRESS_ZSTD), 3);
	assert_int_equal(compress_default_level(COMPRESS_ZLIB), 6);
	free(zero);
	free(rnd);
}

/* ---- options */

static int streams(const char *val, unsigned *out)
{
	struct job j;
	struct settings s;
	char err[512];
	options_defaults(&j, &s);
	const struct opt_def *o = option_find_cmd("streams", 7, &cmd_tree);
	assert_non_null(o);
	if (option_apply(o, &j, &s, val, err, sizeof(err)))
		return -1;
	memcpy(out, tree_opts_c(&s)->streams, sizeof(tree_opts_c(&s)->streams));
	char back[256];
	option_print(o, &j, &s, back, sizeof(back));
	struct settings s2 = s;
	assert_int_equal(option_apply(o, &j, &s2, back, err, sizeof(err)), 0);
	assert_memory_equal(tree_opts_c(&s2), tree_opts_c(&s), sizeof(struct tree_opts)); /* it reads back as it was */
	return (int)tree_opts_c(&s)->nstreams;
}

static void test_streams_option(void **state)
{
	(void)state;
	unsigned v[TREE_MAX_STREAMS];
	assert_int_equal(streams("4", v), 3);
	assert_true(v[0] == 1 && v[1] == 2 && v[2] == 4);
	assert_int_equal(streams("10", v), 5);
	assert_true(v[3] == 8 && v[4] == 10);
	assert_int_equal(streams("2..25", v), 5);
	assert_true(v[0] == 2 && v[1] == 4 && v[2] == 8 && v[3] == 16 && v[4] == 25);
	assert_int_equal(streams("1,3,10", v), 3);
	assert_true(v[0] == 1 && v[1] == 3 && v[2] == 10);
	assert_int_equal(streams("1", v), 1);
	assert_int_equal(streams("", v), 0);
	const char *bad[] = { "0", "257", "3,2", "2,2", "5..2", "a..4", "1..", "x", "1,,2", "-1", NULL };
	for (int i = 0; bad[i]; i++)
		if (streams(bad[i], v) != -1)
			fail_msg("--streams=%s accepted", bad[i]);
}

/* ---- a built tree's sizes */

static void test_make_sizes(void **state)
{
	(void)state;
	struct tree_make m = { .files = 20001, .size_lo = 4096, .size_hi = 1 << 20, .seed = 7 };
	uint64_t below = 0;
	for (uint64_t i = 0; i < m.files; i++) {
		uint64_t s = tree_make_size(&m, i);
		assert_true(s >= m.size_lo && s <= m.size_hi);
		assert_int_equal(s, tree_make_size(&m, i)); /* the same every time */
		below += s < 65536; /* log-uniform: the geometric mean (64 KiB) halves the files */
	}
	assert_true(below > 9500 && below < 10500);
	struct tree_make other = m;
	other.seed = 8;
	unsigned same = 0;
	for (uint64_t i = 0; i < 100; i++)
		same += tree_make_size(&m, i) == tree_make_size(&other, i);
	assert_true(same < 5);
	struct tree_make fixed = { .size_lo = 777, .size_hi = 777 };
	assert_int_equal(tree_make_size(&fixed, 3), 777);
	struct tree_make empty = { .size_lo = 0, .size_hi = 10, .seed = 1 };
	uint64_t zeros = 0;
	for (uint64_t i = 0; i < 1000; i++)
		zeros += tree_make_size(&empty, i) == 0;
	assert_true(zeros > 50); /* empty files come up too */
}

/* ---- the walk */

static char dir[200]; /* short: paths below it fit every buffer */

static void put(const char *rel, size_t size)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	for (size_t i = 0; i < size; i++)
		fputc((int)(i * 7 + size), f);
	fclose(f);
}

static void mk(const char *rel)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static int setup_tree(void **state)
{
	(void)state;
	char p[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/iogauge-test-tree.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	mk("a");
	mk("a/b");
	mk("c");
	put("a/one", 1000);
	put("a/b/two", 200000);
	put("c/three", 5);
	put("empty", 0);
	snprintf(p, sizeof(p), "%s/a/fifo", dir);
	if (mkfifo(p, 0644))
		return -1;
	snprintf(p, sizeof(p), "%s/etc", dir);
	if (symlink("/etc", p))
		return -1;
	snprintf(p, sizeof(p), "%s/c/one-link", dir);
	if (symlink("../a/one", p))
		return -1;
	/* A socket's path must fit sun_path: bound by a relative name. */
	struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = "c/sock" };
	char cwd[PATH_MAX];
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0 || !getcwd(cwd, sizeof(cwd)) || chdir(dir) || bind(s, (struct sockaddr *)&sa, sizeof(sa)) || chdir(cwd))
		return -1;
	close(s);
	return 0;
}

static int teardown_tree(void **state)
{
	(void)state;
	char cmd[PATH_MAX + 32];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static void test_walk(void **state)
{
	(void)state;
	struct tree_job t;
	struct ig_err e = { 0 };
	volatile sig_atomic_t stop = 0;
	tree_job_init(&t);
	snprintf(t.root, sizeof(t.root), "%s", dir);
	assert_int_equal(tree_walk(&t, &stop, &e), 0);
	assert_int_equal(t.walk.files, 4);
	assert_int_equal(t.walk.items, 4);
	assert_int_equal(t.walk.bytes, 1000 + 200000 + 5);
	assert_int_equal(t.walk.dirs, 4);
	assert_int_equal(t.walk.symlinks, 2);
	assert_int_equal(t.walk.fifos, 1);
	assert_int_equal(t.walk.sockets, 1);
	assert_int_equal(t.walk.other_fs + t.walk.unreadable + t.walk.vanished, 0);
	/* Every file by its path below the root; a directory's files come before the next directory's. */
	char seen[4][PATH_MAX];
	for (uint64_t i = 0; i < t.nitems; i++) {
		assert_true(tree_item_path(&t, i, seen[i]) > 0);
		assert_true(t.items[i].seg & TREE_LAST);
	}
	const char *want[] = { "a/one", "a/b/two", "c/three", "empty" };
	for (int k = 0; k < 4; k++) {
		bool found = false;
		for (uint64_t i = 0; i < t.nitems; i++)
			found |= !strcmp(seen[i], want[k]);
		if (!found)
			fail_msg("%s not listed", want[k]);
	}
	char full[PATH_MAX + 64];
	tree_describe(&t, 0, full, sizeof(full));
	assert_int_equal(strncmp(full, dir, strlen(dir)), 0);
	/* Nothing but directories and regular files is opened: the FIFO did not hang the walk. */
	int fd = tree_open(&t, "a/one");
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(tree_open(&t, "c/one-link"), -ELOOP); /* never through a link */
	assert_true(tree_open(&t, "etc/passwd") < 0);
	tree_job_free(&t);
}

static void test_walk_refused(void **state)
{
	(void)state;
	struct tree_job t;
	struct ig_err e = { 0 };
	volatile sig_atomic_t stop = 0;
	tree_job_init(&t);
	snprintf(t.root, sizeof(t.root), "%s/no-such-dir", dir);
	assert_int_equal(tree_walk(&t, &stop, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	assert_non_null(strstr(e.msg, "no-such-dir"));
	tree_job_free(&t);
}

/* ---- the split */

static void items_of(struct tree_job *t, const uint64_t *sizes, unsigned n)
{
	tree_job_init(t);
	t->items = calloc(2048, sizeof(*t->items));
	for (unsigned f = 0; f < n; f++) {
		uint64_t nseg = sizes[f] ? (sizes[f] + TREE_SEGMENT - 1) / TREE_SEGMENT : 1;
		for (uint64_t s = 0; s < nseg; s++) {
			struct tree_item *it = &t->items[t->nitems++];
			it->size = s + 1 < nseg ? TREE_SEGMENT : sizes[f] - s * TREE_SEGMENT;
			it->seg = (uint32_t)s | (s + 1 == nseg ? TREE_LAST : 0);
		}
		t->walk.bytes += sizes[f];
	}
}

static void check_split(struct tree_job *t, unsigned n)
{
	tree_split(t, n);
	assert_int_equal(t->bounds[0], 0);
	assert_int_equal(t->bounds[n], t->nitems);
	for (unsigned th = 0; th < n; th++) {
		assert_true(t->bounds[th] <= t->bounds[th + 1]);
		/* A thread's run starts at a file's first item: no file is two threads'. */
		if (t->bounds[th] < t->nitems)
			assert_int_equal(t->items[t->bounds[th]].seg & ~TREE_LAST, 0);
	}
}

static void test_split(void **state)
{
	(void)state;
	struct tree_job t;
	uint64_t even[1000];
	for (unsigned i = 0; i < 1000; i++)
		even[i] = 10000;
	items_of(&t, even, 1000);
	for (unsigned n = 1; n <= 25; n++) {
		check_split(&t, n);
		for (unsigned th = 0; th < n; th++) {
			uint64_t c = t.bounds[th + 1] - t.bounds[th];
			assert_true(c >= 1000 / n - 1 && c <= 1000 / n + 2); /* about the same bytes each */
		}
	}
	check_split(&t, 256);
	free(t.items);
	/* A 3.5 GiB file is four items that stay together. */
	uint64_t big[] = { 100, 3 * TREE_SEGMENT + TREE_SEGMENT / 2, 100, 100, 5 * TREE_SEGMENT };
	items_of(&t, big, 5);
	assert_int_equal(t.nitems, 1 + 4 + 1 + 1 + 5);
	for (unsigned n = 1; n <= 12; n++)
		check_split(&t, n);
	free(t.items);
	/* No files: every thread has nothing. */
	items_of(&t, big, 0);
	check_split(&t, 4);
	free(t.items);
}

/* ---- tree jobs through the runner */

static int run_tree(struct tree_job *t, unsigned threads, struct run_result *r)
{
	struct job j;
	struct settings s;
	struct ig_err e = { 0 };
	options_defaults(&j, &s);
	char opts[128];
	snprintf(opts, sizeof(opts), "--name=tree --rw=read --bs=64k --numjobs=%u --size=1m", threads);
	assert_int_equal(args_apply_string(opts, OG_ALL, &j, &s, &e), 0);
	snprintf(j.filename, sizeof(j.filename), "%s", t->root);
	j.plan.tree = t;
	struct run_ctx c;
	ctx_init(&c);
	struct run_opts o = { 0 };
	int rc = runner_run(&c, &j, 1, &o, r);
	ctx_finish(&c);
	return rc;
}

static void test_runner(void **state)
{
	(void)state;
	struct tree_job t;
	struct tree_case cur;
	struct run_result r;
	tree_job_init(&t);
	snprintf(t.root, sizeof(t.root), "%s", dir);
	t.hash = DIGEST_MD5;
	t.keep_digests = true;
	for (unsigned threads = 1; threads <= 5; threads += 2) {
		memset(&cur, 0, sizeof(cur));
		t.cur = &cur;
		int rc = run_tree(&t, threads, &r);
		if (rc)
			fail_msg("runner_run: %d (%s)", rc, r.err.msg);
		/* Every file once, whole: the bytes of the walk, a request each. */
		assert_int_equal(r.jobs[0].total.op[IO_READ].bytes, 201005);
		assert_int_equal(r.jobs[0].total.op[IO_READ].ios, 4);
		assert_int_equal(cur.files, 4);
		assert_int_equal(cur.bytes, 201005);
		assert_int_equal(cur.hash_bytes, 201005);
		assert_int_equal(cur.vanished + cur.changed + cur.unreadable, 0);
		assert_true(cur.resident == 0 || cur.resident > 0); /* known */
		run_result_free(&r);
	}
	/* The digest of c/three (5 bytes: 5, 12, 19, 26, 33). */
	for (uint64_t i = 0; i < t.nitems; i++) {
		char p[PATH_MAX], hex[2 * DIGEST_MAX + 1];
		tree_item_path(&t, i, p);
		assert_true(t.have[i]);
		if (strcmp(p, "c/three"))
			continue;
		digest_hex(t.digests + i * DIGEST_MAX, 16, hex);
		char want[2 * DIGEST_MAX + 1];
		const unsigned char b[] = { 5, 12, 19, 26, 33 };
		hex_of(DIGEST_MD5, b, 5, 5, want);
		assert_string_equal(hex, want);
	}
	/* After the walk: one file gone, one shorter, one a directory now.  Counted, no error, no digest. */
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/c/three", dir);
	assert_int_equal(unlink(p), 0);
	snprintf(p, sizeof(p), "%s/a/b/two", dir);
	assert_int_equal(truncate(p, 1000), 0);
	snprintf(p, sizeof(p), "%s/empty", dir);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkdir(p, 0755), 0);
	memset(t.have, 0, t.nitems);
	memset(&cur, 0, sizeof(cur));
	int rc = run_tree(&t, 2, &r);
	if (rc)
		fail_msg("runner_run: %d (%s)", rc, r.err.msg);
	assert_int_equal(cur.vanished, 1);
	assert_int_equal(cur.changed, 2);
	assert_int_equal(cur.bytes, 1000 + 1000);
	assert_int_equal(r.jobs[0].total.op[IO_READ].bytes, 2000);
	unsigned digests = 0;
	for (uint64_t i = 0; i < t.nitems; i++)
		digests += t.have[i];
	assert_int_equal(digests, 1); /* a/one alone is the file the walk saw */
	run_result_free(&r);
	/* Put them back for the other tests. */
	assert_int_equal(rmdir(p), 0);
	put("empty", 0);
	put("c/three", 5);
	put("a/b/two", 200000);
	tree_job_free(&t);
}

/* ---- the command: its table, its JSON, and the table again from the saved JSON */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = calloc(1, 1 << 20);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void test_command(void **state)
{
	(void)state;
	char out[PATH_MAX], js[PATH_MAX], sums[PATH_MAX];
	snprintf(out, sizeof(out), "%s.txt", dir);
	snprintf(js, sizeof(js), "%s.json", dir);
	snprintf(sums, sizeof(sums), "%s.md5", dir);
	char o1[PATH_MAX + 16], o2[PATH_MAX + 16], o3[PATH_MAX + 16];
	snprintf(o1, sizeof(o1), "--output=%s", out);
	snprintf(o2, sizeof(o2), "--json=%s", js);
	snprintf(o3, sizeof(o3), "--hash-out=%s", sums);
	char *argv[] = { "--streams=1,2", "--passes=2", "--hash=md5", "--compress=lzo", "--quiet", o1, o2, o3, dir, NULL };
	assert_int_equal(suite_main(&cmd_tree, 9, argv), 0);
	char *text = slurp(out), *lines = slurp(sums);
	assert_non_null(strstr(text, "Tree: 4 files, 196 KiB, in 4 directories"));
	assert_non_null(strstr(text, "Not read: 2 symbolic links (never followed), 1 FIFO, 1 socket"));
	assert_non_null(strstr(text, "lzo level 3 of every file"));
	assert_non_null(strstr(text, "<- best"));
	assert_non_null(strstr(lines, "/c/three\n")); /* every file: its md5sum line */
	json_error_t err;
	json_t *root = json_load_file(js, 0, &err);
	assert_non_null(root);
	const json_t *t0 = json_array_get(json_object_get(json_object_get(root, "tree"), "targets"), 0);
	const json_t *s1 = json_array_get(json_object_get(t0, "steps"), 1);
	assert_int_equal(json_integer_value(json_object_get(s1, "streams")), 2);
	assert_int_equal((uint64_t)json_number_value(json_object_get(s1, "bytes")), 201005);
	assert_int_equal(json_array_size(json_object_get(s1, "passes")), 2);
	assert_true(json_number_value(json_object_get(s1, "compress_ratio")) > 1);
	/* The saved result prints the same again (report, --html). */
	struct suite_saved ss;
	struct ig_err e = { 0 };
	assert_int_equal(suite_from_json(root, &ss, &e), 0);
	char *again = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&again, &len);
	ss.suite.print(m, &ss.sr);
	fclose(m);
	assert_string_equal(again, text);
	suite_saved_free(&ss);
	free(again);
	free(text);
	free(lines);
	json_decref(root);
	unlink(out);
	unlink(js);
	unlink(sums);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digest_vectors),
		cmocka_unit_test(test_digest_pieces),
		cmocka_unit_test(test_compress_sizes),
		cmocka_unit_test(test_streams_option),
		cmocka_unit_test(test_make_sizes),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_walk_refused),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_runner),
		cmocka_unit_test(test_command),
	};
	return cmocka_run_group_tests(tests, setup_tree, teardown_tree);
}
