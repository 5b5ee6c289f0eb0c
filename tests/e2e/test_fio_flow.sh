#!/bin/bash
# fio's flow, serialize_overlap and latency_target (io_submit_mode=offload: test_fio_offload.sh), under fio and
# `iogauge fio` on the same job files in the same run:
#  - flow: the I/O ratio between the jobs of a flow_id follows their weights (2:1, 1:4) in both
#    tools, within 10% of each other, judged on jobs bound by numbers of requests in that ratio
#    (a load-proof measure: see below); jobs of different flow_ids do not hold each other back;
#    a job that ends leaves its flow (the others go on); flow_sleep is honoured;
#  - serialize_overlap: with iodepth 16 over 4 blocks, never more than 4 requests in flight (the
#    depth distribution, and iogauge's count of held requests), the same requests as fio; a job
#    without it reaches depth 16 (so the check can fail); reads only: no effect (as fio); verify
#    of writes that overlap passes;
#  - latency_target: the depth found is in fio-json's latency_depth (with latency_target in ns,
#    latency_window in us, latency_percentile) and in iogauge's text and JSON: the full iodepth
#    for a target always met (and the job ends after its search, as fio), depth 1 for one never
#    met; at percentile 100 a target missed at depth 1 fails the job (ETIMEDOUT, as fio); on a
#    file with libaio a depth from 1 to iodepth; latency_run keeps the job going;
#  - io_submit_mode=offload with the null engine: the same requests as fio's inline run, nothing
#    on stderr, no "runs inline" note.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# Debian's python3 and fio first: a pyenv shim on PATH costs seconds a call.
PATH=/usr/bin:$PATH

need_iogauge
need_cmd fio
need_json

D=$E2E_TMP/d
mkdir -p "$D" || exit 1
# jf FILE EXPR: one value of a JSON file ("" when missing).
jf() { jget "$1" "$2" 2>/dev/null; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print 0 }'; }

# both JOBFILE TAG: fio and iogauge fio on one job file; JSON in $D/TAG.fio.json and $D/TAG.ig.json.
# fio runs beside iogauge (every job here is held to a rate, or bound by one small file's
# requests), and once per make test for both binaries (lib.sh's fio_cached).
both() {
	fio_cached --output-format=json --output="$D/$2.fio.json" "$1" >/dev/null 2>"$D/$2.fio.err" &
	local fpid=$!
	run_iogauge fio --allow-overwrite --output-format=json --output="$D/$2.ig.json" "$1"
	wait "$fpid"
	FIO_STATUS=$?
}

# ---- 1. flow.  A flow keeps the requests of its jobs in the ratio of their weights at every
# moment, whoever the CPU runs: a job ahead waits for the others.  So each job here is bound by a
# number of requests in that ratio: while the flow holds, its jobs end together, and their IOPS
# (requests over each one's own runtime) are in the ratio of the weights however long the machine
# made them take.  (Time-bound jobs were judged before: on a busy machine a job behind its rate's
# schedule when the other ended caught up alone, and the ratio was the machine's, in both tools.)
# Two jobs of one flow_id, weights 2 and 1 (the lighter one with flow_sleep); the heavy one held
# to 4000 requests a second.
cat >"$D/flow21.fio" <<'JOB'
[global]
ioengine=null
size=1g
rate_iops=4000
flow_id=1
[heavy]
flow=2
number_ios=8000
[light]
flow=1
flow_sleep=50
number_ios=4000
JOB
both "$D/flow21.fio" flow21
expect_status 0 "flow 2:1: iogauge fio runs it (status 0)"
fr=$(ratio "$(jf "$D/flow21.fio.json" '.jobs[0].read.iops')" "$(jf "$D/flow21.fio.json" '.jobs[1].read.iops')")
ir=$(ratio "$(jf "$D/flow21.ig.json" '.jobs[0].read.iops')" "$(jf "$D/flow21.ig.json" '.jobs[1].read.iops')")
check "flow 2:1: fio's ratio is 2 within 10% ($fr)" within_pct "$fr" 2 10
check "flow 2:1: iogauge's ratio is 2 within 10% ($ir)" within_pct "$ir" 2 10
check "flow 2:1: iogauge's ratio within 10% of fio's ($ir vs $fr)" within_pct "$ir" "$fr" 10
# Without the flow the light job, unthrottled, would end at once: the check above can fail.
sed '/^flow/d' "$D/flow21.fio" >"$D/noflow.fio"
run_iogauge fio --output-format=json --output="$D/noflow.ig.json" "$D/noflow.fio"
nr=$(ratio "$(jf "$D/noflow.ig.json" '.jobs[0].read.iops')" "$(jf "$D/noflow.ig.json" '.jobs[1].read.iops')")
check "no flow: the same jobs are not 2:1 ($nr)" not within_pct "$nr" 2 10

