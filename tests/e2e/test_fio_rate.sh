#!/bin/bash
# fio's per-direction rate limits: rate=R,W[,T], rate_iops=R,W[,T] (one value:
# every direction; an empty part: no limit there), against fio 3.33 on the
# same time-based job in the same run: bytes and requests per direction
# within 10% of fio's.  Judged on each job's total over its runtime: a job
# behind its schedule catches up, so the total holds on a busy machine where
# any one second does not; the files are on a tmpfs (root) so no disk's
# writeback holds a write back.  The rate-limited jobs run at once (they
# leave the CPU idle); those whose reads are free keep a core busy and run
# after them.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_iogauge
need_cmd fio
need_json
T=$E2E_TMP
ERR=$T/iog.err
# The test files: a tmpfs at a fixed path (fio_cached's key masks the temp dir only).
F=$T
if [ "$(id -u)" = 0 ] && mkdir "$T/m" && mount -t tmpfs -o size=400m tmpfs "$T/m"; then
	E2E_MOUNTS+=("$T/m")
	F=$T/m
fi

# fio runs each job in a process of its own session (it calls setsid), which the kernel's autogroup
# scheduling gives a share of the CPU of its own: a busy loop started beside make test shares the
# test's session, and a job of iogauge in it got a seventh of fio's CPU (3% and 22%; its free-read
# job ended 300 ms behind its write schedule, fio's on time).  iogauge runs in a session of its
# own too, so both tools meet the load alike.
SESSION=()
setsid -w true 2>/dev/null && SESSION=(setsid -w)
# start TAG OPTIONS...: the job under fio and iogauge, in the background, each on its own file.
# fio runs once per make test for both binaries (fio_cached).
BG=()
start() {
	local tag=$1
	shift
	local job=(--name=rt --bs=4k --size=16m --runtime=2 --time_based --output-format=json "$@")
	echo "$*" >"$T/$tag.opts"
	(
		fio_cached --filename="$F/$tag.ff" "${job[@]}" >"$T/$tag.fio.json" 2>"$T/$tag.fio.err"
		echo $? >"$T/$tag.fio.rc"
		rm -f "$F/$tag.ff"
	) &
	BG+=($!)
	(
		"${SESSION[@]}" "$IOGAUGE" run --filename="$F/$tag.fi" "${job[@]/--output-format=json/--output-format=fio-json}" \
			>"$T/$tag.iog.json" 2>"$T/$tag.iog.err"
		echo $? >"$T/$tag.iog.rc"
		rm -f "$F/$tag.fi"
	) &
	BG+=($!)
}
# finish: waits for every job started.
finish() {
	wait "${BG[@]}"
	BG=()
}
# got TAG KEY: sets F_R F_W (fio) I_R I_W (iogauge) by KEY, IRC and FRC (exit statuses).
got() {
	local tag=$1 key=$2
	ERR=$T/$tag.iog.err
	san_check "$(cat "$T/$tag.opts")"
	IRC=$(cat "$T/$tag.iog.rc") FRC=$(cat "$T/$tag.fio.rc")
	F_R=$(jget "$T/$tag.fio.json" ".jobs[0].read.$key" 2>/dev/null) F_W=$(jget "$T/$tag.fio.json" ".jobs[0].write.$key" 2>/dev/null)
	I_R=$(jget "$T/$tag.iog.json" ".jobs[0].read.$key" 2>/dev/null) I_W=$(jget "$T/$tag.iog.json" ".jobs[0].write.$key" 2>/dev/null)
	echo "# $(cat "$T/$tag.opts") ($key): fio read $F_R write $F_W, iogauge read $I_R write $I_W"
}

# near A B: within 10% of B (and both nonzero).
near() {
	[ -n "$1" ] && [ -n "$2" ] && [ "$2" -gt 0 ] && within_pct "$1" "$2" 10
}

