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

# Schema versions: a store is migrated from 0 (empty) to this schema; a newer schema is refused.
sqlite3 "$E2E_TMP/old.db" "CREATE TABLE unrelated (x INTEGER)"
run_iogauge history --db="$E2E_TMP/old.db"
if ok [ "$STATUS" -eq 0 ] && ok [ "$(sqlite3 "$E2E_TMP/old.db" "SELECT version FROM iogauge_schema")" = 1 ]; then
	pass "sqlite: an empty store is made schema 1"
else fail "sqlite: an empty store is made schema 1" "$WHY"; fi
sqlite3 "$E2E_TMP/old.db" "UPDATE iogauge_schema SET version = 99"
run_iogauge history --db="$E2E_TMP/old.db"
if ok [ "$STATUS" -eq 2 ] && ok grep -q "schema 99, newer than" "$ERR"; then
	pass "sqlite: a newer schema is refused"
else fail "sqlite: a newer schema is refused" "$WHY"; fi
run_iogauge "${NULLRUN[@]}" --save --db="$E2E_TMP"
if ok [ "$STATUS" -eq 2 ] && ok grep -q "not a regular file" "$ERR"; then
	pass "sqlite: --db naming a directory is refused before the run"
else fail "sqlite: --db naming a directory is refused before the run" "$WHY"; fi
