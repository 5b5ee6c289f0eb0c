#!/bin/bash
# --help that reads: every command's help wrapped to the width (the
# terminal's, else COLUMNS, else 80) with no line longer than it and no word
# broken unless it is longer than the width; each command lists exactly the
# options it accepts (tried on the binary: --help after them parses them and
# runs nothing; run and fio through a job file, fio with --parse-only); the
# JSON of a suite and of dd echoes the options that apply, not fio's others;
# results saved by iogauge 0.2.0 (tests/e2e/data, every option echoed) are
# still read by report and compare.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_iogauge
need_json

T=$E2E_TMP/help
mkdir -p "$T/none" "$T/cwd" || exit 1
rmdir "$T/none" # a path that does not exist: nothing runs on it
cd "$T/cwd" || exit 1
DATA=$E2E_ROOT/tests/e2e/data

# The commands, as iogauge --help lists them.
mapfile -t CMDS < <(COLUMNS=100000 "$IOGAUGE" --help | sed -n 's/^  iogauge \[*\([a-z]*\).*/\1/p')
check "iogauge --help lists 21 commands (${CMDS[*]})" [ "${#CMDS[@]}" -eq 21 ]

# ---- the width: lines and words

# fits W FILE: no line longer than W unless it is one word (nothing to break it at).
fits() {
	awk -v w="$1" 'length($0) > w { s = $0; sub(/^ +/, "", s); if (s ~ / /) { print "line " NR " (" length($0) "): " $0; bad = 1 } }
		END { exit bad }' "$2"
}
# same_words W NARROW WIDE: the words of both, in order, are the same; a word is
# in pieces in NARROW only when it is longer than W.
same_words() {
	awk -v w="$1" -v wide="$3" '
		BEGIN { while ((getline l < wide) > 0) { n = split(l, a, / +/); for (i = 1; i <= n; i++) if (a[i] != "") W[++nw] = a[i] } }
		{ n = split($0, a, / +/); for (i = 1; i <= n; i++) if (a[i] != "") N[++nn] = a[i] }
		END {
			j = 1
			for (i = 1; i <= nw; i++) {
				if (N[j] == W[i]) { j++; continue }
				piece = N[j++]
				while (length(piece) < length(W[i]) && j <= nn && index(W[i], piece N[j]) == 1) piece = piece N[j++]
				if (piece != W[i] || length(W[i]) <= w) { print "word " i ": \"" W[i] "\" printed as \"" piece "\""; exit 1 }
			}
			if (j != nn + 1) { print "extra words after " nw; exit 1 }
		}' "$2"
}

help_of() { # help_of CMD: that command's --help ("" is iogauge --help)
	if [ -n "$1" ]; then "$IOGAUGE" "$1" --help; else "$IOGAUGE" --help; fi
}
for c in "" "${CMDS[@]}"; do
	name=${c:-iogauge}
	COLUMNS=100000 help_of "$c" >"$T/wide" 2>"$ERR"
	for w in 80 60 200; do
		if [ "$w" = 80 ]; then # not a terminal and no COLUMNS: 80
			env -u COLUMNS "$IOGAUGE" ${c:+"$c"} --help >"$T/narrow" 2>"$ERR"
		else
			COLUMNS=$w help_of "$c" >"$T/narrow" 2>"$ERR"
		fi
		if ok fits "$w" "$T/narrow" >"$T/why" && ok same_words "$w" "$T/narrow" "$T/wide" >>"$T/why"; then
			pass "$name --help at $w columns: no line wider, no word broken"
		else
			fail "$name --help at $w columns: no line wider, no word broken" "$(head -n 3 "$T/why")"
		fi
	done
done
# The widths are used, not only respected: 200 columns make longer lines than 80.
COLUMNS=200 "$IOGAUGE" tree --help >"$T/200"
env -u COLUMNS "$IOGAUGE" tree --help >"$T/80"
longest() { awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }
if ok [ "$(longest "$T/200")" -gt 150 ] && ok [ "$(longest "$T/80")" -gt 70 ] &&
	ok [ "$(wc -l <"$T/80")" -gt "$(wc -l <"$T/200")" ]; then
	pass "tree --help fills 200 and 80 columns ($(longest "$T/200"), $(longest "$T/80"))"
else
	fail "tree --help fills 200 and 80 columns" "$WHY"
fi
check "a description hangs under its column (tree --streams' second line starts at 37)" \
	grep -Eq '^ {37}[^ ]' "$T/80"

