#!/bin/bash
# fio's own regression jobs and examples, under fio and under iogauge in one run.
#
#   scripts/fio-regression.sh [--iogauge BIN] [--fio BIN] [--full] [--tests "N..."]
#                             [--no-jobs] [--no-examples] [--work DIR] [--timeout S]
#                             [--record FILE]
#
# Jobs: fio 3.33's t/run-fio-tests.py (from scripts/fio-source.sh) runs its
# job-file tests (t0001..t0026) and t/readonly.py once against the real fio
# and once against iogauge called as `fio` (a link), each invocation under
# `timeout`.  Prints a line per test:
#   result tNNNN fio=PASSED|FAILED|NOT-RUN iogauge=PASSED|FAILED why
# and SKIP lines for the tests left out (heavy ones, unless --full).
# Examples: every examples/*.fio through `--parse-only` under both:
#   example NAME fio=ACCEPT|REJECT iogauge=ACCEPT|REJECT(status) first line of iogauge's stderr
# Then the counts.  --record FILE writes fio's own verdicts ("job N PASSED",
# "example NAME ACCEPT"), which tests/e2e/test_fio_regression.sh reads instead
# of running fio (0.7 s a parse here: too slow for every make test).  Exit 0 when it ran (whatever the results: the e2e test
# judges them), 77 when it cannot run here (no fio source, no python3, no fio).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
IOGAUGE=$ROOT/iogauge
FIO=$(command -v fio || true)
FULL=0
TESTS=""
JOBS=1
EXAMPLES=1
WORK=""
TIMEOUT=120
RECORD=""

while [ $# -gt 0 ]; do
	case $1 in
	--iogauge) IOGAUGE=$2; shift 2 ;;
	--fio) FIO=$2; shift 2 ;;
	--full) FULL=1; shift ;;
	--tests) TESTS=$2; shift 2 ;;
	--no-jobs) JOBS=0; shift ;;
	--no-examples) EXAMPLES=0; shift ;;
	--work) WORK=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--record) RECORD=$2; shift 2 ;;
	*) echo "usage: $0 [--iogauge BIN] [--fio BIN] [--full] [--tests \"N...\"] [--no-jobs] [--no-examples] [--work DIR] [--timeout S] [--record FILE]" >&2
	   exit 2 ;;
	esac
done

skip_all() { echo "SKIP fio regression: $*"; exit 77; }
command -v python3 >/dev/null || skip_all "no python3 to run fio's t/run-fio-tests.py"
{ [ -n "$FIO" ] && [ -x "$FIO" ]; } || skip_all "no fio binary to compare with (apt-get install fio)"
[ -x "$IOGAUGE" ] || skip_all "no iogauge binary at $IOGAUGE"
SRC=$("$ROOT/scripts/fio-source.sh") || skip_all "fio 3.33's source could not be fetched (scripts/fio-source.sh)"
IOGAUGE=$(cd "$(dirname "$IOGAUGE")" && pwd)/$(basename "$IOGAUGE")

own_work=0
if [ -z "$WORK" ]; then
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/iogauge-fio-regression.XXXXXX")
	own_work=1
fi
# shellcheck disable=SC2317 # run by the trap
cleanup() { if [ "$own_work" = 1 ]; then rm -rf "$WORK"; fi; }
trap cleanup EXIT
mkdir -p "$WORK/bin"
if [ -n "$RECORD" ]; then
	RECORD=$(cd "$(dirname "$RECORD")" && pwd)/$(basename "$RECORD")
	{ echo "# fio's own verdicts: $("$FIO" --version) ($FIO), $(date -u +%Y-%m-%d), by scripts/fio-regression.sh --record"
	  echo "# job N PASSED|FAILED: t/run-fio-tests.py's test N; example NAME ACCEPT|REJECT: examples/NAME under --parse-only"; } >"$RECORD"
fi
# iogauge called as fio (argv[0] is .../fio), and both binaries under a timeout:
# fio 3.33 itself hangs on some jobs here (io_submit_mode=offload).
ln -sf "$IOGAUGE" "$WORK/bin/fio"
printf '#!/bin/sh\nexec timeout -k 5 %s "%s" "$@"\n' "$TIMEOUT" "$WORK/bin/fio" >"$WORK/iogauge-as-fio"
printf '#!/bin/sh\nexec timeout -k 5 %s "%s" "$@"\n' "$TIMEOUT" "$FIO" >"$WORK/real-fio"
chmod +x "$WORK/iogauge-as-fio" "$WORK/real-fio"

# ---- fio's job-file tests

# Left out unless --full, each with its reason (counted and named).
declare -A HEAVY=(
	[2]="writes and verifies a 5 GiB file (30 s under fio)"
	[6]="4 GiB of random I/O with verify (60 s under fio)"
	[9]="60 s time-based job that wants 4 CPUs"
	[11]="10 s time-based flow job"
	[12]="12 s time-based flow job"
	[14]="12 s time-based flow job"
)
# fio 3.33 hangs on these here (io_submit_mode=offload): iogauge alone, unless --full.
declare -A FIO_HANGS=([10]=1 [13]=1)
ALL="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 1003"

