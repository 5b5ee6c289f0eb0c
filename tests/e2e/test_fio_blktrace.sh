#!/bin/bash
# blktrace binary traces as read_iolog (issue 17): small traces made here
# (reads, writes, a flush, a trim, with timestamps; notify, issue and
# complete events and a payload that fio skips; either byte order) are
# replayed by fio 3.33 and by `iogauge fio` in the same run: the same bytes
# and requests per direction, and with stalls honoured a run time close to
# the trace's span.  Truncated, bad-magic, bad-version, huge-payload and
# zero-length traces are refused with one line and exit 2.  A real trace of
# a loop device when blktrace works here (debugfs in a private mount
# namespace).  Small buffered files in the test's scratch directory.
# The replay's times hold on a busy machine: each request is due at its time from the first
# (a late one goes at once, so lateness never adds up), so a run with stalls lasts the span and
# no less, plus the delay in waking for its last request; the bounds leave 180 ms or more for it.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# Debian's python3 first: a pyenv shim on PATH costs seconds a call.
PATH=/usr/bin:$PATH
need_iogauge
need_cmd fio python3
need_json
T=$E2E_TMP
ERR=$T/iog.err

# gen OUT [--be] [--dev=MAJ:MIN] SPEC...: a blktrace file (of device 7:99 unless --dev).  SPEC KIND:SECTOR:BYTES:TIME_NS[:ACTION[:PDU]]:
# KIND r, w, f (a flush), t (a discard), n (a notify); ACTION the low 16 bits (1: queue);
# PDU the payload length the record says, GIVEN the payload bytes written (PDU).
gen() {
	python3 - "$@" <<'PY'
import struct, sys
args = sys.argv[1:]
out = args.pop(0)
order = '<'
dev = (7 << 20) | 99  # kernel dev_t 7:99, a device no test machine has under /dev as a disk
while args and args[0].startswith('--'):
    a = args.pop(0)
    if a == '--be':
        order = '>'
    else:  # --dev=MAJ:MIN
        ma, mi = a[6:].split(':')
        dev = (int(ma) << 20) | int(mi)
tc = dict(r=1, w=2, f=4 | 2, t=(1 << 13) | 2, n=1 << 10)
with open(out, 'wb') as f:
    for i, s in enumerate(args):
        k, sec, nb, t, *rest = s.split(':')
        low = int(rest[0]) if rest and rest[0] else 1
        pdu = int(rest[1]) if len(rest) > 1 else 0
        given = int(rest[2]) if len(rest) > 2 else pdu  # the payload bytes written
        action = ((tc[k] | 1 << 4) << 16) | low
        f.write(struct.pack(order + 'IIQQIIIIIHH', 0x65617407, i, int(t), int(sec), int(nb), action, 42, dev,
                            0, 0, pdu) + b'p' * given)
PY
	[ $? = 0 ] || fail "gen $1"
}

# counts FILE.json: "READBYTES READIOS WRITEBYTES WRITEIOS TRIMBYTES TRIMIOS SYNCS"
# One jget, no pipe: a process costs 50 ms on a busy machine, and the checks call this 50 times.
counts() {
	local v
	mapfile -t v < <(jget "$1" .jobs[0].read.io_bytes .jobs[0].read.total_ios .jobs[0].write.io_bytes \
		.jobs[0].write.total_ios .jobs[0].trim.io_bytes .jobs[0].trim.total_ios .jobs[0].sync.total_ios 2>/dev/null)
	echo "${v[*]}"
}
# fio_start NAME TRACE [ARGS...]: fio replays TRACE in the background, onto a 1 MiB file of its
# own (which must hold the data its reads ask for), once per make test for both binaries
# (fio_cached: the trace and the job are the same).  fio takes a second or two to start on a busy
# machine: its replays go at once, and both() takes each when it is done.
declare -A FIOPID
fio_start() {
	local name=$1 tr=$2
	shift 2
	rm -f "$T/$name.f"
	head -c 1048576 /dev/zero >"$T/$name.f"
	(
		fio_cached --name=r --read_iolog="$tr" --replay_redirect="$T/$name.f" "$@" --output-format=json \
			>"$T/$name.fio.json" 2>"$T/$name.fio.err"
		echo $? >"$T/$name.fio.rc"
	) &
	FIOPID[$name]=$!
}
# both NAME TRACE [ARGS...]: fio's replay (fio_start, started here if it was not) and iogauge's,
# onto a file it makes; sets FJ, IJ.
both() {
	local name=$1 tr=$2
	shift 2
	FJ=$T/$name.fio.json IJ=$T/$name.iog.json
	[ -n "${FIOPID[$name]:-}" ] || fio_start "$name" "$tr" "$@"
	rm -f "$T/$name.i"
	"$IOGAUGE" fio --name=r --read_iolog="$tr" --replay_redirect="$T/$name.i" "$@" --output-format=json \
		>"$IJ" 2>"$ERR"
	local rc=$?
	wait "${FIOPID[$name]}"
	check "$name: fio 3.33 replays it: exit 0" [ "$(cat "$T/$name.fio.rc")" = 0 ]
	check "$name: iogauge fio replays it: exit 0" [ $rc = 0 ]
	[ $rc = 0 ] || cat "$ERR" >&2
	san_check "$name"
	echo "# $name: fio $(counts "$FJ"); iogauge $(counts "$IJ")"
}
# refused NAME TRACE [ARGS...]: exit 2 with one line on stderr, nothing written.
refused() {
	local name=$1 tr=$2
	shift 2
	"$IOGAUGE" fio --name=r --read_iolog="$tr" "$@" --output-format=json >/dev/null 2>"$ERR"
	local rc=$?
	check "$name: exit 2" [ "$rc" = 2 ]
	check "$name: one line ($(head -c 200 "$ERR"))" [ "$(wc -l <"$ERR")" = 1 ]
	san_check "$name"
}

