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
