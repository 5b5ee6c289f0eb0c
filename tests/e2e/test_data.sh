#!/bin/bash
# Written data (--data and fio's buffer options): random blocks that no
# compressor (zstd --long, zstd -19, gzip) shrinks and no two of which are
# the same, also with several requests in flight, several threads and large
# blocks; zeros and patterns; compress=N shrinks by about N%; dedupe=N
# repeats about N% of the blocks; the JSON and the text header say which.
# On btrfs mounted with compress=zstd, zero data and random data differ in
# the bytes that reach the device, and iogauge's output says so.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd zstd gzip awk gcc
need_json
BLKUNIQ=$E2E_TMP/blkuniq
gcc -O2 -o "$BLKUNIQ" "$E2E_ROOT/tests/e2e/blkuniq.c" || skip_all "cannot build tests/e2e/blkuniq.c"

cd "$E2E_ROOT" || exit 1
W=$E2E_TMP/w
mkdir "$W" || exit 1

# size_of FILE, zstd_of FILE, gzip_of FILE, uniq_of FILES...: bytes and distinct 4 KiB blocks.
size_of() { stat -c %s "$1"; }
zstd_of() { zstd -q -3 --long=27 -c "$1" | wc -c; }
gzip_of() { gzip -6 -c "$1" | wc -c; }
uniq_of() { "$BLKUNIQ" "$@" | cut -d' ' -f1; }

# write_data NAME DATA [ARGS...]: a 4 MiB file written with DATA (kept), in $F.
write_data() {
	local name=$1 data=$2
	shift 2
	F=$W/$name
	rm -f "$F"*
	run_iogauge run --name="$name" --filename="$F" --size=4m --bs=4k --rw=write --ioengine=io_uring \
		--iodepth=8 --data="$data" --keep --output-format=json "$@"
	expect_status 0 "--data=$data: exit status 0"
}

# random: incompressible, every block distinct, also across passes and with requests in flight.
write_data rand random --loops=1
n=$(size_of "$F")
z=$(zstd_of "$F")
g=$(gzip_of "$F")
check "random: zstd --long keeps $z of $n bytes (>= 99.9%)" awk -v z="$z" -v n="$n" 'BEGIN{exit !(z >= n * 0.999)}'
check "random: gzip keeps $g of $n bytes (>= 99.9%)" awk -v z="$g" -v n="$n" 'BEGIN{exit !(z >= n * 0.999)}'
u=$(uniq_of "$F")
check "random: all $((n / 4096)) blocks distinct ($u)" [ "$u" -eq $((n / 4096)) ]
check "random: JSON options.data is random" [ "$(jget "$OUT" .jobs[0].options.data)" = random ]

# Two threads, each its own file: no block of one is a block of the other.
rm -f "$W"/two*
run_iogauge run --name=two --directory="$W" --size=2m --bs=4k --rw=randwrite --numjobs=2 --keep
expect_status 0 "random, 2 threads: exit status 0"
u=$(uniq_of "$W"/two.*)
check "random, 2 threads: all 1024 blocks of both files distinct ($u)" [ "$u" -eq 1024 ]
check "random: the text header shows data=random" grep -q "data=random" "$OUT"

# Large blocks (their buffers written with streaming stores), two threads, requests in flight:
# every 4 KiB block of both files distinct, and zstd -19 finds nothing to take out of them.
rm -f "$W"/big*
run_iogauge run --name=big --directory="$W" --size=4m --bs=1m --rw=write --ioengine=io_uring --iodepth=4 \
	--numjobs=2 --keep
expect_status 0 "random, 1 MiB blocks, 2 threads: exit status 0"
u=$(uniq_of "$W"/big.*)
check "random, 1 MiB blocks, 2 threads: all 2048 blocks of both files distinct ($u)" [ "$u" -eq 2048 ]
n=$(cat "$W"/big.* | wc -c)
z=$(cat "$W"/big.* | zstd -q -19 -c | wc -c)
check "random, 1 MiB blocks: zstd -19 keeps $z of $n bytes (no gain)" [ "$z" -ge "$n" ]
rm -f "$W"/big*
run_iogauge run --name=big --filename="$W/big" --size=4m --bs=512k --rw=randwrite --ioengine=io_uring --iodepth=8 \
	--loops=2 --keep
expect_status 0 "random, 512 KiB blocks, 2 loops: exit status 0"
u=$(uniq_of "$W/big")
z=$(zstd -q -19 -c "$W/big" | wc -c)
if ok [ "$u" -eq 1024 ] && ok [ "$z" -ge 4194304 ]; then
	pass "random, 512 KiB blocks: 1024 distinct blocks ($u), zstd -19 keeps $z bytes"
else
	fail "random, 512 KiB blocks: 1024 distinct blocks ($u), zstd -19 keeps $z bytes" "$WHY"
fi
rm -f "$W"/big*

write_data zero zero
z=$(zstd_of "$F")
check "zero: zstd leaves $z bytes (< 1%)" [ "$z" -lt 41943 ]
check "zero: JSON options.data is zero" [ "$(jget "$OUT" .jobs[0].options.data)" = zero ]

write_data pat pattern=0xdeadbeef
check "pattern: the file is the pattern" \
	[ "$(od -A n -t x1 -N 8 -j 4096 "$F" | tr -d ' ')" = deadbeefdeadbeef ]
check "pattern: JSON options.data" [ "$(jget "$OUT" .jobs[0].options.data)" = pattern=0xdeadbeef ]

