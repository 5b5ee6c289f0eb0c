#!/bin/bash
# A file system that refuses O_DIRECT (ramfs): iogauge falls back to buffered
# I/O, says so on stderr, in the text header and in the JSON, times writes to
# the end of fsync and invalidates the cache before reads.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_json

dir=$(mktemp -d "$E2E_TMP/ramfs.XXXXXX")
mount -t ramfs ramfs "$dir" || skip_all "cannot mount ramfs"
E2E_MOUNTS+=("$dir")
j() { jget "$OUT" "$1" 2>/dev/null; }

run_iogauge run --directory="$dir" --output-format=json --name=w --size=8m --rw=randwrite \
	--direct=1 --ioengine=io_uring --iodepth=8
expect_status 0 "ramfs, --direct=1 write: exit 0"
expect_err "refuses O_DIRECT; using buffered I/O" "the fallback is announced on stderr"
check "JSON: buffered_fallback is true" [ "$(j .jobs[0].buffered_fallback)" = true ]
check "JSON: the target is not O_DIRECT" [ "$(j .jobs[0].targets[0].direct)" = false ]
check "JSON: writes were timed to the end of fsync" [ "$(j .jobs[0].fsync.ios)" -ge 1 ]
check "JSON: all bytes written" [ "$(j .jobs[0].write.bytes)" = $((8 << 20)) ]
check "JSON: io_mode says buffered" grep -q '"io_mode": "buffered (O_DIRECT refused)' "$OUT"

run_iogauge run --directory="$dir" --name=r --size=8m --rw=read --direct=1
expect_status 0 "ramfs, --direct=1 read: exit 0"
check "text: the I/O line says the cache was invalidated before reads" grep -q "I/O: buffered (O_DIRECT refused): cache invalidated before reads" "$OUT"
check "no test file left on ramfs" dir_empty "$dir"

run_iogauge --size 16m --runtime 0.2 --ramp_time 0 "$dir"
expect_status 0 "quick on ramfs (no free-space figure): exit 0"
check "quick header names the fallback" grep -q "buffered (the file system refuses O_DIRECT)" "$OUT"
check "quick on ramfs leaves nothing" dir_empty "$dir"
