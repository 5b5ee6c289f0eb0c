#!/bin/bash
# fio's own regression jobs and examples, under fio and under iogauge in one run.
#
#   scripts/fio-regression.sh [--iogauge BIN] [--fio BIN] [--full] [--tests "N..."]
#                             [--no-jobs] [--no-examples] [--examples "NAME..."] [--parse-only]
#                             [--fio-totals FILE] [--work DIR] [--timeout S] [--record FILE]
#
# Jobs: fio 3.33's t/run-fio-tests.py (from scripts/fio-source.sh) runs its
# job-file tests (t0001..t0026) and t/readonly.py once against the real fio
# and once against iogauge called as `fio` (a link), each invocation under
# `timeout`.  Prints a line per test:
#   result tNNNN fio=PASSED|FAILED|NOT-RUN iogauge=PASSED|FAILED why
# and SKIP lines for the tests left out (heavy ones, unless --full).
#
# Examples (all of examples/*.fio, or --examples' names): each through
# `--parse-only` under both,
#   example NAME fio=ACCEPT|REJECT iogauge=ACCEPT|REJECT(status) first line of iogauge's stderr
# then (unless --parse-only) run under both, each in a directory of its own,
# and judged:
#   verdict NAME same bytes (how it ran here)
#   verdict NAME differs: the first difference (job, direction, fio's and iogauge's bytes/ios)
#   verdict NAME refused: iogauge's refusal (the engine or option, and why)
#   verdict NAME skipped: needs what is not here (a device, a server, a network)
# each run followed by a line per job: "same|DIFF job NAME: fio R/r W/w T/t iogauge ..."
# (io_bytes/total_ios of reads, writes and trims).  How an example runs here
# (its sizes made small, a device made a file, a time-based job made
# size-bound) is EX_EDIT below, each with why; a file system of its own for
# fill_device (EX_FS, root only).  Then the counts.
#
# --record FILE writes fio's own verdicts ("job N PASSED", "example NAME
# ACCEPT") and its runs of the examples ("ran NAME STATUS", "bytes NAME JOB
# TOTALS"), which tests/e2e/test_fio_regression.sh reads instead of running
# fio (0.7 s a start here: too slow for every make test); --fio-totals FILE
# judges iogauge's runs against such a record in place of fio's.  Exit 0 when
# it ran (whatever the results: the e2e test judges them), 77 when it cannot
# run here (no fio source, no python3, no fio).
set -uo pipefail
# Debian's python3 when there is one: a pyenv shim on PATH costs a third of a second a call.
PYTHON=python3
[ -x /usr/bin/python3 ] && PYTHON=/usr/bin/python3
ROOT=$(cd "$(dirname "$0")/.." && pwd)
IOGAUGE=$ROOT/iogauge
FIO=$(command -v fio || true)
FULL=0
TESTS=""
JOBS=1
EXAMPLES=1
WORK=""
TIMEOUT=""
RECORD=""
ONLY=""
RUN=1
FIO_TOTALS=""

while [ $# -gt 0 ]; do
	case $1 in
	--iogauge) IOGAUGE=$2; shift 2 ;;
	--fio) FIO=$2; shift 2 ;;
	--full) FULL=1; shift ;;
	--tests) TESTS=$2; shift 2 ;;
	--no-jobs) JOBS=0; shift ;;
	--no-examples) EXAMPLES=0; shift ;;
	--work) WORK=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--record) RECORD=$2; shift 2 ;;
	--examples) ONLY=$2; shift 2 ;;
	--parse-only) RUN=0; shift ;;
	--fio-totals) FIO_TOTALS=$2; shift 2 ;;
	*) echo "usage: $0 [--iogauge BIN] [--fio BIN] [--full] [--tests \"N...\"] [--no-jobs] [--no-examples] [--examples \"NAME...\"] [--parse-only] [--fio-totals FILE] [--work DIR] [--timeout S] [--record FILE]" >&2
	   exit 2 ;;
	esac
