#!/bin/bash
# matrix: Oracle Orion's method.  simple and normal with tiny durations write
# NAME_iops.csv, NAME_mbps.csv and NAME_lat.csv in Orion's shape (rows: large
# levels, columns: small levels) and a summary whose maxima are the CSV's;
# each point runs its small and large jobs at once; advanced matrices; the
# write interlock on a device; bad options refused with one line.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4
need_json

# The ASan pass skips the slowest parts that run no code of their own (the CI budget).
SAN=0
[[ $IOGAUGE == */iogauge-san ]] && SAN=1
mkfs_mount matrix 128M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
D=$MNT/work
R=$E2E_TMP/results
mkdir "$D" "$R" || exit 1
cd "$R" || exit 1
# Points of 50 ms: no figure is judged but by the CSVs' shape, the summary against the CSVs and
# the knee's level among the levels measured, none of which needs a longer point or an idle machine.
Q=(--duration 0.05 --size 16m)
j() { jget "$E2E_TMP/m.json" "$1" 2>/dev/null; }

# csv_max FILE: the largest value in an Orion CSV; csv_min likewise.
csv_max() { awk -F, 'NR > 1 { for (i = 2; i <= NF; i++) if ($i ~ /[0-9]/ && (m == "" || $i + 0 > m + 0)) { m = $i + 0; s = $i } } END { gsub(/ /, "", s); print s }' "$1"; }
csv_min() { awk -F, 'NR > 1 { for (i = 2; i <= NF; i++) if ($i ~ /[0-9]/ && (m == "" || $i + 0 < m + 0)) { m = $i + 0; s = $i } } END { gsub(/ /, "", s); print s }' "$1"; }
# summary_val FILE KEY: the number after "KEY=" in a summary line.
summary_val() { sed -n "s/^$2=\([0-9.]*\).*/\1/p" "$1"; }
same() { [ -n "$1" ] && [ "$1" = "$2" ]; }

# 1. simple: small alone at 1..5, then large alone at 1..2.
run_iogauge matrix --run simple --testname simple "${Q[@]}" "$D"
expect_status 0 "matrix --run simple: exit 0"
if ok [ -f simple_summary.txt ] && ok [ -f simple_iops.csv ] && ok [ -f simple_mbps.csv ] && ok [ -f simple_lat.csv ]; then
	pass "four files"
else
	fail "four files" "$WHY"
fi
check "iops.csv: Orion's header, small levels 1..5" [ "$(head -1 simple_iops.csv)" = "Large/Small,      1,      2,      3,      4,      5" ]
check "iops.csv: row 0 has five whole numbers in %7d" grep -Eq '^          0(,[ 0-9]{6,}[0-9]){5}$' simple_iops.csv
if ok [ "$(sed -n 3p simple_iops.csv)" = "          1" ] && ok [ "$(sed -n 4p simple_iops.csv)" = "          2" ]; then
	pass "iops.csv: rows 1 and 2 are labels alone"
else
	fail "iops.csv: rows 1 and 2 are labels alone" "$WHY"
fi
check "iops.csv: three rows" [ "$(wc -l <simple_iops.csv)" = 4 ]
if ok grep -Eq '^          0(,[ 0-9]{3,}[0-9]\.[0-9]{2}){5}$' simple_lat.csv && ok [ "$(wc -l <simple_lat.csv)" = 4 ]; then
	pass "lat.csv: the iops layout, %7.2f"
else
	fail "lat.csv: the iops layout, %7.2f" "$WHY"
fi
check "mbps.csv: small levels 0..5 as columns" [ "$(head -1 simple_mbps.csv)" = "Large/Small,      0,      1,      2,      3,      4,      5" ]
if ok [ "$(grep -Ec '^          [12],[ 0-9]{3,}[0-9]\.[0-9]{2}$' simple_mbps.csv)" = 2 ] && ok [ "$(wc -l <simple_mbps.csv)" = 3 ]; then
	pass "mbps.csv: rows 1 and 2, one value each (small 0)"
else
	fail "mbps.csv: rows 1 and 2, one value each (small 0)" "$WHY"
fi
for f in simple_summary.txt "$OUT"; do
	w=$([ "$f" = "$OUT" ] && echo stdout || echo summary)
	check "$w: Maximum Large MBPS is the mbps.csv maximum" same "$(summary_val "$f" 'Maximum Large MBPS')" "$(csv_max simple_mbps.csv)"
	check "$w: Maximum Small IOPS is the iops.csv maximum" same "$(summary_val "$f" 'Maximum Small IOPS')" "$(csv_max simple_iops.csv)"
	check "$w: Minimum Small Latency is the lat.csv minimum" same "$(summary_val "$f" 'Minimum Small Latency')" "$(csv_min simple_lat.csv)"
