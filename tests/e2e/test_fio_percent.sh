#!/bin/bash
# fio's percentages of a file's or device's size: size, offset,
# offset_increment and io_size=N% (and offset_align), against fio 3.33 on
# the same job in the same run.  Each thread's io_bytes and total_ios; the
# offsets each thread's requests touched (latency logs with offsets: fio
# rounds each thread's offset up on its own, and cuts a region at the end of
# the file); on a loop device whose quarters are not whole blocks, the blocks
# four writers changed, fio's and iogauge's; several files, nrfiles; a file
# an earlier job of the run made; iogauge run and a job file; the JSON echo ("50%", and the bytes it came to); the
# write interlock of a device; and the refusals, each one line with status
# 2 (0%, 150%, fractions, a file that does not exist, a zone's percentage,
# a suite's).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# Debian's python3 first: a pyenv shim on PATH costs seconds a call.
PATH=/usr/bin:$PATH

need_root
need_iogauge
need_loop
need_cmd fio python3 mkfs.ext4 wipefs
need_json

cd "$E2E_TMP" || exit 1
head -c 64M /dev/urandom >a.dat && head -c 32M /dev/urandom >b.dat || {
	fail "data files"
	exit 1
}

# sum.py FILE: fio-format JSON: each thread's "read bytes, ios, write bytes, ios", sorted.
SUM=$E2E_TMP/sum.py
cat >"$SUM" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
print("\n".join(sorted("%d %d %d %d" % (j["read"]["io_bytes"], j["read"]["total_ios"],
                                       j["write"]["io_bytes"], j["write"]["total_ios"]) for j in d["jobs"])))
PY
# logs.py DIR: each latency log with offsets (a thread's): requests, bytes, first and end offset, a
# hash of its offsets; sorted (fio numbers its threads' logs in another order).
LOGS=$E2E_TMP/logs.py
cat >"$LOGS" <<'PY'
import glob, hashlib, sys
rows = []
for f in glob.glob(sys.argv[1] + "/*_lat.*.log"):
    offs = []
    size = 0
    for line in open(f):
        c = [x.strip() for x in line.split(",")]
        offs.append(int(c[4]))
        size += int(c[3])
    offs.sort()
    h = hashlib.sha1(" ".join(map(str, offs)).encode()).hexdigest()[:12]
    rows.append("n=%d bytes=%d from=%d to=%d %s" % (len(offs), size, offs[0], offs[-1] + 4096, h))
print("\n".join(sorted(rows)) if rows else "none")
PY
# blocks.py DEV: the device's 4 KiB blocks that are not zero, as ranges.
BLOCKS=$E2E_TMP/blocks.py
cat >"$BLOCKS" <<'PY'
import sys
out, start, pos = [], None, 0
with open(sys.argv[1], "rb", buffering=0) as f:
    while True:
        b = f.read(1 << 20)
        if not b:
            break
        for k in range(0, len(b), 4096):
            nz = b[k:k + 4096].count(0) != len(b[k:k + 4096])
            if nz and start is None:
                start = pos + k
            elif not nz and start is not None:
                out.append("%d-%d" % (start, pos + k))
                start = None
        pos += len(b)
if start is not None:
    out.append("%d-%d" % (start, pos))
print(" ".join(out) if out else "none")
PY

# first_is WANT LINES: the first of LINES is WANT ("": anything).
first_is() {
	[ -z "$1" ] || [ "$(head -n 1 <<<"$2")" = "$1" ]
}

# same NAME EXPECT ARGS...: fio and `iogauge fio` on one job: each thread's bytes and requests, the
# same; EXPECT (a line of sum.py's, "" for none) what iogauge's first thread did, figures fio 3.33 gives.
same() {
	local name=$1 want=$2 f g
	shift 2
	fio_cached --output-format=json --output="$E2E_TMP/fio.json" --name=x --bs=4k "$@" >/dev/null 2>&1
	local frc=$?
	run_iogauge fio --output-format=json --output="$E2E_TMP/ig.json" --name=x --bs=4k "$@"
	f=$(python3 "$SUM" "$E2E_TMP/fio.json" 2>&1)
	g=$(python3 "$SUM" "$E2E_TMP/ig.json" 2>&1)
	if ok [ "$frc" -eq 0 ] && ok [ "$STATUS" -eq 0 ] && ok [ "$f" = "$g" ] &&
		ok first_is "$want" "$g"; then
		pass "$name"
	else
		fail "$name" "$WHY; fio: ${f//$'\n'/ | }; iogauge: ${g//$'\n'/ | }"
	fi
}

