#!/bin/bash
# Every test: cmocka unit tests (ASan+UBSan build), a short pass of the fuzz targets (3 s each), then the end-to-end scripts
# against the release binary and again against the ASan+UBSan binary.
# Ends with the seconds each test took (the 15 slowest), the checks that were skipped (so a log shows which safety checks
# did not run here) and one line "N passed, N failed, N skipped" (tests/results.sh).
#
# Two tests run at once (IOGAUGE_TEST_JOBS, default 2, 1 on one core; the CI budget is 20 minutes on 2 cores),
# each into a log of its own shown whole when it ends.  A script with the line "# make test: alone" runs with
# nothing beside it, for a machine-wide reason it states (every check must hold on a busy machine: HACKING.md).
# IOGAUGE_UNIT and IOGAUGE_E2E (globs: test_fio_*) run some of the tests (IOGAUGE_FUZZ_TIME=0: no fuzz).
# IOGAUGE_FIO_CACHE (a directory for this run) lets a script run fio once for both binaries (lib.sh's fio_cached);
# lib.sh's need_json builds its jget there once for every script.
set -u
cd "$(dirname "$0")/.."
# shellcheck source=tests/results.sh
. tests/results.sh
log=$(mktemp /tmp/iogauge-tests.XXXXXX)
work=$(mktemp -d /tmp/iogauge-tests-work.XXXXXX)
export IOGAUGE_FIO_CACHE=$work/fio-cache
mkdir -p "$IOGAUGE_FIO_CACHE"
pids=()
# Stopped (SIGINT, SIGTERM): the tests still running are stopped too (timeout, a child of each
# runner subshell, passes the signal on to its script, whose trap cleans up), and none is started.
stop_running() {
	local p
	for p in ${pids[@]+"${pids[@]}"}; do
		pkill -TERM -P "$p" 2>/dev/null
		kill -TERM "$p" 2>/dev/null
	done
	wait
}
trap 'stop_running; rm -rf "$log" "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

jobs_max=${IOGAUGE_TEST_JOBS:-$(($(nproc) > 1 ? 2 : 1))}
times=$work/times
: >"$times"

# The queue: HEADER, LABEL, ALONE (0/1), ENVIRONMENT (IOGAUGE=... or -) and the command, one entry each.
q_head=() q_label=() q_alone=() q_env=() q_cmd=()
add() {
	q_head+=("$1") q_label+=("$2") q_alone+=("$3") q_env+=("$4")
	shift 4
	q_cmd+=("$(printf '%q ' "$@")")
}

for t in build/san/tests/${IOGAUGE_UNIT:-test_*}; do
	[ -x "$t" ] || continue # a glob that matched nothing
	alone=0
	grep -q 'make test: alone' "tests/unit/${t##*/}.c" 2>/dev/null && alone=1
	add "unit: $t" "$t" "$alone" - "$t"
done
# A short pass of every fuzz target (make fuzz runs them longer).
if [ "${IOGAUGE_FUZZ_TIME:-3}" != 0 ] && ls build/fuzz/fuzz_* >/dev/null 2>&1; then
	add "fuzz smoke" "fuzz smoke" 0 - tests/fuzz/run.sh "${IOGAUGE_FUZZ_TIME:-3}" build/fuzz/fuzz_*
fi
for bin in iogauge build/iogauge-san; do
	[ "$bin" = build/iogauge-san ] && [ "${IOGAUGE_SKIP_SAN_E2E:-0}" = 1 ] && continue
	for s in tests/e2e/${IOGAUGE_E2E:-test_*}.sh; do
		[ -f "$s" ] || continue
		alone=0
		grep -q '^# make test: alone' "$s" && alone=1
		add "e2e ($bin): $s" "$s with $bin" "$alone" "IOGAUGE=$PWD/$bin" timeout 900 bash "$s"
	done
done

# The order: the tests that share the machine first, longest first by the last run's times
# (build/test-times, when there is one), then those that run alone.
order=()
last=build/test-times
for pass in 0 1; do
	for i in "${!q_head[@]}"; do
		[ "${q_alone[i]}" = "$pass" ] || continue
		s=0
		[ -r "$last" ] && s=$(awk -F'\t' -v h="${q_head[i]}" '$2 == h { print $1; exit }' "$last")
		printf '%s\t%s\n' "${s:-0}" "$i"
	done | sort -s -t$'\t' -k1,1nr | cut -f2 >"$work/order"
	while read -r i; do order+=("$i"); done <"$work/order"
done

declare -A running=() # pid -> queue index
declare -A started=() # queue index -> start (ns)

launch() {
	local i=$1
	started[$i]=$(date +%s%N)
	(
		[ "${q_env[i]}" = - ] || export "${q_env[i]?}"
		eval "one \"\$work/$i.log\" \"\${q_label[i]}\" ${q_cmd[i]}" >/dev/null
	) &
	running[$!]=$i
	pids+=("$!")
}

# finish PID: show the test's log whole, add it to the run's log, note its time.
finish() {
	local i=${running[$1]} secs
	unset "running[$1]"
	secs=$(awk -v a="${started[$i]}" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
	echo "== ${q_head[i]}" | tee -a "$log"
	cat "$work/$i.log"
	cat "$work/$i.log" >>"$log"
	echo "== took $secs s: ${q_head[i]}"
	printf '%s\t%s\n' "$secs" "${q_head[i]}" >>"$times"
	rm -f "$work/$i.log"
}

reap_one() {
	local p
	wait -n -p p "${!running[@]}"
	finish "$p"
}

start_all=$(date +%s)
for i in "${order[@]}"; do
	if [ "${q_alone[i]}" = 1 ]; then
		while [ ${#running[@]} -gt 0 ]; do reap_one; done
	fi
	while [ ${#running[@]} -ge "$jobs_max" ]; do reap_one; done
	launch "$i"
	if [ "${q_alone[i]}" = 1 ]; then
		reap_one
	fi
done
while [ ${#running[@]} -gt 0 ]; do reap_one; done

# A whole run's times order the next run (not a part's).
[ -z "${IOGAUGE_UNIT:-}${IOGAUGE_E2E:-}" ] && mkdir -p build && cp "$times" "$last" 2>/dev/null
echo "== the 15 slowest tests (seconds; $((($(date +%s) - start_all) / 60)) min $((($(date +%s) - start_all) % 60)) s in all, $jobs_max at once):"
sort -t$'\t' -k1,1nr "$times" | head -n 15 | awk -F'\t' '{ printf "%7s  %s\n", $1, $2 }'
tally "$log"
