#!/bin/bash
# The default engine falls back to libaio when io_uring is disabled: quick
# says io_uring, then, with kernel.io_uring_disabled=2 for the second run,
# libaio, and leaves no file.
# make test: alone (it disables io_uring machine-wide for a moment: kernel.io_uring_disabled)
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop

# The default engine: io_uring, or libaio where io_uring is disabled.
if [ -w /proc/sys/kernel/io_uring_disabled ]; then
	old=$(cat /proc/sys/kernel/io_uring_disabled)
	trap 'rc=$?; echo "$old" >/proc/sys/kernel/io_uring_disabled; (exit $rc); e2e_cleanup' EXIT
	mkfs_mount uring-off 160M ext4 || exit 1
	mkdir "$MNT/q"
	run_iogauge quick --size 16m --runtime 0.2 --ramp_time 0 "$MNT/q"
	check "quick uses io_uring by default" grep -q "O_DIRECT, io_uring," "$OUT"
	echo 2 >/proc/sys/kernel/io_uring_disabled
	run_iogauge quick --size 16m --runtime 0.2 --ramp_time 0 "$MNT/q"
	echo "$old" >/proc/sys/kernel/io_uring_disabled
	expect_status 0 "quick with io_uring disabled: exit 0"
	check "quick falls back to libaio when io_uring is disabled" grep -q "O_DIRECT, libaio," "$OUT"
	check "quick leaves no file" dir_empty "$MNT/q"
else
	skip "default engine falls back to libaio" "no kernel.io_uring_disabled sysctl"
fi
