#!/bin/sh
# iogauge's version as --version and the JSON show it.  In a git clone: the
# release tag's `git describe` (v0.3.0-4-gabc1234 -> 0.3.0-4-gabc1234), or,
# with no release tag yet, VERSION's number and the commit (0.2.0+gabc1234),
# "-dirty" when tracked files differ from it.  Outside git (a tarball): VERSION.
# The release number alone (man page, bonnie's and Orion's headings, fio's
# "fio version") is IOGAUGE_VERSION in src/base/common.h, which must equal VERSION.
cd "$(dirname "$0")/.." || exit 1
rel=$(cat VERSION 2>/dev/null) || { echo "version.sh: no VERSION file" >&2; exit 1; }
hdr=$(sed -n 's/^#define IOGAUGE_VERSION "\(.*\)"$/\1/p' src/base/common.h)
if [ "$hdr" != "$rel" ]; then
	echo "version.sh: VERSION says $rel, src/base/common.h's IOGAUGE_VERSION says $hdr: make them agree" >&2
	exit 1
fi
if git rev-parse --git-dir >/dev/null 2>&1; then
	if d=$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
		echo "${d#v}"
		exit 0
	fi
	if h=$(git rev-parse --short HEAD 2>/dev/null); then
		git diff --quiet HEAD -- 2>/dev/null && dirty= || dirty=-dirty
		echo "$rel+g$h$dirty"
		exit 0
	fi
fi
echo "$rel"
