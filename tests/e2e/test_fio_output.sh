#!/bin/bash
# fio's output formats read by fio's own tools and by scripts written for fio:
# fio-json has the keys of Debian's fio 3.33 document, in its order;
# fio_jsonplus_clat2csv converts json+ and its percentiles agree; terse v3
# matches a reference rebuild from json+ field for field; YABS's terse fields
# and KDiskMark's JSON keys give iogauge's own numbers.  On ext4 on a loop
# device, small sizes.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# Debian's python3 first: a pyenv shim on PATH costs seconds a call (fio's scripts are python3 too).
PATH=/usr/bin:$PATH

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 fio python3 fio_jsonplus_clat2csv

mkfs_mount fioout 96M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
REF=$E2E_ROOT/tests/e2e/fio-ref
T=$E2E_TMP

# The key paths of a fio JSON document, in order (percentile and bins keys vary with the data).
cat >"$T/keys.py" <<'PY'
import json, sys
from collections import OrderedDict
def walk(o, p, out):
    if isinstance(o, dict):
        for k, v in o.items():
            if p.endswith(("percentile", "bins", "job options", "global options")):
                continue
            walk(v, p + "." + k, out)
    elif isinstance(o, list):
        for i, x in enumerate(o[:1]):
            walk(x, p + "[]", out)
    else:
        out.append(p)
    return out
a = walk(json.load(open(sys.argv[1]), object_pairs_hook=OrderedDict), "", [])
b = walk(json.load(open(sys.argv[2]), object_pairs_hook=OrderedDict), "", [])
if a != b:
    import difflib
    print("\n".join(difflib.unified_diff(a, b, "fio", "iogauge", lineterm="", n=0)))
    sys.exit(1)
PY

JOB=(--name=a --directory="$D" --size=8m --rw=randrw --bs=4k --ioengine=libaio --iodepth=4 --direct=1
	--lat_percentiles=1)
fio "${JOB[@]}" --output-format=json >"$T/fio.json" 2>"$T/fio.err"
rm -f "$D"/a.*
run_iogauge run "${JOB[@]}" --output-format=fio-json
expect_status 0 "fio-json: exit 0"
check "fio-json has fio 3.33's keys in fio's order" python3 "$T/keys.py" "$T/fio.json" "$OUT"
check "no test file left" dir_empty "$D"

# json+ through Debian's fio_jsonplus_clat2csv; its cumulative fractions give the printed percentiles.
run_iogauge run "${JOB[@]}" --output-format=json+
cp "$OUT" "$T/plus.json"
(cd "$T" && fio_jsonplus_clat2csv plus.json out.csv >"$T/csv.out" 2>&1 &&
	fio_jsonplus_clat2csv plus.json out.csv --validate >>"$T/csv.out" 2>&1)
check "fio_jsonplus_clat2csv converts and validates iogauge's json+" \
	grep -q "out_job0.csv validated" "$T/csv.out"
cat >"$T/pct.py" <<'PY'
import csv, json, sys
doc = json.load(open(sys.argv[1]))
rows = [r for r in csv.reader(open(sys.argv[2]), skipinitialspace=True)][1:]
cols = {("read", "clat_ns"): 6, ("read", "lat_ns"): 9, ("write", "clat_ns"): 15, ("write", "lat_ns"): 18}
bad = 0
for (d, k), c in cols.items():
    pct = doc["jobs"][0][d][k].get("percentile", {})
    if not pct:
        print("no percentiles in", d, k); bad += 1
    for p, v in pct.items():
        got = next(int(r[0]) for r in rows if r[c] and float(r[c]) >= float(p) / 100 - 1e-12)
        if got != v:
            print(d, k, p, "json", v, "csv", got); bad += 1
sys.exit(bad != 0)
PY
check "the CSV's percentiles agree with json+'s (read and write, clat and lat)" \
	python3 "$T/pct.py" "$T/plus.json" "$T/out_job0.csv"

# terse and json+ of one run: every field as the reference rebuild from json+ has it, except
# fio's bw/IOPS from whole milliseconds (7, 8, 48, 49: iogauge's come from the exact time).
# (Without lat_percentiles: the reference rebuilds the clat percentile fields only.)
run_iogauge run "${JOB[@]}" --lat_percentiles=0 --numjobs=2 --output-format=terse,json+
expect_status 0 "terse,json+ in one run: exit 0"
grep -v '^3;' "$OUT" >"$T/plus2.json"
grep '^3;' "$OUT" >"$T/mine.terse"
python3 "$REF/fio_terse_from_json.py" "$T/plus2.json" 3 >"$T/ref.terse"
cat >"$T/cmp.py" <<'PY'
import sys
# The reference reads json+'s numbers back as JSON printed them (rounded): a %f may differ in
# its sixth decimal (127.912198 against 127.912197 was seen).
def last_digit(u, v):
    try:
        return abs(float(u.rstrip("%")) - float(v.rstrip("%"))) <= 1.5e-6
    except ValueError:
        return False
a = [l.rstrip("\n").split(";") for l in open(sys.argv[1])]
b = [l.rstrip("\n").split(";") for l in open(sys.argv[2])]
bad = len(a) != len(b) or not a
for x, y in zip(a, b):
    if len(x) != len(y):
        print("fields", len(x), len(y)); bad = True
    for i, (u, v) in enumerate(zip(x, y)):
        if u != v and i + 1 not in (7, 8, 48, 49) and not last_digit(u, v):
            print("field", i + 1, u, v); bad = True
