#!/bin/bash
# bonnie: bonnie++'s text table and CSV line (format 1.98) from the runner's
# figures; Debian's bon_csv2txt and bon_csv2html read the line and render
# every column; -q puts the CSV alone on stdout; +++++ below 0.5 s while the
# JSON keeps the value; the counts behind each test; the page cache dropped
# before block input, or kept with --keep-cache; the 2x RAM rule, a file
# that does not fit and bad options refused before anything is written.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 bon_csv2txt bon_csv2html
need_json

# The ASan pass skips the slowest parts that run no code of their own (the CI budget).
SAN=0
[[ $IOGAUGE == */iogauge-san ]] && SAN=1
mkfs_mount bonnie 160M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
j() { jget "$E2E_TMP/b.json" "$1" 2>/dev/null; }
csvf() { awk -F, -v n="$1" '{ print $(n + 1) }' "$E2E_TMP/line.csv"; }

# 1. A whole run: text then CSV on stdout, JSON beside it.
run_iogauge bonnie -s 16 -r 8 -n 1:4k:1k:2 -m testhost --json "$E2E_TMP/b.json" "$D"
expect_status 0 "bonnie -s 16 -r 8 -n 1:4k:1k:2: exit 0"
check "the I/O table's heading, as bonnie++'s" grep -q '^Version 0.2.0       ------Sequential Output------ --Sequential Input- --Random-$' "$OUT"
check "the I/O row: name, size, 6 rates with %CPU" \
	grep -Eq '^testhost        16M( +[0-9.]+[kmg]| \+\+\+\+\+)( +[0-9]+| \+\+\+)( +[0-9.]+[kmg]| \+\+\+\+\+)' "$OUT"
check "the file table's row: 1:4096:1024/2 and 6 rates" \
	grep -Eq '^      1:4096:1024/2(( +[0-9]+| \+\+\+\+\+)( +[0-9]+| \+\+\+)){6}$' "$OUT"
check "two Latency rows" [ "$(grep -Ec '^Latency( +[0-9]+(us|ms|s)){6}$' "$OUT")" = 2 ]
tail -n 1 "$OUT" >"$E2E_TMP/line.csv"
check "the CSV line has bonnie++'s 50 fields" [ "$(awk -F, '{ print NF }' "$E2E_TMP/line.csv")" = 50 ]
if ok [ "$(csvf 0)" = 1.98 ] && ok [ "$(csvf 2)" = testhost ] && ok [ "$(csvf 3)" = 1 ]; then
	pass "format 1.98, name, concurrency 1"
else
	fail "format 1.98, name, concurrency 1" "$WHY"
fi
if ok [ "$(csvf 5)" = 16M ] && ok [ -z "$(csvf 6)" ] && ok [ "$(csvf 7)" = 8192 ] && ok [ "$(csvf 8)" = 5 ]; then
	pass "size 16M, chunk empty as in 2.00a, 8192 seeks, 5 seekers"
else
	fail "size 16M, chunk empty as in 2.00a, 8192 seeks, 5 seekers" "$WHY"
fi
if ok [ "$(csvf 21)" = 1 ] && ok [ "$(csvf 22)" = 4096 ] && ok [ "$(csvf 23)" = 1024 ] && ok [ "$(csvf 24)" = 2 ]; then
	pass "files 1, max 4096, min 1024, dirs 2 (num_dirs, where bon_csv2txt reads it)"
else
	fail "files 1, max 4096, min 1024, dirs 2 (num_dirs, where bon_csv2txt reads it)" "$WHY"
fi
check "JSON: the CSV line is the one on stdout" [ "$(j .bonnie.csv)" = "$(cat "$E2E_TMP/line.csv")" ]

# Each test's CSV value is the JSON's: +++++ when under 0.5 s (marked too_short), else the integer.
col=9
for t in putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del ran_create ran_stat ran_del; do
	[ "$t" = seq_create ] && col=26
	v=$(j ".bonnie.tests.$t.value")
	short=$(j ".bonnie.tests.$t.too_short")
	cv=$(csvf $col)
	if [ "$short" = true ]; then
		if ok [ "$cv" = "+++++" ] && ok between "$v" 0.001 1e12; then
			pass "$t: +++++ in the CSV, the value ($v) kept in the JSON"
		else
			fail "$t: +++++ in the CSV, the value ($v) kept in the JSON" "$WHY"
		fi
	elif [ "$t" = seeks ]; then
		check "$t: CSV $cv is the JSON's $v" awk -v a="$cv" -v b="$v" 'BEGIN { d = a - b; exit !(d < 1 && d > -1) }'
	else
		check "$t: CSV $cv is int($v)" [ "$cv" = "$(awk -v v="$v" 'BEGIN { printf "%d", v }')" ]
	fi
	col=$((col + 2))
