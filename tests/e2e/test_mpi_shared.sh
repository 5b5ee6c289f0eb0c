#!/bin/bash
# iogauge-mpi under mpirun (one machine, 4 ranks over shared memory): one
# shared file in segments (block and interleaved) written exactly once and
# read; --stonewall-all with one slow rank; a suite under mpirun.
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

# ---- Shared file: every block written exactly once.  The file starts as a
# pattern (0xff); after the run no block may still hold it, and the writes
# counted are as many as the blocks: so each block was written once.
BS=65536
SIZE=$((1024 * 1024))
NBLK=$((NP * SIZE / BS))
# blocks_left FILE: how many BS blocks still hold the 0xff pattern.
blocks_left() {
	local n=0 k
	head -c $BS /dev/zero | tr '\0' '\377' >"$E2E_TMP/pat"
	for ((k = 0; k < NBLK; k++)); do
		dd if="$1" bs=$BS skip=$k count=1 status=none | cmp -s - "$E2E_TMP/pat" && n=$((n + 1))
	done
	echo $n
}
for layout in block:randwrite interleaved:write; do
	l=${layout%%:*} rw=${layout##*:}
	head -c $((NP * SIZE)) /dev/zero | tr '\0' '\377' >"$D/shared"
	J=$E2E_TMP/shared-$l.json
	mpi_run run --name=s --filename="$D/shared" --shared-file --segment-layout=$l --size=$SIZE \
		--bs=$BS --rw=$rw --direct=1 --allow-overwrite --json="$J"
	expect_status 0 "shared file, $l, $rw: exit status 0"
	merged_checks "$J" 0 write "shared file, $l, $rw"
	check "shared file, $l, $rw: $NBLK writes, and no block of the file left unwritten" \
		[ "$(jget "$J" .jobs[0].write.ios)/$(blocks_left "$D/shared")" = "$NBLK/0" ]
	check "shared file, $l: the file was not made longer" [ "$(stat -c %s "$D/shared")" = $((NP * SIZE)) ]
	rm -f "$D/shared"
done
# Reads of a shared file iogauge creates (rank 0 creates and lays it out, the others wait).
J=$E2E_TMP/shared-read.json
mpi_run run --directory="$D" --shared-file --size=$SIZE --bs=$BS --direct=1 --json="$J" \
	--name=a --rw=read --name=b --segment-layout=interleaved --rw=randread --ioengine=io_uring --iodepth=4
expect_status 0 "shared file reads: exit status 0"
merged_checks "$J" 0 read "shared file, block, sequential reads"
merged_checks "$J" 1 read "shared file, interleaved, random reads (io_uring QD4)"
check "shared file: every rank read the one file" \
	[ "$(jget "$J" .jobs[0].ranks[0].targets[0].path .jobs[0].ranks[3].targets[0].path | sort -u)" = "$D/a.0.0" ]
check "shared file: no file left" dir_empty "$D"
# The ranks lay their own segments of a new shared file out at once: none may cut another's off
# (a truncate to its own end did: 8 runs of 20 failed so here).  Four runs, each of a new file.
runs=""
for k in 1 2 3 4; do
	mpi_run run --directory="$D" --shared-file --size=$SIZE --bs=$BS --direct=1 --name=a --rw=read
	runs="$runs$STATUS"
	[ "$STATUS" = 0 ] && continue
	cp "$ERR" "$E2E_TMP/lay.err"
done
[ -f "$E2E_TMP/lay.err" ] && cp "$E2E_TMP/lay.err" "$ERR" # a failure's words, for the report
check "shared file laid out by every rank at once, four runs: each exit status 0 ($runs)" [ "$runs" = 0000 ]
check "... and no file left" dir_empty "$D"

# ---- --stonewall-all: rank 0 is rate-limited; when a fast rank is done, all stop.
J=$E2E_TMP/stonewall.json
COMMON=(run --name=sw --directory="$D" --size=8m --bs=64k --rw=write --direct=1 --stonewall-all --rank-results=brief)
: >"$ERR"
timeout -k 5 120 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca pml ob1 \
	-np 1 "$MPIBIN" "${COMMON[@]}" --rate=1m --json="$J" : -np $((NP - 1)) "$MPIBIN" "${COMMON[@]}" \
	>"$OUT" 2>"$ERR"
STATUS=$?
san_check "stonewall"
expect_status 0 "--stonewall-all: exit status 0"
left0=$(jget "$J" .jobs[0].rank_spread.left_bytes[0])
check "--stonewall-all: the slow rank stopped with most of its size left ($left0 bytes)" \
	[ "$left0" -gt $((4 * 1024 * 1024)) ]
check "--stonewall-all: stopped by a fast rank finishing its size" \
	[ "$(jget "$J" .cluster.stopped_by)" = "finished its size first (--stonewall-all)" -a "$(jget "$J" .cluster.stopped_by_rank)" != 0 ]
check "--stonewall-all: the merged bytes are what the ranks did, the size minus what was left" \
	[ "$(jget "$J" .jobs[0].write.bytes)" = $((NP * 8 * 1024 * 1024 - $(jget "$J" .jobs[0].left_bytes))) ]
check "--stonewall-all: the report gives every rank's remainder and the stonewalled rate" \
	bash -c "grep -q 'left of the size when stopped' '$OUT' && grep -q 'rank 0: [0-9.]* MiB' '$OUT' && grep -q 'stonewalled' '$OUT'"
# brief_ok: every rank's figures are there, its histograms are not.
brief_ok() {
	[ "$(jget "$J" .jobs[0].ranks_detail '.jobs[0].ranks|length' | tr '\n' ' ')" = "brief $NP " ] &&
		jget "$J" .jobs[0].ranks[1].write.clat_ns.mean >/dev/null &&
		! jget "$J" .jobs[0].ranks[1].write.clat_ns.histogram >/dev/null 2>&1
}
check "--rank-results=brief: each rank's figures without its histograms" brief_ok
check "--stonewall-all: no file left" dir_empty "$D"

# ---- A suite under mpirun: a file per rank, one table.
mpi_run quick --size=4m --runtime=0.1 --ramp_time=0 "$D"
expect_status 0 "quick under mpirun: exit status 0"
check "quick under mpirun: one table, for $NP ranks" \
	bash -c "[ \$(grep -c '^SEQ1M Q8T1' '$OUT') = 1 ] && grep -q '^4 ranks (mpirun)' '$OUT'"
check "quick under mpirun: no file left" dir_empty "$D"

# ---- ioping's lines are rank 0's requests; every rank's follow, merged.
mpi_run latency -c 2 -i 0 "$D"
expect_status 0 "latency under mpirun: exit status 0"
check "latency under mpirun: rank 0's lines and block, then all $NP ranks' figures merged" \
	bash -c "[ \$(grep -c 'request=' '$OUT') = 2 ] && grep -q '^above: rank 0.s requests; all $NP ranks (merged): min/avg/max = ' '$OUT'"
check "latency under mpirun: no file left" dir_empty "$D"
