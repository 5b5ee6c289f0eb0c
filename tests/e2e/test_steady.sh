#!/bin/bash
# Steady state.  run: fio's --steadystate with --ss_dur stops a rate-limited
# job once its window is steady (well before --runtime), says so in the text
# and the JSON, and a criterion that cannot be met runs to the end and says
# it was not attained; bad values are refused.  steady: on a RAM-backed loop
# device the region is preconditioned (the device sees both passes), rounds
# follow until the verdict, the JSON holds every round and the window, the
# page plots them (whole-round ticks); a 2x2 matrix of block sizes x mixes runs
# every case every round, tracks 4k writes and prints PTS's table, also from the
# saved result; bad lists are refused in one line; a device with a file system
# is refused untouched.
# make test: alone (rates and steady-state windows measured)
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 awk
need_json

j() { jget "$OUT" "$1" 2>/dev/null; }
NULLJOB=(run --name=s --ioengine=null --size=1g --bs=4k --rw=randwrite --time_based --runtime=30)

# 1. run: a constant rate is steady after the window; the job stops there.
run_iogauge "${NULLJOB[@]}" --rate_iops=2000 --steadystate=iops:5% --ss_dur=2 --output-format=json
expect_status 0 "run --steadystate=iops:5% --ss_dur=2 at a constant 2000 IOPS: exit 0"
check "JSON: steady state attained" [ "$(j .jobs[0].steadystate.attained)" = true ]
el=$(j .jobs[0].elapsed_ns)
check "the job stopped once steady, well before --runtime=30 ($el ns)" between "${el:-0}" 2e9 9e9
at=$(j .jobs[0].steadystate.attained_ns)
check "attained after the 2 s window and before the end ($at ns)" between "${at:-0}" 2e9 "$el"
if ok [ "$(j '.jobs[0].steadystate.window.iops|length')" = 2 ] && ok between "$(j .jobs[0].steadystate.window.iops[1])" 1900 2100; then
	pass "JSON: the window holds 2 values near 2000 IOPS"
else
	fail "JSON: the window holds 2 values near 2000 IOPS" "$WHY"
fi
if ok [ "$(j .jobs[0].steadystate.criterion)" = iops ] && ok [ "$(j .jobs[0].steadystate.limit_pct)" = true ]; then
	pass "JSON: the criterion as given"
else
	fail "JSON: the criterion as given" "$WHY"
fi
check "JSON: the options echo it as fio spells it" [ "$(j .jobs[0].options.steadystate)" = "iops:5%" ]
run_iogauge "${NULLJOB[@]}" --rate_iops=2000 --ss=iops_slope:1% --ss_dur=2
expect_status 0 "fio's short names (ss, ss_dur): exit 0"
check "text: steady state attained" grep -q "^  steady state : the slope of per-second IOPS under 1% of the window's mean a second over a 2 s window: attained after" "$OUT"

# A criterion that cannot be met: the job runs its time and the report says so (text and JSON).
run_iogauge "${NULLJOB[@]}" --runtime=3 --rate_iops=2000 --steadystate=bw:0 --ss_dur=2 --json "$E2E_TMP/never.json"
expect_status 0 "an impossible criterion: exit 0"
check "text: not attained, with the last window's deviation" grep -q "not attained; the last window's largest deviation was" "$OUT"
n() { jget "$E2E_TMP/never.json" "$1" 2>/dev/null; }
if ok [ "$(n .jobs[0].steadystate.attained)" = false ] && ok [ "$(n .jobs[0].steadystate.attained_ns)" = null ]; then
	pass "JSON: not attained"
else
	fail "JSON: not attained" "$WHY"
