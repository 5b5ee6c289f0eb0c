#!/bin/bash
# The safety interlock (design.md section 4): iogauge never writes over a
# file system, partition table, or anything mounted or in use, and never
# over a file it did not create, unless told to; and when it refuses, not a
# byte changes.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 xxh128sum dd blockdev timeout

cd "$E2E_ROOT" || exit 1

# write_job TARGET [EXTRA OPTIONS...]: the fio-style write used throughout.
write_job() {
	local target=$1
	shift
	run_iogauge run --name=w --filename="$target" --rw=write --bs=1m --size=16m --direct=1 "$@"
}

read_job() {
	local target=$1
	shift
	run_iogauge run --name=r --filename="$target" --rw=read --bs=1m --size=16m --direct=1 "$@"
}

# refused NAME DEV [EXTRA OPTIONS...]: a write to DEV exits 2 and changes nothing.
refused() {
	local name=$1 dev=$2 before after
	shift 2
	before=$(content_hash "$dev")
	write_job "$dev" "$@"
	after=$(content_hash "$dev")
	expect_status 2 "$name: refused with exit status 2"
	check "$name: device unchanged" [ "$before" = "$after" ]
}

# 1. A device carrying ext4 is refused, and the message says why.
mkloop ext4 64M || exit 1
mkfs_ext4 "$LOOP"
refused "ext4 device" "$LOOP"
expect_err "$LOOP.*ext4" "ext4 device: message names the device and ext4"
expect_err "allow-destroy" "ext4 device: message names --allow-destroy"
EXT4=$LOOP

# 2. A blank device: writable with --allow-destroy (and without: no signature).
mkloop blank 64M || exit 1
before=$(content_hash "$LOOP")
write_job "$LOOP" --allow-destroy
after=$(content_hash "$LOOP")
expect_status 0 "blank device with --allow-destroy: exit status 0"
check "blank device with --allow-destroy: content written" [ "$before" != "$after" ]

mkloop blank2 64M || exit 1
before=$(content_hash "$LOOP")
write_job "$LOOP"
after=$(content_hash "$LOOP")
expect_status 0 "blank device without signatures: written without --allow-destroy"
check "blank device without signatures: content written" [ "$before" != "$after" ]

# 3. Mounted: refused even with --allow-destroy.
mkloop mounted 64M || exit 1
mkfs_ext4 "$LOOP"
if mount_tmp "$LOOP"; then
	sync
	refused "mounted device with --allow-destroy" "$LOOP" --allow-destroy
	expect_err "mounted" "mounted device: message says it is mounted"
else
	fail "mounted device: mount failed"
fi

# 3b. A whole device one of whose partitions is mounted.
mkloop partmounted 64M || exit 1
write_mbr "$LOOP"
if add_partitions "$LOOP" && mkfs_ext4 "${LOOP}p1" && mount_tmp "${LOOP}p1"; then
	sync
	refused "device with a mounted partition, --allow-destroy" "$LOOP" --allow-destroy
	expect_err "mounted" "device with a mounted partition: message says mounted"
	refused "mounted partition itself, --allow-destroy" "${LOOP}p1" --allow-destroy
else
	skip "device with a mounted partition" "cannot create partition devices here"
fi

# 3c. Active swap: refused even with --allow-destroy.
mkloop swap 64M || exit 1
if command -v mkswap >/dev/null && mkswap "$LOOP" >/dev/null 2>&1 && swapon_tmp "$LOOP" 2>/dev/null; then
	refused "active swap with --allow-destroy" "$LOOP" --allow-destroy
	expect_err "swap" "active swap: message says swap"
else
	skip "active swap" "swapon not possible here"
fi

# 4. Partition tables: dos (and gpt when sfdisk is there).
mkloop dos 64M || exit 1
write_mbr "$LOOP"
refused "dos partition table" "$LOOP"
expect_err "partition table" "dos partition table: message says partition table"
if command -v sfdisk >/dev/null 2>&1; then
	mkloop gpt 64M || exit 1
	echo 'label: gpt' | sfdisk -q "$LOOP" >/dev/null
	refused "gpt partition table" "$LOOP"
