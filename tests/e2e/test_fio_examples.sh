#!/bin/bash
# What fio's examples and regression jobs need beyond the basics: the vsync, pvsync and pvsync2
# engines, nr_files, fileoffset, cpus_allowed, cpumask, cpus_allowed_policy, numa_cpu_nodes,
# numa_mem_policy, prio, prioclass, the zbd options, continue_on_error and ignore_error, the
# kernel's null, zero and full devices as files.  Each runs under fio and
# iogauge (`iogauge fio`) in the same run with the same io_bytes and total_ios per direction;
# the system calls each engine makes (strace), each thread's CPUs (/proc), errors gone past
# (RLIMIT_FSIZE's EFBIG: the same total_err, first_error and counts as fio; the inject engine's
# EIO per direction); every engine of fio iogauge lacks refused by name with status 2.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# Debian's python3 first: a pyenv shim on PATH costs seconds a call.
PATH=/usr/bin:$PATH

need_iogauge
need_cmd fio python3

D=$E2E_TMP/d
mkdir "$D" || exit 1
# CPUs this process may run on (a container may have fewer than the machine).
CPUS=$(python3 -c 'import os; print(",".join(map(str, sorted(os.sched_getaffinity(0)))))')
export CPU0=${CPUS%%,*}
export MASK0=$((1 << CPU0))
export CPULIST=$CPUS

# ---- 1. A job per option under both tools: the same counts per direction.
cat >"$E2E_TMP/same.fio" <<'JOB'
[global]
bs=4k
size=256k