fi
check "the job ran its whole --runtime" between "$(n .jobs[0].elapsed_ns)" 2.9e9 5e9
check "JSON: the last window was judged" [ "$(n .jobs[0].steadystate.judged)" = true ]
run_iogauge "${NULLJOB[@]}" --steadystate=iops --ss_dur=3
expect_status 2 "--steadystate without a limit: exit 2"
expect_err "steadystate: 'iops' is not allowed" "the message names the option and the value"
run_iogauge "${NULLJOB[@]}" --steadystate=lat:5% --ss_dur=3
expect_status 2 "an unknown criterion: exit 2"
run_iogauge "${NULLJOB[@]}" --ss_dur=8d
expect_status 2 "a window over a week: exit 2"
expect_err "steadystate_duration: at most 604800 s" "the message says the bound"

# 2. steady on a RAM-backed loop device.
mount_tmpfs 300M || {
	fail "a tmpfs"
	exit 1
}
truncate -s 64M "$MNT/dev.img" && DEV=$(losetup -f --show "$MNT/dev.img") || {
	fail "a RAM-backed loop device"
	exit 1
}
E2E_LOOPS+=("$DEV")
read -r _ w0 < <(dev_sectors "$DEV")
run_iogauge steady --ioengine=libaio --runtime 0.3 --passes 6 --iodepth 8 --json "$E2E_TMP/st.json" \
	--html "$E2E_TMP/st.html" "$DEV"
expect_status 0 "steady on a RAM-backed loop device: exit 0"
read -r _ w1 < <(dev_sectors "$DEV")
S=$E2E_TMP/steady.json
jget "$E2E_TMP/st.json" .steady >"$S"
k() { jget "$S" "$1" 2>/dev/null; }
check "the precondition wrote the 64 MiB device twice" [ "$(k .targets[0].prepare_bytes)" = $((2 * 64 << 20)) ]
check "the device saw the precondition's writes and more" [ $(((w1 - w0) * 512)) -ge $((2 * 64 << 20)) ]
check "text: the precondition is said" grep -q "^Precondition: wrote 128 MiB (the 64.0 MiB region twice) with 128 KiB sequential writes" "$OUT"
n=$(k '.targets[0].rounds|length')
check "JSON: between 5 and 6 rounds ($n)" between "${n:-0}" 5 6
check "text: a row per round" [ "$(grep -Ec '^ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+' "$OUT")" = "$n" ]
check "JSON: every round of the suite is a job" [ "$(jget "$E2E_TMP/st.json" '.jobs|length')" = "$n" ]
if [ "$(k .targets[0].reached)" = true ]; then
	check "reached: the rounds stop at the window's last round" [ "$(k .targets[0].window.last_round)" = "$n" ]
	check "reached: within the limits" awk -v r="$(k .targets[0].window.range_pct)" -v e="$(k .targets[0].window.excursion_pct)" \
		'BEGIN { exit !(r <= 20 && e <= 10) }'
	check "text: reached" grep -q "^Steady state reached at round $n" "$OUT"
else
	check "not reached: every round ran" [ "$n" = 6 ]
	check "not reached: outside a limit" awk -v r="$(k .targets[0].window.range_pct)" -v e="$(k .targets[0].window.excursion_pct)" \
		'BEGIN { exit !(r > 20 || e > 10) }'
	check "text: not reached, and why" grep -q "^Steady state NOT reached in 6 rounds (the round limit, --passes)" "$OUT"
fi
# The page: the rounds and the window.  Chromium takes ~10 s on a busy machine and
# draws the same page from either build: only the release pass opens it.
if [[ $IOGAUGE == */iogauge-san ]]; then
	skip "HTML of steady drawn by Chromium" "the release pass draws it"
