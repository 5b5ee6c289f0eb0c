#!/bin/bash
# Run libFuzzer targets for a bounded time each: tests/fuzz/run.sh SECONDS BINARY...
# Seeds come from tests/fuzz/corpus/NAME (never written to); what the fuzzer
# finds goes to a temporary corpus; a crash, leak or hang leaves its input in
# build/fuzz/artifacts/ and prints "not ok".  One "ok - fuzz NAME" line each.
set -u
secs=${1:?seconds}
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$root/build/fuzz/artifacts"
rc=0
for bin in "$@"; do
	name=$(basename "$bin")
	seeds=$root/tests/fuzz/corpus/$name
	work=$(mktemp -d "${TMPDIR:-/tmp}/iogauge-fuzz.XXXXXX")
	log=$work.log
	# -close_fd_mask=1: the library never prints results, but keep stdout quiet.
	# Inputs as long as the thing they stand for: a command line, a job file, a saved result.
	case $name in
	fuzz_options) max=4096 ;;
	fuzz_jobfile) max=16384 ;;
	*) max=65536 ;;
	esac
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=$max \
		-close_fd_mask=1 -print_final_stats=1 \
		-artifact_prefix="$root/build/fuzz/artifacts/$name-" "$work" ${seeds:+$([ -d "$seeds" ] && echo "$seeds")} \
		>"$log" 2>&1
	st=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	if [ "$st" -eq 0 ]; then
		echo "ok - fuzz $name: ${runs:-?} inputs in $secs s, no crash, leak or hang"
	else
		echo "not ok - fuzz $name: exit status $st"
		grep -E "ERROR|SUMMARY|Test unit written|runtime error" "$log" | head -n 8 | sed 's/^/#   /'
		rc=1
	fi
	rm -rf "$work" "$log"
done
exit $rc
