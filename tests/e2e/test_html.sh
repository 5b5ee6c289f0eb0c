#!/bin/bash
# The HTML report: --html on quick, on mix over two targets and on run, and
# `iogauge report` comparing two saved results, each opened in headless
# Chromium with no network: no console message from the page, a screenshot
# that is not blank, every chart drawn, and the charts hold the JSON's
# figures (bars = the suite's medians and min-max, percentile curves = the
# histograms' percentiles, per-second series = the saved series).  Then the
# one-line refusals: no Chart.js, not a result, no result, clashing files.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 chromium gcc awk
need_json
[ -r /usr/share/javascript/chart.js/chart.min.js ] || skip_all "libjs-chart.js not installed"
PNGSTAT=$E2E_TMP/pngstat
gcc -O1 -o "$PNGSTAT" "$E2E_ROOT/tests/e2e/pngstat.c" -lpng 2>"$E2E_TMP/pngstat.err" ||
	skip_all "cannot build tests/e2e/pngstat.c against libpng"
RENDER=$E2E_ROOT/scripts/render-html.sh

mkfs_mount html_ext4 192M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
A=$MNT/a
B=$MNT/b
mkdir "$A" "$B" || exit 1
SMALL=(--size 8m --runtime 0.3 --ramp_time 0)
W=$E2E_TMP/www
mkdir "$W"

# near A B: |A - B| <= 0.01% of |B| (or both tiny).
near() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && b != "" && (d <= m * 1e-4 || d < 1e-6)) }'
}

# lacks PATTERN FILE: FILE has no line matching PATTERN.
lacks() { ! grep -q "$1" "$2"; }

# render NAME PAGE: opens PAGE in Chromium; sets R (the rendered-charts JSON file).
render() {
	local name=$1 page=$2 png=$W/$1.png
	: >"$ERR"
	"$RENDER" "$page" "$png" 1280 2400 >/dev/null 2>&1
	local rc=$?
	check "$name: Chromium opened the page without network (status $rc)" [ "$rc" = 0 ]
	if [ -s "$png.console.txt" ]; then
		fail "$name: the page wrote nothing to the console" "$(head -c 300 "$png.console.txt")"
	else
		pass "$name: the page wrote nothing to the console (no errors)"
	fi
	local st
	st=$("$PNGSTAT" "$png" 2>/dev/null)
	if awk -v s="$st" 'BEGIN { split(s, a, " "); exit !(a[1] == 1280 && a[3] > 0.02 && a[4] > 16) }'; then
		pass "$name: the screenshot is not blank ($st)"
	else
		fail "$name: the screenshot is not blank" "pngstat: '$st'"
	fi
	R=$W/$name.rendered.json
	awk '/id="iogauge-rendered">/ { sub(/.*id="iogauge-rendered">/, ""); sub(/<\/script>.*/, ""); print; exit }' \
		"$png.dom.html" >"$R"
	local canvases drawn
	canvases=$(grep -o '<canvas id="chart[0-9]*"' "$page" | wc -l)
	drawn=$(jget "$R" .charts 2>/dev/null)
	if ok [ "${drawn:-0}" = "$canvases" ] && ok [ "$canvases" -gt 0 ]; then
		pass "$name: every chart was drawn ($drawn of $canvases canvases)"
	else
		fail "$name: every chart was drawn ($drawn of $canvases canvases)" "$WHY"
	fi
	check "$name: no chart dataset is empty" sh -c "! grep -q '\"drawn\":0' '$R'"
	check "$name: the page refers to nothing outside itself" \
		sh -c "! grep -Eiq '<(script|link|img|iframe)[^>]*(src|href)=' '$page'"
}

# r EXPR: from the rendered charts.
r() { jget "$R" "$1" 2>/dev/null; }

