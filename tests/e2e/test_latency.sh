#!/bin/bash
# `iogauge latency` (ioping): a line per request in ioping's format, printed
# as the request completes, ioping's statistics counting every request, Ctrl-C
# as the normal end, block devices read with O_DIRECT, writes through the
# interlocks, two file systems side by side (table and JSON), and a one-line
# error with exit 2 for bad options.  The checks of a running latency wait for its
# request lines (states), never a fixed time.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 mkfs.xfs
need_json

mkfs_mount lat_ext4 96M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
E=$MNT
EDEV=$(basename "$LOOP")
mkfs_mount lat_xfs 320M xfs || {
	fail "xfs on a loop device"
	exit 1
}
X=$MNT
j() { jget "$1" "$2" 2>/dev/null; }
LINE='^4 KiB <<< %s \(%s /dev/%s [0-9.]+ MiB\): request=%d time=[0-9.]+ (ns|us|ms|s)( \((fast|slow)\))?$'

# 1. -c 5: five lines in ioping's format, then ioping's statistics counting five.
run_iogauge latency -c 5 -i 0.05 "$E"
expect_status 0 "latency -c 5: exit 0"
n=0
for r in 1 2 3 4 5; do
	# shellcheck disable=SC2059 # the pattern is the format
	grep -Eq "$(printf "$LINE" "$E" ext4 "$EDEV" "$r")" "$OUT" && n=$((n + 1))
done
check "latency -c 5: five request lines in ioping's format ($n)" [ "$n" = 5 ]
check "latency -c 5: no sixth request" [ "$(grep -c 'request=' "$OUT")" = 5 ]
check "latency: ioping's statistics heading" grep -Eq "^--- $E \(ext4 /dev/$EDEV [0-9.]+ MiB\) ioping statistics ---$" "$OUT"
check "latency: 5 requests completed" grep -Eq '^5 requests completed in [0-9.]+ (ns|us|ms|s), 20 KiB read, [0-9.]+( k)? iops, [0-9.]+ [KMG]?i?B/s$' "$OUT"
check "latency: 5 requests generated" grep -Eq '^generated 5 requests in [0-9.]+ (us|ms|s), 20 KiB, ' "$OUT"
check "latency: min/avg/max/mdev" grep -Eq '^min/avg/max/mdev = [0-9.]+ (ns|us|ms|s) / [0-9.]+ (ns|us|ms|s) / [0-9.]+ (ns|us|ms|s) / [0-9.]+ (ns|us|ms|s)$' "$OUT"
check "latency: percentiles" grep -Eq '^p50/p90/p99/p99.9 = ' "$OUT"
check "latency: the test file is removed" [ -z "$(find "$E" -name 'iogauge-*')" ]

# 2. Each line is printed when its request completes, not at the end: the first line is on
# stdout (a file: no terminal's line buffering) while the run has 3 requests and 3 s to go.
start_iogauge latency -c 4 -i 1 "$E"
if await_bg 'request=1 ' 30 "$OUT"; then
	running=no
	bg_running && running=yes
	early=$(grep -c 'request=' "$OUT")
	stats=$(grep -c 'ioping statistics' "$OUT")
	if ok [ "$running" = yes ] && ok [ "$early" -ge 1 ] && ok [ "$early" -le 3 ] && ok [ "$stats" = 0 ]; then
		pass "latency: request lines appear while it runs ($early of 4, no statistics yet)"
	else
		fail "latency: request lines appear while it runs ($early of 4, no statistics yet)" "$WHY"
	fi
else
	fail "latency: request lines appear while it runs" "$WHY"
fi
signal_bg TERM 10

# 3. Without -c, Ctrl-C ends it normally: the statistics count the lines printed (5 or more,
# awaited: the signal comes while it measures, never before its handler is in place).
start_iogauge latency -i 0.1 "$E"
await_bg 'request=5 ' 30 "$OUT" || fail "latency without -c: five requests before Ctrl-C" "$WHY"
signal_bg INT 10
lines=$(grep -c 'request=' "$OUT")
check "latency without -c: Ctrl-C ends it with exit 0" [ "$STATUS" = 0 ]
check "latency without -c: the statistics count the $lines requests printed" \
	grep -Eq "^$lines requests completed in " "$OUT"
check "latency without -c: no file left" [ -z "$(find "$E" -name 'iogauge-*')" ]

# 4. A block device: O_DIRECT by default, ioping's description.
mkloop lat_dev 64M || exit 1
DEV=$LOOP
run_iogauge latency -c 3 -i 0 "$DEV" --json "$E2E_TMP/dev.json"
expect_status 0 "latency on a device: exit 0"
check "latency on a device: (block device 64 MiB)" grep -q "^4 KiB <<< $DEV (block device 64 MiB): request=1 " "$OUT"
check "latency on a device: O_DIRECT" [ "$(j "$E2E_TMP/dev.json" .jobs[0].options.direct)" = true ]
check "latency on a device: the whole device is the working set" [ "$(j "$E2E_TMP/dev.json" .jobs[0].options.size)" = 67108864 ]
run_iogauge latency -c 2 -i 0 -W "$DEV"
expect_status 0 "latency -W on a blank device: written"
if ok grep -q '>>> ' "$OUT" && ok grep -q ' written, ' "$OUT"; then
	pass "latency -W: >>> lines and 'written'"
