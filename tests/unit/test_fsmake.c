/*
 * Unit tests for fs's specs (src/run/fsmake.c): "btrfs:raid0:compress=lzo"
 * splits into the type, the layout, the VFS's mount flags and the file
 * system's own data; unknown types, a second layout, btrfs's raid on another
 * file system and read-only mounts are refused with a line naming them; md
 * and LVM layouts are refused with the missing kernel feature or as not
 * built.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "base/common.h"
#include "run/fsmake.h"

static void test_plain(void **state)
{
	(void)state;
	struct fs_spec f;
	struct ig_err e = { 0 };
	assert_int_equal(fs_spec_parse("xfs", &f, &e), 0);
	assert_string_equal(f.type, "xfs");
	assert_string_equal(f.label, "xfs");
	assert_string_equal(f.layout, "");
	assert_string_equal(f.opts, "");
	assert_int_equal(f.flags, 0);
	assert_false(fs_spec_multi(&f));
	assert_int_equal(fs_spec_devices(&f, 3), 1);
	assert_int_equal(fs_layout_check(&f, &e), 0);
}

static void test_options_and_layout(void **state)
{
	(void)state;
	struct fs_spec f;
	struct ig_err e = { 0 };
	assert_int_equal(fs_spec_parse("btrfs:raid0:noatime,nodiratime:compress=lzo,nossd", &f, &e), 0);
	assert_string_equal(f.type, "btrfs");
	assert_string_equal(f.layout, "raid0");
	assert_int_equal(f.flags, MS_NOATIME | MS_NODIRATIME);
	assert_string_equal(f.data, "compress=lzo,nossd");
	assert_string_equal(f.opts, "noatime,nodiratime,compress=lzo,nossd");
	assert_true(fs_spec_multi(&f));
	assert_int_equal(fs_spec_devices(&f, 2), 2);
	assert_int_equal(fs_layout_check(&f, &e), 0);
}

static void test_refused(void **state)
{
	(void)state;
	struct fs_spec f;
	struct ig_err e = { 0 };
	assert_int_equal(fs_spec_parse("zfs", &f, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	assert_non_null(strstr(e.msg, "zfs"));
	e = (struct ig_err){ 0 };
	assert_int_equal(fs_spec_parse("", &f, &e), -1);
	e = (struct ig_err){ 0 };
	assert_int_equal(fs_spec_parse("ext4:raid0", &f, &e), -1);
	assert_non_null(strstr(e.msg, "md-raid0"));
	e = (struct ig_err){ 0 };
	assert_int_equal(fs_spec_parse("btrfs:raid0:raid1", &f, &e), -1);
	e = (struct ig_err){ 0 };
	assert_int_equal(fs_spec_parse("ext4:ro", &f, &e), -1);
	assert_non_null(strstr(e.msg, "mount option ro"));
}

static void test_md_lvm(void **state)
{
	(void)state;
	struct fs_spec f;
	struct ig_err e = { 0 };
	assert_int_equal(fs_spec_parse("ext4:md-raid1", &f, &e), 0);
	assert_true(fs_spec_multi(&f));
	assert_int_equal(fs_layout_check(&f, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	/* One line: what the kernel lacks, or that iogauge does not build it. */
	assert_null(strchr(e.msg, '\n'));
	if (access("/proc/mdstat", F_OK))
		assert_non_null(strstr(e.msg, "no md RAID"));
	else
		assert_non_null(strstr(e.msg, "not built"));
	e = (struct ig_err){ 0 };
	assert_int_equal(fs_spec_parse("xfs:lvm-stripe", &f, &e), 0);
	assert_int_equal(fs_layout_check(&f, &e), -1);
	assert_true(strstr(e.msg, "device-mapper") || strstr(e.msg, "not built"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_options_and_layout),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_md_lvm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
