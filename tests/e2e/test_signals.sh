#!/bin/bash
# SIGINT and SIGTERM mid-run: iogauge stops within seconds with 128+N,
# prints what it measured so far (text: "Interrupted"; JSON: valid, with
# "interrupted": true and I/O counted in both directions), and removes its
# test files.  Also SIGINT in the default `quick` suite; `timeout` in a
# process group (several signals at once: one request); a second signal
# later (files removed at once, results still printed) and a third (exit).
# Each signal is sent once the run says it is at the stage the check means (the
# progress line of --eta=always, the file of a layout), never after a fixed sleep.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 awk
need_json

cd "$E2E_ROOT" || exit 1
IOGAUGE=$(readlink -f "$IOGAUGE") # the quick test runs in another directory

mkfs_mount signals 256M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1

# not_grep PATTERN FILE: FILE does not match PATTERN.
not_grep() {
	! grep -q -- "$1" "$2"
}

JOB=(run --name=t --directory="$D" --size=16m --bs=4k --rw=randrw --ioengine=io_uring
	--iodepth=4 --direct=1 --time_based --runtime=30)

# interrupted NAME SIG WANT FORMAT: a 30 s run stopped by SIG once it has measured 100 requests.
interrupted() {
	local name=$1 sig=$2 want=$3 fmt=$4 r w
	start_iogauge "${JOB[@]}" --output-format="$fmt" --eta=always
	if ! await_bg 'threads running, [0-9]+ s, [0-9]{3,} requests' 60; then
		bg_running && kill -KILL "$BGPID"
		wait "$BGPID"
		fail "$name: the progress line shows the measured part" "$WHY; stderr: $(head -c 300 "$ERR")"
		rm -rf "${D:?}"/*
		return
	fi
	signal_bg "$sig" 10
	if [ "$WAITED_MS" -le 5000 ]; then
		pass "$name: exited ${WAITED_MS} ms after SIG$sig"
	else
		fail "$name: exits within 5 s of SIG$sig" "took ${WAITED_MS} ms (killed after 10 s)"
	fi
	expect_status "$want" "$name: exit status $want"
	if [ "$fmt" = json ]; then
		if jget "$OUT" 2>/dev/null; then
			pass "$name: stdout is valid JSON"
			check "$name: \"interrupted\": true" [ "$(jget "$OUT" .interrupted)" = true ]
			check "$name: the job says interrupted too" [ "$(jget "$OUT" .jobs[0].interrupted)" = true ]
			# docs/json.md: status is "the exit status the run ends with".
			st=$(jget "$OUT" .status)
			check "$name: JSON status ($st) is the exit status ($want)" [ "$st" = "$want" ]
			r=$(jget "$OUT" .jobs[0].read.ios)
			w=$(jget "$OUT" .jobs[0].write.ios)
			if ok [ "${r:-0}" -gt 0 ] && ok [ "${w:-0}" -gt 0 ]; then
				pass "$name: partial results: read.ios $r > 0, write.ios $w > 0"
			else
				fail "$name: partial results: read.ios $r > 0, write.ios $w > 0" "$WHY"
			fi
		else
			fail "$name: stdout is valid JSON" "stdout: $(head -c 300 "$OUT")"
		fi
	else
		if grep -q "Interrupted" "$OUT"; then
			pass "$name: stdout says Interrupted"
		else
			fail "$name: stdout says Interrupted" "stdout: $(head -c 300 "$OUT")"
		fi
		if grep -Eq "read: IOPS=[0-9.]+[kM]?," "$OUT" && grep -Eq "write: IOPS=[0-9.]+[kM]?," "$OUT"; then
			pass "$name: partial results printed for both directions"
		else
			fail "$name: partial results printed for both directions" "stdout: $(head -c 300 "$OUT")"
		fi
	fi
	if dir_empty "$D"; then
		pass "$name: test directory empty afterwards"
	else
		fail "$name: test directory empty afterwards" "left: $(ls_dir "$D")"
	fi
	rm -rf "${D:?}"/*
}

interrupted "run, SIGINT, text" INT 130 normal
interrupted "run, SIGINT, JSON" INT 130 json
interrupted "run, SIGTERM, text" TERM 143 normal
interrupted "run, SIGTERM, JSON" TERM 143 json

# The default command (quick) in a temp dir: SIGINT while it measures.
Q=$MNT/quick
mkdir "$Q" || exit 1

# The first case of quick has measured data (after its ramp): a line of --eta=always says so.
Q8_MEASURING='SEQ1M Q8T1 read \.\.\. [0-9.]+ [KMG]iB'

# quick_int NAME FORMAT: quick started in $Q, SIGINT once its first case measures.
quick_int() {
	local name=$1 fmt=$2
	cd "$Q" || exit 1
	start_iogauge --size 64m --runtime 5 --output-format="$fmt" --eta=always
	cd "$E2E_ROOT" || exit 1
	if ! await_bg "$Q8_MEASURING" 60; then
		bg_running && kill -KILL "$BGPID"
		wait "$BGPID"
		fail "$name: the progress line shows the first case measuring" "$WHY; stderr: $(head -c 300 "$ERR")"
		rm -rf "${Q:?}"/*
		return
	fi
	signal_bg INT 10
	if [ "$WAITED_MS" -le 5000 ]; then
		pass "$name: exited ${WAITED_MS} ms after SIGINT"
	else
		fail "$name: exits within 5 s of SIGINT" "took ${WAITED_MS} ms (killed after 10 s)"
	fi
	expect_status 130 "$name: exit status 130"
	if [ "$fmt" = json ]; then
		if jget "$OUT" 2>/dev/null; then
			pass "$name: stdout is valid JSON"
			check "$name: \"interrupted\": true" [ "$(jget "$OUT" .interrupted)" = true ]
		else
			fail "$name: stdout is valid JSON" "stdout: $(head -c 300 "$OUT")"
		fi
	else
		# README: "128+N after signal N (results so far are printed)".
		if grep -q "Interrupted" "$OUT"; then
			pass "$name: stdout says Interrupted"
		else
			fail "$name: stdout says Interrupted (results so far, README)" \
				"stdout: $(head -c 300 "$OUT" | tr '\n' ' ')"
		fi
	fi
	if dir_empty "$Q"; then
		pass "$name: directory empty afterwards"
	else
		fail "$name: directory empty afterwards" "left: $(ls_dir "$Q")"
	fi
	rm -rf "${Q:?}"/*
}
quick_int "quick, SIGINT, text" normal
quick_int "quick, SIGINT, JSON" json

# The issue's case: `timeout` in a process group, and the group's SIGINT.
# Both timeout and iogauge get it, and timeout forwards its own (to the
# child and to the group) microseconds later: one request, not a second
# signal: partial results, files removed, 130.
need_cmd setsid timeout
cd "$Q" || exit 1
: >"$ERR"
env --default-signal=INT,TERM true 2>/dev/null && pre=(env --default-signal=INT,TERM) || pre=()
"${pre[@]}" setsid bash -c 'exec timeout 60 "$0" --size 64m --runtime 5 --eta=always >"$1" 2>"$2"' \
	"$IOGAUGE" "$OUT" "$ERR" &
PG=$!
E2E_PIDS+=("$PG")
cd "$E2E_ROOT" || exit 1
BGPID=$PG
await_bg "$Q8_MEASURING" 60 || fail "timeout + SIGINT: the first case measures before the signal" "$WHY"
if [ "$(ps -o pgid= -p "$PG" | tr -d ' ')" != "$PG" ]; then
	fail "timeout in a process group of its own" "pgid $(ps -o pgid= -p "$PG")"
fi
kill -INT -- -"$PG"
n=0
while kill -0 "$PG" 2>/dev/null && [ $n -lt 200 ]; do
	sleep 0.05
	n=$((n + 1))
done
kill -0 "$PG" 2>/dev/null && kill -KILL -- -"$PG"
wait "$PG"
STATUS=$?
san_check "setsid timeout iogauge (SIGINT to the group)"
expect_status 130 "timeout + SIGINT to the process group: exit status 130"
if grep -q "Interrupted" "$OUT" && grep -Eq "^SEQ1M Q8T1 +\| +[0-9.]+ " "$OUT"; then
	pass "timeout + SIGINT to the process group: partial results printed"
else
	fail "timeout + SIGINT to the process group: partial results printed" \
		"stdout: $(head -c 400 "$OUT" | tr '\n' ' ') stderr: $(head -c 300 "$ERR")"
fi
check "timeout + SIGINT to the process group: not taken for a second signal" \
	not_grep "second signal" "$ERR"
check "timeout + SIGINT to the process group: directory empty afterwards" dir_empty "$Q"
rm -rf "${Q:?}"/*

# A run slow to stop (a request the device holds 5 s: --inject=hang): two
# signals 0.1 s apart are one request; a second Ctrl-C 2 s later removes the
# test files at once, and the run still prints its partial results (text
# and JSON) when the request returns; a third signal exits at once.
HANG=(run --name=h --directory="$D" --size=1m --bs=4k --rw=write --ioengine=inject
	--inject=hang@64k:1 --json="$E2E_TMP/hang.json" --eta=always)
# The 16 requests below 64k are done and the 17th is held: the run is in the hang.
HUNG='threads running, [0-9]+ s, 16 requests'
start_iogauge "${HANG[@]}"
await_bg "$HUNG" 60 || fail "the held request: the progress line shows the run held at 64k" "$WHY"
kill -INT "$BGPID"
sleep 0.1
kill -INT "$BGPID"
sleep 0.3
check "two SIGINTs 0.1 s apart: one request (no second-signal removal)" not_grep "second signal" "$ERR"
sleep 1.6
kill -INT "$BGPID"
sleep 0.3
if bg_running; then
	check "a second SIGINT 2 s later: the test file is removed at once (still stopping)" dir_empty "$D"
	check "... and says so" grep -q "second signal: test files removed" "$ERR"
else
	fail "a second SIGINT 2 s later: the run is still stopping" "it had ended"
fi
signal_bg CONT 10
expect_status 130 "a second SIGINT 2 s later: exit status 130"
if grep -q "Interrupted" "$OUT" && grep -Eq "write: IOPS=[0-9.]+[kM]?," "$OUT"; then
	pass "a second SIGINT 2 s later: partial results printed"
else
	fail "a second SIGINT 2 s later: partial results printed" "stdout: $(head -c 300 "$OUT")"
fi
w=$(jget "$E2E_TMP/hang.json" .jobs[0].write.ios 2>/dev/null)
if ok [ "$(jget "$E2E_TMP/hang.json" .interrupted 2>/dev/null)" = true ] && ok [ "${w:-0}" -gt 0 ]; then
	pass "a second SIGINT 2 s later: JSON written, interrupted, write.ios ${w:-none} > 0"
else
	fail "a second SIGINT 2 s later: JSON written, interrupted, write.ios ${w:-none} > 0" "$WHY"
fi
check "a second SIGINT 2 s later: directory empty afterwards" dir_empty "$D"
rm -rf "${D:?}"/* "$E2E_TMP/hang.json"

start_iogauge "${HANG[@]}"
await_bg "$HUNG" 60 || fail "a third SIGINT: the progress line shows the run held at 64k" "$WHY"
kill -INT "$BGPID"
sleep 1.5
kill -INT "$BGPID"
sleep 0.3
signal_bg INT 10
expect_status 130 "a third SIGINT: exit status 130"
check "a third SIGINT: exits at once (${WAITED_MS} ms), not after the held request" [ "$WAITED_MS" -lt 1500 ]
check "a third SIGINT: directory empty afterwards" dir_empty "$D"
rm -rf "${D:?}"/* "$E2E_TMP/hang.json"

# SIGTERM while a large file is laid out, and while a large cached file is
# invalidated: the run ends at once with 143 and removes what it created.
mkfs_mount sigbig 1200M ext4 || {
	fail "ext4 of 1.2 GiB on a loop device"
	exit 1
}
B=$MNT/work
mkdir "$B" || exit 1
# The layout has begun when its file is there, and is not over while the file is short of 1 GiB
# (checked after the signal too: a layout that ended first is tried again, up to 3 times).
laying_out() {
	local f sz
	f=$(find "$B" -maxdepth 1 -type f 2>/dev/null | head -n 1)
	[ -n "$f" ] || return 1
	sz=$(stat -c %s "$f" 2>/dev/null) || return 1
	[ "$sz" -lt $((1 << 30)) ]
}
tries=0
while :; do
	tries=$((tries + 1))
	start_iogauge run --name=l --directory="$B" --size=1g --rw=read --bs=1m
	n=0
	while ! laying_out && bg_running && [ $n -lt 3000 ]; do
		sleep 0.01
		n=$((n + 1))
	done
	laying_out && bg_running && break
	bg_running && kill -KILL "$BGPID"
	wait "$BGPID"
	rm -rf "${B:?}"/*
	[ $tries -lt 3 ] || break
done
if [ $tries -ge 3 ] && ! bg_running; then
	fail "SIGTERM during the layout" "the layout was never seen under way in 3 tries"
else
	signal_bg TERM 10
	expect_status 143 "SIGTERM during the layout: exit status 143"
	check "SIGTERM during the layout: within 2 s (${WAITED_MS} ms)" [ "$WAITED_MS" -lt 2000 ]
	expect_err "interrupted while laying out" "SIGTERM during the layout: said so"
	check "SIGTERM during the layout: the half-written file is removed" dir_empty "$B"
fi
# A kept 1 GiB file of iogauge's own, cached, then a read that invalidates it first.
run_iogauge run --name=k --filename="$B/kept" --size=1g --rw=read --bs=1m --keep --runtime=0.1
cat "$B/kept" >/dev/null
start_iogauge run --name=i --filename="$B/kept" --rw=read --bs=1m --invalidate=1 --time_based --runtime=30
sleep 0.05
signal_bg TERM 10
expect_status 143 "SIGTERM during the invalidation of a cached 1 GiB file: exit status 143"
check "... within 2 s (${WAITED_MS} ms)" [ "$WAITED_MS" -lt 2000 ]
check "... the file it did not create in this run is left alone" [ -f "$B/kept" ]
rm -f "$B/kept"
