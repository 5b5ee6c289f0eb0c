#!/bin/bash
# File operations (--fileop): create, stat, open, unlink, mkdir and rmdir of
# exactly N items in a tree of chosen fan-out, counted in the JSON and on
# disk; the directory is left empty; refusals (a directory iogauge did not
# create, too few inodes, bad options) come before any request; memory does
# not grow with the number of files.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4
need_json

mkfs_mount fops 128M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
j() { jget "$OUT" "$1" 2>/dev/null; }
T=$D/set
TREE=(--filename="$T" --files_per_dir=50 --dir_fanout=4)

# 1. create, stat (random), open, unlink: 2 threads x 1000 items each, one file set.
run_iogauge run --output-format=json --numjobs=2 --nrfiles=1000 --filesize=1k-3k "${TREE[@]}" \
	--name=c --fileop=create --name=s --stonewall --fileop=stat --file_order=random \
	--name=o --stonewall --fileop=open --name=u --stonewall --fileop=unlink
expect_status 0 "create, stat, open, unlink of 2 x 1000 files: exit 0"
check "create: 2000 operations" [ "$(j .jobs[0].create.ios)" = 2000 ]
if ok [ "$(j .jobs[1].stat.ios)" = 2000 ] && ok [ "$(j .jobs[1].prepared_items)" = 0 ]; then
	pass "stat: 2000 operations, nothing made before (the files were there)"
else
	fail "stat: 2000 operations, nothing made before (the files were there)" "$WHY"
fi
check "open: 2000 operations" [ "$(j .jobs[2].open.ios)" = 2000 ]
check "unlink: 2000 operations" [ "$(j .jobs[3].unlink.ios)" = 2000 ]
cb=$(j .jobs[0].create.bytes)
check "open read back exactly the bytes create wrote ($cb)" [ "$(j .jobs[2].open.bytes)" = "$cb" ]
check "file sizes within 1k-3k" between "$cb" $((2000 * 1024)) $((2000 * 3072))
check "create: a latency histogram with every operation" [ "$(j .jobs[0].create.clat_ns.samples)" = 2000 ]
check "create: ops/s above 0" between "$(j .jobs[0].create.iops)" 1 1e9
check "create: the CPU it took" between "$(j .jobs[0].cpu.sys_pct)" 0.0001 1e6
if ok [ "$(j .jobs[0].options.fileop)" = create ] && ok [ "$(j .jobs[0].options.nrfiles)" = 1000 ]; then
	pass "the options are echoed"
else
	fail "the options are echoed" "$WHY"
fi
check "the file set is removed: the directory is empty" dir_empty "$D"

# 2. Kept: exactly N files on disk, in leaf directories of 50 under a tree of fan-out 4.
run_iogauge run --keep --nrfiles=1000 "${TREE[@]}" --name=c --fileop=create --file_order=random
expect_status 0 "create in random order, kept: exit 0"
check "exactly 1000 files" [ "$(find "$T" -type f | wc -l)" = 1000 ]
check "at most 50 files per directory" [ "$(find "$T" -type f -printf '%h\n' | sort | uniq -c | sort -n | tail -1 | awk '{print $1}')" = 50 ]
if ok [ "$(find "$T/t0" -mindepth 3 -maxdepth 3 -type d | wc -l)" = 20 ] && ok [ -z "$(find "$T/t0" -mindepth 4 -type d)" ]; then
	pass "20 leaf directories three levels down (4^3 >= 20)"
else
	fail "20 leaf directories three levels down (4^3 >= 20)" "$WHY"
fi
check "no directory holds more than 4 subdirectories" \
	[ "$(find "$T/t0" -type d -printf '%h\n' | sort | uniq -c | sort -n | tail -1 | awk '{print $1}')" -le 4 ]
# The kept set is iogauge's (marked): a later run may use and remove it.
run_iogauge run --output-format=json --nrfiles=1000 "${TREE[@]}" --name=u --fileop=unlink
expect_status 0 "unlink the kept set: exit 0"
if ok [ "$(j .jobs[0].unlink.ios)" = 1000 ] && ok [ "$(j .jobs[0].prepared_items)" = 0 ]; then
	pass "unlink: 1000 operations, none made before"
else
	fail "unlink: 1000 operations, none made before" "$WHY"
fi
check "no file left" [ "$(find "$T" -type f | wc -l)" = 0 ]
rm -rf "$T"

