#!/usr/bin/env bash
# bench/vs-deep.sh - iogauge bonnie, matrix, sweep and --fileop against bonnie++ and fio.
#
# Each workload runs the peer and iogauge back to back, alternating which goes first, ROUNDS
# rounds, on the same file system, and prints iogauge's figure over the peer's: the median of the
# per-round ratios and their min-max.  Only ratios from one run on one machine mean anything.
#
#   bonnie  iogauge bonnie against bonnie++ 2.00a in the same directory, -f (no per-character
#           tests, whose methods differ: bonnie++ makes a system call per byte, iogauge a putc),
#           the same -s and -r; two pairs a round, each doing the same work on both sides:
#           - both -D, -n BONNIE_N: block output (O_DIRECT 8 KiB writes, then fsync) and the file
#             tests (sequential and random create, stat, delete of N x 1024 empty files).  Only
#             block output is compared from this pair's I/O tests: bonnie++'s -D opens O_DIRECT
#             for block output alone and reopens the file without it for rewrite, block input and
#             seeks (strace: openat(..., O_RDWR)), while iogauge -D stays O_DIRECT throughout.
#             That, on a machine whose RAM holds the file, was the "0.07x block input, 0.29x
#             rewrite": bonnie++ read the page cache, iogauge the disk.
#           - both buffered, -n 0, iogauge with --keep-cache, -s SIZE:8k:SEEKS: block output,
#             rewrite (read, lseek back, write for bonnie++; pread, pwrite for iogauge), block
#             input, seeks.  bonnie++ never drops the page cache (it relies on -s >= 2 x RAM; the
#             RAM here is far above the 4 GiB a bench file may take), so it reads its file back
#             from the cache; iogauge drops the cache before each read test unless told
#             --keep-cache.  With it both read and rewrite the same cached pages: these
#             figures compare the tools' paths through the page cache, not the disk.  SEEKS is
#             raised from 8192 so that the cached seeks last more than bonnie++'s 0.5 s.  The
#             seeks read the same blocks but not with the same calls: a bonnie++ seeker takes
#             each offset from a pipe (read of 4 bytes), then lseek + read (and lseek + write for
#             the tenth it rewrites); iogauge's seeker threads pread (pwrite).  From the cache,
#             where the calls are the cost, that is about 3 calls a seek against 1.1: the ratio
#             is the tools' overhead, not the disk's.
#           iogauge writes --data=pattern=0x04: bonnie++'s blocks are nearly all one repeated byte
#           (strace), and this machine's disk is faster with such data than with iogauge's
#           default incompressible random blocks (O_DIRECT block output: zeros 12-27% faster than
#           random in 3 alternations at 07:32 UTC); the pattern also spares the per-write refill.
#           Read from both tools' CSV lines; a test either shows as +++++ (under 0.5 s) is left
#           out of that round.
#   files   files created (and stated, deleted) per second: `iogauge run --fileop=create` of N
#           empty files in one new directory against bonnie++'s own sequential create rate of N
#           files in one new directory (bonnie++ -s 0 -n N/1024), then stat and unlink against
#           bonnie++'s sequential stat and delete.  The same system calls per file on both sides
#           (strace -c): create openat(O_CREAT|O_EXCL|O_WRONLY) + close, stat one newfstatat,
#           delete one unlink(at); bonnie++'s names are 10-22 characters, iogauge's f0..fN.
#           Target: >= 1.0x.  bonnie++'s stat of 64 Ki files usually ends under 0.5 s (+++++):
#           no ratio then.
#   Every run starts after a `sync`, and every run that creates files (files, and bonnie's -D
#   pair) after SETTLE seconds more.  On a file system without a journal (this machine's ext4:
#   no /proc/fs/jbd2 entry) ext4 will not reuse an inode deleted in the last 60 s (360 s while
#   its inode-table block is dirty): each create scans past all of them (recently_deleted()
#   in find_inode_bit; `perf record`: about half of a create's CPU), so a create right after
#   another run's 64 Ki deletions ran several times slower, and the alternation (each tool
#   follows itself every other round) turned that into an order effect.  sync + 61 s makes
#   the start alike for both tools, not clean: a create dirties its inode-table block, and the
#   inodes deleted there in the last 360 s count as recent again (seen: 5-16 Ki creates/s after
#   the settle, against 74 Ki/s on a file system quiet for longer); a clean start would take
#   over 6 minutes a run.  Their own random create follows their own sequential delete within
#   seconds (bonnie++ and iogauge alike): it measures that scan more than the tools.
#   matrix  iogauge matrix points against fio jobs of the same shape, O_DIRECT, io_uring, on a
#           file of the same size each: small IOPS at Small=5 (8 KiB random reads, 5 in flight)
#           and large MBPS at Large=2 (1 MiB random reads, 2 in flight).
#   sweep   iogauge sweep cells (-I: O_DIRECT, psync) against fio jobs of the same file (1 GiB)
#           and record size (64 KiB), psync, O_DIRECT: write (a new file), read, random read,
#           random write; one pread64/pwrite64 per record on both sides (strace -c).  fio runs
#           with --fallocate=none: by default it fallocates a new file before writing it, while
#           iozone (and sweep) extend the file as they write.
#
# Environment:
#   ROUNDS=3          rounds
#   QUICK=1           smoke run: 1 round, small sizes
#   TESTS="bonnie files matrix sweep"
#   IOGAUGE=path      iogauge binary (default: the repo's ./iogauge)
#   BENCH_DIR=dir     where the files go (default /var/tmp unless tmpfs, else bench/); a real disk
#   BONNIE_MB=2048    bonnie's file (-s), with -r half of it
#   BONNIE_N=64       bonnie's files, x 1024 (-n)
#   BONNIE_SEEKS=262144  seeks in the buffered pair (bonnie++'s default 8192 ends under 0.5 s there)
#   FILES=65536       files for the files test
#   DURATION=5        seconds per matrix point and fio job
#   RESULTS=file      keep the raw figures (lines: KEY TOOL ROUND VALUE)
#   SETTLE=61         seconds to wait before a run that creates files (QUICK: 0, unfair then)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
if [[ "${QUICK:-0}" == 1 ]]; then
	ROUNDS=${ROUNDS:-1}
	BONNIE_MB=${BONNIE_MB:-512}
	BONNIE_N=${BONNIE_N:-16}
	FILES=${FILES:-16384}
	DURATION=${DURATION:-2}
	SETTLE=${SETTLE:-0}
