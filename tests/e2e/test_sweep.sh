#!/bin/bash
# sweep: iozone's auto mode.  The main table has a row per file and record
# size and a column per test; the -R Excel block parses back to the numbers
# of the table; -i selects tests; --csv; -b FILE; each cell's job does what
# iozone's test does (write a new file, the same record again and again,
# backward and stride reads of every record); -e and -c; crossover; bad
# options and a file that does not fit refused before anything is written.
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
mkfs_mount sweep 160M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
j() { jget "$E2E_TMP/s.json" "$1" 2>/dev/null; }

# table_rows FILE: the main table's data rows as "kB reclen v1 v2 ...".
table_rows() { sed -n '/^ *kB  reclen/,/^$/p' "$1" | sed '1d;/^$/d' | awk '{ $1 = $1; print }'; }
# excel_cells FILE REPORT: "kB reclen value" for each cell of one Excel report.
excel_cells() {
	awk -v want="\"$2\"" '
		$0 == want { on = 1; n = 0; next }
		on && /^$/ { on = 0 }
		on && n == 0 { for (i = 1; i <= NF; i++) { r[i] = $i; gsub(/"/, "", r[i]) } n = 1; next }
		on { kb = $1; gsub(/"/, "", kb); for (i = 2; i <= NF; i++) print kb, r[i - 1], $i }' "$1"
}

# 1. Auto mode: 3 file sizes x 3 record sizes x all tests, the Excel block.
run_iogauge sweep -a -n 64k -g 256k -y 4k -q 16k -R --json "$E2E_TMP/s.json" "$D"
expect_status 0 "sweep -a -n 64k -g 256k -y 4k -q 16k -R: exit 0"
cp "$OUT" "$E2E_TMP/auto.out"
check "iozone's header, 143 columns" \
	[ "$(grep -c '^              kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread$' "$OUT")" = 1 ]
table_rows "$OUT" >"$E2E_TMP/rows"
check "9 rows (3 sizes x 3 records)" [ "$(wc -l <"$E2E_TMP/rows")" = 9 ]
check "each row: kB, reclen and 9 rates" [ "$(awk 'NF == 11' "$E2E_TMP/rows" | wc -l)" = 9 ]
check "the rows in iozone's order" [ "$(awk '{ printf "%s/%s ", $1, $2 }' "$E2E_TMP/rows")" = "64/4 64/8 64/16 128/4 128/8 128/16 256/4 256/8 256/16 " ]
if ok grep -q '^iozone test complete.$' "$OUT" && ok grep -q '^Excel output is below:$' "$OUT"; then
	pass "iozone's closing line, then the Excel block"
else
	fail "iozone's closing line, then the Excel block" "$WHY"
fi
col=3
for rep in "Writer report" "Re-writer report" "Reader report" "Re-Reader report" "Random read report" \
	"Random write report" "Backward read report" "Record rewrite report" "Stride read report"; do
	excel_cells "$OUT" "$rep" | sort >"$E2E_TMP/x"
	awk -v c=$col '{ print $1, $2, $c }' "$E2E_TMP/rows" | sort >"$E2E_TMP/t"
	check "Excel \"$rep\" parses back to the table's column ($(wc -l <"$E2E_TMP/x") cells)" \
		cmp -s "$E2E_TMP/x" "$E2E_TMP/t"
	col=$((col + 1))
done
check "Excel: a record-size header of \"4\" \"8\" \"16\"" grep -q '^        "4"  "8"  "16"$' "$OUT"
check "Excel: a row \"64\" with three values" grep -Eq '^"64"  ( [0-9]+ ){3}$' "$OUT"
check "the test file is removed" dir_empty "$D"
check "JSON: 9 rows of 9 tests" [ "$(j '.sweep.rows|length')" = 9 ]
check "JSON: the table's first write cell" [ "$(j '.sweep.rows[0].write')" = "$(awk 'NR == 1 { print $3 }' "$E2E_TMP/rows")" ]

# What each cell's job did (128 KiB file, 8 KiB records: 16 records).
cells() { j ".jobs[case=$1].$2"; } # CASE KEY: the value in the job of that case
if ok [ "$(cells '128/8 write' write.ios)" = 16 ] &&
	ok [ "$(cells '128/8 write' targets[0].layout_bytes)" = 0 ]; then
	pass "write: 16 records into a new file (no layout)"
else
	fail "write: 16 records into a new file (no layout)" "$WHY"
fi
if ok [ "$(cells '128/8 record rewrite' write.ios)" = 16 ] &&
	ok [ "$(cells '128/8 record rewrite' options.size)" = 8192 ]; then
	pass "record rewrite: the same record 16 times"
else
	fail "record rewrite: the same record 16 times" "$WHY"
fi
if ok [ "$(cells '128/8 bkwd read' read.ios)" = 16 ] &&
	ok [ "$(cells '128/8 bkwd read' options.seq_order)" = backward ]; then
	pass "backward read: 16 records, backward"
else
	fail "backward read: 16 records, backward" "$WHY"
fi
if ok [ "$(cells '128/8 stride read' read.ios)" = 16 ] &&
	ok [ "$(cells '128/8 stride read' options.seq_order)" = stride:17 ]; then
	pass "stride read: 16 records, every 17th"
else
	fail "stride read: 16 records, every 17th" "$WHY"
fi
check "random read: 16 records" [ "$(cells '128/8 random read' read.ios)" = 16 ]
check "reads keep the cache, as iozone does" [ "$(cells '128/8 reread' options.invalidate)" = false ]
check "stderr says how many read cells began in the cache" grep -Eq 'of 45 read cells began with the file wholly in the page cache' "$ERR"

# 2. -i 0 -i 2, -e, -c, --csv, -b FILE.
run_iogauge sweep -i 0 -i 2 -s 128k -r 8k -e -c -R --csv -b "$E2E_TMP/excel.txt" --json "$E2E_TMP/s.json" "$D"
expect_status 0 "sweep -i 0 -i 2 -s 128k -r 8k -e -c --csv: exit 0"
check "--csv: a header of the nine tests" grep -q '^kB,reclen,write,rewrite,read,reread,random read,random write,bkwd read,record rewrite,stride read$' "$OUT"
check "--csv: one row, the unselected tests empty" grep -Eq '^128,8,[0-9]+,[0-9]+,,,[0-9]+,[0-9]+,,,$' "$OUT"
if ok [ "$(grep -Ec '^"(Writer|Re-writer|Random read|Random write) report"$' "$OUT")" = 4 ] &&
	ok [ "$(grep -c 'report"$' "$OUT")" = 4 ]; then
	pass "Excel: four reports"
else
	fail "Excel: four reports" "$WHY"
fi
check "-b FILE: the Excel block, as on stdout" cmp -s "$E2E_TMP/excel.txt" <(sed -n '/^Excel output is below:$/,$p' "$OUT")
check "-e: the write's fsync is timed" [ "$(cells '128/8 write' fsync.ios)" = 1 ]
# A suite's job echoes an option at its default only when the case names it (docs/json.md): absent is false.
check "-e: reads have none" matches "$(cells '128/8 random read' options.end_fsync)" '^(false)?$'
check "-c: the close counts" [ "$(cells '128/8 random read' options.end_close)" = true ]
if ok grep -q 'Include fsync in write timing' "$OUT" && ok grep -q 'Include close in write timing' "$OUT"; then
	pass "-e -c: the splash says so"
else
	fail "-e -c: the splash says so" "$WHY"
fi

# Release build only: 32 MiB files.
if [ "$SAN" = 0 ]; then
	# 3. Crossover: from 32 MiB files on, records start at 64 KiB (-z: not).
	run_iogauge sweep -a -n 32m -g 32m -y 32k -q 64k -i 0 -R "$D"
	expect_status 0 "crossover: exit 0"
	check "crossover: only the 64 KiB record is run" [ "$(table_rows "$OUT" | awk '{ print $1 "/" $2 }')" = "32768/64" ]
	check "crossover: the Excel row holds 0 for the skipped record" grep -Eq '^"32768"   0  [0-9]+ $' "$OUT"
	run_iogauge sweep -a -z -n 32m -g 32m -y 32k -q 64k -i 0 "$D"
	check "-z: both records" [ "$(table_rows "$OUT" | wc -l)" = 2 ]

fi

# 4. O_DIRECT.
run_iogauge sweep -I -s 256k -r 64k -i 1 --json "$E2E_TMP/s.json" "$D"
expect_status 0 "sweep -I: exit 0"
check "-I: O_DIRECT jobs" [ "$(j .jobs[0].options.direct)" = true ]

# 5. Refusals: one line, nothing written.
bad() {
	local want=$1
	shift
	run_iogauge sweep "$@"
	if [ "$STATUS" = "$want" ] && [ "$(grep -c . "$ERR")" = 1 ] && dir_empty "$D"; then
		pass "refused ($want, one line): $*"
	else
		fail "refused ($want, one line): $*" "status $STATUS, $(wc -l <"$ERR") lines"
	fi
}
bad 2 -i 7 "$D"
bad 2 -s 1m -r 32m "$D"
bad 2 -a -n 1m -g 64k "$D"
bad 2 -s 4k -r 64k "$D"
bad 2 -s 0 "$D"
bad 2 "$D" "$D"
bad 2 --rw=read "$D"
bad 2 -s 1g -r 1m -i 0 "$D" # does not fit with the free-space floor: bad input
mkloop sweep_dev 16M
bad 2 -s 64k "$LOOP"