# 3. Directories as items: mkdir then rmdir.
run_iogauge run --output-format=json --nrfiles=500 --filename="$T" --name=m --fileop=mkdir --name=r --stonewall --fileop=rmdir
expect_status 0 "mkdir, rmdir of 500: exit 0"
if ok [ "$(j .jobs[0].mkdir.ios)" = 500 ] && ok [ "$(j .jobs[1].rmdir.ios)" = 500 ]; then
	pass "mkdir 500, rmdir 500"
else
	fail "mkdir 500, rmdir 500" "$WHY"
fi
check "nothing left" dir_empty "$D"

# 4. stat alone: the missing files are made first, untimed, and said so.
run_iogauge run --nrfiles=300 --filename="$T" --name=s --fileop=stat
expect_status 0 "stat of a new set: exit 0"
check "the text says 300 items were made before the job" grep -q "prepared     : 300 missing items made before the job" "$OUT"
check "text: ops/s for stat" grep -Eq '^  stat: ops/s=[0-9.]+[kMG]?, ops=300' "$OUT"
check "nothing left" dir_empty "$D"

# 5. A directory iogauge did not create is refused before anything is done.
mkdir "$T" && touch "$T/precious"
run_iogauge run --nrfiles=10 --filename="$T" --name=u --fileop=unlink
expect_status 2 "unlink in a foreign directory: exit 2"
expect_err "refusing to work in $T: the directory exists and was not created by iogauge" "the refusal names the directory"
check "one line on stderr" [ "$(wc -l <"$ERR")" = 1 ]
check "its file is still there" [ -f "$T/precious" ]
run_iogauge run --allow-overwrite --nrfiles=10 --filename="$T" --name=c --fileop=create
expect_status 0 "with --allow-overwrite: exit 0"
check "the foreign directory and its file stay" [ -f "$T/precious" ]
rm -rf "$T"

# 6. Creating what exists (a kept or killed earlier set): refused before any request, one line
#    naming the set and how to clear it, exit 2; the kept set is left as it was.
run_iogauge run --keep --nrfiles=20 --filename="$T" --name=c --fileop=create
run_iogauge run --output-format=json --nrfiles=40 --filename="$T" --name=c --fileop=create
expect_status 2 "create over an earlier run's set: exit 2"
expect_err "job c: $T holds the items of an earlier run .$T/t0., which --fileop=create would make again: remove it" "the refusal names the set and the remedy"
check "one line on stderr" [ "$(wc -l <"$ERR")" = 1 ]
check "the kept set (not created by this run) is left as it was" [ "$(find "$T" -type f | wc -l)" = 20 ]
rm -rf "$T"

# 7. Too few inodes: refused before any request.
mkfs_mount fops_small 16M ext4 -N 64 || fail "a small ext4"
run_iogauge run --nrfiles=5000 --filename="$MNT/set" --name=c --fileop=create
expect_status 1 "5000 files on a file system with 64 inodes: exit 1"
expect_err "not enough free inodes in $MNT/set" "the message says inodes"
check "nothing created" [ -z "$(ls -A "$MNT" | grep -v lost+found)" ]

# 8. Bad options: one line, exit 2.
bad() {
	run_iogauge run --nrfiles=10 --filename="$T" --name=x "$@"
	if [ "$STATUS" = 2 ] && [ "$(wc -l <"$ERR")" = 1 ]; then
		pass "refused with one line: $*"
	else
		fail "refused with one line: $*" "status $STATUS, $(wc -l <"$ERR") lines"
	fi
}
bad --fileop=remove
bad --fileop=create --time_based --runtime=1
bad --fileop=unlink --loops=2
bad --fileop=stat --dir_fanout=1 --files_per_dir=10
bad --fileop=stat --dir_fanout=8
bad --fileop=create --filesize=4k-1k
bad --fileop=create --filesize=2g
bad --fileop=create --direct=1
bad --fileop=create --nrfiles=0
check "nothing left by the refusals" dir_empty "$D"

# 9. Memory does not grow with the number of files.
rss() {
	/usr/bin/time -f %M "$IOGAUGE" run --nrfiles="$1" --files_per_dir=1000 --filename="$T" \
		--name=c --fileop=create --name=u --stonewall --fileop=unlink 2>&1 >/dev/null | tail -1
}
if [ -x /usr/bin/time ]; then
	a=$(rss 2000)
	b=$(rss 40000)
	check "peak memory for 40000 files ($b KiB) within 2 MiB of 2000 files ($a KiB)" \
		[ $((b - a)) -lt 2048 ]
else
	skip "peak memory" "no /usr/bin/time"
fi
check "nothing left" dir_empty "$D"