sys.exit(bad)
PY
if ok [ "$(wc -l <"$T/mine.terse")" = 2 ] && ok [ "$(head -1 "$T/mine.terse" | tr ';' '\n' | wc -l)" = 130 ]; then
	pass "terse v3: one line per thread, 130 fields with one disk"
else
	fail "terse v3: one line per thread, 130 fields with one disk" "$WHY"
fi
check "terse v3 matches the reference rebuild from json+ field for field" \
	python3 "$T/cmp.py" "$T/mine.terse" "$T/ref.terse"

# YABS: fields 7, 8, 48, 49 of the group's line are iogauge's own bandwidth (KiB/s) and IOPS.
run_iogauge run --name=rand_rw_4k --directory="$D" --ioengine=libaio --rw=randrw --rwmixread=50 \
	--bs=4k --iodepth=8 --numjobs=2 --size=4m --runtime=30 --gtod_reduce=1 --direct=1 \
	--group_reporting --minimal --json="$T/yabs.json"
expect_status 0 "YABS's command line: exit 0"
grep rand_rw_4k "$OUT" >"$T/yabs.terse"
cat >"$T/yabs.py" <<'PY'
import json, sys
f = open(sys.argv[1]).read().split(";")
j = json.load(open(sys.argv[2]))["jobs"][0]
want = [int(j["read"]["bw_bytes"] // 1024), int(j["read"]["iops"]),
        int(j["write"]["bw_bytes"] // 1024), int(j["write"]["iops"])]
got = [int(f[6]), int(f[7]), int(f[47]), int(f[48])]
print(got, want)
sys.exit(got != want or 0 in got)
PY
check "YABS's terse fields 7, 8, 48, 49 are the bandwidth and IOPS of iogauge's JSON" \
	python3 "$T/yabs.py" "$T/yabs.terse" "$T/yabs.json"

# KDiskMark: jobs[] with error 0, read/write bw (KiB/s), iops, lat_ns.mean and clat_ns.mean.
run_iogauge run --output-format=fio-json --json="$T/kdm.json" --ioengine=libaio --direct=1 \
	--randrepeat=0 --end_fsync=1 --rwmixread=70 --directory="$D" --name=RW --size=4m --bs=4k \
	--rw=randrw --iodepth=4 --numjobs=2
expect_status 0 "KDiskMark's command line: exit 0"
cat >"$T/kdm.py" <<'PY'
import json, sys
fio = json.load(open(sys.argv[1]))
own = json.load(open(sys.argv[2]))
bad = 0
threads = own["jobs"][0]["threads"]
assert len(fio["jobs"]) == len(threads) == 2
for fj, t in zip(fio["jobs"], threads):
    assert fj["error"] == 0
    for d in ("read", "write"):
        f, o = fj[d], t[d]
        if int(f["bw"]) != int(o["bw_bytes"] // 1024): print(d, "bw", f["bw"], o["bw_bytes"]); bad += 1
        if abs(f["iops"] - o["iops"]) > 1e-6 * max(1, o["iops"]): print(d, "iops"); bad += 1
        for k in ("lat_ns", "clat_ns"):
            if abs(f[k]["mean"] - o[k]["mean"]) > 1e-6 * o[k]["mean"]: print(d, k); bad += 1
        if f["total_ios"] != o["ios"] or f["io_bytes"] != o["bytes"]: print(d, "ios"); bad += 1
sys.exit(bad)
PY
check "KDiskMark's keys in fio-json give iogauge's own numbers, thread by thread" \
	python3 "$T/kdm.py" "$OUT" "$T/kdm.json"

# fsync=N / fdatasync=N: as many syncs as fio makes (none after the job's last writes: 63 for
# 64 writes with fsync=1).  fio 3.33 counts fdatasyncs in sync.lat_ns alone (total_ios 0).
for sy in fsync=1 fdatasync=4; do
	fio --name=s --filename="$D/fs.fio" --size=256k --bs=4k --rw=write --"$sy" \
		--output-format=json >"$T/sync.fio.json" 2>/dev/null
	run_iogauge run --name=s --filename="$D/fs.ig" --size=256k --bs=4k --rw=write --"$sy" \
		--output-format=fio-json
	rm -f "$D/fs.fio" "$D/fs.ig"
	got=$(python3 -c 'import json, sys
f, o = (json.load(open(p))["jobs"][0]["sync"] for p in sys.argv[1:])
print(f["lat_ns"]["N"], o["total_ios"], o["lat_ns"]["N"])' "$T/sync.fio.json" "$OUT")
	read -r f o n <<<"${got:-x y z}"
	check "$sy: as many syncs as fio 3.33 (fio $f, iogauge $o)" test "$f" = "$o" -a "$o" = "$n"
done
# With a queue: the syncs of a synchronous engine (fdatasync=4 above: 15), whatever completes first.
run_iogauge run --name=s --filename="$D/fs.ig" --size=256k --bs=4k --rw=write --fdatasync=4 \
	--ioengine=libaio --iodepth=8 --output-format=fio-json
rm -f "$D/fs.ig"
got=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["jobs"][0]["sync"]["total_ios"])' "$OUT")
check "fdatasync=4 with libaio at QD8: 15 syncs, as on psync (got $got)" test "$got" = 15

# Diagnostics never reach stdout: a warning (a sync engine's iodepth) with fio-json.
run_iogauge run --name=w --directory="$D" --size=1m --iodepth=8 --output-format=fio-json
check "a warning goes to stderr" grep -q "acts as 1" "$ERR"
check "stdout is fio's JSON alone" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT"
check "no test file left" dir_empty "$D"
