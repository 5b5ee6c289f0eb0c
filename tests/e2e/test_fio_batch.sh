#!/bin/bash
# fio's queue discipline and fill_device, and two byte counts, under fio and `iogauge fio` on the
# same jobs in the same run:
#  - iodepth_batch_submit, iodepth_batch_complete_min/max, iodepth_low: libaio at iodepth 16 on a
#    file, the same io_bytes and total_ios as fio, and every io_submit and io_getevents keeping
#    fio's rule, judged call by call (batchrule.awk; the counts, which depend on how many
#    completions are in when a reap comes, are fio's exactly only where the rule leaves no
#    choice); io_uring: no submitting io_uring_enter beyond the batch, the same number of
#    requests submitted, no wait for more than iodepth_batch_complete_min (none polled, a reap
#    of one at a time draining to iodepth_low); none given: iogauge's own queue (every free slot in one io_submit: far
#    fewer calls than fio's one a request); the batch with serialize_overlap, flow,
#    latency_target and io_submit_mode=offload too (fio's counts, no commit beyond the batch);
#  - fill_device (fill_fs) on a 64 MiB ext4 with psync, libaio and io_uring: fio's io_bytes and
#    total_ios (the ENOSPC write among them), error 0, status 0; fio's examples/surface-scan.fio
#    (a verifying reader of no size after the fill: fio's counts, a changed byte found where fio
#    finds it); a job that reads is refused (status 2);
#  - filesize with offset and size (fio's setup_files): the file is filesize long, its region
#    starts at the offset inside it, a smaller size stops the job: fio's io_bytes and total_ios;
#  - a failed request that ends the job (EFBIG past ulimit -f, no continue_on_error) is among
#    total_ios, as fio counts it when queued (129, not 128).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
PATH=/usr/bin:$PATH

need_iogauge
need_cmd fio strace
need_json

