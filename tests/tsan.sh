#!/bin/bash
# make check-tsan: iogauge built with ThreadSanitizer runs workloads with many
# threads (engines, mixed jobs, stonewall groups, read-backs, suites, rate
# limits, a signal mid-run, the progress line on a terminal); any report of a
# data race (or other TSan warning) fails.  Usage: tests/tsan.sh BINARY
set -u
bin=$(readlink -f "${1:?usage: tests/tsan.sh BINARY}")
# A binary without ThreadSanitizer would report nothing and pass: refuse it.
nm "$bin" 2>/dev/null | grep -q __tsan_init || { echo "not ok - $bin is not built with -fsanitize=thread"; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/iogauge-tsan.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
cd "$dir" || exit 1
failed=0 n=0

# one NAME ARGS...: the run ends by itself (any status), and TSan said nothing.
one() {
	local name=$1
	shift
	n=$((n + 1))
	timeout -k 5 300 "$bin" "$@" >"$dir/out" 2>"$dir/err"
	report "$name" $?
}

report() {
	if grep -q "ThreadSanitizer" "$dir/err"; then
		echo "not ok - $1 (status $2)"
		grep -A12 "WARNING: ThreadSanitizer" "$dir/err" | head -n 40 | sed 's/^/#   /'
		failed=$((failed + 1))
	elif [ "$2" -ge 124 ] && [ "$2" -ne 130 ]; then
		echo "not ok - $1: status $2"
		failed=$((failed + 1))
	else
		echo "ok - $1 (status $2)"
	fi
	ls -A | grep -v '^out$\|^err$\|^keep$' | xargs -r rm -rf
}

J=(--directory="$dir" --size=8m --time_based --runtime=2)
one "io_uring randrw, 4 threads, verify with backlog" run --name=a "${J[@]}" --rw=randrw \
	--ioengine=io_uring --iodepth=8 --numjobs=4 --verify --verify_backlog=16
one "libaio randread, 3 threads on one file" run --name=b --filename="$dir/f" --size=8m --rw=randread \
	--ioengine=libaio --iodepth=16 --numjobs=3 --time_based --runtime=2
one "psync and mmap jobs at once, then a stonewalled group" run "${J[@]}" --name=c --rw=write \
	--ioengine=psync --name=d --rw=read --ioengine=mmap --name=e --stonewall --rw=randwrite \
	--ioengine=sync --fsync=8
one "null engine, 16 threads, rate limits" run --name=f --ioengine=null --size=64m --numjobs=16 \
	--rw=randrw --time_based --runtime=2 --rate_iops=5000 --group_reporting
mkdir -p "$dir/keep"
one "written for a later check" run --name=g --filename="$dir/keep/g" --size=4m --rw=randwrite \
	--verify=xxhash --numjobs=1 --do_verify=0 --keep
one "verify_only replay" run --name=g --filename="$dir/keep/g" --size=4m --rw=randwrite \
	--verify=xxhash --numjobs=1 --verify_only
one "mix, 2 threads a case" mix "$dir" --size=16m --runtime=1 --ramp_time=1 --verify
one "quick with a ramp" quick "$dir" --size=8m --runtime=1 --ramp_time=1 --passes=1
one "nrfiles=4, a file at random each request, 3 threads" run --name=n "${J[@]}" --rw=randrw \
	--nrfiles=4 --file_service_type=random --numjobs=3 --ioengine=io_uring --iodepth=4
one "inject EIO in 4 threads" run --name=h "${J[@]}" --rw=randwrite --ioengine=inject \
	--inject=eio@1m,engine=io_uring --numjobs=4 --iodepth=4

# SIGINT in the middle of a run with 8 threads.
n=$((n + 1))
timeout -k 5 60 "$bin" run --name=i --directory="$dir" --size=8m --rw=randrw --ioengine=io_uring \
	--iodepth=8 --numjobs=8 --time_based --runtime=20 >"$dir/out" 2>"$dir/err" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
report "SIGINT mid-run, 8 threads" $?

# The progress line, drawn while the workers run, needs a terminal.
if command -v script >/dev/null 2>&1; then
	n=$((n + 1))
	script -qec "$bin run --name=p --directory=$dir --size=8m --rw=randread --numjobs=4 --time_based --runtime=2 2>$dir/err" /dev/null >/dev/null
	report "progress line on a terminal, 4 threads" $?
fi
echo "# $n runs under ThreadSanitizer, $failed with a report"
[ "$failed" -eq 0 ]