done
check "summary: the @ Small= and Large= of the maximum" grep -Eq '^Maximum Large MBPS=[0-9.]+ @ Small=0 and Large=[12]$' simple_summary.txt
if ok grep -q '^Small IO size: 8 KB$' simple_summary.txt && ok grep -q '^Large IO size: 1024 KB$' simple_summary.txt &&
	ok grep -q '^Total Data Points: 7$' simple_summary.txt && ok grep -q '^1 FILEs found.$' simple_summary.txt; then
	pass "summary: Orion's test description"
else
	fail "summary: Orion's test description" "$WHY"
fi
check "the test file is removed" dir_empty "$D"

# 2. normal: every combination; both jobs of a point run at once.
run_iogauge matrix --run normal --testname normal "${Q[@]}" --json "$E2E_TMP/m.json" "$D"
expect_status 0 "matrix --run normal: exit 0"
check "iops.csv: rows 0, 1, 2 with five values each" [ "$(grep -Ec '^          [012](,[ 0-9]{6,}[0-9]){5}$' normal_iops.csv)" = 3 ]
check "lat.csv: rows 0, 1, 2 with five values each" [ "$(grep -Ec '^          [012](,[ 0-9]*[0-9]\.[0-9][0-9]){5}$' normal_lat.csv)" = 3 ]
check "mbps.csv: rows 1, 2 with six values each" [ "$(grep -Ec '^          [12](,[ 0-9]*[0-9]\.[0-9][0-9]){6}$' normal_mbps.csv)" = 2 ]
if ok same "$(summary_val normal_summary.txt 'Maximum Large MBPS')" "$(csv_max normal_mbps.csv)" &&
	ok same "$(summary_val normal_summary.txt 'Maximum Small IOPS')" "$(csv_max normal_iops.csv)" &&
	ok same "$(summary_val normal_summary.txt 'Minimum Small Latency')" "$(csv_min normal_lat.csv)"; then
	pass "summary: maxima are the CSV's"
else
	fail "summary: maxima are the CSV's" "$WHY"
fi
k=$(j .matrix.small_knee.level)
check "JSON: the knee of small I/O alone is one of its levels 1..5 ($k)" between "${k:-0}" 1 5
check "the console names the same knee" grep -q "^Knee of small I/O alone (Little's law, as iogauge scale): Small=$k, " "$OUT"
n=$(j .matrix.small_knee.next_level)
check "JSON: the level after the knee is the next one, or none when IOPS still rose ($n)" \
	[ "$n" = null -o "$n" = "$((k + 1))" ]
check "JSON: the knee of large I/O alone is level 1 or 2" between "$(j .matrix.large_knee.level)" 1 2
if ok [ "$(j '.matrix.points|length')" = 17 ] &&
	ok [ "$(grep -o '"measured": *false' "$E2E_TMP/m.json" | wc -l)" = 0 ]; then
	pass "JSON: 17 points, all measured"
else
	fail "JSON: 17 points, all measured" "$WHY"
fi
check "JSON: the point Small=3 Large=2 has a small and a large job" \
	[ "$(j '.suite.targets[0].cases.Small=3 Large=2.jobs|keys' | tr '\n' ' ')" = "small large " ]
found=
nj=$(j '.jobs|length')
exprs=()
for ((i = 0; i < nj; i++)); do
	exprs+=(".jobs[$i].case" ".jobs[$i].name" ".jobs[$i].options.iodepth" ".jobs[$i].options.bs")
done
while IFS= read -r c && IFS= read -r nm && IFS= read -r qd && IFS= read -r b; do
	[ "$c" = "Small=3 Large=2" ] && found="$found $nm:$qd:$b"
done < <(jget "$E2E_TMP/m.json" "${exprs[@]}")
check "Small=3 Large=2: a small job of 3 x 8 KiB and a large one of 2 x 1 MiB ($found)" \
	[ "$found" = " small:3:8192 large:2:1048576" ]
check "small and large of a point ran at once (one stonewall group)" \
	[ "$(jget "$E2E_TMP/m.json" '.jobs[name=large].group')" = "$(jget "$E2E_TMP/m.json" '.jobs[name=small].group')" ]
check "the large job reads 1 MiB blocks" [ "$(jget "$E2E_TMP/m.json" '.jobs[name=large].options.bs')" = 1048576 ]

