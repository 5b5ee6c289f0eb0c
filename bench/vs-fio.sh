#!/usr/bin/env bash
# bench/vs-fio.sh - iogauge against Debian's fio on the same workloads.
#
# Runs fio and iogauge interleaved (fio, iogauge, iogauge, fio, ...), ROUNDS rounds, and
# prints iogauge's figure over fio's for each workload: the median of the per-round ratios and
# their min-max.  Each round's ratio comes from two runs made back to back, so machine noise
# (this is meant to run on shared 2-core boxes) hits both sides of a ratio about equally;
# absolute figures are printed only for orientation.
#
#   (a) null engine, 4k randread, QD1, 1 job           - the tool's own per-I/O overhead
#   (b) psync 4k randread, QD1, file in the page cache - syscall path + tool overhead
#   (c) io_uring 4k randread, QD32, O_DIRECT           - device-bound; also CPU s per 1M I/Os
#       (and once more against fio with --iodepth_batch_* set, for information)
#   (d) io_uring 1M seq read / seq write, QD8, O_DIRECT - device-bound bandwidth; as root, also
#       on a loop device over a file in RAM (no shared disk noise; fio with --fixedbufs)
#   (e) user-space instructions per I/O under callgrind, for (a) and (b):
#       (instr(51,200 I/Os) - instr(25,600 I/Os)) / 25,600, so start-up cost cancels out;
#       both tools print their text report (a JSON report with histogram buckets grows with
#       the spread of latencies seen, which would not cancel out).
#
# Environment:
#   ROUNDS=5        rounds of (a)-(d)
#   RUNTIME=5       seconds per timed run
#   QUICK=1         smoke run: 1 round, 2 s (unless ROUNDS/RUNTIME are given too)
#   TESTS="a b c d e"  which workloads to run
#   IOGAUGE=path    iogauge binary (default: the repo's ./iogauge)
#   FIO=fio         fio binary
#   BENCH_DIR=dir   where the temporary test files go (default: /var/tmp unless it is tmpfs,
#                   else bench/ in the repo); needs ~600 MiB free and should be a real disk
#   CG_KEEP=dir     copy the callgrind.out files of (e) to dir (for callgrind_annotate)
#
# Files: one 256 MiB file of random data, written once with dd, is read by both tools
# (--filename, read-only jobs; iogauge may read a file it did not create).  The write test (d)
# writes into a second fully written 256 MiB file made the same way, which both tools share:
# fio writes into it as is, iogauge gets --allow-overwrite.  Sharing one fully written file keeps
# the comparison fair (no tool writes into fresh, unwritten extents that the other one doesn't).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

if [[ "${QUICK:-0}" == 1 ]]; then
    ROUNDS=${ROUNDS:-1}
    RUNTIME=${RUNTIME:-2}
fi
ROUNDS=${ROUNDS:-5}
RUNTIME=${RUNTIME:-5}
TESTS=${TESTS:-a b c d e}
IOGAUGE=${IOGAUGE:-$repo/iogauge}
FIO=${FIO:-fio}
FILE_MB=256

die() { echo "vs-fio: $*" >&2; exit 1; }
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer"
[[ "$RUNTIME" =~ ^[1-9][0-9]*$ ]] || die "RUNTIME must be a positive integer (seconds)"
[[ -x "$IOGAUGE" ]] || die "no iogauge binary at $IOGAUGE (run: make iogauge)"
command -v "$FIO" >/dev/null || die "fio not found"
command -v python3 >/dev/null || die "python3 not found"
want() { [[ " $TESTS " == *" $1 "* ]]; }
if want e; then command -v valgrind >/dev/null || die "valgrind not found (drop e from TESTS)"; fi

# --- temp dir on a real file system --------------------------------------------------------
if [[ -z "${BENCH_DIR:-}" ]]; then
    BENCH_DIR=/var/tmp
    if [[ "$(stat -f -c %T "$BENCH_DIR" 2>/dev/null)" == tmpfs ]]; then BENCH_DIR=$here; fi
