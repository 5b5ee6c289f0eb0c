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

# 9. The permission from the environment (issue 27): a script that calls `fio` cannot add
# --allow-overwrite, so IOGAUGE_ALLOW_OVERWRITE=1 gives it, for every command; 0 or empty is
# not given, another value a one-line error (status 2).  A job file never gives it, and nothing
# but the command line gives --allow-destroy.
ln -s "$IOGAUGE" "$E2E_TMP/fio"
FIOF=$E2E_TMP/fiodir/test.fio
mkdir -p "$E2E_TMP/fiodir"
if command -v fio >/dev/null 2>&1; then
	# The file a real fio run created and kept (fio's own layout of test.fio).
	(cd "$E2E_TMP/fiodir" && fio --name=test --filename=test.fio --rw=write --bs=64k --size=1m >/dev/null 2>&1)
fi
[ -s "$FIOF" ] || head -c 1048576 /dev/urandom >"$FIOF"
as_fio() { # as_fio [VAR=VALUE...] -- FIO ARGS...: the binary called as fio
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1") && shift; done
	shift
	: >"$ERR"
	(cd "$E2E_TMP/fiodir" && env "${envs[@]}" timeout -k 5 120 "$E2E_TMP/fio" "$@" >"$E2E_TMP/last.out" 2>"$ERR")
	STATUS=$?
	san_check "fio $*"
}
FJOB=(--name=test --filename=test.fio --rw=write --bs=64k --size=1m)
before=$(content_hash "$FIOF")
as_fio -- "${FJOB[@]}"
expect_status 2 "called as fio, a file fio created: refused (exit 2)"
check "called as fio: the file is unchanged" [ "$before" = "$(content_hash "$FIOF")" ]
expect_err "refusing to write test.fio: the file exists and was not created by iogauge \(use --allow-overwrite or IOGAUGE_ALLOW_OVERWRITE=1 to overwrite it\)" \
	"the refusal names IOGAUGE_ALLOW_OVERWRITE=1"
for v in 0 ""; do
	as_fio IOGAUGE_ALLOW_OVERWRITE="$v" -- "${FJOB[@]}"
	expect_status 2 "IOGAUGE_ALLOW_OVERWRITE='$v': not given, still refused"
done
check "IOGAUGE_ALLOW_OVERWRITE=0 and empty: the file is unchanged" [ "$before" = "$(content_hash "$FIOF")" ]
as_fio IOGAUGE_ALLOW_OVERWRITE=1 -- "${FJOB[@]}"
expect_status 0 "called as fio with IOGAUGE_ALLOW_OVERWRITE=1: exit 0"
after=$(content_hash "$FIOF")
if [ "$before" != "$after" ] && [ -f "$FIOF" ]; then
	pass "IOGAUGE_ALLOW_OVERWRITE=1: the file is written and kept (as fio keeps it)"
else
	fail "IOGAUGE_ALLOW_OVERWRITE=1: the file is written and kept (as fio keeps it)"
fi
head -c 1048576 /dev/urandom >"$FIOF" # a user's file again
before=$(content_hash "$FIOF")
as_fio IOGAUGE_ALLOW_OVERWRITE=1 -- "${FJOB[@]}" --allow-overwrite=0
expect_status 2 "the command line wins: --allow-overwrite=0 over IOGAUGE_ALLOW_OVERWRITE=1"
for v in yes true 2 " 1" "1x"; do
	as_fio IOGAUGE_ALLOW_OVERWRITE="$v" -- "${FJOB[@]}"
	if [ "$STATUS" = 2 ] && [ "$(wc -l <"$ERR")" = 1 ] &&
		grep -q "IOGAUGE_ALLOW_OVERWRITE=$v in the environment: 1 gives --allow-overwrite, 0 or empty leaves it out" "$ERR"; then
		pass "IOGAUGE_ALLOW_OVERWRITE='$v': a one-line error naming it, exit 2"
	else
		fail "IOGAUGE_ALLOW_OVERWRITE='$v': a one-line error naming it, exit 2" "status $STATUS: $(head -c 300 "$ERR")"
	fi
done
check "garbage values: the file is unchanged" [ "$before" = "$(content_hash "$FIOF")" ]

# Every command that takes --allow-overwrite reads the variable as it reads its options (fio's
# --help is fio's program option, answered before any job option: its runs are checked above).
for c in $("$IOGAUGE" --help | awk '/^  iogauge /{print $2}' | tr -d '[]'); do
	[ "$c" = fio ] && continue
	"$IOGAUGE" "$c" --help 2>/dev/null | grep -q -- '--allow-overwrite' || continue
	IOGAUGE_ALLOW_OVERWRITE=maybe "$IOGAUGE" "$c" --help >/dev/null 2>"$ERR"
	st=$?
	san_check "iogauge $c with IOGAUGE_ALLOW_OVERWRITE=maybe"
	if [ "$st" = 2 ] && grep -q "^iogauge: IOGAUGE_ALLOW_OVERWRITE=maybe in the environment" "$ERR"; then
		pass "iogauge $c: IOGAUGE_ALLOW_OVERWRITE=maybe is refused, named (exit 2)"
	else
		fail "iogauge $c: IOGAUGE_ALLOW_OVERWRITE=maybe is refused, named (exit 2)" "status $st"
	fi
