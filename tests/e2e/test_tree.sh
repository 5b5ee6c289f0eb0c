#!/bin/bash
# iogauge tree: seed 003's whole-tree read (tar | dd with N streams, md5 of
# every file).  On ext4, xfs and btrfs on RAM-backed loop devices, a tree
# built by --make-tree (seeded: the same seed builds the same tree) plus a
# FIFO, a device node, a socket, links in and out, odd names and a file of
# several reads: every regular file is read once per case (bytes = the sum of
# the sizes), the checksums are md5sum's, sha256sum's, xxhsum's and crc32c's
# known vector, compressed sizes are zstd's, gzip's and lzop's, nothing of
# the tree changes (not even an access time), special files are counted and
# never opened (a FIFO would hang), an unreadable file is counted and named,
# and bad options exit 2.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
PATH=/usr/bin:$PATH

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 mkfs.xfs mkfs.btrfs md5sum sha256sum zstd gzip python3 setpriv
need_json

J=$E2E_TMP/t.json
j() { jget "$J" "$1" 2>/dev/null; }

# ramfs FSTYPE SIZE: FSTYPE on a RAM-backed loop device (its image unlinked at once); sets MNT.
ramfs() {
	local img
	img=$(mktemp /dev/shm/iogauge-e2e.XXXXXX) && truncate -s "$2" "$img" && LOOP=$(losetup -f --show "$img") &&
		E2E_LOOPS+=("$LOOP") && rm -f "$img" || {
		rm -f "$img"
		return 1
	}
	case $1 in
	ext4) mkfs_ext4 "$LOOP" ;;
	xfs) mkfs.xfs -q -f "$LOOP" >/dev/null ;;
	btrfs) mkfs.btrfs -q -f "$LOOP" >/dev/null ;;
	esac && mount_tmp "$LOOP" strictatime # any read that touches an access time shows
}

# What a tree is: every entry's kind, size, mode, times (access too) and every file's md5,
# looked at without touching an access time itself (O_NOATIME; the mounts are strictatime).
snapshot() {
	python3 - "$1" <<'PY'
import hashlib, os, stat, sys
def walk(rel):
    fd = os.open(os.path.join(root, rel), os.O_RDONLY | os.O_DIRECTORY | os.O_NOATIME)
    try:
        names = sorted(e.name for e in os.scandir(fd))
    finally:
        os.close(fd)
    for n in names:
        p = os.path.join(rel, n)
        st = os.lstat(os.path.join(root, p))
        h = ""
        if stat.S_ISREG(st.st_mode):
            f = os.open(os.path.join(root, p), os.O_RDONLY | os.O_NOATIME)
            m = hashlib.md5()
            while True:
                b = os.read(f, 1 << 20)
                if not b:
                    break
                m.update(b)
            os.close(f)
            h = m.hexdigest()
        print(repr(p), st.st_mode, st.st_size, st.st_mtime_ns, st.st_atime_ns, st.st_ctime_ns, h)
        if stat.S_ISDIR(st.st_mode):
            walk(p)
root = sys.argv[1]
st = os.lstat(root)
print(st.st_mtime_ns, st.st_atime_ns)
walk("")
PY
}

sum_sizes() { find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }
nfiles() { find "$1" -type f -printf . | wc -c; }

# The compressed size each tool writes for every file of the tree, added up: one
# process for all the files (zstd -c, gzip -c and lzop -c write a frame, member or
# stream per file, each as it would alone), not one a file (that took 12 s).
tool_total() {
	local root=$1
	shift
	find "$root" -type f -print0 | xargs -0 "$@" | wc -c
}

# The same tree built twice with one seed: the same names and contents.
relative_sums() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 md5sum); }