# 1. quick with --json and --html: one page, the CrystalDiskMark table inside.
run_iogauge quick "${SMALL[@]}" --json "$W/q.json" --html "$W/q.html" "$A"
expect_status 0 "quick --html: exit 0"
check "quick: the page holds the CrystalDiskMark table" grep -Eq '^RND4K Q32T1 +\| ' "$W/q.html"
check "quick: the page names the exact command line" grep -qF "$IOGAUGE quick --size 8m --runtime 0.3" "$W/q.html"
check "quick: the page names the kernel" grep -q "Linux $(uname -r)" "$W/q.html"
if ok grep -q "I/O: O_DIRECT" "$W/q.html" && ok grep -q "random, incompressible" "$W/q.html"; then
	pass "quick: the page says O_DIRECT and random data"
else
	fail "quick: the page says O_DIRECT and random data" "$WHY"
fi
render quick "$W/q.html"
for c in "SEQ1M Q1T1 read" "RND4K Q1T1 write"; do
	i=$(r '.byKey.r0:bar:mb_s.labels' | tr -d '[]"' | tr ',' '\n' | grep -nx "$c" | cut -d: -f1)
	got=$(r ".byKey.r0:bar:mb_s.datasets[0].data[$((${i:-1} - 1))]")
	want=$(jget "$W/q.json" ".suite.targets[0].cases.$c.total.mb_s.median")
	check "quick: the bar of $c is the JSON's median ($got = $want MB/s)" near "$got" "$want"
done
# The p99 point of a percentile curve is the job's p99 from its histogram.
n=$(r '.byKey.r0:pct:RND4K Q1T1 read.datasets[0].data|length')
p99=""
for ((k = 0; k < ${n:-0}; k++)); do
	[ "$(r ".byKey.r0:pct:RND4K Q1T1 read.datasets[0].data[$k].p")" = 99 ] &&
		p99=$(r ".byKey.r0:pct:RND4K Q1T1 read.datasets[0].data[$k].y") && x=$(r ".byKey.r0:pct:RND4K Q1T1 read.datasets[0].data[$k].x")
done
check "quick: job 3 is RND4K Q1T1 read" [ "$(jget "$W/q.json" .jobs[3].name)" = "RND4K Q1T1 read" ]
saved=$(jget "$W/q.json" .jobs[3].read.clat_ns.percentiles | grep -o '"99.000000":[0-9]*' | cut -d: -f2)
want=$(awk -v v="${saved:-0}" 'BEGIN { print v / 1000 }')
if ok near "$p99" "$want" && ok near "${x:-0}" 100; then
	pass "quick: the curve's p99 at x = 1/(1-0.99) is the saved p99 ($p99 = $want us)"
else
	fail "quick: the curve's p99 at x = 1/(1-0.99) is the saved p99 ($p99 = $want us)" "$WHY"
fi
check "quick: the curve's last point is the largest sample" \
	near "$(r ".byKey.r0:pct:RND4K Q1T1 read.datasets[0].data[$((n - 1))].y")" \
	"$(awk -v v="$(jget "$W/q.json" .jobs[3].read.clat_ns.max)" 'BEGIN { print v / 1000 }')"
# The per-second IOPS of a job is its saved series.
npts=$(jget "$W/q.json" '.jobs[3].series.points|length')
ios=$(jget "$W/q.json" .jobs[3].series.points[0].read.ios)
dur=$(jget "$W/q.json" .jobs[3].series.points[0].dur_ns)
got=$(r '.byKey.r0:time:iops:t0.datasets[3].data[0].y')
check "quick: the IOPS series of RND4K Q1T1 read is the saved one ($got = $ios / $dur ns)" \
	near "$got" "$(awk -v i="$ios" -v d="$dur" 'BEGIN { printf "%.9g", i / d * 1e9 }')"
check "quick: the series has every saved point ($npts)" [ "$(r '.byKey.r0:time:iops:t0.datasets[3].data|length')" = "$npts" ]
check "quick: the test directory is left empty" dir_empty "$A"

