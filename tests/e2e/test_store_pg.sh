#!/bin/bash
# The results store on PostgreSQL (issue 29): a server of its own (pg_start: initdb into a
# scratch directory, password auth, a unix socket there, no TCP port, stopped at exit even on
# failure), the checks SQLite passes (tests/e2e/store_checks.sh), and the password rules: one in
# --db is refused, libpq reads it from $PGPASSFILE, and it is in no saved result.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/store_checks.sh
. "$(dirname "$0")/store_checks.sh"

need_root
need_iogauge
need_json
need_cmd fio psql runuser
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import prometheus_client' 2>/dev/null ||
	skip_all "python3-prometheus-client not installed (scripts/deps.sh installs it)"
pg_start || skip_all "cannot start a PostgreSQL server (postgresql installed? scripts/deps.sh)"
export PGPASSFILE=$PG_PASSFILE

STORE=postgresql
DB=$PG_URL
sql() {
	psql "$PG_URL" -X -A -t -q -c "$1"
}
store_checks

# The password: never in --db, read from $PGPASSFILE.
pw_url=${PG_URL/postgres@/postgres:$PG_PASSWORD@}
n0=$(count)
run_iogauge "${NULLRUN[@]}" --save --db="$pw_url"
if ok [ "$STATUS" -eq 2 ] && ok grep -q "holds a password: refused" "$ERR" && ok not grep -q "$PG_PASSWORD" "$ERR" && ok [ "$(count)" = "$n0" ]; then
	pass "postgresql: a password in --db is refused before the run, and not echoed"
else fail "postgresql: a password in --db is refused before the run, and not echoed" "$WHY"; fi
PGPASSFILE=/nonexistent run_iogauge history --db="$PG_URL"
if ok [ "$STATUS" -eq 1 ] && ok grep -q "cannot connect" "$ERR"; then
	pass "postgresql: without the password file the server refuses (password auth is on)"
else fail "postgresql: without the password file the server refuses (password auth is on)" "$WHY"; fi
check "postgresql: the password is in no stored result" [ "$(sql "SELECT count(*) FROM results WHERE command_line LIKE '%$PG_PASSWORD%'")" = 0 ]
check "postgresql: schema 1" [ "$(sql "SELECT version FROM iogauge_schema")" = 1 ]

# Schema versions: a database of schema 1 (tests/data/store-schema1-pg.sql, pg_dump of what the
# schema 1 SQL made) opens, reads and takes new results as it is; a newer schema is refused.
S1_URL=${PG_URL/\/postgres\?//s1?}
sql "CREATE DATABASE s1" >/dev/null
psql "$S1_URL" -X -q -v ON_ERROR_STOP=1 -f "$E2E_ROOT/tests/data/store-schema1-pg.sql" >"$E2E_TMP/s1.log" 2>&1
run_iogauge history --db="$S1_URL" --output-format=csv
if ok [ "$STATUS" -eq 0 ] && ok grep -q ',fixture-run,' "$OUT" && ok grep -q ',fixture-quick,' "$OUT"; then
	pass "postgresql: a schema 1 store (the fixture) lists its results"
else fail "postgresql: a schema 1 store (the fixture) lists its results" "$WHY: $(tail -n 2 "$E2E_TMP/s1.log")"; fi
run_iogauge show --db="$S1_URL" fixture-quick
check "postgresql: a schema 1 store's quick result shows its table" grep -q "SEQ1M Q8T1" "$OUT"
run_iogauge "${NULLRUN[@]}" --save=fixture-run --db="$S1_URL"
run_iogauge compare --db="$S1_URL" fixture-run~1 fixture-run
if ok [ "$STATUS" -eq 0 ] && ok [ "$(psql "$S1_URL" -X -A -t -q -c "SELECT version FROM iogauge_schema")" = 1 ]; then
	pass "postgresql: a schema 1 store takes a new result, compared with its old one"
else fail "postgresql: a schema 1 store takes a new result, compared with its old one" "$WHY"; fi
psql "$S1_URL" -X -q -c "UPDATE iogauge_schema SET version = 99"
run_iogauge history --db="$S1_URL"
if ok [ "$STATUS" -eq 2 ] && ok grep -q "schema 99, newer than" "$ERR"; then
	pass "postgresql: a newer schema is refused"
else fail "postgresql: a newer schema is refused" "$WHY"; fi