# 1. Reads, writes and a flush over 400 ms; events fio leaves out: a notify, an issue and a
#    complete (action 7 and 8), a zero-byte read (fio ignores it with a warning), a payload.
RW=(r:0:4096:1000000 w:8:8192:50000000 w:8:8192:50010000:7 w:8:8192:50020000:8
	n:0:0:60000000:0:24 r:64:4096:100000000::16 f:0:0:150000000 r:128:0:160000000
	w:256:4096:200000000 r:512:65536:300000000 w:1024:4096:401000000)
gen "$T/rw.bt" "${RW[@]}"
gen "$T/rwbe.bt" --be "${RW[@]}"
gen "$T/al.bt" r:1:1000:1000 w:9:5000:2000000 r:100:512:3000000
fio_start rw "$T/rw.bt" --replay_no_stall=1
fio_start be "$T/rwbe.bt" --replay_no_stall=1
fio_start stall "$T/rw.bt"
fio_start fast "$T/rw.bt" --replay_time_scale=200
fio_start skip "$T/rw.bt" --replay_no_stall=1 --replay_skip=write,sync --replay_scale=2
fio_start align "$T/al.bt" --replay_no_stall=1 --replay_align=4096
both rw "$T/rw.bt" --replay_no_stall=1
check "rw: bytes and requests per direction (and syncs) as fio's replay" [ "$(counts "$IJ")" = "$(counts "$FJ")" ]
check "rw: the trace's own numbers: 3 reads (73728 B), 3 writes (16384 B), 1 flush" \
	[ "$(counts "$IJ")" = "73728 3 16384 3 0 0 1" ]
check "rw: replay_no_stall: far less than the trace's 400 ms" [ "$(jget "$IJ" .jobs[0].job_runtime)" -lt 200 ]
both be "$T/rwbe.bt" --replay_no_stall=1
check "a big-endian trace: as fio's replay" [ "$(counts "$IJ")" = "$(counts "$FJ")" ]
check "... and as the little-endian one" [ "$(counts "$IJ")" = "73728 3 16384 3 0 0 1" ]

# 2. With stalls: the run lasts the trace's span (400 ms from the first request to the last).
both stall "$T/rw.bt"
fi_t=$(jget "$FJ" .jobs[0].job_runtime) ig_t=$(jget "$IJ" .jobs[0].job_runtime)
echo "# trace span 400 ms: fio $fi_t ms, iogauge $ig_t ms"
check "stalls: iogauge's run ($ig_t ms) close to the trace's 400 ms" between "$ig_t" 390 700
check "stalls: fio's too ($fi_t ms), the same run" between "$fi_t" 390 700
check "stalls: the same requests as fio" [ "$(counts "$IJ")" = "$(counts "$FJ")" ]
both fast "$T/rw.bt" --replay_time_scale=200
ig_t=$(jget "$IJ" .jobs[0].job_runtime) fi_t=$(jget "$FJ" .jobs[0].job_runtime)
check "replay_time_scale=200: half the span (iogauge $ig_t ms, fio $fi_t ms)" between "$ig_t" 190 380

