#!/bin/bash
# fio 3.33's own regression jobs (t/jobs through t/run-fio-tests.py, its own
# checks) and examples (--parse-only), run unchanged by the binary called as
# `fio`.  fio's own verdicts on this machine are in tests/e2e/fio-ref/
# fio-3.33.verdicts (scripts/fio-regression.sh --record; fio takes 0.7 s a
# parse here, too slow to run in every make test); scripts/fio-regression.sh
# runs every test under both binaries.
#
# Asserts: the tests listed in PASS below pass (and at least MIN_JOBS of
# those fio passes); every other one either passes or is refused at once by
# name with status 2 (never a crash, a hang, a wrong count); at least
# MIN_EXAMPLES of fio's examples are accepted by --parse-only, none that fio
# refuses, and every refusal names what it refuses, status 2; the examples
# of RUN_EXAMPLES below, run as scripts/fio-regression.sh runs them, move
# fio's bytes and requests in every direction of every job (against fio's
# runs recorded in the verdicts file), but for the differences the script
# names as by design.
# Only the fast job tests run here (~5 s): the slow ones (t0005, t0008 and
# readonly.py: 30 s) and the heavy ones (t0002, t0006, t0009, t0011, t0012,
# t0014: GiBs or a minute each) run in scripts/fio-regression.sh [--full].
# Without fio's source (scripts/fio-source.sh: FIO_SRC, build/fio-3.33 or a
# fetch from Debian's archive) or python3, the checks are skipped.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_iogauge
VERDICTS=$E2E_ROOT/tests/e2e/fio-ref/fio-3.33.verdicts
# The fast job tests run here (fio passes all but t0010 and t0013, on which fio 3.33
# hangs here), and those that pass under iogauge today.
JOBS="1 3 4 7 10 13 17 18 19 22 23 25 26"
PASS="1 3 4 7 10 13 17 18 19 22 23 25 26"
MIN_JOBS=11
MIN_EXAMPLES=42
# Examples run here (about 6 s): one of each kind the script runs, the quick ones
# (scripts/fio-regression.sh runs all 40 in 50 s, fio's side too with its record).
RUN_EXAMPLES="aio-read backwards-read basic-verify cmdprio-bssplit cmdprio-percentage cross-stripe-verify \
dedupe-global disk-zone-profile enospc-pressure falloc filedelete-ioengine fio-seq-RW flow fsx \
ftruncate iometer-file-access-server jesd219 latency-profile numa steadystate surface-scan waitfor zipf"

SRC=""
if ! command -v python3 >/dev/null 2>&1; then
	why="no python3 to run fio's t/run-fio-tests.py"
elif ! SRC=$("$E2E_ROOT/scripts/fio-source.sh" 2>"$E2E_TMP/src.err"); then
	why="no fio 3.33 source: $(head -n 1 "$E2E_TMP/src.err")"
	SRC=""
fi
if [ -z "$SRC" ]; then
	skip "fio's regression jobs under iogauge" "$why"
	skip "fio's examples under iogauge fio --parse-only" "$why"
	exit 0
fi

mkdir -p "$E2E_TMP/bin" "$E2E_TMP/ex"
ln -s "$IOGAUGE" "$E2E_TMP/bin/fio"
printf '#!/bin/sh\nexec timeout -k 5 60 "%s" "$@"\n' "$E2E_TMP/bin/fio" >"$E2E_TMP/as-fio"
chmod +x "$E2E_TMP/as-fio"

# ---- fio's job files, judged by fio's own script
# shellcheck disable=SC2086 # the test numbers are words
python3 "$SRC/t/run-fio-tests.py" -r "$SRC" -f "$E2E_TMP/as-fio" -a "$E2E_TMP/art" -k -o $JOBS \
	>"$E2E_TMP/jobs.log" 2>&1
