#!/bin/bash
# fio's per-command priorities (cmdprio_percentage, cmdprio_class, cmdprio, cmdprio_bssplit) and
# log_prio, under fio and `iogauge fio` on the same jobs in the same run:
#  - libaio: strace -v shows each io_submit's iocb; the sequence of (direction, aio_reqprio) is
#    fio's request for request (fio's priority stream of the job's seed), about the percentage
#    given; with cmdprio_bssplit (per-entry class/level, a default prioclass/prio) the same
#    requests get the same priorities;
#  - io_uring on a loop device: the kernel's block:block_rq_issue (perf) sees the same number of
#    real-time requests as fio's run and as iogauge's own count; with cmdprio_class=2 and a level
#    per direction, and with cmdprio_bssplit's per-entry priorities, every priority fio's run had,
#    per direction, in the same bytes;
#  - fio-json: "prios" in read and write with fio's keys (prioclass, prio, clat_ns, or lat_ns with
#    lat_percentiles), the same priorities and sample counts as fio; none with one priority;
#  - log_prio=1: the last column is the whole ioprio (0x%04x), with fio's counts; without it 0/1;
#  - pvsync2's hipri_percentage: RWF_HIPRI on fio's very requests (fio's stream of seed 1);
#  - other engines refuse the options by name (status 2), as do both modes together;
#  - fio's examples/cmdprio-*.fio parse.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# Debian's python3 and fio first: a pyenv shim on PATH costs seconds a call.
PATH=/usr/bin:$PATH

need_iogauge
need_root
need_cmd fio strace
need_json

D=$E2E_TMP/d
mkdir -p "$D" || exit 1
jf() { jget "$1" "$2" 2>/dev/null; }
truncate -s 64M "$D/f" || exit 1

# submits TOOL OUT ARGS...: the tool's job under strace; OUT gets a line per iocb: "OP PRIO" (PRIO
# "-" without IOCB_FLAG_IOPRIO), in submission order.
submits() {
	local tool=$1 out=$2
	shift 2
	local cmd=(fio)
	[ "$tool" = ig ] && cmd=("$IOGAUGE" fio --allow-overwrite)
	: >"$ERR"
	# LeakSanitizer cannot work under ptrace (the san build): the runs without strace check leaks.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" timeout -k 5 120 strace -f -v -s 0 -e trace=io_submit -o "$out.strace" "${cmd[@]}" "$@" \
		>/dev/null 2>"$ERR"
	STATUS=$?
	[ "$tool" = ig ] && san_check "iogauge fio $*"
	grep -o 'aio_lio_opcode=[A-Z_]*\(, aio_reqprio=[A-Z_]*([A-Z_]*, [0-9]*)\)\?' "$out.strace" |
		sed -E 's/aio_lio_opcode=IOCB_CMD_//; s/, aio_reqprio=IOPRIO_PRIO_VALUE\(IOPRIO_CLASS_([A-Z]*), ([0-9]*)\)/ \1\/\2/' |
		awk 'NF == 1 { $2 = "-" } { print }' >"$out"
}

# ---- 1. cmdprio_percentage=R,W with libaio, a mixed job at depth 1: fio's requests exactly.
JOB=(--name=p --filename="$D/f" --ioengine=libaio --direct=1 --rw=randrw --bs=4k --size=4m --iodepth=1
	--cmdprio_percentage=30,60 --cmdprio_class=2 --cmdprio=3 --output-format=json)
