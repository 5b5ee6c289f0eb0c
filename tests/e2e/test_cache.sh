#!/bin/bash
# `iogauge cache`: the six rows (hdparm -T and -t --direct, dd's direct,
# buffered and synced writes, direct copy) with residency before the reads,
# the unsynced buffered write labelled as cached, the cached read resident,
# a block device (interlock, its page cache kept between cases), two file
# systems side by side (table and JSON with what each target is).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 mkfs.xfs
need_json

mkfs_mount cache_ext4 128M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
E=$MNT
mkfs_mount cache_xfs 320M xfs || {
	fail "xfs on a loop device"
	exit 1
}
X=$MNT
j() { jget "$1" "$2" 2>/dev/null; }
SMALL=(--size 16m --runtime 0.3)
NUM='[0-9]+\.[0-9]{2}'

# 1. One file system: six rows with figures, the reasons, the residency.
run_iogauge cache "${SMALL[@]}" "$E" --json "$E2E_TMP/one.json"
expect_status 0 "cache on ext4: exit 0"
check "cache: the header names the file system and its mount options" \
	grep -Eq "^iogauge cache: $E \(ext4 on loop[0-9]+, rw[^)]*, (non-)?rotational\), file 16.0 MiB" "$OUT"
for row in "cached read (hdparm -T)" "device read (hdparm -t --direct)" "direct write (dd oflag=direct)" \
	"buffered write (dd)" "buffered + fdatasync (conv=fdatasync)" "direct copy (iflag=oflag=direct)"; do
	check "cache: a figure for $row" grep -Eq "^$(printf '%s' "$row" | sed 's/[()+]/\\&/g') +$NUM " "$OUT"
done
check "cache: the cached read's region was in the page cache (100%)" \
	grep -Eq '^cached read \(hdparm -T\) +[0-9.]+  2.00 MiB of 2.00 MiB \(100%\)' "$OUT"
check "cache: the device read started from an empty cache (0%)" \
	grep -Eq '^device read \(hdparm -t --direct\) +[0-9.]+  0 B of 16.0 MiB \(0%\)' "$OUT"
check "cache: the unsynced buffered write is labelled as cached" \
	grep -Eq '^buffered write \(dd\) +[0-9.]+ +- +cached: a write returns once its data is in the page cache; .* (was not on disk when the clock stopped|is unknown)' "$OUT"
check "cache: a reason on every row" [ "$(grep -cE '(memory speed|no cache in between|reached the device|cached: |on the disk|in turn)' "$OUT")" = 6 ]
check "cache: the test file is removed" [ -z "$(find "$E" -name 'iogauge-*')" ]
O=$E2E_TMP/one.json
check "cache JSON: six cases" [ "$(j "$O" '.suite.cases|length')" = 6 ]
if ok [ "$(j "$O" '.jobs[5].copy.offset')" = 8388608 ] && ok [ "$(j "$O" '.jobs[5].write.bytes')" = 8388608 ]; then
	pass "cache JSON: the copy wrote the first half into the second"
else
	fail "cache JSON: the copy wrote the first half into the second" "$WHY"
fi
check "cache JSON: the buffered write's unsynced bytes" between "$(j "$O" .jobs[3].unsynced_after_bytes)" 0 16777216
check "cache JSON: the synced write has one fdatasync" [ "$(j "$O" .jobs[4].fdatasync.ios)" = 1 ]
check "cache JSON: the warm-up is not a job" [ "$(j "$O" '.jobs|length')" = 6 ]

# 2. Two file systems: a table with a column each, and JSON that says what each is.
run_iogauge cache "${SMALL[@]}" "$E" "$X" --json "$E2E_TMP/two.json"
expect_status 0 "cache on ext4 and xfs: exit 0"
check "cache: a table with a column per target" grep -Eq "^Test +\| $E +\| $X" "$OUT"
check "cache: the table's rows have both figures" grep -Eq "^direct write \(dd oflag=direct\) +\| $NUM +\| $NUM" "$OUT"
T=$E2E_TMP/two.json
if ok [ "$(j "$T" .suite.targets[0].fstype)" = ext4 ] && ok [ "$(j "$T" .suite.targets[1].fstype)" = xfs ]; then
	pass "cache JSON: two targets, ext4 and xfs"
else
	fail "cache JSON: two targets, ext4 and xfs" "$WHY"
fi
if ok [ -n "$(j "$T" .suite.targets[1].device)" ] && ok matches "$(j "$T" .suite.targets[1].mount_options)" '^rw'; then
	pass "cache JSON: each target's device and mount options"
else
	fail "cache JSON: each target's device and mount options" "$WHY"
fi
check "cache JSON: rotational true or false" matches "$(j "$T" .suite.targets[1].rotational)" '^(true|false)$'
check "cache JSON: figures for both targets" between "$(j "$T" '.suite.targets[1].cases.direct write.write.mb_s.median')" 0.001 1e9

# 3. A blank block device: measured, its region's cache kept for the cached read; a signature refuses.
mkloop cache_dev 48M || exit 1
DEV=$LOOP
run_iogauge cache "${SMALL[@]}" "$DEV"
expect_status 0 "cache on a blank device: exit 0"
check "cache on a device: the cached read's region was in the page cache" \
	grep -Eq '^cached read \(hdparm -T\) +[0-9.]+  2.00 MiB of 2.00 MiB \(100%\)' "$OUT"
mkfs_ext4 "$DEV"
run_iogauge cache "${SMALL[@]}" "$DEV"
expect_status 2 "cache on a device with a file system: refused"
check "cache refusal: nothing written (the file system is intact)" bash -c "blkid -p \"$DEV\" >/dev/null"

# 4. Bad input.
run_iogauge cache --size 1m "$E"
expect_status 2 "cache --size 1m (below its 2 MiB requests): refused"
check "cache --size 1m: one line" [ "$(wc -l <"$ERR")" = 1 ]
