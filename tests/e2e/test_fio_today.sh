#!/bin/bash
# Options of today's fio (issue 28, item 1), against fio 3.33 where it has
# them and against fio's current HOWTO where they are newer:
# log_window_value (avg, max, both; fio 3.33's log_max_value) in windowed
# logs, log_issue_time's column, verify_backlog with fio's suffixes and
# verify_backlog_batch (the order of writes and verify reads, from
# write_iolog, as fio's), verify_async_cpus, log_prio with every engine both
# have, and a refused option of the current HOWTO named with its reason.
# Small buffered files in the test's scratch directory.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
PATH=/usr/bin:$PATH # Debian's python3 (a pyenv shim costs seconds a call)
need_iogauge
need_cmd fio python3
need_json
T=$E2E_TMP
ERR=$T/iog.err
cd "$T" || exit 1

# cols FILE: the distinct numbers of fields of FILE's lines.
cols() { awk -F', ' '{ print NF }' "$1" | sort -u | tr '\n' ' '; }

# 1. log_window_value=max (fio 3.33: log_max_value=1) with log_avg_msec: a window's line is its
#    largest latency, so the largest line of a direction is the job's largest clat, as fio's.
LOGJOB=(--name=lw --size=2m --bs=4k --rw=randrw --ioengine=psync --rate_iops=2000 --log_avg_msec=100
	--write_lat_log=lw --write_bw_log=lw --output-format=json)
mkdir fio1 iog1 iog2 iog3
(cd fio1 && fio --filename=f "${LOGJOB[@]}" --log_max_value=1 >j.json 2>/dev/null && rm -f f)
check "fio 3.33 runs the log_max_value=1 job" [ -s fio1/lw_clat.1.log ]
(cd iog1 && "$IOGAUGE" fio --filename=f "${LOGJOB[@]}" --log_window_value=max >j.json 2>"$ERR")
check "log_window_value=max: exit 0" [ $? = 0 ]
san_check max
(cd iog2 && "$IOGAUGE" fio --filename=f "${LOGJOB[@]}" --log_max_value=1 >j.json 2>"$ERR")
check "log_max_value=1 (fio 3.33's name): exit 0" [ $? = 0 ]
cat >maxcmp.py <<'PY'
import json, sys
# The largest window line of each direction is the job's largest clat (ns), and no line is below its min.
d = json.load(open(sys.argv[1] + "/j.json"))["jobs"][0]
m = {0: [], 1: []}
for l in open(sys.argv[1] + "/lw_clat.1.log"):
    f = [int(x) for x in l.split(",")]
    m[f[2]].append(f[1])
bad = 0
for k, dd in ((0, "read"), (1, "write")):
    c = d[dd]["clat_ns"]
    if not m[k] or max(m[k]) != c["max"] or min(m[k]) < c["min"]:
        print(sys.argv[1], dd, max(m[k] or [0]), c["max"], min(m[k] or [0]), c["min"]); bad += 1
sys.exit(bad)
PY
check "fio 3.33's max lines: each direction's largest is its clat max" python3 maxcmp.py fio1
check "iogauge's log_window_value=max: each direction's largest is its clat max, as fio's" python3 maxcmp.py iog1
check "log_max_value=1: the same" python3 maxcmp.py iog2
check "max lines as fio 3.33's: time, value, ddir, bs, prio (5 fields)" [ "$(cols iog1/lw_clat.1.log)" = "$(cols fio1/lw_clat.1.log)" ]
echo "# fio 3.33: $(wc -l <fio1/lw_clat.1.log) clat lines, iogauge $(wc -l <iog1/lw_clat.1.log)"

# 2. log_window_value=both (newer than fio 3.33; the HOWTO's format): time, value, value1, ddir,
#    bs, prio: the window's average and its largest; a bandwidth window's rate in both.
(cd iog3 && "$IOGAUGE" fio --filename=f "${LOGJOB[@]}" --log_window_value=both >j.json 2>"$ERR")
check "log_window_value=both: exit 0" [ $? = 0 ]
cat >both.py <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/j.json"))["jobs"][0]
bad, mx = 0, {0: 0, 1: 0}
for l in open(sys.argv[1] + "/lw_clat.1.log"):
    f = [int(x) for x in l.split(",")]
    if len(f) != 6 or f[2] < f[1] or f[3] not in (0, 1) or f[4] != 0:
        print("clat", f); bad += 1
    mx[f[3]] = max(mx[f[3]], f[2])
for k, dd in ((0, "read"), (1, "write")):
    if mx[k] != d[dd]["clat_ns"]["max"]:
        print(dd, mx[k], d[dd]["clat_ns"]["max"]); bad += 1
for l in open(sys.argv[1] + "/lw_bw.1.log"):
    f = [int(x) for x in l.split(",")]
    if len(f) != 6 or f[1] != f[2] or f[1] <= 0:
        print("bw", f); bad += 1
