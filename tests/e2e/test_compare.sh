#!/bin/bash
# `iogauge compare`: two saved results of a suite side by side with the
# change in percent, the not-significant mark from the passes' spread, a
# column per target, results of `run` and `dd`, and refusals (different
# commands, different settings, files that are not iogauge's results).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_iogauge
need_json

D=$E2E_TMP/c
mkdir -p "$D/a" "$D/b" || exit 1
j() { jget "$1" "$2" 2>/dev/null; }

# Two saved runs of the same suite (latency: fast, and with --passes 3 a spread).
"$IOGAUGE" latency -c 4 -i 0 -q --passes 3 "$D/a" --json "$D/la.json" >/dev/null 2>&1
"$IOGAUGE" latency -c 4 -i 0 -q --passes 3 "$D/b" --json "$D/lb.json" >/dev/null 2>&1
run_iogauge compare "$D/la.json" "$D/lb.json"
expect_status 0 "compare two latency results: exit 0"
check "compare: both files are columns" grep -Eq "^Test +\| $D/la.json $D/a +\| $D/lb.json $D/b" "$OUT"
check "compare: a row per statistic, both values and the change" \
	grep -Eq '^latency: read avg us +\| [0-9.]+ +\| [0-9.]+ [+-][0-9.]+%( ~)? *$' "$OUT"
check "compare: six latency rows" [ "$(grep -c '^latency: read ' "$OUT")" = 6 ]
run_iogauge compare "$D/la.json" "$D/lb.json" --output-format=json
expect_status 0 "compare --output-format=json: exit 0"
a=$(j "$OUT" '.compare.rows[1].values[0]')
b=$(j "$OUT" '.compare.rows[1].values[1]')
c=$(j "$OUT" '.compare.rows[1].change_pct[1]')
if awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN { d = 100 * (b - a) / a - c; exit !(a > 0 && d < 1e-6 && d > -1e-6) }'; then
	pass "compare JSON: the change is (B - A) / A ($a, $b, $c%)"
else
	fail "compare JSON: the change is (B - A) / A" "$a $b $c"
fi
m=$(j "$D/la.json" .suite.targets[0].cases.latency.read.lat_mean_ns.median)
check "compare JSON: the values are the saved medians ($a us, $m ns)" awk -v a="$a" -v m="$m" 'BEGIN { d = a * 1e3 - m; exit !(m > 0 && d < 1e-3 && d > -1e-3) }'
sig=$(j "$OUT" '.compare.rows[1].significant[1]')
check "compare JSON: significance is decided from the passes' ranges ($sig)" grep -Eq '^(true|false)$' <<<"$sig"

# The mark: a result compared with itself is within its own spread.
run_iogauge compare "$D/la.json" "$D/la.json"
check "compare: a result against itself: +0.0% and not significant" grep -Eq '^latency: read avg us +\| [0-9.]+ +\| [0-9.]+ \+0\.0% ~' "$OUT"

# One run of one pass records no spread: marked '?'.
"$IOGAUGE" run --name=j --ioengine=null --size=4m --bs=4k --rw=read --json "$D/ra.json" >/dev/null 2>&1
"$IOGAUGE" run --name=j --ioengine=null --size=4m --bs=4k --rw=read --json "$D/rb.json" >/dev/null 2>&1
run_iogauge compare "$D/ra.json" "$D/rb.json"
expect_status 0 "compare two run results: exit 0"
check "compare run: the job's rows, marked ? (no spread)" grep -Eq '^j: read MB/s +\| [0-9.]+ +\| [0-9.]+ [+-][0-9.]+% \?' "$OUT"

# A suite with two targets in one file: a column each.
"$IOGAUGE" latency -c 4 -i 0 -q "$D/a" "$D/b" --json "$D/two.json" >/dev/null 2>&1
run_iogauge compare "$D/two.json" "$D/la.json"
expect_status 0 "compare a two-target result with a one-target one: exit 0"
check "compare: three columns (two targets, then the other file)" \
	grep -Eq "^Test +\| $D/two.json $D/a +\| $D/two.json $D/b +\| $D/la.json $D/a" "$OUT"

