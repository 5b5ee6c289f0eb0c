#!/bin/bash
# Under load and at the edges of the address space: (a) 256 threads at queue
# depth 256 with io_uring on one temp file run, stop on time and free
# everything (the ASan+UBSan pass of this script checks leaks); (b) a sparse
# file past 2 TiB (2^41, where 32-bit 512-byte sector numbers end): a region
# across 2^41 written and verified with each engine, every block's header
# naming its own offset, a byte flipped just past 2^41 found at that exact
# block, and only the region's bytes allocated.  Nothing is left behind.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_cmd od dd du awk
need_json

cd "$E2E_ROOT" || exit 1
D=$E2E_TMP/work
mkdir "$D" || exit 1
J=$E2E_TMP/l.json
j() { jget "$J" "$1" 2>/dev/null; }

nothing_left() {
	if dir_empty "$D"; then
		pass "$1: nothing left on disk"
	else
		fail "$1: nothing left on disk" "left: $(ls_dir "$D")"
		rm -rf "${D:?}"/*
	fi
}

# ---- (a) 256 threads x QD 256, io_uring, time-based
t0=$(date +%s%N)
run_iogauge run --name=load --filename="$D/f" --size=1m --bs=512 --rw=randrw --ioengine=io_uring \
	--iodepth=256 --numjobs=256 --time_based --runtime=1 --group_reporting --json="$J"
wall_ms=$((($(date +%s%N) - t0) / 1000000))
expect_status 0 "256 threads x QD 256 io_uring: exit status 0"
check "256 threads x QD 256: 256 threads ran" [ "$(j .jobs[0].threads_n)" = 256 ]
r=$(j .jobs[0].read.ios) w=$(j .jobs[0].write.ios)
if ok [ "${r:-0}" -gt 0 ] && ok [ "${w:-0}" -gt 0 ]; then
	pass "256 threads x QD 256: reads ($r) and writes ($w) done"
else
	fail "256 threads x QD 256: reads ($r) and writes ($w) done" "$WHY"
fi
e=$(j .jobs[0].elapsed_ns)
# 1 s of I/O, then 65,536 requests in flight to drain: 0.4-0.9 s beyond the runtime with two busy
# loops and a load of 38 beside it; a thread that missed the stop runs until the 120 s timeout.
check "256 threads x QD 256: stopped on time (I/O phase $((${e:-0} / 1000000)) ms for --runtime=1)" \
	between "${e:-0}" 1000000000 6000000000
check "256 threads x QD 256: the whole run, set-up and teardown included, ${wall_ms} ms (< 60 s)" \
	[ "$wall_ms" -lt 60000 ]
check "256 threads x QD 256: nothing on stderr" [ ! -s "$ERR" ]
nothing_left "256 threads x QD 256"

# ---- (b) a sparse file past 2 TiB: a 2 MiB region across 2^41
T41=2199023255552
OFF=$((T41 - 1048576))
F=$D/big
# hdr_offset FILE AT: the offset field of the verify header of the block at AT (bytes 16..23).
hdr_offset() {
	od -A n -t u8 -j $(($2 + 16)) -N 8 "$1" | tr -d ' '
}
# flip FILE OFFSET: invert one byte in place.
flip() {
	local b
	b=$(od -A n -t u1 -N 1 -j "$2" "$1" | tr -d ' ')
	printf "\\$(printf %03o $((b ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
for e in psync libaio io_uring mmap; do
	W=(run --name=s --filename="$F" --offset=$OFF --size=2m --bs=4k --rw=randwrite --verify=crc32c
		--ioengine=$e --iodepth=16)
	[ $e = mmap ] || W+=(--direct=1)
	run_iogauge "${W[@]}" --keep --json="$J"
	expect_status 0 "$e: a 2 MiB region across 2^41 written and verified: exit status 0"
	check "$e: 512 blocks checked, none bad" \
		[ "$(j .jobs[0].verify.checked_blocks)/$(j .jobs[0].verify.bad_blocks)" = "512/0" ]
	check "$e: JSON echoes the offset $OFF" [ "$(j .jobs[0].options.offset)" = "$OFF" ]
	check "$e: the file is $((OFF + 2097152)) bytes" [ "$(stat -c %s "$F")" = $((OFF + 2097152)) ]
	k=$(du -k "$F" | cut -f1)
	if ok [ "$k" -ge 2048 ] && ok [ "$k" -le 4096 ]; then
		pass "$e: only the region is allocated ($k KiB)"
	else
		fail "$e: only the region is allocated ($k KiB)" "$WHY"
	fi
	check "$e: the block at 2^41 - 4 KiB names its offset" [ "$(hdr_offset "$F" $((T41 - 4096)))" = $((T41 - 4096)) ]
	check "$e: the block at 2^41 names its offset" [ "$(hdr_offset "$F" $T41)" = $T41 ]
	check "$e: the last block names its offset" \
		[ "$(hdr_offset "$F" $((OFF + 2097152 - 4096)))" = $((OFF + 2097152 - 4096)) ]
	flip "$F" $((T41 + 4096 + 99))
	run_iogauge "${W[@]}" --verify_only --keep --json="$J"
	expect_status 1 "$e: a byte flipped at 2^41 + 4195 found: exit status 1"
	check "$e: the bad block is the one at $((T41 + 4096)), corrupt, and only it" \
		[ "$(j .jobs[0].verify.bad[0].offset)/$(j .jobs[0].verify.bad[0].kind)/$(j .jobs[0].verify.bad_blocks)" = \
		"$((T41 + 4096))/corrupt/1" ]
	rm -f "$F"
done
# Without --keep the file iogauge made goes, however large its apparent size.
run_iogauge run --name=s --filename="$F" --offset=$((3 * T41)) --size=1m --bs=64k --rw=randrw --verify=xxhash
expect_status 0 "6 TiB offset, randrw verified: exit status 0"
check "6 TiB offset: no error on stderr" [ ! -s "$ERR" ]
nothing_left "sparse file past 2 TiB"