done

# Each run's time limit: fio's heavy jobs (--full) take a minute or more under either tool.
[ -z "$TIMEOUT" ] && { [ "$FULL" = 1 ] && TIMEOUT=300 || TIMEOUT=120; }
skip_all() { echo "SKIP fio regression: $*"; exit 77; }
command -v "$PYTHON" >/dev/null || skip_all "no python3 to run fio's t/run-fio-tests.py"
{ [ -n "$FIO" ] && [ -x "$FIO" ]; } || skip_all "no fio binary to compare with (apt-get install fio)"
[ -x "$IOGAUGE" ] || skip_all "no iogauge binary at $IOGAUGE"
SRC=$("$ROOT/scripts/fio-source.sh") || skip_all "fio 3.33's source could not be fetched (scripts/fio-source.sh)"
IOGAUGE=$(cd "$(dirname "$IOGAUGE")" && pwd)/$(basename "$IOGAUGE")

own_work=0
if [ -z "$WORK" ]; then
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/iogauge-fio-regression.XXXXXX")
	own_work=1
fi
# shellcheck disable=SC2317 # run by the trap
cleanup() { if [ "$own_work" = 1 ]; then rm -rf "$WORK"; fi; }
trap cleanup EXIT
mkdir -p "$WORK/bin"
if [ -n "$RECORD" ]; then
	RECORD=$(cd "$(dirname "$RECORD")" && pwd)/$(basename "$RECORD")
	{ echo "# fio's own verdicts: $("$FIO" --version) ($FIO), $(date -u +%Y-%m-%d), by scripts/fio-regression.sh --record"
	  echo "# job N PASSED|FAILED: t/run-fio-tests.py's test N; example NAME ACCEPT|REJECT: examples/NAME under --parse-only"
	  echo "# ran NAME STATUS, bytes NAME JOB R/r W/w T/t ERROR (tabs): fio's run of the example as this script edits it"; } >"$RECORD"
fi
# iogauge called as fio (argv[0] is .../fio), and both binaries under a timeout:
# fio 3.33 itself hangs on some jobs here (io_submit_mode=offload).
ln -sf "$IOGAUGE" "$WORK/bin/fio"
printf '#!/bin/sh\nexec timeout -k 5 %s "%s" "$@"\n' "$TIMEOUT" "$WORK/bin/fio" >"$WORK/iogauge-as-fio"
printf '#!/bin/sh\nexec timeout -k 5 %s "%s" "$@"\n' "$TIMEOUT" "$FIO" >"$WORK/real-fio"
chmod +x "$WORK/iogauge-as-fio" "$WORK/real-fio"

# ---- fio's job-file tests

# Left out unless --full, each with its reason (counted and named).
declare -A HEAVY=(
	[2]="writes and verifies a 5 GiB file (30 s under fio)"
	[6]="4 GiB of random I/O with verify (60 s under fio)"
	[9]="60 s time-based job that wants 4 CPUs"
	[11]="10 s time-based flow job"
	[12]="12 s time-based flow job"
	[14]="12 s time-based flow job"
)
# fio 3.33 hangs on these here (io_submit_mode=offload): iogauge alone, unless --full.
declare -A FIO_HANGS=([10]=1 [13]=1)
ALL="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 1003"

