#!/bin/bash
# fio's iologs: a log fio 3.33 wrote, replayed by iogauge, moves the bytes
# and requests per direction that fio's own replay moves; iogauge's
# write_iolog is fio's version 3 format and fio replays it likewise; v2
# logs, replay_scale/align/skip and replay_no_stall; malformed logs, a
# truncated blktrace trace (test_fio_blktrace.sh replays whole ones) and logs naming a file the job was not given are refused with one
# line and exit 2.  Small buffered files in the test's scratch directory.
# make test: alone (replay times measured)
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_iogauge
need_cmd fio
need_json
T=$E2E_TMP
ERR=$T/iog.err

# counts FILE.json: "READBYTES READIOS WRITEBYTES WRITEIOS"
counts() {
	local r w
	r=$(jget "$1" .jobs[0].read.io_bytes .jobs[0].read.total_ios 2>/dev/null | tr '\n' ' ')
	w=$(jget "$1" .jobs[0].write.io_bytes .jobs[0].write.total_ios 2>/dev/null | tr '\n' ' ')
	echo "$r$w"
}
# refused NAME ARGS...: exit 2 with one line on stderr.
refused() {
	local name=$1
	shift
	"$IOGAUGE" run --name=r "$@" >/dev/null 2>"$ERR"
	local rc=$?
	check "$name: exit 2" [ "$rc" = 2 ]
	check "$name: one line" [ "$(wc -l <"$ERR")" = 1 ]
}

# 1. fio writes a log; fio and iogauge replay it (iogauge onto its own file).
fio --name=w --rw=randrw --bs=4k --size=256k --fsync=8 --filename="$T/ff" --write_iolog="$T/fio.log" \
	--output-format=json >"$T/fw.json" 2>/dev/null
check "fio 3.33 wrote a version 3 log" [ "$(head -n 1 "$T/fio.log")" = "fio version 3 iolog" ]
fio --name=r --read_iolog="$T/fio.log" --output-format=json >"$T/fr.json" 2>/dev/null
"$IOGAUGE" run --name=r --read_iolog="$T/fio.log" --replay_redirect="$T/fi" --output-format=fio-json \
	>"$T/ir.json" 2>"$ERR"
check "iogauge replays fio's log: exit 0" [ $? = 0 ]
echo "# fio replay: $(counts "$T/fr.json"); iogauge replay: $(counts "$T/ir.json")"
check "iogauge's replay of fio's log: bytes and requests per direction as fio's replay" \
	[ "$(counts "$T/ir.json")" = "$(counts "$T/fr.json")" ]
check "... and as the job that wrote it" [ "$(counts "$T/ir.json")" = "$(counts "$T/fw.json")" ]
check "... the log's syncs too, as fio's replay" \
	[ "$(jget "$T/ir.json" .jobs[0].sync.total_ios)" = "$(jget "$T/fr.json" .jobs[0].sync.total_ios)" ]
check "the redirected file is removed (iogauge created it)" [ ! -e "$T/fi" ]
check "fio's file was not touched by the replay onto another" [ "$(stat -c %s "$T/ff")" = 262144 ]

# 2. iogauge writes a log; fio replays it onto the same (kept) file.
"$IOGAUGE" run --name=w --rw=randrw --bs=4k --size=256k --fsync=8 --filename="$T/gi" --keep \
	--write_iolog="$T/ig.log" --output-format=fio-json >"$T/iw.json" 2>"$ERR"
check "write_iolog: exit 0" [ $? = 0 ]
check "write_iolog: fio's header" [ "$(head -n 1 "$T/ig.log")" = "fio version 3 iolog" ]
check "write_iolog: add, open first and close last, as fio" \
	[ "$(sed -n '2p;3p;$p' "$T/ig.log" | awk '{print $2, $3}' | tr '\n' ' ')" = "$T/gi add $T/gi open $T/gi close " ]
awk 'NR > 1 && !(($3 == "read" || $3 == "write") && NF == 5 && $5 == 4096 && $4 % 4096 == 0 && $4 < 262144) &&
	!($3 == "sync" && NF == 5 && $5 == 0) && !($3 ~ /^(add|open|close)$/ && NF == 3) { bad++ }
	NR > 1 && $1 + 0 < prev { bad++ } { prev = $1 + 0 } END { exit bad > 0 }' "$T/ig.log"
