#!/bin/bash
# fio's limits where fio has none (issue 27): jobs iogauge refused or counted otherwise, each
# against fio 3.33 in the same run (`iogauge fio`, fio's JSON): strided zones the region's end cuts
# short (and a write never past the region), io_size that is no whole number of sizes, JESD219's
# mix (bssplit, blockalign, the zoned distribution), exitall's exit_what (fio's examples/exitwhat.fio,
# made short: its second stonewall group runs, its rate-limited libaio jobs send one request a
# direction), steadystate_duration under 2 s, and the file engines' accounting under size, io_size,
# loops and rwmix.  Every job is small; the longest waits are the exitall and steady-state ones.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# Debian's python3 first: a pyenv shim on PATH costs seconds a call.
PATH=/usr/bin:$PATH

need_iogauge
need_json
need_cmd fio python3

D=$E2E_TMP/d
mkdir -p "$D/fio" "$D/ig" || exit 1
j() { jget "$1" "$2" 2>/dev/null; }

# compare NAME JOBFILE [KEYS]: fio and iogauge fio on the job file, each in a directory of its own;
# every job's io_bytes and total_ios per direction (KEYS=clat: and its clat samples) the same.
cat >"$E2E_TMP/same.py" <<'PY'
import json, sys
fio = json.load(open(sys.argv[1]))["jobs"]
iog = json.load(open(sys.argv[2]))["jobs"]
keys = sys.argv[3].split(",") if len(sys.argv) > 3 and sys.argv[3] else []
def c(j):
    r = []
    for d in ("read", "write", "trim"):
        r.append((j[d]["io_bytes"], j[d]["total_ios"]) + ((j[d]["clat_ns"].get("N"),) if "clat" in keys else ()))
    return r
bad = len(fio) != len(iog) or not fio
for a, b in zip(fio, iog):
    ok = a.get("jobname") == b.get("jobname") and c(a) == c(b) and a["error"] == b["error"]
    print("ok  " if ok else "DIFF", a.get("jobname"), "fio", c(a), a["error"], "iogauge", c(b), b["error"])
    bad += not ok
