# shellcheck shell=bash disable=SC2034
# Shared helpers for the end-to-end tests: sourced, never run.
#
# Loop devices, mounts and swap set up here are undone by an EXIT trap that
# runs on success, failure, error and SIGINT/SIGTERM alike: swapoff, umount
# (lazy as a last resort), losetup -d for every loop device backed by a file
# in the temp dir, then the temp dir is removed.
#
# Output is TAP-like: "ok - name" / "not ok - name", and "# SKIP name: why"
# (skip) for a check that cannot run here: never "ok", so it is counted as
# skipped, not passed (tests/results.sh); a script exits 1 when any check
# failed, 77 when it cannot run here at all (not root, no loop devices, no
# binary), 0 otherwise.
#
# Helpers that create things set a variable (LOOP, MNT) instead of printing:
# call them directly, not in $(...), so the registration reaches this shell.

set -u

E2E_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
IOGAUGE=${IOGAUGE:-$E2E_ROOT/iogauge}
E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/iogauge-e2e.XXXXXX") || exit 1
E2E_LOOPS=()
E2E_MOUNTS=()
E2E_SWAPS=()
E2E_PIDS=()
E2E_PGDIRS=() # PostgreSQL servers of pg_start: stopped and removed at exit
E2E_CHECKS=0
E2E_FAILED=0
E2E_SKIPPED=0
E2E_SKIPPING=0
STATUS=0      # exit status of the last run_iogauge
ERR=$E2E_TMP/last.err

