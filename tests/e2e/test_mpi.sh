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
mpi_run run --name=t --filename="$D/f.%r" --size=1m --bs=64k --rw=write --keep \
	--rank-results=none --json="$E2E_TMP/none.json"
check "--filename with %r: a file per rank" \
	[ "$(ls "$D" | sort | tr '\n' ' ')" = "f.0 f.1 f.2 f.3 " ]
check "--rank-results=none: no rank's job object, the merged one whole" \
	[ "$(jget "$E2E_TMP/none.json" .jobs[0].ranks_detail '.jobs[0].ranks|length' .jobs[0].write.bytes | tr '\n' ' ')" = "none 0 4194304 " ]
rm -f "$D"/*

# One named file written by every rank is refused, once, by rank 0, before any I/O.
mpi_run run --name=t --filename="$D/one" --size=1m --bs=64k --rw=write
expect_status 2 "one --filename written by $NP ranks: refused (exit status 2)"
check "the refusal is one line (rank 0's) naming the rank, the host and %r" \
	bash -c "[ \$(grep -c '^iogauge' '$ERR') = 1 ] && grep -Eq '^iogauge: rank 0 on .* and 3 other ranks: .*%r' '$ERR'"
check "the refused file was never created" [ ! -e "$D/one" ]

# hist_count FILE PATH: the sum of a sparse histogram's counts.
hist_count() {
	jget "$1" "$2" | tr -d '[]' | tr ',' '\n' | awk 'NR % 2 == 0 { s += $1 } END { print s + 0 }'
}

# merged_checks FILE JOB OP NAME: the merged figures are the sums of every rank's.
merged_checks() {
	local f=$1 j=$2 op=$3 name=$4 sum_b=0 sum_i=0 k b i
	local mb mi
	mb=$(jget "$f" ".jobs[$j].$op.bytes")
	mi=$(jget "$f" ".jobs[$j].$op.ios")
	for ((k = 0; k < NP; k++)); do
		b=$(jget "$f" ".jobs[$j].ranks[$k].$op.bytes")
		i=$(jget "$f" ".jobs[$j].ranks[$k].$op.ios")
		sum_b=$((sum_b + b))
		sum_i=$((sum_i + i))
	done
	check "$name: merged bytes = $NP x the size asked ($mb)" [ "$mb" = $((NP * SIZE)) ]
	check "$name: merged bytes = the sum of the ranks' bytes" [ "$mb" = "$sum_b" ]
	check "$name: merged histogram count = merged I/Os = the sum of the ranks' I/Os ($mi)" \
		[ "$(hist_count "$f" ".jobs[$j].$op.clat_ns.histogram")/$sum_i/$(jget "$f" ".jobs[$j].$op.clat_ns.samples")" = "$mi/$mi/$mi" ]
}

# File per process: sequential and random writes and reads, one run, four stonewall groups.
SIZE=$((2 * 1024 * 1024))
J=$E2E_TMP/fpp.json
mpi_run run --directory="$D" --size=$SIZE --bs=64k --direct=1 --json="$J" \
	--name=w --rw=write --name=rw --rw=randwrite --ioengine=io_uring --iodepth=4 --stonewall \
	--name=r --rw=read --stonewall --name=rr --rw=randread --ioengine=libaio --iodepth=4 --stonewall
expect_status 0 "file per process, 4 jobs: exit status 0"
merged_checks "$J" 0 write "file per process, sequential writes"
merged_checks "$J" 1 write "file per process, random writes (io_uring QD4)"
merged_checks "$J" 2 read "file per process, sequential reads"
merged_checks "$J" 3 read "file per process, random reads (libaio QD4)"
check "async engine: merged slat histogram count = I/Os" \
	[ "$(hist_count "$J" .jobs[1].write.slat_ns.histogram)" = "$(jget "$J" .jobs[1].write.ios)" ]
check "JSON: every rank's own job object, in rank order" \
	[ "$(jget "$J" '.jobs[0].ranks|length' .jobs[0].ranks[3].rank .jobs[0].ranks[2].targets[0].path | tr '\n' ' ')" = "4 3 $D/w.0.0.r2 " ]
check "JSON: every rank's job object in full (4 ranks, --rank-results=auto)" \
	[ "$(jget "$J" .jobs[0].ranks_detail)" = full -a "$(hist_count "$J" .jobs[0].ranks[1].write.clat_ns.histogram)" = $((SIZE / 65536)) ]
check "JSON: the cluster object (ranks, hosts)" \
	[ "$(jget "$J" .cluster.ranks_n .cluster.hosts_n '.cluster.ranks|length' | tr '\n' ' ')" = "4 1 4 " ]
check "JSON: rank 0's time in the merge" [ "$(jget "$J" .cluster.merge_ns)" -gt 0 ]
check "text: one report, from rank 0, with the ranks' spread" \
	bash -c "[ \$(grep -c '^Run status group 0' '$OUT') = 1 ] && grep -q '^Ranks: 4 on 1 host' '$OUT' && grep -q 'write MB/s *min=' '$OUT'"
check "file per process: no file left" dir_empty "$D"


# The merged JSON is a result like any other: compare and report read it unchanged.
run_iogauge compare "$J" "$J"
check "compare reads the merged JSON (the merged figures of every job)" \
	bash -c "[ $STATUS = 0 ] && grep -q '^w: write MB/s' '$OUT' && grep -q '^rr: read p99 latency us' '$OUT'"
run_iogauge report "$J" --html="$E2E_TMP/fpp.html"
check "report writes a page from the merged JSON" bash -c "[ $STATUS = 0 ] && [ -s '$E2E_TMP/fpp.html' ]"
check "the page plots each rank's per-second series beside the aggregate" \
	bash -c "grep -q '\"label\":\"w (all ranks)\"' '$E2E_TMP/fpp.html' && grep -q '\"label\":\"rr rank 3 (' '$E2E_TMP/fpp.html'"
