#!/bin/bash
# `iogauge dd`: GNU dd's summary shape for the same operands (compared with
# the real dd), exact bytes at a loop device with oflag=direct (device
# counters), copies that match dd's byte for byte (skip, seek, notrunc, a
# short last block with O_DIRECT), the page-cache statement for buffered
# writes, the write interlock for devices and files, and a one-line error
# with exit 2 for every bad operand.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd dd cmp mkfs.ext4
need_json

W=$E2E_TMP/dd
mkdir -p "$W" || exit 1
j() { jget "$1" "$2" 2>/dev/null; }

# The summary with the time and the rate masked: what must match dd exactly.
shape() { grep -E 'records (in|out)$|copied, ' "$1" | sed -E 's/copied, .*$/copied, T s, R/'; }
# dd's rate and unit must be well formed: "1.5 GB/s", "275 kB/s".
rate_ok() { grep -Eq 'copied, [0-9.e+-]+ s, [0-9]+(\.[0-9])? [kMGTPEZY]B/s$' "$1"; }

# same_shape NAME IOGAUGE-OPERANDS... -- DD-OPERANDS...: both summaries, masked, are equal.
same_shape() {
	local name=$1 a=() b=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	run_iogauge dd "${a[@]}"
	local st=$STATUS
	cp "$ERR" "$E2E_TMP/ig.err"
	dd "${b[@]}" 2>"$E2E_TMP/dd.err"
	if [ "$st" -eq 0 ] && [ "$(shape "$E2E_TMP/ig.err")" = "$(shape "$E2E_TMP/dd.err")" ] &&
		rate_ok "$E2E_TMP/ig.err"; then
		pass "dd shape: $name"
	else
		fail "dd shape: $name" "status $st; iogauge: $(shape "$E2E_TMP/ig.err" | tr '\n' '|') dd: $(shape "$E2E_TMP/dd.err" | tr '\n' '|')"
	fi
}

# 1. The summary has GNU dd's shape for the same operands.
same_shape "zeros, 1M x 4, O_DIRECT" if=/dev/zero of="$W/a" bs=1M count=4 oflag=direct -- \
	if=/dev/zero of="$W/b" bs=1M count=4 oflag=direct
same_shape "zeros, 1000 x 3 (SI only)" if=/dev/zero of="$W/a" bs=1000 count=3 -- \
	if=/dev/zero of="$W/b" bs=1000 count=3
same_shape "zeros, one byte" if=/dev/zero of="$W/a" bs=1 count=1 -- if=/dev/zero of="$W/b" bs=1 count=1
same_shape "zeros, ibs 4096 x 3, obs 1000 (a partial record out)" if=/dev/zero of="$W/a" ibs=4096 obs=1000 count=3 -- \
	if=/dev/zero of="$W/b" ibs=4096 obs=1000 count=3
head -c 10000 /dev/urandom >"$W/src10k"
same_shape "a 10000-byte file to /dev/null, bs=4096 (2+1 records)" if="$W/src10k" of=/dev/null bs=4096 -- \
	if="$W/src10k" of=/dev/null bs=4096
same_shape "a 10000-byte file, ibs=4096 obs=1000" if="$W/src10k" of=/dev/null ibs=4096 obs=1000 -- \
	if="$W/src10k" of=/dev/null ibs=4096 obs=1000
same_shape "count= past the end of the input (2+1 records)" if="$W/src10k" of=/dev/null bs=4096 count=9 -- \
	if="$W/src10k" of=/dev/null bs=4096 count=9
same_shape "10000 bytes copied with iflag=direct oflag=direct (the short tail)" \
	if="$W/src10k" of="$W/c1" bs=4096 iflag=direct oflag=direct -- \
	if="$W/src10k" of="$W/c2" bs=4096 iflag=direct oflag=direct
check "dd copy: the copy equals the source (short O_DIRECT tail written)" cmp -s "$W/src10k" "$W/c1"
check "dd: the output file is kept" [ -s "$W/a" ]
check "dd: one iogauge latency line" [ "$(grep -c '^iogauge: per-block latency min/mean/p99/max: read [0-9.]*/[0-9.]*/[0-9.]*/[0-9.]* [um]s, write ' "$ERR")" = 1 ]

# 1b. What dd does besides the requests, iogauge does too (so the rates agree):
# a read of /dev/zero before each block written, a write to /dev/null after each
# block read; and the iogauge line says how long the requests alone took.
if command -v strace >/dev/null 2>&1; then
	strace -f -qq -P /dev/zero -e trace=read -o "$E2E_TMP/zero.st" \
		"$IOGAUGE" dd if=/dev/zero of="$W/z" bs=64k count=5 status=none 2>/dev/null
	check "dd if=/dev/zero: each of the 5 blocks read from /dev/zero first" \
		[ "$(grep -c ', 65536) = 65536$' "$E2E_TMP/zero.st")" = 5 ]
	strace -f -qq -P /dev/null -e trace=write -o "$E2E_TMP/null.st" \
		"$IOGAUGE" dd if="$W/src10k" of=/dev/null bs=4096 status=none 2>/dev/null
	check "dd of=/dev/null: each of the 3 blocks written to /dev/null" \
		[ "$(grep -Ec ', (4096|1808)\) = (4096|1808)$' "$E2E_TMP/null.st")" = 3 ]
