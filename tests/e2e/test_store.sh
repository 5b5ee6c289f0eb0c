#!/bin/bash
# The results store on SQLite (issue 29): --save, history, show, forget, compare and report by
# reference, check, import, OpenMetrics, 8 savers at once, SIGKILL during saves (then PRAGMA
# integrity_check), the default location, schema versions.  The checks both back ends share are
# tests/e2e/store_checks.sh; test_store_pg.sh runs them on a PostgreSQL server.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/store_checks.sh
. "$(dirname "$0")/store_checks.sh"

need_iogauge
need_json
need_cmd sqlite3 fio
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import prometheus_client' 2>/dev/null ||
	skip_all "python3-prometheus-client not installed (scripts/deps.sh installs it)"

STORE=sqlite
DB=$E2E_TMP/results.db
sql() {
	sqlite3 "$DB" "$1"
}
store_checks

check "sqlite: PRAGMA integrity_check after the kills" [ "$(sql 'PRAGMA integrity_check')" = ok ]
check "sqlite: the store is in WAL mode" [ "$(sql 'PRAGMA journal_mode')" = wal ]

# Where the store is without --db: $IOGAUGE_DB, else $XDG_DATA_HOME/iogauge/results.db.
run_iogauge_env() {
	: >"$ERR"
	env "$@" >"$E2E_TMP/last.out" 2>"$ERR"
	STATUS=$?
	san_check "$*"
}
run_iogauge_env XDG_DATA_HOME="$E2E_TMP/xdg" IOGAUGE_DB= IOGAUGE_SAVE=nightly timeout 60 "$IOGAUGE" "${NULLRUN[@]}"
if ok [ "$STATUS" -eq 0 ] && ok [ "$(sqlite3 "$E2E_TMP/xdg/iogauge/results.db" "SELECT label FROM results")" = nightly ]; then
	pass "sqlite: IOGAUGE_SAVE=LABEL saves into \$XDG_DATA_HOME/iogauge/results.db"
else fail "sqlite: IOGAUGE_SAVE=LABEL saves into \$XDG_DATA_HOME/iogauge/results.db" "$WHY"; fi
run_iogauge_env HOME="$E2E_TMP/home" XDG_DATA_HOME= IOGAUGE_DB= timeout 60 "$IOGAUGE" history
check "sqlite: without XDG_DATA_HOME, ~/.local/share/iogauge/results.db" [ -f "$E2E_TMP/home/.local/share/iogauge/results.db" ]
run_iogauge_env IOGAUGE_DB="$E2E_TMP/env.db" timeout 60 "$IOGAUGE" "${NULLRUN[@]}" --save
check "sqlite: IOGAUGE_DB names the store" [ "$(sqlite3 "$E2E_TMP/env.db" "SELECT count(*) FROM results")" = 1 ]

# A hostile --db: refused before anything is measured (exit 2, one line, stdout empty), the file
# as it was; a save that fails at the end (a full file system): the results printed, one line, exit 1.
# refused NAME DB WHAT: run --save --db=DB is refused before measuring, its line says WHAT.
refused() {
	run_iogauge "${NULLRUN[@]}" --save --db="$2"
	if ok [ "$STATUS" -eq 2 ] && ok [ ! -s "$OUT" ] && ok [ "$(grep -c . "$ERR")" = 1 ] &&
		ok grep -q -- "--save: .*$3.*refused before measuring" "$ERR"; then
		pass "sqlite: --db $1: refused before measuring, one line ($(cat "$ERR"))"
	else fail "sqlite: --db $1: refused before measuring, one line" "$WHY"; fi
}
refused "a directory" "$E2E_TMP" "a directory, not a store"
mkfifo "$E2E_TMP/fifo"
refused "a FIFO" "$E2E_TMP/fifo" "a FIFO, not a store"
printf 'the notes of a lifetime\n%.0s' $(seq 1 200) >"$E2E_TMP/notes.txt"
h0=$(content_hash "$E2E_TMP/notes.txt" 2>/dev/null)
refused "a text file" "$E2E_TMP/notes.txt" "not a SQLite database, not a store (left as it was)"
if ok [ "$(content_hash "$E2E_TMP/notes.txt" 2>/dev/null)" = "$h0" ] && ok [ ! -e "$E2E_TMP/notes.txt-wal" ] && ok [ ! -e "$E2E_TMP/notes.txt-shm" ]; then
	pass "sqlite: the text file is untouched, nothing beside it"
