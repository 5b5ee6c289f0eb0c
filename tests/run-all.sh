#!/bin/bash
# Every test: cmocka unit tests (ASan+UBSan build), a short pass of the fuzz targets (3 s each), then the end-to-end scripts
# against the release binary and again against the ASan+UBSan binary.
# Ends with one line "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
log=$(mktemp /tmp/iogauge-tests.XXXXXX)
trap 'rm -f "$log" "$log.one"' EXIT

# Run one test program; a crash or exit status without a failure line counts as a failure.
one() { # $1: label, rest: command
	local label=$1
	shift
	"$@" >"$log.one" 2>&1
	local rc=$?
	cat "$log.one"
	cat "$log.one" >>"$log"
	if [ "$rc" -ne 0 ] && ! grep -qE '^not ok - |^\[  FAILED  \]' "$log.one"; then
		echo "not ok - $label exited with status $rc" | tee -a "$log"
	fi
}

for t in build/san/tests/test_*; do
	echo "== unit: $t"
	one "$t" "$t"
done
# A short pass of every fuzz target (make fuzz runs them longer).
if ls build/fuzz/fuzz_* >/dev/null 2>&1; then
	echo "== fuzz smoke"
	one "fuzz smoke" tests/fuzz/run.sh "${IOGAUGE_FUZZ_TIME:-3}" build/fuzz/fuzz_*
fi
for bin in iogauge build/iogauge-san; do
	[ "$bin" = build/iogauge-san ] && [ "${IOGAUGE_SKIP_SAN_E2E:-0}" = 1 ] && continue
	for s in tests/e2e/test_*.sh; do
		echo "== e2e ($bin): $s"
		start=$SECONDS
		IOGAUGE="$PWD/$bin" one "$s with $bin" timeout 900 bash "$s"
		echo "== took $((SECONDS - start)) s: $s ($bin)" # the CI budget is 20 minutes in all
	done
done

sum() { sed -n "s/^\[  $1  \] \([0-9]*\) test.*/\1/p" "$log" | awk '{s += $1} END {print s + 0}'; }
passed=$(($(grep -c '^ok - ' "$log") + $(sum PASSED)))
failed=$(($(grep -c '^not ok - ' "$log") + $(sum FAILED)))
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
