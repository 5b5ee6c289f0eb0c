#!/bin/bash
# iogauge-mpi with file operations (mdtest-style, 4 ranks on one machine):
# create, stat and remove many files per rank in a directory per rank and in
# one shared file set; merged ops/s, histograms and per-rank spread; the
# shared tree holds every rank's items; nothing left behind; one named
# directory for every rank is refused.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_iogauge
need_json
need_cmd mpirun
# The MPI build beside the binary under test (release or ASan).
case $IOGAUGE in
*/build/iogauge-san) MPIBIN=${IOGAUGE_MPI:-$E2E_ROOT/build/iogauge-mpi-san} ;;
*) MPIBIN=${IOGAUGE_MPI:-$(dirname "$IOGAUGE")/iogauge-mpi} ;;
esac
[ -x "$MPIBIN" ] || skip_all "no $MPIBIN (make mpi)"
"$MPIBIN" run --help 2>&1 | grep -q -- '--fileop' || skip_all "no --fileop in $MPIBIN"
NP=4
MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np "$NP" --mca btl self,vader --mca pml ob1)

mpi_run() {
	: >"$ERR"
	timeout -k 5 120 "${MPIRUN[@]}" "$MPIBIN" "$@" >"$OUT" 2>"$ERR"
	STATUS=$?
	san_check "mpirun iogauge-mpi $*"
}
hist_count() {
	jget "$1" "$2" | tr -d '[]' | tr ',' '\n' | awk 'NR % 2 == 0 { s += $1 } END { print s + 0 }'
}

D=$E2E_TMP/d
mkdir "$D" || exit 1
N=40 THREADS=2 PER=$((N * 2)) # items per thread, per rank
ALL=$((NP * PER))
J=$E2E_TMP/md.json

# A directory per rank (%r), then one file set of every rank's items, interleaved
# (every leaf directory holds items of every rank); kept, to look at the tree.
OWN=(--filename="$D/own.%r")
SHARED=(--filename="$D/shared" --shared-file --segment-layout=interleaved)
mpi_run run --keep --nrfiles=$N --numjobs=$THREADS --files_per_dir=8 --json="$J" \
	--name=c --fileop=create "${OWN[@]}" --name=s --stonewall --fileop=stat --file_order=random "${OWN[@]}" \
	--name=u --stonewall --fileop=unlink "${OWN[@]}" \
	--name=sc --stonewall --fileop=create "${SHARED[@]}" --name=ss --stonewall --fileop=stat "${SHARED[@]}"
expect_status 0 "create, stat, unlink per rank, create and stat shared: exit status 0"
k=0
for op in create stat unlink create stat; do
	ios=$(jget "$J" ".jobs[$k].$op.ios")
	sum=0
	for ((r = 0; r < NP; r++)); do
		sum=$((sum + $(jget "$J" ".jobs[$k].ranks[$r].$op.ios")))
	done
	check "job $k ($op): merged ops = $NP ranks x $PER = the sum of the ranks' = the merged histogram's count" \
		[ "$ios/$sum/$(hist_count "$J" ".jobs[$k].$op.clat_ns.histogram")" = "$ALL/$ALL/$ALL" ]
	k=$((k + 1))
done
check "stat found every rank's files (none made before it), per rank and shared" \
	[ "$(jget "$J" .jobs[1].prepared_items .jobs[4].prepared_items | tr '\n' ' ')" = "0 0 " ]
check "the ranks' spread of create ops/s (JSON and text)" \
	bash -c "[ \$('$JGET' '$J' .jobs[0].rank_spread.create.iops.min_rank) -lt $NP ] && grep -q 'create ops/s *min=' '$OUT'"
check "a directory per rank, no file left in them after unlink" \
	[ "$(ls -d "$D"/own.* | wc -l)/$(find "$D"/own.* -type f | wc -l)" = "$NP/0" ]
check "the shared file set: every rank's files in one tree" [ "$(find "$D/shared" -type f | wc -l)" = $ALL ]
# Leaf directories of 8 items numbered k*N+r: each holds 2 of every rank.
mixed() {
	local dir
	for dir in $(find "$D/shared" -name 'f*' -printf '%h\n' | sort -u); do
		[ "$(find "$dir" -name 'f*' -printf '%f\n' | tr -d f | awk -v n=$NP '{ print $1 % n }' | sort -u | wc -l)" = $NP ] ||
			return 1
	done
}
check "interleaved: every leaf directory holds items of all $NP ranks" mixed
rm -rf "${D:?}"/*

# Not kept: rank 0 removes the shared tree with every rank's items, each rank its own.
mpi_run run --nrfiles=$N --files_per_dir=8 --name=c --fileop=create --filename="$D/s" --shared-file \
	--name=o --fileop=create --filename="$D/o.%r"
expect_status 0 "shared (block) and per-rank create, not kept: exit status 0"
check "nothing left behind" dir_empty "$D"

# One directory named for every rank, without %r or --shared-file: refused before anything.
mpi_run run --nrfiles=10 --name=c --fileop=create --filename="$D/one"
expect_status 2 "one --filename for $NP ranks of file operations: refused (exit status 2)"
check "the refusal is one line naming %r and --shared-file" \
	bash -c "[ \$(grep -c '^iogauge' '$ERR') = 1 ] && grep -q 'names one directory for $NP ranks: put %r' '$ERR'"
check "nothing made" dir_empty "$D"
