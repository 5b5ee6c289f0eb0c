#!/bin/bash
# How make test counts (tests/results.sh): a skipped check is counted as
# skipped, never as passed; a script that exits 77 (skip_all: cannot run here)
# is a skipped check, not a failure; cmocka's skipped tests too; the log ends
# with the skipped checks by name and "N passed, N failed, N skipped".
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/results.sh
. "$E2E_ROOT/tests/results.sh"

T=$E2E_TMP/results
mkdir -p "$T" || exit 1

# ---- a log as run-all.sh writes it: TAP lines and a cmocka program's summary
cat >"$T/log" <<'EOF'
== unit: build/san/tests/test_x
[==========] Running 3 test(s).
[ RUN      ] a
[       OK ] a
[ RUN      ] b
[  SKIPPED ] b
[==========] 3 test(s) run.
[  PASSED  ] 2 test(s).
[  SKIPPED ] 1 test(s), listed below:
[  SKIPPED ] test_needs_tmpfs

 1 SKIPPED TEST(S)
== e2e (iogauge): tests/e2e/test_safety.sh
ok - refuses a mounted device
# SKIP btrfs device: mkfs.btrfs not installed
not ok - refuses a swap device
#   failed: swapon --show
ok - an xfs device # SKIP mkfs.xfs not installed
# SKIP tests/e2e/test_mpi.sh with iogauge: mpirun not installed
#   stderr: ok - not a check
# 3 checks, 1 failed, 1 skipped
EOF
tally "$T/log" >"$T/out"
rc=$?
check "skips are counted apart: 3 passed, 1 failed, 4 skipped (got: $(tail -n 1 "$T/out"))" \
	[ "$(tail -n 1 "$T/out")" = "3 passed, 1 failed, 4 skipped" ]
check "a failure makes the tally's status 1" [ "$rc" = 1 ]
check "the skipped checks are named, with where they are and why, before the last line" \
	grep -q "^  e2e (iogauge): tests/e2e/test_safety.sh: btrfs device: mkfs.btrfs not installed$" "$T/out"
check "a skipped cmocka test is named" grep -q "^  unit: build/san/tests/test_x: test_needs_tmpfs" "$T/out"
check "TAP's own skip (ok - NAME # SKIP) is named too" grep -q "an xfs device # SKIP mkfs.xfs not installed$" "$T/out"
check "the list is the four skipped checks, before the failed one" \
	[ "$(tail -n 9 "$T/out" | head -n 1)" = "Skipped (not run here, so not proven):" ]
check "the failed check is named, where it is and why, just before the last line" \
	[ "$(tail -n 4 "$T/out" | head -n 3)" = "$(printf 'Failed:\n  %s\n      %s' \
		"e2e (iogauge): tests/e2e/test_safety.sh: refuses a swap device" "failed: swapon --show")" ]

# ---- one(): scripts that pass, skip a check, skip it all, fail silently
cat >"$T/some.sh" <<EOF
. "$E2E_ROOT/tests/e2e/lib.sh"
pass "a check"
skip "a check that needs xfs" "no xfs here"
EOF
cat >"$T/none.sh" <<EOF
. "$E2E_ROOT/tests/e2e/lib.sh"
skip_all "needs a loop device"
EOF
printf 'exit 3\n' >"$T/dies.sh"
: >"$T/log2"
{
	echo "== e2e: some"
	one "$T/log2" "some.sh" bash "$T/some.sh"
	echo "== e2e: none"
	one "$T/log2" "none.sh" bash "$T/none.sh"
} >>"$T/log2.shown"
cp "$T/log2" "$T/log3"
tally "$T/log2" >"$T/out2"
rc=$?
check "lib.sh's skip() and a script's exit 77 are skipped, not passed or failed (got: $(tail -n 1 "$T/out2"))" \
	[ "$(tail -n 1 "$T/out2")" = "1 passed, 0 failed, 2 skipped" ]
check "nothing failed: status 0" [ "$rc" = 0 ]
check "the script that could not run is named with skip_all's reason" \
	grep -q "^  .*none.sh: needs a loop device$" "$T/out2"