run_suite() { # $1: label, $2: wrapper, rest: test ids
	local label=$1 wrapper=$2
	shift 2
	[ $# -eq 0 ] && return 0
	rm -rf "$WORK/art-$label"
	python3 "$SRC/t/run-fio-tests.py" -r "$SRC" -f "$wrapper" -a "$WORK/art-$label" -k -o "$@" \
		>"$WORK/$label.log" 2>&1
	return 0
}

# The verdict of test $2 in log $1: PASSED, or FAILED: reason.
verdict() {
	sed -n "s/^Test $2 \(PASSED\|FAILED.*\) [^ ]*\$/\1/p" "$1" | head -n 1
}

if [ "$JOBS" = 1 ]; then
	want=${TESTS:-$ALL}
	fio_ids=()
	ig_ids=()
	for t in $want; do
		if [ "$FULL" = 0 ] && [ -z "$TESTS" ] && [ -n "${HEAVY[$t]:-}" ]; then
			printf 'SKIP t%04d: %s (--full runs it)\n' "$t" "${HEAVY[$t]}"
			continue
		fi
		ig_ids+=("$t")
		if [ "$FULL" = 1 ] || [ -z "${FIO_HANGS[$t]:-}" ]; then
			fio_ids+=("$t")
		fi
	done
	run_suite fio "$WORK/real-fio" "${fio_ids[@]}"
	run_suite iogauge "$WORK/iogauge-as-fio" "${ig_ids[@]}"
	fio_pass=0 both=0 ig_pass=0 ig_extra=0 nrun=0
	for t in "${ig_ids[@]}"; do
		nrun=$((nrun + 1))
		f=$( [ -f "$WORK/fio.log" ] && verdict "$WORK/fio.log" "$t")
		[ -z "$f" ] && f="NOT-RUN (fio 3.33 hangs on it here; --full runs it)"
		g=$(verdict "$WORK/iogauge.log" "$t")
		[ -z "$g" ] && g="FAILED: no verdict"
		why=""
		if [ "${g%%:*}" = FAILED ]; then
			# The first line iogauge wrote on stderr says why, when it said anything.
			d=$(printf '%s/art-iogauge/%04d' "$WORK" "$t")
			e=$(cat "$d"/*.stderr 2>/dev/null | grep -m 1 . | sed 's/^iogauge: //; s|[^ ]*/t/jobs/||')
			[ -n "$e" ] && why=" | $e"
		fi
		printf 'result t%04d fio=%s iogauge=%s%s\n' "$t" "${f%%:*}" "$g" "$why"
		[ -n "$RECORD" ] && [ "${f%% *}" != NOT-RUN ] && echo "job $t ${f%%:*}" >>"$RECORD"
		[ "${f%%:*}" = PASSED ] && fio_pass=$((fio_pass + 1))
		[ "$g" = PASSED ] && ig_pass=$((ig_pass + 1))
		[ "${f%%:*}" = PASSED ] && [ "$g" = PASSED ] && both=$((both + 1))
		[ "${f%%:*}" != PASSED ] && [ "$g" = PASSED ] && ig_extra=$((ig_extra + 1))
	done
	echo "jobs: $nrun tests run; fio passes $fio_pass; iogauge passes $both of those ($ig_extra more that fio does not pass)"
fi

# ---- fio's examples through --parse-only

if [ "$EXAMPLES" = 1 ]; then
	mkdir -p "$WORK/examples"
	n=0 fio_ok=0 ig_ok=0 both=0 named=0 badly=0 by_engine=0 by_option=0
	for f in "$SRC"/examples/*.fio; do
		name=$(basename "$f")
		n=$((n + 1))
		(cd "$WORK/examples" && timeout -k 5 30 "$FIO" --parse-only "$f" >/dev/null 2>&1)
		fs=$?
		(cd "$WORK/examples" && timeout -k 5 30 "$WORK/bin/fio" --parse-only "$f" >/dev/null 2>"$WORK/ex.err")
		gs=$?
		fv=ACCEPT
		[ "$fs" -ne 0 ] && fv=REJECT
		gv=ACCEPT
		line=""
		if [ "$gs" -ne 0 ]; then
			gv="REJECT($gs)"
			line=" | $(grep -m 1 . "$WORK/ex.err" | sed 's/^iogauge: //; s|[^ ]*/examples/||')"
			# A refusal names what it refuses, each on its line, with status 2: never a crash.
			if [ "$gs" -eq 2 ] && [ -s "$WORK/ex.err" ] && ! grep -qv '^iogauge: ' "$WORK/ex.err"; then
				named=$((named + 1))
			else
				badly=$((badly + 1))
				gv="REJECT-BADLY($gs)"
			fi
		fi
		echo "example $name fio=$fv iogauge=$gv$line"
		[ -n "$RECORD" ] && echo "example $name $fv" >>"$RECORD"
		[ "$fs" -eq 0 ] && fio_ok=$((fio_ok + 1))
		[ "$gs" -eq 0 ] && ig_ok=$((ig_ok + 1))
		[ "$fs" -eq 0 ] && [ "$gs" -eq 0 ] && both=$((both + 1))
		if [ "$fs" -eq 0 ] && [ "$gs" -ne 0 ]; then
			if grep -Eq "ioengine: unknown engine|ioengine .* is not supported by iogauge" "$WORK/ex.err"; then
				by_engine=$((by_engine + 1))
			else
				by_option=$((by_option + 1))
			fi
		fi
	done
	echo "examples: $n files; fio accepts $fio_ok; iogauge accepts $ig_ok ($both of fio's); iogauge's refusals: $named named with status 2, $badly otherwise"
	echo "examples fio accepts and iogauge refuses: $by_engine for an engine iogauge lacks, $by_option for an option or value"
fi
exit 0
