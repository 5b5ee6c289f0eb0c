#!/usr/bin/env bash
# bench/merge.sh - what merging rank results costs (docs/scale.md quotes it).
#
# 1. The merge of 1,024 rank results in one process (bench/merge_bench.c): each rank's job
#    packed into its fixed-size buffer, the 1,023 combines a reduction does, the unpack on
#    rank 0, checked equal to stats_merge of all; and, beside it, the same merge from every
#    rank's saved JSON.  CPU times.
# 2. The real MPI_Reduce of such buffers with iogauge-mpi's operation on -np 2, 4, 8, 16 ranks
#    of this machine (oversubscribed when there are fewer cores: an upper bound), fitted as
#    a + b*log2(N) and extrapolated to 10, 1,000 and 100,000 ranks.
# 3. iogauge-mpi itself on -np 2, 4, 8, 16: a tiny write job per rank (256 KiB, in a temporary
#    directory under TMPDIR), RUNS runs each: rank 0's whole merge (cluster.merge_ns: reduction,
#    gathers, agreements), the start-barrier skew (cluster.start_skew_ns), and the size of one
#    rank's JSON object (--rank-results=full and brief).
#
# Environment: RANKS=1024 (step 1), SAMPLES=20000 (requests per rank), NPS="2 4 8 16", REPS=100,
# RUNS=5.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
RANKS=${RANKS:-1024}
SAMPLES=${SAMPLES:-20000}
NPS=${NPS:-2 4 8 16}
REPS=${REPS:-100}
RUNS=${RUNS:-5}
command -v mpicc >/dev/null || { echo "merge.sh: mpicc not found (scripts/deps.sh installs openmpi)" >&2; exit 1; }

make -s -C "$repo" iogauge iogauge-mpi >/dev/null
bin=$repo/build/merge_bench
objs=$(find "$repo/build/rel/src" -name '*.o' ! -name main.o)
libs=$(sed -n 's/^LIBS *= *//p' "$repo/Makefile")
# shellcheck disable=SC2086 # the object and library lists
mpicc -O2 -g -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -pthread -I"$repo/src" -Wall -Wextra -Werror \
	-o "$bin" "$here/merge_bench.c" $objs $libs

echo "== merge of $RANKS rank results in one process"
"$bin" "$RANKS" "$SAMPLES" | tee "$repo/build/merge_bench.out"

echo
echo "== MPI_Reduce of one job's buffer over N ranks of this machine ($(nproc) cores)"
fit=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$fit" "$work"' EXIT
for np in $NPS; do
	mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca pml ob1 -np "$np" \
		"$bin" "$RANKS" "$SAMPLES" "$REPS" | tee -a "$fit"
done
awk '
	# Fit t = c0 + c1 * log2(N) by least squares, for the medians and for the minima.
	function fit(ys, label,    i, sx, sy, sxx, sxy, c0, c1, k, n) {
		for (i = 0; i < m; i++) { sx += x[i]; sy += ys[i]; sxx += x[i] * x[i]; sxy += x[i] * ys[i] }
		c1 = (m * sxy - sx * sy) / (m * sxx - sx * sx); c0 = (sy - c1 * sx) / m
		printf "fit (%s): t(N) = %.1f us + %.1f us x log2(N)\n", label, c0, c1
		split("10 1000 100000", ns, " ")
		for (k = 1; k <= 3; k++) {
			n = ns[k]
			printf "  N = %6d (%2.0f levels): %10.1f us\n", n, log(n) / log(2), c0 + c1 * log(n) / log(2)
		}
	}
	BEGIN { m = 0 }
	/^MPI_REDUCE/ {
		split($2, np, "="); split($4, med, "="); split($5, mn, "=")
		x[m] = log(np[2]) / log(2); ymed[m] = med[2]; ymin[m] = mn[2]; m++
	}
	END {
		if (m < 2) exit
		print ""
		fit(ymed, "medians")
		fit(ymin, "minima")
		# np=2 is one level of the tree with a core per rank: its time per level, times the levels.
		if (x[0] == 1) {
			printf "per level at np=2 (no oversubscription): t(N) = %.1f us x ceil(log2(N))\n", ymin[0]
			split("10 1000 100000", ns, " ")
			for (k = 1; k <= 3; k++) {
				n = ns[k]; l = log(n) / log(2); l = (l == int(l)) ? l : int(l) + 1
				printf "  N = %6d: %10.1f us\n", n, ymin[0] * l
			}
		}
	}' "$fit"

echo
echo "== iogauge-mpi: rank 0's whole merge and the start-barrier skew, $RUNS runs of a 256 KiB write per rank"
jget=$work/jget
gcc -O1 -o "$jget" "$repo/tests/e2e/jget.c" -ljansson
for np in $NPS; do
	merge="" skew=""
	for ((i = 0; i < RUNS; i++)); do
		mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca pml ob1 -np "$np" \
			"$repo/iogauge-mpi" run --name=m --directory="$work" --size=256k --bs=64k --rw=write \
			--output-format=json >"$work/r.json"
		merge+="$("$jget" "$work/r.json" .cluster.merge_ns) "
		skew+="$("$jget" "$work/r.json" .cluster.start_skew_ns) "
	done
	med() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] / 1e6 }'; }
	echo "IOGAUGE_MPI np=$np merge_ms_median=$(med <<<"$merge") start_skew_ms_median=$(med <<<"$skew") (merge_ns: $merge; start_skew_ns: $skew)"
done
for mode in full brief; do
	mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca pml ob1 -np 2 \
		"$repo/iogauge-mpi" run --name=m --directory="$work" --size=256k --bs=64k --rw=write \
		--rank-results=$mode --output-format=json >"$work/r.json"
	echo "JSON of one rank's job object, --rank-results=$mode: $("$jget" "$work/r.json" .jobs[0].ranks[1] | wc -c) bytes (4 writes of 64 KiB: few buckets used; step 1 gives the latencies of a long run)"
done