elif command -v chromium >/dev/null 2>&1 && [ -r /usr/share/javascript/chart.js/chart.min.js ]; then
	"$E2E_ROOT/scripts/render-html.sh" "$E2E_TMP/st.html" "$E2E_TMP/st.png" 1280 1400 >/dev/null 2>&1
	if ok [ -s "$E2E_TMP/st.png" ] && ok [ ! -s "$E2E_TMP/st.png.console.txt" ]; then
		pass "HTML: drawn without console messages"
	else
		fail "HTML: drawn without console messages" "$WHY"
	fi
	R=$E2E_TMP/st.rendered.json
	awk '/id="iogauge-rendered">/ { sub(/.*id="iogauge-rendered">/, ""); sub(/<\/script>.*/, ""); print; exit }' \
		"$E2E_TMP/st.png.dom.html" >"$R"
	check "HTML: the rounds chart has a point per round" [ "$(jget "$R" '.byKey.r0:steady:t0.datasets[0].data|length')" = "$n" ]
	check "HTML: the window's 5 rounds are marked" [ "$(jget "$R" '.byKey.r0:steady:t0.datasets[1].data|length')" = 5 ]
	if ok [ "$(jget "$R" '.byKey.r0:steady:t0.xticks|length')" -gt 0 ] &&
		ok not matches "$(jget "$R" '.byKey.r0:steady:t0.xticks')" '\.'; then
		pass "HTML: the rounds axis ticks whole rounds"
	else
		fail "HTML: the rounds axis ticks whole rounds" "$WHY"
	fi
	check "HTML: round 1's point is round 1's IOPS" \
		awk -v a="$(jget "$R" '.byKey.r0:steady:t0.datasets[0].data[0].y')" -v b="$(k .targets[0].rounds[0].iops)" 'BEGIN { exit !(a == b) }'
else
	skip "HTML of steady" "chromium or libjs-chart.js missing"
fi

# 3. A 2x2 matrix (--round-bs x --round-mix): every case runs every round; the tracked case
# is 4k writes; the rounds table, the verdict and PTS's table of window averages; the JSON
# holds every case's rounds and the table; the saved result re-prints the same summary.
run_iogauge steady --ioengine=libaio --size=16m --runtime=200ms --passes=6 --iodepth=8 \
	--round-bs=4k,64k --round-mix=100,0 --json "$E2E_TMP/mx.json" --output "$E2E_TMP/mx.txt" "$DEV"
expect_status 0 "steady with a 2x2 matrix on the loop device: exit 0"
jget "$E2E_TMP/mx.json" .steady >"$S"
m=$(k '.targets[0].rounds|length')
check "matrix: between 5 and 6 rounds ($m)" between "${m:-0}" 5 6
check "matrix: the tracked case is 4k writes" [ "$(k .tracked_case)" = "4k R/W 0/100" ]
if ok [ "$(k .block_sizes[1])" = 65536 ] && ok [ "$(k .read_pcts[0])" = 0 ] && ok [ "$(k '.read_pcts|length')" = 2 ]; then
	pass "matrix: the JSON names the block sizes and mixes"
else
	fail "matrix: the JSON names the block sizes and mixes" "$WHY"
fi
if ok [ "$(k '.targets[0].cases|length')" = 4 ] &&
	ok [ "$(k .targets[0].cases[1].name)" = "64k R/W 100/0" ] && ok [ "$(k .targets[0].cases[2].read_pct)" = 0 ]; then
	pass "matrix: 4 cases, mixes outer"
else
	fail "matrix: 4 cases, mixes outer" "$WHY"
fi
for c in 0 1 2 3; do
	check "matrix: case $c ran every round" [ "$(k ".targets[0].cases[$c].rounds|length")" = "$m" ]
done
check "matrix: a job per case per round" [ "$(jget "$E2E_TMP/mx.json" '.jobs|length')" = $((4 * m)) ]
check "matrix: the tracked rounds are case 2's" \
	[ "$(k .targets[0].rounds[0].iops)" = "$(k .targets[0].cases[2].rounds[0].iops)" ]
if ok [ "$(k '.targets[0].table.iops|length')" = 2 ] && ok [ "$(k '.targets[0].table.iops[1]|length')" = 2 ]; then
	pass "matrix: the table is 2 block sizes x 2 mixes"
else
	fail "matrix: the table is 2 block sizes x 2 mixes" "$WHY"
fi
check "matrix: a table cell is its case's average (PTS's layout: row 64k, column 0/100 is case 3)" \
	[ "$(k .targets[0].table.iops[1][0])" = "$(k .targets[0].cases[3].iops_mean)" ]