[vsync]
ioengine=vsync
rw=randrw
[pvsync]
ioengine=pvsync
rw=randrw
[pvsync2]
ioengine=pvsync2
rw=randrw
hipri
[nr_files]
nr_files=3
rw=randread
[fileoffset]
fileoffset=64k
size=128k
rw=read
[cpus_allowed]
cpus_allowed=${CPU0}
rw=randwrite
[cpumask]
cpumask=${MASK0}
rw=randrw
[split]
cpus_allowed=${CPULIST}
cpus_allowed_policy=split
numjobs=2
rw=randread
[numa]
numa_cpu_nodes=0
numa_mem_policy=local
rw=randrw
[numa-bind]
numa_mem_policy=bind:0
rw=randread
[prio]
prio=3
prioclass=2
numjobs=2
rw=randrw
[zbd-options]
max_open_zones=4
job_max_open_zones=2
read_beyond_wp=1
ignore_zone_limits=1
zone_reset_threshold=0.5
zone_reset_frequency=0.1
zonecapacity=1m
rw=randrw
JOB
# fio once per make test for both binaries (the same job file, the same counts).
(cd "$E2E_TMP" && fio_cached --directory="$D" --output-format=json same.fio >fio.json 2>fio.err)
rm -rf "${D:?}"/*
run_iogauge fio --directory="$D" --output-format=json "$E2E_TMP/same.fio"
expect_status 0 "a job per option under iogauge fio: exit 0"
cat >"$E2E_TMP/same.py" <<'PY'
import json, sys
fio = json.load(open(sys.argv[1]))["jobs"]
iog = json.load(open(sys.argv[2]))["jobs"]
def c(j): return [(j[d]["io_bytes"], j[d]["total_ios"]) for d in ("read", "write", "trim")]
bad = len(fio) != len(iog) or len(fio) < (int(sys.argv[3]) if len(sys.argv) > 3 else 14)
for a, b in zip(fio, iog):
    ok = a["jobname"] == b["jobname"] and c(a) == c(b) and a["error"] == 0 and b["error"] == 0
    print("ok  " if ok else "DIFF", a["jobname"], "fio", c(a), "iogauge", c(b))
    bad += not ok
sys.exit(bad != 0)
PY
check "every job: the same io_bytes and total_ios per direction as fio" \
	python3 "$E2E_TMP/same.py" "$E2E_TMP/fio.json" "$OUT"
# iogauge fio keeps its files, as fio does (unlink=0).
rm -rf "${D:?}"/*

# ---- 1b. The kernel's null, zero and full devices as a job's file (fio's examples/steadystate.fio
# writes /dev/null and reads /dev/zero): fio's counts, errors and statuses.
cat >"$E2E_TMP/mem.fio" <<'JOB'
[global]
size=1m
thread
[null-write]
filename=/dev/null
rw=write
bs=128k
numjobs=2
[zero-read]
filename=/dev/zero
rw=randread
[zero-rw]
filename=/dev/zero
rw=randrw
ioengine=libaio
iodepth=4
JOB
fio --output-format=json --output="$E2E_TMP/mem.fio.json" "$E2E_TMP/mem.fio" >/dev/null 2>&1
run_iogauge fio --output-format=json --output="$E2E_TMP/mem.ig.json" "$E2E_TMP/mem.fio"
expect_status 0 "/dev/null and /dev/zero as files: exit 0"
check "... every job: fio's io_bytes and total_ios per direction" \
	python3 "$E2E_TMP/same.py" "$E2E_TMP/mem.fio.json" "$E2E_TMP/mem.ig.json" 4
for spec in "/dev/full:write:28" "/dev/null:read:5"; do
	dev=${spec%%:*} rw=${spec#*:} rw=${rw%%:*} err=${spec##*:}
	fio --name=m --filename="$dev" --size=64k --rw="$rw" --output-format=json >"$E2E_TMP/m.fio.json" 2>/dev/null
	frc=$?
	run_iogauge fio --name=m --filename="$dev" --size=64k --rw="$rw" --output-format=json
	expect_status "$frc" "$dev, rw=$rw: fio's status ($frc)"
	a=$(python3 "$E2E_ROOT/scripts/fio-examples.py" totals "$E2E_TMP/m.fio.json")
	b=$(python3 "$E2E_ROOT/scripts/fio-examples.py" totals "$OUT")
	if ok [ -n "$a" ] && ok [ "$a" = "$b" ] && ok [ "${a##*$'\t'}" = "$err" ]; then
		pass "... fio's counts and error $err ($b)"
	else
		fail "... fio's counts and error $err (fio '$a', iogauge '$b')" "$WHY"
	fi
done
run_iogauge fio --name=m --filename=/dev/zero --rw=read
expect_status 2 "/dev/zero without a size: refused, status 2 (fio: 'you need to specify size=')"
expect_err "^iogauge: /dev/zero has no size: give --size" "... saying so"
run_iogauge fio --name=m --filename=/dev/urandom --size=64k --rw=read
expect_status 2 "/dev/urandom (another character device): refused, status 2"

# ---- 2. The system calls of each engine, and pvsync2's flags.
# calls_ok FILE PATTERN N: strace saw N calls matching PATTERN start and none fail (two threads at
# once make strace split a call into "<unfinished ...>" and "<... resumed>" lines).
calls_ok() {
	[ "$(grep -Ec "$2" "$1")" -eq "$3" ] && ! grep -q '= -1' "$1"
}
if command -v strace >/dev/null 2>&1; then
	for e in vsync:readv:writev pvsync:preadv:pwritev "pvsync2:preadv2:pwritev2"; do
		name=${e%%:*} rd=${e#*:} rd=${rd%%:*} wr=${e##*:}
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=read,write,readv,writev,pread64,pwrite64,preadv,pwritev,preadv2,pwritev2 \
			-o "$E2E_TMP/st.$name" "$IOGAUGE" fio --name=s --directory="$D" --size=64k --rw=randrw \
			--ioengine="$name" --output-format=json >/dev/null 2>"$ERR"
		san_check "strace $name"
		n_rd=$(grep -c "^[0-9]* *$rd(" "$E2E_TMP/st.$name")
		n_wr=$(grep -c "^[0-9]* *$wr(" "$E2E_TMP/st.$name")
		check "--ioengine=$name: 16 requests, each a $rd or $wr of one 4 KiB vector ($n_rd + $n_wr)" \
			[ "$((n_rd + n_wr))" -eq 16 ]
	done
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=preadv2 -o "$E2E_TMP/st.flags" "$IOGAUGE" fio --name=s --directory="$D" \
		--size=16k --rw=read --ioengine=pvsync2 --hipri --uncached >/dev/null 2>"$ERR"
	check "--ioengine=pvsync2 --hipri --uncached: RWF_HIPRI and RWF_DONTCACHE (0x80) on each read" \
		[ "$(grep -Ec ', RWF_HIPRI\|(0x80|RWF_DONTCACHE)\) = 4096$' "$E2E_TMP/st.flags")" -eq 4 ]
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=set_mempolicy -o "$E2E_TMP/st.mpol" "$IOGAUGE" fio --name=s --directory="$D" \
		--size=16k --numjobs=2 --numa_mem_policy=interleave:0 >/dev/null 2>"$ERR"
	check "--numa_mem_policy=interleave:0: each thread sets MPOL_INTERLEAVE on node 0" \
		calls_ok "$E2E_TMP/st.mpol" 'set_mempolicy\(MPOL_INTERLEAVE, \[0x0*1\], [0-9]+' 2
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=ioprio_set -o "$E2E_TMP/st.prio" "$IOGAUGE" fio --name=s --directory="$D" \
		--size=16k --numjobs=2 --prio=5 --prioclass=3 >/dev/null 2>"$ERR"
	if calls_ok "$E2E_TMP/st.prio" 'ioprio_set\(IOPRIO_WHO_PROCESS, 0, IOPRIO_PRIO_VALUE\(IOPRIO_CLASS_IDLE, 5\)' 2; then
		pass "--prio=5 --prioclass=3: each thread sets its I/O priority (idle, 5)"
	else
		fail "--prio=5 --prioclass=3: each thread sets its I/O priority (idle, 5)"
		sed 's/^/# strace: /' "$E2E_TMP/st.prio" | head -n 5
	fi
else
	skip "the engines' system calls" "no strace"
fi
rm -rf "${D:?}"/*

# ---- 3. Each thread's CPUs, as /proc shows them while the job runs: read once the progress line
# counts both threads (the runner draws it after every thread has placed itself and passed its
# start gate), then the job is stopped; no fixed wait.
threads_cpus() { # the Cpus_allowed_list of each thread of $1 but the first (the main one)
	for t in /proc/"$1"/task/*; do
		[ "${t##*/}" = "$1" ] && continue
		sed -n 's/^Cpus_allowed_list:\t//p' "$t/status"
	done | sort | tr '\n' ' '
}
# cpus_of OPTIONS...: the threads' CPUs of a running 2-thread null job with OPTIONS (GOT; WHY when
# the job never showed both threads running).
cpus_of() {
	GOT=
	start_iogauge fio --name=c --ioengine=null --size=1m --time_based --runtime=60 --numjobs=2 --eta=always "$@"
	if await_bg 'Jobs: 2 \(f=2\)' 60 "$OUT"; then
		GOT=$(threads_cpus "$BGPID")
	else
		GOT="not read: $WHY; stdout: $(tr '\r' '\n' <"$OUT" | tail -n 2 | tr '\n' '|')"
	fi
	signal_bg INT 20
}
if [ "$CPULIST" != "$CPU0" ]; then
	cpus_of --cpus_allowed="$CPULIST" --cpus_allowed_policy=split
	want=$(echo "$CPULIST" | tr ',' '\n' | head -n 2 | sort | tr '\n' ' ')
	check "--cpus_allowed_policy=split: thread N on the set's N-th CPU alone ($GOT)" [ "$GOT" = "$want" ]
