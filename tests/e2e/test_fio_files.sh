#!/bin/bash
# fio's files and run control: nrfiles and file_service_type, filename lists,
# filename_format, filesize, io_size, offset_increment, pre_read, wait_for,
# new_group, startdelay, exitall, ratemin; each compared with what fio does
# where fio's numbers are deterministic.  On ext4 on a loop device.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 fio python3
need_json

mkfs_mount fiofiles 96M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
j() { jget "$OUT" "$1" 2>/dev/null; }

# counts FILE: "NAME:readbytes/readios/writebytes/writeios ..." of a fio JSON document.
counts() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s:%d/%d/%d/%d" % (j["jobname"], j["read"]["io_bytes"], j["read"]["total_ios"],
      j["write"]["io_bytes"], j["write"]["total_ios"]) for j in d["jobs"]))' "$1"
}

# same_as_fio NAME ARGS...: fio and iogauge on the same job in $D report the same counts.
same_as_fio() {
	local name=$1
	shift
	rm -rf "${D:?}"/*
	fio --directory="$D" --output-format=json "$@" >"$E2E_TMP/fio.json" 2>"$E2E_TMP/fio.err"
	rm -rf "${D:?}"/*
	run_iogauge run --directory="$D" --output-format=fio-json "$@"
	local a b
	a=$(counts "$E2E_TMP/fio.json")
	b=$(counts "$OUT")
	if [ "$STATUS" = 0 ] && [ -n "$a" ] && [ "$a" = "$b" ]; then
		pass "$name: the same requests as fio ($b)"
	else
		fail "$name: the same requests as fio" "fio: $a; iogauge (status $STATUS): $b"
	fi
}

same_as_fio "nrfiles=4, randrw" --name=m --size=4m --nrfiles=4 --rw=randrw
same_as_fio "nrfiles=3, file_service_type=sequential" --name=m --size=3m --nrfiles=3 --rw=write \
	--file_service_type=sequential
same_as_fio "nrfiles=3, random:4" --name=m --size=3m --nrfiles=3 --rw=read --file_service_type=random:4
same_as_fio "filesize=1m, nrfiles=2" --name=m --size=4m --filesize=1m --nrfiles=2 --rw=read
same_as_fio "io_size=3m over a 1m file" --name=m --size=1m --io_size=3m --rw=read
same_as_fio "io_size=1m of a 2m region" --name=m --size=2m --io_limit=1m --rw=randwrite
same_as_fio "filename list a:b" --name=m --filename=a:b --size=2m --rw=randread
same_as_fio "offset_increment, numjobs=3 on one file" --name=m --filename=sh --size=1m --numjobs=3 \
	--offset_increment=1m --rw=write
same_as_fio "number_ios" --name=m --size=2m --rw=randrw --number_ios=100

# The names fio gives files.
rm -rf "${D:?}"/*
run_iogauge run --directory="$D" --keep --name=n --size=64k --nrfiles=2 --numjobs=2 --rw=write
check "nrfiles, numjobs: JOBNAME.JOBNUM.FILENUM" [ "$(cd "$D" && echo n.*)" = "n.0.0 n.0.1 n.1.0 n.1.1" ]
rm -rf "${D:?}"/*
run_iogauge run --directory="$D" --keep --name=n --size=64k --numjobs=2 --rw=write \
	--filename_format='f-$jobnum-$filenum.dat'
check "filename_format" [ "$(cd "$D" && echo f-*)" = "f-0-0.dat f-1-0.dat" ]
rm -rf "${D:?}"/*
run_iogauge run --directory="$D" --name=n --size=64k --rw=write
check "the files iogauge created are removed (unlike fio's)" dir_empty "$D"

# offset_increment: each thread writes only its own region of the shared file.
run_iogauge run --directory="$D" --keep --name=o --filename=shared --size=256k --numjobs=2 \
	--offset=256k --offset_increment=512k --rw=write --output-format=json
check "offset_increment: the file reaches the last thread's region end" \
	[ "$(stat -c %s "$D/shared")" = $((256 * 1024 + 512 * 1024 + 256 * 1024)) ]
rm -rf "${D:?}"/*

# pre_read: the region is in the page cache before a buffered read, and the report says so.
run_iogauge run --directory="$D" --name=p --size=4m --rw=read --pre_read --output-format=json
expect_status 0 "pre_read: exit 0"
check "pre_read: the region was cached before the reads" [ "$(j .jobs[0].resident_before_bytes)" = $((4 << 20)) ]

# wait_for, new_group, startdelay, exitall, ratemin on the null engine.
cat >"$E2E_TMP/ctl.fio" <<'JOB'
[global]
ioengine=null
size=64m

[a]
rw=read
rate=64m

[b]
wait_for=a
rw=write

[c]
new_group
rw=read
startdelay=300ms
JOB
t0=$(date +%s%N)
run_iogauge run --output-format=fio-json "$E2E_TMP/ctl.fio"
ms=$((($(date +%s%N) - t0) / 1000000))
expect_status 0 "wait_for, new_group, startdelay: exit 0"
check "wait_for: b ran after a's second (the run took $ms ms)" [ "$ms" -ge 1000 ]
check "new_group: c reports in group 1, a and b in 0" \
	[ "$(python3 -c 'import json,sys; print(" ".join(str(j["groupid"]) for j in json.load(open(sys.argv[1]))["jobs"]))' "$OUT")" = "0 0 1" ]
printf '[a]\nioengine=null\nsize=1m\nwait_for=nobody\n' >"$E2E_TMP/wf.fio"
run_iogauge run "$E2E_TMP/wf.fio"
expect_status 2 "wait_for a job that is not before it: exit 2"
expect_err "wait_for=nobody: no job of that name before it" "the missing job is named"

cat >"$E2E_TMP/exit.fio" <<'JOB'
[global]
ioengine=null
size=64m

[short]
exitall
rate=4m
size=1m

[long]
time_based
runtime=20
rate=10m
JOB
t0=$(date +%s%N)
run_iogauge run --output-format=fio-json "$E2E_TMP/exit.fio"
ms=$((($(date +%s%N) - t0) / 1000000))
check "exitall: the 20 s job stopped when the short one ended ($ms ms)" [ "$ms" -lt 5000 ]
expect_err "job short ended: the other jobs are stopped \(exitall\)" "exitall: said on stderr"

run_iogauge run --name=r --ioengine=null --size=1g --rate=1m --ratemin=2m --time_based --runtime=3
expect_status 1 "ratemin not met: exit 1"
expect_err "below its minimum rate" "ratemin: the job's error is named"
