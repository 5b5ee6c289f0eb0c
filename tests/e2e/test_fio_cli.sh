#!/bin/bash
# `iogauge fio` and the binary called as `fio`: fio 3.33's command line.
# --version, fio's JSON and terse output, --output, --section, --showcmd,
# --parse-only (nothing runs, nothing created), --readonly, --eta,
# --bandwidth-log, options after the job files, job files over the command
# line, fio's variables and KiB, files kept unless unlink=1, no note fio would
# not print, refused program options named with status 2.  All null-engine or
# tiny jobs: a second or two in all.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_iogauge
need_json
D=$E2E_TMP/work
mkdir "$D" || exit 1
cd "$D" || exit 1
OUT=$E2E_TMP/last.out
j() { jget "$OUT" "$@" 2>/dev/null; }
# The binary called as fio: a link named fio.
ln -s "$IOGAUGE" "$E2E_TMP/fio"
FIO_LINK=$E2E_TMP/fio
as_fio() {
	: >"$ERR"
	timeout -k 5 120 "$FIO_LINK" "$@" >"$OUT" 2>"$ERR"
	STATUS=$?
	san_check "fio $*"
}

run_iogauge fio --version
expect_status 0 "iogauge fio --version: exit 0"
check "--version says the fio it follows and iogauge's own" grep -Eq '^fio-3\.33 \(iogauge [0-9.]+\)$' "$OUT"
as_fio --version
check "called as fio: --version is fio's" grep -Eq '^fio-3\.33 \(iogauge ' "$OUT"
as_fio -v
check "called as fio: -v is --version" grep -q '^fio-3\.33' "$OUT"

# fio's JSON under the link, and no note fio does not print (a synchronous
# engine's iodepth, the null engine's).
as_fio --name=x --ioengine=null --size=1m --iodepth=8 --output-format=json
expect_status 0 "called as fio: a null job runs"
check "called as fio: --output-format=json is fio's JSON (its version field names iogauge)" \
	[ "$(j '.fio version')" = "iogauge-$("$IOGAUGE" --version | cut -d' ' -f2 | cut -d+ -f1)" ] # the release, without git's +gHASH
check "called as fio: the job's bytes" [ "$(j '.jobs[0].read.io_bytes')" = 1048576 ]
check "null engine with iodepth=8: nothing on stderr (as fio)" [ ! -s "$ERR" ]
run_iogauge fio --name=x --ioengine=psync --size=64k --iodepth=4 --filename="$D/f.psync" --output-format=json
expect_status 0 "psync with iodepth=4 runs"
check "psync with iodepth=4: nothing on stderr (as fio)" [ ! -s "$ERR" ]
check "the file iogauge fio created is kept, as fio keeps it" [ -f "$D/f.psync" ]
run_iogauge fio --name=x --ioengine=psync --size=64k --filename="$D/f.unlink" --unlink=1 --minimal
expect_status 0 "unlink=1 runs"
check "--minimal: one terse version 3 line" [ "$(grep -c '^3;' "$OUT")" = 1 ]
check "unlink=1: the created file is removed" [ ! -e "$D/f.unlink" ]

# filesize alone sizes the file a job creates (fio's t0018).
run_iogauge fio --name=fs --ioengine=psync --filesize=64k --rw=randread --output-format=json
expect_status 0 "filesize without size: the job runs"
check "filesize without size: fio's file fs.0.0 of 64 KiB, read once" \
	[ "$(stat -c %s fs.0.0 2>/dev/null):$(j '.jobs[0].read.io_bytes')" = 65536:65536 ]

# --output writes the report to a file, stdout stays empty.
run_iogauge fio --output="$E2E_TMP/o.json" --output-format=json --name=x --ioengine=null --size=64k
check "--output: the JSON goes to the file" jget "$E2E_TMP/o.json"
check "--output: nothing on stdout" [ ! -s "$OUT" ]
run_iogauge fio --output-format=terse,json --name=x --ioengine=null --size=64k
check "--output-format=terse,json: terse first, then the JSON" [ "$(head -c 2 "$OUT")" = "3;" ]

cat >"$D/j.fio" <<'JOB'
[global]
ioengine=null
size=1m
bs=4k
[a]
rw=read
[b]
rw=write
JOB
# fio's reading: options after the job file name, --name jobs first, the job file's values win.
run_iogauge fio j.fio --bs=8k --name=c --ioengine=null --size=64k --output-format=json
expect_status 0 "options after the job file and a --name job run"
check "the command line's job comes first, then the file's (as fio)" \
	[ "$(j '.jobs[0].jobname' '.jobs[1].jobname' '.jobs[2].jobname' | tr '\n' ' ')" = "c a b " ]
check "the job file's bs=4k wins over --bs=8k (as fio): 256 requests" [ "$(j '.jobs[1].read.total_ios')" = 256 ]
# Several job files: the command line's options and a file's [global] reach the first file
# only; each later file starts from the defaults (as fio 3.33 reads them).
printf '[k]\nioengine=null\nsize=64k\n' >"$D/k.fio"
printf '[global]\nbs=16k\n[g]\nioengine=null\nsize=64k\n' >"$D/g.fio"
run_iogauge fio --bs=8k k.fio g.fio k.fio --output-format=json
check "several job files: requests of 8k, 16k, then the default 4k (as fio)" \
	[ "$(j '.jobs[0].read.total_ios' '.jobs[1].read.total_ios' '.jobs[2].read.total_ios' | tr '\n' ' ')" = "8 4 16 " ]
