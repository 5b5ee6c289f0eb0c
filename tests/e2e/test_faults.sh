#!/bin/bash
# Faults: EIO and ENOSPC from the device (the inject engine: --ioengine=inject
# --inject=eio@OFFSET; this kernel has no device-mapper), a file truncated
# under a running read job, and SIGKILL mid-run.  Each ends with a clear
# one-line error naming the file and offset, the partial results, exit
# status 1, and nothing left on disk; after SIGKILL the next run in the same
# directory finds the stale test file by its name and marker, removes it and
# says so, and touches nothing else.  (A real ENOSPC mid-run on a small
# loop-mounted file system: test_diskfull.sh.)
# Every truncation and kill waits for the stage it means (the run's progress line of
# --eta=always says it measures: its file is laid out and marked), never a fixed time.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 truncate awk
need_json

cd "$E2E_ROOT" || exit 1
mkfs_mount faults 256M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1

# MEASURING: the progress line of a run that has done requests (its layout and marker are done).
MEASURING='threads running, [0-9]+ s, [1-9][0-9]* requests'

# await_or_fail NAME REGEX: await_bg REGEX on $ERR for 60 s; a failure names NAME and stops the run.
await_or_fail() {
	await_bg "$2" 60 && return 0
	fail "$1" "$WHY; stderr: $(head -c 300 "$ERR")"
	bg_running && kill -KILL "$BGPID"
	wait "$BGPID"
	return 1
}