# Refusals: one line, exit 2.
refused() {
	local name=$1 pattern=$2
	shift 2
	run_iogauge compare "$@"
	if [ "$STATUS" -eq 2 ] && [ "$(wc -l <"$ERR")" = 1 ] && grep -Eq "$pattern" "$ERR" && [ ! -s "$OUT" ]; then
		pass "compare refuses $name"
	else
		fail "compare refuses $name" "status $STATUS"
	fi
}
refused "results of different commands" 'different commands' "$D/la.json" "$D/ra.json"
"$IOGAUGE" compare "$D/ra.json" "$D/rb.json" --json "$D/cmp.json" >/dev/null 2>&1
refused "a saved compare result (it holds no jobs): by name" 'cmp.json: a result of iogauge compare, which holds no measured jobs; give the results it compared instead' \
	"$D/cmp.json" "$D/ra.json"
run_iogauge report "$D/cmp.json" -o "$D/cmp.html"
expect_status 2 "report of a saved compare result: exit 2"
expect_err "a result of iogauge compare, which holds no measured jobs" "... one line naming what it is"
"$IOGAUGE" latency -c 4 -i 0 -q -s 8k "$D/a" --json "$D/l8k.json" >/dev/null 2>&1
refused "results with different settings (-s 8k)" 'different settings \(options.bs: 4096 vs 8192\)' "$D/la.json" "$D/l8k.json"
"$IOGAUGE" run --name=j --ioengine=null --size=4m --bs=8k --rw=read --json "$D/rc.json" >/dev/null 2>&1
refused "run results with a different --bs" 'different settings \(j.bs: 4096 vs 8192\)' "$D/ra.json" "$D/rc.json"
echo '{"a": 1}' >"$D/other.json"
refused "JSON that iogauge did not write" 'not an iogauge result' "$D/la.json" "$D/other.json"
# The schema: every result carries it; one from a newer iogauge is refused rather than misread;
# one from before the key existed (no schema) is read as schema 1.
check "a result names its schema (2)" jq -e ".iogauge.schema == 2" "$D/la.json"
jq '.iogauge.schema = 3' "$D/la.json" >"$D/newer.json"
refused "a result of a newer schema" 'result schema 3, this iogauge .* reads schemas 1 to 2' "$D/la.json" "$D/newer.json"
jq '.iogauge.schema = "2"' "$D/la.json" >"$D/strschema.json"
refused "a schema that is not an integer" 'result schema \(not an integer\)' "$D/la.json" "$D/strschema.json"
jq 'del(.iogauge.schema)' "$D/la.json" >"$D/old.json"
if "$IOGAUGE" compare "$D/la.json" "$D/old.json" >"$D/old.out" 2>&1; then pass "a result without a schema reads as schema 1"; else fail "a result without a schema reads as schema 1: $(head -c 300 "$D/old.out")"; fi
# A hand-edited suite result whose cases are not the suite's own table: refused, not printed
# from rows it lacks (quick with 2 of its 8 cases: fuzz_json's find; latency with a case added).
refused "a quick result with fewer cases than quick's table" "quick-few-cases.json: the saved suite's cases are not quick's own \\(2 saved, 8 expected\\)" \
	"$E2E_ROOT/tests/fuzz/corpus/fuzz_json/quick-few-cases.json" "$E2E_ROOT/tests/fuzz/corpus/fuzz_json/quick-few-cases.json"
jq '.suite.cases += [{"name": "extra", "options": "--bs=8k"}]' "$D/la.json" >"$D/lcases.json"
refused "a latency result with a case latency does not have" "the saved suite's cases are not latency's own" "$D/la.json" "$D/lcases.json"
jq '.suite.cases[0].name = "renamed"' "$D/la.json" >"$D/lrenamed.json"
refused "a latency result whose case is renamed" 'not latency.s own \(case 1 is "renamed", not "latency"\)' "$D/la.json" "$D/lrenamed.json"
echo 'not json' >"$D/bad.json"
refused "a file that is not JSON" 'not a JSON result' "$D/la.json" "$D/bad.json"
refused "a missing file" 'not a JSON result|No such file' "$D/la.json" "$D/missing.json"
refused "a single file" 'two or more' "$D/la.json"
refused "a fio output format (it would print nothing)" "fio's formats" "$D/la.json" "$D/la.json" --output-format=terse
