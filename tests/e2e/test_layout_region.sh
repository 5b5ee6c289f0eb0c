#!/bin/bash
# A job writes (and lays out) only the parts of a file its threads read or
# write: for each layout path (threads --offset_increment apart, writing and
# reading; strided zones: sequential, a part of each zone, random, with
# offset_increment; several files; filesize ranges; several jobs on one
# file), on a user's file filled with 0xAB and punched with holes every other
# MiB (--allow-overwrite), every range outside the regions keeps its bytes
# and its holes, and a reader's regions hold data afterwards (its holes laid
# out); on a loop device filled with 0xAB (--allow-destroy), the outside
# ranges keep their bytes.  fio 3.33 on the same job and file leaves them
# too.  A new file iogauge makes for the job is as long as fio's, its
# regions hold data (the reads need it) and what lies between them stays a
# hole; an --overwrite=0 writer keeps what lies past its region of a user's
# file, as fio does.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# Debian's python3 first: a pyenv shim on PATH costs seconds a call.
PATH=/usr/bin:$PATH

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 fio python3 fallocate
need_json

cd "$E2E_TMP" || exit 1
mkfs_mount layoutr 320M ext4 || {
	fail "ext4 on a loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
MIB=$((1 << 20))
SIZE=$((32 * MIB))

# ranges.py: what a file or device holds in byte ranges, read past the page cache.
PY=$E2E_TMP/ranges.py
cat >"$PY" <<'PY'
import hashlib, os, stat, sys

def ranges(spec):
    return [tuple(int(x) for x in r.split(":")) for r in spec.split()]

def outside(size, spec):
    out, pos = [], 0
    for a, b in sorted(ranges(spec)):
        if a > pos:
            out.append((pos, a))
        pos = max(pos, b)
    if pos < size:
        out.append((pos, size))
    return out

def data_map(fd, a, b):
    """The data extents of [a, b) of a regular file: SEEK_DATA/SEEK_HOLE."""
    ext, pos = [], a
    while pos < b:
        try:
            d = os.lseek(fd, pos, os.SEEK_DATA)
        except OSError:
            break
        if d >= b:
            break
        h = min(os.lseek(fd, d, os.SEEK_HOLE), b)
        ext.append("%d-%d" % (d, h))
        pos = h
    return ext

def sig(path, rs):
    fd = os.open(path, os.O_RDONLY)
    os.fsync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    reg = stat.S_ISREG(os.fstat(fd).st_mode)
    for a, b in rs:
        h = hashlib.sha256(os.pread(fd, b - a, a)).hexdigest()[:16]
        print("%d:%d %s %s" % (a, b, h, ",".join(data_map(fd, a, b)) if reg else "-"))
    os.close(fd)

cmd = sys.argv[1]
if cmd == "outside":  # outside PATH SIZE "a:b ...": each outside range's bytes and data extents
    sig(sys.argv[2], outside(int(sys.argv[3]), sys.argv[4]))
elif cmd == "holes":  # holes PATH "a:b ...": bytes of the ranges that are holes
    fd = os.open(sys.argv[2], os.O_RDONLY)
    total = 0
    for a, b in ranges(sys.argv[3]):
        total += (b - a) - sum(int(e.split("-")[1]) - int(e.split("-")[0]) for e in data_map(fd, a, b))
    print(total)
elif cmd == "fill":  # fill PATH SIZE: 0xAB over SIZE bytes, then (a file) holes at every odd MiB
    with open(sys.argv[2], "r+b" if os.path.exists(sys.argv[2]) else "wb") as f:
        f.write(b"\xab" * int(sys.argv[3]))
        f.flush()
        os.fsync(f.fileno())
PY

# regions SPEC: "0m-4m 16m-20m" (MiB and KiB) as byte ranges "a:b ...".
regions() {
	local r a b out=()
	for r in $1; do
		a=${r%-*} b=${r#*-}
		out+=("$(($(tobytes "$a"))):$(($(tobytes "$b")))")
	done
	echo "${out[*]}"
}
tobytes() {
	case $1 in
	*m) echo $((${1%m} * MIB)) ;;
	*k) echo $((${1%k} * 1024)) ;;
	*) echo "$1" ;;
	esac
}

# user_file PATH: 32 MiB of 0xAB with a hole at every odd MiB (a user's sparse file).
user_file() {
	local m
	rm -f "$1"
	python3 "$PY" fill "$1" "$SIZE"
	for ((m = 1; m < 32; m += 2)); do
		fallocate -p -o $((m * MIB)) -l "$MIB" "$1"
	done
}

