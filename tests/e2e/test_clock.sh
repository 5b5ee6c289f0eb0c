#!/bin/bash
# The clock of the timestamps (--clocksource, the JSON's clock): the CPU's
# time-stamp counter by default where it is invariant and the kernel's own
# clock runs on it (as fio's clocksource=cpu), CLOCK_MONOTONIC with
# clock_gettime or gettimeofday, or when any job of the run asks for it; a
# time-based run under the counter lasts its runtime by the wall clock too
# (a counter scaled too fast would end it early).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_iogauge
need_json

J=$E2E_TMP/out.json
NULL=(run --name=c --ioengine=null --rw=randread --bs=4k --size=64m --output-format=json --output="$J")

# What the default should pick here: the counter where the CPU says it is invariant
# (nonstop_tsc) and the kernel's clock source is tsc.
want=clock_gettime
if grep -qw nonstop_tsc /proc/cpuinfo &&
	[ "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)" = tsc ]; then
	want=cpu
fi

run_iogauge "${NULL[@]}"
expect_status 0 "default clock: exit status 0"
check "default clock: the JSON says $want" [ "$(jget "$J" .clock)" = "$want" ]
check "default clock: the options echo clocksource=cpu" [ "$(jget "$J" .jobs[0].options.clocksource)" = cpu ]

for cs in clock_gettime gettimeofday; do
	run_iogauge "${NULL[@]}" --clocksource=$cs
	expect_status 0 "--clocksource=$cs: exit status 0"
	check "--clocksource=$cs: the JSON says clock_gettime" [ "$(jget "$J" .clock)" = clock_gettime ]
done

# One job's clock_gettime is the whole run's (one clock for every timestamp of a run).
JF=$E2E_TMP/two.fio
printf '[a]\nioengine=null\nrw=read\nbs=4k\nsize=8m\n[b]\nioengine=null\nrw=read\nbs=4k\nsize=8m\nclocksource=clock_gettime\n' >"$JF"
run_iogauge run --output-format=json --output="$J" "$JF"
expect_status 0 "a job file, one job with clocksource=clock_gettime: exit status 0"
check "a job file, one job with clocksource=clock_gettime: the run's clock is clock_gettime" \
	[ "$(jget "$J" .clock)" = clock_gettime ]

run_iogauge "${NULL[@]}" --clocksource=sundial
expect_status 2 "--clocksource=sundial: exit status 2"
expect_err "clocksource" "--clocksource=sundial: the message names the option"

# A time-based second under the default clock: the measured time is at least the runtime, and
# the wall clock around the whole command saw at least as much (a clock scaled too fast would
# end the run early by the wall clock).
t0=$(date +%s%N)
run_iogauge run --name=t --ioengine=null --rw=randread --bs=4k --size=64m --time_based --runtime=1 \
	--output-format=json --output="$J"
t1=$(date +%s%N)
expect_status 0 "time-based 1 s: exit status 0"
e=$(jget "$J" .jobs[0].elapsed_ns)
check "time-based 1 s: elapsed $e ns is at least 1 s" [ "$e" -ge 1000000000 ]
check "time-based 1 s: the wall clock saw $((t1 - t0)) ns, at least the elapsed $e ns" [ $((t1 - t0)) -ge "$e" ]
# The mean, not the least: a null request can take less than one tick of the counter (two
# back-to-back rdtsc differ by one tick at times in a virtual machine), an honest 0 ns.
m=$(jget "$J" .jobs[0].read.clat_ns.mean)
check "time-based 1 s: latencies are stamped (mean clat $m ns, more than 0)" \
	awk -v m="$m" 'BEGIN { exit !(m > 0) }'
