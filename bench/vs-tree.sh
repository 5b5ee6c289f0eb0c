#!/usr/bin/env bash
# bench/vs-tree.sh - iogauge tree beside seed 003's tools on the same tree: tar | dd, md5sum,
# xxhsum and zstd.
#
# The tree is built once by `iogauge tree --make-tree --keep` on a real disk (BENCH_DIR), synced
# (a dirty page cannot be dropped), and read by each pair in turn, interleaved round by round,
# which side goes first alternating.  Both sides are run the same way, by one helper: every
# file's pages dropped (fadvise DONTNEED), the bytes still resident counted (mincore), the
# command timed by its wall clock (the whole process or pipeline: start, walk, reads, exit),
# and the bytes it had read from the device taken from /proc/self/io (read_bytes of the
# helper's reaped children: the pipeline's every process).  A side whose device bytes fall
# short of the tree's, or that found pages resident, is flagged CACHED in the summary.
#
# iogauge gives two rates: the one it prints (its reads alone: its walk, listed before the
# clock starts, and its own cache drop excluded) and its wall-clock rate taken like the
# peer's.  The summary gives per pair the median of iogauge / peer over the rounds and its
# min-max for both (target: within 10%), and the device bytes of each side.
#
# Why the uncapped figures differ (measured 2026-12 on the shared VM disk, 2 CPUs, see
# CHANGELOG): every side reads the same bytes from the device (read_bytes = the tree, nothing
# resident), and the device is busy for about the same time; the rest is each tool's CPU.
# tar | dd copies every byte twice more through a pipe in 10 KiB records (two processes on
# two busy CPUs); cat allocates a fresh 128 KiB buffer per file (mmap, 32 page faults,
# munmap: half its kernel time on a VM); zstd 1.5's CLI reads on a second thread
# (--asyncio, on by default even with --single-thread) while iogauge's stream reads then
# compresses, so the zstd pair runs --no-asyncio (one thread, as one stream).  With the device
# the bottleneck (RAM_MB + THROTTLE) the tools' overheads hide behind it and the ratios meet.
#
#   tar    `tar cf - DIR | dd of=/dev/null bs=1M`            vs  iogauge tree --streams=1
#   tarz   `tar cf - DIR >/dev/zero` (tar alone, no pipe: tar skips reading for /dev/null
#          only)                                              vs  --streams=1  (information)
#   cat    `find DIR -type f -print0 | xargs -0 cat >/dev/null` vs  --streams=1 (a plain reader)
#   md5    `find DIR -type f -print0 | xargs -0 md5sum`        vs  --streams=1 --hash=md5
#   xxh    `... | xargs -0 xxhsum`                            vs  --streams=1 --hash=xxhash
#   zstd   `... | xargs -0 zstd --single-thread --no-asyncio -q -c >/dev/null`
#                                                             vs  --streams=1 --compress=zstd
#          (level 3; one thread as one stream)
#   tar4   the tree's top directories through `xargs -P4` tar | dd (seed 003's tardevnull.sh
#          with --max-procs=4)                                vs  --streams=4..4 (information:
#          the split differs, a directory a stream against runs of equal bytes)
# Each pair also checks it read the same bytes (md5 and xxhash: the same checksums; zstd: the
# same compressed bytes, counted by `| wc -c` in a run of its own, not timed).
#
# Environment: ROUNDS=5, QUICK=1 (2 rounds, a smaller tree), FILES=600, FILESIZE=4k-4m,
# BENCH_DIR=/var/tmp (a directory on a real disk), IOGAUGE=path, PAIRS="tar tarz cat md5 xxh
# zstd tar4"; RAM_MB=N: the tree on ext4 on a RAM-backed loop device of N MiB instead (root),
# THROTTLE=M: its reads capped at M MB/s (cgroup v1 blkio), a steady "disk" on a busy machine.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
[[ "${QUICK:-0}" == 1 ]] && { ROUNDS=${ROUNDS:-2}; FILES=${FILES:-200}; }
ROUNDS=${ROUNDS:-5}
FILES=${FILES:-600}
FILESIZE=${FILESIZE:-4k-4m}
PAIRS=${PAIRS:-tar tarz cat md5 xxh zstd tar4}
IOGAUGE=${IOGAUGE:-$repo/iogauge}
PATH=/usr/bin:$PATH