fi
ROUNDS=${ROUNDS:-3}
TESTS=${TESTS:-bonnie files matrix sweep}
IOGAUGE=${IOGAUGE:-$repo/iogauge}
BONNIE_MB=${BONNIE_MB:-2048}
BONNIE_N=${BONNIE_N:-64}
BONNIE_SEEKS=${BONNIE_SEEKS:-262144}
FILES=${FILES:-65536}
DURATION=${DURATION:-5}
SETTLE=${SETTLE:-61}

die() { echo "vs-deep: $*" >&2; exit 1; }
[[ -x "$IOGAUGE" ]] || die "no iogauge binary at $IOGAUGE (run: make iogauge)"
want() { [[ " $TESTS " == *" $1 "* ]]; }
for c in python3 fio bonnie++; do command -v "$c" >/dev/null || die "$c not found"; done

if [[ -z "${BENCH_DIR:-}" ]]; then
	BENCH_DIR=/var/tmp
	[[ "$(stat -f -c %T "$BENCH_DIR" 2>/dev/null)" == tmpfs ]] && BENCH_DIR=$here
fi
TMP=$(mktemp -d "$BENCH_DIR/vs-deep.XXXXXX")
trap '[[ -n "${RESULTS:-}" && -f "$TMP/results" ]] && cp -- "$TMP/results" "$RESULTS"; rm -rf -- "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
RES=$TMP/results # lines: KEY TOOL ROUND VALUE
LOG=$TMP/log
: >"$RES"
record() { echo "$1 $2 $3 $4" >>"$RES"; }
quiet() {
	sync # each run starts with the last one's writeback done (a deletion left dirty metadata)
	if ! "$@" >"$LOG" 2>&1; then
		echo "vs-deep: command failed: $*" >&2
		tail -n 20 "$LOG" >&2
		exit 1
	fi
}
# Before a run that creates files: ext4 without a journal skips inodes deleted in the last
# 60 s, a scan per create (see the header); both tools start past that window.
settle() { sync; sleep "$SETTLE"; }
# first ROUND: 0 when the peer goes first this round, 1 when iogauge does
first() { echo $(($1 % 2)); }
uid=$(id -u)