# On a terminal its width wins over COLUMNS, as in GNU ls (script(1) gives a pty of 70 columns).
if command -v script >/dev/null 2>&1; then
	script -qec "stty cols 70 && COLUMNS=200 '$IOGAUGE' quick --help" /dev/null 2>"$ERR" | tr -d '\r' >"$T/tty"
	if ok fits 70 "$T/tty" && ok [ "$(longest "$T/tty")" -gt 60 ]; then
		pass "on a 70-column terminal: lines up to 70 ($(longest "$T/tty")), COLUMNS=200 ignored"
	else
		fail "on a 70-column terminal: lines up to 70, COLUMNS=200 ignored" "$WHY"
	fi
else
	skip "on a 70-column terminal: lines up to 70" "script (util-linux) not installed"
fi

# ---- each command lists what it takes

# terms CMD: each option of CMD's --help as "WORD ARG DEFAULT" ("--size SIZE 1g", "--keep [=0|1]",
# "-s SIZE", "-a"); DEFAULT is the command's, when the entry shows one (a long term's entry is two lines).
terms() {
	COLUMNS=100000 "$IOGAUGE" "$1" --help | awk '
		function out() { if (w != "") print w " " a " " d; w = "" }
		/^  -/ {
			out()
			t = substr($0, 3); k = index(t, "  "); rest = k ? substr(t, k) : ""; if (k) t = substr(t, 1, k - 1)
			a = ""; d = ""
			if (t ~ /\[=0\|1\]$/) { sub(/\[=0\|1\]$/, "", t); a = "[=0|1]" }
			else if ((e = index(t, "=")) > 0) { a = substr(t, e + 1); t = substr(t, 1, e - 1) }
			else if ((e = index(t, " ")) > 0) { a = substr(t, e + 1); t = substr(t, 1, e - 1) }
			w = t; desc = rest
		}
		/^     / && w != "" { desc = desc $0 }
		/^  -/ || /^     / { if (match(desc, /\(default: [^ ()]*\)$/)) d = substr(desc, RSTART + 10, RLENGTH - 11) }
		!/^  -/ && !/^     / { out() }
		END { out() }'
}
# listed CMD: the option words of CMD's --help, one a line ("--keep", "-s").
listed() {
	terms "$1" | cut -d' ' -f1
}
has() { grep -qx -- "$2" <<<"$1"; }
tree_opts=$(listed tree) fs_opts=$(listed fs) report_opts=$(listed report) dd_opts=$(listed dd)
if ok not has "$tree_opts" --verify && ok not has "$tree_opts" --allow-destroy &&
	ok not has "$tree_opts" --allow-overwrite && ok has "$tree_opts" --keep && ok has "$tree_opts" --data; then
	pass "tree --help: --keep and --data (--make-tree's), no --verify, --allow-destroy, --allow-overwrite"
else
	fail "tree --help: --keep and --data, no --verify, --allow-destroy, --allow-overwrite" "$WHY"
fi
if ok has "$fs_opts" --allow-destroy && ok has "$fs_opts" --verify && ok not has "$fs_opts" --keep &&
	ok not has "$fs_opts" --allow-overwrite; then
	pass "fs --help: --allow-destroy and --verify, no --keep or --allow-overwrite"
else
	fail "fs --help: --allow-destroy and --verify, no --keep or --allow-overwrite" "$WHY"
fi
# report: its page's file (and --html, the same), and the store's words (--db, --trend, --runs).
if ok [ "$(echo "$report_opts" | sort | tr '\n' ' ')" = "--db --html --output --runs --trend " ] &&
	ok not has "$dd_opts" --keep && ok not has "$dd_opts" --quiet; then
	pass "report takes --output, --html and the store's --db, --trend, --runs only; dd neither --keep nor --quiet"
else
	fail "report takes --output, --html and the store's --db, --trend, --runs only; dd neither --keep nor --quiet" "$WHY"
fi
for t in "tree --verify" "tree --allow-destroy" "tree --allow-overwrite" "fs --keep" "report --json=x" "dd --keep"; do
	# shellcheck disable=SC2086 # the command and its option
	run_iogauge $t "$T/none"
	if ok [ "$STATUS" -eq 2 ] && ok grep -q "unknown option ${t#* }" "$ERR"; then
		pass "$t: refused as unknown"
	else
		fail "$t: refused as unknown" "$WHY"
	fi
done