run_suite() { # $1: label, $2: wrapper, rest: test ids
	local label=$1 wrapper=$2
	shift 2
	[ $# -eq 0 ] && return 0
	rm -rf "$WORK/art-$label"
	"$PYTHON" "$SRC/t/run-fio-tests.py" -r "$SRC" -f "$wrapper" -a "$WORK/art-$label" -k -o "$@" \
		>"$WORK/$label.log" 2>&1
	return 0
}

# The verdict of test $2 in log $1: PASSED, or FAILED: reason.
verdict() {
	sed -n "s/^Test $2 \(PASSED\|FAILED.*\) [^ ]*\$/\1/p" "$1" | head -n 1
}

if [ "$JOBS" = 1 ]; then
	want=${TESTS:-$ALL}
	fio_ids=()
	ig_ids=()
	for t in $want; do
		if [ "$FULL" = 0 ] && [ -z "$TESTS" ] && [ -n "${HEAVY[$t]:-}" ]; then
			printf 'SKIP t%04d: %s (--full runs it)\n' "$t" "${HEAVY[$t]}"
			continue
		fi
		ig_ids+=("$t")
		if [ "$FULL" = 1 ] || [ -z "${FIO_HANGS[$t]:-}" ]; then
			fio_ids+=("$t")
		fi
	done
	run_suite fio "$WORK/real-fio" "${fio_ids[@]}"
	run_suite iogauge "$WORK/iogauge-as-fio" "${ig_ids[@]}"
	fio_pass=0 both=0 ig_pass=0 ig_extra=0 nrun=0
	for t in "${ig_ids[@]}"; do
		nrun=$((nrun + 1))
		f=$( [ -f "$WORK/fio.log" ] && verdict "$WORK/fio.log" "$t")
		[ -z "$f" ] && f="NOT-RUN (fio 3.33 hangs on it here; --full runs it)"
		g=$(verdict "$WORK/iogauge.log" "$t")
		[ -z "$g" ] && g="FAILED: no verdict"
		why=""
		if [ "${g%%:*}" = FAILED ]; then
			# The first line iogauge wrote on stderr says why, when it said anything.
			d=$(printf '%s/art-iogauge/%04d' "$WORK" "$t")
			e=$(cat "$d"/*.stderr 2>/dev/null | grep -m 1 . | sed 's/^iogauge: //; s|[^ ]*/t/jobs/||')
			[ -n "$e" ] && why=" | $e"
		fi
		printf 'result t%04d fio=%s iogauge=%s%s\n' "$t" "${f%%:*}" "$g" "$why"
		[ -n "$RECORD" ] && [ "${f%% *}" != NOT-RUN ] && echo "job $t ${f%%:*}" >>"$RECORD"
		[ "${f%%:*}" = PASSED ] && fio_pass=$((fio_pass + 1))
		[ "$g" = PASSED ] && ig_pass=$((ig_pass + 1))
		[ "${f%%:*}" = PASSED ] && [ "$g" = PASSED ] && both=$((both + 1))
		[ "${f%%:*}" != PASSED ] && [ "$g" = PASSED ] && ig_extra=$((ig_extra + 1))
	done
	echo "jobs: $nrun tests run; fio passes $fio_pass; iogauge passes $both of those ($ig_extra more that fio does not pass)"
fi

# ---- fio's examples: --parse-only under both, then run under both and their bytes compared

# Examples that need what this machine has not: a device, a server, a network, a library Debian's
# fio is not built with.  Never run (each line says what it needs).
declare -A EX_SKIP=(
	[cpp_null.fio]="fio's external C++ engine (not in Debian's fio: a library built from fio's source)"
	[dev-dax.fio]="a device-DAX persistent-memory device (/dev/dax0.0)"
	[dfs.fio]="a DAOS server (network; not in Debian's fio)"
	[gfapi.fio]="a GlusterFS volume (network)"
	[gpudirect-rdmaio-client.fio]="an RDMA NIC and a GPU (not in Debian's fio)"
	[gpudirect-rdmaio-server.fio]="an RDMA NIC and a GPU (not in Debian's fio)"
	[http-s3-crypto.fio]="an S3 server (network; not in Debian's fio)"
	[http-s3-storage-class.fio]="an S3 server (network; not in Debian's fio)"
	[http-s3.fio]="an S3 server (network; not in Debian's fio)"
	[http-swift.fio]="a Swift server (network; not in Debian's fio)"
	[http-webdav.fio]="a WebDAV server (network; not in Debian's fio)"
	[ime.fio]="DDN's Infinite Memory Engine (not in Debian's fio)"
	[libcufile-cufile.fio]="an NVIDIA GPU with GPUDirect Storage (not in Debian's fio)"
	[libcufile-posix.fio]="an NVIDIA GPU with GPUDirect Storage (not in Debian's fio)"
	[libhdfs.fio]="a Hadoop HDFS cluster (network; not in Debian's fio)"
	[libiscsi.fio]="an iSCSI target (network; not in Debian's fio)"
	[libpmem.fio]="persistent memory mounted with DAX (/mnt/pmem)"
	[librpma_apm-client.fio]="an RDMA NIC and persistent memory (network; not in Debian's fio)"
	[librpma_apm-server.fio]="an RDMA NIC and persistent memory (network; not in Debian's fio)"
	[librpma_gpspm-client.fio]="an RDMA NIC and persistent memory (network; not in Debian's fio)"
	[librpma_gpspm-server.fio]="an RDMA NIC and persistent memory (network; not in Debian's fio)"
	[libzbc-rand-write.fio]="a zoned SCSI/ATA disk through libzbc (not in Debian's fio)"
	[libzbc-seq-read.fio]="a zoned SCSI/ATA disk through libzbc (not in Debian's fio)"
	[mtd.fio]="a raw flash (MTD) device (/dev/mtd0)"
	[nbd.fio]="an NBD server (network)"
	[netio.fio]="a network: TCP between two jobs (fio's net engine)"
	[netio_multicast.fio]="a network: UDP multicast to 239.0.0.0 (fio's net engine)"
	[nfs.fio]="an NFS server (network; not in Debian's fio)"
	[pmemblk.fio]="persistent memory (a libpmemblk pool on /pmem0)"
	[rados.fio]="a Ceph cluster (network)"
	[rbd.fio]="a Ceph cluster (network)"
	[rdmaio-client.fio]="an RDMA NIC (network; not in Debian's fio)"
	[rdmaio-server.fio]="an RDMA NIC (network; not in Debian's fio)"
	[sg_verify-fail.fio]="a SCSI disk (SG_IO to /dev/sdb)"
	[sg_verify.fio]="a SCSI disk (SG_IO to /dev/sdb)"
	[sg_write_same_ndob.fio]="a SCSI disk (SG_IO to /dev/sdb)"
	[uring-cmd-ng.fio]="an NVMe character device (/dev/ng0n1)"
	[uring-cmd-zoned.fio]="a zoned NVMe character device (/dev/ng0n1)"
	[xnvme-compare.fio]="an NVMe device through xNVMe (not in Debian's fio)"
	[xnvme-zoned.fio]="a zoned NVMe device through xNVMe (not in Debian's fio)"
	[zbd-rand-write.fio]="a zoned block device (/dev/sdj; fio 3.33 refuses zonemode=zbd on a file, EINVAL)"
	[zbd-seq-read.fio]="a zoned block device (/dev/sdd; fio 3.33 refuses zonemode=zbd on a file, EINVAL)"
)
# How each other example runs here: scripts/fio-examples.py's edits (key=value replaces or adds,
# -key drops), then after | why.  Sizes are made small and a device becomes a file in the run's
# directory.  A time-based job (time_based, or a runtime shorter than its I/O) moves what the
# machine's speed allows, so time_based and runtime are dropped and the job's size bounds it:
# fio's accounting of a size-bound job is deterministic (its random generators are seeded the
# same every run), and rate limits are kept where the small size keeps them short (a rate-bound
# job that is size-bound moves the same bytes, later).  An example with no edits runs as it is.
declare -A EX_EDIT=(
	[1mbs_clients.fio]="size=256k rate=4m -startdelay -directory|256 KiB files in the run's directory (for tmp/) read at 4 MB/s (fio's 1250 B/s rate and 0-124 s start delays: half an hour)"
	[aio-read.fio]="size=4m -directory|4 MiB files in the run's directory"
	[backwards-read.fio]="size=4m|a 4 MiB file"
	[basic-verify.fio]="filename=basic-verify.dat size=4m|a 4 MiB file for /dev/XXX"
	[butterfly.fio]="filename=testfile size=4m|a 4 MiB file for /tmp/testfile"
	[cmdprio-bssplit.fio]="filename=cmdprio.dat size=16m|a 16 MiB file for /dev/sda"
	[cmdprio-percentage.fio]="filename=cmdprio.dat size=4m|a 4 MiB file for /dev/sda"
	[cross-stripe-verify.fio]="filename=stripe.dat size=2m offset_increment=2m io_size=256k|a file for /dev/nvme0n1: each thread 256k of 16k writes 128k apart in a 2m region of its own (for 120g in 124g)"
	[dedupe-global.fio]="size=4m|4 MiB files"
	[disk-zone-profile.fio]="filename=zones.dat size=64m zonesize=256k zoneskip=2m|a 64 MiB file for /dev/sdb, zones of 256k every 2m for 256m every 2g"
	[enospc-pressure.fio]="-directory filesize=4m size=4m -time_based -runtime -exitall|4 MiB files; the time-based racer size-bound, and no exitall (its first job to end would cut the others at a time-dependent point)"
	[exitwhat.fio]="filename=exitwhat.dat filesize=16m|a 16 MiB file for /tmp/test (its rate-bound jobs send one request a direction before exit_what stops them)"
	[falloc.fio]="-directory size=4m filesize=4m -time_based -runtime|a 4 MiB file; the 10 s fuzzers size-bound"
	[filecreate-ioengine.fio]="nrfiles=500|500 files a job (31250: half a million files)"
	[filedelete-ioengine.fio]="|"
	[filestat-ioengine.fio]="|"
	[fio-rand-RW.fio]="size=16m -time_based -runtime|16 MiB, size-bound (900 s time-based)"
	[fio-rand-read.fio]="size=4m -time_based -runtime|4 MiB, size-bound (900 s time-based; its buffered random reads go to the disk)"
	[fio-rand-write.fio]="size=16m -time_based -runtime|16 MiB, size-bound (900 s time-based)"
	[fio-seq-RW.fio]="size=16m -time_based -runtime|16 MiB, size-bound (900 s time-based)"
	[fio-seq-read.fio]="size=16m -time_based -runtime|16 MiB, size-bound (900 s time-based)"
	[fio-seq-write.fio]="size=16m -time_based -runtime|16 MiB, size-bound (900 s time-based)"
	[fixed-rate-submission.fio]="size=1m|1 MiB at its 1000 IOPS (128m: 33 s), submitted by offload threads"
	[flow.fio]="filename=flow.dat size=4m -time_based -runtime|a 4 MiB file for /tmp/testfile, size-bound (30 s time-based)"
	[fsx.fio]="loops=20|20 loops (500000: 32 million requests)"
	[ftruncate.fio]="-directory size=1028k -time_based -runtime|1 MiB + 4k, size-bound (10 s time-based)"
	[iometer-file-access-server.fio]="size=16m|16 MiB"
	[jesd219.fio]="filename=jesd219.dat size=16m -randrepeat|a 16 MiB file for /dev/nvme0n1; fio's default randrepeat (randrepeat=0 seeds from the clock: fio's own split of reads and writes differs run to run)"
	[latency-profile.fio]="filename=latency.dat size=4m|a 4 MiB file for /dev/sda"
	[null.fio]="size=1g|1 GiB (100g)"
	[numa.fio]="filename=numa.dat size=16m|a 16 MiB file for /dev/sdb1"
	[poisson-rate-submission.fio]="size=256k|256 KiB at its 50 IOPS (128m: 11 minutes), submitted by offload threads"
	[rand-zones.fio]="size=16m|16 MiB"
	[ssd-steadystate.fio]="filename=ssd.dat size=16m|a 16 MiB file for /dev/fioa"
	[ssd-test.fio]="-directory size=4m -runtime|4 MiB files (a 60 s runtime never reached)"
	[steadystate.fio]="size=16m -time_based -runtime|16 MiB, size-bound: each job ends before its steady-state ramp does (5 minutes time-based)"
	[surface-scan.fio]="|as it is, on a 24 MiB ext4 (fill_device)"
	[tiobench-example.fio]="size=4m -timeout|4 MiB files (a 60 s timeout never reached)"
	[waitfor.fio]="filename=waitfor.dat filesize=8m -runtime|an 8 MiB file for /tmp/data (a 10 s runtime never reached)"
	[zipf.fio]="size=256m|256 MiB (1280m)"
)
# Edits for fio's run alone, where fio 3.33 cannot run the example as it is here.
declare -A EX_FIO_EDIT=(
	[fixed-rate-submission.fio]="io_submit_mode=inline|fio 3.33 hangs here with io_submit_mode=offload and libaio: fio submits inline"
	[poisson-rate-submission.fio]="io_submit_mode=inline|fio 3.33 hangs here with io_submit_mode=offload and libaio: fio submits inline"
)
# Examples whose bytes differ on purpose: why (the verdict says it; the e2e test holds it to that).
declare -A EX_KNOWN=(
	[enospc-pressure.fio]="by design: iogauge punches holes for trims on a file, where fio 3.33 sends BLKDISCARD to the file and fails with ENOTTY (error 25); and create_on_open changes nothing (iogauge lays the verifier's file out before the run, so its first random reads find data where fio's, past the end of an empty file, read 0 bytes)"
)
# Examples that run on a small file system of their own (fill_device writes until it is full),
# made afresh for each tool so both find the same free space: its size.
declare -A EX_FS=([surface-scan.fio]=24m)
# One NUMA node here: examples/numa.fio's second job names nodes 0-1.
[ -d /sys/devices/system/node/node1 ] ||
	EX_EDIT[numa.fio]="filename=numa.dat size=16m numa_cpu_nodes=0 numa_mem_policy=bind:0|a 16 MiB file for /dev/sdb1; node 0 for nodes 0-1 (one NUMA node here)"

# mkfs_dir DIR SIZE: a fresh ext4 of SIZE mounted on DIR (its loop device in LOOPS, detached at exit).
LOOPS=()
MOUNTS=()
mkfs_dir() {
	local img=$1.img dev
	rm -f "$img" && truncate -s "$2" "$img" || return 1
	dev=$(losetup -f --show "$img") || return 1
	LOOPS+=("$dev")
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" >/dev/null || return 1
	mkdir -p "$1" && mount "$dev" "$1" || return 1
	MOUNTS+=("$1")
}
# shellcheck disable=SC2317 # run by the trap
unmount_all() {
	local m d
	for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m"; done
	for d in "${LOOPS[@]}"; do losetup -d "$d" 2>/dev/null; done
	MOUNTS=() LOOPS=()
}
trap 'unmount_all; cleanup' EXIT

# run_example TOOL WRAPPER NAME JOBFILE: TOOL's run of the job in a directory of its own;
# its JSON in $dir/out.json, status in $dir/rc, stderr in $dir/err.
run_example() {
	local tool=$1 wrapper=$2 name=$3 job=$4 dir=$WORK/run/$3/$1
	rm -rf "$dir" && mkdir -p "$dir"
	if [ -n "${EX_FS[$name]:-}" ]; then
		mkfs_dir "$dir" "${EX_FS[$name]}" || { echo 1 >"$WORK/run/$name/$tool.rc"; return; }
	fi
	(cd "$dir" && "$wrapper" --output-format=json --output="$WORK/run/$name/$tool.json" "$job" \
		>"$WORK/run/$name/$tool.out" 2>"$WORK/run/$name/$tool.err")
	echo $? >"$WORK/run/$name/$tool.rc"
	[ -n "${EX_FS[$name]:-}" ] && unmount_all
}

if [ "$EXAMPLES" = 1 ]; then
	mkdir -p "$WORK/examples"
	n=0 fio_ok=0 ig_ok=0 both=0 named=0 badly=0 by_engine=0 by_option=0
	v_same=0 v_differs=0 v_refused=0 v_skipped=0
	for f in "$SRC"/examples/*.fio; do
		name=$(basename "$f")
		if [ -n "$ONLY" ] && [[ " $ONLY " != *" $name "* ]] && [[ " $ONLY " != *" ${name%.fio} "* ]]; then
			continue
		fi
		n=$((n + 1))
		if [ -n "$FIO_TOTALS" ]; then
			fs=1
			grep -q "^example $name ACCEPT" "$FIO_TOTALS" && fs=0
		else
			(cd "$WORK/examples" && timeout -k 5 30 "$FIO" --parse-only "$f" >/dev/null 2>&1)
			fs=$?
		fi
		(cd "$WORK/examples" && timeout -k 5 30 "$WORK/bin/fio" --parse-only "$f" >/dev/null 2>"$WORK/ex.err")
		gs=$?
		fv=ACCEPT
		[ "$fs" -ne 0 ] && fv=REJECT
		gv=ACCEPT
		line=""
		refusal=""
		if [ "$gs" -ne 0 ]; then
			gv="REJECT($gs)"
			refusal=$(grep -m 1 . "$WORK/ex.err" | sed 's/^iogauge: //; s|[^ ]*/examples/||')
			line=" | $refusal"
			# A refusal names what it refuses, each on its line, with status 2: never a crash.
			if [ "$gs" -eq 2 ] && [ -s "$WORK/ex.err" ] && ! grep -qv '^iogauge: ' "$WORK/ex.err"; then
				named=$((named + 1))
			else
				badly=$((badly + 1))
				gv="REJECT-BADLY($gs)"
			fi
		fi
		echo "example $name fio=$fv iogauge=$gv$line"
		[ -n "$RECORD" ] && echo "example $name $fv" >>"$RECORD"
		[ "$fs" -eq 0 ] && fio_ok=$((fio_ok + 1))
		[ "$gs" -eq 0 ] && ig_ok=$((ig_ok + 1))
		[ "$fs" -eq 0 ] && [ "$gs" -eq 0 ] && both=$((both + 1))
		if [ "$fs" -eq 0 ] && [ "$gs" -ne 0 ]; then
			if grep -Eq "ioengine: unknown engine|ioengine .* is not supported by iogauge" "$WORK/ex.err"; then
				by_engine=$((by_engine + 1))
			else
				by_option=$((by_option + 1))
			fi
		fi
		[ "$RUN" = 1 ] || continue

		# The verdict: skipped (needs what is not here), refused (by iogauge, named), or run
		# under both and the same bytes or not.
		if [ -n "${EX_SKIP[$name]:-}" ]; then
			echo "verdict $name skipped: needs ${EX_SKIP[$name]}${refusal:+ (iogauge: $refusal)}"
			v_skipped=$((v_skipped + 1))
			continue
		fi
		if [ "$gs" -ne 0 ]; then
			echo "verdict $name refused: $refusal"
			v_refused=$((v_refused + 1))
			continue
		fi
		if [ -z "${EX_EDIT[$name]+set}" ]; then
			echo "verdict $name differs: no way to run it here is set (EX_EDIT in $0)"
			v_differs=$((v_differs + 1))
			continue
		fi
		if [ -n "${EX_FS[$name]:-}" ] && [ "$(id -u)" -ne 0 ]; then
			echo "verdict $name skipped: needs root for a small file system of its own (losetup, mount)"
			v_skipped=$((v_skipped + 1))
			continue
		fi
		spec=${EX_EDIT[$name]}
		edits=${spec%%|*}
		how=${spec#*|}
		rm -rf "$WORK/run/$name" && mkdir -p "$WORK/run/$name"
		job=$WORK/run/$name/$name
		# shellcheck disable=SC2086 # the edits are words
		"$PYTHON" "$ROOT/scripts/fio-examples.py" rewrite "$f" "$job" $edits
		fjob=$job
		if [ -n "${EX_FIO_EDIT[$name]:-}" ]; then
			fjob=$WORK/run/$name/fio-$name
			# shellcheck disable=SC2086 # the edits are words
			"$PYTHON" "$ROOT/scripts/fio-examples.py" rewrite "$job" "$fjob" ${EX_FIO_EDIT[$name]%%|*}
			how="${how:+$how; }${EX_FIO_EDIT[$name]#*|}"
		fi
		R=$WORK/run/$name
		if [ -n "$FIO_TOTALS" ]; then
			# fio's recorded run of the same edited job (--record): its status and totals.
			rf=$(awk -F'\t' -v n="$name" '$1 == "ran" && $2 == n { print $3 }' "$FIO_TOTALS")
			awk -F'\t' -v n="$name" 'BEGIN { OFS = "\t" } $1 == "bytes" && $2 == n { print $3, $4, $5 }' \
				"$FIO_TOTALS" >"$R/fio.totals"
			if [ -z "$rf" ]; then
				echo "verdict $name differs: no run of fio recorded in $FIO_TOTALS"
				v_differs=$((v_differs + 1))
				continue
			fi
		else
			run_example fio "$WORK/real-fio" "$name" "$fjob"
			rf=$(cat "$R/fio.rc")
			"$PYTHON" "$ROOT/scripts/fio-examples.py" totals "$R/fio.json" >"$R/fio.totals"
			if [ -n "$RECORD" ]; then
				printf 'ran\t%s\t%s\n' "$name" "$rf" >>"$RECORD"
				sed "s/^/bytes\t$name\t/" "$R/fio.totals" >>"$RECORD"
			fi
		fi
		t0=$(date +%s%N)
		run_example iogauge "$WORK/iogauge-as-fio" "$name" "$job"
		[ -n "${EX_TIMES:-}" ] && echo "time $name $((($(date +%s%N) - t0) / 1000000)) ms"
		rg=$(cat "$R/iogauge.rc")
		"$PYTHON" "$ROOT/scripts/fio-examples.py" totals "$R/iogauge.json" >"$R/iogauge.totals"
		"$PYTHON" "$ROOT/scripts/fio-examples.py" compare "$R/fio.totals" "$R/iogauge.totals" \
			>"$R/cmp" 2>"$R/why"
		cs=$?
		if [ "$rf" -ne 0 ] && [ "$rg" -eq 2 ] && ! [ -s "$R/iogauge.totals" ]; then
			echo "verdict $name refused: $(grep -m 1 . "$R/iogauge.err" | sed 's/^iogauge: //') (fio: status $rf)"
			v_refused=$((v_refused + 1))
		elif [ "$cs" -eq 0 ] && [ "$rf" = "$rg" ]; then
			echo "verdict $name same bytes${how:+ ($how)}"
			v_same=$((v_same + 1))
		else
			why=$(head -n 1 "$R/why")
			[ -n "${EX_KNOWN[$name]:-}" ] && why="${EX_KNOWN[$name]}; $why"
			[ "$rf" != "$rg" ] && why="exit status fio $rf, iogauge $rg${why:+; $why}"
			e=$(grep -m 1 . "$R/iogauge.err" | sed 's/^iogauge: //')
			echo "verdict $name differs: $why${e:+ | iogauge: $e}${how:+ ($how)}"
			v_differs=$((v_differs + 1))
		fi
		cat "$R/cmp"
	done
	echo "examples: $n files; fio accepts $fio_ok; iogauge accepts $ig_ok ($both of fio's); iogauge's refusals: $named named with status 2, $badly otherwise"
	echo "examples fio accepts and iogauge refuses: $by_engine for an engine iogauge lacks, $by_option for an option or value"
	[ "$RUN" = 1 ] && echo "examples run: $v_same same bytes, $v_differs differ, $v_refused refused by iogauge, $v_skipped skipped (need what is not here)"
fi
exit 0