else fail "sqlite: the text file is untouched, nothing beside it" "$WHY"; fi
sqlite3 "$E2E_TMP/app.db" "CREATE TABLE t (x); INSERT INTO t VALUES (42)"
h0=$(content_hash "$E2E_TMP/app.db" 2>/dev/null)
refused "another program's SQLite database" "$E2E_TMP/app.db" "a SQLite database of other tables, not a store"
run_iogauge history --db="$E2E_TMP/app.db"
if ok [ "$STATUS" -eq 2 ] && ok [ "$(content_hash "$E2E_TMP/app.db" 2>/dev/null)" = "$h0" ] && ok [ ! -e "$E2E_TMP/app.db-wal" ]; then
	pass "sqlite: history of another program's database: exit 2, the database untouched (not even made WAL)"
else fail "sqlite: history of another program's database: exit 2, the database untouched (not even made WAL)" "$WHY"; fi
for v in 'two words' 'nvme-ü' '--db' '@last'; do
	n0=$(count)
	run_iogauge_env IOGAUGE_SAVE="$v" timeout 60 "$IOGAUGE" "${NULLRUN[@]}" --db="$DB"
	if ok [ "$STATUS" -eq 2 ] && ok [ ! -s "$E2E_TMP/last.out" ] && ok grep -q "^iogauge: IOGAUGE_SAVE=$v: a label is" "$ERR" && ok [ "$(count)" = "$n0" ]; then
		pass "sqlite: IOGAUGE_SAVE='$v' is refused by the variable's name before measuring"
	else fail "sqlite: IOGAUGE_SAVE='$v' is refused by the variable's name before measuring" "$WHY"; fi
done
n0=$(count)
for v in yes TRUE on; do
	run_iogauge_env IOGAUGE_SAVE="$v" timeout 60 "$IOGAUGE" "${NULLRUN[@]}" --db="$DB"
done
for v in no 0 off False; do
	run_iogauge_env IOGAUGE_SAVE="$v" timeout 60 "$IOGAUGE" "${NULLRUN[@]}" --db="$DB"
done
if ok [ "$(count)" = $((n0 + 3)) ] && ok [ "$(sql "SELECT count(*) FROM results WHERE label IS NULL AND id > (SELECT max(id) - 3 FROM results)")" = 3 ]; then
	pass "sqlite: IOGAUGE_SAVE=yes|TRUE|on save without a label, no|0|off|False do not save"
else fail "sqlite: IOGAUGE_SAVE=yes|TRUE|on save without a label, no|0|off|False do not save" "$WHY"; fi

