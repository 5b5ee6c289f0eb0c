#!/bin/bash
# fio job files, several jobs at once, stonewall, group_reporting and the
# per-thread reports, on files in a directory on a real ext4.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4
need_json

mkfs_mount jobfile 128M ext4 || {
	fail "ext4 on a loop device for the test files"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
j() { jget "$OUT" "$1" 2>/dev/null; }

cat >"$E2E_TMP/two.fio" <<JOB
; fio syntax: a [global] section, then one section per job
[global]
directory=$D
size=4m
bs=4k
direct
ioengine=libaio
iodepth=4

# a comment in the other style
[seqwrite]
rw=write

[randread]
stonewall
rw=randread
bs=8k
JOB
run_iogauge run --output-format=json "$E2E_TMP/two.fio"
expect_status 0 "job file with [global] and two jobs: exit 0"
check "job file: two jobs in the JSON" [ "$(j '.jobs|length')" = 2 ]
check "job file: global size and the job's own rw" [ "$(j .jobs[0].write.bytes)" = $((4 << 20)) ]
check "job file: the job's own bs overrides global" [ "$(j .jobs[1].options.bs)" = 8192 ]
check "job file: bare 'direct' means direct=1" [ "$(j .jobs[1].options.direct)" = true ]
check "job file: second job read its whole region" [ "$(j .jobs[1].read.bytes)" = $((4 << 20)) ]
check "job file: no test file left" dir_empty "$D"

printf '[x]\nrw=write\nbogus_key=1\n' >"$E2E_TMP/bad.fio"
run_iogauge run "$E2E_TMP/bad.fio"
expect_status 2 "job file with an unknown key: exit 2"
expect_err "bad.fio:3: .*bogus_key" "job file error names the file, line and key"
run_iogauge run "$E2E_TMP/missing.fio"
expect_status 2 "missing job file: exit 2"

# numjobs: per-thread reports unless group_reporting.
run_iogauge run --directory="$D" --output-format=json --name=t --size=2m --rw=read --numjobs=3
check "numjobs=3: three per-thread entries" [ "$(j '.jobs[0].threads|length')" = 3 ]
check "numjobs=3: the job total is the sum" [ "$(j .jobs[0].read.bytes)" = $((6 << 20)) ]
run_iogauge run --directory="$D" --output-format=json --name=t --size=2m --rw=read --numjobs=3 --group_reporting
check "group_reporting: no per-thread entries" [ -z "$(j '.jobs[0].threads|length')" ]
run_iogauge run --directory="$D" --name=t --size=2m --rw=read --numjobs=2
check "numjobs=2 text: one report per thread" [ "$(grep -c '^t: (groupid=0, jobs=1)' "$OUT")" = 2 ]
check "text: the group summary line" grep -q "^ *READ: bw=" "$OUT"
check "numjobs: no test file left" dir_empty "$D"

# Options before the first --name are defaults for every job.
run_iogauge run --directory="$D" --output-format=json --size=1m --bs=64k --name=a --rw=write --name=b --rw=read --bs=128k
if ok [ "$(j .jobs[0].options.bs)" = 65536 ] && ok [ "$(j .jobs[1].options.size)" = $((1 << 20)) ]; then
	pass "command-line globals reach every job"
else
	fail "command-line globals reach every job" "$WHY"
fi
check "a job's own option wins" [ "$(j .jobs[1].options.bs)" = 131072 ]
