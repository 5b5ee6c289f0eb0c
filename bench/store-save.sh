#!/bin/bash
# bench/store-save.sh [N] [OLD-IOGAUGE]: the time --save adds to a run.  N rounds (default 41),
# each running, in turn, a null-engine `run` without --save, then with --save into a SQLite store
# of its own for each binary (this tree's ./iogauge, and OLD-IOGAUGE when given, as a build of
# main); interleaved, so a busy machine weighs on every variant alike.  Prints each variant's
# median wall time and CPU time (user + system) and what --save adds to them.  The stores are in
# a scratch directory on the file system of $TMPDIR (a save's cost is that disk's syncs).
set -u
cd "$(dirname "$0")/.." || exit 1
N=${1:-41}
NEW=${IOGAUGE:-$PWD/iogauge}
OLD=${2:-}
[ -x "$NEW" ] || { echo "bench/store-save.sh: no $NEW (make iogauge)" >&2; exit 1; }
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
/usr/bin/python3 - "$N" "$TMP" "$NEW" ${OLD:+"$OLD"} <<'EOF'
import os, resource, statistics, subprocess, sys, time
n, tmp, bins = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
run = ["run", "--name=j", "--ioengine=null", "--size=1m", "--bs=4k", "--rw=randread", "--quiet"]
variants = [("no --save", bins[0], [])]
for i, b in enumerate(bins):
    variants.append(("--save, " + b, b, ["--save", "--db=%s/store%d.db" % (tmp, i)]))
wall = {v[0]: [] for v in variants}
cpu = {v[0]: [] for v in variants}
for _ in range(n):
    for name, binary, extra in variants:
        r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
        subprocess.run([binary] + run + extra, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        t1, r1 = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
        wall[name].append((t1 - t0) * 1e3)
        cpu[name].append((r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1e3)
bw, bc = statistics.median(wall["no --save"]), statistics.median(cpu["no --save"])
print("%d interleaved rounds; medians" % n)
for name, _, _ in variants:
    w, c = statistics.median(wall[name]), statistics.median(cpu[name])
    print("%-40s wall %6.1f ms (+%5.1f)   CPU %5.1f ms (+%4.1f)" % (name, w, w - bw, c, c - bc))
EOF