# bonnie++'s CSV line (both tools print one): NAME=value for the fields compared, "+++++" skipped.
cat >"$TMP/bcsv.py" <<'EOF'
import sys
f = open(sys.argv[1]).read().strip().splitlines()[-1].split(",")
names = {11: "put_block", 13: "rewrite", 17: "get_block", 19: "seeks", 26: "seq_create",
         28: "seq_stat", 30: "seq_del", 32: "ran_create", 34: "ran_stat", 36: "ran_del"}
for i, n in names.items():
    if i < len(f) and f[i] not in ("", "+++++"):
        print(n, f[i])
EOF
# fio's or iogauge's JSON: "iops bw_bytes" summed over the jobs' reads and writes
cat >"$TMP/jsum.py" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text[text.index("{"):])
iops = bw = 0.0
for j in d["jobs"]:
    for k in ("read", "write"):
        s = j.get(k) or {}
        iops += s.get("iops", 0); bw += s.get("bw_bytes", 0)
print(repr(iops), repr(bw))
EOF

# --- bonnie ---------------------------------------------------------------------------------
# Two pairs a round (see the header): -D for block output and the file tests, buffered with the
# page cache kept for block output, rewrite, block input and seeks.
if want bonnie; then
	d=$TMP/bonnie
	mkdir "$d"
	ram=$((BONNIE_MB / 2))
	u=(); [[ $uid == 0 ]] && u=(-u root)
	for ((r = 1; r <= ROUNDS; r++)); do
		for mode in direct cached; do
			for o in $(first $r) $((1 - $(first $r))); do
				if [[ $mode == direct ]]; then
					sz=$BONNIE_MB; pk=(-n "$BONNIE_N" -D); gk=(-n "$BONNIE_N" -D)
				else
					sz=$BONNIE_MB:8k:$BONNIE_SEEKS; pk=(-n 0); gk=(-n 0 --keep-cache)
				fi
				[[ $mode == direct ]] && settle
				if [[ $o == 0 ]]; then
					quiet bonnie++ -d "$d" -s "$sz" -r "$ram" -f -q -m peer "${pk[@]}" "${u[@]}"
					tool=peer
				else
					quiet "$IOGAUGE" bonnie -s "$sz" -r "$ram" -f -q --quiet --data=pattern=0x04 "${gk[@]}" "$d"
					tool=iogauge
				fi
				grep '^1\.98,' "$LOG" | tail -1 >"$TMP/line"
				python3 "$TMP/bcsv.py" "$TMP/line" | while read -r n v; do
					case $mode.$n in
					direct.put_block) record bonnie.put_block_direct $tool $r "$v" ;;
					direct.rewrite | direct.get_block | direct.seeks) ;; # not the same work
					direct.*) record "bonnie.$n" $tool $r "$v" ;;
					cached.*) record "bonnie.$n" $tool $r "$v" ;;
					esac
				done
			done
		done
	done
fi

