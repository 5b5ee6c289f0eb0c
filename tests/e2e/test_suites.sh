#!/bin/bash
# The suite executor: `mix` (YABS's table) and `quick` on two file systems at
# once, a suite with one refused target among three, the latency kinds
# (slat + clat = lat), and --help showing each command's own defaults.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 mkfs.xfs
need_json

mkfs_mount suite_ext4 256M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
E=$MNT/work
mkfs_mount suite_xfs 320M xfs || {
	fail "xfs on a loop device"
	exit 1
}
X=$MNT/work
mkdir "$E" "$X" || exit 1
j() { jget "$OUT" "$1" 2>/dev/null; }
SMALL=(--size 16m --runtime 0.3 --ramp_time 0)

# 1. mix on two file systems: YABS's table per target, a comparison, JSON with both.
run_iogauge mix "${SMALL[@]}" --iodepth 4 "$E" "$X"
expect_status 0 "mix on ext4 and xfs: exit 0"
check "mix: YABS's heading per target" [ "$(grep -c '^fio Disk Speed Tests (Mixed R/W 50/50)' "$OUT")" = 2 ]
check "mix: Read, Write and Total rows for each pair of block sizes" \
	[ "$(grep -Ec '^(Read|Write|Total) +\| [0-9.]+ [KMG]B/s +\([0-9.]+k?\) \| [0-9.]+ [KMG]B/s +\([0-9.]+k?\)$' "$OUT")" = 12 ]
check "mix: a header row for 4k/64k and for 512k/1m" [ "$(grep -Ec '^Block Size \| (4k|512k) ' "$OUT")" = 4 ]
check "mix: the comparison table names both targets" grep -q "^Block Size | $E" "$OUT"
if ok grep -q "(ext4 on" "$OUT" && ok grep -q "(xfs on" "$OUT"; then
	pass "mix: ext4 and xfs are named"
else
	fail "mix: ext4 and xfs are named" "$WHY"
fi
if ok dir_empty "$E" && ok dir_empty "$X"; then
	pass "mix: both directories are left empty"
else
	fail "mix: both directories are left empty" "$WHY"
fi
run_iogauge mix "${SMALL[@]}" --iodepth 4 --numjobs 2 --output-format=json "$E" "$X"
expect_status 0 "mix JSON: exit 0"
check "mix JSON: two targets" [ "$(j '.suite.targets|length')" = 2 ]
check "mix JSON: the second target is xfs" [ "$(j .suite.targets[1].fstype)" = xfs ]
for bs in 4k 64k 512k 1m; do
	r=$(j ".suite.targets[1].cases.$bs.read.mb_s.median")
	w=$(j ".suite.targets[1].cases.$bs.write.mb_s.median")
	t=$(j ".suite.targets[1].cases.$bs.total.mb_s.median")
	if between "${r:-0}" 0.001 1e12 && awk -v r="$r" -v w="$w" -v t="$t" 'BEGIN { d = r + w - t; exit !(d < 1e-3 && d > -1e-3) }'; then
		pass "mix JSON: $bs: read $r + write $w = total $t MB/s"
	else
		fail "mix JSON: $bs: read + write = total" "read $r write $w total $t"
	fi
done
n=$(j '.jobs|length')
check "mix JSON: one job per case and target ($n)" [ "$n" = 8 ]
if ok [ "$(j .jobs[0].threads_n)" = 2 ] && ok [ -z "$(j .jobs[0].threads)" ]; then
	pass "mix JSON: 2 threads per job, reported together"
else
	fail "mix JSON: 2 threads per job, reported together" "$WHY"
fi
check "mix JSON: the job echoes iodepth 4" [ "$(j .jobs[0].options.iodepth)" = 4 ]
check "mix: rwmixread 50 gives about half reads" \
	awk -v r="$(j .jobs[0].read.ios)" -v w="$(j .jobs[0].write.ios)" 'BEGIN { exit !(r / (r + w) > 0.4 && r / (r + w) < 0.6) }'

# 2. Three targets, the middle one refused: the others are measured, exit 2.
mkloop suite_dev 64M
mkfs_ext4 "$LOOP"
h=$(content_hash "$LOOP")
run_iogauge quick "${SMALL[@]}" --output-format=json "$E" "$LOOP" "$X"
expect_status 2 "quick on dir, a device with ext4, dir: exit 2"
expect_err "refusing to write $LOOP: it carries an ext4 file system" "the refusal names the device and the reason"
check "the device is unchanged" [ "$(content_hash "$LOOP")" = "$h" ]
check "JSON: the refusal is in the device's target" grep -q "ext4 file system" <<<"$(j .suite.targets[1].refused)"
for t in 0 2; do
	v=$(j ".suite.targets[$t].cases.RND4K Q1T1 read.read.iops.median")
	check "JSON: target $t measured (RND4K Q1T1 read: $v IOPS)" between "${v:-0}" 1 1e9
done
check "JSON: the refused target has no figures" [ "$(j ".suite.targets[1].cases.RND4K Q1T1 read.read.iops")" = null ]
run_iogauge quick "${SMALL[@]}" "$E" /nonexistent "$X"
expect_status 2 "quick with a missing directory among three: exit 2"
check "text: the missing target is named as not measured" grep -q "^iogauge quick: /nonexistent: not measured" "$OUT"
check "text: two tables of figures" [ "$(grep -c '^RND4K Q1T1 ' "$OUT")" = 3 ]
check "text: the comparison shows - for the missing target" grep -Eq '^RND4K Q1T1 .*\| +- / +- ' "$OUT"

