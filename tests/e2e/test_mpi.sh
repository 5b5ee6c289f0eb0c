#!/bin/bash
# iogauge-mpi under mpirun (one machine, 4 ranks over shared memory): the plain
# binary has no MPI; iogauge-mpi alone is iogauge; every rank runs the jobs
# on its own files (named with the rank) and removes them.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_iogauge
need_json
need_cmd mpirun ldd
# The MPI build beside the binary under test (release or ASan).
case $IOGAUGE in
*/build/iogauge-san) MPIBIN=${IOGAUGE_MPI:-$E2E_ROOT/build/iogauge-mpi-san} ;;
*) MPIBIN=${IOGAUGE_MPI:-$(dirname "$IOGAUGE")/iogauge-mpi} ;;
esac
[ -x "$MPIBIN" ] || skip_all "no $MPIBIN (make mpi)"
NP=4
# One machine, no network: shared memory between the ranks only.
MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np "$NP" --mca btl self,vader --mca pml ob1)

# mpi_run ARGS...: iogauge-mpi on NP ranks; sets STATUS, stdout in $OUT, stderr in $ERR.
mpi_run() {
	: >"$ERR"
	timeout -k 5 120 "${MPIRUN[@]}" "$MPIBIN" "$@" >"$OUT" 2>"$ERR"
	STATUS=$?
	san_check "mpirun iogauge-mpi $*"
}

D=$E2E_TMP/d
mkdir "$D" || exit 1

# The plain binary stays free of MPI; the MPI build links it.
if ldd "$IOGAUGE" | grep -qi mpi; then
	fail "ldd iogauge shows no MPI library" "$(ldd "$IOGAUGE" | grep -i mpi)"
else
	pass "ldd iogauge shows no MPI library"
fi
check "ldd iogauge-mpi shows libmpi" bash -c "ldd '$MPIBIN' | grep -q libmpi"

# Not under mpirun: exactly iogauge (the same file names, the same JSON keys).
J1=$E2E_TMP/plain.json J2=$E2E_TMP/alone.json
run_iogauge run --name=t --directory="$D" --size=1m --bs=64k --rw=write --output-format=json
cp "$OUT" "$J1"
IOGAUGE=$MPIBIN run_iogauge run --name=t --directory="$D" --size=1m --bs=64k --rw=write --output-format=json
cp "$OUT" "$J2"
expect_status 0 "iogauge-mpi alone: exit status 0"
check "iogauge-mpi alone: the test file is named as iogauge names it" \
	[ "$(jget "$J2" .jobs[0].targets[0].path)" = "$D/t.0.0" ]
check "iogauge-mpi alone: the same JSON keys as iogauge" \
	[ "$(jget "$J1" '.|keys' '.jobs[0]|keys' '.jobs[0].write|keys')" = "$(jget "$J2" '.|keys' '.jobs[0]|keys' '.jobs[0].write|keys')" ]
check "iogauge-mpi alone: no file left" dir_empty "$D"

# File per process: each rank its own file, named with its rank; all removed.
mpi_run run --name=t --directory="$D" --size=1m --bs=64k --rw=write --keep
expect_status 0 "mpirun -np $NP, file per process: exit status 0"
check "file per process: one file per rank, named with the rank" \
	[ "$(ls "$D" | sort | tr '\n' ' ')" = "t.0.0.r0 t.0.0.r1 t.0.0.r2 t.0.0.r3 " ]
rm -f "$D"/*
mpi_run run --name=t --directory="$D" --size=1m --bs=64k --rw=randwrite
check "file per process: no file left" dir_empty "$D"
mpi_run run --name=t --filename="$D/f.%r" --size=1m --bs=64k --rw=write --keep
check "--filename with %r: a file per rank" \
	[ "$(ls "$D" | sort | tr '\n' ' ')" = "f.0 f.1 f.2 f.3 " ]
rm -f "$D"/*

# One named file written by every rank is refused, once, by rank 0, before any I/O.
mpi_run run --name=t --filename="$D/one" --size=1m --bs=64k --rw=write
expect_status 2 "one --filename written by $NP ranks: refused (exit status 2)"
check "the refusal is one line (rank 0's) naming the rank, the host and %r" \
	bash -c "[ \$(grep -c '^iogauge' '$ERR') = 1 ] && grep -Eq '^iogauge: rank 0 on .* and 3 other ranks: .*%r' '$ERR'"
check "the refused file was never created" [ ! -e "$D/one" ]