# The rate-limited jobs, all at once.
start rw --rw=randrw --rate=1m,2m
start one --rw=randrw --rate=1m
start iops --rw=randrw --rate_iops=100,50
start w --rw=write --rate=1m,2m
start q --rw=randrw --rate=1m,2m --ioengine=libaio --iodepth=4
start poisson --rw=randrw --rate=1m,2m --rate_process=poisson
finish

got rw io_bytes
check "rate=1m,2m: exit 0 (fio's R,W syntax)" [ "$IRC" = 0 ]
check "rate=1m,2m: read bytes as fio's" near "$I_R" "$F_R"
check "rate=1m,2m: write bytes as fio's" near "$I_W" "$F_W"
check "rate=1m,2m: writes twice the reads" within_pct "$I_W" $((2 * I_R)) 10

got one io_bytes
check "rate=1m (one value): every direction held to it, as fio" near "$I_R" "$F_R"
check "rate=1m (one value): writes as fio's" near "$I_W" "$F_W"

got iops total_ios
check "rate_iops=100,50: read requests as fio's" near "$I_R" "$F_R"
check "rate_iops=100,50: write requests as fio's" near "$I_W" "$F_W"

got w io_bytes
check "rate=1m,2m on a write job: the write limit, as fio" near "$I_W" "$F_W"

got q io_bytes
check "rate=1m,2m with a queue: reads as fio's" near "$I_R" "$F_R"
check "rate=1m,2m with a queue: writes as fio's" near "$I_W" "$F_W"

got poisson io_bytes
check "rate_process=poisson per direction: reads near fio's (20%)" within_pct "$I_R" "$F_R" 20
check "rate_process=poisson per direction: writes near fio's (20%)" within_pct "$I_W" "$F_W" 20

# The jobs whose reads are free read as fast as they can, each keeping a core busy, and a busy
# job is starved at its end by whatever else runs (130-300 ms behind its write schedule beside
# two busy loops); fio refuses a read limit of rate_iops beside rate, and one that thinks between
# requests is held by every late wake-up (thinktime=50: 56 writes a second of 256 on a loaded
# machine), so the writes are judged over 5 s, one pair at a time, where such a lag is under 6%.
start free --rw=randrw --rate=,512k --runtime=5
finish
# rate_min per direction: a write floor the write limit cannot reach fails the job, as in fio.
start floor --rw=randrw --rate=,64k --rate_min=,1m
start floor0 --rw=randrw --rate=,1m --rate_min=0,256k
finish

got free io_bytes
check "rate=,512k: the writes held, as fio's" near "$I_W" "$F_W"
check "rate=,512k: the writes never ahead of the limit (5 s of 512 KiB and one block)" \
	[ "${I_W:-0}" -le $((5 * 524288 + 4096)) ]
if ok [ "$I_R" -gt $((4 * I_W)) ] && ok [ "$F_R" -gt $((4 * F_W)) ]; then
	pass "rate=,512k: the reads free (at least 4x the writes), as fio's"
else
	fail "rate=,512k: the reads free (at least 4x the writes), as fio's" "$WHY"
fi
got floor io_bytes
if ok [ "$IRC" = 1 ] && ok [ "$FRC" != 0 ]; then
	pass "rate_min=,1m under rate=,64k: the job fails (exit 1), as fio's"
else
	fail "rate_min=,1m under rate=,64k: the job fails (exit 1), as fio's" "$WHY"
fi
got floor0 io_bytes
if ok [ "$IRC" = 0 ] && ok [ "$FRC" = 0 ]; then
	pass "rate_min=0,256k under rate=,1m: the job passes, as fio's"
else
	fail "rate_min=0,256k under rate=,1m: the job passes, as fio's" "$WHY"
fi

ERR=$T/iog.err
"$IOGAUGE" run --name=x --rate=1m,2m,3m,4m --size=1m --filename="$T/fi" >/dev/null 2>"$ERR"
check "rate with four parts: exit 2" [ $? = 2 ]
if ok [ "$(wc -l <"$ERR")" = 1 ] && ok grep -q -- "--rate" "$ERR"; then
	pass "... one line naming --rate"
else
	fail "... one line naming --rate" "$WHY"
fi
rm -f "$T/fi"