# value OPTION-WORD ARG [DEFAULT]: a value the option takes: its default, or one from its placeholder
# or its first word.
value() {
	[ -n "${3:-}" ] && echo "$3" && return
	case ${2%%|*} in
	FILE | DIR | PATH | NAME) echo "$T/cwd/v" ;;
	TIME | INTERVAL | DEADLINE) echo 1s ;;
	SIZE* | MIN\[-MAX\]) echo 4k ;;
	N | COUNT | PCT*) echo 1 ;;
	*) echo "${2%%|*}" ;;
	esac
}
# Every option a command lists, on its command line with a value it takes, then
# --help: parsed (exit 0, its help printed), nothing run.
for c in "${CMDS[@]}"; do
	[ "$c" = run ] || [ "$c" = fio ] && continue
	args=()
	while read -r word arg def; do
		case $word in
		--*) if [ "$arg" = "[=0|1]" ]; then args+=("$word=0"); else args+=("$word=$(value "$word" "$arg" "$def")"); fi ;;
		-?) args+=("$word") && [ -n "$arg" ] && args+=("$(value "$word" "$arg" "$def")") ;;
		esac
	done < <(terms "$c")
	run_iogauge "$c" "${args[@]}" --help
	if ok [ "$STATUS" -eq 0 ] && ok grep -q '^Usage:' "$OUT" && ok [ "${#args[@]}" -ge 2 ]; then
		pass "$c: its ${#args[@]} listed options are accepted"
	else
		fail "$c: its ${#args[@]} listed options are accepted" "$WHY"
	fi
done

# The table's every option (docs/options.md's first column).
"$IOGAUGE" --help-markdown | sed -n 's/^| `\(--*[A-Za-z][A-Za-z0-9_-]*\).*/\1/p' | sort -u >"$T/all"
# job_file FILE WORDS: a job file of one job that sets each option to "1".
job_file() {
	local f=$1 w
	shift
	echo "[j]" >"$f"
	printf '%s=1\n' "$@" | sed 's/^-*//' >>"$f"
}
# run: what it lists, in a job file, are options (a value may be refused, never the name);
# what it does not list is unknown, every one.
listed run | sort -u >"$T/run"
mapfile -t yes < <(grep -vxE -- '--(allow-destroy|allow-overwrite|warn-unsupported)' "$T/run")
mapfile -t no < <(comm -23 "$T/all" "$T/run")
job_file "$T/yes.fio" "${yes[@]}"
run_iogauge run "$T/yes.fio"
n=$(grep -c "unknown option" "$ERR")
check "run: its ${#yes[@]} listed job options are none unknown in a job file ($n)" [ "$n" -eq 0 ]
run_iogauge run --allow-destroy=0 --allow-overwrite=0 --warn-unsupported=0 --help
check "run: its command-line-only options parse" [ "$STATUS" -eq 0 ]
job_file "$T/no.fio" "${no[@]}"
run_iogauge run "$T/no.fio"
n=$(grep -c "unknown option" "$ERR")
check "run: the ${#no[@]} options it does not list are unknown, each ($n)" [ "$n" -eq "${#no[@]}" ]
# fio lists its job options with --cmdhelp=all; --parse-only reads a job file and runs nothing.
"$IOGAUGE" fio --cmdhelp=all | sed -n 's/^\([A-Za-z][A-Za-z0-9_-]*\) *:.*/\1/p' | sort -u >"$T/fio"
mapfile -t fyes <"$T/fio"
mapfile -t fno < <(sed 's/^-*//' "$T/all" | sort -u | comm -23 - "$T/fio")
job_file "$T/fyes.fio" "${fyes[@]}"
run_iogauge fio --parse-only "$T/fyes.fio"
n=$(grep -c "unknown option" "$ERR")
if ok [ "${#fyes[@]}" -gt 200 ] && ok [ "$n" -eq 0 ]; then
	pass "fio: its ${#fyes[@]} --cmdhelp options are none unknown ($n)"
else
	fail "fio: its ${#fyes[@]} --cmdhelp options are none unknown ($n)" "$WHY"
fi
job_file "$T/fno.fio" "${fno[@]}"
run_iogauge fio --parse-only "$T/fno.fio"
n=$(grep -c "unknown option" "$ERR")
if ok [ "$n" -eq "${#fno[@]}" ] && ok grep -qx quiet <(printf '%s\n' "${fno[@]}"); then
	pass "fio: the ${#fno[@]} options --cmdhelp does not list are unknown, each ($n; --quiet among them)"
else
	fail "fio: the options --cmdhelp does not list are unknown, each ($n of ${#fno[@]})" "$WHY"
fi

# ---- the JSON echo: what applies

j() { jget "$@" 2>/dev/null; }
mkdir -p "$T/tree" "$T/lat" "$T/dd" "$T/q" || exit 1
(cd "$T/tree" && "$IOGAUGE" tree --make-tree --tree-files=16 --tree-filesize=4k-16k --tree-files-per-dir=8 \
	--tree-fanout=0 --streams=1,2 --quiet --json="$T/tree.json" . >/dev/null 2>"$ERR")
