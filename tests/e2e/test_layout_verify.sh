#!/bin/bash
# A verifying reader of a file iogauge lays out itself never reports the
# layout's own data as corrupt: a new file, a file a write run without --keep
# removed (the read lays out a new one) and `iogauge fio` called the same way,
# for every verify type (crc32c, xxhash, md5, sha256, meta, pattern, meta with
# verify_pattern, a verify_interval), pass with exit 0 and no bad block; so do
# a reader after a verifying writer in one run that wrote only part of the
# file.  A user's file without headers is verified as it is (every block
# alarms); its holes, laid out with --allow-overwrite, carry headers (only the
# user's blocks alarm).  Where headers cannot be laid out (reads of several
# sizes without a verify_interval, a pattern's %o with several sizes, a file
# an earlier job of the run laid out without headers) the run is refused in
# one line before the reads, exit 2, and leaves no file.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 dd fallocate
need_json

cd "$E2E_TMP" || exit 1
mkfs_mount layoutv 128M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
J=$E2E_TMP/v.json
j() { jget "$J" "$1" 2>/dev/null; }

# clean NAME BLOCKS: the last run exited 0, checked BLOCKS blocks, found none bad.
clean() {
	if ok [ "$STATUS" = 0 ] && ok [ "$(j .jobs[0].verify.checked_blocks)" = "$2" ] &&
		ok [ "$(j .jobs[0].verify.bad_blocks)" = 0 ] && ok not grep -q "bad block" "$ERR"; then
		pass "$1"
	else
		fail "$1" "status $STATUS, checked $(j .jobs[0].verify.checked_blocks), bad $(j .jobs[0].verify.bad_blocks): $WHY"
	fi
}

# The verify types, each as its options (a pattern's %o is each block's own offset).
KINDS=(
	"crc32c|--verify=crc32c"
	"xxhash|--verify=xxhash"
	"md5|--verify=md5"
	"sha256|--verify=sha256"
	"meta|--verify=meta"
	"pattern|--verify=pattern --verify_pattern=0xdeadbeef%o"
	"verify_pattern alone (meta)|--verify_pattern=\"iog\"%o"
	"sha256 with verify_interval|--verify=sha256 --verify_interval=1k"
)
for entry in "${KINDS[@]}"; do
	kind=${entry%%|*}
	read -r -a V <<<"${entry#*|}"
	for rw in read randread; do
		F=$D/v.dat
		R=(--name=v --filename="$F" "--rw=$rw" --bs=4k --size=2m "${V[@]}")
		# (1) A file that does not exist yet: laid out by this run, with the job's own blocks.
		rm -f "$F"
		run_iogauge run "${R[@]}" --json="$J"
		clean "$kind, $rw, new file: exit 0, 512 blocks checked, none bad" 512
		check "$kind, $rw, new file: the text says the layout's blocks" grep -Eq "laid out 2.00 MiB of (data with [a-z0-9]+ headers|the verify pattern)" "$OUT"
		check "$kind, $rw, new file: removed at the end" [ ! -e "$F" ]
		# (2) A write run without --keep (its file removed), then the read (a new layout).
		run_iogauge run "${R[@]/--rw=$rw/--rw=write}"
		if ok [ "$STATUS" = 0 ] && ok [ ! -e "$F" ]; then
			pass "$kind, $rw: the write run passes and removes its file"
		else
			fail "$kind, $rw: the write run passes and removes its file" "status $STATUS: $WHY"
		fi
		run_iogauge run "${R[@]}" --json="$J"
		clean "$kind, $rw, after a write run without --keep: exit 0, 512 blocks checked, none bad" 512
		# (3) iogauge fio, called the same way (fio keeps its file): then iogauge reads it again.
		rm -f "$F"
		run_iogauge fio "${R[@]}"
		if ok [ "$STATUS" = 0 ] && ok not grep -q "bad block" "$ERR"; then
			pass "$kind, $rw, iogauge fio on a new file: exit 0, no bad block"
		else
			fail "$kind, $rw, iogauge fio on a new file: exit 0, no bad block" "status $STATUS: $WHY"
		fi
		run_iogauge run "${R[@]}" --json="$J"
		clean "$kind, $rw: the file iogauge fio laid out verifies again" 512
		rm -f "$F"
	done
done

# ---- A user's file is verified as it is: without headers, every block alarms (exit 1), unchanged.
U=$D/user.dat
dd if=/dev/urandom of="$U" bs=1M count=2 status=none
h=$(content_hash "$U")
run_iogauge run --name=v --filename="$U" --rw=read --bs=4k --verify=crc32c --json="$J"
if ok [ "$STATUS" = 1 ] && ok [ "$(j .jobs[0].verify.bad_blocks)" = 512 ] &&
	ok grep -q "no iogauge header" "$ERR" && ok [ "$(content_hash "$U")" = "$h" ]; then
	pass "a user's file without headers: exit 1, all 512 blocks have no header, file unchanged"
else
	fail "a user's file without headers: exit 1, all 512 blocks have no header, file unchanged" \
		"status $STATUS, bad $(j .jobs[0].verify.bad_blocks): $WHY"