# --- files created per second ---------------------------------------------------------------
if want files; then
	d=$TMP/files
	mkdir "$d"
	n_k=$((FILES / 1024))
	for ((r = 1; r <= ROUNDS; r++)); do
		for o in $(first $r) $((1 - $(first $r))); do
			settle
			if [[ $o == 0 ]]; then
				u=(); [[ $uid == 0 ]] && u=(-u root)
				quiet bonnie++ -d "$d" -s 0 -n "$n_k" -q -m peer "${u[@]}"
				grep '^1\.98,' "$LOG" | tail -1 >"$TMP/line"
				python3 "$TMP/bcsv.py" "$TMP/line" | while read -r n v; do
					case $n in seq_create | seq_stat | seq_del) record "files.$n" peer $r "$v" ;; esac
				done
			else
				quiet "$IOGAUGE" run --output-format=json --filename="$d/set" --nrfiles=$((n_k * 1024)) \
					--name=c --fileop=create --name=s --stonewall --fileop=stat \
					--name=u --stonewall --fileop=unlink
				python3 - "$LOG" "$r" >>"$RES" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for j, k, n in ((0, "create", "seq_create"), (1, "stat", "seq_stat"), (2, "unlink", "seq_del")):
    print("files.%s iogauge %s %r" % (n, sys.argv[2], d["jobs"][j][k]["iops"]))
EOF
			fi
		done
	done
fi

# --- matrix points against fio jobs ---------------------------------------------------------
if want matrix; then
	d=$TMP/matrix
	mkdir "$d"
	size=1g
	[[ "${QUICK:-0}" == 1 ]] && size=256m
	for ((r = 1; r <= ROUNDS; r++)); do
		for spec in "small 5 0 8k" "large 0 2 1m"; do
			read -r what s l bs <<<"$spec"
			depth=$((s + l))
			for o in $(first $r) $((1 - $(first $r))); do
				if [[ $o == 0 ]]; then
					quiet fio --name=peer --filename="$d/fio.dat" --size=$size --rw=randread --bs=$bs \
						--iodepth=$depth --ioengine=io_uring --direct=1 --runtime="$DURATION" \
						--time_based --output-format=json
					read -r iops bw < <(python3 "$TMP/jsum.py" "$LOG")
					tool=peer
				else
					(cd "$TMP" && quiet "$IOGAUGE" matrix --run advanced --matrix point --num-small $s \
						--num-large $l --duration "$DURATION" --size $size --testname "$TMP/m" \
						--quiet --output-format=json "$d")
					read -r iops bw < <(python3 "$TMP/jsum.py" "$LOG")
					tool=iogauge
				fi
				if [[ $what == small ]]; then record matrix.small_iops $tool $r "$iops"; else record matrix.large_bw $tool $r "$bw"; fi
			done
		done
	done
fi

# --- sweep cells against fio jobs -----------------------------------------------------------
if want sweep; then
	d=$TMP/sweep
	mkdir "$d"
	fsize=1g # a cell lasts seconds: shorter ones were mostly noise on a shared machine
	[[ "${QUICK:-0}" == 1 ]] && fsize=64m
	for ((r = 1; r <= ROUNDS; r++)); do
		for o in $(first $r) $((1 - $(first $r))); do
			if [[ $o == 0 ]]; then
				rm -f "$d/fio.dat"
				for rw in write read randread randwrite; do
					quiet fio --name=peer --filename="$d/fio.dat" --size=$fsize --rw=$rw --bs=64k \
						--ioengine=psync --direct=1 --fallocate=none --output-format=json
					read -r iops bw < <(python3 "$TMP/jsum.py" "$LOG")
					record "sweep.$rw" peer $r "$bw"
				done
				rm -f "$d/fio.dat"
			else
				quiet "$IOGAUGE" sweep -I -s $fsize -r 64k -i 0 -i 1 -i 2 --quiet --output-format=json "$d"
				python3 - "$LOG" "$r" >>"$RES" <<'EOF'