else
	skip "--cpus_allowed_policy=split" "one CPU here"
fi
cpus_of --cpumask="$MASK0"
check "--cpumask=$MASK0: both threads on CPU $CPU0 ($GOT)" [ "$GOT" = "$CPU0 $CPU0 " ]
NCPU=$(nproc --all)
run_iogauge fio --name=c --ioengine=null --size=1m --cpus_allowed="$NCPU"
expect_status 2 "--cpus_allowed=$NCPU (no such CPU here): status 2"
expect_err "^iogauge: job c: --cpus_allowed: CPU $NCPU does not exist here" "... naming the CPU"
run_iogauge fio --name=c --ioengine=null --size=1m --numa_mem_policy=bind:63
expect_status 2 "--numa_mem_policy=bind:63 (no such node here): status 2"
run_iogauge fio --name=c --ioengine=null --size=1m --numa_mem_policy=prefer:0-1
expect_status 2 "--numa_mem_policy=prefer:0-1: status 2 (prefer takes one node)"
printf '[c]\nsize=1m\ncpus_allowed=%s\nnuma_cpu_nodes=63\n' "$NCPU" >"$E2E_TMP/far.fio"
run_iogauge fio --parse-only "$E2E_TMP/far.fio"
expect_status 0 "--parse-only takes CPUs and nodes this machine lacks (as fio's: the run checks them)"