# Release build only: more points of the same code.
if [ "$SAN" = 0 ]; then
	# 3. advanced matrices.
	run_iogauge matrix --run advanced --matrix point --num-small 2 --num-large 1 --testname point "${Q[@]}" "$D"
	expect_status 0 "advanced point: exit 0"
	if ok [ "$(head -1 point_iops.csv)" = "Large/Small,      2" ] &&
		ok grep -Eq '^          1,[ 0-9]{6,}[0-9]$' point_iops.csv; then
		pass "point: one column (2), row 1 with its value"
	else
		fail "point: one column (2), row 1 with its value" "$WHY"
	fi
	run_iogauge matrix --run advanced --matrix row --num-large 1 --testname row --type seq "${Q[@]}" "$D"
	expect_status 0 "advanced row, sequential streams: exit 0"
	check "row: large 1 across small 0..5" [ "$(grep -Ec '^          1(,[ 0-9]*[0-9]\.[0-9][0-9]){6}$' row_mbps.csv)" = 1 ]
	check "summary: Large Sequential Streams" grep -q 'IO Types: Small Random IOs, Large Sequential Streams' row_summary.txt

fi

# 4. Writes: a device with a file system is refused and unchanged; a blank one is written.
mkloop matrix_dev 64M
mkfs_ext4 "$LOOP"
h=$(content_hash "$LOOP")
run_iogauge matrix --run simple --write 30 --testname dev "${Q[@]}" "$LOOP"
expect_status 2 "--write 30 on a device carrying ext4: exit 2"
expect_err "refusing to write $LOOP" "the refusal names the device"
check "the device is unchanged" [ "$(content_hash "$LOOP")" = "$h" ]
if [ "$SAN" = 0 ]; then # release build only: 20 more points
	mkloop matrix_blank 64M
	run_iogauge matrix --run oltp --write 30 --testname blank --duration 0.05 "$LOOP"
	expect_status 0 "--run oltp --write 30 on a blank device: exit 0"
	if ok [ "$(head -1 blank_iops.csv | tr ',' '\n' | wc -l)" = 21 ] && ok [ "$(wc -l <blank_iops.csv)" = 2 ]; then
		pass "oltp: row 0 only, 20 small levels"
	else
		fail "oltp: row 0 only, 20 small levels" "$WHY"
	fi
fi

# 5. Bad options and unusable paths: one line, exit 2, nothing written (no result files).
bad() {
	rm -f bad_*
	run_iogauge matrix --testname bad "${Q[@]}" "$@"
	if [ "$STATUS" = 2 ] && [ "$(grep -c . "$ERR")" = 1 ] && dir_empty "$D" && ! ls bad_* >/dev/null 2>&1 && [ ! -s "$OUT" ]; then
		pass "refused with one line: $*"
	else
		fail "refused with one line: $*" "status $STATUS, $(wc -l <"$ERR") lines"
	fi
}
bad --run fast "$D"
bad --run advanced --matrix col "$D"
bad --matrix detailed "$D"
bad --num-disks 0 "$D"
bad --size-small 0 "$D"
bad --type stream "$D"
bad --write 101 "$D"
bad "$D" "$D"
bad --duration 0 "$D"
bad /proc # an unusable path: refused when its test file cannot be made; no summary, no empty CSVs

# 6. JSON alone on stdout.
run_iogauge matrix --run advanced --matrix point --num-small 1 --num-large 1 --testname js --output-format=json "${Q[@]}" "$D"
expect_status 0 "JSON on stdout: exit 0"
check "stdout is one JSON document" jget "$OUT"
check "JSON: the maximum large MBPS is the point's" [ "$(jget "$OUT" .matrix.max_large_mbps.large)" = 1 ]
check "nothing left" dir_empty "$D"

# 7. A saved result prints again: `report` rebuilds the summary from the JSON (the jobs of each point).
run_iogauge report "$E2E_TMP/m.json" -o "$E2E_TMP/m.html"
expect_status 0 "report of a saved normal matrix: exit 0"
if ok grep -q "Maximum Large MBPS=$(summary_val normal_summary.txt 'Maximum Large MBPS') @" "$E2E_TMP/m.html" &&
	ok grep -q "Maximum Small IOPS=$(summary_val normal_summary.txt 'Maximum Small IOPS') @" "$E2E_TMP/m.html" &&
	ok grep -q "Minimum Small Latency=$(summary_val normal_summary.txt 'Minimum Small Latency') @" "$E2E_TMP/m.html"; then
	pass "the page holds the run's three figures"
else
	fail "the page holds the run's three figures" "$WHY"
fi
