#!/usr/bin/env bash
# bench/vs-classic.sh - iogauge dd, latency and cache beside GNU dd, ioping and hdparm.
#
# Each round runs the peer and iogauge back to back on the same target, alternating which goes
# first, and records iogauge's figure over the peer's; the summary prints the median of the
# per-round ratios and their min-max, and the issue's target for it.  Absolute figures are for
# orientation only: the machine is shared.
#
#   (a) dd: the same operands on a loop device over a file in RAM (no shared disk in the way):
#       1M writes from /dev/zero with oflag=direct, 1M reads with iflag=direct, 64k reads with
#       iflag=direct; and 1M writes with oflag=direct to a new file in ext4 on a second RAM-backed
#       loop device (the file removed before each side, so both write into fresh space); MB/s from
#       the bytes line (bytes / seconds).  Target: within +-5%.
#   (b) ioping: -c N -i 0 4 KiB random reads, -D on the RAM-backed loop device, and ioping's
#       default (buffered, the request's pages dropped first) in a directory on the disk; the
#       median of the per-request times of the lines both print.  Target: within 10%.
#   (c) hdparm: -T and -t --direct on the RAM-backed loop device beside iogauge cache's cached
#       read and device read rows (hdparm's "MB" are MiB: converted).  For information.
#
# Environment: ROUNDS=9, QUICK=1 (1 round, fewer requests), TESTS="a b c", IOGAUGE=path,
# BENCH_DIR=dir (a directory on a real disk for (b); default /var/tmp), MB=512 (RAM device size),
# PRIO="chrt -f 10" (a prefix for both tools' commands: on a busy shared machine a real-time class
# keeps other processes from interleaving with the runs; the loop device's worker is not covered).
# Needs root (loop devices, hdparm).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
[[ "${QUICK:-0}" == 1 ]] && ROUNDS=${ROUNDS:-1}
ROUNDS=${ROUNDS:-9}
TESTS=${TESTS:-a b c}
IOGAUGE=${IOGAUGE:-$repo/iogauge}
MB=${MB:-512}
PRIO=${PRIO:-}
NREQ=$([[ "${QUICK:-0}" == 1 ]] && echo 200 || echo 1000)

die() { echo "vs-classic: $*" >&2; exit 1; }
[[ $(id -u) == 0 ]] || die "needs root (loop devices, hdparm)"
[[ -x "$IOGAUGE" ]] || die "no iogauge binary at $IOGAUGE (run: make)"
for c in dd ioping hdparm losetup mkfs.ext4 python3; do command -v $c >/dev/null || die "$c not found"; done
want() { [[ " $TESTS " == *" $1 "* ]]; }

BENCH_DIR=${BENCH_DIR:-/var/tmp}
TMP=$(mktemp -d "$BENCH_DIR/vs-classic.XXXXXX")
LOOP=""
LOOP2=""
cleanup() {
    [[ -n "$LOOP" ]] && losetup -d "$LOOP" 2>/dev/null
    mountpoint -q "$TMP/fs" 2>/dev/null && umount "$TMP/fs"
    [[ -n "$LOOP2" ]] && losetup -d "$LOOP2" 2>/dev/null
    mountpoint -q "$TMP/ram" 2>/dev/null && umount "$TMP/ram"
    rm -rf -- "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
RES=$TMP/results
: >"$RES"
record() { echo "$1 $2 $3 $4" >>"$RES"; } # KEY TOOL ROUND VALUE

mkdir "$TMP/ram" "$TMP/dir" "$TMP/fs"
mount -t tmpfs -o size=$((2 * MB + 160))m tmpfs "$TMP/ram"
head -c $((MB << 20)) /dev/zero >"$TMP/ram/img"
LOOP=$(losetup -f --show --direct-io=on "$TMP/ram/img" 2>/dev/null || losetup -f --show "$TMP/ram/img")
if want a; then
    head -c $(((MB + 128) << 20)) /dev/zero >"$TMP/ram/fs.img"
    LOOP2=$(losetup -f --show --direct-io=on "$TMP/ram/fs.img" 2>/dev/null || losetup -f --show "$TMP/ram/fs.img")
    mkfs.ext4 -q "$LOOP2" && mount "$LOOP2" "$TMP/fs"
fi
echo "vs-classic: RAM-backed loop device $LOOP ($MB MiB), ext4 on $LOOP2, disk directory $TMP/dir" >&2

# ddrate FILE: bytes / seconds of the bytes line in FILE (dd's and iogauge's stderr)
ddrate() {
    python3 - "$1" <<'EOF'
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r"^(\d+) bytes.* copied, ([0-9.e+-]+) s, ", line)
    if m:
        print(int(m.group(1)) / float(m.group(2)) / 1e6)
        sys.exit(0)
sys.exit("no bytes line in " + sys.argv[1])
EOF
}