check "tree: exit 0" [ $? -eq 0 ]
keys=$(j "$T/tree.json" '.suite.options|keys' '.jobs[0].options|keys' | sort -u | tr '\n' ' ')
if ok not matches "$keys" '(^| )(zonemode|verify_async|verify|randseed|offset|ioengine_flags) ' &&
	ok matches "$keys" '(^| )data ' && ok [ "$(j "$T/tree.json" '.jobs[0].options|keys' | wc -l)" -lt 12 ]; then
	pass "tree's JSON: data (its own) and what its jobs set, no zonemode, verify_async, verify ($keys)"
else
	fail "tree's JSON: no zonemode, verify_async, verify" "$WHY: $keys"
fi
"$IOGAUGE" quick --size=4m --runtime=200ms --ramp_time=0 --quiet --json="$T/quick.json" "$T/q" >/dev/null 2>"$ERR"
check "quick: exit 0" [ $? -eq 0 ]
base=$(j "$T/quick.json" '.suite.options|keys' | tr '\n' ' ')
rnd=$(j "$T/quick.json" '.jobs[name=RND4K Q32T1 read].options|keys' | tr '\n' ' ')
if ok matches "$base" '^size ioengine direct runtime time_based ramp_time data verify $' &&
	ok matches "$rnd" ' rw bs iodepth ' && ok not matches "$rnd" 'zonemode|numjobs|randseed' &&
	ok [ "$(j "$T/quick.json" '.jobs[name=RND4K Q32T1 read].options.bs')" = 4096 ]; then
	pass "quick's JSON: its options, and each case's (bs=4k too, the default), nothing else"
else
	fail "quick's JSON: its options, and each case's (bs=4k too, the default), nothing else" "$WHY: [$base] [$rnd]"
fi
(cd "$T/dd" && "$IOGAUGE" dd if=/dev/zero of=dd.out bs=64k count=4 --json="$T/dd.json" >/dev/null 2>"$ERR")
dkeys=$(j "$T/dd.json" '.jobs[0].options|keys' | tr '\n' ' ')
if ok matches "$dkeys" ' rw bs ' && ok not matches "$dkeys" 'zonemode|randseed|verify'; then
	pass "dd's JSON: its operands' options, not fio's others ($dkeys)"
else
	fail "dd's JSON: its operands' options, not fio's others" "$WHY: $dkeys"
fi
"$IOGAUGE" run --name=r --ioengine=null --size=64k --output-format=json >"$T/run.json" 2>"$ERR"
check "run's JSON: every job option, as before (zonemode: none)" [ "$(j "$T/run.json" .jobs[0].options.zonemode)" = none ]

# ---- results saved by 0.2.0 (every option echoed) are still read
(cd "$T/lat" && "$IOGAUGE" latency -c 3 -i 0 --quiet --json="$T/lat.json" . >/dev/null 2>"$ERR")
for old in tree latency dd; do
	f=$DATA/$old-0.2.0.json
	check "$old-0.2.0.json echoes every option (zonemode)" [ "$(j "$f" .jobs[0].options.zonemode)" = none ]
	run_iogauge report "$f" -o "$T/$old.html"
	if ok [ "$STATUS" -eq 0 ] && ok grep -q "</html>" "$T/$old.html"; then
		pass "report reads $old-0.2.0.json"
	else
		fail "report reads $old-0.2.0.json" "$WHY"
	fi
	now=$T/${old/latency/lat}.json
	run_iogauge compare "$f" "$now"
	if ok [ "$STATUS" -eq 0 ] && ok grep -q "changes against $f" "$OUT"; then
		pass "compare: $old-0.2.0.json and the same $old now are the same settings"
	else
		fail "compare: $old-0.2.0.json and the same $old now are the same settings" "$WHY"
	fi
done
# ...and a setting that differs is still one: -s 8k against the old 4k.
(cd "$T/lat" && "$IOGAUGE" latency -c 3 -i 0 -s 8k --quiet --json="$T/lat8k.json" . >/dev/null 2>"$ERR")
run_iogauge compare "$DATA/latency-0.2.0.json" "$T/lat8k.json"
if ok [ "$STATUS" -eq 2 ] && ok grep -q 'different settings (options.bs: 4096 vs 8192)' "$ERR"; then
	pass "compare: the old 4k and a new 8k latency differ in bs"
else
	fail "compare: the old 4k and a new 8k latency differ in bs" "$WHY"
fi