run_iogauge fio --section=b j.fio --output-format=json
check "--section=b: only job b" [ "$(j '.jobs|length' '.jobs[0].jobname' | tr '\n' ' ')" = "1 b " ]
run_iogauge fio --showcmd j.fio
check "--showcmd: the job file as fio's command line" \
	[ "$(cat "$OUT")" = "fio --ioengine=null --size=1m --bs=4k --name=a --rw=read --name=b --rw=write " ]

# fio's variables and sizes: ${VAR} only (unset: empty), KiB as 1000.
cat >"$D/v.fio" <<'JOB'
[v]
ioengine=null
size=1MiB
description=a${IOG_UNSET_VAR}b $HOME
JOB
(unset IOG_UNSET_VAR; run_iogauge fio v.fio --output-format=json
 # shellcheck disable=SC2016 # $HOME literally: fio leaves $VAR as written
 check "unset \${VAR} is empty and \$VAR stays as written (as fio)" [ "$(j '.jobs[0].desc')" = 'ab $HOME' ]
 check "size=1MiB is 1000000 bytes (as fio 3.33): 244 blocks of 4k" [ "$(j '.jobs[0].read.io_bytes')" = 999424 ])

# --parse-only: checked, nothing run, nothing created.
run_iogauge fio --parse-only --name=p --size=1m --filename="$D/never"
expect_status 0 "--parse-only: exit 0"
check "--parse-only: no file created" [ ! -e "$D/never" ]
check "--parse-only: nothing on stdout" [ ! -s "$OUT" ]
printf '[u]\nioengine=null\nsize=1m\nwrite_barrier=1\nlockfile=exclusive\nnot_an_option=1\n' >"$D/u.fio"
run_iogauge fio --parse-only u.fio
expect_status 2 "--parse-only with options iogauge lacks: status 2"
expect_err "u.fio:4: unsupported fio option 'write_barrier'" "the first one named with its line"
expect_err "u.fio:5: unsupported fio option 'lockfile'" "the second one named too"
expect_err "not_an_option" "a word fio does not know is named"
run_iogauge fio --parse-only --name=x --ioengine=null --size=1m --bs=12q
expect_status 2 "--parse-only: a bad value is status 2"
expect_err "bs" "the bad value's option is named"

# --readonly: a writing job is refused before anything runs; a read needs no write.
run_iogauge fio --readonly --name=w --rw=write --size=64k --filename="$D/ro.w"
expect_status 2 "--readonly: a writing job is refused (status 2)"
expect_err "--readonly" "the refusal names --readonly"
check "--readonly: the file is not created" [ ! -e "$D/ro.w" ]
run_iogauge fio --readonly --name=r --rw=read --size=64k --filename="$D/ro.missing"
expect_status 2 "--readonly: reading a missing file is refused (creating it would write)"
check "--readonly: the missing file is not created" [ ! -e "$D/ro.missing" ]
head -c 65536 /dev/urandom >"$D/ro.data"
sum=$(sha256sum <"$D/ro.data")
run_iogauge fio --readonly --name=r --rw=read --size=64k --filename="$D/ro.data" --output-format=json
expect_status 0 "--readonly: reading an existing file runs"
check "--readonly: the file is unchanged" [ "$(sha256sum <"$D/ro.data")" = "$sum" ]

# --eta=always draws fio's progress line on stdout; --bandwidth-log writes fio's agg logs.
run_iogauge fio --eta=always --bandwidth-log --output="$E2E_TMP/eta.txt" --name=x --ioengine=null --size=1m \
	--time_based --runtime=1
expect_status 0 "--eta=always --bandwidth-log: a 1 s job runs"
check "--eta=always: fio's 'Jobs:' line on stdout" grep -q '^Jobs: 1 (f=1)' "$OUT"
check "--bandwidth-log: agg-read_bw.log in fio's lines" grep -Eq '^[0-9]+, [0-9]+, 0, 0, 0$' "$D/agg-read_bw.log"
if ok [ -f "$D/agg-write_bw.log" ] && ok [ -f "$D/agg-trim_bw.log" ]; then
	pass "--bandwidth-log: agg-write_bw.log and agg-trim_bw.log too"
else
	fail "--bandwidth-log: agg-write_bw.log and agg-trim_bw.log too" "$WHY"
fi
run_iogauge fio --eta=never --name=x --ioengine=null --size=64k
no_jobs_line() { ! grep -q '^Jobs:' "$OUT"; }
check "--eta=never: no progress line" no_jobs_line

# Program options fio has: taken or refused by name; a typo named.
run_iogauge fio --max-jobs=4 --name=x --ioengine=null --size=64k --minimal
expect_status 0 "--max-jobs is taken (fio 3.33 ignores it too)"
run_iogauge fio --status-interval=1 --name=x --ioengine=null --size=64k
expect_status 2 "--status-interval: refused with status 2"
expect_err "status-interval" "the refusal names --status-interval"
run_iogauge fio --output-format=xml --name=x --ioengine=null --size=64k
expect_status 2 "--output-format=xml: status 2"
expect_err "output-format" "the bad format is named"
run_iogauge fio
expect_status 2 "no job: status 2"