check "lib.sh's skip() never prints ok" grep -q "^# SKIP a check that needs xfs: no xfs here$" "$T/log2"
check "lib.sh's own summary counts the skip apart" grep -q "^# 1 checks, 0 failed, 1 skipped$" "$T/log2"
one "$T/log3" "dies.sh" bash "$T/dies.sh" >/dev/null
tally "$T/log3" >"$T/out3"
check "an exit status other than 0 and 77 without a failure line is a failure" \
	[ "$(tail -n 1 "$T/out3")" = "1 passed, 1 failed, 2 skipped" ]
# A cmocka program's failed tests are named in the list too.
cat >"$T/log4" <<'EOF'
== unit: build/rel/tests/test_y
[==========] 2 test(s) run.
[  PASSED  ] 1 test(s).
[  FAILED  ] 1 test(s), listed below:
[  FAILED  ] test_offsets_wrap

 1 FAILED TEST(S)
EOF
tally "$T/log4" >"$T/out4"
check "a failed cmocka test is named in the list (got: $(tail -n 2 "$T/out4" | head -n 1))" \
	[ "$(tail -n 2 "$T/out4" | head -n 1)" = "  unit: build/rel/tests/test_y: test_offsets_wrap: cmocka" ]

# ---- lib.sh's fio_cached: with IOGAUGE_FIO_CACHE (run-all.sh's, one per run), the same fio job
# (this script's temp dir masked) runs once; its stdout, stderr, status and --output file come back
# the same; another job runs again.  A stand-in fio on PATH counts its runs.
mkdir -p "$T/bin" "$T/cache"
cat >"$T/bin/fio" <<'FIO'
#!/bin/bash
echo run >>"$FIO_RUNS"
for a in "$@"; do case $a in --output=*) echo "file of $*" >"${a#--output=}" ;; esac; done
echo "out of $*"
echo "err of $*" >&2
exit 3
FIO
chmod +x "$T/bin/fio"
export FIO_RUNS=$T/runs
printf '[j]\nfilename=%s/f\n' "$E2E_TMP" >"$T/job.fio"
cached() { PATH=$T/bin:$PATH IOGAUGE_FIO_CACHE=$T/cache fio_cached "$@"; }
cached --name=a --output="$T/o1" "$T/job.fio" >"$T/s1" 2>"$T/e1"
rc1=$?
cached --name=a --output="$T/o2" "$T/job.fio" >"$T/s2" 2>"$T/e2"
rc2=$?
check "fio_cached: the same job twice runs fio once ($(wc -l <"$T/runs") runs)" [ "$(wc -l <"$T/runs")" = 1 ]
if ok [ "$rc1 $rc2" = "3 3" ] && ok cmp -s "$T/s1" "$T/s2" && ok cmp -s "$T/e1" "$T/e2" && ok grep -q "^out of --name=a" "$T/s2"; then
	pass "fio_cached: the second call gives fio's status (3 and $rc2), stdout and stderr"
else
	fail "fio_cached: the second call gives fio's status (3 and $rc2), stdout and stderr" "$WHY"
fi
if ok [ -s "$T/o2" ] && ok cmp -s "$T/o1" "$T/o2"; then
	pass "fio_cached: and fio's --output file, at the path asked"
else
	fail "fio_cached: and fio's --output file, at the path asked" "$WHY"
fi
printf '[j]\nfilename=%s/f\nsize=2m\n' "$E2E_TMP" >"$T/job.fio"
cached --name=a --output="$T/o3" "$T/job.fio" >/dev/null 2>&1
check "fio_cached: a changed job file runs fio again" [ "$(wc -l <"$T/runs")" = 2 ]
PATH=$T/bin:$PATH IOGAUGE_FIO_CACHE= fio_cached --name=a >/dev/null 2>&1
check "fio_cached: without IOGAUGE_FIO_CACHE, fio always runs" [ "$(wc -l <"$T/runs")" = 3 ]
# Two passes at once (make test runs the release and ASan ones side by side): fio runs once.
cat >"$T/bin/fio" <<'FIO'
#!/bin/bash
echo run >>"$FIO_RUNS"
sleep 1
echo "out of $*"
FIO
cached --name=both >"$T/b1" 2>/dev/null &
cached --name=both >"$T/b2" 2>/dev/null
wait $!
if ok [ "$(wc -l <"$T/runs")" = 4 ] && ok grep -q "^out of --name=both" "$T/b1" && ok cmp -s "$T/b1" "$T/b2"; then
	pass "fio_cached: two calls at once run fio once, both get its output"