check "write_iolog: every line is fio's TIME FILE ACTION [OFFSET LEN], times never going back" [ $? = 0 ]
fio --name=r --read_iolog="$T/ig.log" --output-format=json >"$T/fr2.json" 2>/dev/null
echo "# iogauge wrote: $(counts "$T/iw.json"); fio replay: $(counts "$T/fr2.json")"
check "fio replays iogauge's log: bytes and requests per direction as the job that wrote it" \
	[ "$(counts "$T/fr2.json")" = "$(counts "$T/iw.json")" ]
check "fio's replay counted the syncs of iogauge's log" \
	[ "$(jget "$T/fr2.json" .jobs[0].sync.total_ios 2>/dev/null)" = "$(grep -c ' sync ' "$T/ig.log")" ]
# The log names gi: iogauge replays onto it when the job names it (it exists: --allow-overwrite).
"$IOGAUGE" run --name=r --read_iolog="$T/ig.log" --filename="$T/gi" --allow-overwrite \
	--output-format=fio-json >"$T/ir2.json" 2>"$ERR"
check "iogauge replays its own log onto the file it names: exit 0" [ $? = 0 ]
check "... the same bytes and requests" [ "$(counts "$T/ir2.json")" = "$(counts "$T/iw.json")" ]
check "... and the file the job was given stays" [ -f "$T/gi" ]

# 3. Version 2, replay_scale, replay_align, replay_skip, replay_no_stall.
printf 'fio version 2 iolog\nL add\nL open\nL write 0 8192\nL wait 300000 0\nL read 16384 4096\nL read 81920 4096\nL close\n' \
	| sed "s|L|$T/v2f|" >"$T/v2.log"
"$IOGAUGE" run --name=r --read_iolog="$T/v2.log" --replay_redirect="$T/v2i" --output-format=fio-json \
	>"$T/v2.json" 2>"$ERR"
check "a version 2 log: exit 0" [ $? = 0 ]
check "a version 2 log: 8 KiB written, 8 KiB read in 2 requests" [ "$(counts "$T/v2.json")" = "8192 2 8192 1 " ]
if ok [ "$(jget "$T/v2.json" .jobs[0].elapsed)" -ge 1 ] ||
	ok [ "$(jget "$T/v2.json" .jobs[0].job_runtime)" -ge 290 ]; then
	pass "a version 2 log's wait is kept (300 ms)"
else
	fail "a version 2 log's wait is kept (300 ms)" "$WHY"
fi
"$IOGAUGE" run --name=r --read_iolog="$T/v2.log" --replay_redirect="$T/v2i" --replay_no_stall \
	--replay_skip=read --replay_scale=2 --replay_align=8k --output-format=fio-json >"$T/v2s.json" 2>"$ERR"
check "replay_skip=read: the writes only" [ "$(counts "$T/v2s.json")" = "0 0 8192 1 " ]
check "replay_no_stall: no wait" [ "$(jget "$T/v2s.json" .jobs[0].job_runtime)" -lt 250 ]
"$IOGAUGE" run --name=r --read_iolog="$T/v2.log" --replay_redirect="$T/v2i" --replay_no_stall \
	--replay_scale=4 --size=24k --output-format=fio-json >"$T/v2c.json" 2>"$ERR"
check "replay_scale=4: the offsets fit a quarter of the region (81920 -> 20480 in 24k)" [ $? = 0 ]
refused "without replay_scale, 81920 lies outside --size=24k" --read_iolog="$T/v2.log" \
	--replay_redirect="$T/v2i" --size=24k
check "... the message names the line" grep -q "line 7" "$ERR"

# Version 3 timing: requests 200 ms apart (600 ms in all); replay_time_scale=300 three times as fast.
printf 'fio version 3 iolog\n0 F add\n10 F open\n1000 F write 0 4096\n201000 F write 4096 4096\n401000 F write 8192 4096\n601000 F write 12288 4096\n' |
	sed "s|F|$T/v3f|" >"$T/v3.log"
"$IOGAUGE" run --name=r --read_iolog="$T/v3.log" --replay_redirect="$T/v3i" --output-format=fio-json >"$T/v3.json" 2>"$ERR"
t=$(jget "$T/v3.json" .jobs[0].job_runtime)
check "a version 3 log at its timestamps: 600 ms for 600 ms of log ($t ms)" between "$t" 580 1500
"$IOGAUGE" run --name=r --read_iolog="$T/v3.log" --replay_redirect="$T/v3i" --replay_time_scale=300 \
	--output-format=fio-json >"$T/v3f.json" 2>"$ERR"