die() { echo "vs-tree: $*" >&2; exit 1; }
[[ -x "$IOGAUGE" ]] || die "no iogauge binary at $IOGAUGE (run: make)"
for c in tar dd md5sum xxhsum zstd python3 xargs find; do command -v $c >/dev/null || die "$c not found"; done
want() { [[ " $PAIRS " == *" $1 "* ]]; }

BENCH_DIR=${BENCH_DIR:-/var/tmp}
TMP=$(mktemp -d "$BENCH_DIR/vs-tree.XXXXXX")
LOOP=""
cleanup() {
    mountpoint -q "$TMP/fs" 2>/dev/null && umount "$TMP/fs"
    [[ -n "$LOOP" ]] && losetup -d "$LOOP"
    if [[ -n "${CG:-}" && -d "$CG" ]]; then
        echo $$ >/sys/fs/cgroup/blkio/cgroup.procs 2>/dev/null || true
        rmdir "$CG" 2>/dev/null || true
    fi
    rm -rf -- "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
RES=$TMP/results
: >"$RES"

WHERE=$TMP
if [[ -n "${RAM_MB:-}" ]]; then
    # ext4 on a loop device over a file in RAM: no other helper's I/O in the way; THROTTLE=N
    # caps its reads at N MB/s (cgroup v1 blkio) so both sides meet the same "disk".
    [[ $(id -u) == 0 ]] || die "RAM_MB needs root (loop devices)"
    img=$(mktemp /dev/shm/vs-tree.XXXXXX)
    truncate -s "${RAM_MB}M" "$img"
    LOOP=$(losetup -f --show "$img")
    rm -f "$img"
    mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP"
    mkdir "$TMP/fs" && mount "$LOOP" "$TMP/fs"
    WHERE=$TMP/fs
    if [[ -n "${THROTTLE:-}" ]]; then
        [[ -d /sys/fs/cgroup/blkio ]] || die "THROTTLE needs cgroup v1 blkio"
        CG=/sys/fs/cgroup/blkio/vs-tree.$$
        mkdir "$CG"
        echo "$(lsblk -dno MAJ:MIN "$LOOP" | tr -d ' ') $((THROTTLE * 1000000))" >"$CG/blkio.throttle.read_bps_device"
        echo $$ >"$CG/cgroup.procs"
    fi
fi

"$IOGAUGE" tree --make-tree --keep --tree-files="$FILES" --tree-filesize="$FILESIZE" --data=compress=50 \
    --streams=1 --quiet --json="$TMP/built.json" "$WHERE" >/dev/null
T=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tree"]["targets"][0]["tree"]["root"])' \
    "$TMP/built.json")
BYTES=$(find "$T" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
sync # written back: fadvise DONTNEED leaves dirty pages in the cache
echo "vs-tree: $FILES files, $BYTES bytes in $T ($(df --output=source "$T" | tail -1)), $ROUNDS rounds"

# side OUT COMMAND: drop every file's pages, count what stayed, run COMMAND (bash -c, stdout to
# OUT), print "wall_ns device_read_bytes resident_bytes cpu_s" (both sides of a pair use it alike;
# cpu_s: user + system seconds of every process it ran).
cat >"$TMP/side.py" <<'PY'
import ctypes, mmap, os, resource, subprocess, sys, time
root, out, cmd = sys.argv[1:4]
libc = ctypes.CDLL(None, use_errno=True)
files = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs]
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
def resident(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        if not size:
            return 0
        pages = (size + mmap.PAGESIZE - 1) // mmap.PAGESIZE
        addr = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        if addr in (None, ctypes.c_void_p(-1).value):
            return 0
        vec = (ctypes.c_ubyte * pages)()
        rc = libc.mincore(addr, size, vec)
        libc.munmap(addr, size)
        return sum(mmap.PAGESIZE for v in vec if v & 1) if rc == 0 else 0
    finally:
        os.close(fd)
for p in files:
    fd = os.open(p, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
res = sum(resident(p) for p in files)
def read_bytes():
    return int([l for l in open("/proc/self/io") if l.startswith("read_bytes")][0].split()[1])
with open(out, "w") as o:
    a = read_bytes()
    u0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic_ns()
    rc = subprocess.run(["bash", "-c", cmd], stdout=o, stderr=subprocess.DEVNULL).returncode
    t1 = time.monotonic_ns()
    u1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    b = read_bytes()
if rc:
    sys.exit("vs-tree: failed (%d): %s" % (rc, cmd))
cpu = u1.ru_utime + u1.ru_stime - u0.ru_utime - u0.ru_stime
print(t1 - t0, b - a, res, "%.3f" % cpu)
PY
side() { python3 "$TMP/side.py" "$T" "$@"; }
mbs() { awk -v b="$BYTES" -v ns="$1" 'BEGIN { print b / ns * 1e3 }'; }

# peer KEY ROUND COMMAND: its wall-clock MB/s over the tree's bytes; its stdout kept in $TMP/KEY.out.
peer() {
    local key=$1 round=$2 r
    shift 2
    read -ra r < <(side "$TMP/$key.out" "$*")
    ((${#r[@]} == 4)) || die "$key: the peer failed: $*"
    echo "$key peer $round $(mbs "${r[0]}") $BYTES - ${r[1]} ${r[2]} - ${r[3]}" >>"$RES"
}

# ours KEY ROUND OPTIONS...: the MB/s iogauge prints and its wall-clock MB/s (taken as the peer's).
ours() {
    local key=$1 round=$2 r
    shift 2
    read -ra r < <(side /dev/null "$(printf '%q ' "$IOGAUGE" tree --quiet --json="$TMP/$key.json" "$@" "$T")")
    ((${#r[@]} == 4)) || die "$key: iogauge failed ($TMP is removed; run it by hand)"
    echo "$key iogauge $round $(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["tree"]["targets"][0]["steps"][-1]
print(s["mb_s"], int(s["bytes"]), s["compress_ratio"] or "-")' "$TMP/$key.json") ${r[1]} ${r[2]} $(mbs "${r[0]}") ${r[3]}" >>"$RES"
}

# zstd 1.5's CLI reads on a second thread unless --no-asyncio (older ones have no such thread).
noasync=""
if zstd -H 2>&1 | grep -q -- '--\[no-\]asyncio'; then noasync=--no-asyncio; fi
each_file="find '$T' -type f -print0 | xargs -0"
top_dirs="find '$T' -mindepth 1 -maxdepth 1 -type d -print0 | xargs -0 -P4 -n1 sh -c 'tar cf - \"\$0\" | dd of=/dev/null bs=1M status=none'"
pair() {
    local key=$1 round=$2 cmd=$3
    shift 3
    if ((round % 2)); then
        peer "$key" "$round" "$cmd"
        ours "$key" "$round" "$@"
    else
        ours "$key" "$round" "$@"
        peer "$key" "$round" "$cmd"
    fi
}

for ((r = 1; r <= ROUNDS; r++)); do
    want tar && pair tar $r "tar cf - '$T' | dd of=/dev/null bs=1M status=none" --streams=1
    want tarz && pair tarz $r "tar cf - '$T' >/dev/zero" --streams=1
    want cat && pair cat $r "$each_file cat >/dev/null" --streams=1
    want md5 && pair md5 $r "$each_file md5sum" --streams=1 --hash=md5 --hash-out="$TMP/md5.sums"
    want xxh && pair xxh $r "$each_file xxhsum" --streams=1 --hash=xxhash --hash-out="$TMP/xxh.sums"
    want zstd && pair zstd $r "$each_file zstd --single-thread $noasync -q -c >/dev/null" --streams=1 --compress=zstd
    want tar4 && pair tar4 $r "$top_dirs" --streams=4..4
    echo "vs-tree: round $r of $ROUNDS done" >&2
done

# Same bytes: the same checksums, the same compressed stream length, every byte of every file.
same() { [[ "$1" == "$2" ]] && echo "same" || echo "DIFFERENT"; }
want md5 && echo "md5: checksums $(same "$(sort "$TMP/md5.out")" "$(sort "$TMP/md5.sums")")"
want xxh && echo "xxhash: checksums $(same "$(sort "$TMP/xxh.out")" "$(sort "$TMP/xxh.sums")")"
if want zstd; then
    z=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tree"]["targets"][0]["steps"][0]["passes"][0]["compress_out"])' "$TMP/zstd.json")
    bash -c "$each_file zstd --single-thread $noasync -q -c | wc -c" >"$TMP/zstd.out"
    echo "zstd: compressed bytes $(cat "$TMP/zstd.out") (zstd -c) vs $z (iogauge): $(awk -v a="$(cat "$TMP/zstd.out")" \
        -v b="$z" 'BEGIN { d = (a - b) / a * 100; printf "%+.4f%%", d < 0 ? -d : d }')"
fi

python3 - "$RES" "$BYTES" <<'PY'
import statistics, sys
# rows: key side round mb_s bytes ratio device_read_bytes resident wall_mb_s cpu_s
rows = [l.split() for l in open(sys.argv[1])]
total = int(sys.argv[2])
names = {"tar": "tar | dd          vs --streams=1",
         "tarz": "tar >/dev/zero    vs --streams=1 (information)",
         "cat": "cat               vs --streams=1",
         "md5": "md5sum            vs --hash=md5",
         "xxh": "xxhsum            vs --hash=xxhash",
         "zstd": "zstd -c           vs --compress=zstd",
         "tar4": "4 x tar | dd      vs --streams=4..4 (information)"}
med = statistics.median
def rng(q):
    return "%.3f [%.3f-%.3f]" % (med(q), min(q), max(q))
print("MB/s are medians; peer: wall clock; iogauge: printed (its reads) and wall clock (taken as the peer's).")
print("disk: bytes read from the device / the tree's bytes; cpu: user + system seconds (medians of each side).")
print("Target 0.90-1.10.")
print("%-45s %8s %8s %8s  %-22s %-22s %-12s %s" % ("pair", "peer", "iogauge", "ig wall", "printed / peer",
                                         "wall / peer wall", "disk peer,ig", "cpu peer,ig"))
for key in names:
    peer = {r[2]: r for r in rows if r[0] == key and r[1] == "peer"}
    ours = {r[2]: r for r in rows if r[0] == key and r[1] == "iogauge"}
    rounds = sorted(set(peer) & set(ours))
    if not rounds:
        continue
    q = [float(ours[k][3]) / float(peer[k][3]) for k in rounds]
    w = [float(ours[k][8]) / float(peer[k][3]) for k in rounds]
    dp = med([int(peer[k][6]) / total for k in rounds])
    do = med([int(ours[k][6]) / total for k in rounds])
    res = max(int(x[7]) for k in rounds for x in (peer[k], ours[k]))
    seen = [int(ours[k][4]) for k in rounds]
    flags = "" if all(b == total for b in seen) else "  (iogauge read %s bytes, not %d)" % (seen, total)
    lo = min(int(x[6]) for k in rounds for x in (peer[k], ours[k]))
    if res or lo < 0.99 * total:
        flags += "  CACHED: up to %d bytes resident before a run, least from the device %d" % (res, lo)
    cp = med([float(peer[k][9]) for k in rounds])
    co = med([float(ours[k][9]) for k in rounds])
    print("%-45s %8.1f %8.1f %8.1f  %-22s %-22s %.3f,%.3f  %.2f,%.2f%s" % (names[key],
          med(float(peer[k][3]) for k in rounds), med(float(ours[k][3]) for k in rounds),
          med(float(ours[k][8]) for k in rounds), rng(q), rng(w), dp, do, cp, co, flags))
PY
