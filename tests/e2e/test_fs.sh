#!/bin/bash
# iogauge fs (issue 18): file systems made on two RAM-backed loop devices
# (ext4, xfs, btrfs, mount options, btrfs raid0 across both), a column each,
# dd's writeback and the unmount timed, the raid0 scaling ratio; refused
# without --allow-destroy, on a mounted device, and for md/LVM layouts this
# kernel cannot build (one line); loop images with --loop-dir; nothing left
# mounted or attached afterwards, also after SIGINT.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 mkfs.xfs mkfs.btrfs blkid
need_json

# Two RAM-backed loop devices (images unlinked at once: freed with the loop); xfs needs 300 MiB.
SHM=$(mktemp -d /dev/shm/iogauge-e2e.XXXXXX) || exit 1
ramloop() {
	truncate -s 320M "$SHM/$1.img" && LOOP=$(losetup -f --show "$SHM/$1.img") && E2E_LOOPS+=("$LOOP")
	rm -f "$SHM/$1.img"
	[ -n "${LOOP:-}" ]
}
ramloop a && A=$LOOP && ramloop b && B=$LOOP || {
	rmdir "$SHM"
	fail "two RAM-backed loop devices"
	exit 1
}
J=$E2E_TMP/fs.json
j() { jget "$J" "$1" 2>/dev/null; }
# The suite's mount points go under $TMPDIR: this script's own directory, so another run beside it
# is not taken for ours.
export TMPDIR=$E2E_TMP
# Nothing of ours mounted (the mount points are $TMPDIR/iogauge-fs.*), no mount point left.
no_mounts() { ! grep -q " $E2E_TMP/iogauge-fs\." /proc/self/mountinfo && ! compgen -G "$E2E_TMP/iogauge-fs.*" >/dev/null; }
held() { [ -n "$(ls -A "/sys/block/$(basename "$1")/holders" 2>/dev/null)" ]; }

# ---- refusals: nothing is made
run_iogauge fs "$A" "$B" --fs ext4 --suite dd --size 8m
expect_status 2 "refused without --allow-destroy"
expect_err "$A: fs makes a file system on it.*--allow-destroy" "the refusal names the device and --allow-destroy"
check "the device is left blank" test -z "$(blkid -p -o value -s TYPE "$A")"

if [ ! -e /proc/mdstat ]; then
	run_iogauge fs "$A" "$B" --fs ext4:md-raid1 --allow-destroy
	expect_status 2 "md RAID refused where the kernel has no md"
	expect_err "ext4:md-raid1: this kernel has no md RAID \(no /proc/mdstat" "the refusal names the missing kernel feature"
	check "md: one line" test "$(wc -l <"$ERR")" -eq 1
else
	skip "md RAID refused where the kernel has no md" "this kernel has md"
fi
if ! grep -q device-mapper /proc/misc; then
	run_iogauge fs "$A" "$B" --fs ext4:lvm-stripe --allow-destroy
	expect_status 2 "LVM stripes refused where the kernel has no device-mapper"
	expect_err "ext4:lvm-stripe: this kernel has no device-mapper" "the refusal names device-mapper"
	check "LVM: one line" test "$(wc -l <"$ERR")" -eq 1
else
	skip "LVM stripes refused where the kernel has no device-mapper" "this kernel has device-mapper"
fi
run_iogauge fs "$A" --fs btrfs:raid0 --allow-destroy
expect_status 2 "raid0 over one device refused"
check "the device is still blank" test -z "$(blkid -p -o value -s TYPE "$A")"

# ---- each file system made, measured, unmounted
run_iogauge fs "$A" "$B" --allow-destroy --fs ext4,xfs,btrfs,ext4:noatime,btrfs:compress=lzo,btrfs:raid0 \
	--suite dd --size 16m --json "$J" --html "$E2E_TMP/fs.html"
