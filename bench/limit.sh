#!/usr/bin/env bash
# bench/limit.sh - iogauge against the physical limit, three comparisons side by side in one run.
#
#   (1) psync 4 KiB random reads of a file in the page cache: iogauge, with all its latency
#       statistics, against bench/bare_pread.c, a loop of pread calls with no clock and no
#       statistics (fio beside them, for information).  Target: iogauge's IOPS >= 0.95x the
#       bare loop's; the same for IOPS per CPU second (CPU time per request, which a loaded
#       machine disturbs less than wall time).  The bare loop runs twice a round: bare2/bare
#       is the noise floor, the same program against itself.
#   (2) io_uring 4 KiB random reads, QD 32, O_DIRECT, on a RAM-backed loop device: iogauge with
#       its defaults against fio 3.33's peak tool t/io_uring (built from fio's source, with its
#       batched submit and complete, fixed buffers, registered files and ring, no polling) for
#       IOPS, target >= 1.00x; and against fio at its best settings for CPU per request,
#       target <= 1.00x (FIO_BEST: fixed buffers, registered files, batches of 32 submitted and
#       reaped; no sqthread, no hipri), iogauge once with its defaults (it waits for the first
#       completion, so no request's completion is stamped late) and once with fio's very
#       options ("iogauge-b").
#   (3) fresh data for every write: 512 KiB and 1 MiB random writes, QD 64, O_DIRECT, on the
#       RAM-backed loop: iogauge's user CPU per byte (every write's data generated fresh)
#       against fio's with its default buffers (filled once, then lightly scrambled per write),
#       target <= 1.00x; bandwidth beside it.
#   Each for every thread count in THREADS (numjobs; t/io_uring -n; the bare loop's threads).
#
# The machine is shared and noisy, so the tools run interleaved: in each of PAIRS rounds every
# comparison's tools run back to back, the order reversed every other round, and each round
# gives a ratio; the table shows the median ratio and its range.  The absolute figures beside
# them are medians too, for orientation only.
#
# Environment:
#   PAIRS=5          rounds (at least 5 for the medians the targets are judged by)
#   RUNTIME=5        seconds per run
#   THREADS="1 2"    thread counts
#   TESTS="psync uring data"
#   QUICK=1          smoke run: PAIRS=1, RUNTIME=2 (unless given)
#   IOGAUGE=path     iogauge binary (default: the repo's ./iogauge)
#   FIO=fio          fio binary;  TIOU=path  t/io_uring (default: built from scripts/fio-source.sh)
#   FIO_BEST="..."   fio's options for (2)'s CPU comparison
#   BENCH_DIR=dir    where the cached file (256 MiB) goes (default /var/tmp; a real file system)
#   RAM_MB=512       size of the RAM-backed loop device (its tmpfs is capped at RAM_MB + 16 MiB)
#   RESULTS=file     keep the raw figures there (lines: KEY TOOL ROUND VALUE)
# (2) and (3) need root (a tmpfs and a loop device); without it they are skipped.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=bench/ramloop.sh
. "$here/ramloop.sh"

if [[ "${QUICK:-0}" == 1 ]]; then
	PAIRS=${PAIRS:-1}
	RUNTIME=${RUNTIME:-2}
fi
PAIRS=${PAIRS:-5}
RUNTIME=${RUNTIME:-5}
THREADS=${THREADS:-1 2}
TESTS=${TESTS:-psync uring data}
IOGAUGE=${IOGAUGE:-$repo/iogauge}
FIO=${FIO:-fio}
FIO_BEST=${FIO_BEST:---fixedbufs --registerfiles --iodepth_batch_submit=32 --iodepth_batch_complete_min=32 --iodepth_batch_complete_max=32}
BENCH_DIR=${BENCH_DIR:-/var/tmp}
RAM_MB=${RAM_MB:-512}
FILE_MB=256

die() { echo "limit: $*" >&2; exit 1; }
[[ "$PAIRS" =~ ^[1-9][0-9]*$ ]] || die "PAIRS must be a positive integer"
[[ "$RUNTIME" =~ ^[1-9][0-9]*$ ]] || die "RUNTIME must be a positive integer (seconds)"
[[ -x "$IOGAUGE" ]] || die "no iogauge binary at $IOGAUGE (run: make)"
command -v "$FIO" >/dev/null || die "fio not found"
command -v python3 >/dev/null || die "python3 not found"
command -v cc >/dev/null || die "no C compiler (cc) for bench/bare_pread.c"
want() { [[ " $TESTS " == *" $1 "* ]]; }

