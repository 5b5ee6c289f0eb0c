#!/usr/bin/env bash
# bench/vs-tree.sh - iogauge tree beside seed 003's tools on the same tree: tar | dd, md5sum,
# xxhsum and zstd.
#
# The tree is built once by `iogauge tree --make-tree --keep` on a real disk (BENCH_DIR) and
# read by each pair in turn, interleaved round by round, which side goes first alternating.
# Before every run every file's pages are dropped from the page cache (fadvise, as iogauge
# does before each case), so both sides read the disk.  The peer's rate is its bytes of
# files over its wall-clock time (the process, its walk of the tree included); iogauge's is
# the rate it prints (its walk, listed before the clock starts, excluded).  The summary gives
# per pair the median of iogauge / peer over the rounds and its min-max; target: within 10%.
#
#   tar    `tar cf - DIR | dd of=/dev/null bs=1M`            vs  iogauge tree --streams=1
#   cat    `find DIR -type f -print0 | xargs -0 cat >/dev/null` vs  --streams=1 (a plain reader:
#          where the device is fast, tar | dd spends its time in tar's 10 KiB records and the pipe)
#   md5    `find DIR -type f -print0 | xargs -0 md5sum`        vs  --streams=1 --hash=md5
#   xxh    `... | xargs -0 xxhsum`                            vs  --streams=1 --hash=xxhash
#   zstd   `... | xargs -0 zstd --single-thread -q -c >/dev/null` vs  --streams=1 --compress=zstd
#          (level 3; one thread as one stream: zstd's default hands each block to a second thread)
#   tar4   the tree's top directories through `xargs -P4` tar | dd (seed 003's tardevnull.sh
#          with --max-procs=4)                                vs  --streams=4  (information:
#          the split differs, a directory a stream against runs of equal bytes)
# Each pair also checks it read the same bytes (md5 and xxhash: the same checksums; zstd: the
# same compressed bytes, counted by `| wc -c` in a run of its own, not timed).
#
# Environment: ROUNDS=5, QUICK=1 (2 rounds, a smaller tree), FILES=600, FILESIZE=4k-4m,
# BENCH_DIR=/var/tmp (a directory on a real disk), IOGAUGE=path, PAIRS="tar cat md5 xxh zstd tar4";
# RAM_MB=N: the tree on ext4 on a RAM-backed loop device of N MiB instead (root), THROTTLE=M:
# its reads capped at M MB/s (cgroup v1 blkio), a steady "disk" on a busy shared machine.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
[[ "${QUICK:-0}" == 1 ]] && { ROUNDS=${ROUNDS:-2}; FILES=${FILES:-200}; }
ROUNDS=${ROUNDS:-5}
FILES=${FILES:-600}
FILESIZE=${FILESIZE:-4k-4m}
PAIRS=${PAIRS:-tar cat md5 xxh zstd tar4}
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
echo "vs-tree: $FILES files, $BYTES bytes in $T ($(df --output=source "$T" | tail -1)), $ROUNDS rounds"

drop() {
    python3 - "$T" <<'PY'
import os, sys
for d, _, fs in os.walk(sys.argv[1]):
    for f in fs:
        fd = os.open(os.path.join(d, f), os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
PY
}

# peer KEY ROUND COMMAND: its wall-clock MB/s over the tree's bytes; its stdout kept in $TMP/KEY.out.
peer() {
    local key=$1 round=$2 t0 t1
    shift 2
    drop
    t0=$(date +%s%N)
    bash -c "$*" >"$TMP/$key.out" 2>"$TMP/$key.err"
    t1=$(date +%s%N)
    echo "$key peer $round $(awk -v b="$BYTES" -v ns=$((t1 - t0)) 'BEGIN { print b / ns * 1e3 }')" >>"$RES"
}

# ours KEY ROUND OPTIONS...: the MB/s iogauge prints (its own cache drop comes first).
ours() {
    local key=$1 round=$2
    shift 2
    "$IOGAUGE" tree --quiet --json="$TMP/$key.json" "$@" "$T" >/dev/null
    echo "$key iogauge $round $(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["tree"]["targets"][0]["steps"][-1]
print(s["mb_s"], int(s["bytes"]), s["compress_ratio"] or "")' "$TMP/$key.json")" >>"$RES"
}

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
    want cat && pair cat $r "$each_file cat >/dev/null" --streams=1
    want md5 && pair md5 $r "$each_file md5sum" --streams=1 --hash=md5 --hash-out="$TMP/md5.sums"
    want xxh && pair xxh $r "$each_file xxhsum" --streams=1 --hash=xxhash --hash-out="$TMP/xxh.sums"
    want zstd && pair zstd $r "$each_file zstd --single-thread -q -c >/dev/null" --streams=1 --compress=zstd
    want tar4 && pair tar4 $r "$top_dirs" --streams=4
    echo "vs-tree: round $r of $ROUNDS done" >&2
done

# Same bytes: the same checksums, the same compressed stream length, every byte of every file.
same() { [[ "$1" == "$2" ]] && echo "same" || echo "DIFFERENT"; }
want md5 && echo "md5: checksums $(same "$(sort "$TMP/md5.out")" "$(sort "$TMP/md5.sums")")"
want xxh && echo "xxhash: checksums $(same "$(sort "$TMP/xxh.out")" "$(sort "$TMP/xxh.sums")")"
if want zstd; then
    z=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tree"]["targets"][0]["steps"][0]["passes"][0]["compress_out"])' "$TMP/zstd.json")
    bash -c "$each_file zstd --single-thread -q -c | wc -c" >"$TMP/zstd.out"
    echo "zstd: compressed bytes $(cat "$TMP/zstd.out") (zstd -c) vs $z (iogauge): $(awk -v a="$(cat "$TMP/zstd.out")" \
        -v b="$z" 'BEGIN { d = (a - b) / a * 100; printf "%+.4f%%", d < 0 ? -d : d }')"
fi

python3 - "$RES" "$BYTES" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
total = int(sys.argv[2])
names = {"tar": "tar | dd          vs --streams=1",
         "cat": "cat               vs --streams=1",
         "md5": "md5sum            vs --hash=md5",
         "xxh": "xxhsum            vs --hash=xxhash",
         "zstd": "zstd -c           vs --compress=zstd",
         "tar4": "4 x tar | dd      vs --streams=4 (information)"}
print("%-47s %10s %10s  %s" % ("pair (peer MB/s, iogauge MB/s: medians)", "peer", "iogauge",
                                 "iogauge / peer: median [min-max] (target 0.90-1.10)"))
for key in names:
    peer = {r[2]: float(r[3]) for r in rows if r[0] == key and r[1] == "peer"}
    ours = {r[2]: float(r[3]) for r in rows if r[0] == key and r[1] == "iogauge"}
    seen = [int(r[4]) for r in rows if r[0] == key and r[1] == "iogauge"]
    rounds = sorted(set(peer) & set(ours))
    if not rounds:
        continue
    q = [ours[k] / peer[k] for k in rounds]
    bad = "" if all(b == total for b in seen) else "  (iogauge read %s bytes, not %d)" % (seen, total)
    print("%-47s %10.1f %10.1f  %.3f [%.3f-%.3f]%s" % (names[key], statistics.median(peer.values()),
          statistics.median(ours.values()), statistics.median(q), min(q), max(q), bad))
PY
