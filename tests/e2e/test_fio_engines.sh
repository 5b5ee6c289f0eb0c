#!/bin/bash
# fio's trims, engines and zones: a job of each kind under fio and iogauge in the same run, with
# the same io_bytes and total_ios in each direction (read, write, trim); the request logs of the
# trim modes and the strided zones (offsets, sizes, trim-then-write pairs); trims on a RAM-backed
# loop device (discarded blocks read back as zeros, the rest unchanged; a device carrying a file
# system is refused and left alone) and punched holes in a file; zbd refused; a still unsupported
# option named with status 2.  With fio's source at hand (FIO_SRC), also fio's regression jobs
# t0015..t0024 run unchanged and pass fio's own checks of them (t/run-fio-tests.py).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# Debian's python3 first: a pyenv shim on PATH costs seconds a call.
PATH=/usr/bin:$PATH

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 fio python3
need_json

# ext4 on a RAM-backed loop device (its image unlinked at once: freed when the loop goes).
IMG=$(mktemp /dev/shm/iogauge-e2e.XXXXXX) && truncate -s 96M "$IMG" && LOOP=$(losetup -f --show "$IMG") &&
	E2E_LOOPS+=("$LOOP") && rm -f "$IMG" && mkfs_ext4 "$LOOP" && mount_tmp "$LOOP" || {
	rm -f "$IMG"
	fail "ext4 on a RAM-backed loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
j() { jget "$OUT" "$1" 2>/dev/null; }

# ---- 1. A job per feature under both tools: the same counts per direction.
# (fio 3.33 fails trims on files, so its trims are compared on the null engine and falloc.)
cat >"$E2E_TMP/same.fio" <<'JOB'
[global]
bs=4k

; the null engine sized by filesize alone, and queueing at iodepth 16
[null-filesize]
ioengine=null
filesize=1m
rw=randread
[null-depth]
ioengine=null
size=1m
iodepth=16
rw=randrw
; posixaio
[posixaio]
ioengine=posixaio
iodepth=8
size=1m
rw=randrw
; the trim modes (trim sizes of their own, sizes drawn as fio draws them)
[trim]
ioengine=null
size=1m
rw=trim
bs=4k,4k,8k
[randtrim]
ioengine=null
size=1m
rw=randtrim
[trimwrite]
ioengine=null
filesize=1m
rw=trimwrite
bsrange=512-4k
[randtrimwrite]
ioengine=null
filesize=1m
rw=randtrimwrite
bsrange=512-4k
norandommap
[randtrimwrite-map]
ioengine=null
filesize=1m
rw=randtrimwrite
bssplit=512/25:1k/25:2k/25:4k/25
; fallocate and ftruncate
[falloc-write]
ioengine=falloc
size=2m
bs=64k
rw=randwrite
filename=frag
[falloc-punch]
stonewall
ioengine=falloc
size=1m
rw=randtrim
filename=frag
[falloc-read]
ioengine=falloc
size=1m
rw=read
[ftruncate]
ioengine=ftruncate
size=1m
rw=write
; fio's file engines (fio counts each file's blocks in the job's direction)
[filecreate]
stonewall
ioengine=filecreate
nrfiles=20
filesize=8k
[filestat]
stonewall
ioengine=filestat
nrfiles=20
filesize=8k
[filedelete]
stonewall
ioengine=filedelete
nrfiles=20
filesize=8k
rw=write
; strided zones; threads (fio takes it, to no effect)
[zones]
ioengine=null
size=1m
zonemode=strided
zonesize=64k
zoneskip=192k
rw=randread
threads=1
JOB
(cd "$E2E_TMP" && fio --directory="$D" --output-format=json same.fio >fio.json 2>fio.err)
rm -rf "${D:?}"/*
run_iogauge run --directory="$D" --output-format=fio-json "$E2E_TMP/same.fio"
expect_status 0 "a job per feature under iogauge: exit 0"
expect_err "job falloc-write: --ioengine=falloc moves no data" "falloc's bytes are said to be no data moved"
cat >"$E2E_TMP/same.py" <<'PY'
import json, sys
fio = json.load(open(sys.argv[1]))["jobs"]
iog = json.load(open(sys.argv[2]))["jobs"]
def c(j): return [(j[d]["io_bytes"], j[d]["total_ios"]) for d in ("read", "write", "trim")]
bad = len(fio) != len(iog) or len(fio) < 16
for a, b in zip(fio, iog):
    ok = a["jobname"] == b["jobname"] and c(a) == c(b) and a["error"] == 0 and b["error"] == 0
    print("ok  " if ok else "DIFF", a["jobname"], "fio", c(a), "iogauge", c(b))
    bad += not ok
sys.exit(bad != 0)
PY
check "every job: the same io_bytes and total_ios for read, write and trim as fio" \
	python3 "$E2E_TMP/same.py" "$E2E_TMP/fio.json" "$OUT"
check "no test file left" dir_empty "$D"

# fio's directory engines (newer than fio 3.33, so not compared): each makes, stats or removes
# its directories, and dirstat makes those it stats beforehand, untimed.
for e in dircreate:mkdir dirstat:stat dirdelete:rmdir; do
	run_iogauge run --name=d --directory="$D" --ioengine="${e%%:*}" --nrfiles=20 --keep --output-format=json
	expect_status 0 "--ioengine=${e%%:*}: exit 0"
	check "... 20 ${e##*:} operations" [ "$(j ".jobs[0].${e##*:}.ios")" = 20 ]
	check "... 20 directories there afterwards, or none after dirdelete" \
		[ "$(find "$D/d.files/t0" -mindepth 1 -type d | wc -l)" = "$([ "${e%%:*}" = dirdelete ] && echo 0 || echo 20)" ]
	[ "${e%%:*}" = dircreate ] && rm -rf "${D:?}"/* # dirstat makes its own
done
rm -rf "${D:?}"/*

# ---- 2. The requests themselves, from the per-request bandwidth logs (log_offset).
cat >"$E2E_TMP/logs.fio" <<'JOB'
[global]
ioengine=null
size=1m
write_bw_log
log_offset=1
per_job_logs=0
[tw]
filesize=1m
rw=trimwrite
bsrange=512-4k
[rtw]
filesize=1m
rw=randtrimwrite
bs=4k,4k,8k
[zseq]
zonemode=strided
zonesize=32k
zonerange=128k
zoneskip=128k
[ztwice]
zonemode=strided
zonesize=128k
zonerange=64k
zoneskip=64k
JOB
mkdir "$E2E_TMP/flog" "$E2E_TMP/ilog"
(cd "$E2E_TMP/flog" && fio ../logs.fio >/dev/null 2>&1)
(cd "$E2E_TMP/ilog" && "$IOGAUGE" run ../logs.fio >/dev/null 2>"$ERR")
san_check "the logs' jobs"
cat >"$E2E_TMP/pairs.py" <<'PY'
import sys
# Each trim is followed by a write of the same offset and size; the trims cover the file.
lines = [l.split(",") for l in open(sys.argv[1]) if l.strip()]
ops = [(int(l[2]), int(l[3]), int(l[4])) for l in lines]
if len(ops) < 2 or len(ops) % 2: sys.exit("odd log")
covered = set()
for t, w in zip(ops[0::2], ops[1::2]):
    if t[0] != 2 or w[0] != 1 or t[1:] != w[1:]: sys.exit("not a trim-write pair: %s %s" % (t, w))
    covered.update(range(t[2] // 512, (t[2] + t[1]) // 512))
if len(covered) != (1 << 20) // 512: sys.exit("%d sectors trimmed" % len(covered))
PY
for n in tw rtw; do
	check "rw=$n: each trim then a write of its block, the whole file trimmed" \
		python3 "$E2E_TMP/pairs.py" "$E2E_TMP/ilog/${n}_bw.log"
done
offs() { cut -d, -f3-5 "$1"; }
for n in tw zseq ztwice; do
	check "$n: fio's very requests (direction, size, offset)" \
		cmp -s <(offs "$E2E_TMP/flog/${n}_bw.log") <(offs "$E2E_TMP/ilog/${n}_bw.log")
done

# ---- 3. Trims on a device: discards inside the region only, and only where writing is allowed.
DEV_IMG=$(mktemp /dev/shm/iogauge-e2e.XXXXXX) && truncate -s 8M "$DEV_IMG" && DEV=$(losetup -f --show "$DEV_IMG") &&
	E2E_LOOPS+=("$DEV") && rm -f "$DEV_IMG" || {
	rm -f "$DEV_IMG"
	fail "a RAM-backed loop device"
	exit 1
}
dd if=/dev/urandom of="$DEV" bs=1M count=8 oflag=direct status=none
part() { dd if="$DEV" bs=1M skip="$1" count="$2" iflag=direct status=none | sha256sum | cut -d' ' -f1; }
ZERO2=$(head -c 2M /dev/zero | sha256sum | cut -d' ' -f1)
before_lo=$(part 0 1)
before_hi=$(part 3 5)
run_iogauge run --name=d --filename="$DEV" --offset=1m --size=2m --rw=randtrim --bs=64k --ioengine=libaio \
	--iodepth=4 --output-format=fio-json
expect_status 0 "randtrim on a loop device without a signature: exit 0"
check "fio-json counts 32 trims of 64 KiB" [ "$(j .jobs[0].trim.total_ios) $(j .jobs[0].trim.io_bytes)" = "32 2097152" ]
check "the region reads back as zeros (discarded)" [ "$(part 1 2)" = "$ZERO2" ]
check "the device outside the region is unchanged" [ "$(part 0 1) $(part 3 5)" = "$before_lo $before_hi" ]
# Buffered trimwrite, twice over: the second loop discards blocks whose writes are still dirty in
# the device's page cache.  The discard goes through the descriptor that holds the device
# exclusively (from another one the kernel cannot drop dirty pages: EBUSY, as iogauge once said).
run_iogauge run --name=d --filename="$DEV" --offset=1m --size=1m --rw=trimwrite --bs=4k --loops=2 \
	--output-format=fio-json
expect_status 0 "buffered trimwrite x2 on a loop device: exit 0 (no EBUSY)"
check "... 512 trims and 512 writes of 4 KiB, as fio counts them" \
	[ "$(j .jobs[0].trim.total_ios) $(j .jobs[0].write.total_ios) $(j .jobs[0].write.io_bytes)" = "512 512 2097152" ]
check "... the device outside the region is unchanged" [ "$(part 0 1) $(part 3 5)" = "$before_lo $before_hi" ]
run_iogauge run --name=d --filename="$DEV" --size=1m --rw=trim --bs=1000
expect_status 2 "a discard of part sectors: exit 2"
expect_err "whole 512-byte sectors" "... named before any I/O"
mkfs.ext4 -q -F "$DEV" >/dev/null 2>&1
sum=$(content_hash "$DEV")
run_iogauge run --name=d --filename="$DEV" --size=2m --rw=trim --bs=64k
expect_status 2 "trim on a device carrying ext4 without --allow-destroy: exit 2"
expect_err "refusing .*ext4.*--allow-destroy" "... the interlock names the file system"
check "... and the device is unchanged" [ "$(content_hash "$DEV")" = "$sum" ]
mount_tmp "$DEV"
run_iogauge run --name=d --filename="$DEV" --size=2m --rw=trim --bs=64k --allow-destroy
expect_status 2 "trim on a mounted device, even with --allow-destroy: exit 2"
umount "$MNT"

# ---- 4. Punched holes in a file: st_blocks drops, data outside the region intact.
F=$D/holes
run_iogauge run --name=f --filename="$F" --size=4m --rw=write --bs=1m --keep --end_fsync=1
expect_status 0 "a 4 MiB file laid out"
fpart() { dd if="$F" bs=1M skip="$1" count="$2" status=none | sha256sum | cut -d' ' -f1; }
f_lo=$(fpart 0 1)
f_hi=$(fpart 2 2)
blocks=$(stat -c %b "$F")
run_iogauge run --name=f --filename="$F" --offset=1m --size=1m --rw=randtrim --bs=64k --ioengine=io_uring \
	--iodepth=8 --keep --allow-overwrite --output-format=fio-json
expect_status 0 "randtrim of a file: exit 0"
check "fio-json counts 16 trims" [ "$(j .jobs[0].trim.total_ios)" = 16 ]
# (ext4 may keep or free an extent-tree block besides.)
check "st_blocks dropped by 1 MiB (2048 sectors)" between $((blocks - $(stat -c %b "$F"))) 2040 2056
check "the size is kept" [ "$(stat -c %s "$F")" -eq $((4 << 20)) ]
check "data outside the region intact" [ "$(fpart 0 1) $(fpart 2 2)" = "$f_lo $f_hi" ]
check "the region reads as zeros" [ "$(fpart 1 1)" = "$(head -c 1M /dev/zero | sha256sum | cut -d' ' -f1)" ]
rm -f "$F"

# ---- 5. What is not supported is named, one line, status 2.
run_iogauge run --name=z --directory="$D" --size=1m --zonemode=zbd
expect_status 2 "zonemode=zbd: exit 2"
expect_err "zonemode=zbd needs a zoned block device; .* is on loop[0-9]+, which is not zoned" \
	"... naming the device that is not zoned"
run_iogauge run --name=z --directory="$D" --size=1m --zonesize=64k
expect_status 2 "zonesize without zonemode=strided (refused by fio 3.33 too): exit 2"
# zbd's options are taken with no effect (zonemode=zbd alone uses them); others still named.
printf '[z]\nsize=1m\nzonemode=strided\nzonesize=64k\nzonecapacity=32k\nread_beyond_wp=1\nlockmem=1m\nwrite_hint=short\n' >"$E2E_TMP/un.fio"
run_iogauge run --directory="$D" "$E2E_TMP/un.fio"
expect_status 2 "fio options still unsupported: exit 2"
check "... each named at once" [ "$(grep -c "unsupported fio option" "$ERR")" -eq 2 ]
check "... zbd's options not among them" [ "$(grep -c "zonecapacity\|read_beyond_wp" "$ERR")" -eq 0 ]
run_iogauge run --name=t --directory="$D" --size=1m --rw=trim --ioengine=stdio
expect_status 2 "an engine that cannot trim: exit 2"
check "no test file left" dir_empty "$D"

# ---- 6. fio's own regression jobs and checks, where fio's source is at hand.
# scripts/fio-source.sh: FIO_SRC, build/fio-3.33, or fetched from Debian's archive.
FIO_SRC=$("$E2E_ROOT/scripts/fio-source.sh" 2>"$E2E_TMP/src.err") || FIO_SRC="(none: $(head -n 1 "$E2E_TMP/src.err"))"
if [ -f "$FIO_SRC/t/run-fio-tests.py" ]; then
	cat >"$E2E_TMP/fiocheck.py" <<'PY'
# fio's check of one regression job (t/run-fio-tests.py), on the files iogauge wrote.
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("rft", sys.argv[1])
rft = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rft)
n, d = int(sys.argv[2]), sys.argv[3]
cls = {15: rft.FioJobTest_t0015, 16: rft.FioJobTest_t0015, 17: rft.FioJobTest_t0015,
       19: rft.FioJobTest_t0019, 20: rft.FioJobTest_t0020, 21: rft.FioJobTest_t0020,
       22: rft.FioJobTest_t0022, 23: rft.FioJobTest_t0023, 24: rft.FioJobTest_t0024}.get(n, rft.FioJobTest)
t = object.__new__(cls)
t.test_dir, t.passed, t.failure_reason, t.testnum = d, True, "", n
t.json_data = json.load(open(d + "/out.json")) if len(sys.argv) > 4 else None
rft.FioJobTest.check_result = lambda self: None  # fio's checks of its own stdout and stderr files
cls.check_result(t)
print(t.failure_reason)
sys.exit(not t.passed)
PY
	for n in 15 16 17 18 19 20 21 22 23 24; do
		job=$(ls "$FIO_SRC"/t/jobs/t00"$n"*.fio 2>/dev/null | head -n 1)
		[ -f "$job" ] || continue
		w=$E2E_TMP/t$n
		mkdir "$w"
		(cd "$w" && timeout -k 5 60 "$IOGAUGE" run --output-format=fio-json "$job" >out.json 2>"$ERR")
		san_check "$(basename "$job")"
		check "fio's $(basename "$job") runs unchanged and passes fio's check" \
			python3 "$E2E_TMP/fiocheck.py" "$FIO_SRC/t/run-fio-tests.py" "$n" "$w" json
	done
else
	skip "fio's regression jobs t0015..t0024" "no fio source at $FIO_SRC"
fi
