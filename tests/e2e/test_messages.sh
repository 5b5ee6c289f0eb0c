#!/bin/bash
# Messages say what happened, in the user's words (issue 16): an unknown
# command, a refusal to read holes, a file smaller than the test, fio's JSON
# given to compare, dd's refusals, an option named as typed, a job file with a
# byte order mark, a short read, --help's output formats, and what an
# interrupted sweep or bonnie prints ('-' for what was not measured, no
# "test complete") and what report leaves on stderr (nothing).  Each check
# fails on the messages before the fix.  Small files, about 4 s in all.  The
# interrupted suites get SIGINT once their progress line (--eta=always) shows the
# first case measuring, never after a fixed time.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_iogauge
need_cmd truncate
need_json

W=$E2E_TMP/w
mkdir -p "$W" || exit 1
cd "$W" || exit 1

# ---- a mistyped command is not a path
run_iogauge swep
expect_status 2 "iogauge swep: exit status 2"
expect_err "unknown command 'swep'.*did you mean 'sweep'\?.*commands: quick, mix, dd" \
	"iogauge swep: an unknown command, a suggestion and the commands (not 'No such file')"
check "iogauge swep: no 'No such file'" bash -c "! grep -q 'No such file' '$ERR'"
mkdir typo
run_iogauge typo --help
check "a directory named like a word is still quick's PATH" [ "$STATUS" = 0 ]

# ---- holes: said once, with how much
truncate -s 1M sparse
run_iogauge latency -c 1 -i 0 sparse
expect_status 2 "latency on a sparse file: refused (status 2)"
expect_err "refusing to read sparse: 1.00 MiB of the job's 1.00 MiB region is holes or unwritten extents" \
	"the refusal says how much of the region is holes (not 'holes of holes')"
check "after a refusal latency prints no empty statistics block" bash -c "! grep -q 'ioping statistics' '$OUT'"

# ---- a user's file smaller than the test: not "shrunk to fit the free space"
head -c 8192 /dev/urandom >small
run_iogauge latency -c 1 -i 0 small
expect_status 0 "latency on an 8 KiB file of the user's: measured"
expect_err "small: the whole file \(8.00 KiB\) was tested" "a user's small file: the whole file was tested"
check "a user's small file is not 'shrunk to fit'" bash -c "! grep -q 'shrunk' '$ERR'"

# ---- compare given fio's JSON of no job, or iogauge's fio-json
printf '{"fio version": "fio-3.33", "jobs": []}\n' >fio.json
printf '{"fio version": "iogauge-0.2.0", "jobs": []}\n' >iofio.json
run_iogauge compare fio.json iofio.json
expect_status 2 "compare of fio's JSON of no job: status 2"
expect_err "fio.json: fio's JSON output \(fio-3.33\) with no job in it: nothing measured" \
	"compare names fio's JSON as fio's and says it holds no job"
run_iogauge compare iofio.json fio.json
expect_err "iofio.json: iogauge's --output-format=fio-json .*save that with --json FILE" \
	"compare names iogauge's fio-json as such"

# ---- dd's refusals: whole sentences, no operand the user did not give
: >empty
run_iogauge dd if=empty of=out bs=4k
expect_err "dd: if=empty is empty \(0 bytes\): nothing to read" "dd of an empty input says so"
check "dd of an empty input does not name skip=0" bash -c "! grep -q 'skip=' '$ERR'"
run_iogauge dd if=small of=small bs=4k
expect_err "iogauge dd copies from one file to another, never a file onto itself$" \
	"dd if=X of=X: the sentence is whole"

# ---- the option as typed: Orion's -size_small, not --bs or -size-small
run_iogauge matrix -size_small 1000b --duration=1 --size=4m .
expect_status 2 "matrix -size_small 1000b with O_DIRECT: status 2"
expect_err "job small: -size_small \(1000 bytes\) is not a multiple of 512" \
	"matrix names -size_small as typed, not --bs"
run_iogauge matrix -size_small=x .
expect_err "^iogauge: -size_small: 'x' is not a size" "a bad -size_small is named as typed"

# ---- a job file saved with a UTF-8 byte order mark
printf '\xef\xbb\xbf[global]\nsize=64k\nfilename=bom.dat\n[a]\nrw=write\n' >bom.fio
run_iogauge run bom.fio
expect_status 0 "a job file starting with a UTF-8 BOM runs"

# ---- a short read: its bytes, not err=61
run_iogauge run --name=t --filename=t.dat --size=2m --bs=64k --rw=read --ioengine=inject \
	--inject=short@1m --json=t.json
expect_status 1 "a short read: status 1"
expect_err "^iogauge: job t: short read on t.dat at offset 1048576 \(end of file\): 32768 of 65536 bytes$" \
	"stderr: a short read, its offset and bytes"
check "text: the short read, not err=61" grep -q "^t: (groupid=0, jobs=1): short read: 32768 of 65536 bytes at offset 1048576" "$OUT"
check "no err=61 (No data available)" bash -c "! grep -q 'err=61\|No data available' '$OUT' '$ERR'"
check "JSON: errno null, bytes 32768 of 65536 at offset 1048576" \
	[ "$(jget t.json .jobs[0].error.errno .jobs[0].error.bytes .jobs[0].error.length .jobs[0].error.offset | tr '\n' ' ')" = "null 32768 65536 1048576 " ]

# ---- --help lists the output formats each command writes
for c in quick sweep dd compare; do
	run_iogauge "$c" --help
	check "$c --help: --output-format=normal|json only" grep -q -- "--output-format=normal|json " "$OUT"
done
run_iogauge run --help
check "run --help: fio's formats too" grep -q -- "--output-format=normal|json|fio-json|json+|terse" "$OUT"
run_iogauge sweep --output-format=terse .
expect_err "--output-format=terse: sweep writes normal or json" "sweep --output-format=terse: what sweep writes"

# ---- interrupted: '-' where a cell was not measured, no "iozone test complete."
# sig_when PATTERN: SIGINT once a progress line matches PATTERN (a case has measured bytes).
sig_when() {
	if await_bg "$1" 60; then
		signal_bg INT 20
	else
		fail "the progress line before SIGINT" "$WHY; stderr: $(head -c 300 "$ERR")"
		signal_bg KILL 5
	fi
}
mkdir s b
start_iogauge sweep -I -s 64m -r 4k -i 0 -i 1 -i 2 --json=sweep.json s --eta=always
sig_when '65536/4 write \.\.\. [0-9.]+ [KMG]iB'
check "sweep, SIGINT: status 130" [ "$STATUS" = 130 ]
check "sweep, SIGINT: no 'iozone test complete.'" bash -c "! grep -q 'iozone test complete' '$OUT'"
check "sweep, SIGINT: the cells asked but not measured show '-'" \
	grep -Eq "^ +65536 +4 .* - " "$OUT"
start_iogauge bonnie -s 64m:64k -r 0 -n 0 --json=bonnie.json b --eta=always
sig_when 'putc \.\.\. [0-9.]+ [KMG]iB'
check "bonnie, SIGINT: status 130" [ "$STATUS" = 130 ]
check "bonnie, SIGINT: the tests not measured show '-'" grep -Eq "^Latency .* +- +- +-" "$OUT"

# ---- report: the HTML, and nothing of the suites' stderr notes
for r in sweep bonnie; do
	run_iogauge report "$r.json" -o "$r.html"
	check "report of a $r result: status 0, nothing on stderr" test "$STATUS" = 0 -a ! -s "$ERR"
done