# ---- 4. Errors gone past: RLIMIT_FSIZE makes the writes past 512 KiB fail with EFBIG.
cat >"$E2E_TMP/errs.py" <<'PY'
import json, sys
def c(f):
    s = open(f).read()  # fio writes its error line before the JSON
    j = json.loads(s[s.index("{"):])["jobs"][0]
    return (j["error"], j.get("total_err"), j.get("first_error"), j["write"]["io_bytes"], j["write"]["total_ios"])
a, b = c(sys.argv[1]), c(sys.argv[2])
print("fio", a, "iogauge", b)
sys.exit(a != b or a[3] != 524288)
PY
head -c 1048576 /dev/urandom >"$D/fio-file"
cp "$D/fio-file" "$D/ig-file"
for opts in "--continue_on_error=write --ignore_error=,EFBIG" "--ignore_error=,EFBIG:ENOSPC" \
	"--continue_on_error=write" "--continue_on_error=all --ignore_error=EIO,27"; do
	# shellcheck disable=SC2086 # the options are words
	(
		trap '' XFSZ
		ulimit -f 512
		fio_cached --name=e --filename="$D/fio-file" --size=1m --rw=write $opts --output-format=json \
			>"$E2E_TMP/fe.json" 2>/dev/null
		echo $? >"$E2E_TMP/fe.rc"
		"$IOGAUGE" fio --name=e --filename="$D/ig-file" --allow-overwrite --size=1m --rw=write $opts \
			--output-format=json >"$E2E_TMP/ie.json" 2>"$ERR"
		echo $? >"$E2E_TMP/ie.rc"
	)
	san_check "errors: $opts"
	same=0
	cmp=$(python3 "$E2E_TMP/errs.py" "$E2E_TMP/fe.json" "$E2E_TMP/ie.json" 2>&1) && same=1
	check "$opts: fio's error, total_err, first_error, io_bytes and total_ios ($cmp)" [ "$same" = 1 ]
	check "... and fio's exit status ($(cat "$E2E_TMP/fe.rc") $(cat "$E2E_TMP/ie.rc"))" \
		[ "$(cat "$E2E_TMP/fe.rc")" = "$(cat "$E2E_TMP/ie.rc")" ]
done
rm -f "$D/fio-file" "$D/ig-file"

# The inject engine's EIO: per direction, and an error outside the list still ends the job.
run_iogauge fio --name=i --directory="$D" --size=1m --ioengine=inject --inject=eio@64k,eio@128k,eio@512k \
	--rw=write --continue_on_error=io
