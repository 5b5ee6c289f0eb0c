#!/bin/bash
# A rate-limited job with a queue (libaio, io_uring at iodepth 4), under fio and `iogauge fio` on
# the same 16 MiB file, O_DIRECT: the rate is asked before each request, as fio asks it, so the
# requests go out one at a time when they are due (a read and a write due together: depth 1 or 2,
# never the whole free queue at once), and what is in flight completes before a rate's sleep
# (fio's io_u_quiesce): a request's completion latency never holds the sleep.  At 50 requests a
# second each way, a sleep counted in clat makes it about 20 ms; the disk takes well under 8.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
PATH=/usr/bin:$PATH

need_iogauge
need_cmd fio
need_json

D=$E2E_TMP/d
mkdir -p "$D"
F=$D/rate.dat
dd if=/dev/urandom of="$F" bs=1M count=16 status=none
jf() { jget "$1" "$2" 2>/dev/null; }

for eng in libaio io_uring; do
	common=(--name=p --filename="$F" --rw=randrw --bs=4k --direct=1 --ioengine="$eng" --iodepth=4
		--rate_iops=50 --time_based --runtime=3 --output-format=json)
	fio "${common[@]}" --output="$D/$eng.fio.json" >/dev/null 2>&1
	run_iogauge fio --allow-overwrite "${common[@]}" --output="$D/$eng.ig.json"
	expect_status 0 "$eng: iogauge fio runs the rate-limited job"
	for t in fio ig; do
		f=$D/$eng.$t.json
		ri=$(jf "$f" .jobs[0].read.iops) wi=$(jf "$f" .jobs[0].write.iops)
		if ok within_pct "$ri" 50 5 && ok within_pct "$wi" 50 5; then
			pass "$eng: $t keeps 50 requests a second each way ($ri, $wi)"
		else
			fail "$eng: $t keeps 50 requests a second each way ($ri, $wi)" "$WHY"
		fi
		d12=$(awk -v a="$(jf "$f" '.jobs[0].iodepth_level.1')" -v b="$(jf "$f" '.jobs[0].iodepth_level.2')" 'BEGIN { print a + b }')
		check "$eng: $t sends each request when it is due: at depth 1 or 2 ($d12%), not the queue at once" \
			between "${d12:-0}" 90 100
		rc=$(jf "$f" .jobs[0].read.clat_ns.mean) wc=$(jf "$f" .jobs[0].write.clat_ns.mean)
		if ok between "${rc%.*}" 1 8000000 && ok between "${wc%.*}" 1 8000000; then
			pass "$eng: $t's completion latency holds no rate sleep (mean clat read $rc ns, write $wc ns < 8 ms)"
		else
			fail "$eng: $t's completion latency holds no rate sleep (mean clat read $rc ns, write $wc ns < 8 ms)" "$WHY"
		fi
	done
done