# Jobs held to 2000 requests a second: in one flow_id, weights 1 and 4, the first gets a quarter of
# the second's requests (500 and 2000: both end after about a second); in two flow_ids neither holds
# the other back (2000 and 4000 at 2000 a second each: 1 s and 2 s).
for ids in "1 1" "1 2"; do
	set -- $ids
	na=500 nb=2000 want=0.25
	[ "$1" != "$2" ] && na=2000 nb=4000 want=1
	cat >"$D/ids$1$2.fio" <<JOB
[global]
ioengine=null
size=1g
rate_iops=2000
[a]
flow_id=$1
flow=1
number_ios=$na
[b]
flow_id=$2
flow=4
number_ios=$nb
JOB
	both "$D/ids$1$2.fio" "ids$1$2"
	for t in fio ig; do
		r=$(ratio "$(jf "$D/ids$1$2.$t.json" '.jobs[0].read.iops')" "$(jf "$D/ids$1$2.$t.json" '.jobs[1].read.iops')")
		check "flow_id $1 and $2: $t's IOPS ratio a/b is $want within 10% ($r)" within_pct "$r" "$want" 10
	done
done
# Held back by b's flow, a would do a quarter of b's requests a second (500 at 1 s, 1000 by b's
# end) and only then catch up alone: at most 1000 a second, not 2000.
f=$D/ids12.ig.json
check "flow_id 1 and 2: a, alone in its flow, is not held back (IOPS $(jf "$f" '.jobs[0].read.iops'))" \
	within_pct "$(jf "$f" '.jobs[0].read.iops')" 2000 10

# A job that ends leaves its flow: weights 1, 2 and 3, each held to 6000 requests a second.  While
# all three run, j3 does 6000 a second and j1 and j2 a third and two thirds of that; j3 ends after
# 6000 (1 s, j1 at 2000, j2 at 4000).  Then j1 and j2 go on at 1:2 (j2 at its 6000 a second): j1
# has 3000 more to do and j2 6000, so both end together, a second later.  Had j3 stayed in the
# flow, j1 and j2 could not pass their shares of a count that only they move: both held, until the
# runtime cap of 10 s ends them (j1 at 2000 requests: 200 a second).
cat >"$D/leave.fio" <<'JOB'
[global]
ioengine=null
size=1g
runtime=10
rate_iops=6000
flow_id=7
flow_sleep=50
[j1]
flow=1
number_ios=5000
[j2]
flow=2
number_ios=10000
[j3]
flow=3
number_ios=6000
JOB
both "$D/leave.fio" leave
for t in fio ig; do
	f=$D/leave.$t.json
	r=$(ratio "$(jf "$f" '.jobs[1].read.iops')" "$(jf "$f" '.jobs[0].read.iops')")
	check "flow, a job leaves: $t's j2/j1 IOPS is 2 within 10% ($r)" within_pct "$r" 2 10
	# Had j3 not left, j1 and j2 would be held until the 10 s cap: j1 done in well under 5 s
	# (its runtime against j3's is shown: a loaded machine stretches either).
	r1=$(jf "$f" '.jobs[0].job_runtime') r3=$(jf "$f" '.jobs[2].job_runtime')
	check "flow, a job leaves: $t's j1 did its 5000 requests, far from held ($(jf "$f" '.jobs[0].read.total_ios') at $(jf "$f" '.jobs[0].read.iops') a second; runtimes j1 $r1 ms, j3 $r3 ms)" \
		[ "$(jf "$f" '.jobs[0].read.total_ios')" = 5000 -a "${r1:-0}" -lt 5000 ]
done

# ---- 2. serialize_overlap: 16 requests in flight over 4 blocks of a file.
for s in 1 0; do
	cat >"$D/ser$s.fio" <<JOB
[ser]
ioengine=libaio
direct=1
filename=$D/ser.dat
size=16k
io_size=4m
rw=randwrite
bs=4k
iodepth=16
serialize_overlap=$s
JOB
	both "$D/ser$s.fio" "ser$s"