sys.exit(bad)
PY
check "both: avg then max (max >= avg, the largest max the clat max); bw lines carry the rate twice" python3 both.py iog3
"$IOGAUGE" fio --name=x --log_window_value=most --size=4k >/dev/null 2>"$ERR"
check "log_window_value=most: exit 2" [ $? = 2 ]

# 3. log_issue_time (newer than fio 3.33): a last column, the issue time in ns in the clat and slat
#    logs (a synchronous request's issue is its start: issue + clat is its completion, the time
#    column in ms), 0 in lat and bw lines; with write_lat_log it needs log_offset, as fio says.
mkdir it
(cd it && "$IOGAUGE" fio --name=it --filename=f --size=256k --bs=4k --ioengine=psync --write_lat_log=it \
	--write_bw_log=it --log_offset=1 --log_issue_time=1 --output-format=json >j.json 2>"$ERR")
check "log_issue_time: exit 0" [ $? = 0 ]
cat >issue.py <<'PY'
import sys
bad, last = 0, 0
rows = [[int(x) for x in l.split(",")] for l in open("it/it_clat.1.log")]
for f in rows:
    # time, clat, ddir, bs, offset, prio, issue
    if len(f) != 7 or (f[6] + f[1]) // 1000000 != f[0] or f[6] < last:
        print("clat", f); bad += 1
    last = f[6]
for kind in ("lat", "bw"):
    for l in open("it/it_%s.1.log" % kind):
        f = [int(x) for x in l.split(",")]
        if len(f) != 7 or f[6] != 0:
            print(kind, f); bad += 1
if len(rows) != 64:
    print("lines", len(rows)); bad += 1
sys.exit(bad)
PY
check "the clat log's issue times: 7 fields, issue + clat = the line's time, in order; lat and bw: 0" python3 issue.py
"$IOGAUGE" fio --name=it --filename=it/g --size=16k --write_lat_log=it/x --log_issue_time=1 >/dev/null 2>"$ERR"
check "log_issue_time with write_lat_log and no log_offset: exit 2" [ $? = 2 ]
check "... named as fio names it" grep -q "log_issue_time with --write_lat_log needs --log_offset" "$ERR"
mkdir itw
(cd itw && "$IOGAUGE" fio --name=it --filename=f --size=256k --ioengine=psync --rate_iops=1000 --write_lat_log=it --log_offset=1 \
	--log_issue_time=1 --log_avg_msec=50 >/dev/null 2>"$ERR")
check "windowed lines with log_issue_time: bs, offset and issue time 0" \
	[ "$(awk -F', ' '{ print NF, $4, $5, $7 }' itw/it_clat.1.log | sort -u)" = "7 0 0 0" ]

# 4. verify_backlog and verify_backlog_batch: the order of writes and verify reads (write_iolog
#    has both) and the bytes and requests of each direction, as fio 3.33's; fio's suffixes.
# seq LOG: "OP OFFSET LEN" of each request line.
seq_of() { awk 'NR > 1 && NF == 5 { print $3, $4, $5 }' "$1"; }
for b in 0 4 16 1k; do
	bb=()
	[ "$b" = 0 ] || bb=(--verify_backlog_batch="$b")
	V=(--name=v --size=128k --bs=4k --rw=write --verify=crc32c --verify_backlog=8 "${bb[@]}" --output-format=json)
	rm -f "vf.$b" "vi.$b" "fio.il.$b" "iog.il.$b"
	fio --filename="vf.$b" "${V[@]}" --write_iolog="fio.il.$b" >"vb.fio.$b" 2>/dev/null
	"$IOGAUGE" fio --filename="vi.$b" "${V[@]}" --write_iolog="iog.il.$b" >"vb.iog.$b" 2>"$ERR"
	check "verify_backlog=8 batch=$b: exit 0" [ $? = 0 ]
	san_check "backlog $b"
	fs=$(seq_of "fio.il.$b" | md5sum) is=$(seq_of "iog.il.$b" | md5sum)
	echo "# batch $b: fio $(seq_of "fio.il.$b" | cut -c1 | tr -d '\n'), iogauge $(seq_of "iog.il.$b" | cut -c1 | tr -d '\n')"
	check "batch=$b: the same writes and verify reads in the same order as fio 3.33" [ "$fs" = "$is" ]
	fc="$(jget "vb.fio.$b" .jobs[0].read.io_bytes .jobs[0].read.total_ios .jobs[0].write.io_bytes .jobs[0].write.total_ios | tr '\n' ' ')"
	ic="$(jget "vb.iog.$b" .jobs[0].read.io_bytes .jobs[0].read.total_ios .jobs[0].write.io_bytes .jobs[0].write.total_ios | tr '\n' ' ')"
	check "batch=$b: bytes and requests per direction as fio's ($fc)" [ "$ic" = "$fc" ]
	rm -f "vf.$b" "vi.$b"
done
rm -f vs.f vs.i
fio_cached --name=v --filename=vs.f --size=256k --bs=4k --rw=write --verify=crc32c --verify_backlog=1k \
	--verify_backlog_batch=1k --output-format=json >vs.fio 2>/dev/null
