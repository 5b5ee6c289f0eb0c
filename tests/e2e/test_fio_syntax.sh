#!/bin/bash
# fio's job-file syntax as a fio user writes it: comments after values,
# include, environment variables, fio's keywords, every unsupported option
# named at once (exit 2, nothing run), --warn-unsupported, the command line
# over the file, fio's file names.  Diagnostics never reach stdout.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_iogauge
need_json
j() { jget "$OUT" "$1" 2>/dev/null; }
D=$E2E_TMP/work
mkdir "$D" || exit 1

cat >"$E2E_TMP/inc.fio" <<'JOB'
; included: options of the section that includes it
iodepth=$ncpus
JOB
cat >"$E2E_TMP/syntax.fio" <<'JOB'
[global]
ioengine=null      # the null engine: no file
size=${IOG_SIZE}   ; from the environment
bs=$pagesize*2

[seq]
rw=read ; trailing comment
include inc.fio
description=sequential reads
JOB
IOG_SIZE=1m run_iogauge run --output-format=json "$E2E_TMP/syntax.fio"
expect_status 0 "job file with comments after values, include, \${VAR} and \$pagesize: exit 0"
check "stdout is one JSON document" jget "$OUT"
if ok [ "$(j .jobs[0].read.bytes)" = $((1 << 20)) ] && ok [ "$(j .jobs[0].options.bs)" = $(($(getconf PAGESIZE) * 2)) ]; then
	pass "size from the environment, bs from \$pagesize*2"
else
	fail "size from the environment, bs from \$pagesize*2" "$WHY"
fi
check "the description survives" [ "$(j .jobs[0].options.description)" = "sequential reads" ]

run_iogauge run "$E2E_TMP/syntax.fio"
expect_status 2 "an unset variable: exit 2"
expect_err "syntax.fio:3: size: environment variable IOG_SIZE is not set" "the unset variable is named with file and line"

# Every unsupported option at once, one line each, before any I/O.
cat >"$E2E_TMP/unsup.fio" <<JOB
[global]
directory=$D
size=1m
nice=5
lockmem=1m

[w]
rw=write
exec_prerun=/bin/false
JOB
run_iogauge run "$E2E_TMP/unsup.fio"
expect_status 2 "unsupported fio options: exit 2"
check "each unsupported option on a line of its own, in order" \
	[ "$(grep -c "unsupported fio option" "$ERR")" = 3 ]
expect_err "unsup.fio:4: unsupported fio option 'nice'" "FILE:LINE: unsupported fio option 'X'"
expect_err "unsup.fio:9: unsupported fio option 'exec_prerun'" "the last one too"
check "nothing on stdout" test ! -s "$OUT"
check "no file written" dir_empty "$D"

run_iogauge run --warn-unsupported --output-format=json "$E2E_TMP/unsup.fio"
expect_status 0 "--warn-unsupported: the job runs"
expect_err "warning: .*unsup.fio:5: unsupported fio option 'lockmem'" "--warn-unsupported: named as warnings"
check "--warn-unsupported: stdout is JSON only" jget "$OUT"
check "--warn-unsupported: the rest of the file applied" [ "$(j .jobs[0].write.bytes)" = $((1 << 20)) ]
check "no test file left" dir_empty "$D"

printf '[j]\nioengine=null\nsize=1m\nverify_bogus=1\n' >"$E2E_TMP/typo.fio"
run_iogauge run --warn-unsupported "$E2E_TMP/typo.fio"
expect_status 2 "a word fio does not know is an error even with --warn-unsupported"
expect_err "typo.fio:4: unknown option 'verify_bogus'" "the unknown word is named"

# The command line wins over the file.
printf '[global]\nioengine=null\nsize=4m\nbs=4k\n[a]\nbs=8k\n[b]\n' >"$E2E_TMP/over.fio"
run_iogauge run --output-format=json --size=1m --bs=64k "$E2E_TMP/over.fio"
if ok [ "$(j .jobs[0].read.bytes)" = $((1 << 20)) ] && ok [ "$(j .jobs[0].read.ios)" = 16 ] && ok [ "$(j .jobs[1].read.ios)" = 16 ]; then
	pass "command-line size and bs override the file's global and job values"
else
	fail "command-line size and bs override the file's global and job values" "$WHY"
fi

# fio's file names: JOBNAME.JOBNUM.FILENUM in the directory.
run_iogauge run --keep --directory="$D" --name=named --size=64k --numjobs=2 --rw=write
if ok [ -f "$D/named.0.0" ] && ok [ -f "$D/named.1.0" ]; then
	pass "files named as fio names them"
else
	fail "files named as fio names them" "$WHY"
fi
rm -f "$D"/named.*