done
expect_status 0 "serialize_overlap: iogauge fio runs it (status 0)"
f=$D/ser1.ig.json
deep=$(awk -v a="$(jf "$f" '.jobs[0].iodepth_level.8')" -v b="$(jf "$f" '.jobs[0].iodepth_level.16')" \
	-v c="$(jf "$f" '.jobs[0].iodepth_level.32')" 'BEGIN { print a + b + c }')
check "serialize_overlap=1: never more than 4 requests in flight over 4 blocks (8+: $deep%)" [ "$deep" = 0 ]
check "serialize_overlap=1: the same requests as fio ($(jf "$f" '.jobs[0].write.total_ios'))" \
	[ "$(jf "$f" '.jobs[0].write.total_ios')" = "$(jf "$D/ser1.fio.json" '.jobs[0].write.total_ios')" ]
check "serialize_overlap=0: the same job reaches depth 16 (the check above can fail)" \
	between "$(jf "$D/ser0.ig.json" '.jobs[0].iodepth_level.16')" 50 100
run_iogauge run --name=ser --ioengine=libaio --direct=1 --filename="$D/ser.dat" --size=16k --io_size=4m \
	--rw=randwrite --bs=4k --iodepth=16 --serialize_overlap=1 --json="$D/ser.json" --allow-overwrite
held=$(jf "$D/ser.json" '.jobs[0].overlap_held')
check "serialize_overlap=1: iogauge's JSON counts the requests held back ($held)" [ "${held:-0}" -gt 0 ]
check "serialize_overlap=1: nothing on stderr" [ ! -s "$ERR" ]
run_iogauge fio --name=rd --ioengine=libaio --direct=1 --filename="$D/ser.dat" --size=16k --io_size=4m \
	--rw=randread --bs=4k --iodepth=16 --serialize_overlap=1 --output-format=json --output="$D/serrd.json"
check "serialize_overlap=1 on reads only: no effect, as fio (depth 16 reached)" \
	between "$(jf "$D/serrd.json" '.jobs[0].iodepth_level.16')" 50 100
run_iogauge fio --allow-overwrite --name=v --ioengine=libaio --direct=1 --filename="$D/ser.dat" --size=16k --io_size=1m \
	--rw=randwrite --bs=4k --iodepth=16 --serialize_overlap=1 --verify=crc32c
expect_status 0 "serialize_overlap=1 with verify=crc32c over overlapping writes: every block verifies"

# ---- 3. latency_target on the null engine: always met, never met, missed at percentile 100.
lt_job() { # NAME TARGET PCT RUNTIME [OPTION...]
	local n=$1 t=$2 p=$3 r=$4
	shift 4
	printf '[%s]\nioengine=null\nsize=100g\ntime_based\nruntime=%s\niodepth=64\nlatency_target=%s\nlatency_window=50ms\nlatency_percentile=%s\n' \
		"$n" "$r" "$t" "$p" >"$D/$n.fio"
	local o
	for o in "$@"; do echo "$o" >>"$D/$n.fio"; done
	both "$D/$n.fio" "$n"
}
lt_job met 10s 100 5
expect_status 0 "latency_target always met: status 0"
for t in fio ig; do
	f=$D/met.$t.json
	check "latency_target always met: $t finds depth 64 (the job's iodepth)" [ "$(jf "$f" '.jobs[0].latency_depth')" = 64 ]
	check "latency_target always met: $t ends after its search, well before the runtime" \
		between "$(jf "$f" '.jobs[0].job_runtime')" 1 2500
done
f=$D/met.ig.json
check "latency_target in fio-json: target in ns, window in us, percentile" \
	[ "$(jf "$f" '.jobs[0].latency_target') $(jf "$f" '.jobs[0].latency_window') $(jf "$f" '.jobs[0].latency_percentile')" = \
	"$(jf "$D/met.fio.json" '.jobs[0].latency_target') $(jf "$D/met.fio.json" '.jobs[0].latency_window') $(jf "$D/met.fio.json" '.jobs[0].latency_percentile')" ]
check "latency_target in fio-json: 10 s is 10000000000 ns" [ "$(jf "$f" '.jobs[0].latency_target')" = 10000000000 ]
# Never met: 1 us (fio's smallest time) for a direct read from the disk.
dd if=/dev/urandom of="$D/lt.dat" bs=1M count=32 status=none
lt_file() { # NAME PCT
	printf '[%s]\nioengine=libaio\ndirect=1\nfilename=%s\nsize=32m\nrw=randread\ntime_based\nruntime=1\niodepth=16\nlatency_target=1us\nlatency_window=50ms\nlatency_percentile=%s\n' \
		"$1" "$D/lt.dat" "$2" >"$D/$1.fio"
	both "$D/$1.fio" "$1"
}
lt_file never 50
expect_status 0 "latency_target never met (percentile 50): status 0"
for t in fio ig; do
	check "latency_target never met: $t stays at depth 1" [ "$(jf "$D/never.$t.json" '.jobs[0].latency_depth')" = 1 ]