# The layout paths: NAME|FILES|REGIONS per file (";" between files)|OPTIONS (FILES: 1 or 2: F1:F2).
# REGIONS "@" : the filesize range's, known from fio's files (below).  A name ending in "*": fio
# 3.33 walks its strided zones on to the end of a larger file or device (it wraps at the file's end,
# not the region's), and writes there: not compared with fio on a user's file or device.
CASES=(
	"offset_increment, write|1|0m-4m 16m-20m|--rw=write --bs=1m --size=4m --numjobs=2 --offset_increment=16m"
	"offset_increment, read|1|0m-4m 16m-20m|--rw=read --bs=1m --size=4m --numjobs=2 --offset_increment=16m"
	"zones, sequential|1|0m-1m 4m-5m 8m-9m 12m-13m|--rw=read --bs=64k --size=16m --zonemode=strided --zonesize=1m --zonerange=1m --zoneskip=3m"
	"zones, a part of each*|1|$(for k in $(seq 0 15); do printf '%dk-%dk ' $((k * 1024)) $((k * 1024 + 256)); done)|--rw=write --bs=64k --size=16m --zonemode=strided --zonesize=256k --zonerange=1m"
	"zones, random|1|8m-10m 12m-14m 16m-18m 20m-22m|--rw=randread --bs=64k --offset=8m --size=16m --zonemode=strided --zonesize=256k --zonerange=2m --zoneskip=2m"
	"zones, offset_increment|1|0m-1m 2m-3m 4m-5m 6m-7m 16m-17m 18m-19m 20m-21m 22m-23m|--rw=read --bs=64k --size=8m --numjobs=2 --offset_increment=16m --zonemode=strided --zonesize=1m --zonerange=1m --zoneskip=1m"
	"nrfiles|2|8m-12m;8m-12m|--rw=read --bs=64k --offset=8m --size=8m"
	"filesize range|2|@|--rw=read --bs=64k --offset=2m --filesize=4m-12m"
	"several jobs, one file|1|0m-4m 16m-20m|--name=a --rw=read --bs=1m --size=4m --name=b --rw=write --bs=1m --offset=16m --size=4m"
)

# files N DIR: the job's --filename for N files in DIR.
files() {
	if [ "$1" = 1 ]; then echo "$2/f1"; else echo "$2/f1:$2/f2"; fi
}