passed=0 fio_passed=0
for t in $JOBS; do
	grep -q "^job $t PASSED" "$VERDICTS" && fio_passed=$((fio_passed + 1))
	v=$(sed -n "s/^Test $t \(PASSED\|FAILED\).*/\1/p" "$E2E_TMP/jobs.log" | head -n 1)
	d=$E2E_TMP/art/$(printf %04d "$t")
	name=$(printf t%04d "$t")
	if [ "$v" = PASSED ]; then
		grep -q "^job $t PASSED" "$VERDICTS" && passed=$((passed + 1))
		pass "$name: fio's own checks pass"
		continue
	fi
	if [[ " $PASS " == *" $t "* ]]; then
		: >"$ERR"
		cat "$d"/*.stderr >"$ERR" 2>/dev/null
		fail "$name: fio's own checks pass" "$(grep -m 1 "^Test $t " "$E2E_TMP/jobs.log")"
		continue
	fi
	# Not passing yet: refused before any I/O, each line naming what, status 2.
	status=$(cat "$d"/*.exitcode 2>/dev/null | grep -v '^0$' | head -n 1)
	first=$(cat "$d"/*.stderr 2>/dev/null | grep -m 1 . | sed 's|^iogauge: [^ ]*/t/jobs/||')
	if [ "$status" = 2 ] && ! cat "$d"/*.stderr | grep -qv '^iogauge: '; then
		pass "$name: refused by name, status 2 ($first)"
	else
		: >"$ERR"
		cat "$d"/*.stderr >"$ERR" 2>/dev/null
		fail "$name: passes, or is refused by name with status 2" "status '$status'; $(grep -m 1 "^Test $t " "$E2E_TMP/jobs.log")"
	fi
done
echo "# fio's job tests here: iogauge passes $passed of the $fio_passed fio passes ($(echo "$JOBS" | wc -w) run)"
check "at least $MIN_JOBS of fio's passing job tests pass under iogauge" [ "$passed" -ge "$MIN_JOBS" ]

# ---- fio's examples through --parse-only
n=0 accepted=0 of_fios=0 wrong=0 unnamed=0
for f in "$SRC"/examples/*.fio; do
	name=$(basename "$f")
	n=$((n + 1))
	(cd "$E2E_TMP/ex" && timeout -k 5 30 "$E2E_TMP/bin/fio" --parse-only "$f" >"$E2E_TMP/ex.out" 2>"$E2E_TMP/ex.err")
	s=$?
	cp "$E2E_TMP/ex.err" "$ERR"
	san_check "fio --parse-only $name"
	fio_ok=0
	grep -q "^example $name ACCEPT" "$VERDICTS" && fio_ok=1
	if [ "$s" -eq 0 ]; then
		accepted=$((accepted + 1))
		[ "$fio_ok" = 1 ] && of_fios=$((of_fios + 1))
		if [ "$fio_ok" = 0 ]; then
			wrong=$((wrong + 1))
			echo "# $name: accepted, though fio 3.33 refuses it here"
		fi
	elif [ "$s" -ne 2 ] || [ ! -s "$E2E_TMP/ex.err" ] || grep -qv '^iogauge: ' "$E2E_TMP/ex.err"; then
		unnamed=$((unnamed + 1))
		echo "# $name: status $s, stderr: $(head -c 200 "$E2E_TMP/ex.err")"
	fi
	[ -s "$E2E_TMP/ex.out" ] && { unnamed=$((unnamed + 1)); echo "# $name: --parse-only wrote on stdout"; }
done
fio_accepts=$(grep -c '^example .* ACCEPT$' "$VERDICTS")
echo "# examples: $n; fio 3.33 accepts $fio_accepts; iogauge accepts $of_fios of those"
check "examples: at least $MIN_EXAMPLES of fio's accepted by --parse-only" [ "$of_fios" -ge "$MIN_EXAMPLES" ]
check "examples: none accepted that fio 3.33 refuses here" [ "$wrong" -eq 0 ]
check "examples: every refusal is status 2 with each line naming what" [ "$unnamed" -eq 0 ]
check "examples: --parse-only created nothing" [ -z "$(ls -A "$E2E_TMP/ex")" ]

# ---- fio's examples run, their bytes against fio's recorded runs
"$E2E_ROOT/scripts/fio-regression.sh" --iogauge "$IOGAUGE" --no-jobs --fio-totals "$VERDICTS" \
	--work "$E2E_TMP/exrun" --examples "$RUN_EXAMPLES" >"$E2E_TMP/exrun.log" 2>&1
s=$?
check "scripts/fio-regression.sh runs fio's examples (status $s)" [ "$s" = 0 ]
for name in $RUN_EXAMPLES; do
	v=$(grep "^verdict $name.fio " "$E2E_TMP/exrun.log")
	v=${v#verdict "$name".fio }
	: >"$ERR"
	cat "$E2E_TMP/exrun/run/$name.fio/iogauge.err" >"$ERR" 2>/dev/null
	san_check "examples/$name.fio"
	case $v in
	"same bytes"*) pass "examples/$name.fio: fio's bytes and requests, job by job" ;;
	"skipped: needs root"*) skip "examples/$name.fio" "${v#skipped: }" ;;
	"differs: "*"by design"*) pass "examples/$name.fio: differs only by design (${v:9:60}...)" ;;
	*)
		fail "examples/$name.fio: fio's bytes and requests, job by job" "$v"
		grep -A20 "^verdict $name.fio " "$E2E_TMP/exrun.log" | sed -n '2,/^example\|^verdict/p' | grep DIFF | head -5 ;;
	esac
done