done
U=$E2E_TMP/user.bin
head -c 4194304 /dev/urandom >"$U"
before=$(content_hash "$U")
IOGAUGE_ALLOW_OVERWRITE=1 run_iogauge run --name=w --filename="$U" --rw=write --bs=1m --size=1m
expect_status 0 "run with IOGAUGE_ALLOW_OVERWRITE=1: exit 0"
check "run with IOGAUGE_ALLOW_OVERWRITE=1: the file is written" [ "$before" != "$(content_hash "$U")" ]
before=$(content_hash "$U")
run_iogauge dd if=/dev/zero of="$U" bs=64k count=1 conv=notrunc
expect_status 2 "dd of= a user's file: refused"
expect_err "IOGAUGE_ALLOW_OVERWRITE=1" "dd's refusal names IOGAUGE_ALLOW_OVERWRITE=1"
IOGAUGE_ALLOW_OVERWRITE=1 run_iogauge dd if=/dev/zero of="$U" bs=64k count=1 conv=notrunc
expect_status 0 "dd with IOGAUGE_ALLOW_OVERWRITE=1: exit 0"
check "dd with IOGAUGE_ALLOW_OVERWRITE=1: the file is written" [ "$before" != "$(content_hash "$U")" ]
before=$(content_hash "$U")
IOGAUGE_ALLOW_OVERWRITE=1 run_iogauge latency -c 2 -i 0 -W -s 4k "$U"
expect_status 0 "latency -W (a suite) with IOGAUGE_ALLOW_OVERWRITE=1: exit 0"
check "latency -W with IOGAUGE_ALLOW_OVERWRITE=1: the file is written" [ "$before" != "$(content_hash "$U")" ]
UD=$E2E_TMP/userdir
mkdir "$UD"
run_iogauge run --name=c --filename="$UD" --nrfiles=4 --fileop=create
expect_status 2 "a file set in a user's directory: refused"
expect_err "refusing to work in $UD: .*\(use --allow-overwrite or IOGAUGE_ALLOW_OVERWRITE=1 to create" \
	"the directory's refusal names IOGAUGE_ALLOW_OVERWRITE=1"
IOGAUGE_ALLOW_OVERWRITE=1 run_iogauge run --name=c --filename="$UD" --nrfiles=4 --fileop=create
expect_status 0 "a file set in a user's directory with IOGAUGE_ALLOW_OVERWRITE=1: exit 0"

# Never from a job file: the option, nor the variable spelled into it.
before=$(content_hash "$U")
for line in "allow-overwrite=1" "allow_overwrite=1" "allow-overwrite=\${IOGAUGE_ALLOW_OVERWRITE}"; do
	printf '[w]\nfilename=%s\nrw=write\nbs=1m\nsize=1m\n%s\n' "$U" "$line" >"$E2E_TMP/ow.fio"
	IOGAUGE_ALLOW_OVERWRITE=0 run_iogauge run "$E2E_TMP/ow.fio"
	expect_status 2 "a job file's '$line': refused (exit 2)"
	IOGAUGE_ALLOW_OVERWRITE=0 run_iogauge fio "$E2E_TMP/ow.fio"
	expect_status 2 "iogauge fio, a job file's '$line': refused (exit 2)"
done
check "job files: the user's file is unchanged" [ "$before" = "$(content_hash "$U")" ]

# --allow-destroy: the command line only.  A device with an ext4 signature stays untouched
# whatever the environment or a job file says.
before=$(content_hash "$EXT4")
for v in IOGAUGE_ALLOW_DESTROY=1 IOGAUGE_ALLOW_OVERWRITE=1 ALLOW_DESTROY=1 allow_destroy=1 allow-destroy=1 \
	IOGAUGE_ALLOW-DESTROY=1 FIO_ALLOW_DESTROY=1; do
	: >"$ERR"
	env "$v" timeout -k 5 120 "$IOGAUGE" run --name=w --filename="$EXT4" --rw=write --bs=1m --size=16m --direct=1 \
		>/dev/null 2>"$ERR"
	st=$?
	san_check "run with $v on ext4"
	if [ "$st" = 2 ] && grep -q "allow-destroy" "$ERR"; then
		pass "$v in the environment: a write to an ext4 device is still refused"
	else
		fail "$v in the environment: a write to an ext4 device is still refused" "status $st"
	fi
	as_fio "$v" -- --name=w --filename="$EXT4" --rw=write --bs=1m --size=16m --direct=1
	expect_status 2 "$v, called as fio: a write to an ext4 device is still refused"
done
for line in "allow-destroy=1" "allow_destroy=1" "allow-destroy"; do
	printf '[w]\nfilename=%s\nrw=write\nbs=1m\nsize=16m\ndirect=1\n%s\n' "$EXT4" "$line" >"$E2E_TMP/ad.fio"
	run_iogauge run "$E2E_TMP/ad.fio"
	expect_status 2 "a job file's '$line' on an ext4 device: refused (exit 2)"
	IOGAUGE_ALLOW_DESTROY=1 run_iogauge fio "$E2E_TMP/ad.fio"
	expect_status 2 "iogauge fio, a job file's '$line' and IOGAUGE_ALLOW_DESTROY=1: refused (exit 2)"
done
check "the ext4 device is unchanged after all of them" [ "$before" = "$(content_hash "$EXT4")" ]
check "and still carries ext4" [ "$(blkid -p -o value -s TYPE "$EXT4" 2>/dev/null)" = ext4 ]
