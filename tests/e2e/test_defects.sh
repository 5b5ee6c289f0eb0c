#!/bin/bash
# Defects a new user found, each reproduced: the layout writing outside the
# job's region, a job file authorising destruction, a buffered time-based read
# measuring the page cache, endless or binary job files, FIFOs, one file for
# --output and --json, no JSON after a layout failure, and misleading messages.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 mkfifo cmp md5sum timeout
need_json

mkfs_mount defects 256M ext4 || {
	fail "ext4 on a loop device for the test files"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
DEV=$LOOP
j() { jget "$OUT" "$1" 2>/dev/null; }
hash_range() { # FILE OFFSET_MIB LEN_MIB
	dd if="$1" bs=1M skip="$2" count="$3" status=none | md5sum | cut -d' ' -f1
}

# 1. Data loss: with --allow-overwrite the layout wrote outside [offset, offset+size).
U=$D/user.dat
head -c 8M /dev/urandom >"$U" && truncate -s 16M "$U"
before=$(hash_range "$U" 0 8)
run_iogauge run --name=a --filename="$U" --rw=write --offset=12m --size=1m --bs=1m --allow-overwrite
expect_status 0 "a 1 MiB write at 12 MiB into a user's file with --allow-overwrite: exit 0"
check "the user's first 8 MiB are unchanged" [ "$(hash_range "$U" 0 8)" = "$before" ]
check "the hole between the data and the region stays a hole (no layout outside the region)" \
	[ "$(du -k "$U" | cut -f1)" -le $((9 * 1024 + 64)) ]
if grep -q "laid out" "$OUT" && ! grep -Eq "laid out (1[0-9]|[2-9])\.|laid out 1[0-9][0-9]" "$OUT"; then
	pass "the layout is at most the region (1 MiB)"
else
	fail "the layout is at most the region (1 MiB)" "$(grep target "$OUT")"
fi
rm -f "$U"
head -c 8M /dev/urandom >"$U" && truncate -s 16M "$U"
before=$(hash_range "$U" 0 8)
run_iogauge run --name=a --filename="$U" --rw=read --offset=12m --size=1m --bs=1m
expect_status 2 "reading holes of a user's file without --allow-overwrite: refused (exit 2)"
expect_err "holes|past the end" "the refusal says the region has holes"
if ok [ "$(hash_range "$U" 0 8)" = "$before" ] && ok [ "$(du -k "$U" | cut -f1)" -le $((8 * 1024 + 64)) ]; then
	pass "the refused read wrote nothing"
else
	fail "the refused read wrote nothing" "$WHY"
fi
run_iogauge run --name=a --filename="$U" --rw=read --offset=12m --size=1m --bs=1m --allow-overwrite
expect_status 0 "reading the same holes with --allow-overwrite: exit 0"
check "only the region's holes were filled (the first 8 MiB unchanged)" [ "$(hash_range "$U" 0 8)" = "$before" ]
check "... and nothing between 8 and 12 MiB" [ "$(du -k "$U" | cut -f1)" -le $((9 * 1024 + 64)) ]
check "the report says how much was laid out" grep -q "laid out 1.00 MiB" "$OUT"
run_iogauge run --name=a --filename="$U" --rw=read --offset=0 --size=8m --bs=1m
expect_status 0 "reading the user's data (no holes in the region) needs no --allow-overwrite"
check "... and changes nothing" [ "$(hash_range "$U" 0 8)" = "$before" ]
rm -f "$U"

# 2. A job file cannot authorise destruction.
mkloop victim 32M
mkfs_ext4 "$LOOP"
vh=$(content_hash "$LOOP")
printf '[global]\nallow-destroy\n[w]\nfilename=%s\nrw=write\nbs=1m\nsize=4m\n' "$LOOP" >"$E2E_TMP/d.fio"
run_iogauge run "$E2E_TMP/d.fio"
expect_status 2 "allow-destroy in a job file: exit 2"
expect_err "d.fio:2: .*refused in job files" "the error names the file, the line and the rule"
printf '[w]\nfilename=%s\nallow_overwrite=1\nrw=write\nsize=1m\n' "$D/x" >"$E2E_TMP/o.fio"
run_iogauge run "$E2E_TMP/o.fio"
expect_status 2 "allow_overwrite in a job file: exit 2"
check "the device is unchanged" [ "$(content_hash "$LOOP")" = "$vh" ]
printf '[a]\nsize=1m\npasses=5\n' >"$E2E_TMP/p.fio"
run_iogauge run --directory="$D" "$E2E_TMP/p.fio"
expect_status 2 "passes=5 in a run job file: refused like --passes=5"
expect_err "p.fio:3: unknown option 'passes'" "the error spells the key as the file does, with the line"

# 3. Endless, binary and odd job files: one line, exit 2, at once.
for jf in /dev/zero "$E2E_TMP" "$E2E_TMP/empty.fio" "$E2E_TMP/nul.fio" "$E2E_TMP/fifo"; do
	: >"$E2E_TMP/empty.fio"
	printf '[a]\nsize=1m\0\n' >"$E2E_TMP/nul.fio"
	[ -p "$E2E_TMP/fifo" ] || mkfifo "$E2E_TMP/fifo"
	t0=$(date +%s%N)
	run_iogauge run "$jf"
	ms=$((($(date +%s%N) - t0) / 1000000))
	expect_status 2 "job file $(basename "$jf"): exit 2"
	check "job file $(basename "$jf"): one line on stderr" [ "$(grep -c . "$ERR")" = 1 ]
	check "job file $(basename "$jf"): within a second ($ms ms)" [ "$ms" -lt 1000 ]
done
expect_err "not a regular file \(a FIFO\)" "a FIFO job file is named as a FIFO"
head -c 2M /dev/urandom | base64 >"$E2E_TMP/big.fio"
run_iogauge run "$E2E_TMP/big.fio"
expect_status 2 "a job file over 1 MiB: exit 2"
expect_err "too large" "the error says it is too large"

# 4. A FIFO as --filename is refused before it is opened (an open would block).
mkfifo "$D/pipe"
for rw in read write; do
	t0=$(date +%s%N)
	run_iogauge run --name=f --filename="$D/pipe" --rw=$rw --size=1m
	ms=$((($(date +%s%N) - t0) / 1000000))
	expect_status 2 "--filename=FIFO --rw=$rw: exit 2"
	expect_err "is a FIFO" "--filename=FIFO --rw=$rw: the error says it is a FIFO"
	check "--filename=FIFO --rw=$rw: at once ($ms ms)" [ "$ms" -lt 1000 ]
done
rm -f "$D/pipe"
# A character device other than the kernel's null, zero and full ones (fio's jobs name those).
run_iogauge run --name=f --filename=/dev/urandom --rw=read --size=1m
expect_status 2 "--filename=/dev/urandom (a character device): exit 2"
expect_err "is a character device" "... the error says what it is"
run_iogauge run --name=f --filename=/dev/zero --rw=read --size=1m
expect_status 0 "--filename=/dev/zero --size=1m: read as fio reads it, exit 0"

# 5. --output and --json naming one file.
run_iogauge run --directory="$D" --name=o --size=1m --output="$E2E_TMP/r.txt" --json="$E2E_TMP/r.txt"
expect_status 2 "--output and --json naming one file: exit 2"
expect_err "both name" "the error says both name the same file"
ln -sf "$E2E_TMP/r.txt" "$E2E_TMP/link.txt"
: >"$E2E_TMP/r.txt"
run_iogauge run --directory="$D" --name=o --size=1m --output="$E2E_TMP/r.txt" --json="$E2E_TMP/link.txt"
expect_status 2 "--output and --json naming one file through a symlink: exit 2"

# 6. A failure during the layout still gives a JSON document with the error.
run_iogauge run --directory="$D" --output-format=json --name=big --size=1g --rw=read
expect_status 1 "a layout larger than the free space: exit 1"
check "stdout is JSON" jget "$OUT"
check "the JSON has status 1" [ "$(j .status)" = 1 ]
check "the JSON names the error" grep -q "free space" <<<"$(j .error)"
check "nothing left behind" dir_empty "$D"

# 7. Messages.
run_iogauge run --name= --directory="$D" --size=1m
expect_status 2 "--name= (empty): exit 2"
expect_err "name is empty" "--name=: the error says the name is empty"
run_iogauge run --name=z --directory="$D" --size=1m --rw=randread --random_distribution=zipf:100
expect_status 2 "zipf:100: exit 2"
expect_err "THETA < 100" "zipf:100: the message states the upper limit"
run_iogauge run --name=y --directory="$D" --size=1m --direct=yes --output-format=json
expect_status 0 "--direct=yes is a boolean"
check "--direct=yes reported as true" [ "$(j .jobs[0].options.direct)" = true ]
run_iogauge run --name=y --directory="$D" --size=1m --direct=2
expect_status 2 "--direct=2: exit 2"
expect_err "allowed: 1, 0, true, false, yes, no, on, off" "--direct=2: the message lists every word --direct takes"

# 8. A time-based buffered random read of a small cold file: the device delivers the bytes,
# also in a second pass (more than 40 of the 32 MiB: a busy machine may not finish two).
read -r r0 _ < <(dev_sectors "$DEV")
run_iogauge run --directory="$D" --output-format=json --name=b --size=32m --rw=randread --bs=4k \
	--ioengine=libaio --iodepth=4 --runtime=2 --time_based
read -r r1 _ < <(dev_sectors "$DEV")
req=$(j .jobs[0].read.bytes)
devb=$(((r1 - r0) * 512))
passes=$(j .jobs[0].pass_invalidations)
if [ "${req:-0}" -gt $((40 << 20)) ] && within_pct "$devb" "$req" 10; then
	pass "buffered time-based 4k randread over $passes passes: the device delivered $devb of $req bytes"
else
	fail "buffered time-based 4k randread: the device delivers nearly every requested byte" "device $devb, requested $req, passes $passes"
fi
dios=$(j .devices[0].read_ios)
if [ "${dios:-0}" -gt 0 ] && between "$((devb / dios))" 4096 6144; then
	pass "... in requests near 4 KiB ($((devb / dios)) bytes on average): no readahead"
else
	fail "... in requests near 4 KiB" "device ios $dios for $devb bytes"
fi
check "nothing left behind" dir_empty "$D"
