#!/bin/bash
# The progress line (--eta): auto draws it in place when stderr is a terminal
# and not otherwise; always writes it to a log too, a line at most a second,
# with no escape codes, naming the requests (run) or the bytes (a suite's
# case) measured so far; never and --quiet draw none.  A bad value: one line,
# exit 2.  A job file cannot set it.  `iogauge fio` keeps fio's own --eta
# (on stdout, fio's line): iogauge's line never appears on its stderr.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_iogauge
need_cmd script
D=$E2E_TMP/work
mkdir "$D" || exit 1
RUN=(run --name=p --filename="$D/p.dat" --size=4m --rw=randread --bs=4k --time_based --runtime=2.5)

run_iogauge "${RUN[@]}" --eta=always
expect_status 0 "--eta=always: exit 0"
n=$(grep -c 'threads running' "$ERR")
check "--eta=always without a terminal: a line of its own at most once a second (2 to 4 in 2.5 s: $n)" \
	[ "$n" -ge 2 -a "$n" -le 4 ]
check "--eta=always without a terminal: no escape code or carriage return" not grep -q $'[\r\033]' "$ERR"
check "--eta=always: the line counts the requests measured" \
	grep -Eq '^iogauge: 1/1 threads running, [0-9]+ s, [0-9]+ requests, about [0-9]+ s left$' "$ERR"
c=$(grep -Eo '[0-9]+ requests' "$ERR" | awk '{ print $1 }' | tr '\n' ' ')
check "--eta=always: the requests grow from line to line ($c)" \
	awk -v s="$c" 'BEGIN { n = split(s, a, " "); for (i = 2; i <= n; i++) if (a[i] + 0 <= a[i - 1] + 0) exit 1; exit n < 2 }'

run_iogauge "${RUN[@]}"
check "auto without a terminal: no progress line" not grep -q 'threads running' "$ERR"
run_iogauge "${RUN[@]}" --eta=always --quiet
check "--quiet wins over --eta=always" not grep -q 'threads running' "$ERR"

# On a terminal (script gives the run a pty): auto redraws in place, never draws nothing.
TTY=$E2E_TMP/tty.out
script -qc "$(printf '%q ' "$IOGAUGE" "${RUN[@]}") >/dev/null" /dev/null >"$TTY" 2>&1
check "auto on a terminal: the line is redrawn in place (CR, erase to the end)" \
	grep -q $'\r\033\\[Kiogauge: 1/1 threads running' "$TTY"
script -qc "$(printf '%q ' "$IOGAUGE" "${RUN[@]}" --eta=never) >/dev/null" /dev/null >"$TTY" 2>&1
check "--eta=never on a terminal: no progress line" not grep -q 'threads running' "$TTY"

# A suite: each line names the target, the pass, the case and the bytes it measured.
(cd "$D" && timeout -k 5 120 "$IOGAUGE" quick --size 16m --runtime 1.2 --ramp_time 0 --eta=always \
	>/dev/null 2>"$ERR")
check "quick --eta=always: lines name the case and the bytes measured" \
	grep -Eq '^iogauge: \.: pass 1/1, SEQ1M Q8T1 read \.\.\. [0-9.]+ ([KMG]i)?B, about [0-9]+ s left$' "$ERR"
check "quick --eta=always: every case has its lines" \
	[ "$(grep -Eo 'pass 1/1, [A-Z0-9]+ Q[0-9]+T[0-9]+ (read|write)' "$ERR" | sort -u | wc -l)" -eq 8 ]

run_iogauge "${RUN[@]}" --eta=sometimes
expect_status 2 "--eta=sometimes: exit 2"
if [ "$(wc -l <"$ERR")" -eq 1 ] && grep -q -- '--eta.*auto|always|never' "$ERR"; then
	pass "--eta=sometimes: one line naming the option and the allowed words"
else
	fail "--eta=sometimes: one line naming the option and the allowed words" "stderr: $(head -c 300 "$ERR")"
fi
printf '[p]\nfilename=%s\nsize=1m\neta=always\n' "$D/p.dat" >"$E2E_TMP/p.fio"
run_iogauge run "$E2E_TMP/p.fio"
expect_status 2 "eta in a job file: exit 2"
expect_err 'eta is refused in job files' "eta in a job file: refused, the command line's word"

# fio's own --eta: fio's line on stdout; iogauge's never on stderr.
run_iogauge fio --name=p --filename="$D/f.dat" --size=4m --rw=randread --time_based --runtime=1.5 --eta=always
expect_status 0 "fio --eta=always: exit 0"
check "fio --eta=always: no iogauge progress line on stderr" not grep -q 'threads running' "$ERR"
check "fio --eta=always: fio's line on stdout" grep -q 'Jobs: 1 (f=1)' "$E2E_TMP/last.out"
