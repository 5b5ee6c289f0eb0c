#!/usr/bin/env bash
# bench/trust.sh - the cost of trusting the data, iogauge against Debian's fio in the same run.
#
#   (v) a verified write-then-read of a cached file: the same job (psync, buffered, write
#       FILE_MB MiB in BS blocks, then read every block back and check it) with --verify=crc32c
#       and --verify=xxhash in both tools.  Throughput = bytes written / wall time of the whole
#       process (write, read-back, start and exit), so nothing either tool leaves out of its own
#       figures is missed.  Both overwrite the same fully written file, which stays in the page
#       cache (FILE_MB fits in RAM).  Ratio = iogauge's throughput / fio's (>= 1.0 wanted).
#   (r) random data for writes: the null engine (no I/O at all), BS blocks, time-based;
#       CPU time (user + sys, the process's own rusage) per byte written.  fio with
#       refill_buffers (new random data for every write) against iogauge --data=random (the
#       default).  Ratio = fio's ns/byte / iogauge's (>= 1.0: iogauge is at least as cheap).
#       For scale: fio without refill_buffers and iogauge --data=zero (no data made at all).
#   (z) what a compressor and a deduplicator make of it: a file written by each tool with
#       those settings, through zstd -3 --long=27, gzip -6 and a count of distinct 4 KiB blocks
#       (tests/e2e/blkuniq.c).  Kept fraction = compressed size / file size (1.0: no shrink).
#
# Rounds are interleaved (fio, iogauge, iogauge, fio, ...) and each round's ratio comes from
# two runs made back to back; the median ratio and the min-max are printed.
#
# Environment: ROUNDS=5, FILE_MB=256, BS=4k (v), RBS=64k (r), RUNTIME=3 (r, seconds),
#   TESTS="v r z", IOGAUGE=./iogauge, FIO=fio, BENCH_DIR=/var/tmp (a real disk, FILE_MB free)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
ROUNDS=${ROUNDS:-5}
FILE_MB=${FILE_MB:-256}
BS=${BS:-4k}
RBS=${RBS:-64k}
RUNTIME=${RUNTIME:-3}
TESTS=${TESTS:-v r z}
IOGAUGE=${IOGAUGE:-$repo/iogauge}
FIO=${FIO:-fio}
BENCH_DIR=${BENCH_DIR:-/var/tmp}

die() { echo "trust: $*" >&2; exit 1; }
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer"
[[ -x "$IOGAUGE" ]] || die "no iogauge binary at $IOGAUGE (run: make iogauge)"
for c in "$FIO" python3 zstd gzip gcc; do command -v "$c" >/dev/null || die "$c not found"; done
want() { [[ " $TESTS " == *" $1 "* ]]; }

TMP=$(mktemp -d "$BENCH_DIR/trust.XXXXXX")
trap 'rm -rf -- "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cd "$TMP" # fio leaves its verify state files in the working directory
RES=$TMP/results # lines: KEY TOOL VALUE
LOG=$TMP/log
: >"$RES"

quiet() {
	if ! "$@" >"$LOG" 2>&1; then
		echo "trust: command failed: $*" >&2
		tail -n 20 "$LOG" >&2
		exit 1
	fi
}

# timed KEY TOOL ARGS...: wall seconds and CPU seconds (rusage) of one run; output in $TMP/out.json
timed() {
	local key=$1 tool=$2
	shift 2
	local t
	rm -f "$TMP/out.json"
	if [[ $tool == fio ]]; then
		t=(/usr/bin/time -f "%e %U %S" -o "$TMP/time" "$FIO" --output-format=json --output="$TMP/out.json" "$@")
	else
		t=(/usr/bin/time -f "%e %U %S" -o "$TMP/time" "$IOGAUGE" run --output-format=json --output="$TMP/out.json" "$@")
	fi
	quiet "${t[@]}"
	read -r WALL USR SYS <"$TMP/time"
	CPU=$(python3 -c "print($USR + $SYS)")
}

# written TOOL: bytes written, from the JSON of the last run
written() {
	python3 - "$1" "$TMP/out.json" <<'EOF'
import json, sys
tool, path = sys.argv[1], sys.argv[2]
t = open(path).read()
d = json.loads(t[t.index('{'):])
print(sum((j["write"]["io_bytes"] if tool == "fio" else j["write"]["bytes"]) for j in d["jobs"]))
EOF
}

record() { echo "$1 $2 $3" >>"$RES"; }

echo "trust: fio $("$FIO" --version), iogauge $("$IOGAUGE" --version 2>/dev/null | head -1)" >&2
echo "trust: rounds=$ROUNDS file=${FILE_MB} MiB bs=$BS (v), $RBS for ${RUNTIME} s (r); in $TMP" >&2