done
check "latency_target never met: the job runs its whole runtime" \
	between "$(jf "$D/never.ig.json" '.jobs[0].job_runtime')" 900 1200
lt_file fatal 100
expect_status 1 "latency_target missed at depth 1, percentile 100: the job fails (status 1)"
check "... with ETIMEDOUT, as fio (110)" \
	[ "$(jf "$D/fatal.ig.json" '.jobs[0].error') $(jf "$D/fatal.fio.json" '.jobs[0].error')" = "110 110" ]
lt_job keep 10s 100 1 latency_run=1
expect_status 0 "latency_run=1: status 0"
check "latency_run=1: the search never ends the job (runs its runtime)" \
	between "$(jf "$D/keep.ig.json" '.jobs[0].job_runtime')" 900 1200
check "latency_run=1: depth 64" [ "$(jf "$D/keep.ig.json" '.jobs[0].latency_depth')" = 64 ]
check "no latency_target: fio-json's latency_depth is the iodepth, target 0 (as fio)" \
	[ "$(jf "$D/ser1.ig.json" '.jobs[0].latency_depth') $(jf "$D/ser1.ig.json" '.jobs[0].latency_target')" = "16 0" ]

# On a file with libaio: a depth from 1 to 32, in iogauge's text and JSON.
run_iogauge run --name=lt --ioengine=libaio --direct=1 --filename="$D/lt.dat" --rw=randread --bs=4k \
	--iodepth=32 --time_based --runtime=4 --latency_target=5ms --latency_window=200ms \
	--latency_percentile=90 --json="$D/lt.json" --allow-overwrite
expect_status 0 "latency_target on a file (libaio): status 0"
dep=$(jf "$D/lt.json" '.jobs[0].latency_target.depth')
check "latency_target on a file: iogauge's JSON has the depth found, 1 to 32 ($dep)" between "${dep:-0}" 1 32
check "latency_target on a file: the text says it" grep -q "latency      : target=5000000, window=200000, percentile=90.00%, depth=$dep\$" "$OUT"
check "latency_target on a file: the text header names the search" grep -q "latency target: 5.000 ms at 90% of each 200.000 ms window" "$OUT"

# ---- 4. io_submit_mode=offload (the null engine; the rest in test_fio_offload.sh).
run_iogauge run --name=off --ioengine=null --size=1m --iodepth=8 --io_submit_mode=offload --json="$D/off.json"
expect_status 0 "io_submit_mode=offload: accepted (status 0)"
check "io_submit_mode=offload: nothing on stderr (fio prints nothing)" [ ! -s "$ERR" ]
check "io_submit_mode=offload: no 'runs inline' note" bash -c '! grep -q "offload runs inline" "$1"' _ "$D/off.json"
check "io_submit_mode=offload: the text header names the threads" grep -q "submit: io_submit_mode=offload: each job thread hands its requests to 8 threads" "$OUT"
printf '[off]\nioengine=null\nsize=8m\niodepth=16\nio_submit_mode=offload\n' >"$D/off.fio"
printf '[off]\nioengine=null\nsize=8m\niodepth=16\n' >"$D/inl.fio"
run_iogauge fio --output-format=json --output="$D/off.ig.json" "$D/off.fio"
expect_status 0 "io_submit_mode=offload under iogauge fio: status 0"
# fio 3.33 hangs on offload jobs here: its inline run of the same job stands for it.
timeout -k 5 60 fio --output-format=json --output="$D/inl.fio.json" "$D/inl.fio" >/dev/null 2>&1
check "io_submit_mode=offload: the same requests as fio's inline run" \
	[ "$(jf "$D/off.ig.json" '.jobs[0].read.total_ios')" = "$(jf "$D/inl.fio.json" '.jobs[0].read.total_ios')" ]

# ---- 5. What is still unsupported is refused by name.
run_iogauge fio --name=x --ioengine=null --size=1m --write_barrier=4
expect_status 2 "write_barrier: still refused (status 2)"
expect_err "unsupported fio option 'write_barrier'" "write_barrier: named"
