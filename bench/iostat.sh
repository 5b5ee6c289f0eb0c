#!/bin/bash
# bench/iostat.sh [DEVICE] [SECONDS]: iogauge's iostat -x columns beside sysstat's iostat over the
# same seconds.  Each workload runs SECONDS + 2 s; `iostat -x -d -m -y DEV SECONDS 1` measures
# from its second 1 to SECONDS + 1, and iogauge's per-second device samples of those seconds
# (JSON devices[].series) are averaged over the same window.  The two read the same kernel
# counters with the same formulas, so they differ only by where the windows fall (a few ms).
#
# Without DEVICE: a 256 MiB RAM-backed loop device of its own (/dev/shm), detached at the end.
# A DEVICE given is written (randrw, seqwrite): never one holding data you want.
set -u
cd "$(dirname "$0")/.." || exit 1
IOGAUGE=${IOGAUGE:-$PWD/iogauge}
SECS=${2:-4}
command -v iostat >/dev/null || { echo "bench/iostat.sh: iostat not installed (scripts/deps.sh installs sysstat)" >&2; exit 1; }
[ -x "$IOGAUGE" ] || { echo "bench/iostat.sh: no $IOGAUGE (make iogauge)" >&2; exit 1; }
TMP=$(mktemp -d) || exit 1
LOOP=
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	rm -f "$TMP/img"
	rm -rf "$TMP"
}
trap cleanup EXIT
if [ $# -ge 1 ]; then
	DEVPATH=$1
else
	IMG=$(mktemp /dev/shm/iogauge-bench.XXXXXX) && truncate -s 256M "$IMG" && LOOP=$(losetup -f --show "$IMG") &&
		rm -f "$IMG" || exit 1
	DEVPATH=$LOOP
fi
DEV=$(basename "$(readlink -f "$DEVPATH")")

# col FILE NAME: column NAME of DEV's row in iostat's output.
col() {
	awk -v dev="$DEV" -v c="$2" '$1 == "Device" { for (i = 1; i <= NF; i++) ix[$i] = i }
		$1 == dev && (c in ix) { v = $ix[c] } END { print v }' "$1"
}

# mine JSON KEY: iogauge's per-second KEY over the samples ending in (1.5, SECS+1.5] s, put back
# together as the counts over that window would give it: awaits weighted by requests, the rest by time.
mine() {
	python3 - "$1" "$2" "$DEV" "$SECS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
key, dev, secs = sys.argv[2], sys.argv[3], float(sys.argv[4])
ser = next(x for x in d["devices"] if x["name"] == dev)["series"]
pts = [p for p in ser if 1.5e9 < p["t_ns"] <= (secs + 1.5) * 1e9]
w = {"r_await_ms": "r_s", "w_await_ms": "w_s"}
weight = [p["span_ns"] * (p[w[key]] if key in w else 1) for p in pts]
print("%.2f" % (sum(p[key] * x for p, x in zip(pts, weight)) / sum(weight) if sum(weight) else 0))
PY
}

printf "%-28s %-8s %10s %10s %8s\n" workload column iostat iogauge diff
for w in "randread 4k QD16:--rw=randread --bs=4k --iodepth=16 --ioengine=libaio" \
	"seqwrite 1M QD4:--rw=write --bs=1m --iodepth=4 --ioengine=libaio" \
	"randrw 64k QD1:--rw=randrw --bs=64k"; do
	name=${w%%:*}
	# shellcheck disable=SC2086 # the workload's options, split on purpose
	"$IOGAUGE" run --name=b --filename="$DEVPATH" --direct=1 --size=128m --time_based=1 \
		--runtime=$((SECS + 2)) ${w#*:} --json="$TMP/run.json" >/dev/null 2>"$TMP/err" &
	pid=$!
	sleep 1
	iostat -x -d -m -y "$DEV" "$SECS" 1 >"$TMP/iostat.out"
	wait $pid || { echo "iogauge failed: $(head -n 3 "$TMP/err")" >&2; exit 1; }
	for c in r/s w/s rMB/s wMB/s r_await w_await aqu-sz %util; do
		case $c in
		r_await | w_await) key=${c}_ms ;; aqu-sz) key=aqu_sz ;; %util) key=util_pct ;; *) key=${c/\//_} ;;
		esac
		a=$(col "$TMP/iostat.out" "$c")
		b=$(mine "$TMP/run.json" "$key")
		printf "%-28s %-8s %10s %10s %8s\n" "$name" "$c" "$a" "$b" \
			"$(awk -v a="$a" -v b="$b" 'BEGIN { if (a + 0 == 0) print "-"; else printf "%+.1f%%", (b - a) * 100 / a }')"
	done
done
