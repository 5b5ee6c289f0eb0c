# Prints FILE:LINE for each `check NAME CMD...` call of a test script whose command list has a
# top-level &&, || or |.  Bash parses `check NAME A && B` as `(check NAME A) && B`: check judges
# A alone, B runs after check returned and its result is lost; with `| C`, C eats check's
# "ok"/"not ok" line and its counts (a pipeline runs in a subshell).  Quotes, $(...), `...`
# and ${...} are skipped, so `bash -c "A && B"` or an awk program's && is not one.
# Used by tests/e2e/test_lint.sh: awk -f check-calls.awk FILE...

function report() {
	if (incheck && bad != "")
		printf "%s:%d: check with a top-level %s: only its first command is judged\n", FILENAME, start, bad
	incheck = 0
	bad = ""
	nst = 0
}

# scan(S): reads one line of the call; 1 when the call goes on to the next line (a trailing
# backslash, && or ||, or an open quote or parenthesis).
function scan(s,    i, n, c, top) {
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		top = nst ? st[nst] : ""
		if (top == "'") {
			if (c == "'")
				nst--
			continue
		}
		if (c == "\\") {
			if (i == n)
				return 1
			i++
			continue
		}
		if (top == "\"") {
			if (c == "\"")
				nst--
			else if (c == "$" && substr(s, i + 1, 1) == "(") {
				st[++nst] = "("
				i++
			} else if (c == "`")
				st[++nst] = "`"
			continue
		}
		if (top == "`") {
			if (c == "`")
				nst--
			continue
		}
		if (c == "'" || c == "\"" || c == "`" || c == "(") {
			st[++nst] = c
			continue
		}
		if (c == "{" && substr(s, i - 1, 1) == "$") {
			st[++nst] = "{"
			continue
		}
		if ((c == ")" && top == "(") || (c == "}" && top == "{")) {
			nst--
			continue
		}
		if (nst)
			continue
		# The top level of the call: a comment or ; ends it, the first operator is the finding.
		if (c == "#" && (i == 1 || substr(s, i - 1, 1) ~ /[ \t]/))
			return 0
		if (c == ";")
			return 0
		if (c == "&" && substr(s, i + 1, 1) == "&") {
			bad = "&&"
			return 0
		}
		if (c == "|") {
			bad = substr(s, i + 1, 1) == "|" ? "||" : "|"
			return 0
		}
	}
	return nst > 0
}

FNR == 1 {
	report()
	heredoc = ""
}
# A here-document's body is text, not code (test_lint.sh's own fixture is one); written
# <<WORD, <<'WORD' or <<-WORD (with no blank, unlike $((1 << N))).
heredoc != "" {
	if ($0 == heredoc || (dash && $0 ~ "^\t*" heredoc "$"))
		heredoc = ""
	next
}
incheck {
	if (!scan($0))
		report()
	next
}
# A call starts a line, or follows &&, ||, ;, then, do or else.
match($0, /(^|[;&|][ \t]|then[ \t]|do[ \t]|else[ \t])[ \t]*check[ \t]+["'$]/) {
	incheck = 1
	start = FNR
	if (!scan(substr($0, RSTART + RLENGTH - 1)))
		report()
}
!incheck && match($0, /(^|[^<])<<-?["']?[A-Za-z_][A-Za-z_0-9]*/) {
	heredoc = substr($0, RSTART, RLENGTH)
	sub(/^[^<]?<</, "", heredoc)
	dash = heredoc ~ /^-/
	gsub(/^-?[ \t]*["']?/, "", heredoc)
}
END { report() }
