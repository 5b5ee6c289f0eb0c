#!/bin/bash
# The default command (quick, CrystalDiskMark's profile): the table with its
# four rows and both directions, the header naming the file system and the
# device, --passes with a min-max column, JSON, two paths compared, a path
# with too little free space refused; and the one-line errors of bad options
# (quick and run), including an O_DIRECT block size that breaks alignment.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 awk
need_json

cd "$E2E_ROOT" || exit 1
IOGAUGE=$(readlink -f "$IOGAUGE") # runs happen in the test directories

ROWS=("SEQ1M Q8T1" "SEQ1M Q1T1" "RND4K Q32T1" "RND4K Q1T1")

# in_dir DIR ARGS...: run_iogauge with DIR as the working directory.
in_dir() {
	local dir=$1
	shift
	cd "$dir" || return 1
	run_iogauge "$@"
	cd "$E2E_ROOT" || exit 1
}

# table NAME FILE: the four rows are there, each with MB/s > 0 read and write.
table() {
	local name=$1 file=$2 row line r w
	for row in "${ROWS[@]}"; do
		line=$(grep -E "^$row +\|" "$file" | head -n 1)
		r=$(awk -F'|' '{ split($2, a, " "); print a[1] }' <<<"$line")
		w=$(awk -F'|' '{ split($3, a, " "); print a[1] }' <<<"$line")
		if [ -n "$line" ] && between "${r:-0}" 0.001 1e12 && between "${w:-0}" 0.001 1e12; then
			pass "$name: $row row, read $r MB/s, write $w MB/s"
		else
			fail "$name: $row row with read and write MB/s > 0" "line: '$line'"
		fi
	done
}

# 1. No arguments but size and runtime, in a directory on ext4 on a loop device.
mkfs_mount ext4 256M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
EXT4_LOOP=$(basename "$LOOP")
EXT4_DIR=$MNT/q-ext4
mkdir "$EXT4_DIR" || exit 1
in_dir "$EXT4_DIR" --size 64m --runtime 0.5 --ramp_time 0.2
expect_status 0 "quick on ext4: exit status 0"
table "quick on ext4" "$OUT"
if grep -E "^iogauge quick:" "$OUT" | grep -q "ext4 on $EXT4_LOOP"; then
	pass "quick on ext4: header names ext4 and $EXT4_LOOP"
else
	fail "quick on ext4: header names ext4 and $EXT4_LOOP" "header: $(head -n 1 "$OUT")"
fi
check "quick on ext4: the directory is empty afterwards" dir_empty "$EXT4_DIR"

# 2. The same in a directory on tmpfs (O_DIRECT or the buffered fallback).
if mount_tmpfs 256m; then
	TMPFS_DIR=$MNT/q-tmpfs
	mkdir "$TMPFS_DIR" || exit 1
	in_dir "$TMPFS_DIR" --size 64m --runtime 0.5 --ramp_time 0.2
	expect_status 0 "quick on tmpfs: exit status 0"
	table "quick on tmpfs" "$OUT"
	if grep -E "^iogauge quick:" "$OUT" | grep -q "tmpfs"; then
		pass "quick on tmpfs: header names tmpfs"
	else
		fail "quick on tmpfs: header names tmpfs" "header: $(head -n 1 "$OUT")"
	fi
	check "quick on tmpfs: the directory is empty afterwards" dir_empty "$TMPFS_DIR"
else
	fail "tmpfs mount"
fi

# 3. --passes 3: a min-max column beside the median.
in_dir "$EXT4_DIR" --passes 3 --size 32m --runtime 0.3 --ramp_time 0
expect_status 0 "quick --passes 3: exit status 0"
check "quick --passes 3: the column header has min-max" grep -Eq "^Test +\|.*min-max" "$OUT"
for row in "${ROWS[@]}"; do
	line=$(grep -E "^$row +\|" "$OUT" | head -n 1)
	if grep -Eq "\| +[0-9.]+ +[0-9.]+-[0-9.]+ .*\| +[0-9.]+ +[0-9.]+-[0-9.]+" <<<"$line"; then
		pass "quick --passes 3: $row has a min-max range for read and write"
	else
		fail "quick --passes 3: $row has a min-max range for read and write" "line: '$line'"
	fi
done
check "quick --passes 3: the directory is empty afterwards" dir_empty "$EXT4_DIR"

# 4. JSON: the suite object with the eight cases (four rows, read and write).
in_dir "$EXT4_DIR" --size 32m --runtime 0.3 --ramp_time 0 --output-format=json
expect_status 0 "quick JSON: exit status 0"
if jget "$OUT" 2>/dev/null; then
	pass "quick JSON: stdout is valid JSON"
	check "quick JSON: iogauge.command is quick" [ "$(jget "$OUT" .iogauge.command)" = quick ]
	check "quick JSON: suite.targets[0].cases has 8 cases" [ "$(jget "$OUT" '.suite.targets[0].cases|length')" = 8 ]
	check "quick JSON: suite.targets[0].fstype is ext4" [ "$(jget "$OUT" .suite.targets[0].fstype)" = ext4 ]
	for i in 0 1 2 3; do
		c=".suite.targets[0].cases.${ROWS[i]}"
		r=$(jget "$OUT" "$c read.read.mb_s.median")
		w=$(jget "$OUT" "$c write.write.mb_s.median")
		n=$(jget "$OUT" "$c read.read.mb_s.passes")
		if between "${r:-0}" 0.001 1e12 && between "${w:-0}" 0.001 1e12 && [ "$n" = 1 ]; then
			pass "quick JSON: ${ROWS[i]}: read.mb_s.median $r, write.mb_s.median $w, 1 pass"
		else
			fail "quick JSON: ${ROWS[i]} read and write with mb_s.median > 0" "read $r, write $w, passes $n"
		fi
	done