else
	skip "gpt partition table" "sfdisk not installed"
fi

# 4b. A GPT with its protective MBR or primary header zeroed is still a partition table
# (gdisk and parted recover it from what is left).  With LBA 0-33 zeroed libblkid sees
# nothing and the backup header at the last LBA names it; with LBA 0 alone, the primary
# header; with LBA 1 alone, libblkid itself reads the backup.
if command -v sfdisk >/dev/null 2>&1; then
	for z in "0 34 backup header at LBA 65535 \\(the primary is damaged\\)" \
		"0 1 header at LBA 1; the protective MBR is missing" "1 1 \\(use"; do
		read -r first count why <<<"$z"
		mkloop "gpt_${first}_$count" 32M || exit 1
		echo ',8M' | sfdisk -q -X gpt "$LOOP" >/dev/null 2>&1
		dd if=/dev/zero of="$LOOP" bs=512 seek="$first" count="$count" conv=notrunc status=none
		sync
		name="gpt with sectors $first-$((first + count - 1)) zeroed"
		[ "$count" = 34 ] && command -v blkid >/dev/null && check "$name: libblkid sees no partition table (why the check exists)" \
			[ -z "$(blkid -p -o value -s PTTYPE "$LOOP")" ]
		refused "$name" "$LOOP"
		expect_err "$LOOP: it carries (a GPT|a gpt) partition table.*$why.*allow-destroy" "$name: the message says why"
		[ "$count" = 34 ] && GPTDEAD=$LOOP
	done
	before=$(content_hash "$GPTDEAD")
	write_job "$GPTDEAD" --allow-destroy
	expect_status 0 "damaged gpt with --allow-destroy: exit status 0"
	check "damaged gpt with --allow-destroy: content written" [ "$before" != "$(content_hash "$GPTDEAD")" ]
else
	skip "damaged gpt partition tables" "sfdisk not installed"
fi

# 5. Other file systems and signatures.
if command -v mkfs.xfs >/dev/null 2>&1; then
	mkloop xfs 300M || exit 1 # mkfs.xfs 6.1 refuses less
	mkfs.xfs -q -f "$LOOP" >/dev/null
	refused "xfs device" "$LOOP"
	expect_err "xfs" "xfs device: message names xfs"
else
	skip "xfs device" "mkfs.xfs not installed"
fi
if command -v mkfs.btrfs >/dev/null 2>&1; then
	mkloop btrfs 128M || exit 1
	mkfs.btrfs -q -f "$LOOP" >/dev/null
	refused "btrfs device" "$LOOP"
	expect_err "btrfs" "btrfs device: message names btrfs"
	if mount_tmp "$LOOP"; then
		sync
		refused "mounted btrfs with --allow-destroy" "$LOOP" --allow-destroy
	else
		fail "mounted btrfs: mount failed (was the file system damaged above?)"
	fi
else
	skip "btrfs device" "mkfs.btrfs not installed"
fi
# A LUKS1 header (magic, version, UUID), written by hand: cryptsetup may be absent.
mkloop luks 64M || exit 1
printf 'LUKS\xba\xbe\x00\x01aes\0' | dd of="$LOOP" conv=notrunc status=none
printf '6f1c2a44-1d0e-4b7e-9a57-2b1f0e3c9d11' | dd of="$LOOP" bs=1 seek=168 conv=notrunc status=none
sync
refused "crypto_LUKS header" "$LOOP"
expect_err "LUKS" "crypto_LUKS header: message names it"
if command -v mkswap >/dev/null 2>&1; then
	mkloop swapsig 64M || exit 1
	mkswap "$LOOP" >/dev/null 2>&1
	refused "swap signature" "$LOOP"
fi