# 3. Writes and a trim (a discard), onto a loop device: fio 3.33 trims with BLKDISCARD, which a
#    regular file refuses (ENOTTY), so both replay onto the device (redirected: the trace's is 7:99).
gen "$T/wt.bt" w:0:16384:1000 w:32:4096:2000000 t:0:8192:4000000 w:64:4096:5000000
if [ "$(id -u)" = 0 ] && mkloop wt 1M; then
	fio_cached --name=r --read_iolog="$T/wt.bt" --replay_redirect="$LOOP" --direct=1 --replay_no_stall=1 --output-format=json \
		>"$T/wt.fio.json" 2>"$T/wt.fio.err"
	check "wt: fio 3.33 replays it onto a loop device: exit 0" [ $? = 0 ]
	"$IOGAUGE" fio --name=r --read_iolog="$T/wt.bt" --replay_redirect="$LOOP" --allow-destroy --direct=1 --replay_no_stall=1 \
		--output-format=json >"$T/wt.iog.json" 2>"$ERR"
	check "wt: iogauge fio replays it onto the loop device: exit 0" [ $? = 0 ]
	san_check wt
	echo "# wt: fio $(counts "$T/wt.fio.json"); iogauge $(counts "$T/wt.iog.json")"
	check "wt: writes and the trim as fio's replay" [ "$(counts "$T/wt.iog.json")" = "$(counts "$T/wt.fio.json")" ]
	check "wt: 3 writes (24576 B), 1 trim (8192 B)" [ "$(counts "$T/wt.iog.json")" = "0 0 24576 3 8192 1 0" ]
	# A trace of the loop device itself: fio finds it under /dev; iogauge replays onto it as --filename.
	gen "$T/own.bt" --dev="$(python3 -c 'import os, sys; d = os.stat(sys.argv[1]).st_rdev; print(f"{os.major(d)}:{os.minor(d)}")' "$LOOP")" \
		w:0:16384:1000 r:64:4096:2000000 w:128:8192:3000000
	fio_cached --name=r --read_iolog="$T/own.bt" --replay_no_stall=1 --output-format=json >"$T/own.fio.json" 2>/dev/null
	check "own device: fio 3.33 finds the traced device and replays it: exit 0" [ $? = 0 ]
	"$IOGAUGE" fio --name=r --read_iolog="$T/own.bt" --filename="$LOOP" --allow-destroy --replay_no_stall=1 \
		--output-format=json >"$T/own.iog.json" 2>"$ERR"
	check "own device: iogauge replays it onto the device given as --filename: exit 0" [ $? = 0 ]
	san_check own
	echo "# own device: fio $(counts "$T/own.fio.json"); iogauge $(counts "$T/own.iog.json")"
	check "own device: the same bytes and requests as fio's replay" \
		[ "$(counts "$T/own.iog.json")" = "$(counts "$T/own.fio.json")" ]
	check "own device: 1 read (4096 B), 2 writes (24576 B)" [ "$(counts "$T/own.iog.json")" = "4096 1 24576 2 0 0 0" ]
else
	skip "writes and a trim onto a loop device" "needs root and a loop device"
fi

# 4. replay_skip and replay_scale apply to a trace, as fio.
both skip "$T/rw.bt" --replay_no_stall=1 --replay_skip=write,sync --replay_scale=2
check "replay_skip=write,sync replay_scale=2: as fio's replay" [ "$(counts "$IJ")" = "$(counts "$FJ")" ]
check "... the reads only" [ "$(counts "$IJ")" = "73728 3 0 0 0 0 0" ]

# replay_align: offsets down, a trace's lengths up (fio's t_bytes_align), as fio.
both align "$T/al.bt" --replay_no_stall=1 --replay_align=4096
check "replay_align=4096 (lengths rounded up): as fio's replay" [ "$(counts "$IJ")" = "$(counts "$FJ")" ]
check "... 2 reads of 4096 B, 1 write of 8192 B" [ "$(counts "$IJ")" = "8192 2 8192 1 0 0 0" ]

# 5. Refusals: one line, exit 2, and no file made.
X=$T/x
sz=$(stat -c %s "$T/rw.bt")
head -c $((sz - 10)) "$T/rw.bt" >"$T/trunc.bt"
refused "a truncated record" "$T/trunc.bt" --replay_redirect="$X"
check "... named as truncated" grep -q "truncated" "$ERR"
python3 -c "
import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[48:52] = b'\0\0\0\0'; open(sys.argv[2], 'wb').write(b)" \
	"$T/rw.bt" "$T/magic.bt"
