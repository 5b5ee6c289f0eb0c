#!/bin/bash
# fio's examples/ (local files, ordinary engines) and fio's files and run
# control: every size-bound job reports fio's io_bytes and total_ios per
# direction; nrfiles and file_service_type, filename lists, filename_format,
# filesize, io_size, offset_increment, pre_read, wait_for, new_group,
# startdelay, exitall, ratemin.  On ext4 on a RAM-backed loop device.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# Debian's python3 first: a pyenv shim on PATH costs seconds a call (fio's scripts are python3 too).
PATH=/usr/bin:$PATH

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 fio python3
need_json

# ext4 on a RAM-backed loop device (its image unlinked at once: freed when the loop goes).
IMG=$(mktemp /dev/shm/iogauge-e2e.XXXXXX) && truncate -s 128M "$IMG" && LOOP=$(losetup -f --show "$IMG") &&
	E2E_LOOPS+=("$LOOP") && rm -f "$IMG" && mkfs_ext4 "$LOOP" && mount_tmp "$LOOP" || {
	rm -f "$IMG"
	fail "ext4 on a RAM-backed loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
j() { jget "$OUT" "$1" 2>/dev/null; }

# Every size-bound job of fio's examples/ kinds (local files, ordinary engines) and of fio's file
# options, made small, in one file (four groups of jobs running at once): fio and iogauge must
# report the same io_bytes and total_ios in each direction for each thread.
cat >"$E2E_TMP/same.fio" <<'JOB'
[global]
size=1m
bs=4k

; fio-seq-read, fio-seq-write, fio-rand-read, fio-rand-write, fio-rand-RW
[seq-read]
rw=read
[seq-write]
rw=write
[rand-read]
rw=randread
[rand-write]
rw=randwrite
[rand-rw]
rw=randrw
rwmixread=60
; ssd-test: O_DIRECT libaio on one file
[ssd-seq-read]
stonewall
filename=ssd.test.file
ioengine=libaio
iodepth=4
direct=1
rw=read
[ssd-rand-write]
stonewall
filename=ssd.test.file
ioengine=libaio
iodepth=4
direct=1
rw=randwrite
; aio-read: 128k readers at queue depth 4
[aio-read]
stonewall
ioengine=libaio
iodepth=4
direct=1
bs=128k
rw=randread
numjobs=2
; basic-verify (its read-back is its reads, in both)
[verify]
rw=randwrite
verify=crc32c
; backwards-read
[backwards-read]
rw=read:-8k
size=256k
; null
[null]
ioengine=null
rw=randrw
size=4m
; tiobench-example
[tio-write]
rw=write
numjobs=2
size=512k
[tio-randread]
rw=randread
numjobs=2
size=512k
; iometer-file-access-server
[iometer]
rw=randrw
rwmixread=80
bssplit=512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10
ioengine=libaio
iodepth=8
direct=1
size=2m
; surface-scan
[surface-scan]
rw=read
bs=64k
size=2m
; zipf and zoned distributions
[zipf]
rw=randread
random_distribution=zipf:1.2
norandommap
[zoned]
rw=randread
random_distribution=zoned:50/5:30/15:20/80
norandommap
; rate-limited clients
[rate-client]
rw=randread
rate=16m
numjobs=2
size=512k

; fio's files and amounts
[nrfiles-randrw]
stonewall
size=4m
nrfiles=4
rw=randrw
[nrfiles-sequential]
size=3m
nrfiles=3
rw=write
file_service_type=sequential
[nrfiles-random4]
size=3m
nrfiles=3
rw=read
file_service_type=random:4
[filesize]
size=4m
filesize=1m
nrfiles=2
rw=read
[io_size-over]
io_size=3m
rw=read
[io_limit-under]
size=2m
io_limit=1m
rw=randwrite
[filename-list]
filename=a:b
size=2m
rw=randread
[offset_increment]
filename=sh
numjobs=3
offset_increment=1m
rw=write
[number_ios]
size=2m
rw=randrw
number_ios=100
JOB
# (In the scratch directory: fio leaves its verify state file in the current one.)
(cd "$E2E_TMP" && fio --directory="$D" --output-format=json same.fio >fio.json 2>fio.err)
rm -rf "${D:?}"/*
run_iogauge run --directory="$D" --output-format=fio-json --json="$E2E_TMP/own.json" "$E2E_TMP/same.fio"
expect_status 0 "fio's examples and file options under iogauge: exit 0"
cat >"$E2E_TMP/same.py" <<'PY'
import json, sys
fio = json.load(open(sys.argv[1]))["jobs"]
iog = json.load(open(sys.argv[2]))["jobs"]
own = {j["name"]: j for j in json.load(open(sys.argv[3]))["jobs"]}
def c(j, d): return (j[d]["io_bytes"], j[d]["total_ios"])
bad = 0
if len(fio) != len(iog) or len(fio) < 30:
    print("threads: fio", len(fio), "iogauge", len(iog)); bad += 1
for a, b in zip(fio, iog):
    name = a["jobname"]
    want_r = c(a, "read")
    got_r = c(b, "read")
    ok = name == b["jobname"] and want_r == got_r and c(a, "write") == c(b, "write") and a["error"] == 0
    print("ok  " if ok else "DIFF", name, "fio", want_r, c(a, "write"), "iogauge", got_r, c(b, "write"))
    bad += not ok
sys.exit(bad != 0)
PY
check "every thread of every size-bound job: the same io_bytes and total_ios per direction as fio" \
	python3 "$E2E_TMP/same.py" "$E2E_TMP/fio.json" "$OUT" "$E2E_TMP/own.json"
rm -rf "${D:?}"/*

# The names fio gives files.
rm -rf "${D:?}"/*
run_iogauge run --directory="$D" --keep --name=n --size=64k --nrfiles=2 --numjobs=2 --rw=write
check "nrfiles, numjobs: JOBNAME.JOBNUM.FILENUM" [ "$(cd "$D" && echo n.*)" = "n.0.0 n.0.1 n.1.0 n.1.1" ]
rm -rf "${D:?}"/*
run_iogauge run --directory="$D" --keep --name=n --size=64k --numjobs=2 --rw=write \
	--filename_format='f-$jobnum-$filenum.dat'
check "filename_format" [ "$(cd "$D" && echo f-*)" = "f-0-0.dat f-1-0.dat" ]
rm -rf "${D:?}"/*
run_iogauge run --directory="$D" --name=n --size=64k --rw=write
check "the files iogauge created are removed (unlike fio's)" dir_empty "$D"

# offset_increment: each thread writes only its own region of the shared file.
run_iogauge run --directory="$D" --keep --name=o --filename=shared --size=256k --numjobs=2 \
	--offset=256k --offset_increment=512k --rw=write --output-format=json
check "offset_increment: the file reaches the last thread's region end" \
	[ "$(stat -c %s "$D/shared")" = $((256 * 1024 + 512 * 1024 + 256 * 1024)) ]
rm -rf "${D:?}"/*

# ... and each thread writes where fio's does: thread i at offset + i * offset_increment.  A
# 4 MiB file of 0xff bytes (no layout: nothing is filled in for iogauge), written with a pattern
# by fio and by iogauge: every MiB (1 MiB regions, 4 threads) and the same bytes as fio's file.
ff_file() { head -c 4M /dev/zero | tr '\0' '\377' >"$1"; }
region_bytes() { dd if="$1" bs=512k skip="$2" count=1 status=none | od -An -tx1 -v | tr -s ' \n' '\n\n' | sort -u | tr '\n' ' '; }
OI=(--size=1m --numjobs=4 --offset_increment=1m --rw=write --bs=64k)
ff_file "$D/oi"
run_iogauge run --name=oi --filename="$D/oi" "${OI[@]}" --allow-overwrite --data=pattern=0xabcd1234
expect_status 0 "offset_increment, 4 threads on a shared file: exit 0"
for i in 0 1 2 3; do
	check "offset_increment: thread $i wrote MiB $i ($(region_bytes "$D/oi" $((2 * i + 1))))" \
		[ "$(region_bytes "$D/oi" $((2 * i)))$(region_bytes "$D/oi" $((2 * i + 1)))" = " 12 34 ab cd  12 34 ab cd " ]
done
ff_file "$D/fio"
(cd "$E2E_TMP" && fio --name=oi --filename="$D/fio" --size=512k --numjobs=3 --offset=256k --offset_increment=1m \
	--rw=randwrite --bs=64k --buffer_pattern=0xabcd1234 --output=/dev/null)
ff_file "$D/oi"
run_iogauge run --name=oi --filename="$D/oi" --size=512k --numjobs=3 --offset=256k --offset_increment=1m \
	--rw=randwrite --bs=64k --allow-overwrite --data=pattern=0xabcd1234
check "offset_increment with --offset, 3 threads: the same bytes as fio's file" \
	[ "$(content_hash "$D/oi")" = "$(content_hash "$D/fio")" ]
# --verify: each thread checks its own region (not a slice of thread 0's); overlapping ones are refused.
run_iogauge run --name=oi --filename="$D/v" "${OI[@]}" --verify=crc32c --output-format=json
expect_status 0 "offset_increment with --verify: exit 0"
if ok [ "$(j .jobs[0].verify.checked_blocks)" = 64 ] && ok [ "$(j .jobs[0].verify.bad_blocks)" = 0 ]; then
	pass "offset_increment with --verify: every thread's 16 blocks checked, none bad"
else
	fail "offset_increment with --verify: every thread's 16 blocks checked, none bad" "$WHY"
fi
run_iogauge run --name=pt --directory="$D" --size=256k --numjobs=2 --offset_increment=1m --rw=write --bs=4k \
	--verify=crc32c --output-format=json
if ok [ "$(j .jobs[0].verify.checked_blocks)" = 128 ] && ok [ "$(j .jobs[0].verify.bad_blocks)" = 0 ]; then
	pass "offset_increment with --verify, a file per thread: both threads' 64 blocks checked"
else
	fail "offset_increment with --verify, a file per thread: both threads' 64 blocks checked" "$WHY"
fi
run_iogauge run --name=oi --filename="$D/v" --size=1m --numjobs=2 --offset_increment=512k --rw=write --verify=crc32c
expect_status 2 "offset_increment under --size with --verify: refused (overlapping regions)"
expect_err "regions of the shared file overlap" "... saying the regions overlap"
rm -rf "${D:?}"/*

# pre_read: the region is in the page cache before a buffered read, and the report says so.
run_iogauge run --directory="$D" --name=p --size=4m --rw=read --pre_read --output-format=json
expect_status 0 "pre_read: exit 0"
check "pre_read: the region was cached before the reads" [ "$(j .jobs[0].resident_before_bytes)" = $((4 << 20)) ]

# wait_for, new_group, startdelay, exitall, ratemin on the null engine.
cat >"$E2E_TMP/ctl.fio" <<'JOB'
[global]
ioengine=null
size=32m

[a]
rw=read
rate=64m

[b]
wait_for=a
rw=write

[c]
new_group
rw=read
startdelay=300ms
JOB
t0=$(date +%s%N)
run_iogauge run --output-format=fio-json "$E2E_TMP/ctl.fio"
ms=$((($(date +%s%N) - t0) / 1000000))
expect_status 0 "wait_for, new_group, startdelay: exit 0"
check "wait_for: b ran after a's half second (the run took $ms ms)" [ "$ms" -ge 500 ]
check "new_group: c reports in group 1, a and b in 0" \
	[ "$(j '.jobs[0].groupid') $(j '.jobs[1].groupid') $(j '.jobs[2].groupid')" = "0 0 1" ]
printf '[a]\nioengine=null\nsize=1m\nwait_for=nobody\n' >"$E2E_TMP/wf.fio"
run_iogauge run "$E2E_TMP/wf.fio"
expect_status 2 "wait_for a job that is not before it: exit 2"
expect_err "wait_for=nobody: no job of that name before it" "the missing job is named"

cat >"$E2E_TMP/exit.fio" <<'JOB'
[global]
ioengine=null
size=64m

[short]
exitall
rate=4m
size=1m

[long]
time_based
runtime=20
rate=10m
JOB
t0=$(date +%s%N)
run_iogauge run --output-format=fio-json "$E2E_TMP/exit.fio"
ms=$((($(date +%s%N) - t0) / 1000000))
check "exitall: the 20 s job stopped when the short one ended ($ms ms)" [ "$ms" -lt 5000 ]
expect_err "job short ended: the other jobs of its group are stopped \(exitall\)" "exitall: said on stderr"

run_iogauge run --name=r --ioengine=null --size=1g --rate=1m --ratemin=2m --time_based --runtime=2500ms
expect_status 1 "ratemin not met: exit 1"
expect_err "below its minimum rate" "ratemin: the job's error is named"