for pct in 25 50 75; do
	write_data comp$pct compress=$pct
	n=$(size_of "$F")
	z=$(zstd_of "$F")
	g=$(gzip_of "$F")
	check "compress=$pct: zstd shrinks by about $pct% (keeps $z of $n)" \
		awk -v z="$z" -v n="$n" -v p="$pct" 'BEGIN{k = 100 - p; exit !(z >= n * (k - 6) / 100 && z <= n * (k + 6) / 100)}'
	check "compress=$pct: gzip shrinks by about $pct% (keeps $g of $n)" \
		awk -v z="$g" -v n="$n" -v p="$pct" 'BEGIN{k = 100 - p; exit !(z >= n * (k - 6) / 100 && z <= n * (k + 8) / 100)}'
	u=$(uniq_of "$F")
	check "compress=$pct: still no two blocks alike ($u)" [ "$u" -eq $((n / 4096)) ]
done

write_data dedup dedupe=50
u=$(uniq_of "$F")
if ok [ "$u" -ge 430 ] && ok [ "$u" -le 594 ]; then
	pass "dedupe=50: about half the 1024 blocks repeat ($u distinct)"
else
	fail "dedupe=50: about half the 1024 blocks repeat ($u distinct)" "$WHY"
fi
z=$(zstd_of "$F")
check "dedupe=50: zstd --long finds the repeats ($z of 4 MiB)" [ "$z" -lt 2516582 ]

# fio's names on run.
write_data fio random --buffer_compress_percentage=40 --dedupe_percentage=10
check "buffer_compress_percentage + dedupe_percentage: JSON options.data" \
	[ "$(jget "$OUT" .jobs[0].options.data)" = compress=40,dedupe=10 ]
write_data fz random --zero_buffers
check "zero_buffers: JSON options.data is zero" [ "$(jget "$OUT" .jobs[0].options.data)" = zero ]
write_data fp random --buffer_pattern=\"ab\"
check "buffer_pattern=\"ab\": the file is abab..." [ "$(head -c 4 "$F")" = abab ]
run_iogauge run --name=x --data=nonsense
expect_status 2 "--data=nonsense: exit status 2"
expect_err "^iogauge: --data: 'nonsense' is not allowed" "--data=nonsense: one line naming --data"

# A mixed job reads into the same buffers it writes from: zeros must stay zeros.
F=$W/mixed
run_iogauge run --name=m --filename="$F" --size=2m --bs=4k --rw=randrw --data=zero --keep \
	--ioengine=io_uring --iodepth=4 --loops=3
expect_status 0 "randrw --data=zero: exit status 0"
check "randrw --data=zero: the file holds only zeros" cmp -s "$F" <(head -c 2097152 /dev/zero)

# Suites take --data too, and say it in their header.
run_iogauge mix "$W" --data=compress=50 --size=8m --runtime=1 --ramp_time=0 --direct=0
expect_status 0 "mix --data=compress=50: exit status 0"
check "mix: the header says compress=50 data" grep -q "compress=50 data" "$OUT"

# btrfs with compress=zstd: what reaches the device depends on the data.
if ! command -v mkfs.btrfs >/dev/null 2>&1 ||
	{ ! grep -qw btrfs /proc/filesystems && ! modprobe btrfs 2>/dev/null; }; then
	skip "btrfs compress=zstd" "no btrfs here"
	exit 0
fi
mkloop bz 512M || exit 1
mkfs.btrfs -q -f "$LOOP" >/dev/null 2>&1 || { fail "mkfs.btrfs"; exit 1; }
mount_tmp "$LOOP" compress=zstd || { fail "mount -o compress=zstd"; exit 1; }
B=$MNT
declare -A DEVW REQW
for d in zero random; do
	run_iogauge run --name=c --directory="$B" --size=64m --bs=64k --rw=write --data=$d \
		--end_fsync=1 --json="$E2E_TMP/c-$d.json"
	expect_status 0 "btrfs compress=zstd, --data=$d: exit status 0"
	DEVW[$d]=$(jget "$E2E_TMP/c-$d.json" .devices[0].write_bytes)
	REQW[$d]=$(jget "$E2E_TMP/c-$d.json" .jobs[0].write.bytes)
	cp "$OUT" "$E2E_TMP/c-$d.out"
	check "btrfs: the test file is gone after --data=$d" dir_empty "$B"
done
check "btrfs: zero data: ${DEVW[zero]} of ${REQW[zero]} bytes reached the device (< 10%)" \
	awk -v d="${DEVW[zero]}" -v r="${REQW[zero]}" 'BEGIN{exit !(r > 0 && d < r / 10)}'
check "btrfs: random data: ${DEVW[random]} of ${REQW[random]} bytes reached the device (>= 95%)" \
	awk -v d="${DEVW[random]}" -v r="${REQW[random]}" 'BEGIN{exit !(r > 0 && d >= r * 0.95)}'
check "btrfs: the zero run says the data compresses and btrfs stores it compressed" \
	grep -q "the data (zero) compresses, and btrfs stores it compressed (compress=zstd" "$E2E_TMP/c-zero.out"
check "btrfs: the random run says random data does not shrink" \
	grep -q "btrfs compresses new data (compress=zstd.*), but random data does not shrink" "$E2E_TMP/c-random.out"
check "btrfs: JSON targets[0].fs_compress names zstd" \
	grep -q zstd <<<"$(jget "$E2E_TMP/c-zero.json" .jobs[0].targets[0].fs_compress)"