t=$(jget "$T/v3f.json" .jobs[0].job_runtime)
check "replay_time_scale=300: a third of it ($t ms)" between "$t" 180 450

# 4. Refusals.
refused "a log naming a file the job was not given" --read_iolog="$T/fio.log"
check "... naming the file" grep -q "$T/ff" "$ERR"
refused "a log naming another file than the job's" --read_iolog="$T/fio.log" --filename="$T/other"
check "... nothing was written there" [ ! -e "$T/other" ]
printf 'fio version 3 iolog\n1 F add\n2 F read 4k 4096\n' >"$T/bad.log"
refused "a malformed log" --read_iolog="$T/bad.log" --replay_redirect="$T/x"
check "... naming its line" grep -q "line 3: '4k' is not an offset" "$ERR"
printf 'hello\n' >"$T/bad2.log"
refused "a file that is no iolog" --read_iolog="$T/bad2.log" --replay_redirect="$T/x"
printf '\x07\x74\x61\x65blktrace-ish' >"$T/bt.bin"
refused "a truncated blktrace binary trace" --read_iolog="$T/bt.bin" --replay_redirect="$T/x"
check "... named as one" grep -q "blktrace record 1: truncated" "$ERR"
refused "write_iolog with numjobs=2 (fio mixes the threads' lines)" --write_iolog="$T/wl.log" --filename="$T/x" --size=64k --numjobs=2
check "... and writes no log" [ ! -e "$T/wl.log" ]
refused "replay_redirect without read_iolog" --replay_redirect="$T/x"
refused "replay_skip of an unknown kind" --read_iolog="$T/fio.log" --replay_redirect="$T/x" --replay_skip=erase
check "no file was made by the refused jobs" [ ! -e "$T/x" ]
# The safety interlock applies to the file written: an existing file iogauge did not create.
head -c 262144 /dev/zero >"$T/theirs"
refused "replay_redirect onto an existing file without --allow-overwrite" --read_iolog="$T/fio.log" \
	--replay_redirect="$T/theirs"
check "... it is untouched" cmp -s "$T/theirs" <(head -c 262144 /dev/zero)

# 5. write_iolog is an output file: never a block device (also through a symlink), a FIFO (no
#    hang) or a directory; the device keeps every byte.
mkloop iolog_dev 4M || fail "a loop device"
head -c 4194304 /dev/urandom >"$LOOP"
sum=$(xxhsum -H128 <"$LOOP" 2>/dev/null || md5sum <"$LOOP")
ln -s "$LOOP" "$T/devlink"
mkfifo "$T/fifo"
refused "write_iolog onto a block device" --ioengine=null --size=1m --write_iolog="$LOOP"
check "... named as a block device" grep -q "a block device, refused" "$ERR"
refused "write_iolog through a symlink to a block device" --ioengine=null --size=1m --write_iolog="$T/devlink"
timeout 20 "$IOGAUGE" run --name=r --ioengine=null --size=1m --write_iolog="$T/fifo" >/dev/null 2>"$ERR"
check "write_iolog onto a FIFO: exit 2 at once (no hang)" [ $? = 2 ]
refused "write_iolog onto a directory" --ioengine=null --size=1m --write_iolog="$T"
check "the device is unchanged" [ "$sum" = "$(xxhsum -H128 <"$LOOP" 2>/dev/null || md5sum <"$LOOP")" ]

# 6. A job without a file (the null engine): its log names fio's JOB.THREAD.FILE, and replays.
"$IOGAUGE" run --name=nul --ioengine=null --size=64k --write_iolog="$T/null.log" >/dev/null 2>"$ERR"
check "null engine: the log's file is nul.0.0 (as fio names it)" grep -q '^[0-9]* nul\.0\.0 add$' "$T/null.log"
"$IOGAUGE" run --name=nul --ioengine=null --read_iolog="$T/null.log" --output-format=fio-json >"$T/null.json" 2>"$ERR"
check "null engine: its own log replays (64 KiB read)" [ "$(jget "$T/null.json" .jobs[0].read.io_bytes)" = 65536 ]