one_fs() {
	local fs=$1 size=$2 T
	if ! ramfs "$fs" "$size"; then
		fail "$fs on a RAM-backed loop device"
		return
	fi
	mkdir "$MNT/keep" && echo precious >"$MNT/keep/mine"
	# --make-tree: a new directory in MNT, kept for the checks below.
	run_iogauge tree --make-tree --keep --tree-files=150 --tree-filesize=0-256k --tree-files-per-dir=16 \
		--tree-fanout=4 --data=compress=50 --streams=1 --quiet --json="$J" "$MNT"
	expect_status 0 "$fs: --make-tree builds and reads a tree"
	T=$(j .tree.targets[0].tree.root)
	check "$fs: the built tree is a new directory in the path" test -d "$T" -a "$(dirname "$T")" = "$MNT"
	check "$fs: 150 files built" test "$(nfiles "$T")" = 150
	check "$fs: the build's bytes are the tree's" test "$(j .tree.targets[0].built.bytes)" = "$(sum_sizes "$T")"
	check "$fs: nothing else in the path was touched" test "$(cat "$MNT/keep/mine")" = precious

	# What a real tree holds besides files: never opened, counted.
	mkfifo "$T/d0/fifo" && mknod "$T/d1/null" c 1 3 &&
		python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$T/sock" &&
		ln -s /etc "$T/etc-outside" && ln -s "$(cd "$T" && find . -type f | head -1)" "$T/link-inside" &&
		ln -s loop-b "$T/loop-a" && ln -s loop-a "$T/loop-b" && ln -s .. "$T/d0/up" &&
		printf 123456789 >"$T/crc-vector" && : >"$T/empty" && head -c 1000000 /dev/urandom >"$T/several-reads" &&
		printf x >"$T/back\\slash" && printf y >"$T/new
line" || fail "$fs: special files made"
	sync
	snapshot "$T" >"$E2E_TMP/before"

	run_iogauge tree --streams=1,3 --buffer=256k --hash=md5 --hash-out="$E2E_TMP/sums.md5" --json="$J" "$T"
	expect_status 0 "$fs: tree with a FIFO, a device and a socket inside ends (nothing hangs)"
	# Before md5sum -c below reads the files (and sets their access times).
	snapshot "$T" >"$E2E_TMP/after"
	check "$fs: nothing in the tree changed (contents, sizes, modes, times, access times)" \
		cmp -s "$E2E_TMP/before" "$E2E_TMP/after"
	local bytes files
	bytes=$(sum_sizes "$T")
	files=$(nfiles "$T")
	check "$fs: 1 stream read every byte once" test "$(j .tree.targets[0].steps[0].bytes)" = "$bytes"
	check "$fs: 3 streams read every byte once" test "$(j .tree.targets[0].steps[1].bytes)" = "$bytes"
	check "$fs: every file read" test "$(j .tree.targets[0].steps[1].files)" = "$files"
	check "$fs: the runner's read bytes are the tree's" test "$(j '.jobs[1].read.bytes')" = "$bytes"
	check "$fs: FIFO, device, socket, 5 links (2 a loop, 1 up) counted" test "$(j .tree.targets[0].tree.fifos) $(j .tree.targets[0].tree.chardevs) $(j .tree.targets[0].tree.sockets) $(j .tree.targets[0].tree.symlinks)" = "1 1 1 5"
	check "$fs: md5sum -c checks every line" md5sum --quiet -c "$E2E_TMP/sums.md5"
	check "$fs: a line per file (a newline in a name escaped, as md5sum does)" \
		test "$(grep -c '^' "$E2E_TMP/sums.md5")" = "$files"
	TREE=$T
}

# The other checksums are the tools' own (on one file system: a checksum does not depend on it).
other_hashes() {
	local fs=$1 T=$2
	snapshot "$T" >"$E2E_TMP/before"
	run_iogauge tree --streams=2 --hash=sha256 --hash-out="$E2E_TMP/sums.sha" --quiet "$T"
	snapshot "$T" >"$E2E_TMP/after"
	check "$fs: still nothing changed (--hash=sha256, 2 streams)" cmp -s "$E2E_TMP/before" "$E2E_TMP/after"
	check "$fs: sha256sum -c checks --hash=sha256" sha256sum --quiet -c "$E2E_TMP/sums.sha"
	if command -v xxhsum >/dev/null; then
		run_iogauge tree --streams=2 --hash=xxhash --hash-out="$E2E_TMP/sums.xxh" --quiet "$T"
		# xxhsum 0.8 writes names as they are (a newline in one breaks its own -c): its very lines.
		(find "$T" -type f -print0 | xargs -0 xxhsum 2>/dev/null) | sort >"$E2E_TMP/xxhsum.out"
		check "$fs: --hash=xxhash writes xxhsum's lines" cmp -s "$E2E_TMP/xxhsum.out" <(sort "$E2E_TMP/sums.xxh")
	fi
	run_iogauge tree --streams=1 --hash=crc32c --hash-out="$E2E_TMP/sums.crc" --quiet "$T"
	check "$fs: crc32c of 123456789 is e3069283" grep -qx "e3069283  $T/crc-vector" "$E2E_TMP/sums.crc"
}