# 2. mix over two targets: bars and curves side by side.
run_iogauge mix "${SMALL[@]}" --iodepth 4 --numjobs 1 --json "$W/m.json" --html "$W/m.html" "$A" "$B"
expect_status 0 "mix on two targets --html: exit 0"
check "mix: the page holds YABS's table" grep -q "fio Disk Speed Tests (Mixed R/W 50/50)" "$W/m.html"
render mix "$W/m.html"
check "mix: a bar per target" [ "$(r '.byKey.r0:bar:iops.datasets|length')" = 2 ]
check "mix: bars labelled by target" [ "$(r '.byKey.r0:bar:iops.datasets[1].label')" = "$B" ]
got=$(r '.byKey.r0:bar:iops.datasets[1].data[2]')
want=$(jget "$W/m.json" '.suite.targets[1].cases.512k.total.iops.median')
check "mix: the 512k bar of the second target is its total IOPS ($got = $want)" near "$got" "$want"
check "mix: 4k latency curves for both targets, read and write" [ "$(r '.byKey.r0:pct:4k.datasets|length')" = 4 ]
check "mix: an over-time chart per target" [ -n "$(r '.byKey.r0:time:mb_s:t1.datasets[0].label')" ]

# 3. Two saved results compared: shared charts with the passes' range as error bars.
run_iogauge quick "${SMALL[@]}" --passes 2 --output-format=json --output "$W/q2.json" "$A"
expect_status 0 "quick --passes 2 saved: exit 0"
run_iogauge report "$W/q.json" "$W/q2.json" -o "$W/cmp.html"
expect_status 0 "report of two saved results: exit 0"
check "report: the page says two results" grep -q "2 results" "$W/cmp.html"
render compare "$W/cmp.html"
if ok [ "$(r '.byKey.all:bar:mb_s.datasets|length')" = 2 ] &&
	ok [ "$(r '.byKey.all:bar:mb_s.datasets[1].label')" = q2.json ]; then
	pass "report: shared bars, one dataset per result"
else
	fail "report: shared bars, one dataset per result" "$WHY"
fi
lo=$(r '.byKey.all:bar:mb_s.datasets[1].err[0][0]')
hi=$(r '.byKey.all:bar:mb_s.datasets[1].err[0][1]')
if ok near "$lo" "$(jget "$W/q2.json" '.suite.targets[0].cases.SEQ1M Q8T1 read.total.mb_s.min')" &&
	ok near "$hi" "$(jget "$W/q2.json" '.suite.targets[0].cases.SEQ1M Q8T1 read.total.mb_s.max')"; then
	pass "report: the error bar is the passes' min-max ($lo - $hi)"
else
	fail "report: the error bar is the passes' min-max ($lo - $hi)" "$WHY"
fi
check "report: one pass has no error bar" [ "$(r '.byKey.all:bar:mb_s.datasets[0].err[0]')" = null ]
check "report: shared percentile curves, one per result" [ "$(r '.byKey.all:pct:RND4K Q32T1 write.datasets|length')" = 2 ]
check "report: each result keeps its own section" [ "$(grep -c '<section class="result"' "$W/cmp.html")" = 2 ]
cmp -s <(sed -n '/<pre class="summary">/,/<\/pre>/p' "$W/q.html") \
	<(sed -n '/id="result0"/,/<\/section>/p' "$W/cmp.html" | sed -n '/<pre class="summary">/,/<\/pre>/p')
check "report: a saved result's summary is the one --html wrote" [ $? = 0 ]

# Commands of their own, with --html alone: their own summary in the page, not fio's text.
run_iogauge compare "$W/q.json" "$W/q2.json" --html "$W/cmpc.html"
expect_status 0 "compare --html: exit 0"
row=$(grep -m1 '^RND4K Q1T1 read: read IOPS ' "$E2E_TMP/last.out")
if ok grep -qF "changes against $W/q.json" "$W/cmpc.html" &&
	ok [ -n "$row" ] && ok grep -qF "$row" "$W/cmpc.html"; then
	pass "compare: the page holds compare's table as it printed it"
else
	fail "compare: the page holds compare's table as it printed it" "$WHY"