submits fio "$D/p.fio" "${JOB[@]}" --output="$D/p.fio.json"
submits ig "$D/p.ig" "${JOB[@]}" --output="$D/p.ig.json"
expect_status 0 "cmdprio_percentage, libaio: iogauge fio runs it (status 0)"
n=$(wc -l <"$D/p.ig")
check "libaio: 1024 iocbs seen by strace ($n)" test "$n" -eq 1024
check "libaio: every iocb's direction and priority is fio's, in order" test -s "$D/p.ig" -a -z "$(cmp "$D/p.fio" "$D/p.ig" 2>&1)"
r=$(grep -c '^PREAD BE/3' "$D/p.ig"); rall=$(grep -c '^PREAD' "$D/p.ig")
w=$(grep -c '^PWRITE BE/3' "$D/p.ig"); wall=$(grep -c '^PWRITE' "$D/p.ig")
check "libaio: about 30% of the reads carry best-effort 3 ($r of $rall)" within_pct "$((r * 100 / rall))" 30 20
check "libaio: about 60% of the writes carry best-effort 3 ($w of $wall)" within_pct "$((w * 100 / wall))" 60 15
check "libaio: no other priority is sent" test "$(grep -vc -e ' -$' -e ' BE/3$' "$D/p.ig")" -eq 0
for d in read write; do
	check "fio-json $d: prios has fio's 2 entries" test "$(jf "$D/p.ig.json" ".jobs[0].$d.prios|length")" = 2
	check "fio-json $d: the entries' keys are fio's" test \
		"$(jf "$D/p.ig.json" ".jobs[0].$d.prios[1]|keys" | tr '\n' ' ')" = \
		"$(jf "$D/p.fio.json" ".jobs[0].$d.prios[1]|keys" | tr '\n' ' ')"
	for i in 0 1; do
		for k in prioclass prio clat_ns.N; do
			a=$(jf "$D/p.ig.json" ".jobs[0].$d.prios[$i].$k"); b=$(jf "$D/p.fio.json" ".jobs[0].$d.prios[$i].$k")
			check "fio-json $d prios[$i].$k: $a, fio's $b" test -n "$a" -a "$a" = "$b"
		done
	done
done
check "fio-json: clat_ns of a priority has fio's keys" test \
	"$(jf "$D/p.ig.json" '.jobs[0].read.prios[0].clat_ns|keys' | tr '\n' ' ')" = \
	"$(jf "$D/p.fio.json" '.jobs[0].read.prios[0].clat_ns|keys' | tr '\n' ' ')"
check "fio-json: the priorities' samples add up to the direction's" test \
	"$(($(jf "$D/p.ig.json" '.jobs[0].read.prios[0].clat_ns.N') + $(jf "$D/p.ig.json" '.jobs[0].read.prios[1].clat_ns.N')))" = \
	"$(jf "$D/p.ig.json" '.jobs[0].read.clat_ns.N')"

# lat_percentiles: the entries are total latencies (lat_ns), as fio's.
run_iogauge fio --allow-overwrite "${JOB[@]}" --lat_percentiles=1 --output="$D/pl.ig.json"
check "lat_percentiles: prios carry lat_ns" test "$(jf "$D/pl.ig.json" '.jobs[0].write.prios[0]|keys' | tr '\n' ' ')" = "prioclass prio lat_ns "
# One priority only (100%): no prios, as fio.
run_iogauge fio --allow-overwrite --name=one --filename="$D/f" --ioengine=libaio --direct=1 --rw=randread \
	--bs=4k --size=1m --cmdprio_percentage=100 --output-format=json --output="$D/one.json"
check "cmdprio_percentage=100: one priority, no prios (as fio)" test "$(jf "$D/one.json" '.jobs[0].read|keys' | grep -c prios)" = 0

# ---- 2. cmdprio_bssplit (fio's examples/cmdprio-bssplit.fio, on a file): the same requests.
cat >"$D/bss.fio" <<JOB
[global]
filename=$D/f
direct=1
rw=randrw
ioengine=libaio
iodepth=1
size=64m
[adv-def]
prioclass=2
prio=7
bssplit=64k/40:1024k/60,1024k/100
cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0,1024k/0
JOB
submits fio "$D/b.fio" "$D/bss.fio" --output-format=json --output="$D/b.fio.json"
submits ig "$D/b.ig" "$D/bss.fio" --output-format=json --output="$D/b.ig.json"
expect_status 0 "cmdprio_bssplit: iogauge fio runs it (status 0)"
check "cmdprio_bssplit: every iocb's direction and priority is fio's ($(wc -l <"$D/b.ig") iocbs)" test -s "$D/b.ig" -a -z "$(cmp "$D/b.fio" "$D/b.ig" 2>&1)"
check "cmdprio_bssplit: RT 1 and IDLE 2 are sent" test "$(grep -c -e 'RT/1' -e 'IDLE/2' "$D/b.ig")" -gt 0
check "cmdprio_bssplit: fio's 3 read priorities" test "$(jf "$D/b.ig.json" '.jobs[0].read.prios|length')" = 3 -a \
	"$(jf "$D/b.fio.json" '.jobs[0].read.prios|length')" = 3
