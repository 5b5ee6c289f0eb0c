#!/bin/bash
# fio 3.33's source tree, for the tests that run fio's own regression jobs and
# examples (tests/e2e/test_fio_regression.sh, scripts/fio-regression.sh).
# Fetches fio_3.33.orig.tar.gz from the Debian mirror apt uses, checks its
# sha256 and unpacks it into build/ (cached there; build/ is never committed:
# no fio code or text enters the repository).  Prints the tree's path.
# FIO_SRC=DIR: that tree instead; --offline: never fetch.
# Exit 0, or 1 with the reason on stderr when it cannot be had (no network,
# wrong checksum, no tar).
set -euo pipefail
cd "$(dirname "$0")/.."
SHA=d2410e13e0f379d061d077cc5ae325835bb7c6186aa7bafc1df954cbc9b014fc
TARBALL=fio_3.33.orig.tar.gz
DEST=build/fio-3.33

# A tree given by the caller (FIO_SRC), used as it is.
if [ -n "${FIO_SRC:-}" ]; then
	[ -f "$FIO_SRC/t/run-fio-tests.py" ] || { echo "FIO_SRC=$FIO_SRC: no t/run-fio-tests.py in it" >&2; exit 1; }
	echo "$FIO_SRC"
	exit 0
fi
[ "${1:-}" = --offline ] && OFFLINE=1 || OFFLINE=0

if [ -f "$DEST/t/run-fio-tests.py" ] && [ -f "$DEST/.iogauge-sha256" ] &&
	[ "$(cat "$DEST/.iogauge-sha256")" = "$SHA" ]; then
	echo "$PWD/$DEST"
	exit 0
fi

# The mirror apt reads Debian's main archive from (deb822 .sources first, then sources.list).
mirror() {
	local f uri
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		uri=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' "$f")
		[ -n "$uri" ] && { echo "${uri%/}"; return; }
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/ && $i !~ /security/) { print $i; exit } }' "$f")
		[ -n "$uri" ] && { echo "${uri%/}"; return; }
	done
	echo "http://deb.debian.org/debian"
}

mkdir -p build
if [ ! -f "build/$TARBALL" ] || ! echo "$SHA  build/$TARBALL" | sha256sum -c --status; then
	[ "$OFFLINE" = 1 ] && { echo "no fio 3.33 source in $DEST (--offline: not fetched)" >&2; exit 1; }
	url="$(mirror)/pool/main/f/fio/$TARBALL"
	rm -f "build/$TARBALL.part"
	if command -v curl >/dev/null; then
		curl -fsSL --connect-timeout 10 --max-time 120 -o "build/$TARBALL.part" "$url" || { echo "cannot fetch $url" >&2; exit 1; }
	elif command -v wget >/dev/null; then
		wget -q -T 120 -O "build/$TARBALL.part" "$url" || { echo "cannot fetch $url" >&2; exit 1; }
	else
		echo "neither curl nor wget to fetch $url" >&2
		exit 1
	fi
	if ! echo "$SHA  build/$TARBALL.part" | sha256sum -c --status; then
		echo "$url: sha256 is not $SHA" >&2
		rm -f "build/$TARBALL.part"
		exit 1
	fi
	mv "build/$TARBALL.part" "build/$TARBALL"
fi
rm -rf "$DEST" "$DEST.tmp"
mkdir -p "$DEST.tmp"
tar -xzf "build/$TARBALL" -C "$DEST.tmp" --strip-components=1 || { echo "cannot unpack build/$TARBALL" >&2; exit 1; }
echo "$SHA" >"$DEST.tmp/.iogauge-sha256"
mv "$DEST.tmp" "$DEST"
echo "$PWD/$DEST"