done

# What stands behind the figures: the counts of the jobs.
jc() { jget "$E2E_TMP/b.json" ".jobs[case=$1].$2" 2>/dev/null; }
check "putc wrote the whole 16 MiB" [ "$(jc putc write.bytes)" = 16777216 ]
check "put_block wrote 2048 blocks of 8 KiB" [ "$(jc put_block write.ios)" = 2048 ]
if ok [ "$(jc rewrite read.ios)" = 2048 ] && ok [ "$(jc rewrite write.ios)" = 2048 ]; then
	pass "rewrite read and wrote back every block"
else
	fail "rewrite read and wrote back every block" "$WHY"
fi
check "rewrite's fsync is inside its time" [ "$(jc rewrite fsync.ios)" = 1 ]
check "getc read the whole file" [ "$(jc getc read.bytes)" = 16777216 ]
if ok [ "$(jc seeks threads_n)" = 5 ] && ok [ "$(jc seeks read.ios)" = 8190 ]; then
	pass "seeks: 5 seekers, 8190 seeks"
else
	fail "seeks: 5 seekers, 8190 seeks" "$WHY"
fi
sw=$(jc seeks write.ios)
check "seeks: about a tenth rewritten ($sw of 8190)" between "$sw" 600 1050
check "seq_create made 1024 files" [ "$(jc seq_create create.ios)" = 1024 ]
check "with sizes, the read is open-read-close of every file" [ "$(jc seq_stat open.ios)" = 1024 ]
check "ran_del removed 1024 files" [ "$(jc ran_del unlink.ios)" = 1024 ]
check "the directory is left empty" dir_empty "$D"

# 2. bon_csv2txt and bon_csv2html accept the line and render every column.
bon_csv2txt <"$E2E_TMP/line.csv" >"$E2E_TMP/txt" 2>"$E2E_TMP/txt.err"
check "bon_csv2txt: no complaint" [ ! -s "$E2E_TMP/txt.err" ]
check "bon_csv2txt: an I/O row with 12 columns" \
	grep -Eq '^testhos 16M::8192:5(( +[0-9.]+[kmg]| +\+\+\+\+\+)( +[0-9]+| \+\+\+)){6}$' "$E2E_TMP/txt"
check "bon_csv2txt: a file row 1:4096:1024/2 with 12 columns" \
	grep -Eq '^testh 1:4096:1024/2(( +[0-9]+| \+\+\+\+\+)( +[0-9]+| \+\+\+)){6}$' "$E2E_TMP/txt"
check "bon_csv2txt: two Latency rows of 6" [ "$(grep -Ec '^Latency( +[0-9]+(us|ms|s)){6}$' "$E2E_TMP/txt")" = 2 ]
bon_csv2html <"$E2E_TMP/line.csv" >"$E2E_TMP/html" 2>"$E2E_TMP/html.err"
check "bon_csv2html: no complaint" [ ! -s "$E2E_TMP/html.err" ]
check "bon_csv2html: the row is there, with its size" grep -q 'testhost</td><td class="size"[^>]*>16M</td>' "$E2E_TMP/html"
check "bon_csv2html: 24 rate and %CPU cells" \
	[ "$(grep -o 'testhost</td>.*' "$E2E_TMP/html" | grep -oE '<td>[^<]*</td>' | head -24 | grep -cE '<td>([0-9]+|\+{3,5})</td>')" = 24 ]
check "bon_csv2html: files 1, 4096, 1024, 2 dirs" \
	grep -q '>1</td><td class="size"[^>]*>4096</td><td class="size"[^>]*>1024</td><td class="size"[^>]*>2</td>' "$E2E_TMP/html"
check "bon_csv2html: every latency in a cell" [ "$(grep -oE '>[0-9]+(us|ms|s)<' "$E2E_TMP/html" | wc -l)" = 12 ]

