#!/bin/bash
# Every engine with every pattern, size-bound, on a file in a directory on a
# real ext4 (on a loop device, so O_DIRECT works and nothing is on tmpfs):
# the exact byte counts, the request size, both directions of the mixed
# patterns, and no test file left behind.  Then the options that shape a run:
# --loops, --numjobs, --time_based, --ramp_time, --rate_iops, --norandommap,
# --random_distribution, the iodepth warning of the sync engines, JSON on
# stdout beside warnings on stderr, and --percentile_list.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 timeout awk
need_json

cd "$E2E_ROOT" || exit 1

mkfs_mount engines 192M ext4 || {
	fail "ext4 on a loop device for the test files"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
SIZE=$((4 * 1024 * 1024))
BS=4096

# job ARGS...: one JSON run in $D.
job() {
	run_iogauge run --directory="$D" --output-format=json "$@"
}

# j EXPR: from the last run's JSON; empty when missing.
j() {
	jget "$OUT" "$1" 2>/dev/null
}

# not_in_out STRING: the last stdout does not contain STRING.
not_in_out() {
	! grep -qF -- "$1" "$OUT"
}

# expect_ok NAME [EXPECTED-TOTAL-BYTES]: exit 0, valid JSON, read+write bytes
# of job 0 equal to EXPECTED (when given; else more than 0), no file left in $D.
expect_ok() {
	local name=$1 want=${2:-} why="" r w
	[ "$STATUS" -eq 0 ] || why="$why exit status $STATUS;"
	if jget "$OUT" 2>/dev/null; then
		r=$(j .jobs[0].read.bytes)
		w=$(j .jobs[0].write.bytes)
		if [ -n "$want" ]; then
			[ "$((${r:-0} + ${w:-0}))" -eq "$want" ] ||
				why="$why read.bytes $r + write.bytes $w != $want;"
		else
			[ "$((${r:-0} + ${w:-0}))" -gt 0 ] || why="$why no bytes moved;"
		fi
	else
		why="$why stdout is not JSON;"
	fi
	dir_empty "$D" || why="$why left in $D: $(ls_dir "$D");"
	rm -rf "${D:?}"/* 2>/dev/null
	if [ -z "$why" ]; then pass "$name"; else fail "$name" "$why"; fi
}

# 1. Every engine x every pattern.
for engine in psync sync libaio io_uring mmap null; do
	opts=(--ioengine="$engine")
	case $engine in
	libaio | io_uring) opts+=(--iodepth=4) ;;
	esac
	[ "$engine" = mmap ] || opts+=(--direct=1)
	for rw in read write randread randwrite rw readwrite randrw; do
		name="$engine $rw"
		job --name=t --size=4m --bs=4k --rw="$rw" "${opts[@]}"
		why=""
		[ "$STATUS" -eq 0 ] || why="$why exit status $STATUS;"
		if jget "$OUT" 2>/dev/null; then
			rb=$(j .jobs[0].read.bytes)
			wb=$(j .jobs[0].write.bytes)
			ri=$(j .jobs[0].read.ios)
			wi=$(j .jobs[0].write.ios)
			rb=${rb:-0} wb=${wb:-0} ri=${ri:-0} wi=${wi:-0}
			[ $((rb + wb)) -eq $SIZE ] || why="$why read.bytes $rb + write.bytes $wb != $SIZE;"
			[ $((ri * BS)) -eq "$rb" ] || why="$why read.ios $ri x $BS != read.bytes $rb;"
			[ $((wi * BS)) -eq "$wb" ] || why="$why write.ios $wi x $BS != write.bytes $wb;"
			case $rw in
			read | randread) [ "$wb" -eq 0 ] || why="$why a read pattern wrote $wb bytes;" ;;
			write | randwrite) [ "$rb" -eq 0 ] || why="$why a write pattern read $rb bytes;" ;;
			*) [ "$rb" -gt 0 ] && [ "$wb" -gt 0 ] ||
				why="$why mixed pattern with read $rb, write $wb bytes;" ;;
			esac
			[ "$(j .jobs[0].options.ioengine)" = "$engine" ] ||
				why="$why options.ioengine is $(j .jobs[0].options.ioengine);"
		else
			why="$why stdout is not JSON;"
		fi
		dir_empty "$D" || why="$why left in $D: $(ls_dir "$D");"
		rm -rf "${D:?}"/* 2>/dev/null
		if [ -z "$why" ]; then pass "$name: size-bound run moves exactly 4 MiB in 4k requests"; else fail "$name" "$why"; fi
	done
done

# 2. --loops=3: three times the size.
job --name=t --size=4m --bs=4k --rw=randread --ioengine=io_uring --iodepth=4 --direct=1 --loops=3
expect_ok "--loops=3 (randread) moves 3x size" $((3 * SIZE))
job --name=t --size=4m --bs=64k --rw=write --direct=1 --loops=3
expect_ok "--loops=3 (write) moves 3x size" $((3 * SIZE))

# 3. --numjobs=2 without --filename: two files, twice the bytes, none left.
job --name=t --size=4m --bs=4k --rw=randwrite --ioengine=libaio --iodepth=4 --direct=1 --numjobs=2
expect_ok "--numjobs=2 moves 2x size and leaves no file" $((2 * SIZE))
p0=$(j '.jobs[0].targets[0].path')
p1=$(j '.jobs[0].targets[1].path')
if [ "$(j '.jobs[0].targets|length')" = 2 ] && [ -n "$p0" ] && [ -n "$p1" ] && [ "$p0" != "$p1" ] &&
	[ "$(j '.jobs[0].targets[0].created')" = true ] && [ "$(j '.jobs[0].targets[1].created')" = true ]; then
	pass "--numjobs=2 creates two distinct files ($p0, $p1)"
else
	fail "--numjobs=2 creates two distinct files" "targets: $(j .jobs[0].targets)"
fi
check "--numjobs=2 reports 2 threads" [ "$(j '.jobs[0].threads|length')" = 2 ]

# 4. --time_based --runtime=1: about one second measured.
job --name=t --size=4m --bs=4k --rw=randread --ioengine=io_uring --iodepth=4 --direct=1 \
	--time_based --runtime=1
expect_ok "--time_based --runtime=1: exit 0, no file left"
el=$(j .jobs[0].elapsed_ns)
if between "${el:-0}" 900000000 1500000000; then
	pass "--time_based --runtime=1: elapsed_ns $el within 0.9-1.5 s"
else
	fail "--time_based --runtime=1: elapsed_ns within 0.9-1.5 s" "elapsed_ns=$el"
fi
rb=$(j .jobs[0].read.bytes)
check "--time_based --runtime=1: moved more than the 4 MiB size (the workload repeats)" [ "${rb:-0}" -gt $SIZE ]

# 5. --ramp_time=0.5 --runtime=0.5 --time_based: only the last 0.5 s measured.
t0=$(date +%s%N)
job --name=t --size=4m --bs=4k --rw=randread --ioengine=io_uring --iodepth=4 --direct=1 \
	--time_based --runtime=0.5 --ramp_time=0.5
t1=$(date +%s%N)
expect_ok "--ramp_time=0.5 --runtime=0.5: exit 0, no file left"
el=$(j .jobs[0].elapsed_ns)
if between "${el:-0}" 450000000 750000000; then
	pass "--ramp_time=0.5 --runtime=0.5: elapsed_ns $el is about 0.5 s"
else
	fail "--ramp_time=0.5 --runtime=0.5: elapsed_ns about 0.5 s" "elapsed_ns=$el"
fi
check "--ramp_time=0.5 --runtime=0.5: the run took at least 1 s of wall time" [ $((t1 - t0)) -ge 950000000 ]
ios=$(j .jobs[0].read.ios)
smp=$(j .jobs[0].read.clat_ns.samples)
if ok [ -n "$ios" ] && ok [ "$ios" = "$smp" ]; then
	pass "--ramp_time: latency samples ($smp) = measured ios ($ios)"
else
	fail "--ramp_time: latency samples ($smp) = measured ios ($ios)" "$WHY"
fi

# 6. --rate_iops=200 for 1 s: 150..250 IOPS.
job --name=t --size=4m --bs=4k --rw=randread --direct=1 --rate_iops=200 --runtime=1 --time_based
expect_ok "--rate_iops=200: exit 0, no file left"
iops=$(j .jobs[0].read.iops)
if between "${iops:-0}" 150 250; then
	pass "--rate_iops=200 --runtime=1: $iops IOPS"
else
	fail "--rate_iops=200 --runtime=1: 150..250 IOPS" "iops=$iops"
fi

# 7. --norandommap and the random distributions complete.
job --name=t --size=4m --bs=4k --rw=randread --ioengine=io_uring --iodepth=4 --direct=1 --norandommap
expect_ok "--norandommap (randread) completes with size bytes" $SIZE
check "--norandommap is reported in options" [ "$(j .jobs[0].options.norandommap)" = true ]
job --name=t --size=4m --bs=4k --rw=randwrite --direct=1 --norandommap
expect_ok "--norandommap (randwrite) completes with size bytes" $SIZE
for dist in zipf:1.2 pareto:0.3 normal:10; do
	job --name=t --size=4m --bs=4k --rw=randrw --ioengine=libaio --iodepth=4 --direct=1 \
		--random_distribution="$dist"
	expect_ok "--random_distribution=$dist completes with size bytes" $SIZE
	check "--random_distribution=$dist is reported" [ "$(j .jobs[0].options.random_distribution)" = "$dist" ]
done

# 8. A synchronous engine with --iodepth=8: a warning on stderr; stdout is still JSON.
for engine in psync sync; do
	job --name=t --size=4m --bs=4k --rw=randread --ioengine="$engine" --iodepth=8 --direct=1
	expect_ok "$engine --iodepth=8 completes" $SIZE
	expect_err "iodepth" "$engine --iodepth=8: warning on stderr names iodepth"
	check "$engine --iodepth=8: stdout parses as JSON beside the warning" jget "$OUT"
	check "$engine --iodepth=8: the warning line is not on stdout" not_in_out "iogauge: warning"
	check "$engine --iodepth=8: the JSON notes carry it" grep -q "acts as 1" "$OUT"
done

# 9. --percentile_list=50:99: exactly those keys.
job --name=t --size=4m --bs=4k --rw=randrw --ioengine=io_uring --iodepth=4 --direct=1 --percentile_list=50:99
expect_ok "--percentile_list=50:99 completes" $SIZE
for dir in read write; do
	keys=$(j ".jobs[0].$dir.clat_ns.percentiles|keys" | sort | tr '\n' ' ')
	if [ "$keys" = "50.000000 99.000000 " ]; then
		pass "--percentile_list=50:99: $dir percentiles are exactly 50.000000, 99.000000"
	else
		fail "--percentile_list=50:99: $dir percentiles are exactly 50.000000, 99.000000" "keys: $keys"
	fi
done