else
	fail "fio_cached: two calls at once run fio once, both get its output" "$WHY"
fi
# A fio that hangs (fio 3.33's own offload does, now and then): FIO_TIMEOUT ends it, and the
# other pass gets that status without waiting again.
cat >"$T/bin/fio" <<'FIO'
#!/bin/bash
echo run >>"$FIO_RUNS"
exec sleep 60
FIO
FIO_TIMEOUT=1 cached --name=hang >/dev/null 2>&1
rc1=$?
FIO_TIMEOUT=1 cached --name=hang >/dev/null 2>&1
rc2=$?
if ok [ "$rc1 $rc2" = "124 124" ] && ok [ "$(wc -l <"$T/runs")" = 5 ]; then
	pass "fio_cached: FIO_TIMEOUT ends a fio that hangs (124), and the second call keeps that"
else
	fail "fio_cached: FIO_TIMEOUT ends a fio that hangs (124), and the second call keeps that" "$WHY"
fi

# ---- start_iogauge: the last run's output is gone before the call returns.  Emptied by the
# background job alone, a look right after saw it about one time in twenty (an await_bg on
# stdout then matched the run before): forty tries here.
stale=0
for i in $(seq 1 40); do
	echo "Jobs: 2 (f=2) of the last run" >"$OUT"
	echo "the last run's error" >"$ERR"
	IOGAUGE=/bin/true start_iogauge quiet # true prints nothing (but for --help, --version)
	[ -s "$OUT" ] || [ -s "$ERR" ] && stale=$((stale + 1))
	wait "$BGPID"
done
check "start_iogauge: stdout and stderr empty as it returns, 40 times of 40 ($stale stale)" [ "$stale" = 0 ]
# need_json: one jget for every script of a make test (the run's directory keeps it).
(
	export IOGAUGE_FIO_CACHE=$T/run
	mkdir -p "$IOGAUGE_FIO_CACHE"
	need_json
	a=$JGET
	E2E_TMP=$T/other
	mkdir -p "$E2E_TMP"
	need_json
	echo '{"a": 7}' >"$T/j.json"
	[ "$JGET" = "$a" ] && [[ $JGET == "$IOGAUGE_FIO_CACHE"/jget-* ]] && "$JGET" "$T/j.json" .a >"$T/jget.out"
	echo $? >"$T/jget.rc"
)
if ok [ "$(cat "$T/jget.rc")" = 0 ] && ok [ "$(cat "$T/jget.out")" = 7 ]; then
	pass "need_json: the run's jget is built once and shared"
else
	fail "need_json: the run's jget is built once and shared" "$WHY"
fi

# ---- The cleanup detaches a loop device of the list only while its backing file is this
# script's: one the script detached itself may be another test's by then.
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && truncate -s 1M "$E2E_TMP/other.img" &&
	O=$(losetup -f --show "$E2E_TMP/other.img" 2>/dev/null); then
	# A child script whose list names O, a device it never made (as a device it detached and
	# another test then got): its exit must leave O attached.
	(
		E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/iogauge-e2e.XXXXXX")
		E2E_LOOPS=("$O") E2E_MOUNTS=() E2E_SWAPS=() E2E_PIDS=() E2E_PGDIRS=()
		E2E_CHECKS=0 E2E_FAILED=0
		e2e_cleanup # what the EXIT trap runs (a subshell does not inherit the trap)
	) >/dev/null
	if ok [ "$(losetup -n -O BACK-FILE "$O" 2>/dev/null)" = "$E2E_TMP/other.img" ]; then
		pass "cleanup: a listed device another's backing file now holds stays attached"
	else
		fail "cleanup: a listed device another's backing file now holds stays attached" "$WHY"
	fi
	losetup -d "$O"
else
	skip "cleanup: a listed device another's backing file now holds stays attached" "needs root and a loop device"
fi