sys.exit(bad != 0)
PY
compare() {
	local name=$1 job=$2 keys=${3:-}
	rm -rf "${D:?}"/fio/* "${D:?}"/ig/*
	fio_cached --directory="$D/fio" --output-format=json --output="$E2E_TMP/$name.fio.json" "$job" \
		>/dev/null 2>"$E2E_TMP/$name.fio.err"
	run_iogauge fio --directory="$D/ig" --output-format=json --output="$E2E_TMP/$name.ig.json" "$job"
	expect_status 0 "$name: iogauge fio runs it (exit 0)"
	if python3 "$E2E_TMP/same.py" "$E2E_TMP/$name.fio.json" "$E2E_TMP/$name.ig.json" "$keys" >"$E2E_TMP/$name.cmp"; then
		pass "$name: every job's io_bytes and total_ios per direction${keys:+ and $keys samples} as fio's"
	else
		fail "$name: every job's io_bytes and total_ios per direction${keys:+ and $keys samples} as fio's" \
			"$(grep DIFF "$E2E_TMP/$name.cmp" | head -3)"
	fi
}

# ---- 1. Strided zones the region's end cuts short: fio walks them and ends the loop at the first
# request that would cross the end (then another loop while loops or io_size last).
cat >"$E2E_TMP/zones.fio" <<'JOB'
[global]
ioengine=psync
bs=4k
zonemode=strided
[smaller-read]
rw=read
size=1m
zonesize=4m
[smaller-write]
rw=write
size=1m
zonesize=4m
[cut-last]
rw=read
size=3m
zonesize=1536k
zonerange=2m
[cut-loops]
rw=write
size=3m
zonesize=1536k
zonerange=2m
loops=2
[cut-io_size]
rw=read
size=3m
zonesize=1536k
zonerange=2m
io_size=4m
[short-zones]
rw=read
size=1m
zonesize=256k
zonerange=4m
[offset]
rw=read
offset=1m
size=3m
zonesize=1536k
zonerange=2m
[skips]
rw=read
size=5m
zonesize=1m
zonerange=2m
zoneskip=1m
[queued]
rw=write
ioengine=libaio
iodepth=8
size=1m
zonesize=2m
zonerange=4m
io_size=2m
JOB
compare zones "$E2E_TMP/zones.fio"

# The write stays inside its region: a user's 8 MiB file, [1 MiB, 4 MiB) written, the rest intact.
U=$D/user.bin
head -c 8388608 /dev/urandom >"$U"
out_hash() { { head -c 1048576 "$U"; tail -c 4194304 "$U"; } | xxh128sum | cut -d' ' -f1; }
before=$(out_hash)
run_iogauge run --name=z --filename="$U" --rw=write --bs=4k --offset=1m --size=3m --zonemode=strided \
	--zonesize=1536k --zonerange=2m --loops=2 --allow-overwrite --output-format=fio-json
expect_status 0 "a strided write whose last zone the region cuts: exit 0"
check "... 1280 writes of 4 KiB, as fio's (5 MiB: two loops of 2.5 MiB)" [ "$(j "$OUT" .jobs[0].write.total_ios)" = 1280 ]
check "... not a byte outside [1 MiB, 4 MiB) changed" [ "$(out_hash)" = "$before" ]

# ---- 2. io_size that is no whole number of sizes: fio's do_io stops at io_size x loops bytes,
# its loops ending where a draw fails (a random job without a map runs one loop).
cat >"$E2E_TMP/io_size.fio" <<'JOB'
[global]
ioengine=psync
size=3m
bs=4k
[seq]
rw=read
io_size=4m
[rand]
rw=randread
io_size=4m
[rand-nomap]
rw=randread
norandommap
io_size=4m
[seq-under]
rw=read
io_size=1m
[loops-io_size]
rw=read
io_size=4m
loops=2
[bssplit-seq]
rw=read
bssplit=4k/50:64k/50
io_size=4m
[bssplit-randrw]
rw=randrw
bssplit=4k/50:64k/50
io_size=4m
[bssplit-under]
rw=randread
bssplit=4k/50:64k/50
io_size=1m
[bssplit-nomap-loops]
rw=randrw
bssplit=4k/50:64k/50
norandommap
loops=2
[bssplit-rw-loops]
rw=rw
bssplit=4k/50:64k/50
loops=2
JOB
compare io_size "$E2E_TMP/io_size.fio"

# ---- 3. JESD219's mix (fio's examples/jesd219.fio on a small file, randrepeat as fio's default:
# with randrepeat=0 fio's own counts differ from run to run): fio's zoned offsets decide the sizes
# near the end of the file, so the same requests.
cat >"$E2E_TMP/jesd219.fio" <<'JOB'
[JESD219]
ioengine=libaio
direct=1
rw=randrw
norandommap
rwmixread=40
rwmixwrite=60
iodepth=256
numjobs=4
bssplit=512/4:1024/1:1536/1:2048/1:2560/1:3072/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3
blockalign=4k
random_distribution=zoned:50/5:30/15:20/80
filename=jesd219.dat
size=16m
[zoned-bsrange]
stonewall
numjobs=1
ioengine=psync
rw=randrw
filename=zoned.dat
size=4m
bsrange=4k-16k
random_distribution=zoned:60/10:30/20:10/70
[zoned_abs]
ioengine=psync
rw=randread
filename=zoned_abs.dat
size=4m
bssplit=4k/50:64k/50
random_distribution=zoned_abs:60/1m:40/3m
[zoned-loops]
ioengine=psync
rw=randrw
filename=zoned_loops.dat
size=4m
bssplit=4k/50:64k/50
random_distribution=zoned:50/5:50/95
loops=2
JOB
compare jesd219 "$E2E_TMP/jesd219.fio"

# ---- 4. exitall (fio's examples/exitwhat.fio, 300 requests a slow job): exit_what=stonewall stops
# the running jobs and the next stonewall's group still runs; exit_what=all stops the rest.  The
# fast jobs' rate (300 bytes/s) lets one request a direction go at iodepth 32, as in fio.
cat >"$E2E_TMP/exitwhat.fio" <<'JOB'
[global]
filename=exitwhat.dat
filesize=16m
blocksize=4096
group_reporting
exitall=1
[slow1]
rw=read
numjobs=1
ioengine=sync
new_group=1
thinktime=2000
number_ios=300
exit_what=stonewall
[fast1]
new_group=1
rw=randrw
numjobs=3
ioengine=libaio
iodepth=32
rate=300,300,300
[slow2]
stonewall
rw=write
numjobs=1
ioengine=sync
new_group=1
thinktime=2000
number_ios=300
exit_what=all
[fast2]
rw=randrw
numjobs=3
ioengine=libaio
iodepth=32
rate=300,300,300
[runsnever]
rw=randrw
numjobs=3
ioengine=libaio
iodepth=32
rate=300,300,300
JOB
compare exitwhat "$E2E_TMP/exitwhat.fio"
check "exitwhat: the second group ran (300 writes of slow2, one of each of fast2's and runsnever's six threads)" \
	[ "$(j "$E2E_TMP/exitwhat.ig.json" .jobs[2].write.total_ios) $(j "$E2E_TMP/exitwhat.ig.json" .jobs[2].read.total_ios)" = "306 6" ]

# exit_what's reach, by time: a job's end stops its reporting group only (exitall on any job makes
# every job's end do it, fio's exitall_on_terminate); exit_what=all lists the later job, with nothing done.
cat >"$E2E_TMP/reach.fio" <<'JOB'
[global]
ioengine=null
size=1m
bs=4k
time_based
[ends]
runtime=1
[stopped]
runtime=20
[own-group]
new_group
runtime=3
[marks]
exitall
runtime=20
[all]
stonewall
runtime=1
exit_what=all
[never]
stonewall
runtime=20
JOB
fio_cached --output-format=json --output="$E2E_TMP/reach.fio.json" "$E2E_TMP/reach.fio" >/dev/null 2>&1
run_iogauge fio --output-format=json --output="$E2E_TMP/reach.ig.json" "$E2E_TMP/reach.fio"
expect_status 0 "exit_what's reach: exit 0"
for t in fio ig; do
	f=$E2E_TMP/reach.$t.json
	r=$(python3 -c 'import json,sys
j = {x["jobname"]: x for x in json.load(open(sys.argv[1]))["jobs"]}
def ms(n): return j[n]["job_runtime"] if n in j else -1
print(int(ms("stopped") < 5000 and ms("marks") < 5000 and ms("own-group") >= 2900 and ms("all") < 5000 and
          ms("never") == 0 and j["never"]["read"]["io_bytes"] == 0))' "$f" 2>/dev/null)
	check "$t: the job ending stops its group's jobs (exitall on another job), not the new_group's; exit_what=all: the later job listed, nothing done" \
		[ "$r" = 1 ]
done

# ---- 5. steadystate_duration under 2 s: fio counts whole seconds (one value: the deviation is 0,
# a slope is met at once, nan in fio's report); under one second, no detection.
SS=(--name=s --ioengine=null --size=1m --bs=4k --time_based --rate_iops=2000)
fio "${SS[@]}" --runtime=6 --ss=iops:50% --ss_dur=1 --output-format=json --output="$E2E_TMP/ss1.fio.json" >/dev/null 2>&1
run_iogauge fio "${SS[@]}" --runtime=6 --ss=iops:50% --ss_dur=1 --output-format=json --output="$E2E_TMP/ss1.fj.json" \
	--json="$E2E_TMP/ss1.ig.json"
expect_status 0 "ss_dur=1: accepted (exit 0), as fio does"
if ok [ "$(j "$E2E_TMP/ss1.fio.json" .jobs[0].steadystate.attained)" = 1 ] &&
	ok [ "$(j "$E2E_TMP/ss1.ig.json" .jobs[0].steadystate.attained)" = true ] &&
	ok [ "$(j "$E2E_TMP/ss1.ig.json" '.jobs[0].steadystate.window.iops|length')" = 1 ]; then
	pass "ss_dur=1: a window of one value, attained in both"
else
	fail "ss_dur=1: a window of one value, attained in both" "$WHY"
fi
# fio judges at its helper thread's ticks, which need not wait for the job's first second (on a
# busy machine it may stop the job at once); iogauge judges a whole second of the job's own.
if ok between "$(j "$E2E_TMP/ss1.fio.json" .jobs[0].job_runtime)" 0 4500 &&
	ok between "$(j "$E2E_TMP/ss1.fj.json" .jobs[0].job_runtime)" 1000 4500; then
	pass "ss_dur=1: both stop well before --runtime=6 (iogauge after its one-second window)"
else
	fail "ss_dur=1: both stop well before --runtime=6 (iogauge after its one-second window)" "$WHY"
fi
fio "${SS[@]}" --runtime=6 --ss=iops_slope:0 --ss_dur=1500ms >"$E2E_TMP/ss2.fio.txt" 2>&1
run_iogauge fio "${SS[@]}" --runtime=6 --ss=iops_slope:0 --ss_dur=1500ms --json="$E2E_TMP/ss2.ig.json"
if ok grep -q "steadystate  : attained=yes" "$E2E_TMP/ss2.fio.txt" &&
	ok [ "$(j "$E2E_TMP/ss2.ig.json" .jobs[0].steadystate.attained)" = true ] &&
	ok [ "$(j "$E2E_TMP/ss2.ig.json" .jobs[0].steadystate.duration_ns)" = 1000000000 ]; then
	pass "ss_dur=1500ms: a window of one second; a slope over it is met at once, in both"
else
	fail "ss_dur=1500ms: a window of one second; a slope over it is met at once, in both" "$WHY"
fi
fio "${SS[@]}" --runtime=2 --ss=iops:50% --ss_dur=500ms --output-format=json --output="$E2E_TMP/ss3.fio.json" >/dev/null 2>&1
run_iogauge fio "${SS[@]}" --runtime=2 --ss=iops:50% --ss_dur=500ms --output-format=json --output="$E2E_TMP/ss3.fj.json" \
	--json="$E2E_TMP/ss3.ig.json"
expect_status 0 "ss_dur=500ms: accepted (exit 0)"
if ok [ "$(j "$E2E_TMP/ss3.fio.json" .jobs[0].steadystate)" = "" ] &&
	ok [ "$(j "$E2E_TMP/ss3.ig.json" .jobs[0].steadystate)" = "" ] &&
	ok between "$(j "$E2E_TMP/ss3.fio.json" .jobs[0].job_runtime)" 1990 2100 &&
	ok between "$(j "$E2E_TMP/ss3.fj.json" .jobs[0].job_runtime)" 1990 2100; then
	pass "ss_dur=500ms: no steady-state detection in either, the whole --runtime"
else
	fail "ss_dur=500ms: no steady-state detection in either, the whole --runtime" "$WHY"
fi
check "ss_dur=500ms: not silent under iogauge run" grep -q "under one, no steady-state detection" \
	<("$IOGAUGE" run "${SS[@]}" --runtime=100ms --ss_dur=500ms 2>&1 >/dev/null)

# ---- 6. fio's file engines: fio's loop over the files (size, io_size, loops, rwmix,
# file_service_type) decides what is counted and how many files are operated on.
cat >"$E2E_TMP/fileops.fio" <<'JOB'
[global]
nrfiles=4
filesize=16k
bs=4k
[create-size]
ioengine=filecreate
size=16k
[stat-size]
ioengine=filestat
size=16k
[delete-size]
ioengine=filedelete
size=16k
[stat-rr2]
ioengine=filestat
file_service_type=roundrobin:2
size=16k
[stat-seq]
ioengine=filestat
file_service_type=sequential
size=40k
[create-rw]
ioengine=filecreate
rw=rw
[stat-randrw]
ioengine=filestat
rw=randrw
rwmixread=30
[create-io_size]
ioengine=filecreate
io_size=96k
[stat-loops]
ioengine=filestat
loops=2
[delete-write]
ioengine=filedelete
rw=write
[stat-partial]
ioengine=filestat
filesize=10k
[create-threads]
stonewall
ioengine=filecreate
nrfiles=20
filesize=8k
numjobs=3
rw=randrw
group_reporting
JOB
compare fileops "$E2E_TMP/fileops.fio" clat
printf '[d]\nioengine=filedelete\nnrfiles=4\nfilesize=16k\nio_size=96k\n' >"$E2E_TMP/del2.fio"
run_iogauge fio --directory="$D/ig" "$E2E_TMP/del2.fio"
expect_status 2 "filedelete with io_size past its files: refused before anything (fio fails the second pass, ENOENT)"
expect_err "makes or removes each item once; --io_size=98304 is more than its files' 65536 bytes" "... and the message says why"
