#!/bin/bash
# iogauge-mpi --save (one machine, 2 ranks over shared memory): exactly one result is saved, by
# rank 0, with the figures merged over the ranks (what --json writes); a store that refuses is
# refused on every rank before anything is measured; show prints what rank 0 printed.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_iogauge
need_json
need_cmd mpirun sqlite3
# The MPI build beside the binary under test (release or ASan).
case $IOGAUGE in
*/build/iogauge-san) MPIBIN=${IOGAUGE_MPI:-$E2E_ROOT/build/iogauge-mpi-san} ;;
*) MPIBIN=${IOGAUGE_MPI:-$(dirname "$IOGAUGE")/iogauge-mpi} ;;
esac
[ -x "$MPIBIN" ] || skip_all "no $MPIBIN (make mpi)"
NP=2
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
DB=$E2E_TMP/results.db
mkdir "$D" || exit 1

mpi_run run --name=t --directory="$D" --size=1m --bs=64k --rw=write --save=mpi --db="$DB" --json="$E2E_TMP/mpi.json"
cp "$OUT" "$E2E_TMP/mpi.out"
if ok [ "$STATUS" -eq 0 ] && ok [ "$(sqlite3 "$DB" "SELECT count(*) FROM results")" = 1 ] &&
	ok [ "$(grep -c "saved as result 1, label mpi" "$ERR")" = 1 ]; then
	pass "mpirun -np $NP --save=mpi: one result saved, said once"
else fail "mpirun -np $NP --save=mpi: one result saved, said once" "$WHY: $(head -c 300 "$ERR")"; fi
run_iogauge show --db="$DB" --output-format=json mpi
cp "$OUT" "$E2E_TMP/saved.json"
if ok [ "$(jget "$E2E_TMP/saved.json" .jobs[0].write.bytes)" = $((NP * 1048576)) ] &&
	ok [ "$(jget "$E2E_TMP/saved.json" .jobs[0].ranks_n)" = "$NP" ] &&
	ok cmp -s "$E2E_TMP/saved.json" "$E2E_TMP/mpi.json"; then
	pass "the saved result is rank 0's merged one: both ranks' bytes, as --json wrote it"
else fail "the saved result is rank 0's merged one: both ranks' bytes, as --json wrote it" "$WHY"; fi
iops=$(sqlite3 "$DB" "SELECT value FROM figures WHERE job = 't' AND dir = 'write' AND metric = 'iops'")
check "the stored IOPS are the merged job's ($iops)" \
	awk -v a="$iops" -v b="$(jget "$E2E_TMP/mpi.json" .jobs[0].write.iops)" 'BEGIN { d = a - b; exit !(b > 0 && d < 1e-6 * b && d > -1e-6 * b) }'
run_iogauge show --db="$DB" mpi
check "show prints what rank 0 printed" cmp -s "$OUT" "$E2E_TMP/mpi.out"

# A store that refuses: every rank stops before measuring, exit 2, said once, nothing written.
mpi_run run --name=t --directory="$D" --size=1m --bs=64k --rw=write --save=mpi --db="$D"
if ok [ "$STATUS" -eq 2 ] && ok [ ! -s "$OUT" ] && ok [ "$(grep -c "a directory, not a store; refused before measuring" "$ERR")" = 1 ] &&
	ok dir_empty "$D" && ok [ "$(sqlite3 "$DB" "SELECT count(*) FROM results")" = 1 ]; then
	pass "mpirun --save into a directory: refused on every rank before measuring, one line, exit 2"
else fail "mpirun --save into a directory: refused on every rank before measuring, one line, exit 2" "$WHY: $(head -c 300 "$ERR")"; fi