# 3. slat + clat = lat; psync has no slat.
run_iogauge run --directory="$E" --output-format=json --name=u --size=8m --rw=randread --bs=4k \
	--ioengine=io_uring --iodepth=8 --direct=1
s=$(j .jobs[0].read.slat_ns.mean)
c=$(j .jobs[0].read.clat_ns.mean)
l=$(j .jobs[0].read.lat_ns.mean)
if awk -v s="$s" -v c="$c" -v l="$l" 'BEGIN { d = s + c - l; exit !(l > 0 && d < 1000 && d > -1000) }'; then
	pass "io_uring: slat $s + clat $c = lat $l ns (within 1 us)"
else
	fail "io_uring: slat + clat = lat within 1 us" "slat $s clat $c lat $l"
fi
if ok [ "$(j .jobs[0].read.slat_ns.samples)" = 2048 ] && ok [ "$(j .jobs[0].read.lat_ns.samples)" = 2048 ]; then
	pass "io_uring: every histogram holds every request"
else
	fail "io_uring: every histogram holds every request" "$WHY"
fi
run_iogauge run --directory="$E" --output-format=json --name=p --size=8m --rw=randread --bs=4k --ioengine=psync
check "psync: no slat (as in fio)" [ "$(j .jobs[0].read.slat_ns)" = "" ]
check "psync: lat is clat" [ "$(j .jobs[0].read.lat_ns.mean)" = "$(j .jobs[0].read.clat_ns.mean)" ]
check "psync: the histogram's buckets sum to the samples" \
	awk -v n="$(j .jobs[0].read.clat_ns.samples)" -v h="$(j .jobs[0].read.clat_ns.histogram)" \
	'BEGIN { gsub(/[\[\]]/, " ", h); k = split(h, a, /[ ,]+/); s = 0; for (i = 1; i <= k; i++) if (a[i] != "") { c++; if (c % 2 == 0) s += a[i] } exit !(s == n && n == 2048) }'

# 4. --help shows each command's own defaults, from the table (a wide COLUMNS: each option's entry on one line).
COLUMNS=1000 "$IOGAUGE" quick --help >"$OUT"
check "quick --help: --size defaults to 1g" grep -Eq -- '--size=SIZE[^ ]* .*\(default: 1g\)' "$OUT"
check "quick --help: --runtime defaults to 5s" grep -Eq -- '--runtime=TIME .*\(default: 5s\)' "$OUT"
check "quick --help: no run-only option (--rw)" sh -c "! grep -q -- --rw= '$OUT'"
COLUMNS=1000 "$IOGAUGE" mix --help >"$OUT"
if ok grep -Eq -- '--size=SIZE[^ ]* .*\(default: 2g\)' "$OUT" && ok grep -Eq -- '--runtime=TIME .*\(default: 30s\)' "$OUT" &&
	ok grep -Eq -- '--iodepth=N .*\(default: 64\)' "$OUT" && ok grep -Eq -- '--numjobs=N .*\(default: 2\)' "$OUT"; then
	pass "mix --help: --size 2g, --runtime 30s, --iodepth 64, --numjobs 2"
else
	fail "mix --help: --size 2g, --runtime 30s, --iodepth 64, --numjobs 2" "$WHY"
fi
COLUMNS=1000 "$IOGAUGE" run --help >"$OUT"
check "run --help: lists every engine from the registry" grep -Eq "io_uring\|libaio\|psync\|sync\|mmap\|null\|([a-z0-9_]+\|)*auto" "$OUT"
run_iogauge run --passes=5 --name=x --size=1m
expect_status 2 "run --passes: refused (a suite option)"

# 5. Per thread, job and group agree: two jobs of two threads each in one group.
run_iogauge run --directory="$E" --output-format=json --size=4m --bs=4k --rw=randread \
	--ioengine=libaio --iodepth=2 --name=a --numjobs=2 --name=b --numjobs=2
expect_status 0 "two jobs of two threads: exit 0"
t0=$(j .jobs[0].threads[0].read.ios)
t1=$(j .jobs[0].threads[1].read.ios)
ja=$(j .jobs[0].read.ios)
jb=$(j .jobs[1].read.ios)
g=$(j .groups[0].read.ios)
check "threads add up to their job ($t0 + $t1 = $ja)" [ $((t0 + t1)) = "$ja" ]
if ok [ $((ja + jb)) = "$g" ] && ok [ "$g" = 4096 ]; then
	pass "jobs add up to their group ($ja + $jb = $g)"
else
	fail "jobs add up to their group ($ja + $jb = $g)" "$WHY"
fi
check "the group's histogram holds every request" [ "$(j .groups[0].read.clat_ns.samples)" = 4096 ]
gmax=$(j .groups[0].read.clat_ns.max)
m=$(printf '%s\n' "$(j .jobs[0].read.clat_ns.max)" "$(j .jobs[1].read.clat_ns.max)" | sort -n | tail -1)
check "the group's max is the jobs' max" [ "$gmax" = "$m" ]
check "nothing left behind" dir_empty "$E"