# 6. Existing regular files iogauge did not create.
FILE=$E2E_TMP/data.bin
head -c 16777216 /dev/urandom >"$FILE"
before=$(content_hash "$FILE")
write_job "$FILE"
after=$(content_hash "$FILE")
expect_status 2 "existing file without --allow-overwrite: refused with exit status 2"
check "existing file without --allow-overwrite: unchanged" [ "$before" = "$after" ]
expect_err "allow-overwrite" "existing file: message names --allow-overwrite"
write_job "$FILE" --allow-overwrite
after=$(content_hash "$FILE")
expect_status 0 "existing file with --allow-overwrite: exit status 0"
check "existing file with --allow-overwrite: content written" [ "$before" != "$after" ]
check "existing file with --allow-overwrite: not removed afterwards" [ -f "$FILE" ]

SPARSE=$E2E_TMP/sparse.bin
truncate -s 16M "$SPARSE"
read_job "$SPARSE"
expect_status 2 "sparse file not created by iogauge: read refused (layout would overwrite it)"
check "sparse file: still sparse" [ "$(du -k "$SPARSE" | cut -f1)" -eq 0 ]

NEW=$E2E_TMP/new.bin
write_job "$NEW"
expect_status 0 "new file: exit status 0"
check "new file created by iogauge: removed at the end" [ ! -e "$NEW" ]

# 7. Reads from a device with a file system need no --allow-destroy.
before=$(content_hash "$EXT4")
read_job "$EXT4"
after=$(content_hash "$EXT4")
expect_status 0 "read from an ext4 device without --allow-destroy: exit status 0"
check "read from an ext4 device: unchanged" [ "$before" = "$after" ]

# 8. The image of a mounted file system (issue 16): a second loop device over it is refused
# even with --allow-destroy, the image file even with --allow-overwrite, a loop device over
# the mounted one too; and the device a mounted loop device lies on.  Once unmounted, the
# image is data that --allow-destroy may overwrite.
mkloop image 64M || exit 1
IMG=$E2E_TMP/image.img
IMGA=$LOOP
mkfs_ext4 "$IMGA"
# Read-only: a mounted ext4 writes its own blocks now and then (a commit, the superblock), which
# the "unchanged" checks below would blame on iogauge; mounted is mounted either way.
if mount_tmp "$IMGA" ro; then
	sync
	IMGB=$(losetup -f --show "$IMG") && E2E_LOOPS+=("$IMGB")
	refused "a second loop device over a mounted image, --allow-destroy" "$IMGB" --allow-destroy
	expect_err "$IMGB: its backing file $IMG also backs ${IMGA#/dev/}, which is mounted on $MNT \(never" \
		"a second loop device: the message names the loop device and the mount point"
	before=$(content_hash "$IMG")
	write_job "$IMG" --allow-overwrite --allow-destroy --randseed=16 # not the data a write above may have left
	expect_status 2 "the image file of a mounted file system, --allow-overwrite --allow-destroy: exit status 2"
	check "the image file: unchanged" [ "$before" = "$(content_hash "$IMG")" ]
	expect_err "$IMG: it is the backing file of ${IMGA#/dev/}, which is mounted on $MNT" \
		"the image file: the message names the loop device and the mount point"
	IMGC=$(losetup -f --show "$IMGA") && E2E_LOOPS+=("$IMGC")
	refused "a loop device over a mounted loop device, --allow-destroy" "$IMGC" --allow-destroy
	expect_err "its backing device ${IMGA#/dev/} is mounted on $MNT" "a loop device over it: the message says so"
	FIRST=$MNT
	umount "$FIRST"
	if mount_tmp "$IMGC"; then
		sync
		refused "the device beneath a mounted loop device, --allow-destroy" "$IMGA" --allow-destroy
		expect_err "$IMGA: it is the backing device of ${IMGC#/dev/}, which is mounted on $MNT" \
			"the device beneath: the message names the loop device and the mount point"
		write_job "$IMG" --allow-overwrite
		expect_status 2 "the image beneath two loop devices, the upper one mounted: exit status 2"
		umount "$MNT"
	else
		fail "mount the loop device over the loop device"
	fi
	before=$(content_hash "$IMGB")
	write_job "$IMGB" --allow-destroy
	expect_status 0 "the image unmounted: a loop device over it is written with --allow-destroy"
	check "the image unmounted: content written" [ "$before" != "$(content_hash "$IMGB")" ]
else
	fail "mount ext4 from an image"
fi
