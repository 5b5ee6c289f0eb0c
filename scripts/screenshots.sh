#!/bin/bash
# screenshots.sh [DIR]  (make screenshots)
#
# Makes the README's pictures from real runs: `iogauge quick` and
# `iogauge scale` on a scratch test file in DIR (default build/screenshots,
# on the disk the checkout is on: not tmpfs, where O_DIRECT falls back to
# buffered), each with --html, and each page opened in headless Chromium
# (scripts/render-html.sh: no network) for a PNG of its top part:
#   docs/screenshot-quick.png   docs/screenshot-scale.png
# Short settings (16 MiB files, well under a second a test), so a run takes
# about a minute; the figures are of whatever disk DIR is on, this machine's.
# The test files are removed by iogauge; DIR keeps the JSON, HTML and the
# renders.  Needs chromium and libjs-chart.js, and optipng for small PNGs
# (scripts/deps.sh).
set -eu
cd "$(dirname "$0")/.."
dir=${1:-build/screenshots}
mkdir -p "$dir"
dir=$(readlink -f "$dir")
ig=$(readlink -f "${IOGAUGE:-./iogauge}")
[ -x "$ig" ] || {
	echo "screenshots.sh: no $ig (run make first)" >&2
	exit 1
}
command -v chromium >/dev/null || {
	echo "screenshots.sh: chromium is not installed (scripts/deps.sh)" >&2
	exit 1
}

# shot NAME WIDTH HEIGHT: renders DIR/NAME.html into docs/screenshot-NAME.png,
# refusing a page that wrote to the console or a PNG of 200 KB or more
# (after optipng).
shot() {
	local name=$1 png=$dir/$1.png out=docs/screenshot-$1.png
	scripts/render-html.sh "$dir/$name.html" "$png" "$2" "$3" >/dev/null 2>&1 || {
		echo "screenshots.sh: chromium failed on $dir/$name.html" >&2
		exit 1
	}
	if [ -s "$png.console.txt" ]; then
		echo "screenshots.sh: the $name page wrote to the console:" >&2
		head -5 "$png.console.txt" >&2
		exit 1
	fi
	# Lossless: the same pixels in fewer bytes.
	command -v optipng >/dev/null && optipng -quiet -o2 "$png"
	local size
	size=$(stat -c %s "$png")
	if [ "$size" -ge 204800 ]; then
		echo "screenshots.sh: $png is $size bytes (limit 200 KB): make the window smaller" >&2
		exit 1
	fi
	cp "$png" "$out"
	echo "$out: ${2}x$3, $size bytes"
}

# From DIR, with iogauge found on PATH: the pages show the command as one types it.
export PATH="$(dirname "$(readlink -f "$ig")"):$PATH"
(
	cd "$dir"
	iogauge quick --size 16m --runtime 0.5 --ramp_time 0.2 --quiet --json quick.json --html quick.html . >quick.txt
	iogauge scale --size 16m --runtime 0.8 --ramp_time 0.2 --iodepth 64 --numjobs 2 --quiet --json scale.json \
		--html scale.html . >scale.txt
)
shot quick 1000 1400
shot scale 1000 1380
