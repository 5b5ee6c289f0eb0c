#!/bin/bash
# fio's logs: write_bw_log, write_iops_log, write_lat_log (_lat, _clat, _slat)
# with fio's file names and line format; a size-bound job logs the same
# requests (direction, size, offset) as fio in the same order; log_avg_msec
# windows; per_job_logs=0; Debian's fio2gnuplot and fio_generate_plots plot
# them.  Small buffered files in the test's scratch directory.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# Debian's python3 first: a pyenv shim on PATH costs seconds a call (fio's scripts are python3 too).
PATH=/usr/bin:$PATH

need_iogauge
need_cmd fio python3 fio2gnuplot fio_generate_plots gnuplot
T=$E2E_TMP
mkdir "$T/fio" "$T/iog" "$T/w" || exit 1
# The windows' job on a tmpfs (as root): no disk's writeback holds its writes back for windows on end.
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=16m tmpfs "$T/w"; then
	E2E_MOUNTS+=("$T/w")
fi

# The same size-bound job under fio and iogauge, logs with offsets, in a directory each.
JOB=(--name=lg --size=256k --rw=randrw --bs=4k --ioengine=psync --write_bw_log=lg --write_iops_log=lg
	--write_lat_log=lg --log_offset=1 --output-format=json)
(cd "$T/fio" && fio --filename=f "${JOB[@]}" >/dev/null 2>&1 && rm -f f)
(cd "$T/iog" && "$IOGAUGE" run --filename=f "${JOB[@]}" >"$T/iog.json" 2>"$T/iog.err")
check "per-request logs: exit 0" [ $? = 0 ]
check "fio's file names (NAME_bw/_iops/_lat/_clat/_slat.1.log)" \
	[ "$(cd "$T/iog" && echo *)" = "$(cd "$T/fio" && echo *)" ]
check "the slat log of a synchronous engine is empty, as fio's" [ ! -s "$T/iog/lg_slat.1.log" ]
cat >"$T/cmp.py" <<'PY'
import sys
def rows(p): return [[x.strip() for x in l.split(",")] for l in open(p)]
bad = 0
for kind in ("bw", "iops", "lat", "clat"):
    a, b = rows(sys.argv[1] + "/lg_%s.1.log" % kind), rows(sys.argv[2] + "/lg_%s.1.log" % kind)
    if not a or len(a) != len(b):
        print(kind, "lines", len(a), len(b)); bad += 1; continue
    for x, y in zip(a, b):
        # time, value, ddir, bs, offset, prio: direction, size and prio as fio's (rw=randrw: the
        # offsets come from iogauge's own generator), each offset a block of the 256 KiB file.
        if len(x) != 6 or len(y) != 6 or (x[2], x[3], x[5]) != (y[2], y[3], y[5]) \
           or (kind == "iops" and y[1] != "1") or int(y[0]) < 0 or int(y[1]) <= 0 \
           or int(y[4]) % 4096 or int(y[4]) >= 262144:
            print(kind, x, y); bad += 1; break
sys.exit(bad)
PY
check "every line as fio's: 6 fields, the same directions and sizes in the same order" \
	python3 "$T/cmp.py" "$T/fio" "$T/iog"
cat >"$T/sum.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["jobs"][0]
lat = {0: [], 1: []}
for l in open(sys.argv[2]):
    f = [int(x) for x in l.split(",")]
    lat[f[2]].append(f[1])
bad = 0
for k, dd in ((0, "read"), (1, "write")):
    own = d[dd]["clat_ns"]
    if len(lat[k]) != d[dd]["ios"] or abs(sum(lat[k]) / len(lat[k]) - own["mean"]) > 1:
        print(dd, len(lat[k]), d[dd]["ios"], sum(lat[k]) / max(1, len(lat[k])), own["mean"]); bad += 1
sys.exit(bad)
PY
check "the clat log's lines are iogauge's own requests and mean clat" \
	python3 "$T/sum.py" "$T/iog.json" "$T/iog/lg_clat.1.log"

# Windows: a line per direction per 100 ms, bs 0; a queued engine's slat log has lines.  Judged on
# counts, not on any window's value: a window holds the requests completed in it (IOPS x 0.1 s),
# the windows end at 100 ms steps within the 700 ms runtime (whole windows only), and as the
# runtime ends on a window's edge, only the requests still in flight then (at most the depth, 4)
# complete after the last one: the windows' requests are the job's but those, however late the
# machine let the job run.
(cd "$T/w" && "$IOGAUGE" run --name=avg --filename=f --ioengine=libaio --iodepth=4 --rw=randrw --size=1m --invalidate=0 --time_based \
	--runtime=700ms --rate_iops=2000 --log_avg_msec=100 --write_bw_log=avg --write_iops_log=avg \
	--write_lat_log=avg --output-format=json >"$T/w.json" 2>"$T/w.err")
check "log_avg_msec: exit 0" [ $? = 0 ]
cat >"$T/win.py" <<'PY'
import json, sys
rows = [[int(x) for x in l.split(",")] for l in open(sys.argv[1])]
d = json.load(open(sys.argv[2]))["jobs"][0]
total = d["read"]["ios"] + d["write"]["ios"]
t = sorted({r[0] for r in rows})
per_dir = [sorted(r[0] for r in rows if r[2] == k) for k in (0, 1)]
ok = len(t) >= 5 and all(x % 100 == 0 and 0 < x <= 700 for x in t) \
    and all(r[3] == 0 and r[2] in (0, 1) and r[1] % 10 == 0 for r in rows) \
    and all(len(p) == len(set(p)) for p in per_dir)
logged = sum(r[1] for r in rows) // 10  # IOPS over 100 ms windows: the window's requests x 10
print(t, logged, total, file=sys.stderr)
sys.exit(not ok or not total - 4 <= logged <= total)
PY
check "log_avg_msec: windows of 100 ms within the runtime, bs 0; their requests are the job's but the last depth's" \
	python3 "$T/win.py" "$T/w/avg_iops.1.log" "$T/w.json"
check "log_avg_msec: a queued engine's slat log has its windows" [ -s "$T/w/avg_slat.1.log" ]

# Job-file forms: a bare write_iops_log is the job's name; per_job_logs=0 gives one file, which a
# later job logging under the same name adds to (fio's appends).
printf '[global]\nioengine=null\nsize=64k\nper_job_logs=0\n[pj]\nnumjobs=2\nwrite_iops_log\n[pj2]\nwrite_iops_log=pj\n' \
	>"$T/pj.fio"
(cd "$T/w" && "$IOGAUGE" run "$T/pj.fio" >/dev/null 2>&1)
check "per_job_logs=0, bare write_iops_log: one file pj_iops.log with the three threads' requests" \
	[ "$(wc -l <"$T/w/pj_iops.log")" = 48 ]

# Debian's plotting scripts read them.
(cd "$T/iog" && fio2gnuplot -b -d plot >"$T/f2g.out" 2>&1)
check "fio2gnuplot -b accepts iogauge's bw log" \
	grep -q "^values_count=[1-9]" "$T/iog/plot/result.global"
(cd "$T/w" && fio_generate_plots avg >"$T/fgp.out" 2>&1)
check "fio_generate_plots draws iogauge's logs (exit 0)" [ $? = 0 ]
check "fio_generate_plots: bw, iops, lat, clat, slat graphs" \
	[ "$(cd "$T/w" && echo avg-*.svg)" = "avg-bw.svg avg-clat.svg avg-iops.svg avg-lat.svg avg-slat.svg" ]