for i in 0 1 2; do
	a=$(jf "$D/b.ig.json" ".jobs[0].read.prios[$i].prioclass")/$(jf "$D/b.ig.json" ".jobs[0].read.prios[$i].prio"):$(jf "$D/b.ig.json" ".jobs[0].read.prios[$i].clat_ns.N")
	b=$(jf "$D/b.fio.json" ".jobs[0].read.prios[$i].prioclass")/$(jf "$D/b.fio.json" ".jobs[0].read.prios[$i].prio"):$(jf "$D/b.fio.json" ".jobs[0].read.prios[$i].clat_ns.N")
	check "cmdprio_bssplit: read prios[$i] class/level:N $a, fio's $b" test "$a" = "$b"
done

# ---- 3. log_prio: the priority column as fio writes it.
for t in fio ig; do
	mkdir -p "$D/log.$t"
	cmd=(fio)
	[ "$t" = ig ] && cmd=("$IOGAUGE" fio --allow-overwrite)
	(cd "$D/log.$t" && timeout -k 5 120 "${cmd[@]}" --name=l --filename="$D/f" --direct=1 --rw=randread \
		--bs=4k --size=1m --ioengine=libaio --iodepth=4 --prioclass=3 --cmdprio_percentage=20 \
		--cmdprio_class=1 --write_lat_log=prio --log_prio=1 >/dev/null 2>&1)
	awk -F', ' '{ print $5 }' "$D/log.$t/prio_clat.1.log" | sort | uniq -c >"$D/log.$t.col"
done
check "log_prio=1: the clat log's priority column has fio's values and counts ($(tr -s ' \n' ' ' <"$D/log.ig.col"))" \
	test -s "$D/log.ig.col" -a -z "$(cmp "$D/log.fio.col" "$D/log.ig.col" 2>&1)"
check "log_prio=1: values as 0x%04x (idle 0x6000, real-time 0x2000)" grep -q '0x6000' "$D/log.ig.col"
mkdir -p "$D/log0"
(cd "$D/log0" && "$IOGAUGE" fio --allow-overwrite --name=l --filename="$D/f" --direct=1 --rw=randread --bs=4k \
	--size=1m --ioengine=libaio --cmdprio_percentage=50 --write_lat_log=p >/dev/null 2>&1)
check "log_prio=0: the column is 1 for real-time requests, 0 for the others" test \
	"$(awk -F', ' '{ print $5 }' "$D/log0/p_clat.1.log" | sort -u | tr '\n' ' ')" = "0 1 "