# offsets NAME ARGS...: each thread's requests, fio's and iogauge's, from their latency logs.
offsets() {
	local name=$1 f g
	shift
	rm -rf lf li && mkdir lf li
	timeout -k 5 120 fio --name=x --bs=4k "$@" --write_lat_log=lf/x --log_offset=1 >/dev/null 2>&1
	run_iogauge fio --name=x --bs=4k "$@" --write_lat_log=li/x --log_offset=1
	f=$(python3 "$LOGS" lf)
	g=$(python3 "$LOGS" li)
	if ok [ "$STATUS" -eq 0 ] && ok [ "$f" != none ] && ok [ "$f" = "$g" ]; then
		pass "$name"
	else
		fail "$name" "$WHY; fio: ${f//$'\n'/ | }; iogauge: ${g//$'\n'/ | }"
	fi
}

# ---- bytes and requests of each thread, on a 64 MiB file
F=--filename=a.dat
same "size=50%: half the file" "33554432 8192 0 0" $F --rw=read --size=50%
same "size=100%: all of it" "67108864 16384 0 0" $F --rw=read --size=100%
same "size=1%: in whole blocks" "667648 163 0 0" $F --rw=read --size=1%
same "offset=10% size=100%: the rest of the file from the rounded-up offset" "60395520 14745 0 0" \
	$F --rw=read --offset=10% --size=100%
same "offset=50% without a size: the rest" "33554432 8192 0 0" $F --rw=read --offset=50%
same "size=30% numjobs=2 offset_increment=30%: 20131840 bytes each" "20131840 4915 0 0" \
	$F --rw=read --size=30% --numjobs=2 --offset_increment=30%
same "size=50% offset_increment=60%: the second thread's region cut at the end" "26841088 6553 0 0" \
	$F --rw=read --size=50% --numjobs=2 --offset_increment=60%
same "io_size=50% of the file" "33554432 8192 0 0" $F --rw=read --io_size=50%
same "size=50% io_size=50%: a quarter" "16777216 4096 0 0" $F --rw=read --size=50% --io_size=50%
same "size=20m io_size=33%: the last block whole" "6922240 1690 0 0" $F --rw=read --size=20m --io_size=33%
same "offset=10% offset_align=64k" "60358656 14736 0 0" $F --rw=read --offset=10% --offset_align=64k --size=100%
same "offset=10% with bsrange: aligned to the smallest block" "" $F --rw=read --offset=10% --size=50% --bsrange=8k-64k
same "randread size=25% numjobs=3 offset_increment=25%" "16777216 4096 0 0" \
	$F --rw=randread --size=25% --numjobs=3 --offset_increment=25%
same "filename=a:b size=50% offset=10%: each file's own share" "50331648 12288 0 0" \
	--filename=a.dat:b.dat --rw=read --size=50% --offset=10%
same "filename=a:b io_size=50%: of both regions" "25165824 6144 0 0" \
	--filename=a.dat:b.dat --rw=read --size=50% --io_size=50%
# nrfiles: the files fio names (JOBNAME.JOBNUM.FILENUM), a user's, each its own half; kept.
mkdir nr && head -c 16M /dev/urandom >nr/x.0.0 && head -c 8M /dev/urandom >nr/x.0.1
same "nrfiles=2 of existing files: each file's own half" "12582912 3072 0 0" \
	--directory=nr --nrfiles=2 --rw=read --size=50%
if ok [ "$(stat -c %s nr/x.0.0 nr/x.0.1 | tr '\n' ' ')" = "16777216 8388608 " ]; then
	pass "nrfiles: the user's files are kept as they were"
else
	fail "nrfiles: the user's files are kept as they were" "$WHY"
fi

# ---- the offsets each thread touched
offsets "offset_increment=10%, four threads: each offset rounded up on its own" \
	$F --rw=read --size=1m --numjobs=4 --offset_increment=10%
offsets "size=50% offset_increment=60%: the cut region's offsets" \
	$F --rw=read --size=50% --numjobs=2 --offset_increment=60%
offsets "offset=10% plus offset_increment=10m" $F --rw=read --offset=10% --size=1m --numjobs=2 --offset_increment=10m
offsets "offset=1m plus offset_increment=10%" $F --rw=read --offset=1m --size=1m --numjobs=2 --offset_increment=10%
offsets "bsrange=8k-64k offset=10%: the same requests" $F --rw=read --offset=10% --size=50% --bsrange=8k-64k
offsets "bs=64k,4k: a read job aligns to the writes' 4k, as fio" $F --rw=read --offset=10% --size=1m --bs=64k,4k
offsets "two files of their own sizes" --filename=a.dat:b.dat --rw=read --size=50% --offset=10%

