#!/bin/sh
# Install the Debian/Ubuntu packages iogauge needs to build and test, only
# those missing.  Runs apt-get update once, only when something is missing.
set -e
PKGS="gcc make pkg-config liburing-dev libaio-dev libblkid-dev libjansson-dev libcmocka-dev
      fio gnuplot-nox bonnie++ e2fsprogs xfsprogs btrfs-progs util-linux fdisk valgrind
      openmpi-bin libopenmpi-dev
      libjs-chart.js chromium libpng-dev optipng
      libisal-dev libxxhash-dev xxhash libssl-dev zstd gzip clang libclang-rt-14-dev strace
      liblzo2-dev zlib1g-dev libzstd-dev lzop sysstat blktrace
      libsqlite3-dev sqlite3 libpq-dev postgresql python3-prometheus-client time"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "iogauge: missing packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
	exit 1
fi
echo "iogauge: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends $missing >&2