refused "a bad magic in the second record" "$T/magic.bt" --replay_redirect="$X"
check "... named: record 2, bad magic" grep -q "record 2: bad magic" "$ERR"
python3 -c "
import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[0] = 6; open(sys.argv[2], 'wb').write(b)" \
	"$T/rw.bt" "$T/ver.bt"
refused "a blktrace version fio does not read" "$T/ver.bt" --replay_redirect="$X"
gen "$T/pdu.bt" r:0:4096:1000 r:8:4096:2000:1:65535:100
refused "a payload of 65535 bytes past the end" "$T/pdu.bt" --replay_redirect="$X"
check "... named as a payload past the end" grep -q "payload of 65535 bytes" "$ERR"
gen "$T/zero.bt" r:0:0:1000 w:8:0:2000
refused "a trace of zero-length requests only" "$T/zero.bt" --replay_redirect="$X"
fio_cached --name=r --read_iolog="$T/zero.bt" --replay_redirect="$T/zero.f" --output-format=json >/dev/null 2>&1
check "... fio refuses it too" [ $? != 0 ]
head -c 20 "$T/rw.bt" >"$T/short.bt"
refused "a trace shorter than one record" "$T/short.bt" --replay_redirect="$X"
refused "a trace of a device the job was not given" "$T/rw.bt"
check "... naming the device 7:99" grep -q "device 7:99" "$ERR"
refused "a trace onto another --filename" "$T/rw.bt" --filename="$X"
check "no file was made by the refused jobs" [ ! -e "$X" ]
refused "merge_blktrace_file (not followed)" "$T/rw.bt" --replay_redirect="$X" --merge_blktrace_file="$T/m.bt"

# 6. A real trace of a loop device, when blktrace can trace here (debugfs mounted in a
#    private mount namespace, so nothing outside this test sees it).
real_trace() {
	command -v blktrace >/dev/null && command -v unshare >/dev/null || return 1
	need_root
	mkloop bt 16M || return 1
	cat >"$T/trace.sh" <<'SH'
set -u
mount -t debugfs none /sys/kernel/debug 2>/dev/null || exit 3
blktrace -d "$1" -a queue -a discard -o - >"$2" 2>"$2.err" &
bt=$!
# Tracing: its relay files are there (a blktrace refused ends at once).
n=0
until [ -e "/sys/kernel/debug/block/${1##*/}/trace0" ]; do
	kill -0 $bt 2>/dev/null && [ $n -lt 500 ] || exit 4
	sleep 0.02
	n=$((n + 1))
done
sleep 0.2
kill -0 $bt 2>/dev/null || exit 4
dd if=/dev/zero of="$1" bs=64k count=4 oflag=direct 2>/dev/null
sleep 0.2
dd if="$1" of=/dev/null bs=16k count=8 iflag=direct 2>/dev/null
sleep 0.3
dd if=/dev/zero of="$1" bs=4k count=2 seek=300 oflag=direct 2>/dev/null
sleep 0.3
kill -INT $bt
wait $bt
SH
	timeout 30 unshare -m --propagation private bash "$T/trace.sh" "$LOOP" "$T/real.bt" >/dev/null 2>&1 &&
		[ -s "$T/real.bt" ] && ! grep -q "FAILED\|failed" "$T/real.bt.err"
}
if real_trace; then
	# fio finds the traced device under /dev itself; iogauge replays onto it as the job's --filename.
	fio --name=r --read_iolog="$T/real.bt" --replay_no_stall=1 --output-format=json >"$T/real.fio.json" 2>/dev/null
	check "real trace: fio replays it" [ $? = 0 ]
	"$IOGAUGE" fio --name=r --read_iolog="$T/real.bt" --filename="$LOOP" --allow-destroy --replay_no_stall=1 \
		--output-format=json >"$T/real.iog.json" 2>"$ERR"
	check "real trace: iogauge replays it onto the loop device" [ $? = 0 ]
	echo "# real trace: fio $(counts "$T/real.fio.json"); iogauge $(counts "$T/real.iog.json")"
	check "real trace: the same bytes and requests per direction as fio's replay" \
		[ "$(counts "$T/real.iog.json")" = "$(counts "$T/real.fio.json")" ]
else
	skip "a real trace of a loop device" "blktrace cannot trace here ($(head -n 1 "$T/real.bt.err" 2>/dev/null || echo 'not installed'))"
fi