for entry in "${CASES[@]}"; do
	IFS='|' read -r name nf spec opts <<<"$entry"
	fio_walks=0
	[[ $name == *\* ]] && fio_walks=1 && name=${name%\*}
	read -r -a O <<<"$opts"
	# Each job of the case names the files: --filename after every --name (and one for a single job).
	job() {
		local fn=$1 a out=()
		for a in "${O[@]}"; do
			out+=("$a")
			[[ $a == --name=* ]] && out+=("--filename=$fn")
		done
		[[ ${O[0]} == --name=* ]] || out=(--name=j "--filename=$fn" "${out[@]}")
		printf '%s\n' "${out[@]}"
	}
	mapfile -t FIO_NEW < <(job "$(files "$nf" "$D/fio")")
	mapfile -t IG_NEW < <(job "$(files "$nf" "$D/new")")

	# ---- New files: iogauge's as long as fio's; each region is data, what lies between a hole.
	rm -rf "$D/fio" "$D/new"
	mkdir "$D/fio" "$D/new"
	timeout -k 5 120 fio --output=/dev/null "${FIO_NEW[@]}" >/dev/null 2>&1
	run_iogauge run "${IG_NEW[@]}" --keep
	expect_status 0 "$name, new file: exit 0"
	sizes_fio="" sizes_ig=""
	for ((f = 1; f <= nf; f++)); do
		sizes_fio+="$(stat -c %s "$D/fio/f$f" 2>/dev/null) "
		sizes_ig+="$(stat -c %s "$D/new/f$f" 2>/dev/null) "
	done
	check "$name, new file: as long as fio's ($sizes_fio)" [ "$sizes_ig" = "$sizes_fio" ]
	# The filesize range's regions: from the offset to each file's size (fio's draw).
	if [ "$spec" = @ ]; then
		spec="2m-$(stat -c %s "$D/fio/f1");2m-$(stat -c %s "$D/fio/f2")"
	fi
	IFS=';' read -r -a SPECS <<<"$spec"
	for ((f = 1; f <= nf; f++)); do
		R=$(regions "${SPECS[f - 1]}")
		sz=$(stat -c %s "$D/new/f$f")
		holes_in=$(python3 "$PY" holes "$D/new/f$f" "$R")
		holes_out=$(python3 "$PY" outside "$D/new/f$f" "$sz" "$R" | awk '$3 != "" { n++ } END { print n + 0 }')
		if ok [ "$holes_in" = 0 ] && ok [ "$holes_out" = 0 ]; then
			pass "$name, new file $f: every region laid out, nothing between them"
		else
			fail "$name, new file $f: every region laid out, nothing between them" \
				"hole bytes in the regions: $holes_in, outside ranges with data: $holes_out"
		fi
	done
	rm -rf "$D/fio" "$D/new"

	# ---- A user's files (0xAB, holes at odd MiBs): outside the regions, bytes and holes kept.
	for who in iogauge fio; do
		[ $who = fio ] && [ $fio_walks = 1 ] && continue
		FN=$(files "$nf" "$D")
		mapfile -t JOB < <(job "$FN")
		before=()
		for ((f = 1; f <= nf; f++)); do
			user_file "$D/f$f"
			before+=("$(python3 "$PY" outside "$D/f$f" "$SIZE" "$(regions "${SPECS[f - 1]}")")")
		done
		if [ $who = iogauge ]; then
			run_iogauge run "${JOB[@]}" --allow-overwrite
			expect_status 0 "$name, a user's file: exit 0 with --allow-overwrite"
		else
			timeout -k 5 120 fio --output=/dev/null "${JOB[@]}" >/dev/null 2>&1
		fi
		for ((f = 1; f <= nf; f++)); do
			R=$(regions "${SPECS[f - 1]}")
			after=$(python3 "$PY" outside "$D/f$f" "$SIZE" "$R")
			check "$name, a user's file $f, $who: every range outside the regions unchanged" [ "$after" = "${before[f - 1]}" ]
			if [ $who = iogauge ] && [[ $opts == *read* ]] && [[ $opts != *--rw=write* ]]; then
				check "$name, a user's file $f: the reader's regions hold data" [ "$(python3 "$PY" holes "$D/f$f" "$R")" = 0 ]
			fi
		done
		rm -f "$D/f1" "$D/f2"
	done

	# ---- Loop devices filled with 0xAB: outside the regions, bytes kept.
	for who in iogauge fio; do
		[ $who = fio ] && [ $fio_walks = 1 ] && continue
		devs=()
		for ((f = 1; f <= nf; f++)); do
			mkloop "dev$f" "$SIZE" || fail "$name: a loop device"
			python3 "$PY" fill "$LOOP" "$SIZE"
			devs+=("$LOOP")
		done
		FN=${devs[0]}
		[ "$nf" = 2 ] && FN="${devs[0]}:${devs[1]}"
		mapfile -t JOB < <(job "$FN")
		before=()
		for ((f = 1; f <= nf; f++)); do
			before+=("$(python3 "$PY" outside "${devs[f - 1]}" "$SIZE" "$(regions "${SPECS[f - 1]}")")")
		done
		if [ $who = iogauge ]; then
			run_iogauge run "${JOB[@]}" --allow-destroy
			expect_status 0 "$name, loop device: exit 0 with --allow-destroy"
		else
			timeout -k 5 120 fio --output=/dev/null "${JOB[@]}" >/dev/null 2>&1
		fi
		for ((f = 1; f <= nf; f++)); do
			after=$(python3 "$PY" outside "${devs[f - 1]}" "$SIZE" "$(regions "${SPECS[f - 1]}")")
			check "$name, loop device $f, $who: every range outside the regions unchanged" [ "$after" = "${before[f - 1]}" ]
			losetup -d "${devs[f - 1]}"
		done
	done
done

# ---- --overwrite=0 on a user's file: written in place, what lies past the region kept (fio cuts nothing either).
for who in iogauge fio; do
	user_file "$D/f1"
	R=$(regions "4m-8m")
	kept=$(python3 "$PY" outside "$D/f1" "$SIZE" "$R")
	W=(--name=w --filename="$D/f1" --rw=write --bs=1m --offset=4m --size=4m --overwrite=0)
	if [ $who = iogauge ]; then
		run_iogauge run "${W[@]}" --allow-overwrite
		expect_status 0 "overwrite=0, a user's file: exit 0"
	else
		timeout -k 5 120 fio --output=/dev/null "${W[@]}" >/dev/null 2>&1
	fi
	if ok [ "$(stat -c %s "$D/f1")" = "$SIZE" ] && ok [ "$(python3 "$PY" outside "$D/f1" "$SIZE" "$R")" = "$kept" ]; then
		pass "overwrite=0, a user's file, $who: still 32 MiB, every range outside the region unchanged"
	else
		fail "overwrite=0, a user's file, $who: still 32 MiB, every range outside the region unchanged" "$WHY"
	fi
	rm -f "$D/f1"
done