else
	skip "dd: /dev/zero and /dev/null ends (strace not installed)"
fi
run_iogauge dd if=/dev/zero of="$W/a" bs=64k count=4
expect_err '^iogauge: the requests alone took [0-9.e+-]+ s, [0-9.]+ [kMGT]?B/s \([0-9]+% of the clock' \
	"dd: the requests' own time beside dd's clock"

# 2. skip, seek and notrunc land where dd puts them.
head -c 65536 /dev/urandom >"$W/src64k"
"$IOGAUGE" dd if=/dev/zero of="$W/mine" bs=4k count=10 status=none 2>/dev/null
run_iogauge dd if="$W/src64k" of="$W/mine" bs=4k skip=2 seek=3 count=2 conv=notrunc
dd if=/dev/zero of="$W/mine2" bs=4k count=10 status=none
dd if="$W/src64k" of="$W/mine2" bs=4k skip=2 seek=3 count=2 conv=notrunc status=none
check "dd skip/seek/notrunc: the same bytes as GNU dd" cmp -s "$W/mine" "$W/mine2"
run_iogauge dd if="$W/src64k" of="$W/mine" bs=4k skip=1 seek=2 count=1
dd if="$W/src64k" of="$W/mine2" bs=4k skip=1 seek=2 count=1 status=none
check "dd seek without notrunc: cut at the end of the write, as dd" cmp -s "$W/mine" "$W/mine2"

# 3. Buffered writes say what the clock did not wait for; conv=fdatasync waits.
run_iogauge dd if=/dev/zero of="$W/buf" bs=64k count=64 --json "$W/buf.json"
expect_status 0 "dd buffered write: exit 0"
expect_err '^iogauge: buffered writes: (when the clock stopped, .* still in the page cache, not on disk|all .* written had been written back|the clock stopped without waiting)' \
	"dd buffered write: says how much was still in the page cache"
if ok [ "$(j "$W/buf.json" .dd.records_out)" = "64+0 records out" ] &&
	ok [ "$(j "$W/buf.json" .dd.bytes)" = 4194304 ]; then
	pass "dd JSON: records and bytes"
else
	fail "dd JSON: records and bytes" "$WHY"
fi
if ok [ "$(j "$W/buf.json" .dd.requests_ns)" -gt 0 ] && ok [ "$(j "$W/buf.json" .dd.requests_ns)" -le "$(j "$W/buf.json" .dd.elapsed_ns)" ]; then
	pass "dd JSON: the requests' own time, within the clock"
else
	fail "dd JSON: the requests' own time, within the clock" "$WHY"
fi
check "dd JSON: unsynced bytes are a number or null" grep -q '"unsynced_after_bytes"' "$W/buf.json"
run_iogauge dd if=/dev/zero of="$W/buf" bs=64k count=64 conv=fdatasync --json "$W/sync.json"
expect_status 0 "dd conv=fdatasync: exit 0"
check "dd conv=fdatasync: no page-cache statement" bash -c "! grep -q 'buffered writes' '$ERR'"
check "dd conv=fdatasync: one timed fdatasync" [ "$(j "$W/sync.json" .jobs[0].fdatasync.ios)" = 1 ]
run_iogauge dd if=/dev/zero of="$W/buf" bs=64k count=4 status=none
check "dd status=none: nothing on stderr" [ ! -s "$ERR" ]
run_iogauge dd if=/dev/zero of="$W/buf" bs=64k count=4 status=noxfer
if ok grep -q '^4+0 records out$' "$ERR" && ok not grep -q copied "$ERR"; then
	pass "dd status=noxfer: records lines, no bytes line"
else
	fail "dd status=noxfer: records lines, no bytes line" "$WHY"
fi

# 4. A loop device: oflag=direct moves exactly the bytes asked; the interlock applies.
mkloop dd_dev 64M || exit 1
DEV=$LOOP
before=$(dev_sectors "$DEV")
run_iogauge dd if=/dev/zero of="$DEV" bs=1M count=16 oflag=direct
after=$(dev_sectors "$DEV")
expect_status 0 "dd to a blank loop device: exit 0"
wr=$((($(echo "$after" | cut -d' ' -f2) - $(echo "$before" | cut -d' ' -f2)) * 512))
check "dd oflag=direct to a loop device: exactly 16 MiB reached it ($wr bytes)" [ "$wr" = 16777216 ]
run_iogauge dd if="$DEV" of=/dev/null bs=1M iflag=direct --json "$W/devread.json"
check "dd: the whole device read without count (64+0 records)" grep -q '^64+0 records in$' "$ERR"
check "dd JSON: the device's counters" [ "$(j "$W/devread.json" .devices[0].read_bytes)" = 67108864 ]
mkfs_ext4 "$DEV"
run_iogauge dd if=/dev/zero of="$DEV" bs=1M count=1 oflag=direct
expect_status 2 "dd to a device with a file system: refused (exit 2)"
expect_err 'signature|file system' "dd to a device with a file system: says why"
check "dd refusal: one line" [ "$(wc -l <"$ERR")" = 1 ]
run_iogauge dd if=/dev/zero of="$DEV" bs=1M count=1 oflag=direct --allow-destroy
expect_status 0 "dd to a device with a file system and --allow-destroy: written"
mkfs_ext4 "$DEV"
mount_tmp "$DEV"
run_iogauge dd if=/dev/zero of="$DEV" bs=1M count=1 oflag=direct --allow-destroy
expect_status 2 "dd to a mounted device: refused even with --allow-destroy"