fi
[[ "$(stat -f -c %T "$BENCH_DIR")" != tmpfs ]] ||
    echo "vs-fio: warning: $BENCH_DIR is tmpfs; O_DIRECT tests will fail or mean nothing" >&2
TMP=$(mktemp -d "$BENCH_DIR/vs-fio.XXXXXX")
RAMLOOP=""             # (d) on a RAM-backed loop device, when root
cleanup() {
    [[ -n "$RAMLOOP" ]] && losetup -d "$RAMLOOP" 2>/dev/null
    mountpoint -q "$TMP/ram" 2>/dev/null && umount "$TMP/ram"
    rm -rf -- "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

DATA=$TMP/data          # read by both tools
WDATA=$TMP/wdata        # written by both tools in (d)
RES=$TMP/results        # lines: KEY TOOL ROUND VALUE
LOG=$TMP/log
: >"$RES"

# --- JSON parsing ---------------------------------------------------------------------------
cat >"$TMP/parse.py" <<'EOF'
# parse.py TOOL FILE -> "iops bw_bytes cpu_s ios" (read + write summed over jobs)
import json, sys
tool, path = sys.argv[1], sys.argv[2]
text = open(path).read()
d = json.loads(text[text.index('{'):])      # fio may print notes before the JSON
iops = bw = cpu = ios = 0.0
for j in d["jobs"]:
    for dd in ("read", "write"):
        s = j.get(dd) or {}
        if tool == "fio":
            iops += s.get("iops", 0); bw += s.get("bw_bytes", 0); ios += s.get("total_ios", 0)
        else:
            iops += s.get("iops", 0); bw += s.get("bw_bytes", 0); ios += s.get("ios", 0)
    if tool == "fio":
        # usr_cpu/sys_cpu: percent of the job's runtime (ms)
        cpu += (j["usr_cpu"] + j["sys_cpu"]) / 100.0 * j["job_runtime"] / 1000.0
    else:
        cpu += (j["cpu"]["usr_ns"] + j["cpu"]["sys_ns"]) / 1e9
        if j.get("buffered_fallback"):
            print("vs-fio: warning: iogauge fell back to buffered I/O (%s)" % j.get("io_mode"),
                  file=sys.stderr)
print(repr(iops), repr(bw), repr(cpu), repr(ios))
EOF

# record KEY TOOL ROUND VALUE
record() { echo "$1 $2 $3 $4" >>"$RES"; }

# quiet CMD...: run with stdout/stderr to the log; on failure show the log and stop
quiet() {
    if ! "$@" >"$LOG" 2>&1; then
        echo "vs-fio: command failed: $*" >&2
        tail -n 30 "$LOG" >&2
        exit 1
    fi
}

# bench KEY TOOL ROUND ARGS... : one timed run, records KEY.iops, KEY.bw, KEY.cpu (s per 1M I/Os)
bench() {
    local key=$1 tool=$2 round=$3; shift 3
    local out=$TMP/out.json
    rm -f "$out"
    if [[ $tool == fio ]]; then
        quiet "$FIO" --thread --output-format=json --output="$out" "$@"
    else
        quiet "$IOGAUGE" run --quiet --output-format=json --output="$out" "$@"
    fi
    local vals iops bw cpu ios
    vals=$(python3 "$TMP/parse.py" "$tool" "$out")
    read -r iops bw cpu ios <<<"$vals"
    record "$key.iops" "$tool" "$round" "$iops"
    record "$key.bw" "$tool" "$round" "$bw"
    record "$key.cpu" "$tool" "$round" "$(python3 -c "import sys; c,n=map(float,sys.argv[1:]); print(c/n*1e6 if n else 0)" "$cpu" "$ios")"
}

cached() { cat "$DATA" >/dev/null; }   # pull the whole file into the page cache

# --- the test files -------------------------------------------------------------------------
echo "vs-fio: fio $("$FIO" --version), $("$IOGAUGE" --version 2>/dev/null | head -1 || echo iogauge)" >&2
echo "vs-fio: rounds=$ROUNDS runtime=${RUNTIME}s tests='$TESTS' files in $TMP" >&2
dd if=/dev/urandom of="$DATA" bs=1M count=$FILE_MB conv=fsync status=none
if want d; then dd if=/dev/urandom of="$WDATA" bs=1M count=$FILE_MB conv=fsync status=none; fi

T=(--time_based "--runtime=$RUNTIME")
A_ARGS=(--name=a --ioengine=null --rw=randread --bs=4k --size=1g "${T[@]}")
B_ARGS=(--name=b "--filename=$DATA" "--size=${FILE_MB}m" --ioengine=psync --rw=randread --bs=4k
        --invalidate=0 "${T[@]}")
C_ARGS=(--name=c "--filename=$DATA" "--size=${FILE_MB}m" --ioengine=io_uring --iodepth=32 --direct=1
        --rw=randread --bs=4k "${T[@]}")
DR_ARGS=(--name=dr "--filename=$DATA" "--size=${FILE_MB}m" --ioengine=io_uring --iodepth=8 --direct=1
         --rw=read --bs=1m "${T[@]}")
DW_ARGS=(--name=dw "--filename=$WDATA" "--size=${FILE_MB}m" --ioengine=io_uring --iodepth=8 --direct=1
         --rw=write --bs=1m "${T[@]}")

# --- (a)-(d): interleaved rounds ------------------------------------------------------------
# (d) once more on a loop device over a file in RAM: no host disk or cache in the way, so the
# accuracy check is not drowned in the shared disk's noise.  fio gets --fixedbufs
# --registerfiles there, since iogauge registers its buffers and file: the same kernel work.
if want d && [[ $(id -u) == 0 ]] && command -v losetup >/dev/null; then
    mkdir "$TMP/ram"
    mount -t tmpfs -o size=$((FILE_MB + 64))m tmpfs "$TMP/ram"
    dd if=/dev/urandom of="$TMP/ram/img" bs=1M count=$FILE_MB status=none
    RAMLOOP=$(losetup -f --show --direct-io=on "$TMP/ram/img")
    LR_ARGS=(--name=lr "--filename=$RAMLOOP" "--size=${FILE_MB}m" --ioengine=io_uring --iodepth=8
             --direct=1 --rw=read --bs=1m "${T[@]}")
    LW_ARGS=(--name=lw "--filename=$RAMLOOP" "--size=${FILE_MB}m" --ioengine=io_uring --iodepth=8
             --direct=1 --rw=write --bs=1m "${T[@]}")
fi

# pair KEY ROUND "FIO-EXTRA" "IOGAUGE-EXTRA" ARGS...: both tools on the same workload, the order
# swapped every round, so neither always runs right after the other's writes (a device or host
# cache still flushing the first run's data would otherwise always slow the second).
pair() {
    local key=$1 r=$2 fx=$3 ix=$4; shift 4
    local -a fa ia
    read -r -a fa <<<"$fx"
    read -r -a ia <<<"$ix"
    if ((r % 2)); then
        bench "$key" fio "$r" "$@" "${fa[@]}"; bench "$key" iogauge "$r" "$@" "${ia[@]}"
    else
        bench "$key" iogauge "$r" "$@" "${ia[@]}"; bench "$key" fio "$r" "$@" "${fa[@]}"
    fi
}
BATCH="--iodepth_batch_submit=32 --iodepth_batch_complete_min=1 --iodepth_batch_complete_max=32"

for ((r = 1; r <= ROUNDS; r++)); do
    if want a; then
        echo "vs-fio: round $r/$ROUNDS (a) null 4k randread" >&2
        pair a "$r" "" "" "${A_ARGS[@]}"
    fi
    if want b; then
        echo "vs-fio: round $r/$ROUNDS (b) psync 4k randread, cached" >&2
        cached
        pair b "$r" "" "" "${B_ARGS[@]}"
    fi
    if want c; then
        echo "vs-fio: round $r/$ROUNDS (c) io_uring 4k randread QD32 direct" >&2
        pair c "$r" "" "" "${C_ARGS[@]}"
        # fio's defaults enter the kernel once per I/O at QD32; with batching it is a
        # harder peer.  Reported beside (c), not instead of it.
        echo "vs-fio: round $r/$ROUNDS (c) the same, fio with batched submit/complete" >&2
        pair cb "$r" "$BATCH" "" "${C_ARGS[@]}"
    fi
    if want d; then
        echo "vs-fio: round $r/$ROUNDS (d) io_uring 1M seq read/write QD8 direct" >&2
        pair dr "$r" "" "" "${DR_ARGS[@]}"
        pair dw "$r" "" "--allow-overwrite" "${DW_ARGS[@]}"
        if [[ -n "$RAMLOOP" ]]; then
            echo "vs-fio: round $r/$ROUNDS (d) the same on a RAM-backed loop device" >&2
            pair lr "$r" "--fixedbufs --registerfiles" "" "${LR_ARGS[@]}"
            pair lw "$r" "--fixedbufs --registerfiles" "--allow-destroy" "${LW_ARGS[@]}"
        fi
    fi
done

# --- (e): instructions per I/O under callgrind ----------------------------------------------
# Size-bound runs of 25,600 and 51,200 4k I/Os (100m and 200m); every callgrind.out file of a run
# (one per process; valgrind follows threads itself) is summed.
cg_instr() {    # cg_instr PREFIX -> total Ir over PREFIX.* files
    python3 - "$1" <<'EOF'
import glob, sys
total = 0
for f in glob.glob(sys.argv[1] + ".*"):
    val = None
    for line in open(f, errors="replace"):
        if line.startswith("totals:") or (val is None and line.startswith("summary:")):
            val = int(line.split()[1])
    if val is None:
        sys.exit("no totals/summary line in " + f)
    total += val
print(total)
EOF
}
if want e; then
    mkdir -p "$TMP/cg"
    for t in a b; do
        for tool in fio iogauge; do
            for mb in 100 200; do
                echo "vs-fio: (e) callgrind $t $tool ${mb}m" >&2
                prefix=$TMP/cg/$t-$tool-$mb
                if [[ $t == a ]]; then
                    args=(--name=a --ioengine=null --rw=randread --bs=4k "--size=${mb}m")
                else
                    cached
                    args=(--name=b --filename="$DATA" --ioengine=psync --rw=randread --bs=4k
                          "--size=${mb}m" --invalidate=0)
                fi
                vg=(valgrind --tool=callgrind --trace-children=yes "--callgrind-out-file=$prefix.%p")
                # Text output on both sides: its size does not grow with the run (JSON
                # histograms do, with the latencies seen), so the difference is the I/O path.
                if [[ $tool == fio ]]; then
                    quiet "${vg[@]}" "$FIO" --thread --output="$TMP/out.txt" "${args[@]}"
                else
                    quiet "${vg[@]}" "$IOGAUGE" run --quiet --output="$TMP/out.txt" "${args[@]}"
                fi
                # the difference only means something if both runs read exactly mb MiB
                io=$(sed -n 's/^ *READ: .*io=\([0-9.]*\) *MiB.*/\1/p' "$TMP/out.txt" | head -1)
                [[ "${io%.*}" == "$mb" ]] || die "(e) $tool $t ${mb}m read ${io:-?} MiB, not $mb"
                record "e$t.instr$mb" "$tool" 1 "$(cg_instr "$prefix")"
            done
        done
    done
    if [[ -n "${CG_KEEP:-}" ]]; then mkdir -p "$CG_KEEP" && cp "$TMP"/cg/* "$CG_KEEP"/; fi
fi

# --- the table ------------------------------------------------------------------------------
python3 - "$RES" "$ROUNDS" "$RUNTIME" <<'EOF'
import sys, statistics
from collections import defaultdict
res, rounds, runtime = sys.argv[1], sys.argv[2], sys.argv[3]
v = defaultdict(dict)                      # v[key][tool] = {round: value}
for line in open(res):
    key, tool, rnd, val = line.split()
    v[key].setdefault(tool, {})[int(rnd)] = float(val)

def ratios(key):
    f, g = v[key].get("fio", {}), v[key].get("iogauge", {})
    return [g[r] / f[r] for r in sorted(f) if r in g and f[r] > 0]

def med(key, tool):
    return statistics.median(v[key][tool].values())

rows = []   # (workload, metric, fio, iogauge, ratio text, target text, verdict)
def add(name, key, metric, scale, fmt, lo=None, hi=None, target=""):
    if key not in v:
        return
    rs = ratios(key)
    if not rs:
        return
    m = statistics.median(rs)
    rtxt = "%.3f [%.3f-%.3f]" % (m, min(rs), max(rs))
    ok = (lo is None or m >= lo) and (hi is None or m <= hi)
    rows.append((name, metric, fmt % (med(key, "fio") * scale), fmt % (med(key, "iogauge") * scale),
                 rtxt, target, "ok" if ok else "MISS"))

add("(a) null 4k randread QD1", "a.iops", "IOPS", 1, "%.0f", lo=1.8, target=">= 1.8x")
add("(b) psync 4k randread cached", "b.iops", "IOPS", 1, "%.0f", lo=1.15, target=">= 1.15x")
add("(c) io_uring 4k randread QD32 dio", "c.iops", "IOPS", 1, "%.0f", lo=0.98, target=">= 0.98x")
add("(c) io_uring 4k randread QD32 dio", "c.cpu", "CPU s/1M IO", 1, "%.2f", hi=0.50, target="<= 0.50x")
add("(c) vs fio with batching", "cb.iops", "IOPS", 1, "%.0f", target="(informative)")
add("(c) vs fio with batching", "cb.cpu", "CPU s/1M IO", 1, "%.2f", target="(informative)")
add("(d) io_uring 1M seq read QD8 dio", "dr.bw", "MB/s", 1e-6, "%.1f", lo=0.95, hi=1.05, target="0.95-1.05x")
add("(d) io_uring 1M seq write QD8 dio", "dw.bw", "MB/s", 1e-6, "%.1f", lo=0.95, hi=1.05, target="0.95-1.05x")
add("(d) 1M seq read, RAM loop dev", "lr.bw", "MB/s", 1e-6, "%.1f", lo=0.95, hi=1.05, target="0.95-1.05x")
add("(d) 1M seq write, RAM loop dev", "lw.bw", "MB/s", 1e-6, "%.1f", lo=0.95, hi=1.05, target="0.95-1.05x")

for t, name in (("a", "(e) callgrind (a) null"), ("b", "(e) callgrind (b) psync cached")):
    k1, k2 = "e%s.instr100" % t, "e%s.instr200" % t
    if k1 not in v or k2 not in v:
        continue
    per = {tool: (v[k2][tool][1] - v[k1][tool][1]) / 25600.0 for tool in ("fio", "iogauge")}
    r = per["iogauge"] / per["fio"] if per["fio"] else float("nan")
    rows.append((name, "instr/IO (user)", "%.0f" % per["fio"], "%.0f" % per["iogauge"],
                 "%.3f" % r, "<= 300 instr", "ok" if per["iogauge"] <= 300 else "MISS"))

hdr = ("workload", "metric", "fio", "iogauge", "iogauge/fio median [min-max]", "target", "")
w = [max(len(str(row[i])) for row in rows + [hdr]) for i in range(len(hdr))]
print("iogauge vs fio: %s round(s), %s s per run; ratio = iogauge / fio per round, median [min-max];"
      % (rounds, runtime))
print("fio and iogauge columns are medians of the absolute figures (noisy; for orientation only)")
for row in [hdr, tuple("-" * n for n in w)] + rows:
    print("  ".join(str(c).ljust(w[i]) if i < 2 or i >= 4 else str(c).rjust(w[i])
                    for i, c in enumerate(row)).rstrip())
EOF