one_fs ext4 160M
EXT4_TREE=$TREE
EXT4_MNT=$MNT
one_fs xfs 320M
one_fs btrfs 160M
T=$EXT4_TREE
other_hashes ext4 "$T"

# The compressed sizes are the tools' own for the same files (zstd and lzop to the byte).
run_iogauge tree --streams=2 --compress=zstd --json="$J" --quiet "$T"
z=$(tool_total "$T" zstd -q -c)
check "zstd: the output is zstd -c's, file by file ($(j .tree.targets[0].steps[0].passes[0].compress_out) vs $z)" \
	test "$(j .tree.targets[0].steps[0].passes[0].compress_out)" = "$z"
r=$(j .tree.targets[0].steps[0].compress_ratio)
check "zstd: --data=compress=50 halves the built files (ratio $r)" between "$r" 1.3 2.5
run_iogauge tree --streams=1 --compress=zlib --compress-level=6 --json="$J" --quiet "$T"
g=$(tool_total "$T" gzip -6 -c)
check "zlib: the output is within 1% of gzip -c's" within_pct "$(j .tree.targets[0].steps[0].passes[0].compress_out)" "$g" 1
if command -v lzop >/dev/null; then
	run_iogauge tree --streams=1 --compress=lzo --json="$J" --quiet "$T"
	l=$(tool_total "$T" lzop -c)
	check "lzo: the output is lzop -c's" test "$(j .tree.targets[0].steps[0].passes[0].compress_out)" = "$l"
fi
check "compression read the whole tree" test "$(j .tree.targets[0].steps[0].passes[0].compress_in)" = "$(sum_sizes "$T")"

# SIGINT mid-run (gzip -9 keeps the 25 cases busy, 20 passes so that an idle machine is still at it after 0.7 s): what was measured, status 130, the tree as it was.
before=$(snapshot "$T")
start_iogauge tree --streams=1..25 --passes=20 --compress=zlib --compress-level=9 --json="$J" "$T"
sleep 0.7
signal_bg INT 10
check "SIGINT: exit status 130" test "$STATUS" = 130
check "SIGINT: the table and the interruption printed" grep -q "^Interrupted" "$OUT"
check "SIGINT: the JSON says interrupted, status 130" test "$(j .interrupted) $(j .status)" = "true 130"
check "SIGINT: nothing in the tree changed" test "$(snapshot "$T")" = "$before"
# And while --make-tree builds: its tree removed.
mkdir "$E2E_TMP/int"
start_iogauge tree --make-tree --tree-files=100000 --tree-filesize=4k --streams=1 "$E2E_TMP/int"
sleep 0.5
signal_bg INT 10
check "SIGINT while building: status 130, the tree removed" test "$STATUS $(ls -A "$E2E_TMP/int")" = "130 "

# The page cache: dropped before each case (nothing resident), or kept and said.
run_iogauge tree --streams=1 --json="$J" "$T"
check "every file's pages dropped before the case" test "$(j .tree.targets[0].steps[0].resident_before)" = 0
run_iogauge tree --streams=1,2 --keep-cache --json="$J" "$T"
check "--keep-cache: the second case read cached pages" test "$(j .tree.targets[0].steps[1].resident_before)" != 0
check "--keep-cache: the table says CACHED" grep -q CACHED "$OUT"
# Cold means from the device: each case's drop really empties the cache, so the process's
# read_bytes (/proc/self/io, what reached the block layer) is every case's bytes (pages: files
# rounded up to 4 KiB, plus a little metadata), not 0 for a second case served from memory.
# (bench/vs-tree.sh compares iogauge with tar | dd on the same footing.)
sync
disk=$(python3 - "$IOGAUGE" "$T" "$J" <<'PY'
import subprocess, sys
def rb():
    return int([l for l in open("/proc/self/io") if l.startswith("read_bytes")][0].split()[1])
a = rb()
subprocess.run([sys.argv[1], "tree", "--streams=1,2", "--quiet", "--json=" + sys.argv[3], sys.argv[2]],
               stdout=subprocess.DEVNULL, timeout=120)
print(rb() - a)
PY
)
tb=$(j .tree.targets[0].tree.bytes)
pages=$(find "$T" -type f -printf '%s\n' | awk '{ p += int(($1 + 4095) / 4096) * 4096 } END { print p }')
check "cold: both cases read the tree's bytes from the device ($disk read, $tb in files, $pages in pages, x2)" \
	awk -v d="$disk" -v b="$tb" -v p="$pages" 'BEGIN { exit !(d >= 2 * b && d <= 2 * p + 4194304) }'