else
	fail "latency -W: >>> lines and 'written'" "$WHY"
fi
mkfs_ext4 "$DEV"
run_iogauge latency -c 2 -i 0 -W "$DEV"
expect_status 2 "latency -W on a device with a file system: refused"
check "latency -W refused: not one request" [ "$(grep -c 'request=' "$OUT")" = 0 ]

# 5. Writes in a directory, sequential, 8 KiB.
run_iogauge latency -c 3 -i 0 -W -L -s 8k "$E"
expect_status 0 "latency -W -L -s 8k: exit 0"
check "latency -W -L -s 8k: 8 KiB >>> lines" [ "$(grep -c '^8 KiB >>> ' "$OUT")" = 3 ]

# 6. Two file systems: a column each, JSON with both targets and what they are.
run_iogauge latency -c 3 -i 0 "$E" "$X" --json "$E2E_TMP/two.json"
expect_status 0 "latency on ext4 and xfs: exit 0"
check "latency: two statistics blocks" [ "$(grep -c 'ioping statistics' "$OUT")" = 2 ]
check "latency: a table with a column per target" grep -Eq "^ +\| $E +\| $X" "$OUT"
check "latency: the table's rows" grep -Eq '^avg +\| [0-9.]+ (ns|us|ms|s) +\| [0-9.]+ (ns|us|ms|s)' "$OUT"
T=$E2E_TMP/two.json
check "latency JSON: two targets" [ "$(j "$T" '.suite.targets|length')" = 2 ]
if ok [ "$(j "$T" .suite.targets[0].fstype)" = ext4 ] && ok [ "$(j "$T" .suite.targets[1].fstype)" = xfs ]; then
	pass "latency JSON: ext4, then xfs"
else
	fail "latency JSON: ext4, then xfs" "$WHY"
fi
check "latency JSON: mount options" matches "$(j "$T" .suite.targets[1].mount_options)" '^rw'
check "latency JSON: rotational is known" matches "$(j "$T" .suite.targets[0].rotational)" '^(true|false)$'
check "latency JSON: a mean latency per target" between "$(j "$T" .suite.targets[1].cases.latency.read.lat_mean_ns.median)" 1 1e10

# 7. Bad options: one line, exit 2.
bad() {
	local name=$1
	shift
	run_iogauge latency "$@"
	if [ "$STATUS" -eq 2 ] && [ "$(wc -l <"$ERR")" = 1 ]; then
		pass "latency refuses $name: one line, exit 2"
	else
		fail "latency refuses $name: one line, exit 2" "status $STATUS, $(wc -l <"$ERR") lines"
	fi
}
bad "-c abc" -c abc "$E"
bad "-s 0" -s 0 "$E"
bad "-i soon" -i soon "$E"
bad "-Q" -Q "$E"
bad "two targets without -c" "$E" "$X"
bad "-S below -s" -S 4k -s 8k "$E"
bad "a missing path" -c 1 "$E/nonexistent"
run_iogauge latency -c abc "$E"
expect_err "^iogauge: -c: 'abc'" "latency: a one-letter option is named as typed (-c, not --c)"

# 8. The free-space floor (issue 16): a test file leaves a tenth of the file system (at most 1 GiB)
# free.  A size given that does not fit above it is refused in one line naming the option, the size,
# the free space and the floor, exit 2, nothing written; the default size shrinks to keep it.
floor_line() { [ "$(grep -c . "$ERR")" = 1 ] && grep -Eq -- "$1" "$ERR"; }
nothing_written() { [ -z "$(ls -A "$E" | grep -v '^lost+found$')" ] && [ ! -s "$OUT" ]; }
shrunk_above_floor() { [ -n "$size_b" ] && [ "$size_b" -gt 0 ] && [ "$size_b" -le $((free_b - floor_b)) ] && grep -q "shrunk to .* to keep .* free" "$ERR"; }
free_b=$(df -B1 --output=avail "$E" | tail -n 1)
floor_b=$(($(stat -f -c '%b * %S' "$E") / 10))
for size in 200g $(((free_b - floor_b / 2) >> 20))m; do # a typo, and a size that fits only into the floor
	run_iogauge latency -S "$size" -c 1 "$E"
	expect_status 2 "latency -S $size: exit 2"
	check "latency -S $size: one line naming -S, the size, the free space and the floor" \
		floor_line "-S [0-9.]+ [GM]iB does not fit: [0-9.]+ MiB free, and iogauge keeps [0-9.]+ MiB of the file system free"
	check "latency -S $size: nothing written" nothing_written
done
# quick's default 1 GiB shrinks above the floor (the file is in the JSON; the warning names it).
run_iogauge quick --runtime 0.05 --ramp_time 0 --json "$E2E_TMP/floor.json" "$E"
size_b=$(j "$E2E_TMP/floor.json" .suite.targets[0].size)
expect_status 0 "quick's default size on a small file system: exit 0"
check "quick's default size shrinks and leaves the floor free ($size_b of $free_b bytes free, floor $floor_b)" \
	shrunk_above_floor
