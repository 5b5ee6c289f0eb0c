#!/bin/sh
# Run the cmocka unit-test binaries given as arguments; cmocka prints its own summaries.
rc=0
for t in "$@"; do
	echo "== $t"
	"$t" || rc=1
done
exit $rc