import json, sys
row = json.load(open(sys.argv[1]))["sweep"]["rows"][0]
for k, n in (("write", "write"), ("read", "read"), ("random read", "randread"), ("random write", "randwrite")):
    print("sweep.%s iogauge %s %r" % (n, sys.argv[2], row[k] * 1024.0))
EOF
			fi
		done
	done
fi

# --- the table ------------------------------------------------------------------------------
python3 - "$RES" "$ROUNDS" <<'EOF'
import sys, statistics
from collections import defaultdict
v = defaultdict(dict)
for line in open(sys.argv[1]):
    key, tool, rnd, val = line.split()
    v[key].setdefault(tool, {})[int(rnd)] = float(val)
rows = []
def add(name, key, unit, scale, fmt, lo=None, target=""):
    if key not in v or "peer" not in v[key] or "iogauge" not in v[key]:
        return
    p, g = v[key]["peer"], v[key]["iogauge"]
    rs = [g[r] / p[r] for r in sorted(p) if r in g and p[r] > 0]
    if not rs:
        return
    m = statistics.median(rs)
    rows.append((name, unit, fmt % (statistics.median(p.values()) * scale),
                 fmt % (statistics.median(g.values()) * scale),
                 "%.3f [%.3f-%.3f] n=%d" % (m, min(rs), max(rs), len(rs)), target,
                 "" if lo is None else ("ok" if m >= lo else "MISS")))
add("bonnie -D vs bonnie++ -D: block output (O_DIRECT)", "bonnie.put_block_direct", "KiB/s", 1, "%.0f")
for n, label in (("put_block", "block output"), ("rewrite", "rewrite"), ("get_block", "block input"),
                 ("seeks", "random seeks"), ("seq_create", "seq create"), ("seq_stat", "seq stat"),
                 ("seq_del", "seq delete"), ("ran_create", "random create"), ("ran_stat", "random stat"),
                 ("ran_del", "random delete")):
    unit = "KiB/s" if n in ("put_block", "rewrite", "get_block") else "seeks/s" if n == "seeks" else "files/s"
    pre = "bonnie --keep-cache vs bonnie++ (buffered): " if unit != "files/s" else "bonnie vs bonnie++: "
    add(pre + label, "bonnie." + n, unit, 1, "%.0f")
add("run --fileop=create vs bonnie++ seq create", "files.seq_create", "files/s", 1, "%.0f", lo=1.0, target=">= 1.0x")
add("run --fileop=stat vs bonnie++ seq stat", "files.seq_stat", "files/s", 1, "%.0f")
add("run --fileop=unlink vs bonnie++ seq delete", "files.seq_del", "files/s", 1, "%.0f")
add("matrix Small=5 vs fio 8k randread QD5", "matrix.small_iops", "IOPS", 1, "%.0f")
add("matrix Large=2 vs fio 1m randread QD2", "matrix.large_bw", "MiB/s", 1 / 1048576.0, "%.1f")
for n in ("write", "read", "randread", "randwrite"):
    add("sweep -I 64k cell vs fio " + n, "sweep." + n, "MiB/s", 1 / 1048576.0, "%.1f")
hdr = ("workload", "unit", "peer", "iogauge", "iogauge/peer median [min-max]", "target", "")
w = [max(len(str(r[i])) for r in rows + [hdr]) for i in range(len(hdr))]
print("iogauge vs bonnie++ and fio: %s round(s); ratio = iogauge / peer per round" % sys.argv[2])
print("peer and iogauge columns are medians of the absolute figures (noisy; for orientation only)")
for r in [hdr, tuple("-" * n for n in w)] + rows:
    print("  ".join(str(c).ljust(w[i]) if i < 2 or i >= 4 else str(c).rjust(w[i]) for i, c in enumerate(r)).rstrip())
EOF
