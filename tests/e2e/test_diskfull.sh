#!/bin/bash
# A full disk: (a) a job that cannot fit in the free space is refused before
# any I/O with one line saying so; (b) a real ENOSPC in the middle of a run
# (random O_DIRECT overwrites on a nearly full btrfs: copy-on-write needs new
# space for every write) ends with exit status 1, one line naming the file,
# the offset and the error, the partial results, and no file left behind.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 df awk
need_json

cd "$E2E_ROOT" || exit 1

# (a) ext4 of 64 MiB: about 50 MiB free.
mkfs_mount small 64M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1

# too_big NAME ARGS...: refused with status 1, one stderr line about space, nothing left
# (TB_CMD: the command, run by default; fio keeps its files, but not one it could not lay out).
too_big() {
	local name=$1
	shift
	run_iogauge "${TB_CMD:-run}" --directory="$D" --bs=1m --direct=1 "$@"
	expect_status 1 "$name: exit status 1"
	if [ "$(grep -c . "$ERR")" -eq 1 ] && grep -Eqi "space" "$ERR"; then
		pass "$name: one line on stderr about the free space"
	else
		fail "$name: one line on stderr about the free space"
	fi
	if dir_empty "$D"; then
		pass "$name: no file left"
	else
		fail "$name: no file left" "left: $(ls_dir "$D")"
	fi
	rm -rf "${D:?}"/*
}
too_big "write of 128 MiB on a 64 MiB ext4" --name=t --rw=write --size=128m
too_big "read of 128 MiB on a 64 MiB ext4 (the layout cannot fit)" --name=t --rw=randread --size=128m
too_big "2 x 30 MiB with --numjobs=2 on ~50 MiB free" --name=t --rw=write --size=30m --numjobs=2
too_big "two jobs of 30 MiB on ~50 MiB free" --rw=write --size=30m --name=a --name=b
too_big "run --keep: a file it could not lay out is not kept" --keep --name=t --rw=write --size=128m
TB_CMD=fio too_big "fio (files kept as fio keeps them): write of 128 MiB" --name=t --rw=write --size=128m
# fio, two jobs of 30 MiB: a's file is laid out and kept (fio keeps it too), b's, refused, is not.
run_iogauge fio --directory="$D" --bs=1m --direct=1 --rw=write --size=30m --name=a --name=b
expect_status 1 "fio: two jobs of 30 MiB on ~50 MiB free: exit status 1"
left=$(ls_dir "$D")
check "fio: the refused job's file is not left, the laid-out one is kept (left: $left)" test "$left" = "a.0.0 "
rm -rf "${D:?}"/*

# (b) A real ENOSPC mid-run on btrfs.
if ! command -v mkfs.btrfs >/dev/null 2>&1 ||
	{ ! grep -qw btrfs /proc/filesystems && ! modprobe btrfs 2>/dev/null; }; then
	skip "ENOSPC mid-run on btrfs" "no btrfs here"
	exit 0
fi
if ! mkfs_mount full 256M btrfs -m single -d single --mixed 2>/dev/null; then
	fail "btrfs on a loop device"
	exit 1
fi
B=$MNT/work
mkdir "$B" || exit 1
avail=$(df -B1 --output=avail "$MNT" | tail -n 1 | tr -d ' ')
# A file over 3/4 of the free space, in MiB: the layout fits, the overwrites do not.
size_m=$((avail * 80 / 100 / 1048576))
JSON=$E2E_TMP/full.json
run_iogauge run --name=t --directory="$B" --size="${size_m}m" --bs=4k --rw=randwrite --direct=1 \
	--ioengine=io_uring --iodepth=16 --time_based --runtime=20 --json="$JSON"
name="ENOSPC mid-run (btrfs, ${size_m} MiB file, $((avail / 1048576)) MiB free)"
expect_status 1 "$name: exit status 1"
if grep -E "t\.0\.0" "$ERR" | grep -E "offset [0-9]+" | grep -q "No space left on device"; then
	pass "$name: stderr line names the file, the offset and No space left on device"
else
	fail "$name: stderr line names the file, the offset and No space left on device"
fi
if grep -Eq "write: IOPS=" "$OUT" && grep -q "err=28" "$OUT"; then
	pass "$name: partial results (and err=28) on stdout"
else
	fail "$name: partial results (and err=28) on stdout" "stdout: $(head -c 300 "$OUT" | tr '\n' ' ')"
fi
if jget "$JSON" 2>/dev/null; then
	check "$name: JSON error.errno = 28" [ "$(jget "$JSON" .jobs[0].error.errno)" = 28 ]
	check "$name: JSON error.file names the test file" \
		grep -q "t\.0\.0" <<<"$(jget "$JSON" .jobs[0].error.file)"
	check "$name: JSON error.op is write" [ "$(jget "$JSON" .jobs[0].error.op)" = write ]
	check "$name: JSON status = 1" [ "$(jget "$JSON" .status)" = 1 ]
	w=$(jget "$JSON" .jobs[0].write.ios)
	check "$name: JSON write.ios $w > 0 (partial results)" [ "${w:-0}" -gt 0 ]
else
	fail "$name: --json file is valid JSON"
fi
if dir_empty "$B"; then
	pass "$name: no file left"
else
	fail "$name: no file left" "left: $(ls_dir "$B")"
fi
