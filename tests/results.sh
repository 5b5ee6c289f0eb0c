# shellcheck shell=bash
# Sourced by tests/run-all.sh (and tests/e2e/test_results.sh, which checks it):
# one() runs a test program into the log, tally() counts the log.
#
# Counted apart: "ok - NAME" (passed), "not ok - NAME" (failed), "# SKIP
# NAME: WHY" (lib.sh's skip) and TAP's "ok - NAME # SKIP WHY" (skipped);
# cmocka's "[  PASSED  ] N test(s)", "[  FAILED  ] N test(s)" and
# "[  SKIPPED ] N test(s)".  A program that
# exits 77 (lib.sh's skip_all: cannot run here) is one skipped check, not a
# failure; any other non-zero exit without a failure line is a failure.

# one LOG LABEL COMMAND...: run it, show its output, add it to LOG.
one() {
	local log=$1 label=$2
	shift 2
	"$@" >"$log.one" 2>&1
	local rc=$?
	cat "$log.one"
	cat "$log.one" >>"$log"
	if [ "$rc" -eq 77 ] && ! grep -qE '^not ok - |^\[  FAILED  \]' "$log.one"; then
		local why
		why=$(sed -n 's/^1\.\.0 # SKIP //p' "$log.one" | head -n 1)
		echo "# SKIP $label: ${why:-exit status 77}" | tee -a "$log"
	elif [ "$rc" -ne 0 ] && ! grep -qE '^not ok - |^\[  FAILED  \]' "$log.one"; then
		echo "not ok - $label exited with status $rc" | tee -a "$log"
	fi
	rm -f "$log.one"
}

# tally LOG: the skipped checks by name (where: the "== ..." line above them),
# then the failed ones with the first line of why (the end of a long log is what
# a CI page shows), then exactly "N passed, N failed, N skipped" as the last
# line; status 1 when anything failed.
tally() {
	awk '
	/^== / { where = substr($0, 4) ": "; listing = 0; flisting = 0; next }
	/^# SKIP / { skipped++; names[++n] = where substr($0, 8); next }
	/^ok - / {
		if (tolower($0) ~ /# skip/) {
			skipped++
			names[++n] = where substr($0, 6)
		} else {
			passed++
		}
		next
	}
	/^not ok - / { failed++; fails[++m] = where substr($0, 10); fl = NR; next }
	/^#   / && NR == fl + 1 { fails[m] = fails[m] "\n      " substr($0, 5); next }
	/^\[  PASSED  \] [0-9]+ test/ { passed += $4; next }
	/^\[  FAILED  \] [0-9]+ test/ { failed += $4; flisting = 1; next }
	/^\[  FAILED  \] / { if (flisting) fails[++m] = where $4 ": cmocka"; next }
	/^\[  SKIPPED \] [0-9]+ test/ { skipped += $4; listing = 1; next }
	/^\[  SKIPPED \] / { if (listing) names[++n] = where $4 ": cmocka skip()"; next }
	{ listing = 0; flisting = 0 }
	END {
		if (n) {
			print "Skipped (not run here, so not proven):"
			for (i = 1; i <= n; i++)
				print "  " names[i]
		}
		if (m) {
			print "Failed:"
			for (i = 1; i <= m; i++)
				print "  " fails[i]
		}
		printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
		exit failed > 0
	}' "$1"
}