# A reader without the right: the file is counted and named, the rest read.
chmod 755 "$E2E_TMP" "$EXT4_MNT"
mkdir -m 1777 "$E2E_TMP/pub"
f=crc-vector
chmod 600 "$T/$f"
mkdir -m 700 "$T/secret" && echo s >"$T/secret/f"
: >"$ERR"
timeout -k 5 60 setpriv --reuid=65534 --regid=65534 --clear-groups "$IOGAUGE" tree --streams=1 \
	--json="$E2E_TMP/pub/t.json" "$T" >"$OUT" 2>"$ERR"
STATUS=$?
mv "$E2E_TMP/pub/t.json" "$J"
expect_status 0 "an unreadable file is no error"
check "the unreadable file is counted" test "$(j .tree.targets[0].steps[0].passes[0].unreadable)" = 1
check "and named" test "$(j .tree.targets[0].steps[0].passes[0].first_unreadable)" = "$T/$f"
check "an unreadable directory is counted and named" \
	test "$(j .tree.targets[0].tree.unreadable) $(j .tree.targets[0].tree.first_unreadable)" = "1 $T/secret"
chmod 644 "$T/$f"
rm -r "$T/secret"

# The check above can fail: reading a file with cat changes its access time.
before=$(snapshot "$T")
cat "$T/$f" >/dev/null
check "the snapshot sees a read (the tree checks can fail)" test "$(snapshot "$T")" != "$before"

# --make-tree: reproducible, removed without --keep, never in the way of what is there.
mkdir "$E2E_TMP/a" "$E2E_TMP/b"
for d in a b; do
	run_iogauge tree --make-tree --keep --tree-files=40 --tree-seed=9 --streams=1 --quiet --json="$J" "$E2E_TMP/$d"
	eval "R_$d=\$(j .tree.targets[0].tree.root)"
done
# shellcheck disable=SC2154 # set by the eval above
check "--make-tree: the same seed builds the same tree" test "$(relative_sums "$R_a")" = "$(relative_sums "$R_b")"
run_iogauge tree --make-tree --tree-files=40 --tree-seed=10 --streams=1 --quiet --json="$J" "$E2E_TMP/b"
expect_status 0 "--make-tree without --keep"
check "--make-tree: without --keep the tree is removed" test "$(ls "$E2E_TMP/b")" = "$(basename "$R_b")"

# Bad options and targets: exit 2, one line naming what is wrong.
bad() {
	run_iogauge tree --quiet "$@"
	expect_status 2 "tree $* exits 2"
}
bad --streams=0 "$T"
bad --streams=3,2 "$T"
bad --streams=1..300 "$T"
bad --hash=foo "$T"
expect_err "--hash" "a bad --hash is named"
bad --compress=bar "$T"
bad --hash-out="$E2E_TMP/x" "$T"
expect_err "--hash-out" "--hash-out without --hash is named"
mkfifo "$E2E_TMP/fifo"
bad --hash=md5 --hash-out="$E2E_TMP/fifo" "$T"
expect_err "--hash-out .*FIFO" "--hash-out to a FIFO is refused before the run (never a hang)"
bad --compress=zlib --compress-level=10 "$T"
bad --compress-level=3 "$T"
bad --verify=md5 "$T"
bad --make-tree --tree-fanout=1 "$E2E_TMP"
bad "$T/empty"
expect_err "not a directory" "a file is not a tree"
bad "$E2E_TMP/no-such-dir"
bad /dev/null
expect_err "not a directory; tree reads the files below a directory" "a device is not a tree"
check "no report file left behind" test ! -e "$E2E_TMP/x"
