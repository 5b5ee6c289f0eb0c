#!/bin/bash
# fio's per-direction rate limits: rate=R,W[,T], rate_iops=R,W[,T] (one value:
# every direction; an empty part: no limit there), against fio 3.33 on the
# same time-based job in the same run: bytes and requests per direction
# within 10% of fio's.  Small buffered files in the test's scratch directory.
# make test: alone (rates measured)
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
need_iogauge
need_cmd fio
need_json
T=$E2E_TMP
ERR=$T/iog.err

# both NAME OPTIONS...: the job under fio and iogauge; sets F_R F_W (fio) I_R I_W (iogauge), by KEY.
both() {
	local key=$1
	shift
	local job=(--name=rt --bs=4k --size=16m --runtime=2 --time_based --output-format=json "$@")
	# fio beside iogauge, each on its own file: rate-limited jobs leave the other core free, and the
	# ASan pass takes this run's fio result (fio_cached).
	fio_cached --filename="$T/ff" "${job[@]}" >"$T/fio.json" 2>"$T/fio.err" &
	local fpid=$!
	"$IOGAUGE" run --filename="$T/fi" "${job[@]/--output-format=json/--output-format=fio-json}" \
		>"$T/iog.json" 2>"$ERR"
	IRC=$?
	wait "$fpid"
	FRC=$?
	rm -f "$T/ff" "$T/fi"
	F_R=$(jget "$T/fio.json" ".jobs[0].read.$key" 2>/dev/null) F_W=$(jget "$T/fio.json" ".jobs[0].write.$key" 2>/dev/null)
	I_R=$(jget "$T/iog.json" ".jobs[0].read.$key") I_W=$(jget "$T/iog.json" ".jobs[0].write.$key")
	echo "# $* ($key): fio read $F_R write $F_W, iogauge read $I_R write $I_W"
}

# near A B: within 10% of B (and both nonzero).
near() {
	[ -n "$1" ] && [ -n "$2" ] && [ "$2" -gt 0 ] && within_pct "$1" "$2" 10
}

both io_bytes --rw=randrw --rate=1m,2m
check "rate=1m,2m: exit 0 (fio's R,W syntax)" [ "$IRC" = 0 ]
check "rate=1m,2m: read bytes as fio's" near "$I_R" "$F_R"
check "rate=1m,2m: write bytes as fio's" near "$I_W" "$F_W"
check "rate=1m,2m: writes twice the reads" within_pct "$I_W" $((2 * I_R)) 10

both io_bytes --rw=randrw --rate=1m
check "rate=1m (one value): every direction held to it, as fio" near "$I_R" "$F_R"
check "rate=1m (one value): writes as fio's" near "$I_W" "$F_W"

both io_bytes --rw=randrw --rate=,512k
check "rate=,512k: the writes held, as fio's" near "$I_W" "$F_W"
if ok [ "$I_R" -gt $((4 * I_W)) ] && ok [ "$F_R" -gt $((4 * F_W)) ]; then
	pass "rate=,512k: the reads free (at least 4x the writes), as fio's"
else
	fail "rate=,512k: the reads free (at least 4x the writes), as fio's" "$WHY"
fi

both total_ios --rw=randrw --rate_iops=100,50
check "rate_iops=100,50: read requests as fio's" near "$I_R" "$F_R"
check "rate_iops=100,50: write requests as fio's" near "$I_W" "$F_W"

both io_bytes --rw=write --rate=1m,2m
check "rate=1m,2m on a write job: the write limit, as fio" near "$I_W" "$F_W"

both io_bytes --rw=randrw --rate=1m,2m --ioengine=libaio --iodepth=4
check "rate=1m,2m with a queue: reads as fio's" near "$I_R" "$F_R"
check "rate=1m,2m with a queue: writes as fio's" near "$I_W" "$F_W"

both io_bytes --rw=randrw --rate=1m,2m --rate_process=poisson
check "rate_process=poisson per direction: reads near fio's (20%)" within_pct "$I_R" "$F_R" 20
check "rate_process=poisson per direction: writes near fio's (20%)" within_pct "$I_W" "$F_W" 20

# rate_min per direction: a write floor the write limit cannot reach fails the job, as in fio.
both io_bytes --rw=randrw --rate=,64k --rate_min=,1m
if ok [ "$IRC" = 1 ] && ok [ "$FRC" != 0 ]; then
	pass "rate_min=,1m under rate=,64k: the job fails (exit 1), as fio's"
else
	fail "rate_min=,1m under rate=,64k: the job fails (exit 1), as fio's" "$WHY"
fi
both io_bytes --rw=randrw --rate=,1m --rate_min=0,256k
if ok [ "$IRC" = 0 ] && ok [ "$FRC" = 0 ]; then
	pass "rate_min=0,256k under rate=,1m: the job passes, as fio's"
else
	fail "rate_min=0,256k under rate=,1m: the job passes, as fio's" "$WHY"
fi

"$IOGAUGE" run --name=x --rate=1m,2m,3m,4m --size=1m --filename="$T/fi" >/dev/null 2>"$ERR"
check "rate with four parts: exit 2" [ $? = 2 ]
if ok [ "$(wc -l <"$ERR")" = 1 ] && ok grep -q -- "--rate" "$ERR"; then
	pass "... one line naming --rate"
else
	fail "... one line naming --rate" "$WHY"
fi
rm -f "$T/fi"