TMP=$(mktemp -d "$BENCH_DIR/limit.XXXXXX")
cleanup() {
	set +e
	ramloop_drop
	rm -rf -- "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
RES=$TMP/results # lines: KEY TOOL ROUND VALUE
LOG=$TMP/log
: >"$RES"

# --- the peers ------------------------------------------------------------------------------
BARE=$TMP/bare_pread
cc -O2 -Wall -pthread -o "$BARE" "$here/bare_pread.c" || die "cannot build bench/bare_pread.c"
if ! want uring && ! want data; then
	:
elif ! ramloop_make "$TMP" "$RAM_MB"; then
	echo "limit: no RAM-backed loop device: (2) and (3) skipped" >&2
	TESTS=${TESTS//uring/}
	TESTS=${TESTS//data/}
fi
if want uring && [[ -z "${TIOU:-}" ]]; then
	# fio 3.33's source tree (fetched and checked by fio-source.sh), its t/io_uring built in place.
	if src=$("$repo/scripts/fio-source.sh") && { [[ -x "$src/t/io_uring" ]] ||
		{ (cd "$src" && ./configure --disable-native >"$TMP/fio-configure.log" 2>&1 &&
			make -j2 t/io_uring >"$TMP/fio-make.log" 2>&1) && [[ -x "$src/t/io_uring" ]]; }; }; then
		TIOU=$src/t/io_uring
	else
		echo "limit: no t/io_uring (fio 3.33's source could not be had or built): (2) compares with fio alone" >&2
	fi
fi

# --- one run of each tool -------------------------------------------------------------------
record() { echo "$1 $2 $3 $4" >>"$RES"; }

quiet() {
	if ! "$@" >"$LOG" 2>&1; then
		echo "limit: command failed: $*" >&2
		tail -n 30 "$LOG" >&2
		exit 1
	fi
}

# json_sum TOOL FILE DIR -> "iops bytes_per_s usr_ns sys_ns ios bytes", summed over the jobs
json_sum() {
	python3 - "$@" <<'EOF'
import json, sys
tool, path, dd = sys.argv[1:4]
text = open(path).read()
d = json.loads(text[text.index('{'):])
iops = bw = usr = sys_ = ios = byt = 0.0
for j in d["jobs"]:
    s = j.get(dd) or {}
    iops += s.get("iops", 0); bw += s.get("bw_bytes", 0)
    if tool == "fio":
        ios += s.get("total_ios", 0); byt += s.get("io_bytes", 0)
        t = j["job_runtime"] / 1000.0
        usr += j["usr_cpu"] / 100.0 * t * 1e9; sys_ += j["sys_cpu"] / 100.0 * t * 1e9
    else:
        ios += s.get("ios", 0); byt += s.get("bytes", 0)
        usr += j["cpu"]["usr_ns"]; sys_ += j["cpu"]["sys_ns"]
print(iops, bw, usr, sys_, ios, byt)
EOF
}

# tool_run KEY TOOL ROUND DIR ARGS...: iogauge or fio; records KEY.iops, KEY.cpu (ns per request),
# KEY.usr (user ns per KiB), KEY.bw (MB/s)
tool_run() {
	local key=$1 tool=$2 r=$3 dd=$4 out=$TMP/out.json
	shift 4
	rm -f "$out"
	if [[ $tool == fio ]]; then
		quiet "$FIO" --thread --output-format=json --output="$out" "$@"
	else
		quiet "$IOGAUGE" run --quiet --output-format=json --output="$out" "$@"
	fi
	local iops bw usr sys ios byt
	read -r iops bw usr sys ios byt <<<"$(json_sum "$tool" "$out" "$dd")"
	python3 - "$key" "$tool" "$r" "$iops" "$bw" "$usr" "$sys" "$ios" "$byt" >>"$RES" <<'EOF'
import sys
k, t, r = sys.argv[1:4]
iops, bw, usr, sy, ios, byt = map(float, sys.argv[4:])
print(k + ".iops", t, r, iops)
print(k + ".bw", t, r, bw / 1e6)
if ios:
    print(k + ".cpu", t, r, (usr + sy) / ios)
if byt:
    print(k + ".usr", t, r, usr / byt * 1024)
EOF
}

# bare_run KEY ROUND THREADS [NAME]
bare_run() {
	local iops usr sys ios name=${4:-bare}
	read -r iops usr sys ios <<<"$("$BARE" "$DATA" 4096 "$RUNTIME" "$3")"
	record "$1.iops" "$name" "$2" "$iops"
	record "$1.cpu" "$name" "$2" "$(python3 -c "import sys; u,s,n=map(float,sys.argv[1:]); print((u+s)*1e9/n)" "$usr" "$sys" "$ios")"
}

# tiou_run KEY ROUND THREADS: t/io_uring at QD 32; IOPS is the mean of its per-second lines
tiou_run() {
	local out=$TMP/tiou.out
	/usr/bin/time -f "TIME %U %S %e" "$TIOU" -d32 -s32 -c32 -b4096 -p0 -B1 -F1 -X1 -O1 -R1 -n"$3" \
		-r$((RUNTIME + 1)) "$RAMLOOP" >"$out" 2>&1 || { tail -n 20 "$out" >&2; die "t/io_uring failed"; }
	python3 - "$out" "$1" "$2" >>"$RES" <<'EOF'
import re, sys
path, key, r = sys.argv[1:4]
t = open(path).read()
v = [float(m.group(1)) * {"": 1, "K": 1e3, "M": 1e6}[m.group(2)]
     for m in re.finditer(r"^IOPS=([0-9.]+)([KM]?),", t, re.M)]
if not v:
    sys.exit("limit: no IOPS lines from t/io_uring:\n" + t[-2000:])
u, s, e = map(float, re.search(r"TIME ([0-9.]+) ([0-9.]+) ([0-9.]+)", t).groups())
iops = sum(v) / len(v)
print(key + ".iops", "tiou", r, iops)
print(key + ".cpu", "tiou", r, (u + s) * 1e9 / (iops * e))
EOF
}

# --- the workloads ---------------------------------------------------------------------------
T=(--time_based "--runtime=$RUNTIME")
DATA=$TMP/data
if want psync; then
	dd if=/dev/urandom of="$DATA" bs=1M count=$FILE_MB conv=fsync status=none
fi

psync_round() {
	local n=$1 r=$2 key=p$1
	local -a a=(--name=p "--filename=$DATA" "--size=${FILE_MB}m" --ioengine=psync --rw=randread --bs=4k
		--invalidate=0 "--numjobs=$n" "${T[@]}")
	cat "$DATA" >/dev/null
	if ((r % 2)); then
		bare_run "$key" "$r" "$n"; tool_run "$key" iogauge "$r" read "${a[@]}"
		tool_run "$key" fio "$r" read "${a[@]}"; bare_run "$key" "$r" "$n" bare2
	else
		bare_run "$key" "$r" "$n" bare2; tool_run "$key" fio "$r" read "${a[@]}"
		tool_run "$key" iogauge "$r" read "${a[@]}"; bare_run "$key" "$r" "$n"
	fi
}

uring_round() {
	local n=$1 r=$2 key=u$1
	local -a a=(--name=u "--filename=$RAMLOOP" --ioengine=io_uring --iodepth=32 --direct=1 --rw=randread
		--bs=4k "--numjobs=$n" "${T[@]}")
	local -a best
	read -r -a best <<<"$FIO_BEST"
	if ((r % 2)); then
		[[ -n "${TIOU:-}" ]] && tiou_run "$key" "$r" "$n"
		tool_run "$key" iogauge "$r" read "${a[@]}"
		tool_run "$key" iogauge-b "$r" read "${a[@]}" "${best[@]}"
		tool_run "$key" fio "$r" read "${a[@]}" "${best[@]}"
	else
		tool_run "$key" fio "$r" read "${a[@]}" "${best[@]}"
		tool_run "$key" iogauge-b "$r" read "${a[@]}" "${best[@]}"
		tool_run "$key" iogauge "$r" read "${a[@]}"
		[[ -n "${TIOU:-}" ]] && tiou_run "$key" "$r" "$n"
	fi
	return 0
}

data_round() {
	local n=$1 r=$2 bs=$3 key=d$3.$1
	local -a a=(--name=d "--filename=$RAMLOOP" --ioengine=io_uring --iodepth=64 --direct=1 --rw=randwrite
		"--bs=$bs" "--numjobs=$n" "${T[@]}")
	if ((r % 2)); then
		tool_run "$key" fio "$r" write "${a[@]}"; tool_run "$key" iogauge "$r" write "${a[@]}" --allow-destroy
	else
		tool_run "$key" iogauge "$r" write "${a[@]}" --allow-destroy; tool_run "$key" fio "$r" write "${a[@]}"
	fi
}

echo "limit: $("$IOGAUGE" --version 2>/dev/null | head -1), fio $("$FIO" --version), ${TIOU:+t/io_uring $TIOU, }$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "limit: pairs=$PAIRS runtime=${RUNTIME}s threads='$THREADS' tests='$TESTS' ${RAMLOOP:+RAM loop $RAMLOOP (${RAM_MB} MiB)}" >&2
for ((r = 1; r <= PAIRS; r++)); do
	for n in $THREADS; do
		if want psync; then
			echo "limit: round $r/$PAIRS, $n thread(s): (1) psync 4k randread, cached" >&2
			psync_round "$n" "$r"
		fi
		if want uring; then
			echo "limit: round $r/$PAIRS, $n thread(s): (2) io_uring 4k randread QD32 O_DIRECT, RAM loop" >&2
			uring_round "$n" "$r"
		fi
		if want data; then
			for bs in 512k 1m; do
				echo "limit: round $r/$PAIRS, $n thread(s): (3) $bs randwrite QD64, fresh data, RAM loop" >&2
				data_round "$n" "$r" "$bs"
			done
		fi
	done
done

[[ -n "${RESULTS:-}" ]] && cp "$RES" "$RESULTS"

# --- the table -------------------------------------------------------------------------------
python3 - "$RES" "$PAIRS" "$RUNTIME" "$THREADS" "$FIO_BEST" <<'EOF'
import sys, statistics
from collections import defaultdict
res, pairs, runtime, threads, best = sys.argv[1:6]
v = defaultdict(dict)
for line in open(res):
    key, tool, rnd, val = line.split()
    v[key].setdefault(tool, {})[int(rnd)] = float(val)

rows = []
def add(name, key, metric, num, den, fmt, lo=None, hi=None, invert=False):
    a, b = v.get(key, {}).get(num, {}), v.get(key, {}).get(den, {})
    rs = [(b[r] / a[r] if invert else a[r] / b[r]) for r in sorted(a) if r in b and a[r] > 0 and b[r] > 0]
    if not rs:
        return
    m = statistics.median(rs)
    ok = (lo is None or m >= lo) and (hi is None or m <= hi)
    target = (">= %.2f" % lo) if lo is not None else ("<= %.2f" % hi) if hi is not None else "(info)"
    rows.append((name, metric, "%s/%s" % (num, den),
                 fmt % statistics.median(a.values()), fmt % statistics.median(b.values()),
                 "%.3f [%.3f-%.3f]" % (m, min(rs), max(rs)), target,
                 "" if target == "(info)" else "ok" if ok else "MISS"))

for n in threads.split():
    add("(1) psync 4k randread cached, %s thr" % n, "p%s.iops" % n, "IOPS", "iogauge", "bare", "%.0f", lo=0.95)
    add("", "p%s.cpu" % n, "IOPS per CPU s", "iogauge", "bare", "%.0f ns/IO", lo=0.95, invert=True)
    add("", "p%s.iops" % n, "IOPS", "fio", "bare", "%.0f")
    add("", "p%s.iops" % n, "IOPS", "bare2", "bare", "%.0f")
    add("", "p%s.cpu" % n, "IOPS per CPU s", "bare2", "bare", "%.0f ns/IO", invert=True)
    add("(2) io_uring QD32 4k dio RAM loop, %s thr" % n, "u%s.iops" % n, "IOPS", "iogauge", "tiou", "%.0f", lo=1.0)
    add("", "u%s.cpu" % n, "CPU per IO", "iogauge", "fio", "%.0f ns", hi=1.0)
    add("", "u%s.cpu" % n, "CPU per IO", "iogauge-b", "fio", "%.0f ns", hi=1.0)
    add("", "u%s.cpu" % n, "CPU per IO", "iogauge", "tiou", "%.0f ns")
    add("", "u%s.iops" % n, "IOPS", "iogauge", "fio", "%.0f")
    for bs in ("512k", "1m"):
        add("(3) %s randwrite QD64 RAM loop, %s thr" % (bs, n), "d%s.%s.usr" % (bs, n), "user CPU per byte",
            "iogauge", "fio", "%.1f ns/KiB", hi=1.0)
        add("", "d%s.%s.bw" % (bs, n), "bandwidth", "iogauge", "fio", "%.0f MB/s")

hdr = ("comparison", "metric", "A/B", "A", "B", "ratio median [min-max]", "target", "")
w = [max(len(str(row[i])) for row in rows + [hdr]) for i in range(len(hdr))]
print("iogauge at the limit: %s round(s) of %s s runs, interleaved; ratio per round, median [min-max]" % (pairs, runtime))
print("A, B: the median absolute figures of the two sides (noisy; for orientation); IOPS per CPU s:")
print("B's CPU time per request over A's (A and B show the CPU times)")
print("bare: bench/bare_pread.c; tiou: fio 3.33's t/io_uring -d32 -s32 -c32 -p0 -B1 -F1 -X1;")
print("fio and iogauge-b in (2): %s" % best)
for row in [hdr, tuple("-" * n for n in w)] + rows:
    print("  ".join(str(c).ljust(w[i]) if i < 3 or i >= 6 else str(c).rjust(w[i]) for i, c in enumerate(row)).rstrip())
EOF
