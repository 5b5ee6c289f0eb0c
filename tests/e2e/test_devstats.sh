#!/bin/bash
# Device counters: what reached the block device beside what was requested.
# With O_DIRECT the JSON devices[] entry must match the job's bytes (within
# 1%), and so must the device's own /sys/block/NAME/stat sector counters read
# by this script around the run.  A buffered re-read of a cached file must
# show the device delivering almost nothing, and the text output must say
# that the rest came from a cache.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 timeout awk cat head
need_json

cd "$E2E_ROOT" || exit 1

MIB32=$((32 * 1024 * 1024))

# j EXPR: from the last run's JSON.
j() {
	jget "$OUT" "$1" 2>/dev/null
}

# counters NAME DEV DIR: checks the last run (JSON on stdout) moved 32 MiB in
# direction DIR (read/write), that devices[] for DEV reports it within 1%,
# and that the sysfs sectors (globals BEFORE/AFTER: "read write") agree.
counters() {
	local name=$1 dev=$2 dir=$3 kname job devb sys col
	kname=$(basename "$dev")
	expect_status 0 "$name: exit status 0"
	if ! jget "$OUT" 2>/dev/null; then
		fail "$name: stdout is JSON"
		return
	fi
	job=$(j ".jobs[0].$dir.bytes")
	check "$name: job $dir.bytes = 32 MiB ($job)" [ "${job:-0}" -eq $MIB32 ]
	devb=$(j ".devices[name=$kname].${dir}_bytes")
	if [ -z "$devb" ]; then
		fail "$name: devices[] has an entry for $kname" "devices: $(j .devices)"
		return
	fi
	if within_pct "$devb" "$job" 1; then
		pass "$name: devices[$kname].${dir}_bytes $devb within 1% of the job's $job"
	else
		fail "$name: devices[$kname].${dir}_bytes within 1% of the job's bytes" "device $devb, job $job"
	fi
	if [ "$dir" = read ]; then col=1; else col=2; fi
	sys=$((($(echo "$AFTER" | cut -d' ' -f$col) - $(echo "$BEFORE" | cut -d' ' -f$col)) * 512))
	if within_pct "$sys" "$job" 1; then
		pass "$name: /sys/block/$kname/stat $dir sectors ($sys bytes) within 1% of the job's $job"
	else
		fail "$name: /sys/block/$kname/stat $dir sectors within 1% of the job's bytes" "sysfs $sys, job $job"
	fi
	if within_pct "$devb" "$sys" 1; then
		pass "$name: devices[] agrees with sysfs within 1%"
	else
		fail "$name: devices[] agrees with sysfs within 1%" "devices $devb, sysfs $sys"
	fi
}

# 1. A raw loop device (blank backing file: no signature, no flag needed).
mkloop raw 64M || exit 1
RAW=$LOOP
BEFORE=$(dev_sectors "$RAW")
run_iogauge run --name=w --filename="$RAW" --rw=write --bs=1m --size=32m --ioengine=io_uring \
	--iodepth=4 --direct=1 --output-format=json
AFTER=$(dev_sectors "$RAW")
counters "raw loop, O_DIRECT sequential write" "$RAW" write
BEFORE=$(dev_sectors "$RAW")
run_iogauge run --name=r --filename="$RAW" --rw=read --bs=1m --size=32m --ioengine=io_uring \
	--iodepth=4 --direct=1 --output-format=json
AFTER=$(dev_sectors "$RAW")
counters "raw loop, O_DIRECT sequential read" "$RAW" read

# 2. A file on ext4 on a loop device, O_DIRECT read (the layout is not counted).
mkfs_mount ext4 128M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
EXT4=$LOOP
sync
BEFORE=$(dev_sectors "$EXT4")
run_iogauge run --name=r --directory="$D" --rw=read --bs=1m --size=32m --ioengine=io_uring \
	--iodepth=4 --direct=1 --output-format=json
AFTER=$(dev_sectors "$EXT4")
counters "file on ext4, O_DIRECT sequential read" "$EXT4" read
check "file on ext4: no test file left" dir_empty "$D"

# 3. A buffered re-read of a file already in the page cache: the device
# delivers (almost) nothing, and the text says where the bytes came from.
F=$D/cached.bin
head -c $MIB32 /dev/urandom >"$F" && sync && cat "$F" >/dev/null
JSON=$E2E_TMP/cached.json
run_iogauge run --name=r --filename="$F" --rw=read --bs=1m --direct=0 --invalidate=0 --json="$JSON"
expect_status 0 "cached re-read: exit status 0"
kname=$(basename "$EXT4")
job=$(jget "$JSON" .jobs[0].read.bytes 2>/dev/null)
devb=$(jget "$JSON" ".devices[name=$kname].read_bytes" 2>/dev/null)
check "cached re-read: job read 32 MiB ($job)" [ "${job:-0}" -eq $MIB32 ]
if [ -n "$devb" ] && [ "$devb" -lt $((MIB32 / 10)) ]; then
	pass "cached re-read: device read_bytes $devb < 10% of the 32 MiB requested"
else
	fail "cached re-read: device read_bytes < 10% of requested" "device read_bytes=$devb"
fi
res=$(jget "$JSON" .jobs[0].resident_before_bytes 2>/dev/null)
# What was cached, as found: the kernel may have dropped a page or two since cat read them (a
# busy machine's reclaim), and those came from the device.
check "cached re-read: resident_before_bytes over 90% of 32 MiB ($res)" [ "${res:-0}" -ge $((MIB32 * 9 / 10)) ]
check "... and what was not resident came from the device (resident $res + device ${devb:-?} >= 32 MiB)" \
	[ $((${res:-0} + ${devb:-0})) -ge $MIB32 ]
if grep -qi "came from a cache" "$OUT"; then
	pass "cached re-read: text output notes that the rest came from a cache"
else
	fail "cached re-read: text output notes that the rest came from a cache" \
		"stdout: $(grep -i -A1 'disk stats' "$OUT" | tr '\n' ' ')"
fi
check "cached re-read: the file it did not create is kept" [ -f "$F" ]
rm -f "$F"