# ---- a job file and iogauge run
cat >pct.fio <<'JOB'
[global]
filename=a.dat
rw=read
bs=4k
[quarters]
size=25%
offset_increment=25%
numjobs=4
JOB
fio_cached --output-format=json --output="$E2E_TMP/fio.json" pct.fio >/dev/null 2>&1
run_iogauge fio --output-format=json --output="$E2E_TMP/ig.json" pct.fio
f=$(python3 "$SUM" fio.json 2>&1)
g=$(python3 "$SUM" ig.json 2>&1)
if ok [ "$STATUS" -eq 0 ] && ok [ "$f" = "$g" ] && ok [ "$(sort -u <<<"$g")" = "16777216 4096 0 0" ] &&
	ok [ "$(jget ig.json '.jobs[0].job options.size')" = "25%" ]; then
	pass "a job file's size=25% offset_increment=25%, echoed as written"
else
	fail "a job file's size=25% offset_increment=25%, echoed as written" "$WHY; fio: $f; iogauge: $g"
fi
# A file an earlier job of the run wrote: its size when the later job is set up (fio sets up every job first).
cat >two.fio <<'JOB'
[global]
filename=made.dat
bs=4k
[w]
rw=write
size=16m
[r]
stonewall
rw=read
size=50%
JOB
rm -f made.dat
fio_cached --output-format=json --output="$E2E_TMP/fio.json" two.fio >/dev/null 2>&1
rm -f made.dat
run_iogauge fio --output-format=json --output="$E2E_TMP/ig.json" two.fio
f=$(python3 "$SUM" fio.json 2>&1)
g=$(python3 "$SUM" ig.json 2>&1)
if ok [ "$STATUS" -eq 0 ] && ok [ "$f" = "$g" ] && ok [ "$g" = $'0 0 16777216 4096\n8388608 2048 0 0' ]; then
	pass "size=50% of the file an earlier job of the run made"
else
	fail "size=50% of the file an earlier job of the run made" "$WHY; fio: $f; iogauge: $g"
fi
run_iogauge run --filename=a.dat --rw=read --bs=4k --size=50% --offset=10% --json="$E2E_TMP/run.json"
if ok [ "$STATUS" -eq 0 ] && ok [ "$(jget run.json '.jobs[0].read.bytes')" = 33554432 ] &&
	ok [ "$(jget run.json '.jobs[0].options.size')" = "50%" ] &&
	ok [ "$(jget run.json '.jobs[0].options.offset')" = "10%" ] &&
	ok [ "$(jget run.json '.jobs[0].region.offset')" = 6713344 ] &&
	ok [ "$(jget run.json '.jobs[0].region.size')" = 33554432 ] && ok grep -q 'size=32.0 MiB (50%)' "$OUT"; then
	pass "iogauge run: size=50% offset=10%, the JSON echo and the bytes it came to"
else
	fail "iogauge run: size=50% offset=10%, the JSON echo and the bytes it came to" "$WHY"
fi
# The saved result read back: the same region (the report page's summary is rebuilt from the JSON).
run_iogauge report run.json -o "$E2E_TMP/page.html"
if ok [ "$STATUS" -eq 0 ] && ok grep -q 'size=32.0 MiB (50%)' page.html; then
	pass "report: a saved percentage job's size"
else
	fail "report: a saved percentage job's size" "$WHY"
fi

# ---- a loop device whose quarters are not whole blocks: the blocks four writers changed
mkloop quarters 65536512 || {
	fail "a loop device"
	exit 1
}
zero() { dd if=/dev/zero of="$LOOP" bs=1M oflag=direct status=none 2>/dev/null || true; }
# The device's written blocks, past its page cache.
written() {
	blockdev --flushbufs "$LOOP" 2>/dev/null
	python3 "$BLOCKS" "$LOOP"
}
zero
timeout -k 5 120 fio --name=x --filename="$LOOP" --rw=write --bs=4k --direct=1 --numjobs=4 --size=25% \
	--offset_increment=25% >/dev/null 2>&1
f=$(written)
zero
run_iogauge fio --name=x --filename="$LOOP" --rw=write --bs=4k --direct=1 --numjobs=4 --size=25% \
	--offset_increment=25% --allow-destroy