fi
run_iogauge dd if=/dev/zero of="$A/dd.out" bs=1M count=4 --html "$W/dd.html"
expect_status 0 "dd --html: exit 0"
if ok grep -Eq '(^|>)4\+0 records in$' "$W/dd.html" &&
	ok grep -q '^4194304 bytes (4.2 MB, 4.0 MiB) copied' "$W/dd.html" && ok grep -q '^iogauge: per-block latency' "$W/dd.html"; then
	pass "dd: the page holds dd's lines and iogauge's"
else
	fail "dd: the page holds dd's lines and iogauge's" "$WHY"
fi
check "dd: and the exact command line" grep -qF "$IOGAUGE dd if=/dev/zero of=$A/dd.out bs=1M count=4 --html" "$W/dd.html"
rm -f "$A/dd.out"

# 4. run: fio's text in the page, and the refusals.
run_iogauge run --directory="$A" --name=rr --size=4m --rw=randread --bs=4k --ioengine=io_uring \
	--iodepth=4 --direct=1 --html "$W/run.html"
expect_status 0 "run --html: exit 0"
check "run: the page holds fio's text" grep -q "read: IOPS=" "$W/run.html"
check "run: reads alone: the page says nothing of data written" lacks "Data written" "$W/run.html"
run_iogauge run --name=rr --size=1m --rw=read --filename="$A/no/such/dir/f" --html "$W/bad.html"
expect_status 2 "run --html with a file that cannot be made: exit 2"
check "run: a refusal's page says nothing was measured, and why" \
	grep -qF "Nothing was measured: cannot create $A/no/such/dir/f" "$W/bad.html"
# latency: ioping's statistics, from the saved result as from the run.
run_iogauge latency -c 3 -i 0 --json "$W/lat.json" --html "$W/lat.html" "$A"
expect_status 0 "latency --html: exit 0"
n=$(jget "$W/lat.json" .latency.targets[0].completed)
check "latency: the JSON keeps ioping's statistics (3 requests: $n)" [ "$n" = 3 ]
line=$(grep -m1 '^3 requests completed in ' "$E2E_TMP/last.out")
if ok [ -n "$line" ] && ok grep -qF "$line" "$W/lat.html" &&
	ok grep -q '^p50/p90/p99/p99.9 = ' "$W/lat.html" && ok lacks "clat percentiles" "$W/lat.html"; then
	pass "latency: the page holds ioping's statistics as printed"
else
	fail "latency: the page holds ioping's statistics as printed" "$WHY"
fi
run_iogauge report "$W/lat.json" -o "$W/lat2.html"
check "latency: report of the saved result shows the same statistics" grep -qF "$line" "$W/lat2.html"
IOGAUGE_CHARTJS=/nonexistent/chart.js run_iogauge quick "${SMALL[@]}" --html "$W/x.html" "$A"
expect_status 2 "no Chart.js: quick --html refused, exit 2"
expect_err "cannot read Chart.js at /nonexistent/chart.js.*libjs-chart.js" "no Chart.js: the message names the file and the package"
check "no Chart.js: nothing was measured (the directory is empty)" dir_empty "$A"
run_iogauge report /etc/hostname -o "$W/x.html"
expect_status 2 "report of a file that is not a result: exit 2"
expect_err "/etc/hostname: not a JSON result" "report: the message names the file"
run_iogauge report "$E2E_ROOT/tests/fuzz/corpus/fuzz_json/quick-few-cases.json" -o "$W/x.html"
expect_status 2 "report of a quick result with 2 of its 8 cases: exit 2"
check "report of a quick result with 2 of its 8 cases: one line" [ "$(wc -l <"$ERR")" = 1 ]
expect_err "quick-few-cases.json: the saved suite's cases are not quick's own" "report of a quick result with 2 of its 8 cases: the message names the file"
run_iogauge report -o "$W/x.html"
expect_status 2 "report without a result: exit 2"
run_iogauge quick "${SMALL[@]}" --json "$W/same" --html "$W/same" "$A"
expect_status 2 "--html and --json naming one file: exit 2"