expect_status 0 "fs on two loop devices: exit 0"
check "one column per file system" grep -Eq "^Test +\| ext4 +\| xfs +\| btrfs +\| ext4:noatime +\| btrfs:compress=lzo +\| btrfs:raid0" "$OUT"
check "the unmount and the writeback rows" grep -Eq "^unmount s +\| [0-9]" "$OUT"
check "the scaling ratio of raid0 over 2 devices" grep -Eq "^Scaling: btrfs:raid0 over 2 devices vs btrfs on one" "$OUT"
check "valid JSON" jget "$J"
check "JSON: six file systems, all measured" test "$(j '.fs.filesystems|length') $(grep -c true <<<"$(for i in 0 1 2 3 4 5; do j ".fs.filesystems[$i].measured"; done)")" = "6 6"
check "JSON: the file system types as made" test "$(for i in 0 1 2; do j ".suite.targets[$i].fstype"; done | tr '\n' ' ')" = "ext4 xfs btrfs "
check "JSON: ext4:noatime mounted noatime" grep -q noatime <<<"$(j '.suite.targets[3].mount_options')"
check "JSON: btrfs:compress=lzo mounted so" grep -q compress=lzo <<<"$(j '.suite.targets[4].mount_options')"
check "JSON: raid0 spans both devices" test "$(j '.fs.filesystems[5].devices') $(j '.fs.filesystems[5].layout')" = "2 raid0"
check "JSON: writeback measured as a number" between "$(j '.fs.filesystems[1].writeback_s[0]')" 0 60
check "JSON: unmount measured as a number" between "$(j '.fs.filesystems[2].unmount_s')" 0 60
check "JSON: the raid0 ratio against btrfs" test "$(j '.fs.scaling[0].target') $(j '.fs.scaling[0].single')" = "btrfs:raid0 btrfs"
read_ratio=$(j '.fs.scaling[0].ratio' | sed -n 's/.*"dd read bs=4M": *\([0-9.e+-]*\).*/\1/p')
check "JSON: the ratio is a number" between "${read_ratio:-x}" 0.01 100
check "HTML: the file systems' table" grep -q '<h3>File systems</h3>' "$E2E_TMP/fs.html"
check "HTML: a column per file system" test "$(grep -o '<th style="text-align:right; padding-left:16px">[^<]*</th>' "$E2E_TMP/fs.html" | wc -l)" -eq 6
check "nothing left mounted, no mount point left" no_mounts
free_again() { ! held "$A" && ! held "$B"; }
check "the devices are free again" free_again

# ---- a mounted device: refused even with --allow-destroy
mkfs_ext4 "$A" && mount_tmp "$A" || fail "mount $A"
run_iogauge fs "$A" "$B" --fs ext4 --allow-destroy
expect_status 2 "a mounted device refused"
expect_err "$A: it is mounted on" "the refusal says where it is mounted"
umount "$MNT"

# ---- no devices: loop images in a directory, labelled so, gone afterwards
IMGS=$SHM/imgs
mkdir "$IMGS"
ours() { losetup -l -n -O BACK-FILE 2>/dev/null | grep -c "^$IMGS/"; }
run_iogauge fs --loop-dir "$IMGS" --image-size 300m --fs ext4 --suite dd --size 8m
expect_status 0 "--loop-dir: exit 0"
check "--loop-dir: labelled as loop devices over images" grep -q "loop devices over images in $IMGS" "$OUT"
check "--loop-dir: no loop device or image left" test "$(ours) $(ls -A "$IMGS" | wc -l)" = "0 0"

# ---- SIGINT while a file system is mounted and measured: unmounted, detached, removed
start_iogauge fs --loop-dir "$IMGS" --image-size 300m --fs ext4,btrfs:raid0 --size 16m --runtime 2 --ramp_time 0 \
	--eta=always
# The first file system is mounted and a case measures (its progress line counts bytes).
await_bg 'pass 1/1, .* \.\.\. [0-9.]+ ([KMG]i)?B' 120 || fail "SIGINT: a case measures before the signal" "$WHY"
grep -q " $E2E_TMP/iogauge-fs\." /proc/self/mountinfo || fail "SIGINT: a file system is mounted when the signal comes"
signal_bg INT 10
check "SIGINT: exit 130" test "$STATUS" -eq 130
check "SIGINT: what was measured is printed" grep -q "^Interrupted" "$OUT"
check "SIGINT: nothing left mounted" no_mounts
check "SIGINT: no loop device or image left" test "$(ours) $(ls -A "$IMGS" | wc -l)" = "0 0"
rm -rf "$SHM"