else
	fail "quick JSON: stdout is valid JSON" "stdout: $(head -c 300 "$OUT")"
fi
check "quick JSON: the directory is empty afterwards" dir_empty "$EXT4_DIR"

# 5. Two paths, ext4 and xfs: a table each and a comparison naming both.
if command -v mkfs.xfs >/dev/null 2>&1 && mkfs_mount xfs 320M xfs; then
	XFS_LOOP=$(basename "$LOOP")
	XFS_DIR=$MNT/q-xfs
	mkdir "$XFS_DIR" || exit 1
	run_iogauge --size 32m --runtime 0.3 --ramp_time 0 "$EXT4_DIR" "$XFS_DIR"
	expect_status 0 "quick with two paths: exit status 0"
	check "quick with two paths: a table for ext4 on $EXT4_LOOP" grep -Eq "^iogauge quick: .*ext4 on $EXT4_LOOP" "$OUT"
	check "quick with two paths: a table for xfs on $XFS_LOOP" grep -Eq "^iogauge quick: .*xfs on $XFS_LOOP" "$OUT"
	cmp=$(sed -n '/^MB\/s (read \/ write)/,$p' "$OUT")
	if [ -n "$cmp" ]; then
		pass "quick with two paths: a comparison table"
		head=$(grep -E "^Test +\|" <<<"$cmp")
		if grep -q "q-ext4" <<<"$head" && grep -q "q-xfs" <<<"$head"; then
			pass "quick with two paths: the comparison names both paths"
		else
			fail "quick with two paths: the comparison names both paths (…/q-ext4, …/q-xfs)" \
				"heading: '$head'"
		fi
		for row in "${ROWS[@]}"; do
			n=$(grep -E "^$row +\|" <<<"$cmp" | grep -Eo "[0-9.]+ +/ +[0-9.]+" | wc -l)
			check "quick with two paths: comparison $row has two read / write pairs" [ "$n" -eq 2 ]
		done
	else
		fail "quick with two paths: a comparison table" "stdout: $(tail -n 7 "$OUT")"
	fi
	check "quick with two paths: the ext4 directory is empty afterwards" dir_empty "$EXT4_DIR"
	check "quick with two paths: the xfs directory is empty afterwards" dir_empty "$XFS_DIR"
else
	skip "quick with two paths (ext4 and xfs)" "no xfs here"
fi

# 6. A path with under 64 MiB free is refused (the default size and a size given).
mkfs_mount small 64M ext4 || {
	fail "small ext4 on a loop device"
	exit 1
}
SMALL_DIR=$MNT/q-small
mkdir "$SMALL_DIR" || exit 1
# A refused target, as README says: one line on stderr, nothing on stdout, exit 2 (not an I/O error).
for opts in "" "--size 64m"; do
	run_iogauge $opts --runtime 1 "$SMALL_DIR"
	expect_status 2 "quick $opts on a path with under 64 MiB free: exit status 2"
	check "quick $opts on a path with under 64 MiB free: one line on stderr" [ "$(grep -c . "$ERR")" -eq 1 ]
	check "quick $opts on a path with under 64 MiB free: no table, no 'Stopped by an I/O error'" [ ! -s "$OUT" ]
	expect_err "64 MiB|free" "quick $opts on a path with under 64 MiB free: the message says why"
	check "quick $opts on a path with under 64 MiB free: nothing left" dir_empty "$SMALL_DIR"
done
# A size given that does not fit above the free-space floor: the line names the option, the size,
# the free space and the floor (a tenth of the file system, at most 1 GiB).
run_iogauge --size 1g --runtime 1 "$SMALL_DIR"
expect_status 2 "quick --size 1g on a small file system: exit 2"
expect_err "^iogauge: $SMALL_DIR: --size 1.00 GiB does not fit: [0-9.]+ MiB free, and iogauge keeps [0-9.]+ MiB of the file system free \(a tenth of it, at most 1 GiB\); --size [0-9]+m or less fits$" \
	"quick --size 1g on a small file system: the line names --size, the size, the free space and the floor"

# 7. Bad options: exit 2 and one line naming the option.
bad() {
	local name=$1 opt=$2
	shift 2
	expect_status 2 "$name: exit status 2"
	if [ "$(grep -c . "$ERR")" -eq 1 ] && grep -qF -- "$opt" "$ERR"; then
		pass "$name: one line on stderr naming $opt"
	else
		fail "$name: one line on stderr naming $opt"
	fi
}
run_iogauge quick --bogus
bad "quick --bogus" --bogus
W=$EXT4_DIR
for arg in --bs=abc --rw=sideways --iodepth=0 --numjobs=1000 --runtime=5x; do
	run_iogauge run --name=t --directory="$W" --size=4m "$arg"
	bad "run $arg" "${arg%%=*}"
	check "run $arg: no file created" dir_empty "$W"
done

# O_DIRECT with a block size that is not a multiple of the logical block size:
# refused before any I/O (no layout reaches the device, no file left).
sync
before=$(dev_sectors "/dev/$EXT4_LOOP" | cut -d' ' -f2)
run_iogauge run --name=t --directory="$W" --size=16m --rw=write --bs=1000 --direct=1
sync
after=$(dev_sectors "/dev/$EXT4_LOOP" | cut -d' ' -f2)
bad "run --direct=1 --bs=1000" --bs
expect_err "align" "run --direct=1 --bs=1000: the message names the alignment"
check "run --direct=1 --bs=1000: no file left" dir_empty "$W"
written=$(((after - before) * 512))
check "run --direct=1 --bs=1000: refused before any I/O ($written bytes reached the device)" \
	[ "$written" -lt $((1024 * 1024)) ]