check "text: the tracked case is named" grep -q "Tracked: 4k R/W 0/100 (random writes)" "$E2E_TMP/mx.txt"
check "text: the tracked case's rounds" \
	[ "$(grep -Ec '^ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+' "$E2E_TMP/mx.txt")" = "$m" ]
if ok grep -Eq '^IOPS by block size and R/W mix, the average of the (steady-state|last) window' "$E2E_TMP/mx.txt" &&
	ok grep -q '^ Block       0/100       100/0$' "$E2E_TMP/mx.txt" &&
	ok [ "$(grep -Ec '^ +(4k|64k)( +[0-9]+\.[0-9]){2}$' "$E2E_TMP/mx.txt")" = 2 ]; then
	pass "text: PTS's table, a row per block size"
else
	fail "text: PTS's table, a row per block size" "$WHY"
fi
run_iogauge report "$E2E_TMP/mx.json" -o "$E2E_TMP/mx.html"
expect_status 0 "report of the saved matrix: exit 0"
sed -n '/<pre class="summary">/,/<\/pre>/p' "$E2E_TMP/mx.html" | sed -e 's/.*<pre class="summary">//' -e '/<\/pre>/d' \
	-e 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&amp;/\&/g' >"$E2E_TMP/mx.again"
check "the saved matrix re-prints the same summary" cmp -s "$E2E_TMP/mx.txt" "$E2E_TMP/mx.again"
check "HTML: PTS's table" grep -q 'class="meta steady-table"' "$E2E_TMP/mx.html"
if [[ $IOGAUGE != */iogauge-san ]] && command -v chromium >/dev/null 2>&1 &&
	[ -r /usr/share/javascript/chart.js/chart.min.js ]; then
	"$E2E_ROOT/scripts/render-html.sh" "$E2E_TMP/mx.html" "$E2E_TMP/mx.png" 1280 1400 >/dev/null 2>&1
	R=$E2E_TMP/mx.rendered.json
	awk '/id="iogauge-rendered">/ { sub(/.*id="iogauge-rendered">/, ""); sub(/<\/script>.*/, ""); print; exit }' \
		"$E2E_TMP/mx.png.dom.html" >"$R"
	if ok [ "$(jget "$R" '.byKey.r0:steady:cases:t0.datasets|length')" = 2 ] &&
		ok [ "$(jget "$R" '.byKey.r0:steady:cases:t0.datasets[1].label')" = "64k R/W 0/100" ] &&
		ok [ "$(jget "$R" '.byKey.r0:steady:cases:t0.datasets[1].data|length')" = "$m" ]; then
		pass "HTML: every block size's rounds at the tracked mix are drawn"
	else
		fail "HTML: every block size's rounds at the tracked mix are drawn" "$WHY"
	fi
fi
# Bad lists: one line, exit 2, nothing run.
for bad in --round-bs=4k,0 --round-bs=4k,4k --round-mix=101 --round-mix=5,5 \
	--round-mix=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16; do
	run_iogauge steady --runtime=0.2 "$bad" "$DEV"
	expect_status 2 "steady $bad: exit 2"
	check "steady $bad: one line on stderr" [ "$(wc -l <"$ERR")" = 1 ]
done
run_iogauge steady --runtime=0.2 --rw=write --round-bs=4k,8k "$DEV"
expect_status 2 "the lists with a sequential --rw: exit 2"
expect_err "--rw=write is sequential" "the refusal says why"

# 4. The interlock: a device with a file system is refused, untouched.
mkfs_ext4 "$DEV"
h=$(content_hash "$DEV")
run_iogauge steady --runtime 0.2 --passes 5 "$DEV"
expect_status 2 "steady on a device with ext4: exit 2"
expect_err "it carries an ext4 file system" "the refusal names the file system"
check "the device is unchanged" [ "$(content_hash "$DEV")" = "$h" ]
run_iogauge steady --runtime 0.2 --passes 5 --pts "$DEV"
expect_status 2 "steady --pts on a device with ext4: exit 2"
expect_err "it carries an ext4 file system" "the refusal names the file system"
check "the device is still unchanged" [ "$(content_hash "$DEV")" = "$h" ]