D=$E2E_TMP/d
mkdir -p "$D" || exit 1
jf() { jget "$1" "$2" 2>/dev/null; }
# near A B PCT ABS: |A - B| <= PCT% of B + ABS.
near() { awk -v a="$1" -v b="$2" -v p="$3" -v n="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100 + n) }'; }
# calls FILE NAME: the calls of NAME in an strace.
calls() { grep -c "$2(" "$1"; }

# ---- 1. The batch options: libaio, iodepth 16, 4k random reads of an 8 MiB file.
fio --name=lay --filename="$D/f" --size=8m --rw=write --bs=1m --output=/dev/null >/dev/null 2>&1 ||
	fail "fio lays out the file"
# both TAG ENGINE OPTS...: fio and iogauge fio under strace -f; JSON in $D/TAG.{fio,ig}.json.
both() {
	local tag=$1 eng=$2
	shift 2
	local common=(--name=j --filename="$D/f" --size=8m --bs=4k --direct=1 --rw=randread
		--ioengine="$eng" --iodepth=16 --output-format=json)
	strace -f -qq -e trace=io_submit,io_getevents -o "$D/$tag.fio.tr" \
		fio "${common[@]}" --output="$D/$tag.fio.json" "$@" >/dev/null 2>&1
	: >"$ERR"
	# LeakSanitizer cannot run under ptrace: off for the san build's traced runs.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=io_submit,io_getevents -o "$D/$tag.ig.tr" \
		"$IOGAUGE" fio --allow-overwrite "${common[@]}" --output="$D/$tag.ig.json" "$@" >/dev/null 2>"$ERR"
	STATUS=$?
	san_check "iogauge fio $*"
}
same_ios() {
	local tag=$1 a b
	a="$(jf "$D/$tag.fio.json" '.jobs[0].read.io_bytes') $(jf "$D/$tag.fio.json" '.jobs[0].read.total_ios')"
	b="$(jf "$D/$tag.ig.json" '.jobs[0].read.io_bytes') $(jf "$D/$tag.ig.json" '.jobs[0].read.total_ios')"
	if ok [ "$a" = "$b" ] && ok [ "$a" = "8388608 2048" ]; then
		pass "$tag: fio's io_bytes and total_ios ($a; iogauge $b)"
	else
		fail "$tag: fio's io_bytes and total_ios ($a; iogauge $b)" "$WHY"
	fi
}
# rule TAG TOOL B L CMIN CMAX: "COMMITS REAPS VIOLATIONS" of fio's queue discipline, judged
# call by call on the tool's strace (tests/e2e/batchrule.awk): a commit short of B requests only
# fills the queue of D or carries the last of N; once full, nothing is queued until L are left in
# flight; a reap waits for CMIN and takes at most CMAX.  The counts of calls depend on how many
# completions are in when a reap comes (the machine's load): the rule does not.
rule() {
	awk -v B="$3" -v D=16 -v N=2048 -v L="$4" -v CMIN="$5" -v CMAX="$6" -f "$E2E_ROOT/tests/e2e/batchrule.awk" \
		"$D/$1.$2.tr"
}
# TAG:B L CMIN CMAX:OPTIONS (iodepth 16, 2048 requests; fio's defaults: batch 1, low = iodepth,
# complete_min 1, complete_max = complete_min).
for spec in "sub8:8 16 1 1:--iodepth_batch_submit=8" \
	"sub8max16:8 16 1 16:--iodepth_batch=8 --iodepth_batch_complete_max=16" \
	"low4:1 4 1 16:--iodepth_low=4 --iodepth_batch_complete_max=16" \
	"min4:1 16 4 4:--iodepth_batch_complete=4" \
	"poll:1 16 0 0:--iodepth_batch_complete_min=0 --iodepth_batch_complete_max=0"; do
	tag=${spec%%:*} rest=${spec#*:}
	params=${rest%%:*} opts=${rest#*:}
	# shellcheck disable=SC2086 # the options are words
	both "$tag" libaio $opts
	expect_status 0 "$tag ($opts): iogauge fio runs it"
	same_ios "$tag"
	# shellcheck disable=SC2086
	read -r fc fr fbad <<<"$(rule "$tag" fio $params)"
	# shellcheck disable=SC2086
	read -r ic ir ibad <<<"$(rule "$tag" ig $params)"
	if [ "$tag" = poll ]; then
		# Polling spins: its reaps are the machine's speed; its commits, one a request, are not.
		check "$tag: io_submit calls as fio's, one a request (fio $fc, iogauge $ic)" [ "$ic" = "$fc" ]
	elif ok [ "$ibad" = 0 ] && ok [ "$ic" -ge $((2048 / ${params%% *})) ]; then
		pass "$tag: every io_submit and io_getevents keeps fio's rule ($ic commits, $ir reaps; fio $fc, $fr, $fbad off the rule)"
	else
		fail "$tag: every io_submit and io_getevents keeps fio's rule ($ic commits, $ir reaps; fio $fc, $fr, $fbad off the rule)" \
			"${WHY:-$ibad calls off the rule}"
	fi
	# Where the rule leaves no choice (a reap of exactly CMIN), the counts are fio's exactly.
	case $tag in sub8 | min4)
		check "$tag: io_submit and io_getevents calls as fio's (fio $fc/$fr, iogauge $ic/$ir)" \
			[ "$ic/$ir" = "$fc/$fr" ] ;;
	esac
done
both own libaio
same_ios own
fs=$(calls "$D/own.fio.tr" io_submit) is=$(calls "$D/own.ig.tr" io_submit)
if ok [ "${is:-0}" -gt 0 ] && ok [ "$((is * 4))" -lt "${fs:-0}" ]; then
	pass "none given: iogauge's own queue, every free slot in one io_submit (fio $fs calls, iogauge $is)"
else
	fail "none given: iogauge's own queue, every free slot in one io_submit (fio $fs calls, iogauge $is)" "$WHY"
fi

# The batch holds with what else shapes the queue, as fio's do_io: serialize_overlap (a request
# held back is fio's FIO_Q_BUSY), flow, latency_target, io_submit_mode=offload: fio's counts, no
# io_submit of more than the batch of 4 (iogauge's own queue sends every free slot at once), and
# no note that the options are not applied.
head -c 8M /dev/urandom >"$D/g"
cat >"$D/mix.fio" <<JOB
[global]
ioengine=libaio
direct=1
iodepth=16
iodepth_batch_submit=4
iodepth_batch_complete_max=8
bs=4k
size=4m
[overlap]
filename=$D/f
rw=randwrite
norandommap
serialize_overlap=1
[flow-a]
stonewall
filename=$D/f
rw=randread
flow=1
[flow-b]
filename=$D/g
rw=randread
flow=2
[target]
stonewall
filename=$D/f
rw=randread
latency_target=200000
latency_window=200000
latency_percentile=99
iodepth_batch_complete_min=2
JOB
# The offload job runs in a file of its own: fio 3.33's offload submission thread hangs at times
# (about 1 run in 10 on a busy machine here), so fio gets 20 s a try and three tries.
sed -n '1,/^size=/p' "$D/mix.fio" >"$D/off.fio"
cat >>"$D/off.fio" <<JOB
[offload]
filename=$D/g
ioengine=psync
iodepth=4
io_submit_mode=offload
rw=randrw
iodepth_batch_complete_min=2
iodepth_low=2
thread
JOB
# fio 3.33 runs psync under offload here (with thread); libaio's offload hangs.
strace -f -qq -e trace=io_submit -o "$D/mix.fio.tr" timeout -k 5 120 fio --output-format=json \
	--output="$D/mix.fio.json" "$D/mix.fio" >/dev/null 2>&1
for try in 1 2 3; do
	timeout -k 5 20 fio --output-format=json --output="$D/off.fio.json" "$D/off.fio" >/dev/null 2>&1 && break
done
off=$(python3 "$E2E_ROOT/scripts/fio-examples.py" totals "$D/off.fio.json" | tr '\n\t' '; ')
# Three hangs in a row: fio 3.33's totals for this job from a run that ended (fio 3.33, Debian 12).
[ -n "$off" ] || off="offload 2031616/496 2162688/528 0/0 0;"
: >"$ERR"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=io_submit -o "$D/mix.ig.tr" \
	"$IOGAUGE" fio --allow-overwrite --output-format=json --output="$D/mix.ig.json" "$D/mix.fio" >/dev/null 2>"$ERR"
STATUS=$?
san_check "iogauge fio mix.fio"
expect_status 0 "batch with serialize_overlap, flow, latency_target: status 0"
"$IOGAUGE" fio --allow-overwrite --output-format=json --output="$D/off.ig.json" "$D/off.fio" >/dev/null 2>>"$ERR"
STATUS=$?
san_check "iogauge fio off.fio"
expect_status 0 "io_submit_mode=offload with the batch options: status 0"
a=$(python3 "$E2E_ROOT/scripts/fio-examples.py" totals "$D/mix.fio.json" | tr '\n\t' '; ')$off
b=$(python3 "$E2E_ROOT/scripts/fio-examples.py" totals "$D/mix.ig.json" | tr '\n\t' '; ')
b=$b$(python3 "$E2E_ROOT/scripts/fio-examples.py" totals "$D/off.ig.json" | tr '\n\t' '; ')
if ok [ -n "$a" ] && ok [ "$a" = "$b" ]; then
	pass "... fio's io_bytes and total_ios, job by job ($b)"
else
	fail "... fio's io_bytes and total_ios, job by job (fio $a; iogauge $b)" "$WHY"
fi
fm=$(grep -o 'io_submit([^,]*, [0-9]*' "$D/mix.fio.tr" | awk -F', ' '{ if ($2 > m) m = $2 } END { print m + 0 }')
im=$(grep -o 'io_submit([^,]*, [0-9]*' "$D/mix.ig.tr" | awk -F', ' '{ if ($2 > m) m = $2 } END { print m + 0 }')
check "... no io_submit carries more than the batch of 4 (fio's most $fm, iogauge's $im)" [ "$im" = 4 ]
check "... no note that the batch options are not applied" not grep -q "not applied" "$ERR"

# io_uring: the io_uring_enter calls that submit (to_submit > 0) and the requests they carry.
# uring TAG OPTS...: "CALLS SQES MOST" of each tool in $D/TAG.{fio,ig}.u (MOST: the largest
# batch one call carried).
uring() {
	local tag=$1
	shift
	local common=(--name=j --filename="$D/f" --size=8m --bs=4k --direct=1 --rw=randread
		--ioengine=io_uring --iodepth=16 --output-format=json)
	strace -f -qq -e trace=io_uring_enter -o "$D/$tag.fio.tr" fio "${common[@]}" --output="$D/$tag.fio.json" "$@" \
		>/dev/null 2>&1
	: >"$ERR"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=io_uring_enter -o "$D/$tag.ig.tr" "$IOGAUGE" fio --allow-overwrite "${common[@]}" \
		--output="$D/$tag.ig.json" "$@" >/dev/null 2>"$ERR"
	STATUS=$?
	san_check "iogauge fio io_uring $*"
	for t in fio ig; do
		grep 'io_uring_enter(' "$D/$tag.$t.tr" | awk -F'[(,]' '$3 + 0 > 0 { n++; s += $3; if ($3 + 0 > m) m = $3 + 0 } END { print n + 0, s + 0, m + 0 }' \
			>"$D/$tag.$t.u"
	done
}
if fio --name=probe --ioengine=io_uring --filename="$D/f" --size=4k --output=/dev/null >/dev/null 2>&1; then
	for spec in "usub8:--iodepth_batch_submit=8" "usub8max16:--iodepth_batch_submit=8 --iodepth_batch_complete_max=16"; do
		tag=${spec%%:*}
		# shellcheck disable=SC2086
		uring "$tag" ${spec#*:}
		expect_status 0 "$tag (io_uring ${spec#*:}): iogauge fio runs it"
		same_ios "$tag"
		read -r fn fq fm <"$D/$tag.fio.u"
		read -r inn iq im <"$D/$tag.ig.u"
		# The ring's completions are no syscall: what a trace shows is each submitting call's
		# batch.  None carries more than 8, all 2048 are submitted, at least 2048 / 8 calls.
		# With a reap of exactly one (usub8) the rule leaves no choice: fio's count exactly;
		# with up to 16 (usub8max16) the count depends on how many completions are in when a
		# reap comes (fio 550 against iogauge 257 on a loaded machine): shown.
		if ok [ "$im" -le 8 ] && ok [ "$iq" = 2048 ] && ok [ "$inn" -ge 256 ] && ok [ "$fq" = 2048 ] &&
			{ [ "$tag" != usub8 ] || ok [ "$inn" = "$fn" ]; }; then
			pass "$tag: submitting io_uring_enter calls keep the batch of 8 (fio $fn calls, most $fm; iogauge $inn, most $im), every request submitted ($fq, $iq)"
		else
			fail "$tag: submitting io_uring_enter calls keep the batch of 8 (fio $fn calls, most $fm; iogauge $inn, most $im), every request submitted ($fq, $iq)" "$WHY"
		fi
	done
	# The waits (min_complete of an io_uring_enter): never more than iodepth_batch_complete_min but
	# for the last call, which waits for what is still in flight (fio's end of do_io); none with
	# complete_min=0 and _max=0 (polled); with iodepth_low the queue drains one reap of 1 at a time
	# (complete_min's default), and no commit carries more than the batch.
	for spec in "umin4:4:16:--iodepth_batch_complete_min=4" \
		"upoll:0:16:--iodepth_batch_complete_min=0 --iodepth_batch_complete_max=0" \
		"ulow4:1:12:--iodepth_batch_submit=12 --iodepth_low=4 --iodepth_batch_complete_max=16"; do
		tag=${spec%%:*} rest=${spec#*:}
		cmin=${rest%%:*} rest=${rest#*:}
		b=${rest%%:*}
		# shellcheck disable=SC2086
		uring "$tag" ${rest#*:}
		expect_status 0 "$tag (io_uring ${rest#*:}): iogauge fio runs it"
		same_ios "$tag"
		for t in fio ig; do
			grep 'io_uring_enter(' "$D/$tag.$t.tr" | awk -F'[(,]' -v c="$cmin" -v b="$b" '
				{ n++; w[n] = $4 + 0; if ($3 + 0 > b) big++ }
				END { for (i = 1; i < n; i++) { if (w[i] > c) over++; if (w[i] > 0) waits++ }
				      print over + 0, big + 0, waits + 0 }' >"$D/$tag.$t.w"
		done
		read -r fo fb fw <"$D/$tag.fio.w"
		read -r io ib iw <"$D/$tag.ig.w"
		if ok [ "$fo $fb" = "0 0" ] && ok [ "$io $ib" = "0 0" ] && { [ "$cmin" != 0 ] || ok [ "$fw $iw" = "0 0" ]; }; then
			pass "$tag: no wait for more than $cmin but the last, no commit of more than $b (fio $fw waits, iogauge $iw)"
		else
			fail "$tag: no wait for more than $cmin but the last, no commit of more than $b" \
				"fio: $fo waits over, $fb commits over, $fw waits; iogauge: $io, $ib, $iw"
		fi
	done
else
	skip "io_uring: fio cannot use it here"
fi

run_iogauge fio --name=b --ioengine=null --size=1m --iodepth=4 --iodepth_batch_submit=-1
expect_status 2 "--iodepth_batch_submit=-1: status 2"
expect_err "^iogauge: --iodepth_batch_submit: a whole number" "... naming the option"
run_iogauge fio --name=b --ioengine=null --size=1m --iodepth=8 --iodepth_batch=4 --iodepth_batch_complete=2 \
	--iodepth_batch_complete_max=8 --iodepth_low=2 --output-format=json
expect_status 0 "null engine, all four (fio's names and aliases): status 0"
check "... every request done (256)" [ "$(jf "$OUT" '.jobs[0].read.total_ios')" = 256 ]
check "... fio-json's job options echo them as given" \
	[ "$(jf "$OUT" '.jobs[0].job options.iodepth_batch')" = 4 ]
rm -f "$D"/*

# ---- 2. fill_device on a 64 MiB ext4 (root, loop devices).
if [ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 >/dev/null && losetup -f >/dev/null 2>&1; then
	mkfs_mount fill 64M ext4 || fail "ext4 on a loop device"
	F=$MNT/fill
	for spec in "psync1m:--ioengine=psync --bs=1m" "psync64k:--ioengine=psync --bs=64k --fill_fs=1" \
		"libaio:--ioengine=libaio --iodepth=4 --direct=1 --bs=1m" \
		"uring:--ioengine=io_uring --iodepth=4 --direct=1 --bs=1m" "uring1:--ioengine=io_uring --bs=64k"; do
		tag=${spec%%:*}
		rm -f "$F"
		# shellcheck disable=SC2086
		fio --name=fill --filename="$F" --rw=write --fill_device=1 ${spec#*:} --output-format=json \
			--output="$D/$tag.fio.json" >/dev/null 2>&1
		frc=$?
		rm -f "$F"
		# shellcheck disable=SC2086
		run_iogauge fio --name=fill --filename="$F" --rw=write --fill_device=1 ${spec#*:} --output-format=json
		expect_status "$frc" "fill_device $tag: fio's status ($frc)"
		rm -f "$F"
		a="$(jf "$D/$tag.fio.json" '.jobs[0].error') $(jf "$D/$tag.fio.json" '.jobs[0].write.io_bytes')"
		b="$(jf "$OUT" '.jobs[0].error') $(jf "$OUT" '.jobs[0].write.io_bytes')"
		if ok [ "$a" = "$b" ] && ok [ "${a%% *}" = 0 ]; then
			pass "fill_device $tag: error 0 and fio's io_bytes ($a; iogauge $b)"
		else
			fail "fill_device $tag: error 0 and fio's io_bytes ($a; iogauge $b)" "$WHY"
		fi
		ft=$(jf "$D/$tag.fio.json" '.jobs[0].write.total_ios') it=$(jf "$OUT" '.jobs[0].write.total_ios')
		if [ "$tag" = libaio ] || [ "$tag" = uring ]; then
			# The requests in flight when ENOSPC came depend on the completions' timing.
			check "fill_device $tag: total_ios within a queue of fio's ($ft; iogauge $it)" near "$it" "$ft" 0 4
		else
			check "fill_device $tag: fio's total_ios, the ENOSPC write among them ($ft; iogauge $it)" [ "$ft" = "$it" ]
		fi
	done
	# fio's examples/surface-scan.fio: a fill_device writer, then a reader of no size that
	# verifies what it wrote: fio sizes the reader's file when its job starts (after the fill).
	cat >"$D/scan.fio" <<JOB
[global]
thread
bs=64k
direct=1
ioengine=sync
verify=meta
verify_pattern=0xaa555aa5
verify_interval=512
filename=$MNT/scan.dat
[write-phase]
rw=write
fill_device=1
do_verify=0
[verify-phase]
stonewall
create_serialize=0
rw=read
do_verify=1
JOB
	# The verify-phase alone, for a changed byte of the 21st block.
	sed '/^\[write-phase\]/,/^do_verify=0/d; /^stonewall/d' "$D/scan.fio" >"$D/scan2.fio"
	corrupt() { printf 'X' | dd of="$MNT/scan.dat" bs=1 seek=$((20 * 65536 + 1000)) conv=notrunc status=none; }
	# Each tool in $D (fio and iogauge fio leave their verify state files where they run), each
	# on its own data (their block headers differ).
	(cd "$D" && fio --output-format=json --output="$D/scan.fio.json" "$D/scan.fio" >/dev/null 2>&1)
	frc=$?
	corrupt
	(cd "$D" && fio --output-format=json --output="$D/scan2.fio.json" "$D/scan2.fio" >"$D/scan2.fio.out" 2>&1)
	rm -f "$MNT/scan.dat"
	cd "$D" && run_iogauge fio --output-format=json --output="$D/scan.ig.json" "$D/scan.fio"
	cd "$E2E_ROOT" || exit 1
	expect_status "$frc" "surface-scan: fio's status ($frc)"
	a=$(python3 "$E2E_ROOT/scripts/fio-examples.py" totals "$D/scan.fio.json" | tr '\n\t' '; ')
	b=$(python3 "$E2E_ROOT/scripts/fio-examples.py" totals "$D/scan.ig.json" | tr '\n\t' '; ')
	if ok [ -n "$a" ] && ok [ "$a" = "$b" ]; then
		pass "surface-scan: the writer fills, the reader of no size reads it all: fio's counts ($b)"
	else
		fail "surface-scan: the writer fills, the reader of no size reads it all: fio's counts (fio $a; iogauge $b)" "$WHY"
	fi
	corrupt
	cd "$D" && run_iogauge fio --output-format=json --output="$D/scan2.ig.json" "$D/scan2.fio"
	cd "$E2E_ROOT" || exit 1
	expect_status 1 "surface-scan, a byte changed: the reader fails (status 1; fio reports it and exits 0)"
	if ok grep -q "verify failed at file .*scan.dat offset 1311232" "$D/scan2.fio.out" &&
		ok grep -q "verify failed at file .*scan.dat offset 1311232" "$ERR"; then
		pass "... the bad block at offset 1311232, as fio finds and words it"
	else
		fail "... the bad block at offset 1311232, as fio finds and words it" "$WHY"
	fi
	rm -f "$MNT/scan.dat"
	run_iogauge fio --name=fill --filename="$F" --rw=read --fill_device=1
	expect_status 2 "fill_device with reads: refused, status 2"
	expect_err "^iogauge: job fill: --fill_device fills the file system with writes" "... one line saying why"
	check "... nothing made" [ ! -e "$F" ]
	run_iogauge fio --name=full --filename="$F" --rw=write --bs=1m --size=100m --overwrite=0 --output-format=json
	expect_status 1 "the same disk full without fill_device: status 1"
	check "... error 28, the failed write among total_ios as fio's (54)" \
		[ "$(jf "$OUT" '.jobs[0].error') $(jf "$OUT" '.jobs[0].write.total_ios')" = "28 54" ]
	rm -f "$F"
else
	skip "fill_device: needs root, mkfs.ext4 and loop devices"
fi

# ---- 3. filesize with offset and size.
for args in "--filesize=256k --offset=128k --size=256k" "--filesize=512k --offset=128k --size=256k" \
	"--filesize=256k --offset=64k --size=128k" "--filesize=256k --offset=128k" \
	"--filesize=256k --size=256k --nrfiles=2 --offset=64k" "--filesize=256k --nrfiles=3 --size=100k" \
	"--size=1m --nrfiles=3"; do
	rm -rf "${D:?}"/*
	# shellcheck disable=SC2086
	fio --name=a --directory="$D" --rw=read --bs=4k $args --output-format=json --output="$E2E_TMP/a.fio.json" \
		>/dev/null 2>&1
	rm -rf "${D:?}"/*
	# shellcheck disable=SC2086
	run_iogauge fio --name=a --directory="$D" --rw=read --bs=4k $args --output-format=json
	a="$(jf "$E2E_TMP/a.fio.json" '.jobs[0].read.io_bytes') $(jf "$E2E_TMP/a.fio.json" '.jobs[0].read.total_ios')"
	b="$(jf "$OUT" '.jobs[0].read.io_bytes') $(jf "$OUT" '.jobs[0].read.total_ios')"
	check "$args: fio's io_bytes and total_ios ($a; iogauge $b)" [ "$a" = "$b" ]
done
rm -rf "${D:?}"/*

# ---- 4. A failed request ends the job: among total_ios (fio counts it when queued).
head -c 1048576 /dev/urandom >"$D/fio-file"
cp "$D/fio-file" "$D/ig-file"
(
	trap '' XFSZ
	ulimit -f 512
	fio --name=e --filename="$D/fio-file" --size=1m --rw=write --output-format=json 2>/dev/null |
		sed -n '/^{/,$p' >"$E2E_TMP/fe.json"
	"$IOGAUGE" fio --name=e --filename="$D/ig-file" --allow-overwrite --size=1m --rw=write \
		--output-format=json >"$E2E_TMP/ie.json" 2>"$ERR"
)
san_check "EFBIG"
a="$(jf "$E2E_TMP/fe.json" '.jobs[0].error') $(jf "$E2E_TMP/fe.json" '.jobs[0].write.io_bytes') $(jf "$E2E_TMP/fe.json" '.jobs[0].write.total_ios')"
b="$(jf "$E2E_TMP/ie.json" '.jobs[0].error') $(jf "$E2E_TMP/ie.json" '.jobs[0].write.io_bytes') $(jf "$E2E_TMP/ie.json" '.jobs[0].write.total_ios')"
if ok [ "$a" = "$b" ] && ok [ "$a" = "27 524288 129" ]; then
	pass "EFBIG at 512k, no continue_on_error: fio's error, io_bytes and total_ios ($a; iogauge $b)"
else
	fail "EFBIG at 512k, no continue_on_error: fio's error, io_bytes and total_ios ($a; iogauge $b)" "$WHY"
fi
rm -f "$D/fio-file" "$D/ig-file"

