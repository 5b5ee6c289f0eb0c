#!/bin/bash
# The layers of HACKING.md hold in the source: src/ is one folder per layer with main.c alone on
# top, no #include points up a folder, and no two modules include each other (a module's internal
# header, foo_int.h, is the module's own).  Reads the source only (the binary is not run).
. "$(dirname "$0")/lib.sh"
need_cmd python3

G=$E2E_TMP/graph.txt
python3 "$E2E_ROOT/scripts/include-graph.py" "$E2E_ROOT" --strict >"$G" 2>&1
check "no include points up a folder and no module cycle (scripts/include-graph.py --strict)" test $? -eq 0
check "the graph names no include cycle" grep -qx "  none" <(sed -n '/^include cycles/,/^folder graph/p' "$G")
check "the graph names no upward include" grep -qx "  none" <(sed -n '/^upward includes/,$p' "$G")
top=$(cd "$E2E_ROOT/src" && ls -- *.c *.h 2>/dev/null | tr '\n' ' ')
check "src/ holds main.c alone at the top (got: $top)" test "$top" = "main.c "
folders=$(cd "$E2E_ROOT/src" && ls -d -- */ | tr -d / | tr '\n' ' ')
check "src/'s folders are HACKING.md's layers (got: $folders)" \
	test "$folders" = "base cluster cmds engines model options report run stats store suite suites "
# A cycle line: "  N: folder/a folder/b ...": every module of it in one folder.
cross=$(sed -n '/^include cycles/,/^folder graph/p' "$G" | awk '/^  [0-9]+:/ {
	split($3, f, "/"); for (i = 4; i <= NF; i++) { split($i, g, "/"); if (g[1] != f[1]) { print; break } } }')
check "modules that include each other share a folder${cross:+ (not: $cross)}" test -z "$cross"
for l in base model stats options run engines report cluster suite suites store cmds; do
	check "HACKING.md's layer table has $l/" grep -q "^| \`$l/\` |" "$E2E_ROOT/HACKING.md"
done