fi
# Its hole (512 KiB), filled with --allow-overwrite, carries headers: only the user's 384 blocks alarm.
fallocate -p -o 512k -l 512k "$U"
run_iogauge run --name=v --filename="$U" --rw=read --bs=4k --verify=crc32c --allow-overwrite --json="$J"
if ok [ "$STATUS" = 1 ] && ok [ "$(j .jobs[0].verify.bad_blocks)" = 384 ] &&
	ok [ "$(j .jobs[0].verify.checked_blocks)" = 512 ] && ok [ "$(j .jobs[0].targets[0].layout_bytes)" = 524288 ]; then
	pass "a user's file with a hole: the hole laid out with headers, only the user's 384 blocks alarm"
else
	fail "a user's file with a hole: the hole laid out with headers, only the user's 384 blocks alarm" \
		"status $STATUS, bad $(j .jobs[0].verify.bad_blocks), laid out $(j .jobs[0].targets[0].layout_bytes): $WHY"
fi

# ---- Reads of several sizes: refused (one line, exit 2, no file) unless a verify_interval meets them all.
F=$D/sizes.dat
rm -f "$F"
run_iogauge run --name=v --filename="$F" --rw=randread --bsrange=4k-16k --size=2m --verify=crc32c
if ok [ "$STATUS" = 2 ] && ok [ "$(wc -l <"$ERR")" = 1 ] && ok grep -q "verify_interval=4096" "$ERR" &&
	ok [ ! -e "$F" ]; then
	pass "bsrange without verify_interval: refused in one line naming --verify_interval=4096, no file"
else
	fail "bsrange without verify_interval: refused in one line naming --verify_interval=4096, no file" "status $STATUS: $WHY"
fi
run_iogauge run --name=v --filename="$F" --rw=randread --bsrange=4k-16k --size=2m --verify=crc32c \
	--verify_interval=4k --json="$J"
if ok [ "$STATUS" = 0 ] && ok [ "$(j .jobs[0].verify.bad_blocks)" = 0 ] && ok [ "$(j .jobs[0].verify.checked_blocks)" -gt 0 ]; then
	pass "bsrange with verify_interval=4k: passes, no bad block"
else
	fail "bsrange with verify_interval=4k: passes, no bad block" "status $STATUS: $WHY"
fi
run_iogauge run --name=v --filename="$F" --rw=read --bssplit=4k/50:8k/50 --size=2m --verify=pattern \
	--verify_pattern=0xabcd%o
if ok [ "$STATUS" = 2 ] && ok [ "$(wc -l <"$ERR")" = 1 ] && ok grep -q "%o" "$ERR" && ok [ ! -e "$F" ]; then
	pass "a %o pattern with several sizes: refused in one line, no file"
else
	fail "a %o pattern with several sizes: refused in one line, no file" "status $STATUS: $WHY"
fi
run_iogauge run --name=v --filename="$F" --rw=read --bssplit=4k/50:8k/50 --size=2m --verify=pattern \
	--verify_pattern=0xabcd --json="$J"
if ok [ "$STATUS" = 0 ] && ok [ "$(j .jobs[0].verify.bad_blocks)" = 0 ]; then
	pass "a pattern without %o, several sizes: passes"
else
	fail "a pattern without %o, several sizes: passes" "status $STATUS: $WHY"
fi

# ---- Several jobs of one run on one file.
F=$D/two.dat
rm -f "$F"
# A verifying writer that writes 16 of 512 blocks: its layout carries its headers, the reader's 512 pass.
run_iogauge run --name=w --filename="$F" --rw=write --bs=4k --size=2m --verify=crc32c --number_ios=16 \
	--name=r --stonewall --filename="$F" --rw=read --bs=4k --size=2m --verify=crc32c --json="$J"
if ok [ "$STATUS" = 0 ] && ok [ "$(j .jobs[1].verify.checked_blocks)" = 512 ] && ok [ "$(j .jobs[1].verify.bad_blocks)" = 0 ] &&
	ok [ "$(j .jobs[0].write.ios)" = 16 ]; then
	pass "a verifying writer of 16 blocks, then a reader of all 512 in one run: none bad"
else
	fail "a verifying writer of 16 blocks, then a reader of all 512 in one run: none bad" \
		"status $STATUS, bad $(j .jobs[1].verify.bad_blocks): $WHY"
fi
# A reader without --verify lays the file out with data alone: the verifying reader after it is refused.
run_iogauge run --name=p --filename="$F" --rw=read --bs=4k --size=2m \
	--name=r --stonewall --filename="$F" --rw=read --bs=4k --size=2m --verify=crc32c
if ok [ "$STATUS" = 2 ] && ok [ "$(wc -l <"$ERR")" = 1 ] && ok grep -q "job p laid out in this run without its verification headers" "$ERR" &&
	ok [ ! -e "$F" ]; then
	pass "a verifying reader of a file an earlier job laid out without headers: refused in one line, no file"
else
	fail "a verifying reader of a file an earlier job laid out without headers: refused in one line, no file" "status $STATUS: $WHY"
fi
# The same reader, another part of the file: nothing of the other job's layout is read.
run_iogauge run --name=p --filename="$F" --rw=read --bs=4k --size=2m \
	--name=r --stonewall --filename="$F" --rw=read --bs=4k --size=2m --offset=4m --verify=crc32c --json="$J"
if ok [ "$STATUS" = 0 ] && ok [ "$(j .jobs[1].verify.bad_blocks)" = 0 ] && ok [ "$(j .jobs[1].verify.checked_blocks)" = 512 ]; then
	pass "a verifying reader of another part of that file: passes"
else
	fail "a verifying reader of another part of that file: passes" "status $STATUS: $WHY"
fi
rm -f "$U"
check "nothing left in the work directory ($(ls_dir "$D"))" dir_empty "$D"
