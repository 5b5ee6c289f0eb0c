#!/bin/bash
# Seen from the device: one pass of random writes touches every block exactly
# once (the permutation), while --norandommap repeats some and misses others;
# a random distribution concentrates on few blocks.  (The default engine's
# fallback to libaio: test_uring_off.sh, which runs alone.)
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need_iogauge
need_loop
need_cmd od
need_json

# zero_blocks DEV: how many 4 KiB blocks of DEV are all zeros.
zero_blocks() {
	dd if="$1" bs=1M iflag=direct status=none | od -An -v -tx1 -w4096 | grep -c '^\( 00\)*$'
}

BLOCKS=2048 # 8 MiB of 4 KiB blocks
for map in randommap norandommap; do
	mkloop "cov-$map" $((BLOCKS * 4096)) || exit 1
	extra=()
	[ "$map" = norandommap ] && extra=(--norandommap)
	run_iogauge run --name=c --filename="$LOOP" --rw=randwrite --bs=4k --direct=1 \
		--ioengine=io_uring --iodepth=8 --output-format=json "${extra[@]}"
	expect_status 0 "$map: one pass of 4k random writes over a blank device"
	check "$map: exactly $BLOCKS writes" [ "$(jget "$OUT" .jobs[0].write.ios)" = "$BLOCKS" ]
	zeros=$(zero_blocks "$LOOP")
	if [ "$map" = randommap ]; then
		check "one pass touches every block exactly once (zero blocks left: $zeros)" [ "$zeros" -eq 0 ]
	else
		# Independent draws miss about 1/e of the blocks.
		check "norandommap repeats blocks (zero blocks left: $zeros, about $((BLOCKS * 37 / 100)) expected)" \
			between "$zeros" $((BLOCKS * 30 / 100)) $((BLOCKS * 44 / 100))
	fi
done

mkloop cov-zipf $((BLOCKS * 4096)) || exit 1
run_iogauge run --name=z --filename="$LOOP" --rw=randwrite --bs=4k --direct=1 \
	--random_distribution=zipf:1.2 --output-format=json
zeros=$(zero_blocks "$LOOP")
check "zipf:1.2 writes concentrate on few blocks (untouched: $zeros of $BLOCKS)" [ "$zeros" -gt $((BLOCKS * 60 / 100)) ]