# 4b. Disk full: GNU dd's records and bytes (the failed block read, not written), exit 1.
mkfs_mount dd_full 16M ext4 || exit 1
run_iogauge dd if=/dev/zero of="$MNT/full" bs=1M count=32 oflag=direct
st=$STATUS
cp "$ERR" "$E2E_TMP/full_ig.err"
rm -f "$MNT/full"
dd if=/dev/zero of="$MNT/full2" bs=1M count=32 oflag=direct 2>"$E2E_TMP/full_dd.err"
if ok [ "$st" = 1 ] && ok [ "$(shape "$E2E_TMP/full_ig.err")" = "$(shape "$E2E_TMP/full_dd.err")" ]; then
	pass "dd disk full: exit 1 and dd's records and bytes ($(shape "$E2E_TMP/full_ig.err" | tr '\n' '|'))"
else
	fail "dd disk full: exit 1 and dd's records and bytes ($(shape "$E2E_TMP/full_ig.err" | tr '\n' '|'))" "$WHY"
fi
check "dd disk full: one error line" [ "$(grep -c '^iogauge: .*No space left on device' "$E2E_TMP/full_ig.err")" = 1 ]

# 5. A file iogauge did not create is not overwritten without --allow-overwrite.
head -c 4096 /dev/urandom >"$W/theirs"
run_iogauge dd if=/dev/zero of="$W/theirs" bs=4k count=1
expect_status 2 "dd of= an existing file: refused without --allow-overwrite"
check "dd refusal: the file is untouched" [ "$(stat -c %s "$W/theirs")" = 4096 ]

# 6. Every bad operand: one line, exit 2.
bad() {
	local name=$1
	shift
	run_iogauge dd "$@"
	if [ "$STATUS" -eq 2 ] && [ "$(wc -l <"$ERR")" = 1 ] && grep -q '^iogauge: ' "$ERR"; then
		pass "dd refuses $name: one line, exit 2"
	else
		fail "dd refuses $name: one line, exit 2" "status $STATUS, $(wc -l <"$ERR") lines"
	fi
}
bad "bs=0" if=/dev/zero of="$W/x" bs=0 count=1
bad "bs=abc" if=/dev/zero of="$W/x" bs=abc count=1
bad "bs=2G" if=/dev/zero of="$W/x" bs=2G count=1
bad "an unknown operand" if=/dev/zero of="$W/x" colour=blue count=1
bad "a word without =" if=/dev/zero of="$W/x" count=1 oops
bad "iflag=bogus" if="$W/src10k" of=/dev/null iflag=bogus
bad "conv=ucase" if=/dev/zero of="$W/x" count=1 conv=ucase
bad "status=loud" if=/dev/zero of="$W/x" count=1 status=loud
bad "no if=" of="$W/x" count=1
bad "no of=" if=/dev/zero count=1
bad "if=/dev/null" if=/dev/null of="$W/x" count=1
bad "of=/dev/zero" if="$W/src10k" of=/dev/zero
bad "/dev/zero to /dev/null" if=/dev/zero of=/dev/null count=1
bad "/dev/zero to a file without count=" if=/dev/zero of="$W/x"
bad "count=0" if=/dev/zero of="$W/x" count=0
bad "a copy with ibs != obs" if="$W/src10k" of="$W/x" ibs=4k obs=8k
bad "if= and of= the same file" if="$W/a" of="$W/a"
bad "a missing input" if="$W/nonexistent" of=/dev/null
bad "a directory as input" if="$W" of=/dev/null
bad "an unknown option" if=/dev/zero of="$W/x" count=1 --frobnicate
bad "oflag=direct on /dev/null" if="$W/src10k" of=/dev/null oflag=direct
bad "count=huge" if=/dev/zero of="$W/x" bs=1M count=99999999999999999
bad "skip= past the end of the input" if="$W/src10k" of=/dev/null bs=4096 skip=3
bad "a fio output format (it would print nothing)" if=/dev/zero of="$W/x" count=1 --output-format=terse
check "dd: the refusals created no file" [ ! -e "$W/x" ]
run_iogauge dd --help
if ok grep -q '^  if=FILE' "$OUT" && ok grep -q '^  conv=CONVS' "$OUT"; then
	pass "dd --help lists the operands"
else
	fail "dd --help lists the operands" "$WHY"
fi
