#!/bin/bash
# Edges that once went wrong: groups reported apart, a reader that hangs up,
# sparse files, rate limits against --runtime, odd block sizes, a ramp that
# outlasts the job, option combinations that cannot work.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 timeout
need_json

mkfs_mount edges 128M ext4 || {
	fail "ext4 on a loop device for the test files"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
j() { jget "$OUT" "$1" 2>/dev/null; }

# Two groups one after the other, each held to 40 MiB/s: a group's line is its own bytes over its
# own time (the sum of both groups would be 16 MiB; group 0's bytes over the whole run, half the
# rate).  Judged on what the machine's load cannot change: the bytes, the line's bandwidth against
# its own io and run, and the rate's schedule as a ceiling (a job behind it catches up, never ahead).
run_iogauge run --directory="$D" --name=a --size=8m --rate=40m --rw=read --name=b --stonewall --size=8m --rate=40m --rw=read
check "stonewall: two status groups" grep -q "^Run status group 1 (all jobs):" "$OUT"
for g in 0 1; do
	l=$(grep -A1 "^Run status group $g " "$OUT" | tail -n 1)
	bw=$(sed -n 's/.*bw=\([0-9.]*\) MiB\/s.*/\1/p' <<<"$l")
	io=$(sed -n 's/.*io=\([0-9.]*\) MiB,.*/\1/p' <<<"$l")
	run=$(sed -n 's/.*run=[0-9]*-\([0-9]*\)msec.*/\1/p' <<<"$l")
	own=$(grep -A1 "^[ab]: (groupid=$g," "$OUT" | sed -n 's/.*(8.00 MiB\/\([0-9]*\)msec).*/\1/p')
	if ok [ "$io" = 8.00 ] && ok [ -n "$bw" ] && ok [ -n "$run" ] && ok [ "$run" = "$own" ] &&
		ok within_pct "$bw" "$(awk -v r="$run" 'BEGIN { print 8 * 1000 / r }')" 2 &&
		ok between "$bw" 1 40.2; then
		pass "group $g: its own 8 MiB over its job's $own ms, at most the rate ($l)"
	else
		fail "group $g: its own 8 MiB over its job's $own ms, at most the rate ($l)" "$WHY"
	fi
done

"$IOGAUGE" run --directory="$D" --name=p --size=1m --rw=read --numjobs=8 2>/dev/null | true
check "a reader that hangs up (SIGPIPE) leaves no test file" dir_empty "$D"

truncate -s 16m "$D/sparse"
run_iogauge run --filename="$D/sparse" --name=s --rw=read --bs=1m
expect_status 2 "reading a sparse file iogauge did not create, without --size: refused"
expect_err "holes|unwritten" "the refusal says the file has holes"
rm -f "$D/sparse"

# A 64 KiB block at 1 KiB/s is due every 64 s: a limit that outlasted --runtime=1 would take a
# minute, far beyond any machine's delay in starting and ending a 1 s run.
start=$(date +%s%N)
run_iogauge run --directory="$D" --name=r --size=1m --bs=64k --rw=read --rate=1k --runtime=1 --time_based
el=$((($(date +%s%N) - start) / 1000000))
check "--rate does not outlast --runtime (took $el ms, the next block was due at 64 s)" [ "$el" -lt 30000 ]

run_iogauge run --directory="$D" --output-format=json --name=o --size=16400 --bs=4100 --rw=write
expect_status 0 "a block size that is not a multiple of 8 (4100): exit 0"
check "4100-byte writes: all bytes" [ "$(j .jobs[0].write.bytes)" = 16400 ]

run_iogauge run --directory="$D" --output-format=json --name=ramp --size=1m --rw=read --ramp_time=1
expect_err "ended within --ramp_time" "a job shorter than its ramp is said to be unmeasured"
check "a job shorter than its ramp reports no requests" [ "$(j .jobs[0].read.ios)" = 0 ]

run_iogauge run --name=n --ioengine=null --size=1m --fsync=1
expect_status 2 "null engine with --fsync: exit 2"
run_iogauge run --directory="$D" --name=x --offset=18446744073709547520 --size=8k --rw=write
expect_status 2 "an offset beyond the largest file offset: exit 2"
expect_err "--offset" "the error names --offset"
run_iogauge run --directory="$D" --name=x --size=1m --json=/nonexistent/dir/x.json
expect_status 2 "an unwritable --json path is refused before the run"
run_iogauge quick --size 100k "$D"
expect_status 2 "quick with --size below 1 MiB: exit 2"
expect_err "^iogauge: --size" "the error names --size"
run_iogauge run --directory="$D" --output-format=json --name=global --bs=8k --name=g --size=1m
if ok [ "$(j .jobs[0].options.bs)" = 8192 ] && ok [ "$(j '.jobs|length')" = 1 ]; then
	pass "--name=global sets defaults for the jobs after it"
else
	fail "--name=global sets defaults for the jobs after it" "$WHY"
fi
check "nothing left behind" dir_empty "$D"