# median_time FILE: the median of ioping-format "time=X unit" in FILE, in microseconds
median_time() {
    python3 - "$1" <<'EOF'
import re, sys, statistics
mul = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6, "min": 6e7}
t = [float(m.group(1)) * mul[m.group(2)] for m in
     (re.search(r"time=([0-9.]+) (ns|us|ms|s|min)", l) for l in open(sys.argv[1])) if m]
if not t:
    sys.exit("no request lines in " + sys.argv[1])
print(statistics.median(t))
EOF
}

# (a) dd on the RAM-backed device: the same operands for both
dd_case() { # KEY ROUND OPERANDS...
    local key=$1 round=$2 first
    shift 2
    first=$(( round % 2 ))
    for side in $first $((1 - first)); do
        if [[ $side == 0 ]]; then
            rm -f "$TMP/fs/new"
            $PRIO dd "$@" 2>"$TMP/dd.err" || { cat "$TMP/dd.err" >&2; exit 1; }
            record "$key" dd "$round" "$(ddrate "$TMP/dd.err")"
        else
            rm -f "$TMP/fs/new"
            $PRIO "$IOGAUGE" dd "$@" 2>"$TMP/ig.err" || { cat "$TMP/ig.err" >&2; exit 1; }
            record "$key" iogauge "$round" "$(ddrate "$TMP/ig.err")"
        fi
    done
}

# (b) ioping and iogauge latency: the median request time of each
lat_case() { # KEY ROUND ARGS...
    local key=$1 round=$2 first
    shift 2
    first=$(( round % 2 ))
    for side in $first $((1 - first)); do
        if [[ $side == 0 ]]; then
            $PRIO ioping -c "$NREQ" -i 0 "$@" >"$TMP/io.out" 2>&1 || { cat "$TMP/io.out" >&2; exit 1; }
            record "$key" ioping "$round" "$(median_time "$TMP/io.out")"
        else
            $PRIO "$IOGAUGE" latency -c "$NREQ" -i 0 "$@" >"$TMP/lat.out" 2>&1 || { cat "$TMP/lat.out" >&2; exit 1; }
            record "$key" iogauge "$round" "$(median_time "$TMP/lat.out")"
        fi
    done
}

# (c) hdparm -T / -t --direct and iogauge cache's two read rows
hd_case() { # ROUND
    local round=$1 first=$(( $1 % 2 ))
    for side in $first $((1 - first)); do
        if [[ $side == 0 ]]; then
            $PRIO hdparm -T "$LOOP" >"$TMP/hd.out"
            $PRIO hdparm -t --direct "$LOOP" >>"$TMP/hd.out"
            python3 - "$TMP/hd.out" "$RES" "$round" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
with open(sys.argv[2], "a") as out:
    for key, pat in (("T", r"cached reads: +\d+ MB in +[0-9.]+ seconds = +([0-9.]+) (MB|kB)/sec"),
                     ("t", r"disk reads: +\d+ MB in +[0-9.]+ seconds = +([0-9.]+) (MB|kB)/sec")):
        m = re.search(pat, text)
        v = float(m.group(1)) * (1 if m.group(2) == "MB" else 1 / 1024) * 1.048576  # MiB/s -> MB/s
        out.write("hdparm-%s hdparm %s %r\n" % (key, sys.argv[3], v))
EOF
        else
            $PRIO "$IOGAUGE" cache --size "${MB}m" --runtime 3 "$LOOP" >"$TMP/cache.out" 2>&1 ||
                { cat "$TMP/cache.out" >&2; exit 1; }
            record hdparm-T iogauge "$round" "$(awk '/^cached read \(hdparm -T\)/ { print $5 }' "$TMP/cache.out")"
            record hdparm-t iogauge "$round" "$(awk '/^device read \(hdparm -t --direct\)/ { print $6 }' "$TMP/cache.out")"
        fi
    done
}