expect_status 0 "three EIO writes gone past: exit 0"
check "... the text report counts them: total=3, first_error=5, write=3" \
	grep -q "errors       : total=3, first_error=5/<Input/output error> (by request: write=3)" "$OUT"
run_iogauge fio --name=i --directory="$D" --size=1m --ioengine=inject --inject=eio@64k --rw=read \
	--ignore_error=ENOSPC
expect_status 1 "--ignore_error=ENOSPC (reads): an EIO read still ends the job, status 1"
expect_err "read error .* at offset 65536: Input/output error" "... naming it"
run_iogauge fio --name=i --directory="$D" --size=1m --ioengine=inject --inject=eio@64k --rw=read \
	--ignore_error=5 --output-format=json
expect_status 0 "--ignore_error=5 (reads): the EIO read gone past"
check "... fio-json: error 5, total_err 1, first_error 5, 255 reads of data" \
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; sys.exit((j["error"], j["total_err"], j["first_error"], j["read"]["io_bytes"]) != (5, 1, 5, 255 * 4096))' "$OUT"
run_iogauge fio --name=i --size=1m --ignore_error=EBOGUS
expect_status 2 "--ignore_error=EBOGUS: status 2"
expect_err "^iogauge: --ignore_error: unknown error 'EBOGUS'" "... naming it"
run_iogauge fio --name=i --size=1m --continue_on_error=sometimes
expect_status 2 "--continue_on_error=sometimes: status 2"
rm -rf "${D:?}"/*

# ---- 5. fio's engines iogauge lacks: refused by name, status 2, before anything is made.
# Every engine this fio has, and every one fio 3.33's source knows (src/options/fio_engines.c's list).
engines=$(fio --enghelp 2>/dev/null | sed -n 's/^\t//p')
engines="$engines rdma rbd nfs http libpmem spdk_is_not_fio_s sg xnvme libcufile cpp_null external:/x.so"
# Each engine's job in a directory of its own, six at a time (each is a small job or a refusal).
EN=$E2E_TMP/engines
mkdir "$EN" || exit 1
i=0
for e in $engines; do
	rw=read
	[ "$e" = ftruncate ] && rw=write # it takes writes only
	mkdir "$EN/$i"
	while [ "$(jobs -rp | wc -l)" -ge 6 ]; do wait -n; done
	(
		timeout -k 5 120 "$IOGAUGE" fio --name=r --directory="$EN/$i" --size=64k --ioengine="$e" --rw=$rw \
			>"$EN/$i.out" 2>"$EN/$i.err"
		echo $? >"$EN/$i.rc"
		rm -rf "${EN:?}/$i"
	) &
	i=$((i + 1))
done
wait
refused=0 accepted=0 i=0
for e in $engines; do
	ERR=$EN/$i.err STATUS=$(cat "$EN/$i.rc")
	i=$((i + 1))
	san_check "iogauge fio --ioengine=$e"
	case $e in
	spdk_is_not_fio_s)
		expect_status 2 "--ioengine=$e (no engine of fio's): status 2"
		expect_err "unknown engine '$e'" "... an unknown engine"
		continue ;;
	esac
	if [ "$STATUS" = 0 ]; then
		accepted=$((accepted + 1))
		continue
	fi
	refused=$((refused + 1))
	expect_status 2 "--ioengine=$e: status 2"
	expect_err "^iogauge: ioengine '$e' \(fio's .*\) is not supported by iogauge$" "... one line naming it"
	check "... one line only" [ "$(wc -l <"$ERR")" = 1 ]
done
echo "# fio's engines: $accepted run by iogauge, $refused refused by name"
check "at least 12 of fio's engines run under iogauge" [ "$accepted" -ge 12 ]
check "docs/fio.md lists each engine iogauge lacks" \
	[ "$(grep -c "^| \`[a-z0-9_-]*\` | no: fio's engine for" "$E2E_ROOT/docs/fio.md")" -ge 30 ]
