#!/usr/bin/env bash
# bench/rss.sh - iogauge's memory does not grow while a run goes on: the peak RSS (VmHWM in
# /proc/PID/status) of a time-based run read at SHORT seconds and again at LONG seconds
# (defaults 10 and 60; issue 30's figure is SHORT=10 LONG=600) of the same run.  Every figure a
# run keeps while it runs is fixed in size and touched before the run starts (latency
# histograms, verify tables, buffers) or tiny per second (the per-second series), so the two
# readings must agree to within MAX_KIB (1024: "flat" is within 1 MiB).
#
# After the run the report is built (the JSON tree, with every thread's per-second series):
# that peak, and the size of the JSON, are printed too.  They do grow with the length of the
# run, by the series' points, and only there.
#
#   (1) io_uring randrw, QD 32, 4 threads, 4 KiB, one 256 MiB file
#   (2) the same, verified (--verify=crc32c --verify_backlog=64)
#   (3) psync 4 KiB randread, 16 threads, the file in the page cache
#   bench/limit.sh's three workloads, 2 threads each (5 and 6 need root: a RAM-backed loop device):
#   (4) psync 4 KiB randread of the cached file, 2 threads
#   (5) io_uring 4 KiB randread, QD 32, O_DIRECT, RAM-backed loop device, 2 threads
#   (6) 512 KiB randwrite, QD 64, O_DIRECT, fresh data for every write, RAM-backed loop, 2 threads
#
# Environment: SHORT=10, LONG=60 (seconds), WORKLOADS="1 2 3 4 5 6", MAX_KIB=1024,
# IOGAUGE=./iogauge, BENCH_DIR=/var/tmp.  Exit status 1 when a workload's peak grew by more.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=bench/ramloop.sh
. "$here/ramloop.sh"
SHORT=${SHORT:-10}
LONG=${LONG:-60}
WORKLOADS=${WORKLOADS:-1 2 3 4 5 6}
MAX_KIB=${MAX_KIB:-1024}
IOGAUGE=${IOGAUGE:-$repo/iogauge}
BENCH_DIR=${BENCH_DIR:-/var/tmp}
[[ -x "$IOGAUGE" ]] || { echo "rss: no iogauge binary at $IOGAUGE" >&2; exit 1; }
((LONG > SHORT + 2)) || { echo "rss: LONG must be at least SHORT + 3" >&2; exit 1; }

TMP=$(mktemp -d "$BENCH_DIR/rss.XXXXXX")
PID=
TPID=
cleanup() {
	# iogauge first (it holds the loop device), then /usr/bin/time, our child, reaped.
	set +e
	[[ -n "$PID" ]] && kill "$PID" 2>/dev/null
	[[ -n "$TPID" ]] && { kill "$TPID" 2>/dev/null; wait "$TPID" 2>/dev/null; }
	ramloop_drop
	rm -rf -- "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

hwm() { awk '/^VmHWM:/ { print $2 }' "/proc/$PID/status" 2>/dev/null; }

# at T0 SECONDS: sleep until SECONDS after T0 (ns)
at() {
	local left=$(($1 + $2 * 1000000000 - $(date +%s%N)))
	((left > 0)) && sleep "$(printf '%d.%09d' $((left / 1000000000)) $((left % 1000000000)))"
	return 0
}

# One file written once with dd: no layout at the start of a run, so the run's clock and
# this script's start together (the files of the jobs are given with --allow-overwrite).
F=$TMP/f
dd if=/dev/urandom of="$F" bs=1M count=256 status=none
W1=(--name=a "--filename=$F" --size=256m --bs=4k --rw=randrw --ioengine=io_uring --iodepth=32 --numjobs=4
	--allow-overwrite)
W2=("${W1[@]}" --verify=crc32c --verify_backlog=64)
W3=(--name=c "--filename=$F" --size=256m --bs=4k --rw=randread --ioengine=psync --numjobs=16 --invalidate=0)
W4=(--name=p "--filename=$F" --size=256m --bs=4k --rw=randread --ioengine=psync --numjobs=2 --invalidate=0)
if [[ " $WORKLOADS " == *" 5 "* || " $WORKLOADS " == *" 6 "* ]] && ! ramloop_make "$TMP" 512; then
	echo "rss: no RAM-backed loop device: (5) and (6) skipped" >&2
	WORKLOADS=${WORKLOADS//5/}
	WORKLOADS=${WORKLOADS//6/}
fi
W5=(--name=u "--filename=$RAMLOOP" --bs=4k --rw=randread --ioengine=io_uring --iodepth=32 --direct=1 --numjobs=2)
W6=(--name=d "--filename=$RAMLOOP" --bs=512k --rw=randwrite --ioengine=io_uring --iodepth=64 --direct=1 --numjobs=2
	--allow-destroy)

echo "rss: $("$IOGAUGE" --version 2>/dev/null | head -1); VmHWM at ${SHORT} s and at ${LONG} s of one run" >&2
printf '%-56s %9s %9s %11s %11s %10s\n' "workload" "${SHORT} s" "${LONG} s" "change" "after JSON" "JSON"
grew=0
for w in $WORKLOADS; do
	declare -n args=W$w
	case $w in
	1) label="(1) io_uring randrw QD32, 4 threads" ;;
	2) label="(2) the same, --verify=crc32c --verify_backlog=64" ;;
	3) label="(3) psync randread, 16 threads, cached" ;;
	4) label="(4) psync 4k randread, 2 threads, cached" ;;
	5) label="(5) io_uring 4k randread QD32 direct, RAM loop, 2 thr" ;;
	6) label="(6) 512k randwrite QD64, fresh data, RAM loop, 2 thr" ;;
	*) echo "rss: no workload $w (1-6)" >&2; exit 2 ;;
	esac
	cat "$F" >/dev/null
	t0=$(date +%s%N)
	/usr/bin/time -f %M -o "$TMP/rss" "$IOGAUGE" run --quiet --time_based "--runtime=$((LONG + 1))" \
		--output-format=json --output="$TMP/out.json" "${args[@]}" >"$TMP/log" 2>&1 &
	PID=$! TPID=$!
	sleep 0.2
	# /usr/bin/time forks iogauge: follow the child
	child=$(pgrep -P "$PID" | head -n 1)
	[[ -n "$child" ]] && PID=$child
	at "$t0" "$SHORT"
	a=$(hwm)
	at "$t0" "$LONG"
	b=$(hwm)
	wait "$TPID" || { TPID= PID=; echo "rss: iogauge failed:" >&2; tail -n 5 "$TMP/log" >&2; exit 1; }
	PID= TPID=
	verdict=ok
	if ((b - a > MAX_KIB)); then
		verdict="GREW"
		grew=1
	fi
	printf '%-56s %6s KiB %6s KiB %+7d KiB %7s KiB %7s KiB  %s\n' "$label" "$a" "$b" $((b - a)) \
		"$(tail -n 1 "$TMP/rss")" "$(($(stat -c %s "$TMP/out.json") / 1024))" "$verdict"
done
exit "$grew"