# ---- (v) verified write-then-read of a cached file
if want v; then
	F=$TMP/vfile
	dd if=/dev/urandom of="$F" bs=1M count="$FILE_MB" status=none
	V=(--name=v "--filename=$F" --rw=write "--bs=$BS" "--size=${FILE_MB}m" --ioengine=psync --do_verify=1)
	one_v() { # one_v TOOL ALGO ROUND
		if [[ $1 == fio ]]; then
			timed v fio "${V[@]}" "--verify=$2" --verify_fatal=1
		else
			timed v iogauge "${V[@]}" "--verify=$2" --allow-overwrite
		fi
		record "v.$2.$3" "$1" "$(python3 -c "print($FILE_MB * 1048576 / $WALL / 1e6)")"
	}
	for ((r = 1; r <= ROUNDS; r++)); do
		for a in crc32c xxhash; do
			echo "trust: round $r/$ROUNDS (v) verify=$a" >&2
			cat "$F" >/dev/null
			if ((r % 2)); then one_v fio $a $r; one_v iogauge $a $r; else one_v iogauge $a $r; one_v fio $a $r; fi
		done
	done
fi

# ---- (r) random data per byte, null engine
if want r; then
	R=(--name=r --ioengine=null --rw=write "--bs=$RBS" --size=1t --time_based "--runtime=$RUNTIME")
	one_r() { # one_r TOOL KIND ROUND EXTRA...
		local tool=$1 kind=$2 round=$3
		shift 3
		timed r "$tool" "${R[@]}" "$@"
		local b
		b=$(written "$tool")
		record "r.$kind.$round" "$tool" "$(python3 -c "print($CPU * 1e9 / $b)")"
	}
	for ((r = 1; r <= ROUNDS; r++)); do
		echo "trust: round $r/$ROUNDS (r) random data, null engine" >&2
		if ((r % 2)); then
			one_r fio random $r --refill_buffers; one_r iogauge random $r --data=random
		else
			one_r iogauge random $r --data=random; one_r fio random $r --refill_buffers
		fi
		one_r fio none $r
		one_r iogauge none $r --data=zero
	done
fi

# ---- (z) does it shrink?
if want z; then
	gcc -O2 -o "$TMP/blkuniq" "$repo/tests/e2e/blkuniq.c" || die "cannot build tests/e2e/blkuniq.c"
	Z=(--name=z --rw=write --bs=64k --size=64m --ioengine=psync)
	echo "trust: (z) 64 MiB written by each tool, through zstd, gzip and a block count" >&2
	quiet "$IOGAUGE" run "${Z[@]}" "--filename=$TMP/z.iogauge" --data=random --keep
	quiet "$FIO" "${Z[@]}" "--filename=$TMP/z.fio" --refill_buffers
	for t in iogauge fio; do
		f=$TMP/z.$t
		n=$(stat -c %s "$f")
		zs=$(zstd -q -3 --long=27 -c "$f" | wc -c)
		gz=$(gzip -6 -c "$f" | wc -c)
		read -r u total < <("$TMP/blkuniq" "$f")
		printf '  %-8s %s bytes: zstd -3 --long keeps %.4f, gzip -6 keeps %.4f, %s of %s 4 KiB blocks distinct\n' \
			"$t" "$n" "$(python3 -c "print($zs / $n)")" "$(python3 -c "print($gz / $n)")" "$u" "$total"
	done
fi

# ---- summary
python3 - "$RES" <<'EOF'
import sys, statistics as st
rows = {}
for line in open(sys.argv[1]):
    key, tool, v = line.split()
    kind, _, rnd = key.rpartition(".")
    rows.setdefault(kind, {}).setdefault(int(rnd), {})[tool] = float(v)
def show(kind, label, unit, better_high):
    if kind not in rows:
        return
    per = [r for r in rows[kind].values() if "fio" in r and "iogauge" in r]
    ratios = [(r["iogauge"] / r["fio"]) if better_high else (r["fio"] / r["iogauge"]) for r in per]
    fio = st.median(r["fio"] for r in per); iog = st.median(r["iogauge"] for r in per)
    print(f"  {label:44s} fio {fio:10.4g} {unit:9s} iogauge {iog:10.4g} {unit:9s} "
          f"ratio {st.median(ratios):.2f}x (min {min(ratios):.2f}, max {max(ratios):.2f}, {len(ratios)} rounds)")
print("trust: iogauge over fio, median of per-round ratios (> 1.0: iogauge better)")
show("v.crc32c", "(v) verified write+read, crc32c, throughput", "MB/s", True)
show("v.xxhash", "(v) verified write+read, xxhash, throughput", "MB/s", True)
show("r.random", "(r) random data, CPU per byte (refill_buffers)", "ns/B", False)
if "r.none" in rows:
    for tool, what in (("fio", "no refill_buffers"), ("iogauge", "--data=zero")):
        v = st.median(r[tool] for r in rows["r.none"].values() if tool in r)
        print(f"      for scale: {tool} with {what}: {v:.4g} ns/B")
EOF
