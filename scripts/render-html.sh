#!/bin/bash
# render-html.sh PAGE.html OUT.png [WIDTH HEIGHT]
#
# Opens a page in headless Chromium (Debian's chromium) with a fresh profile
# and no network (a new network namespace when run as root), and writes:
#   OUT.png          a screenshot of WIDTH x HEIGHT (default 1280 x 2400)
#   OUT.dom.html     the page's DOM after its scripts ran
#   OUT.console.txt  what the page itself wrote to the console (its errors too);
#                    Chromium's own internal pages are left out
# Exit status: Chromium's (124 when it took more than 120 s).
set -u
page=$(readlink -f "$1")
out=$2
width=${3:-1280}
height=${4:-2400}
prof=$(mktemp -d "${TMPDIR:-/tmp}/iogauge-chromium.XXXXXX") || exit 1
trap 'rm -rf "$prof"' EXIT
netns=()
[ "$(id -u)" = 0 ] && command -v unshare >/dev/null && netns=(unshare --net)
"${netns[@]}" timeout -k 5 120 chromium --headless --no-sandbox --disable-gpu --disable-quic \
	--no-first-run --disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$prof" --hide-scrollbars --enable-logging=stderr --v=0 \
	--window-size="$width,$height" --screenshot="$out" --dump-dom "file://$page" \
	>"$out.dom.html" 2>"$out.stderr"
rc=$?
# Console lines name their source; keep the page's own (file://), not chrome://.
grep ':CONSOLE' "$out.stderr" | grep -F "source: file://" >"$out.console.txt"
rm -f "$out.stderr"
exit $rc
