#!/bin/bash
# Every test: cmocka unit tests (ASan+UBSan build), a short pass of the fuzz targets (3 s each), then the end-to-end scripts
# against the release binary and again against the ASan+UBSan binary.
# Ends with the checks that were skipped (so a log shows which safety checks did
# not run here) and one line "N passed, N failed, N skipped" (tests/results.sh).
set -u
cd "$(dirname "$0")/.."
# shellcheck source=tests/results.sh
. tests/results.sh
log=$(mktemp /tmp/iogauge-tests.XXXXXX)
trap 'rm -f "$log" "$log.one"' EXIT

for t in build/san/tests/test_*; do
	echo "== unit: $t" | tee -a "$log"
	one "$log" "$t" "$t"
done
# A short pass of every fuzz target (make fuzz runs them longer).
if ls build/fuzz/fuzz_* >/dev/null 2>&1; then
	echo "== fuzz smoke" | tee -a "$log"
	one "$log" "fuzz smoke" tests/fuzz/run.sh "${IOGAUGE_FUZZ_TIME:-3}" build/fuzz/fuzz_*
fi
for bin in iogauge build/iogauge-san; do
	[ "$bin" = build/iogauge-san ] && [ "${IOGAUGE_SKIP_SAN_E2E:-0}" = 1 ] && continue
	for s in tests/e2e/test_*.sh; do
		echo "== e2e ($bin): $s" | tee -a "$log"
		start=$SECONDS
		IOGAUGE="$PWD/$bin" one "$log" "$s with $bin" timeout 900 bash "$s"
		echo "== took $((SECONDS - start)) s: $s ($bin)" # the CI budget is 20 minutes in all
	done
done

tally "$log"
