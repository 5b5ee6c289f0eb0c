#!/bin/bash
# The test scripts judge every condition they name: no `check NAME A && B` (bash runs B after
# check returned and drops its result), `|| B` or `| B`; a check of several commands is an `if`
# with each command under ok (tests/e2e/lib.sh).  Reads the scripts only (the binary is not run).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

LINT=$E2E_ROOT/tests/e2e/check-calls.awk
found=$(cd "$E2E_ROOT" && awk -f "$LINT" tests/e2e/*.sh tests/*.sh)
if [ -z "$found" ]; then
	pass "no check call in tests/ has a top-level &&, || or |"
else
	fail "no check call in tests/ has a top-level &&, || or |"
	mapfile -t lines <<<"$found"
	printf '#   %s\n' "${lines[@]}"
fi

# The guard itself: it finds each bad form, on the line the call starts, and nothing else.
F=$E2E_TMP/fixture.sh
cat >"$F" <<'FIXTURE'
check "and on one line" [ "$a" = 1 ] && [ "$b" = 2 ]
check "or on one line" [ "$a" = 1 ] || [ "$b" = 2 ]
check "a pipe" j .x | grep -q y
check "and at the end of the line" [ "$a" = 1 ] &&
	[ "$b" = 2 ]
	check "indented, the command on the next line" \
		grep -q x "$f" && ! grep -q y "$f"
check "$name: a quoted $(echo "name && more")" [ -s "$f" ] && [ -s "$g" ]
check "fine: && in quotes" bash -c "[ -s '$f' ] && [ -s '$g' ]"
check "fine: && in an awk program" awk -v a="$a" 'BEGIN { exit !(a > 1 && a < 3) }'
check "fine: || and | in \$(...)" [ "$(j .x || echo none | tr a b)" = "$(cut -d, -f1 <"$f" | wc -l)" ]
check "fine: the command on the next line" \
	[ "$a" = "x && y" ]
check "fine: ends at ;" [ "$a" = 1 ]; [ "$b" = 2 ] && echo ok
check "fine: a comment" [ "$a" = 1 ] # && not code
if ok [ "$a" = 1 ] && ok [ "$b" = 2 ]; then pass "fine: the if form"; else fail "fine: the if form" "$WHY"; fi
cat <<'TEXT'
check "fine: a here-document's text" [ "$a" = 1 ] && [ "$b" = 2 ]
TEXT
n=$((1 << N))
check "after a shift, not a here-document" [ "$n" = 1 ] && [ "$m" = 2 ]
[ -x "$f" ] && check "after a test" [ "$a" = 1 ] && [ "$b" = 2 ]
for x in 1; do check "in a loop" [ "$x" = 1 ] || [ "$x" = 2 ]; done
[ -x "$f" ] && check "fine: last in a list" [ "$a" = 1 ]
FIXTURE
got=$(awk -f "$LINT" "$F" | sed "s|^$F:||" | cut -d: -f1,2 | tr '\n' ' ')
want="1: check with a top-level && 2: check with a top-level || 3: check with a top-level | 4: check with a top-level && "
want+="6: check with a top-level && 8: check with a top-level && 21: check with a top-level && "
want+="22: check with a top-level && 23: check with a top-level || "
check "the guard names the bad lines 1 2 3 4 6 8 21 22 23, with the operator (got: $got)" test "$got" = "$want"
# Bash agrees: under check, only the first command is judged, the second one's failure is lost.
cat >"$E2E_TMP/and.sh" <<'AND'
. "$1"
check "and" true && false
echo "checks $E2E_CHECKS failed $E2E_FAILED"
AND
out=$(bash "$E2E_TMP/and.sh" "$E2E_ROOT/tests/e2e/lib.sh" 2>&1 | grep '^checks')
check "why: check NAME true && false passes and counts no failure (got: $out)" test "$out" = "checks 1 failed 0"
cat >"$E2E_TMP/if.sh" <<'IF'
. "$1"
if ok true && ok false; then pass x; else fail x "$WHY"; fi
IF
out=$(bash "$E2E_TMP/if.sh" "$E2E_ROOT/tests/e2e/lib.sh" 2>&1)
check "the if form fails it, naming the command (got: $(echo "$out" | tr '\n' '|'))" \
	grep -qx '#   failed: false' <<<"$out"
