#!/bin/bash
# Files the user names for results (issue 16): every output option of every
# command (--json, --output, --html, report -o, sweep -b, matrix's NAME_*
# files, fio's logs) refuses a block device, also through a symlink, and a
# FIFO, before anything is measured: one line, exit 2, the device unchanged,
# no hang.  Saved results read back (compare, report) must be regular files.
# /dev/null and the process's own stdout remain allowed.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 mkfifo xxh128sum timeout

# The victim: ext4 on a loop device, mounted (idle: nothing is written behind our back).
mkloop victim 32M || exit 1
V=$LOOP
mkfs_ext4 "$V"
mount_tmp "$V" || {
	fail "mount the victim"
	exit 1
}
sync
VH=$(content_hash "$V")
D=$E2E_TMP/work
mkdir "$D" || exit 1
ln -s "$V" "$E2E_TMP/link"
L=$E2E_TMP/link
mkfifo "$E2E_TMP/fifo"
F=$E2E_TMP/fifo
R=$E2E_TMP/r.json
run_iogauge run --name=a --directory="$D" --size=1m --rw=write --json="$R"
expect_status 0 "a saved result to read back: exit 0"

# refused NAME PATTERN ARGS...: exit 2 at once with one line matching PATTERN,
# nothing measured (stdout empty, no test file left), the victim unchanged.
refused() {
	local name=$1 pat=$2 t0 ms
	shift 2
	t0=$(date +%s%N)
	run_iogauge "$@"
	ms=$((($(date +%s%N) - t0) / 1000000))
	expect_status 2 "$name: exit 2"
	expect_err "$pat" "$name: the message names the option, the path and why"
	check "$name: one line on stderr" [ "$(grep -c . "$ERR")" = 1 ]
	check "$name: nothing measured (stdout empty)" [ ! -s "$OUT" ]
	check "$name: at once ($ms ms)" [ "$ms" -lt 3000 ]
	check "$name: the device is unchanged" [ "$(content_hash "$V")" = "$VH" ]
}

BLK="a block device, refused: an output file must be a regular file or a new path"
RUN=(run --name=a --directory="$D" --size=1m --rw=write)
refused "run --json=DEVICE" "--json $V: $BLK" "${RUN[@]}" --json="$V"
refused "run --output=DEVICE" "--output $V: $BLK" "${RUN[@]}" --output="$V"
refused "run --html=DEVICE" "--html $V: $BLK" "${RUN[@]}" --html="$V"
refused "run --json=SYMLINK to a device" "--json $L -> $V: $BLK" "${RUN[@]}" --json="$L"
refused "report -o DEVICE" "-o $V: $BLK" report "$R" -o "$V"
refused "report -o SYMLINK to a device" "-o $L -> $V: $BLK" report "$R" -o "$L"
refused "compare --output=DEVICE" "--output $V: $BLK" compare "$R" "$R" --output="$V"
refused "quick --json=DEVICE" "--json $V: $BLK" quick --size=1m --runtime=0.1 --json="$V" "$D"
refused "dd --json=DEVICE" "--json $V: $BLK" dd if=/dev/zero of="$D/dd" bs=4k count=1 --json="$V"
refused "sweep -b DEVICE" "-b $V: $BLK" sweep -s 64k -r 64k -i 0 -R -b "$V" "$D"
refused "sweep -b SYMLINK to a device" "-b $L -> $V: $BLK" sweep -s 64k -r 64k -i 0 -R -b "$L" "$D"
ln -s "$V" "$E2E_TMP/orion_iops.csv"
refused "matrix: NAME_iops.csv a symlink to a device" "--testname $E2E_TMP/orion_iops.csv -> $V: $BLK" \
	matrix --run simple --duration 0.1 --size 4m --testname "$E2E_TMP/orion" "$D"
ln -s "$V" "$E2E_TMP/log_bw.2.log"
refused "run: write_bw_log's file a symlink to a device" "--write_bw_log $E2E_TMP/log_bw.2.log -> $V: $BLK" \
	"${RUN[@]}" --numjobs=2 --write_bw_log="$E2E_TMP/log"
check "nothing left in the work directory" dir_empty "$D"

# FIFOs: the open used to wait for a reader (or a writer) for ever.
FIFO="a FIFO, refused"
refused "run --json=FIFO" "--json $F: $FIFO" "${RUN[@]}" --json="$F"
refused "report -o FIFO" "-o $F: $FIFO" report "$R" -o "$F"
refused "sweep -b FIFO" "-b $F: $FIFO" sweep -s 64k -r 64k -i 0 -R -b "$F" "$D"
refused "compare A FIFO" "result $F: $FIFO: only a regular file is read" compare "$R" "$F"
refused "report FIFO" "result $F: $FIFO: only a regular file is read" report "$F" -o "$E2E_TMP/x.html"
refused "compare A DEVICE" "result $V: a block device, refused" compare "$R" "$V"
check "report refused: no page written" [ ! -e "$E2E_TMP/x.html" ]

# What stays allowed: /dev/null (fio users' --output=/dev/null), /dev/stdout into a pipe.
run_iogauge "${RUN[@]}" --output=/dev/null
expect_status 0 "run --output=/dev/null: exit 0"
: >"$ERR"
timeout -k 5 60 "$IOGAUGE" "${RUN[@]}" --output=/dev/null --json=/dev/stdout 2>"$ERR" | cat >"$E2E_TMP/piped.json"
check "run --json=/dev/stdout into a pipe: exit 0" [ "${PIPESTATUS[0]}" = 0 ]
check "run --json=/dev/stdout into a pipe: the JSON came through" grep -q '"command": "run"' "$E2E_TMP/piped.json"
check "the device is unchanged at the end" [ "$(content_hash "$V")" = "$VH" ]