# Root: a device behind a symlink, a read-only file system, a full one (4 MiB loop devices).
if [ "$(id -u)" = 0 ] && mkloop dev 4M 2>/dev/null; then
	head -c 1M /dev/urandom >"$E2E_TMP/dev.data"
	dd if="$E2E_TMP/dev.data" of="$LOOP" bs=1M conv=fsync status=none
	h0=$(content_hash "$LOOP" 2>/dev/null)
	ln -s "$LOOP" "$E2E_TMP/sda.db"
	refused "a symlink to a block device" "$E2E_TMP/sda.db" "a block device, not a store"
	check "sqlite: the device behind the symlink is untouched" [ "$(content_hash "$LOOP" 2>/dev/null)" = "$h0" ]
	mkloop ro 4M && mkfs_ext4 "$LOOP" && mount_tmp "$LOOP" && ro=$MNT
	run_iogauge "${NULLRUN[@]}" --save=before --db="$ro/s.db"
	mount -o remount,ro "$ro"
	refused "a new store on a read-only file system" "$ro/new.db" "cannot create it in $ro: Read-only file system"
	refused "a store on a read-only file system" "$ro/s.db" "store $ro/s.db is read-only"
	run_iogauge history --db="$ro/s.db"
	check "sqlite: history reads a store on a read-only file system" grep -q " before " "$OUT"
	# The file system fills during the run: the run goes on, its save fails at the end.
	mkloop full 4M && mkfs_ext4 "$LOOP" && mount_tmp "$LOOP" && full=$MNT
	run_iogauge "${NULLRUN[@]}" --save=before --db="$full/s.db"
	start_iogauge run --name=j --ioengine=null --size=1m --bs=4k --rw=randread --time_based --runtime=2 \
		--eta=always --save=after --db="$full/s.db"
	if await_bg "requests" 60; then
		dd if=/dev/zero of="$full/fill" bs=64k status=none 2>/dev/null
		wait "$BGPID"
		STATUS=$?
		san_check "iogauge run --save onto a file system that filled"
	fi
	if ok [ "$STATUS" -eq 1 ] && ok grep -q "^j: (groupid=0" "$OUT" && ok [ "$(grep -c '^iogauge: --save' "$ERR")" = 1 ] &&
		ok grep -q "^iogauge: --save: store $full/s.db: database or disk is full; the result was not saved" "$ERR"; then
		pass "sqlite: the store's file system filled during the run: the results printed, one line says why the save failed, exit 1"
	else fail "sqlite: the store's file system filled during the run: the results printed, one line says why the save failed, exit 1" "$WHY"; fi
	# Full before the run: refused, nothing measured; the store still reads (no -shm to map: no SIGBUS).
	refused "a store on a full file system" "$full/s.db" "its file system has [0-9]* KiB free"
	run_iogauge history --db="$full/s.db" --output-format=csv
	if ok [ "$STATUS" -eq 0 ] && ok [ "$(grep -c ',before,' "$OUT")" = 1 ] && ok [ "$(grep -c ',after,' "$OUT")" = 0 ]; then
		pass "sqlite: history of the store on the full file system: what it held, whole"
	else fail "sqlite: history of the store on the full file system: what it held, whole" "$WHY"; fi
else
	skip "sqlite: a device, a read-only and a full file system as --db" "needs root and loop devices"
fi

# Schema versions: a new store is made schema 1; one of schema 1 (tests/data/store-schema1.sql, written
# by the schema 1 SQL) opens, reads and takes new results as it is; a newer schema is refused.
: >"$E2E_TMP/empty.db"
run_iogauge history --db="$E2E_TMP/empty.db"
if ok [ "$STATUS" -eq 0 ] && ok [ "$(sqlite3 "$E2E_TMP/empty.db" "SELECT version FROM iogauge_schema")" = 1 ]; then
	pass "sqlite: an empty store is made schema 1"
else fail "sqlite: an empty store is made schema 1" "$WHY"; fi
sqlite3 "$E2E_TMP/s1.db" <"$E2E_ROOT/tests/data/store-schema1.sql"
run_iogauge history --db="$E2E_TMP/s1.db" --output-format=csv
if ok [ "$STATUS" -eq 0 ] && ok grep -q ',fixture-run,' "$OUT" && ok grep -q ',fixture-quick,' "$OUT"; then
	pass "sqlite: a schema 1 store (the fixture) lists its results"
else fail "sqlite: a schema 1 store (the fixture) lists its results" "$WHY"; fi
run_iogauge show --db="$E2E_TMP/s1.db" fixture-quick
check "sqlite: a schema 1 store's quick result shows its table" grep -q "SEQ1M Q8T1" "$OUT"
run_iogauge "${NULLRUN[@]}" --save=fixture-run --db="$E2E_TMP/s1.db"
run_iogauge compare --db="$E2E_TMP/s1.db" fixture-run~1 fixture-run
if ok [ "$STATUS" -eq 0 ] && ok [ "$(sqlite3 "$E2E_TMP/s1.db" "SELECT version FROM iogauge_schema")" = 1 ]; then
	pass "sqlite: a schema 1 store takes a new result, compared with its old one"
else fail "sqlite: a schema 1 store takes a new result, compared with its old one" "$WHY"; fi
sqlite3 "$E2E_TMP/s1.db" "UPDATE iogauge_schema SET version = 99"
run_iogauge history --db="$E2E_TMP/s1.db"
if ok [ "$STATUS" -eq 2 ] && ok grep -q "schema 99, newer than" "$ERR"; then
	pass "sqlite: a newer schema is refused"
else fail "sqlite: a newer schema is refused" "$WHY"; fi