# ---- 4. io_uring on a loop device: the kernel sees the priorities (block:block_rq_issue).
if command -v perf >/dev/null && perf list 2>/dev/null | grep -q 'block:block_rq_issue' &&
	mkloop u 64M 2>/dev/null; then
	dev=$(printf '%d,%d' "0x$(stat -c %t "$LOOP")" "0x$(stat -c %T "$LOOP")")
	# The kernel records this device's requests alone (dev_t as the tracepoint has it: major
	# << 20 | minor), so other tests' I/O beside this one neither fills perf's buffer nor counts.
	devt=$(((0x$(stat -c %t "$LOOP") << 20) | 0x$(stat -c %T "$LOOP")))
	for t in fio ig; do
		cmd=(fio)
		[ "$t" = ig ] && cmd=("$IOGAUGE" fio --allow-destroy)
		timeout -k 5 120 perf record -q -e block:block_rq_issue --filter "dev == $devt" -a -o "$D/perf.$t" -- "${cmd[@]}" --name=u \
			--filename="$LOOP" --ioengine=io_uring --direct=1 --rw=randread --bs=4k --size=4m --iodepth=8 \
			--cmdprio_percentage=40 --cmdprio_class=1 --output-format=json --output="$D/u.$t.json" >/dev/null 2>&1
		perf script -i "$D/perf.$t" 2>/dev/null | awk -v d="$dev" '$6 == d && $7 == "R"' |
			grep -o '0x[0-9],[0-9]*,[0-9]*' | sort | uniq -c >"$D/u.$t.prio"
	done
	# Real-time requests only: udev may read the fresh device too, with its own priority.
	rt=$(awk '$2 ~ /^0x1,/ { print $1 }' "$D/u.ig.prio")
	rtf=$(awk '$2 ~ /^0x1,/ { print $1 }' "$D/u.fio.prio")
	check "io_uring: the kernel saw real-time requests ($rt of 1024)" between "${rt:-0}" 350 470
	check "io_uring: the kernel saw as many real-time requests as fio sent ($rt, fio's $rtf)" test "${rt:-x}" = "${rtf:-y}"
	check "io_uring: iogauge's count of real-time requests is the kernel's" test \
		"$(jf "$D/u.ig.json" '.jobs[0].read.prios[1].clat_ns.N')" = "${rt:-x}"
	# cmdprio_class=2 with a level per direction, and cmdprio_bssplit's per-entry priorities
	# (examples/cmdprio-bssplit.fio's adv-def): the bytes the kernel saw of every priority, per
	# direction, are what it saw of fio's run (requests io_uring hands to its workers among them).
	for spec in "lvl:--rw=randrw --bs=4k --size=4m --prioclass=2 --prio=7 --cmdprio_percentage=30,60 --cmdprio_class=2 --cmdprio=5" \
		"bss:--rw=randrw --size=48m --prioclass=2 --prio=7 --bssplit=64k/40:1024k/60,1024k/100 --cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0,1024k/0"; do
		tag=${spec%%:*}
		for t in fio ig; do
			cmd=(fio)
			[ "$t" = ig ] && cmd=("$IOGAUGE" fio --allow-destroy)
			# shellcheck disable=SC2086 # the options are words
			timeout -k 5 120 perf record -q -e block:block_rq_issue --filter "dev == $devt" -a -o "$D/perf.$tag.$t" -- \
				"${cmd[@]}" --name=u --filename="$LOOP" --ioengine=io_uring --direct=1 --iodepth=8 ${spec#*:} \
				--output-format=json --output="$D/$tag.$t.json" >/dev/null 2>&1
			# Bytes per direction and priority: the block layer splits a large request where its
			# buffer's pages fall (fio's and iogauge's buffers are placed apart), the bytes stay.
			perf script -i "$D/perf.$tag.$t" 2>/dev/null |
				awk -v d="$dev" '$6 == d && $1 !~ /udev/ { b[$7 " " $(NF - 1)] += $8 } END { for (k in b) print k, b[k] }' |
				sort >"$D/$tag.$t.prio"
		done
		if ok [ "$(wc -l <"$D/$tag.ig.prio")" -ge 2 ] && ok cmp -s "$D/$tag.fio.prio" "$D/$tag.ig.prio"; then
			pass "io_uring $tag: the kernel saw fio's bytes of each priority, per direction ($(tr -s ' \n' ' ' <"$D/$tag.ig.prio"))"
		else
			fail "io_uring $tag: the kernel saw fio's bytes of each priority, per direction" \
				"fio: $(tr -s ' \n' ' ' <"$D/$tag.fio.prio"); iogauge: $(tr -s ' \n' ' ' <"$D/$tag.ig.prio")"
		fi
	done
else
	skip "io_uring priorities seen by the kernel" "no perf with block:block_rq_issue, or no loop device"
fi

# ---- 5. pvsync2's hipri_percentage (not an io_uring option in fio 3.33): RWF_HIPRI on fio's requests.
for t in fio ig; do
	cmd=(fio)
	[ "$t" = ig ] && cmd=("$IOGAUGE" fio --allow-overwrite)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" timeout -k 5 120 strace -f -s 0 -e trace=preadv2,pwritev2 -o "$D/h.$t.strace" "${cmd[@]}" --name=h \
		--ioengine=pvsync2 --hipri --hipri_percentage=30 --filename="$D/f" --size=1m --bs=4k --rw=randrw \
		--output-format=json --output="$D/h.$t.json" >/dev/null 2>&1
	# strace pads a short pid with blanks.
	grep -E '^[0-9]+ +p(read|write)v2\(' "$D/h.$t.strace" |
		awk '{ f = $0; sub(/\).*/, "", f); n = split(f, a, ", "); split($2, b, "("); print b[1], a[n] }' >"$D/h.$t"
done
h=$(grep -c RWF_HIPRI "$D/h.ig")
check "hipri_percentage=30: 256 requests, $h with RWF_HIPRI (about 30%)" test "$(wc -l <"$D/h.ig")" -eq 256 -a "$h" -ge 50 -a "$h" -le 105
check "hipri_percentage=30: RWF_HIPRI on fio's very requests" test -s "$D/h.ig" -a -z "$(cmp "$D/h.fio" "$D/h.ig" 2>&1)"
run_iogauge fio --name=x --ioengine=io_uring --filename="$D/f" --size=1m --hipri_percentage=50
expect_status 2 "io_uring with hipri_percentage: refused (status 2), as fio 3.33"
expect_err "hipri_percentage is an option of --ioengine=pvsync2" "io_uring: the refusal names pvsync2"

# ---- 6. Refusals, one line, status 2.
run_iogauge fio --name=x --ioengine=psync --filename="$D/f" --size=1m --cmdprio_percentage=50
expect_status 2 "psync with cmdprio_percentage: refused (status 2)"
expect_err "cmdprio_percentage is an option of --ioengine=io_uring and libaio.*not of --ioengine=psync" \
	"psync: the refusal names the option and the engines that take it"
check "psync: the refusal is one line" test "$(wc -l <"$ERR")" -eq 1
run_iogauge fio --name=x --ioengine=null --size=1m --cmdprio_class=2
expect_status 2 "null with cmdprio_class: refused (status 2)"
expect_err "cmdprio_class is an option of" "null: names cmdprio_class"
run_iogauge fio --name=x --ioengine=libaio --filename="$D/f" --size=1m --cmdprio_percentage=10 --cmdprio_bssplit=4k/10
expect_status 2 "cmdprio_percentage with cmdprio_bssplit: refused (status 2), as fio"
run_iogauge fio --name=x --ioengine=libaio --filename="$D/f" --size=1m --cmdprio_class=4
expect_status 2 "cmdprio_class=4: out of range (status 2)"
run_iogauge fio --name=x --ioengine=libaio --filename="$D/f" --size=1m --cmdprio_bssplit=4k/60:4k/50
expect_status 2 "cmdprio_bssplit over 100% for one size: refused (status 2), as fio"

# ---- 7. fio's examples now parse.
SRC=$("$E2E_ROOT/scripts/fio-source.sh" --offline 2>/dev/null) || SRC=${FIO_SRC:-}
if [ -n "$SRC" ] && [ -f "$SRC/examples/cmdprio-percentage.fio" ]; then
	for ex in cmdprio-percentage.fio cmdprio-bssplit.fio; do
		run_iogauge fio --parse-only "$SRC/examples/$ex"
		expect_status 0 "examples/$ex: accepted (--parse-only)"
	done
else
	skip "fio's examples/cmdprio-*.fio" "no fio source tree (scripts/fio-source.sh)"
fi
