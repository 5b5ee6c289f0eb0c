#!/bin/bash
# --verify: every written block carries a header and a checksum; reading back
# finds (a) a byte flipped between the write and the read, at the exact block
# offset, (b) a block copied over another (misplaced), (c) an older copy of a
# block restored (a lost write); sequential and random, several jobs and
# threads, across passes; verify_only in a later run checks what an earlier
# one wrote and writes nothing; up to 10 bad blocks are listed, then a count;
# exit status 1.  Clean runs report no error, exit 0 and leave nothing.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 dd awk
need_json

cd "$E2E_ROOT" || exit 1
mkfs_mount verify 256M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
J=$E2E_TMP/v.json
j() { jget "$J" "$1" 2>/dev/null; }

# flip FILE OFFSET: invert one byte in place.
flip() {
	local b
	b=$(od -A n -t u1 -N 1 -j "$2" "$1" | tr -d ' ')
	printf "\\$(printf %03o $((b ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# copy_block FILE FROM TO BS: block FROM written over block TO.
copy_block() {
	dd if="$1" of="$1" bs="$4" skip="$2" seek="$3" count=1 conv=notrunc status=none
}

# ---- (a) a byte flipped between the write and the read: sequential and random, two threads
for rw in write randwrite; do
	W=(run --name=a --directory="$D" --size=4m --bs=4k --rw=$rw --numjobs=2 --verify=crc32c
		--ioengine=io_uring --iodepth=16 --direct=1)
	run_iogauge "${W[@]}" --do_verify=0 --keep
	expect_status 0 "$rw: written with headers, kept for a later run"
	flip "$D/a.1.0" $((77 * 4096 + 1234)) # thread 1's file, block 77
	h=$(content_hash "$D/a.1.0")
	run_iogauge "${W[@]}" --verify_only --json="$J"
	expect_status 1 "$rw: verify_only after a byte flip: exit status 1"
	check "$rw: one stderr line names the file, the block offset and the damage" \
		grep -Eq "^iogauge: job a: verify found 1 bad block of [0-9]+ checked; the first at offset 315392 of $D/a\.1\.0: corrupt" "$ERR"
	check "$rw: text lists the block" grep -q "offset 315392 of $D/a.1.0: corrupt" "$OUT"
	check "$rw: JSON verify.bad[0] offset 315392, kind corrupt" \
		[ "$(j .jobs[0].verify.bad[0].offset)/$(j .jobs[0].verify.bad[0].kind)" = "315392/corrupt" ]
	check "$rw: every block of both threads checked (2048)" [ "$(j .jobs[0].verify.checked_blocks)" = 2048 ]
	check "$rw: verify_only wrote nothing" [ "$(content_hash "$D/a.1.0")" = "$h" ]
	if ok [ -e "$D/a.0.0" ] && ok [ -e "$D/a.1.0" ]; then
		pass "$rw: verify_only left the kept files"
	else
		fail "$rw: verify_only left the kept files" "$WHY"
	fi
	rm -f "$D"/a.*
done

# ---- (b) a block copied over another: misplaced; and more than 10 bad blocks
V=(run --name=b --filename="$D/b" --size=2m --bs=8k --rw=randwrite --verify=xxhash)
run_iogauge "${V[@]}" --do_verify=0 --keep
copy_block "$D/b" 3 200 8k
run_iogauge "${V[@]}" --verify_only --json="$J"
expect_status 1 "block 3 copied over block 200: exit status 1"
check "misplaced: offset 1638400 holds the block written for 24576" \
	grep -q "offset 1638400 of $D/b: misplaced: it holds the block written for offset 24576" "$OUT"
check "misplaced: JSON expected 1638400, found 24576" \
	[ "$(j .jobs[0].verify.bad[0].expected)/$(j .jobs[0].verify.bad[0].found)" = "1638400/24576" ]
dd if=/dev/zero of="$D/b" bs=8k seek=10 count=15 conv=notrunc status=none
run_iogauge "${V[@]}" --verify_only --json="$J"
check "16 bad blocks: the count is 16" [ "$(j .jobs[0].verify.bad_blocks)" = 16 ]
check "16 bad blocks: 10 listed in the JSON" [ "$(j '.jobs[0].verify.bad|length')" = 10 ]
if ok [ "$(grep -c '^    offset ' "$OUT")" = 10 ] && ok grep -q "and 6 more bad blocks" "$OUT"; then
	pass "16 bad blocks: the text lists 10, then '... and 6 more'"
else
	fail "16 bad blocks: the text lists 10, then '... and 6 more'" "$WHY"
fi
check "zeroed blocks: no iogauge header" grep -q "corrupt: no iogauge header" "$OUT"
rm -f "$D/b"

# ---- (c) an older copy of a block restored: a lost write
L=(run --name=c --filename="$D/c" --size=1m --bs=4k --rw=randwrite --verify=md5 --do_verify=0 --keep)
run_iogauge "${L[@]}" --loops=1
dd if="$D/c" of="$E2E_TMP/old" bs=4k skip=100 count=1 status=none
rm -f "$D/c"
run_iogauge "${L[@]}" --loops=2
dd if="$E2E_TMP/old" of="$D/c" bs=4k seek=100 count=1 conv=notrunc status=none
run_iogauge "${L[@]}" --loops=2 --verify_only --json="$J"
expect_status 1 "an older copy of block 100 restored: exit status 1"
check "lost write: reported at offset 409600 as the first pass's write" \
	grep -q "offset 409600 of $D/c: lost write: it holds write #[0-9]*, but write #[0-9]* was the last one there" "$OUT"
check "lost write: JSON found < expected" \
	awk -v e="$(j .jobs[0].verify.bad[0].expected)" -v f="$(j .jobs[0].verify.bad[0].found)" 'BEGIN{exit !(f > 0 && f < e && e - f == 256)}'
check "lost write: JSON kind" [ "$(j .jobs[0].verify.bad[0].kind)" = "lost write" ]
rm -f "$D/c"
run_iogauge "${L[@]}" --loops=2 --verify_only
expect_status 2 "verify_only on a missing file: exit status 2"
expect_err "c does not exist: there is nothing an earlier run wrote to check" "verify_only on a missing file: says so"
check "verify_only on a missing file: creates nothing" [ ! -e "$D/c" ]

# ---- In one run, through the inject engine: a flip on the way back, a lost write (io_uring)
run_iogauge run --name=i --directory="$D" --size=2m --bs=4k --rw=randwrite --verify=sha256 --loops=2 \
	--ioengine=inject --inject=flip@70000,drop@1m+1,engine=io_uring --iodepth=8 --json="$J"
expect_status 1 "inject flip and drop: exit status 1"
check "inject: the flip at 70000 is in block 69632: corrupt" grep -q "offset 69632 of .*: corrupt" "$OUT"
check "inject: the dropped second write at 1 MiB is a lost write" grep -q "offset 1048576 of .*: lost write" "$OUT"
# Each loop's writes are read back at its end, as fio does: the flip (on every read) is found twice.
check "inject: nothing else (the flip in both loops' read-backs, the lost write: 3 bad)" \
	[ "$(j .jobs[0].verify.bad_blocks)" = 3 ]
check "inject: nothing left on disk" dir_empty "$D"

# ---- Clean runs: several jobs and threads, passes, mixed time-based with backlog, every algorithm
run_iogauge run --directory="$D" --size=2m --bs=4k --verify=xxhash --ioengine=io_uring --iodepth=16 \
	--name=s --rw=write --numjobs=2 --loops=3 --name=r --rw=randwrite --numjobs=3 --loops=3 --json="$J"
expect_status 0 "two jobs, 5 threads, 3 passes: exit status 0"
# Read back after every loop (fio's verify phase): every block written is checked.
check "sequential job: 3072 blocks checked, 3072 written, 0 bad" \
	[ "$(j .jobs[0].verify.checked_blocks)/$(j .jobs[0].verify.written_blocks)/$(j .jobs[0].verify.bad_blocks)" = "3072/3072/0" ]
check "random job: 4608 blocks checked, 4608 written, 0 bad" \
	[ "$(j .jobs[1].verify.checked_blocks)/$(j .jobs[1].verify.written_blocks)/$(j .jobs[1].verify.bad_blocks)" = "4608/4608/0" ]
check "sequential job: the read-backs are its reads (fio's accounting): 3 x 2 x 2 MiB" \
	[ "$(j .jobs[0].read.bytes)" = $((3 * 2 * 2 * 1048576)) ]
check "clean: the text says no errors" [ "$(grep -c 'verify .*: no errors' "$OUT")" = 2 ]
for a in crc32c md5 sha256; do
	run_iogauge run --name=m --filename="$D/m" --size=8m --bs=16k --rw=randrw --verify=$a \
		--verify_backlog=32 --numjobs=2 --ioengine=libaio --iodepth=8 --direct=1 --time_based \
		--runtime=1 --json="$J"
	expect_status 0 "randrw time-based, backlog 32, two threads on one file, $a: exit status 0"
	if ok [ "$(j .jobs[0].verify.checked_blocks)" -gt 0 ] && ok [ "$(j .jobs[0].verify.bad_blocks)" = 0 ]; then
		pass "$a: blocks checked ($(j .jobs[0].verify.checked_blocks)), none bad"
	else
		fail "$a: blocks checked ($(j .jobs[0].verify.checked_blocks)), none bad" "$WHY"
	fi
done
run_iogauge run --name=p --directory="$D" --size=1m --bs=4k --rw=write --data=pattern=0xa5c3 --verify=pattern
expect_status 0 "verify=pattern: exit status 0"
check "nothing left after the clean runs" dir_empty "$D"

# ---- Refusals: one line, exit 2, nothing written
bad() {
	local name=$1 want=$2
	shift 2
	run_iogauge run --name=x --directory="$D" --size=1m "$@"
	expect_status 2 "$name: exit status 2"
	if [ "$(grep -c . "$ERR")" = 1 ] && grep -q -- "$want" "$ERR"; then
		pass "$name: one line saying '$want'"
	else
		fail "$name: one line saying '$want'"
	fi
}
bad "--verify_only on a read job" "writes nothing" --rw=read --verify --verify_only
bad "--verify=pattern without a pattern" "needs --verify_pattern" --rw=write --verify=pattern
bad "--verify with --bs=64" "--bs of at least" --rw=write --bs=64 --verify
bad "--verify_only without --verify" "needs --verify" --rw=write --verify_only
bad "--verify=adler" "--verify: 'adler' is not allowed" --rw=write --verify=adler
check "nothing left after the refusals" dir_empty "$D"

# ---- Suites take --verify for their writing cases
run_iogauge mix "$D" --verify --size=128m --runtime=1 --ramp_time=0 --json="$J"
expect_status 0 "mix --verify: exit status 0"
check "mix --verify: the header says the writes are verified" grep -q "writes verified with crc32c" "$OUT"
if ok [ "$(j .jobs[0].verify.bad_blocks)$(j .jobs[3].verify.bad_blocks)" = 00 ] && ok [ "$(j .jobs[0].verify.checked_blocks)" -gt 0 ]; then
	pass "mix --verify: each case checked blocks, none bad"
else
	fail "mix --verify: each case checked blocks, none bad" "$WHY"
fi
check "nothing left after mix" dir_empty "$D"