check "fio 3.33 takes verify_backlog=1k" [ -s vs.fio ]
"$IOGAUGE" fio --name=v --filename=vs.i --size=256k --bs=4k --rw=write --verify=crc32c --verify_backlog=1k \
	--verify_backlog_batch=1k --output-format=json >vs.iog 2>"$ERR"
check "verify_backlog=1k verify_backlog_batch=1k (fio's suffixes): exit 0" [ $? = 0 ]
check "... the reads and writes of fio's" [ "$(jget vs.iog .jobs[0].read.total_ios .jobs[0].write.total_ios)" = \
	"$(jget vs.fio .jobs[0].read.total_ios .jobs[0].write.total_ios)" ]
rm -f vs.f vs.i

# 5. verify_async_cpus: a CPU this machine has not is refused, as fio 3.33 refuses it.
ncpu=$(nproc --all)
fio --name=v --filename=va.f --size=64k --rw=write --verify=crc32c --verify_async=2 --verify_async_cpus="$ncpu" \
	>/dev/null 2>va.ferr
check "fio 3.33 refuses verify_async_cpus=$ncpu" grep -q "failed parsing verify_async_cpus" va.ferr
"$IOGAUGE" fio --name=v --filename=va.i --size=64k --rw=write --verify=crc32c --verify_async=2 \
	--verify_async_cpus="$ncpu" >/dev/null 2>"$ERR"
check "iogauge too: exit 2" [ $? = 2 ]
check "... naming the CPU" grep -q "verify_async_cpus: CPU $ncpu does not exist" "$ERR"
"$IOGAUGE" fio --name=v --filename=va.i --size=64k --rw=write --verify=crc32c --verify_async=2 \
	--verify_async_cpus=0 --output-format=json >va.json 2>"$ERR"
check "verify_async_cpus=0: verified (exit 0, every block read back)" [ "$(jget va.json .jobs[0].read.total_ios)" = 16 ]
rm -f va.f va.i

# 6. log_prio with every engine both have: the priority column as fio's (prio and prioclass).
mkdir lp
for e in psync sync pvsync pvsync2 vsync libaio io_uring posixaio mmap null; do
	for p in "" "--prioclass=2 --prio=3" "--prioclass=1 --prio=0"; do
		# shellcheck disable=SC2086 # p is two options or none
		(cd lp && fio --name=p --filename=pf --size=16k --ioengine=$e $p --write_lat_log=pf --log_prio=1 \
			--output-format=json >/dev/null 2>&1)
		f=$(awk -F', ' '{ print $NF }' lp/pf_clat.1.log 2>/dev/null | sort -u | tr '\n' ' ')
		rm -f lp/pf_*.log
		# shellcheck disable=SC2086
		(cd lp && "$IOGAUGE" fio --name=p --filename=pi --size=16k --ioengine=$e $p --write_lat_log=pf \
			--log_prio=1 --output-format=json >/dev/null 2>"$ERR")
		i=$(awk -F', ' '{ print $NF }' lp/pf_clat.1.log 2>/dev/null | sort -u | tr '\n' ' ')
		rm -f lp/pf_*.log
		if ok [ -n "$f" ] && ok [ "$i" = "$f" ]; then
			pass "log_prio, $e ${p:-(no prio)}: the column as fio 3.33's ($f)"
		else
			fail "log_prio, $e ${p:-(no prio)}: the column as fio 3.33's" "$WHY (iogauge: $i)"
		fi
	done
done
rm -f lp/pf lp/pi

# 7. An option of fio's current HOWTO that iogauge refuses: named with the reason, status 2
#    (fio 3.33 does not know it); docs/fio.md lists every refused option with one.
"$IOGAUGE" fio --name=x --size=4k --sprandom=1 >/dev/null 2>"$ERR"
check "sprandom (newer than fio 3.33): exit 2" [ $? = 2 ]
check "... 'unsupported fio option' with its reason" grep -q "unsupported fio option 'sprandom' (.*preconditioning" "$ERR"
"$IOGAUGE" fio --name=x --size=4k --xnvme_async=emu >/dev/null 2>"$ERR"
check "an engine's option: the engine named as the reason" grep -q "fio's xnvme engine, which iogauge does not have" "$ERR"
MD=$E2E_ROOT/docs/fio.md
check "docs/fio.md: every refused option has a reason" \
	[ "$(sed -n '/^## Not supported/,$p' "$MD" | grep '^| `' | awk -F'|' '$5 ~ /^ *$/' | wc -l)" = 0 ]
# shellcheck disable=SC2016 # the backquotes are markdown's
check "docs/fio.md: the current HOWTO's options marked newer (sprandom)" \
	grep -q '^| `sprandom` | .*| newer |$' "$MD"
# shellcheck disable=SC2016
check "docs/fio.md: log_window_value, log_issue_time, verify_backlog_batch among the supported" \
	[ "$(grep -cE '^\| `(log_window_value|log_issue_time|verify_backlog_batch|verify_async_cpus)`' "$MD")" = 4 ]