# 3. -q: the CSV alone on stdout, the table on stderr; -f: no per-character tests.
run_iogauge bonnie -s 16 -r 8 -n 0 -q -f --json "$E2E_TMP/q.json" "$D"
expect_status 0 "bonnie -q -f -n 0: exit 0"
res() { jget "$E2E_TMP/$1" ".jobs[case=get_block].resident_before_bytes" 2>/dev/null; }
cached() { [[ $(res "$1") =~ ^[0-9]+$ ]] && between "$(res "$1")" "$2" "$3"; }
check "the cache is dropped before block input ($(res q.json) bytes were cached)" cached q.json 0 1048576
check "stderr says the cache is dropped" grep -q 'the page cache is dropped before each read test' "$ERR"
if ok [ "$(wc -l <"$OUT")" = 1 ] && ok grep -q '^1\.98,' "$OUT"; then
	pass "-q: one line on stdout, the CSV"
else
	fail "-q: one line on stdout, the CSV" "$WHY"
fi
check "-q: the table on stderr" grep -q '^Name:Size etc' "$ERR"
check "-q: no file table with -n 0" sh -c "! grep -q 'Sequential Create' '$ERR'"
tail -n 1 "$OUT" >"$E2E_TMP/line.csv"
check "-f: per-character fields empty" [ -z "$(csvf 9)$(csvf 10)$(csvf 15)$(csvf 16)" ]
check "-f: block output measured" [ -n "$(csvf 11)" ]
check "-n 0: 17 empty file fields (21..37)" [ -z "$(cut -d, -f22-38 "$E2E_TMP/line.csv" | tr -d ,)" ]
check "-n 0: 50 fields" [ "$(awk -F, '{ print NF }' "$E2E_TMP/line.csv")" = 50 ]

# --keep-cache: the cache is kept between tests, as bonnie++ keeps it (block input reads it).
run_iogauge bonnie -s 16 -r 8 -n 0 -q -f --keep-cache --json "$E2E_TMP/k.json" "$D"
expect_status 0 "bonnie --keep-cache: exit 0"
check "--keep-cache: the file is cached before block input ($(res k.json) bytes)" cached k.json 15728640 16777216
check "--keep-cache: stderr says the cache is kept" grep -q 'the page cache is kept between tests' "$ERR"

# 4. Files only (-s 0): the I/O fields are empty.
run_iogauge bonnie -s 0 -n 1 -q "$D"
expect_status 0 "bonnie -s 0 -n 1: exit 0"
tail -n 1 "$OUT" >"$E2E_TMP/line.csv"
if ok [ -z "$(cut -d, -f6-21 "$E2E_TMP/line.csv" | tr -d ,)" ] && ok [ "$(csvf 21)" = 1 ]; then
	pass "-s 0: 16 empty fields (5..20), then 1 file unit"
else
	fail "-s 0: 16 empty fields (5..20), then 1 file unit" "$WHY"
fi
check "nothing left" dir_empty "$D"

# 5. Refusals: one line, before anything is written.
bad() {
	local want=$1
	shift
	run_iogauge bonnie "$@"
	if [ "$STATUS" = "$want" ] && [ "$(grep -c . "$ERR")" = 1 ] && [ ! -s "$OUT" ] && dir_empty "$D"; then
		pass "refused ($want, one line, nothing written): $*"
	else
		fail "refused ($want, one line, nothing written): $*" "status $STATUS, $(wc -l <"$ERR") lines: $(ls_dir "$D")"
	fi
}
bad 2 -s 16 -n 0 "$D"                # 16 MiB is less than twice this machine's RAM
expect_err "less than twice the RAM" "the 2x RAM rule is named"
bad 2 -s 4096 -r 0 -n 0 "$D"         # does not fit in 160 MiB: a refused target, exit 2
expect_err "does not fit" "the free space is named"
bad 2 -s 16:1000 -r 8 "$D"           # a chunk that is no power of two
bad 2 -s 16 -r 8 -n 1:1k:4k "$D"     # min above max
bad 2 -s 0 -n 0 "$D"
bad 2 -s 16 -r 8 "$D" "$D"           # one PATH
bad 2 -s 16 -r 8 --bs=4k "$D"        # not bonnie's option
bad 2 -s 16 -r 8 "$LOOP"             # a device: bonnie works in a directory

# 6. A saved result prints again: `report` rebuilds bonnie++'s table and CSV line from the JSON.
if [ "$SAN" = 0 ]; then # release build only: a whole second run
	run_iogauge bonnie -s 16 -r 8 -n 1 -m again --json "$E2E_TMP/b2.json" "$D"
	line=$(tail -n 1 "$OUT")
	run_iogauge report "$E2E_TMP/b2.json" -o "$E2E_TMP/b2.html"
	expect_status 0 "report of a saved bonnie run: exit 0"
	check "the page holds the same CSV line" grep -qF "$line" "$E2E_TMP/b2.html"
fi