for ((r = 1; r <= ROUNDS; r++)); do
    echo "vs-classic: round $r/$ROUNDS" >&2
    if want a; then
        dd_case dd-w1m "$r" if=/dev/zero of="$LOOP" bs=1M count=$MB oflag=direct
        dd_case dd-r1m "$r" if="$LOOP" of=/dev/null bs=1M iflag=direct
        dd_case dd-r64k "$r" if="$LOOP" of=/dev/null bs=64k count=$((MB * 4)) iflag=direct
        dd_case dd-wfile "$r" if=/dev/zero of="$TMP/fs/new" bs=1M count=$MB oflag=direct
    fi
    if want b; then
        lat_case ioping-D "$r" -D "$LOOP"
        lat_case ioping-dir "$r" "$TMP/dir"
    fi
    if want c; then
        hd_case "$r"
    fi
done

python3 - "$RES" "$ROUNDS" <<'EOF'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    key, tool, rnd, val = line.split()
    rows.setdefault(key, {}).setdefault(int(rnd), {})[tool] = float(val)
desc = {
    "dd-w1m": ("dd if=/dev/zero of=DEV bs=1M oflag=direct", "MB/s", 5),
    "dd-r1m": ("dd if=DEV of=/dev/null bs=1M iflag=direct", "MB/s", 5),
    "dd-r64k": ("dd if=DEV of=/dev/null bs=64k iflag=direct", "MB/s", 5),
    "dd-wfile": ("dd if=/dev/zero of=NEWFILE bs=1M oflag=direct (ext4)", "MB/s", 5),
    "ioping-D": ("ioping -c N -i 0 -D DEV (median request)", "us", 10),
    "ioping-dir": ("ioping -c N -i 0 DIR on disk (median request)", "us", 10),
    "hdparm-T": ("hdparm -T DEV / cache: cached read", "MB/s", None),
    "hdparm-t": ("hdparm -t --direct DEV / cache: device read", "MB/s", None),
}
print("iogauge vs GNU dd, ioping, hdparm: %s round(s); ratio = iogauge / peer per round, median [min-max];" % sys.argv[2])
print("best = the ratio of each tool's best round (highest MB/s, lowest median latency): steadier on a busy box")
print("%-48s %12s %12s %22s %7s  %s" % ("workload", "peer", "iogauge", "ratio", "best", "target (median ratio)"))
for key in ["dd-w1m", "dd-r1m", "dd-r64k", "dd-wfile", "ioping-D", "ioping-dir", "hdparm-T", "hdparm-t"]:
    if key not in rows:
        continue
    rs = [v["iogauge"] / v[p] for v in rows[key].values() for p in v if p != "iogauge" and v[p] > 0 and "iogauge" in v]
    peer = statistics.median([v[p] for v in rows[key].values() for p in v if p != "iogauge"])
    ig = statistics.median([v["iogauge"] for v in rows[key].values() if "iogauge" in v])
    d, unit, tol = desc[key]
    m = statistics.median(rs)
    pick = min if unit == "us" else max
    best_peer = pick([v[p] for v in rows[key].values() for p in v if p != "iogauge"])
    best_ig = pick([v["iogauge"] for v in rows[key].values() if "iogauge" in v])
    verdict = "" if tol is None else ("within +-%d%%: %s" % (tol, "yes" if abs(m - 1) * 100 <= tol else "NO"))
    print("%-48s %9.1f %-2s %9.1f %-2s %6.3f [%.3f-%.3f] %7.3f  %s" % (d, peer, unit[:2], ig, unit[:2], m, min(rs), max(rs),
                                                                   best_ig / best_peer, verdict))
EOF
