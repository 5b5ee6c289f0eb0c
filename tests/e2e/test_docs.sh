#!/bin/bash
# The generated docs match the binary's option table; --help works on every command;
# make install puts the binary and the man page where asked.
. "$(dirname "$0")/lib.sh"
need_iogauge

run_iogauge --help-man
check "iogauge.1 is the man page the option table generates" cmp -s "$OUT" "$E2E_ROOT/iogauge.1"
run_iogauge --help-markdown
check "docs/options.md is what the option table generates" cmp -s "$OUT" "$E2E_ROOT/docs/options.md"
run_iogauge --help-fio-markdown
check "docs/fio.md is what the option table generates" cmp -s "$OUT" "$E2E_ROOT/docs/fio.md"

# troff renders it without a warning (a line it cannot adjust or break), as man does (78 columns) and at 60.
if command -v groff >/dev/null; then
	for ll in -rLL=78n -rLL=60n; do
		groff -ww -man -Tutf8 "$ll" "$E2E_ROOT/iogauge.1" >/dev/null 2>"$E2E_TMP/troff.err"
		check "groff -ww $ll renders iogauge.1 without a warning $(head -c 200 "$E2E_TMP/troff.err")" \
			test ! -s "$E2E_TMP/troff.err"
	done
else
	skip "iogauge.1 renders without a troff warning" "groff not installed"
fi

for cmd in run quick; do
	run_iogauge "$cmd" --help
	expect_status 0 "$cmd --help exits 0"
	check "$cmd --help prints usage on stdout" grep -q "^Usage: iogauge" "$OUT"
	check "$cmd --help writes nothing on stderr" test ! -s "$ERR"
done
run_iogauge --help
check "iogauge --help lists the commands" grep -q "iogauge run" "$OUT"

# Every option of the table is in some command's --help and in the man page.
"$IOGAUGE" --help-markdown | sed -n 's/^| `--\([a-z_-]*\).*/\1/p' >"$E2E_TMP/opts"
check "the option table has the fio options" grep -qx "random_distribution" "$E2E_TMP/opts"
for c in $("$IOGAUGE" --help | sed -n 's/^  iogauge \([a-z]*\).*/\1/p'); do
	"$IOGAUGE" "$c" --help
done >"$E2E_TMP/helps" 2>/dev/null
# One awk for the 230-odd options (two greps each took half of this script's time):
# "--NAME" in some --help, "\-\-NAME" with each "-" as "\-" in the man page, as plain substrings.
missing=$(awk -v helps="$E2E_TMP/helps" -v man="$E2E_ROOT/iogauge.1" '
	function esc(s, r, i, c) {
		r = ""
		for (i = 1; i <= length(s); i++) { c = substr(s, i, 1); r = r (c == "-" ? "\\-" : c) }
		return r
	}
	BEGIN {
		while ((getline l < helps) > 0) h = h "\n" l
		while ((getline l < man) > 0) m = m "\n" l
	}
	{
		if (!index(h, "--" $0)) printf " %s", $0
		if (!index(m, "\\-\\-" esc($0))) printf " man:%s", $0
	}' "$E2E_TMP/opts")
check "every option is in --help and the man page${missing:+ (missing:$missing)}" test -z "$missing"

if command -v make >/dev/null 2>&1 && [ "$IOGAUGE" = "$E2E_ROOT/iogauge" ]; then
	make -s -C "$E2E_ROOT" install DESTDIR="$E2E_TMP/dest" PREFIX=/usr >/dev/null 2>&1
	check "make install puts the binary in DESTDIR/PREFIX/bin" test -x "$E2E_TMP/dest/usr/bin/iogauge"
	check "make install puts the man page in share/man/man1" test -s "$E2E_TMP/dest/usr/share/man/man1/iogauge.1"
fi