g=$(written)
if ok [ "$STATUS" -eq 0 ] && ok [ "$f" = "$g" ] && ok [ "$g" = "0-16384000 16388096-65536000" ]; then
	pass "a device's quarters: the blocks fio's and iogauge's writers changed"
else
	fail "a device's quarters: the blocks fio's and iogauge's writers changed" "$WHY; fio: $f; iogauge: $g"
fi
zero
timeout -k 5 120 fio --name=x --filename="$LOOP" --rw=randwrite --bs=4k --direct=1 --offset=10% --size=100% \
	>/dev/null 2>&1
f=$(written)
zero
run_iogauge run --filename="$LOOP" --rw=randwrite --bs=4k --direct=1 --offset=10% --size=100% --allow-destroy
g=$(written)
if ok [ "$STATUS" -eq 0 ] && ok [ "$f" = "$g" ] && ok [ "$g" = "6557696-65536000" ]; then
	pass "iogauge run: randwrite offset=10% size=100% of a device, the blocks fio writes"
else
	fail "iogauge run: randwrite offset=10% size=100% of a device, the blocks fio writes" "$WHY; fio: $f; iogauge: $g"
fi
# The classic raw-device job, size=100%: refused on a device with a file system, unchanged.
mkfs_ext4 "$LOOP"
before=$(content_hash "$LOOP")
run_iogauge fio --name=x --filename="$LOOP" --rw=write --bs=64k --size=100%
if ok [ "$STATUS" -eq 2 ] && ok grep -q 'carries an ext4 file system' "$ERR" &&
	ok [ "$(content_hash "$LOOP")" = "$before" ]; then
	pass "size=100% of a device with a file system: refused without --allow-destroy, unchanged"
else
	fail "size=100% of a device with a file system: refused without --allow-destroy, unchanged" "$WHY"
fi
run_iogauge fio --output-format=json --output="$E2E_TMP/ig.json" --name=x --filename="$LOOP" --rw=write --bs=64k \
	--size=100% --allow-destroy
if ok [ "$STATUS" -eq 0 ] && ok [ "$(python3 "$SUM" ig.json)" = "0 0 65536000 1000" ]; then
	pass "size=100% of a device with --allow-destroy: all of it in whole blocks"
else
	fail "size=100% of a device with --allow-destroy: all of it in whole blocks" "$WHY"
fi
wipefs -a -q "$LOOP" 2>/dev/null

# ---- refusals: one line, status 2
refused() {
	local name=$1 pattern=$2
	shift 2
	run_iogauge "$@"
	if ok [ "$STATUS" -eq 2 ] && ok [ "$(wc -l <"$ERR")" -eq 1 ] && ok grep -Eq -- "$pattern" "$ERR"; then
		pass "$name"
	else
		fail "$name" "$WHY"
	fi
}
refused "0% refused" "--size: 0% is out of range" fio --name=x $F --size=0%
refused "150% refused" "--size: 150% is out of range" fio --name=x $F --size=150%
refused "101% io_size refused" "--io_size: 101% is out of range" fio --name=x $F --io_size=101%
refused "a bare % refused" "'%' is not a size or a percentage" fio --name=x $F --size=%
refused "-5% refused" "'-5%' is not a size or a percentage" fio --name=x $F --offset=-5%
refused "12.5% refused (fio reads 12 bytes)" "a whole number from 1% to 100%" fio --name=x $F --size=12.5%
refused "a file that does not exist" "no.dat does not exist; a percentage is of an existing" \
	fio --name=x --filename=no.dat --rw=write --size=50%
refused "offset=10% of a file that does not exist" "no.dat does not exist" \
	fio --name=x --filename=no.dat --rw=write --size=1m --offset=10%
: >empty.dat
refused "an empty file" "empty.dat is empty" run --filename=empty.dat --size=50%
refused "a zone's percentage (fio 3.33 misreads it)" "--zonesize takes no percentage" \
	fio --name=x $F --zonemode=strided --zonesize=10%
refused "a suite takes no percentage" "a suite takes its size in bytes" quick --size=50% "$E2E_TMP"
refused "--filesize with size=50%" "with --filesize" fio --name=x $F --filesize=1m --size=50%
refused "the null engine has no file" "--ioengine=null has no file" fio --name=x --ioengine=null --size=50%
if ok [ ! -e no.dat ]; then pass "no file made for a refused job"; else fail "no file made for a refused job" "$WHY"; fi