e2e_cleanup() {
	local rc=$? i l f
	set +e
	trap - EXIT INT TERM
	# Background iogauge runs still going (start_iogauge) hold the mounts.
	for l in ${E2E_PIDS[@]+"${E2E_PIDS[@]}"}; do
		kill -KILL "$l" 2>/dev/null && wait "$l" 2>/dev/null
	done
	for l in ${E2E_PGDIRS[@]+"${E2E_PGDIRS[@]}"}; do
		runuser -u postgres -- "$E2E_PGBIN/pg_ctl" -D "$l/data" -m immediate -w stop >/dev/null 2>&1
		rm -rf --one-file-system "$l"
	done
	for ((i = ${#E2E_SWAPS[@]} - 1; i >= 0; i--)); do
		swapoff "${E2E_SWAPS[i]}" 2>/dev/null
	done
	for ((i = ${#E2E_MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${E2E_MOUNTS[i]}" 2>/dev/null ||
			{ sleep 1; umount "${E2E_MOUNTS[i]}" 2>/dev/null; } ||
			umount -l "${E2E_MOUNTS[i]}" 2>/dev/null
	done
	# Partitions added with partx outlive the loop device's detach: drop them
	# first, or the next user of that loop number sees a stale loopNp1.
	for l in "${E2E_LOOPS[@]}"; do
		partx -d "$l" 2>/dev/null
		losetup -d "$l" 2>/dev/null
	done
	# Also any loop device on a backing file of ours that escaped the list.
	for f in "$E2E_TMP"/*.img; do
		[ -e "$f" ] || continue
		for l in $(losetup -j "$f" -O NAME -n 2>/dev/null); do
			losetup -d "$l" 2>/dev/null
		done
	done
	if ! grep -q " $E2E_TMP" /proc/self/mountinfo 2>/dev/null; then
		rm -rf --one-file-system "$E2E_TMP"
	else
		echo "# warning: $E2E_TMP still has mounts; left in place" >&2
	fi
	if [ "$rc" -eq 0 ] && [ "$E2E_FAILED" -gt 0 ]; then
		rc=1
	fi
	if [ "$E2E_SKIPPING" -eq 0 ]; then
		echo "# $E2E_CHECKS checks, $E2E_FAILED failed, $E2E_SKIPPED skipped"
	fi
	exit "$rc"
}
trap e2e_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pass() {
	E2E_CHECKS=$((E2E_CHECKS + 1))
	echo "ok - $1"
}

# fail NAME [WHY...]: also shows the last iogauge stderr, indented.
fail() {
	local name=$1
	shift
	E2E_CHECKS=$((E2E_CHECKS + 1))
	E2E_FAILED=$((E2E_FAILED + 1))
	echo "not ok - $name"
	[ $# -gt 0 ] && echo "#   $*"
	if [ -s "$ERR" ]; then
		sed 's/^/#   stderr: /' "$ERR" | head -n 5
	fi
	return 0
}

# check NAME CONDITION-COMMAND...: pass when the command succeeds.
check() {
	local name=$1
	shift
	if "$@"; then
		pass "$name"
	else
		fail "$name" "failed: $*"
	fi
}

# A check of several commands is an `if`, each command under `ok`:
#     if ok [ "$a" = 1 ] && ok grep -q x "$f"; then pass NAME; else fail NAME "$WHY"; fi
# never `check NAME A && B`: bash runs B after check returned, and B's result is lost
# (tests/e2e/test_lint.sh refuses that).
# ok CMD...: CMD's status; when it fails, WHY says which command, its words expanded.
WHY=""
ok() {
	"$@" && return 0
	WHY="failed: $*"
	return 1
}

# not CMD...: CMD fails (for ok: `ok not grep -q x "$f"`).
not() {
	! "$@"
}

# matches STRING ERE: STRING matches the extended regular expression (instead of
# piping into grep, so ok and check see the value).
matches() {
	[[ $1 =~ $2 ]]
}

skip_all() {
	E2E_SKIPPING=1
	echo "1..0 # SKIP $*"
	exit 77
}

# skip NAME [WHY]: a check that cannot run here; counted as skipped, never as passed.
skip() {
	E2E_SKIPPED=$((E2E_SKIPPED + 1))
	echo "# SKIP $1: ${2:-not possible here}"
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip_all "needs root (loop devices, mkfs, mount)"
}

need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip_all "$c not installed"
	done
}

need_iogauge() {
	[ -x "$IOGAUGE" ] || skip_all "no iogauge binary at $IOGAUGE (run make first)"
}

# need_loop: loop devices usable here?
need_loop() {
	need_cmd losetup truncate
	truncate -s 1M "$E2E_TMP/probe.img" || skip_all "cannot create a backing file"
	local l
	l=$(losetup -f --show "$E2E_TMP/probe.img" 2>/dev/null) || skip_all "loop devices not available"
	losetup -d "$l"
	rm -f "$E2E_TMP/probe.img"
}

# mkloop NAME SIZE: a sparse (all-zero) backing file attached to a loop
# device; sets LOOP=/dev/loopN.
mkloop() {
	local img=$E2E_TMP/$1.img
	truncate -s "$2" "$img" || return 1
	LOOP=$(losetup -f --show "$img") || return 1
	E2E_LOOPS+=("$LOOP")
}

# mount_tmp DEV [OPTIONS]: mounts DEV on a fresh dir in the temp dir; sets MNT.
mount_tmp() {
	local dir
	dir=$(mktemp -d "$E2E_TMP/mnt.XXXXXX") || return 1
	mount ${2:+-o "$2"} "$1" "$dir" || return 1
	E2E_MOUNTS+=("$dir")
	MNT=$dir
}

# swapon_tmp DEV: activates DEV as swap (undone at exit).
swapon_tmp() {
	swapon "$1" || return 1
	E2E_SWAPS+=("$1")
}

# mkfs_ext4 DEV: ext4 with everything initialised now, so a mounted idle
# file system writes nothing behind our back.
mkfs_ext4() {
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$1" >/dev/null
}

# write_mbr DEV: a dos partition table with one Linux partition from sector
# 2048 to the end, written by hand when sfdisk is not installed.
write_mbr() {
	local dev=$1 start=2048 sectors count
	sectors=$(($(blockdev --getsize64 "$dev") / 512))
	count=$((sectors - start))
	if command -v sfdisk >/dev/null 2>&1; then
		echo "$start,$count,83" | sfdisk -q -X dos "$dev" >/dev/null
		return
	fi
	le32() {
		printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $((($1 >> 8) & 255)) \
			$((($1 >> 16) & 255)) $((($1 >> 24) & 255))
	}
	# shellcheck disable=SC2059 # the format carries the computed escapes
	printf "\\x00\\x20\\x21\\x00\\x83\\xfe\\xff\\xff$(le32 $start)$(le32 $count)" |
		dd of="$dev" bs=1 seek=446 conv=notrunc status=none || return 1
	printf '\x55\xaa' | dd of="$dev" bs=1 seek=510 conv=notrunc status=none || return 1
	sync
}

# add_partitions DEV: make the kernel see DEV's partitions (DEVp1...) even
# where the loop driver's own scan is off or the kernel lacks the parser.
add_partitions() {
	partx -a "$1" 2>/dev/null || partx -u "$1" 2>/dev/null
	[ -b "${1}p1" ]
}

# content_hash DEV-OR-FILE: sha256 of the whole content, read past the page cache.
# XXH128, not SHA-256: an "unchanged" check hashes whole devices (xfs needs 300 MiB),
# and SHA-256 of those took a quarter of the safety test's time.
content_hash() {
	if [ -b "$1" ]; then
		# What a tool wrote through the device's page cache (mkswap, mkfs) goes to the device
		# first: a direct read must not see it land between two hashes.
		blockdev --flushbufs "$1" 2>/dev/null
		dd if="$1" bs=1M iflag=direct status=none | xxh128sum | cut -d' ' -f1
	else
		xxh128sum "$1" | cut -d' ' -f1
	fi
}

# run_iogauge ARGS...: sets STATUS; stderr kept in $ERR; never hangs.
run_iogauge() {
	: >"$ERR"
	timeout -k 5 120 "$IOGAUGE" "$@" >"$E2E_TMP/last.out" 2>"$ERR"
	STATUS=$?
	san_check "iogauge $*"
	return 0
}

# san_check WHAT: a failure when the last stderr has a sanitizer report
# (the ASan+UBSan build), whatever the exit status was expected to be.
san_check() {
	if grep -Eq "ERROR: (Address|Leak)Sanitizer|runtime error:" "$ERR" 2>/dev/null; then
		fail "no sanitizer report: $1"
	fi
}

# expect_status WANT NAME: checks the status of the last run_iogauge.
expect_status() {
	if [ "$STATUS" -eq "$1" ]; then
		pass "$2"
	else
		fail "$2" "exit status $STATUS, expected $1"
	fi
}

# expect_err PATTERN NAME: the last stderr matches PATTERN (grep -E).
expect_err() {
	if grep -Eq -- "$1" "$ERR"; then
		pass "$2"
	else
		fail "$2" "stderr does not match /$1/"
	fi
}

# ---- Helpers for the workload, device-counter, signal and suite tests ----

OUT=$E2E_TMP/last.out # stdout of the last run_iogauge

# need_json: builds tests/e2e/jget.c (a small JSON query tool on libjansson,
# which iogauge needs anyway) so no test depends on jq or python.
need_json() {
	need_cmd gcc
	JGET=$E2E_TMP/jget
	gcc -O1 -o "$JGET" "$E2E_ROOT/tests/e2e/jget.c" -ljansson 2>"$E2E_TMP/jget.err" ||
		skip_all "cannot build tests/e2e/jget.c against libjansson"
}

# jget FILE [EXPR...]: see tests/e2e/jget.c; without EXPR, checks FILE is one JSON value.
jget() {
	"$JGET" "$@"
}

# mkfs_mount NAME SIZE FSTYPE [MKFS OPTIONS...]: a loop device of SIZE with a
# fresh FSTYPE (ext4, xfs, btrfs) mounted on a temp dir; sets LOOP and MNT.
mkfs_mount() {
	local name=$1 size=$2 fs=$3
	shift 3
	mkloop "$name" "$size" || return 1
	case $fs in
	ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$@" "$LOOP" >/dev/null ;;
	xfs) mkfs.xfs -q -f "$@" "$LOOP" >/dev/null ;;
	btrfs) mkfs.btrfs -q -f "$@" "$LOOP" >/dev/null ;;
	*) return 1 ;;
	esac || return 1
	mount_tmp "$LOOP"
}

# dir_empty DIR: DIR exists and holds nothing (hidden entries included).
dir_empty() {
	[ -d "$1" ] && [ -z "$(ls -A "$1")" ]
}

# ls_dir DIR: the names in DIR on one line (for failure messages).
ls_dir() {
	find "$1" -mindepth 1 -maxdepth 1 -printf '%f ' 2>/dev/null
}

# between X LO HI: LO <= X <= HI, decimal numbers.
between() {
	awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x + 0 >= lo + 0 && x + 0 <= hi + 0) }'
}

# within_pct A B PCT: |A - B| <= PCT% of B (B > 0).
within_pct() {
	awk -v a="$1" -v b="$2" -v p="$3" \
		'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'
}

# dev_sectors DEV: "READ WRITE" sectors (512 B) from /sys/block/NAME/stat.
dev_sectors() {
	local n
	n=$(basename "$(readlink -f "$1")")
	awk '{ print $3, $7 }' "/sys/block/$n/stat"
}

# start_iogauge ARGS...: iogauge in the background with SIGINT and SIGTERM at
# their defaults (a non-interactive shell starts background jobs with SIGINT
# ignored); stdout in $OUT, stderr in $ERR; sets BGPID.  Killed at exit if
# still running.
start_iogauge() {
	local pre=()
	# Both emptied here, not in the background child: an await_bg that reads them at once must
	# not see the last run's lines.
	: >"$ERR"
	: >"$OUT"
	# shellcheck disable=SC2054 # one argument: the signal list
	env --default-signal=INT true 2>/dev/null && pre=(env --default-signal=INT,TERM)
	"${pre[@]}" "$IOGAUGE" "$@" >"$OUT" 2>"$ERR" &
	BGPID=$!
	E2E_PIDS+=("$BGPID")
}

# bg_running: $BGPID has not ended yet (a zombie has ended).
bg_running() {
	local st
	st=$(awk '{ print $3 }' "/proc/$BGPID/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "$st" != Z ]
}

# await_bg REGEX LIMIT [FILE]: waits up to LIMIT seconds for a line of FILE ($ERR by default:
# the progress line of --eta=always) to match REGEX (grep -E) while $BGPID runs.  Status 0 when
# it matched, 1 when the run ended or the time ran out first (WHY says which).  A signal meant
# for a stage is sent once the run says it is there, never after a fixed sleep.
await_bg() {
	local re=$1 limit=$2 f=${3:-$ERR} n=0
	while [ $n -lt $((limit * 50)) ]; do
		grep -Eq -- "$re" "$f" 2>/dev/null && return 0
		if ! bg_running; then
			grep -Eq -- "$re" "$f" 2>/dev/null && return 0
			WHY="the run ended before its output matched '$re'"
			return 1
		fi
		sleep 0.02
		n=$((n + 1))
	done
	WHY="no line matched '$re' within $limit s"
	return 1
}

# signal_bg SIG LIMIT: sends SIG to $BGPID and waits up to LIMIT seconds for
# it to end (then SIGKILL); sets STATUS and WAITED_MS (signal to exit).
signal_bg() {
	local sig=$1 limit=$2 t0 n=0
	t0=$(date +%s%N)
	kill -s "$sig" "$BGPID" 2>/dev/null
	while bg_running && [ $n -lt $((limit * 20)) ]; do
		sleep 0.05
		n=$((n + 1))
	done
	bg_running && kill -KILL "$BGPID" 2>/dev/null
	wait "$BGPID"
	STATUS=$?
	san_check "iogauge (SIG$sig)"
	WAITED_MS=$((($(date +%s%N) - t0) / 1000000))
}

# mount_tmpfs SIZE: a fresh tmpfs of SIZE on a temp dir (unmounted at exit); sets MNT.
mount_tmpfs() {
	local dir
	dir=$(mktemp -d "$E2E_TMP/tmpfs.XXXXXX") || return 1
	mount -t tmpfs -o size="$1" tmpfs "$dir" || return 1
	E2E_MOUNTS+=("$dir")
	MNT=$dir
}

# fio_cached ARGS...: fio ARGS (status, stdout, stderr and an --output=FILE as fio left them), run
# once per `make test` for both binaries: the fio side of a comparison is the same job whichever
# iogauge is tested, so the ASan pass takes the release pass's result of this run (run-all.sh sets
# IOGAUGE_FIO_CACHE to a directory of the run; without it fio always runs).  The key: the script,
# the arguments (but --output's file) and the job files among them, this script's temp dir masked.
# FIO_TIMEOUT=N: fio's time limit in seconds (120 unless set): past it, SIGTERM and 5 s later
# SIGKILL; that status (124, 137) is kept for the other pass as any other is.
# shellcheck disable=SC2094 # the lock's file is only the lock
fio_cached() {
	local key a f out="" rc lim=${FIO_TIMEOUT:-120}
	if [ -z "${IOGAUGE_FIO_CACHE:-}" ] || [ ! -d "$IOGAUGE_FIO_CACHE" ]; then
		timeout -k 5 "$lim" fio "$@"
		return
	fi
	key=$(
		echo "$(basename "$0") $PWD"
		for a in "$@"; do
			case $a in
			--output=*) echo "arg --output=" ;; # where fio writes, not what it runs
			--*) echo "arg $a" ;;
			*) echo "arg $a" && [ -f "$a" ] && cat "$a" ;;
			esac
		done
	)
	key=$(printf '%s' "${key//"$E2E_TMP"/@TMP@}" | xxh128sum | cut -d' ' -f1)
	for a in "$@"; do
		case $a in --output=*) out=${a#--output=} ;; esac
	done
	f=$IOGAUGE_FIO_CACHE/$key
	# One fio per key: the other pass, when it comes while this one runs fio (make test runs
	# both at once), waits for this result instead of running the same job beside it.
	{
		flock 9
		if [ ! -f "$f.rc" ]; then
			timeout -k 5 "$lim" fio "$@" >"$f.out" 2>"$f.err"
			rc=$?
			[ -n "$out" ] && cp "$out" "$f.file" 2>/dev/null
			echo "$rc" >"$f.rc"
		fi
	} 9>"$f.lock"
	[ -n "$out" ] && [ -f "$f.file" ] && cp "$f.file" "$out"
	cat "$f.out"
	cat "$f.err" >&2
	return "$(cat "$f.rc")"
}

# pg_start: a PostgreSQL server of its own (Debian's postgresql), for the store's tests: initdb
# into a fresh directory owned by the postgres user (initdb refuses root), password (scram) auth
# for the superuser, a unix socket in that directory and no TCP port; stopped and removed at
# exit, also on failure.  Sets PG_URL (no password: it is in PG_PASSFILE, as libpq reads it) and
# PG_PASSWORD.
pg_start() {
	local d
	E2E_PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
	[ -x "$E2E_PGBIN/initdb" ] || return 1
	id postgres >/dev/null 2>&1 || return 1
	d=$(mktemp -d /tmp/iogauge-pg.XXXXXX) || return 1
	E2E_PGDIRS+=("$d")
	chown postgres "$d" || return 1
	PG_PASSWORD="pw-$RANDOM-$RANDOM"
	echo "$PG_PASSWORD" >"$d/pwfile"
	chown postgres "$d/pwfile"
	runuser -u postgres -- "$E2E_PGBIN/initdb" -D "$d/data" -U postgres --pwfile="$d/pwfile" \
		--auth=scram-sha-256 -E UTF8 --no-sync >"$d/initdb.log" 2>&1 || return 1
	rm -f "$d/pwfile"
	runuser -u postgres -- "$E2E_PGBIN/pg_ctl" -D "$d/data" -l "$d/log" -w -t 60 \
		-o "-c listen_addresses='' -c unix_socket_directories='$d' -c fsync=off" start >/dev/null 2>&1 || return 1
	PG_PASSFILE=$E2E_TMP/pgpass
	echo "*:*:*:postgres:$PG_PASSWORD" >"$PG_PASSFILE"
	chmod 600 "$PG_PASSFILE"
	PG_URL="postgresql://postgres@/postgres?host=$d"
}