# fails NAME STATUS OP OFFSET ERRNO MESSAGE: the last run ended with STATUS, one
# stderr line naming the file, OFFSET and MESSAGE, partial results in the JSON
# ($E2E_TMP/f.json), and left nothing in $D.  (Warnings and the progress lines of --eta=always
# are not that line.)
fails() {
	local name=$1 want=$2 op=$3 off=$4 errno=$5 msg=$6 jf=$E2E_TMP/f.json
	expect_status "$want" "$name: exit status $want"
	if [ "$(grep -Evc '^iogauge: (warning|[0-9]+/[0-9]+ threads running, )' "$ERR")" -eq 1 ] &&
		grep -Eq "^iogauge: job t: $op.* on $D/t\.0\.0 at offset ${off:-[0-9]+}.*$msg" "$ERR"; then
		pass "$name: one line naming the file, offset ${off:-N} and '$msg'"
	else
		fail "$name: one line naming the file, offset ${off:-N} and '$msg'"
	fi
	if jget "$jf" 2>/dev/null; then
		local eo
		eo=$(jget "$jf" .jobs[0].error.offset)
		check "$name: JSON error.errno $errno, offset ${off:-$eo}" \
			[ "$(jget "$jf" .jobs[0].error.errno)/$eo" = "$errno/${off:-$eo}" ]
		check "$name: JSON status $want" [ "$(jget "$jf" .status)" = "$want" ]
		local n
		n=$(jget "$jf" ".jobs[0].$(jget "$jf" .jobs[0].error.op).ios")
		check "$name: partial results ($n requests before the fault)" [ "${n:-0}" -gt 0 ]
	else
		fail "$name: --json file is valid JSON"
	fi
	if dir_empty "$D"; then
		pass "$name: nothing left on disk"
	else
		fail "$name: nothing left on disk" "left: $(ls_dir "$D")"
		rm -rf "${D:?}"/*
	fi
}

# ---- EIO and ENOSPC from the device
run_iogauge run --name=t --directory="$D" --size=8m --bs=4k --rw=write --ioengine=inject \
	--inject=eio@3m --json="$E2E_TMP/f.json"
fails "EIO on a sequential psync write at 3 MiB" 1 write 3145728 5 "Input/output error"
if ok grep -q "err= 5" "$OUT" && ok grep -q "write: IOPS=" "$OUT"; then
	pass "EIO: the text report shows err= 5 and the writes before it"
else
	fail "EIO: the text report shows err= 5 and the writes before it" "$WHY"
fi

run_iogauge run --name=t --directory="$D" --size=8m --bs=4k --rw=randread --ioengine=inject \
	--inject=eio-read@5m,engine=io_uring --iodepth=16 --direct=1 --json="$E2E_TMP/f.json"
fails "EIO on io_uring random reads (QD16, O_DIRECT) at 5 MiB" 1 read 5242880 5 "Input/output error"

run_iogauge run --name=t --directory="$D" --size=8m --bs=64k --rw=randwrite --ioengine=inject \
	--inject=enospc@1m,engine=libaio --iodepth=8 --direct=1 --json="$E2E_TMP/f.json"
fails "ENOSPC on libaio writes (QD8) at 1 MiB" 1 write 1048576 28 "No space left on device"

run_iogauge run --name=t --directory="$D" --size=8m --bs=4k --rw=randrw --ioengine=inject \
	--inject=eio@7m --time_based --runtime=20 --json="$E2E_TMP/f.json"
fails "EIO in a time-based mixed job: ends at once, not after 20 s" 1 "(read|write)" 7340032 5 \
	"Input/output error"

# ---- A file truncated under a running read job
for e in psync io_uring libaio mmap; do
	start_iogauge run --name=t --directory="$D" --size=16m --bs=64k --rw=read --ioengine=$e \
		--iodepth=4 --time_based --runtime=30 --json="$E2E_TMP/f.json" --eta=always
	await_or_fail "truncated under $e: the job reads before the truncation" "$MEASURING" || continue
	truncate -s 1m "$D/t.0.0"
	# 30 s of runtime left: ending in under 15 s is the short read's doing, on a loaded machine too.
	signal_bg 0 20 # waits for the end (signal 0 only probes)
	if [ "$WAITED_MS" -lt 15000 ]; then
		pass "truncated under $e: ended by itself (${WAITED_MS} ms)"
	else
		fail "truncated under $e: ends by itself" "took ${WAITED_MS} ms"
	fi
	fails "file truncated under a $e read" 1 "short read" "" null "end of file"
	check "truncated under $e: a short read, with the bytes it got (no errno 61)" \
		grep -Eq "^iogauge: job t: short read on .* \(end of file\): [0-9]+ of 65536 bytes$" "$ERR"
done

# ---- SIGKILL mid-run, then the next run in the same directory
# What must survive the next run: a running iogauge's file (its process is
# alive), a killed run's file with the marker but a name iogauge does not give
# (--filename), and a file with an iogauge name but no marker.
# The live run keeps stderr and stdout of its own: the runs beside it truncate $ERR.
LIVE_ERR=$E2E_TMP/live.err
ERR=$LIVE_ERR OUT=$E2E_TMP/live.out start_iogauge run --name=live --directory="$D" --size=4m \
	--rw=randread --time_based --runtime=60 --eta=always
live=$BGPID
await_bg "$MEASURING" 60 "$LIVE_ERR" || fail "the live run measures before the others start" "$WHY"
start_iogauge run --name=mine --filename="$D/notes.txt" --size=4m --rw=randwrite --time_based --runtime=30 \
	--eta=always
await_or_fail "the --filename run measures before SIGKILL" "$MEASURING" && signal_bg KILL 5
start_iogauge run --name=k --directory="$D" --size=16m --rw=randwrite --time_based --runtime=30 --eta=always
await_or_fail "the killed run measures before SIGKILL" "$MEASURING" && signal_bg KILL 5
killed=$BGPID
check "SIGKILL: the test file is left behind (what the next run must clean)" [ -e "$D/k.0.0" ]
echo user >"$D/k.0.7"
run_iogauge run --name=next --directory="$D" --size=1m --rw=write
expect_status 0 "the next run: exit status 0"
expect_err "removed $D/k\.0\.0, a test file left by iogauge process $killed, which is no longer running" \
	"the next run says it removed the stale file and whose it was"
check "the stale file is gone" [ ! -e "$D/k.0.0" ]
check "a file with an iogauge name but without the marker stays" [ -e "$D/k.0.7" ]
check "a killed run's --filename (marker, not an iogauge name) stays" [ -e "$D/notes.txt" ]
check "a running iogauge's file stays" [ -e "$D/live.0.0" ]
check "only one file was removed (one line about it)" [ "$(grep -c removed "$ERR")" -eq 1 ]
BGPID=$live
ERR=$LIVE_ERR signal_bg TERM 10
check "the running iogauge removed its own file when stopped" [ ! -e "$D/live.0.0" ]
rm -f "$D/k.0.7" "$D/notes.txt"

# The same for a suite's test file (iogauge-quick.PID.0.tmp).
start_iogauge quick "$D" --size=16m --runtime=20 --ramp_time=0 --eta=always
await_or_fail "quick measures its first case before SIGKILL" 'SEQ1M Q8T1 read \.\.\. [0-9.]+ [KMG]iB' &&
	signal_bg KILL 5
left=$(ls "$D"/iogauge-quick.*.tmp 2>/dev/null)
check "SIGKILL of quick: its test file is left ($left)" [ -n "$left" ]
run_iogauge mix "$D" --size=8m --runtime=0.2 --ramp_time=0
expect_status 0 "mix in the same directory: exit status 0"
expect_err "removed $left, a test file left by iogauge process" "mix says it removed quick's stale file"
check "nothing left after mix" dir_empty "$D"

# The same for file sets (--fileop, bonnie -n): a killed run's directory goes with everything in
# it, so the rerun's creates do not meet its items (EEXIST); a directory without the marker stays.
start_iogauge run --name=fs --fileop=create --filename="$D/set" --nrfiles=20000 --files_per_dir=100 \
	--thinktime=1ms --eta=always
await_or_fail "--fileop=create has made items before SIGKILL" "$MEASURING" && signal_bg KILL 5
killed=$BGPID
check "SIGKILL of --fileop=create: its tree is left" [ -d "$D/set/t0/d0" ]
mkdir "$D/user.files" && echo mine >"$D/user.files/f0" # an iogauge name, no marker: the user's
run_iogauge run --name=fs --fileop=create --filename="$D/set" --nrfiles=100 --files_per_dir=100
expect_status 0 "--fileop=create again on the killed run's tree: exit 0 (no EEXIST)"
expect_err "removed $D/set, a file set left by iogauge process $killed, which is no longer running" \
	"the rerun says it removed the killed run's file set and whose it was"
check "the rerun leaves nothing of the set" [ ! -e "$D/set" ]
start_iogauge bonnie -s 0 -n 16 -r 0 "$D" --eta=always
# The case's line: its file set is made and marked, the creates under way.
await_or_fail "bonnie's create case runs before SIGKILL" 'pass 1/1, seq_create \.\.\. ' && signal_bg KILL 5
left=$(ls -d "$D"/iogauge-bonnie.*.files 2>/dev/null)
check "SIGKILL of bonnie: its file set is left ($left)" [ -n "$left" ]
run_iogauge latency -c 1 "$D"
expect_status 0 "latency in the same directory: exit status 0"
expect_err "removed $left, a file set left by iogauge process" "latency says it removed bonnie's stale file set"
check "bonnie's file set is gone" [ -z "$(ls -d "$D"/iogauge-bonnie.*.files 2>/dev/null)" ]
check "a directory with an iogauge name but no marker stays" [ -f "$D/user.files/f0" ]
rm -rf "$D/user.files"
check "nothing left after the file sets" dir_empty "$D"
# A set kept with --keep is the user's: a create over it says, before anything, what to remove.
run_iogauge run --name=k --fileop=create --filename="$D/kept" --nrfiles=10 --keep
run_iogauge run --name=k --fileop=create --filename="$D/kept" --nrfiles=10
expect_status 2 "--fileop=create over a kept set: exit 2"
expect_err "^iogauge: job k: $D/kept holds the items of an earlier run .*: remove it \(rm -r $D/kept\) or give another --filename$" \
	"--fileop=create over a kept set: one line saying what to remove"
check "--fileop=create over a kept set: the kept set stays" [ -d "$D/kept/t0" ]
rm -rf "$D/kept"
