#!/bin/bash
# fio's io_submit_mode=offload: each job thread hands its requests to a pool of iodepth threads,
# each with its own engine context (src/engines/offload.c).  Against fio in the same run:
#  - psync, iodepth=4, size-bound jobs (rw=read, randwrite, randrw with a fixed seed): the same
#    io_bytes and total_ios per direction as fio's offload (fio 3.33's own offload hangs now and
#    then: it is tried with a time limit, and after a hang fio's inline run of the same job
#    stands for it, which draws the same requests); fio-json as fio has it for a synchronous engine under
#    offload: no slat, clat for every request, lat (from the preparation) >= clat;
#  - strace -f: the preads come from more than one thread, none of them the job thread (the
#    threads' parent); inline, the job thread makes them all (so the check can fail); libaio and
#    io_uring too: the iodepth threads each submit one request a call with a context of their
#    own, the same requests as fio's inline run (fio hangs on libaio offload, refuses io_uring);
#  - a device that takes time (O_DIRECT random reads of a file on the disk): strace -ttt -T shows
#    more than one pread in progress at once (at most 4) with offload iodepth=4, one with inline
#    psync iodepth=4 (so the check can fail); IOPS and requests in flight on average are shown;
#  - SIGINT early (while the file is laid out) and mid-run: status 130, "interrupted", what was
#    done so far, the pool's threads seen while it ran and the process gone within 5 s; a verify
#    job too.  Each signal waits for its stage (the file growing; the progress line of
#    --eta=always with requests done), never a fixed time;
#  - EIO and ENOSPC (the inject engine) end the job with status 1 and the
#    offset; verify=crc32c of a randwrite passes through the pool.
# fio's runs go through fio_cached: the ASan pass takes the release pass's (fixed seeds, sizes).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
PATH=/usr/bin:$PATH

need_iogauge
need_cmd fio
need_json

D=$E2E_TMP/d
mkdir -p "$D" || exit 1
jf() { jget "$1" "$2" 2>/dev/null; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print 0 }'; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

# ---- 1. The same requests as fio.
FIO_OFFLOAD=unknown
for rw in read randwrite randrw; do
	f=$D/p-$rw
	common=(--name=p --filename="$f" --size=8m --bs=4k --rw="$rw" --randseed=42 --ioengine=psync --iodepth=4)
	head -c 8M /dev/urandom >"$f"
	if [ "$FIO_OFFLOAD" != hangs ]; then
		# --thread: one process, so the time limit ends all of it.  When it runs it takes 1-4 s on
		# a loaded machine; one taken for a hang only swaps in fio's inline run of the same job.
		FIO_TIMEOUT=6 fio_cached "${common[@]}" --io_submit_mode=offload --thread --output-format=json \
			--output="$D/$rw.fo.json" >/dev/null 2>&1
		rc=$?
		# With --thread fio writes its notes ("note: both iodepth >= 1 and synchronous I/O engine
		# are selected...") into --output's file, before the JSON: the JSON is from its first "{".
		sed -i -n '/^{/,$p' "$D/$rw.fo.json" 2>/dev/null
		if [ "$rc" = 0 ] && jget "$D/$rw.fo.json" >/dev/null 2>&1; then FIO_OFFLOAD=runs; else FIO_OFFLOAD=hangs; fi
	fi
	ref=$D/$rw.fo.json
	if [ "$FIO_OFFLOAD" = hangs ]; then
		fio_cached "${common[@]}" --output-format=json --output="$D/$rw.fio.json" >/dev/null 2>&1
		ref=$D/$rw.fio.json
	fi
	run_iogauge fio --allow-overwrite "${common[@]}" --io_submit_mode=offload --output-format=json --output="$D/$rw.ig.json"
	expect_status 0 "$rw offload: status 0"
	for dir in read write; do
		fb=$(jf "$ref" ".jobs[0].$dir.io_bytes") ib=$(jf "$D/$rw.ig.json" ".jobs[0].$dir.io_bytes")
		fi=$(jf "$ref" ".jobs[0].$dir.total_ios") ii=$(jf "$D/$rw.ig.json" ".jobs[0].$dir.total_ios")
		if ok [ -n "$fb" ] && ok [ "$ib" = "$fb" ]; then
			pass "$rw offload: $dir io_bytes as fio's ($ib vs $fb; fio's offload $FIO_OFFLOAD)"
		else
			fail "$rw offload: $dir io_bytes as fio's ($ib vs $fb; fio's offload $FIO_OFFLOAD)" "$WHY"
		fi
		if ok [ -n "$fi" ] && ok [ "$ii" = "$fi" ]; then
			pass "$rw offload: $dir total_ios as fio's ($ii vs $fi)"
		else
			fail "$rw offload: $dir total_ios as fio's ($ii vs $fi)" "$WHY"
		fi
	done
	d=read
	[ "$rw" = randwrite ] && d=write
	n=$(jf "$D/$rw.ig.json" ".jobs[0].$d.total_ios")
	check "$rw offload: no slat for psync (as fio)" [ "$(jf "$D/$rw.ig.json" ".jobs[0].$d.slat_ns.N")" = 0 ]
	check "$rw offload: clat for every request ($n)" [ "$(jf "$D/$rw.ig.json" ".jobs[0].$d.clat_ns.N")" = "$n" ]
	check "$rw offload: lat mean >= clat mean (the wait in the queue)" \
		ge "$(jf "$D/$rw.ig.json" ".jobs[0].$d.lat_ns.mean")" "$(jf "$D/$rw.ig.json" ".jobs[0].$d.clat_ns.mean")"
	check "$rw offload: fio-json latency_depth is the iodepth (4)" [ "$(jf "$D/$rw.ig.json" .jobs[0].latency_depth)" = 4 ]
done
echo "# fio 3.33's own offload run: $FIO_OFFLOAD"

# ---- 2. Who makes the preads: strace -f.
if command -v strace >/dev/null; then
	head -c 1M /dev/urandom >"$D/s"
	# tids FILE: "TID PARENT NREADS PARENT_PREADS" for each thread with the job's reads (NREADS: its
	# preads of 4096 bytes that read 4096, a call whole or its "resumed" end; PARENT: the thread that
	# cloned it; PARENT_PREADS: the parent's preads of any kind).  The main thread's own probes
	# (the loader's, the device's) are other sizes: counted by kind, not by a threshold a loaded
	# machine could cross (a pool thread that got few requests).
	tids() {
		awk '/clone3?\(/ && $NF ~ /^[0-9]+$/ { parent[$NF] = $1 }
		     /pread64\(/ { any[$1]++ }
		     /pread64(\(| resumed>).*, 4096, [0-9]+\) = 4096$/ { n[$1]++ }
		     END { for (t in n) print t, (t in parent ? parent[t] : 0), n[t], (parent[t] in any ? any[parent[t]] : 0) }' "$1"
	}
	for mode in offload inline; do
		: >"$ERR"
		# LeakSanitizer cannot run under ptrace: the san build's leak check is off for these two.
		ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} timeout -k 5 120 strace -f -qq -e trace=clone,clone3,pread64 -o "$D/st.$mode" "$IOGAUGE" run --name=s \
			--filename="$D/s" --size=1m --bs=4k --rw=read --ioengine=psync --iodepth=4 \
			--io_submit_mode=$mode --allow-overwrite >/dev/null 2>"$ERR"
		STATUS=$?
		expect_status 0 "strace, $mode: status 0"
		tids "$D/st.$mode" >"$D/busy.$mode"
	done
	nt=$(wc -l <"$D/busy.offload")
	tot=$(awk '{ s += $3 } END { print s + 0 }' "$D/busy.offload")
	check "strace, offload: the preads come from more than one thread ($nt threads, $tot preads)" [ "$nt" -gt 1 ]
	check "strace, offload: 256 preads from those threads" [ "$tot" = 256 ]
	check "strace, offload: none of them from the job thread (their parent makes no pread)" \
		awk 'BEGIN { ok = 1 } $2 == 0 || $4 != 0 { ok = 0 } END { exit !ok }' "$D/busy.offload"
	check "strace, offload: one parent, the job thread" [ "$(awk '{ print $2 }' "$D/busy.offload" | sort -u | wc -l)" = 1 ]
	check "strace, inline (control): one thread makes them all" [ "$(wc -l <"$D/busy.inline")" = 1 ]
else
	skip "strace: not installed"
fi

# ---- 2b. libaio and io_uring through the pool (fio 3.33 hangs on libaio with offload here and
# refuses io_uring: its inline run stands for the requests): each of the iodepth threads submits
# with a context of its own, one request a call; the job thread submits none.
if command -v strace >/dev/null; then
	head -c 1M /dev/urandom >"$D/a"
	# subs FILE: "TID PARENT NSUBMITS PARENT'S-NSUBMITS" for each thread that submitted
	# (io_submit, or an io_uring_enter with requests to submit).
	subs() {
		awk '/clone3?\(/ && $NF ~ /^[0-9]+$/ { parent[$NF] = $1 }
		     /io_submit\(/ || /io_uring_enter\([0-9]+, [1-9]/ { n[$1]++ }
		     END { for (t in n) print t, (t in parent ? parent[t] : 0), n[t], (parent[t] in n ? n[parent[t]] : 0) }' "$1"
	}
	for e in libaio io_uring; do
		sc=io_submit
		[ "$e" = io_uring ] && sc=io_uring_enter
		common=(--name=a --filename="$D/a" --size=1m --bs=4k --rw=randread --direct=1 --ioengine="$e" --iodepth=4)
		timeout -k 5 120 fio "${common[@]}" --output-format=json --output="$D/a.$e.fio.json" >/dev/null 2>&1
		: >"$ERR"
		ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} timeout -k 5 120 strace -f -qq -e trace=clone,clone3,$sc \
			-o "$D/st.$e" "$IOGAUGE" fio --allow-overwrite "${common[@]}" --io_submit_mode=offload \
			--output-format=json --output="$D/a.$e.ig.json" >/dev/null 2>"$ERR"
		STATUS=$?
		expect_status 0 "$e offload: status 0"
		a="$(jf "$D/a.$e.fio.json" .jobs[0].read.io_bytes) $(jf "$D/a.$e.fio.json" .jobs[0].read.total_ios)"
		b="$(jf "$D/a.$e.ig.json" .jobs[0].read.io_bytes) $(jf "$D/a.$e.ig.json" .jobs[0].read.total_ios)"
		check "$e offload: io_bytes and total_ios as fio's inline run ($b; fio $a)" [ "$a" = "$b" ]
		subs "$D/st.$e" >"$D/subs.$e"
		nt=$(wc -l <"$D/subs.$e")
		tot=$(awk '{ s += $3 } END { print s + 0 }' "$D/subs.$e")
		if ok [ "$nt" -gt 1 ] && ok [ "$nt" -le 4 ] && ok [ "$tot" = 256 ] &&
			ok awk 'BEGIN { ok = 1 } $2 == 0 || $4 != 0 { ok = 0 } END { exit !ok }' "$D/subs.$e" &&
			ok [ "$(awk '{ print $2 }' "$D/subs.$e" | sort -u | wc -l)" = 1 ]; then
			pass "$e offload: the job thread's pool ($nt of its 4 threads) submits the 256 requests, one a call, the job thread none"
		else
			fail "$e offload: the job thread's pool (2 to 4 threads) submits the 256 requests, one a call, the job thread none ($nt threads, $tot calls)" \
				"$WHY"
			sed 's/^/# /' "$D/subs.$e"
		fi
	done
else
	skip "libaio and io_uring offload: no strace"
fi

# ---- 3. A device that takes time: direct random reads of a file on the disk.
# The most preads in progress at once, from strace -f -ttt -T (a call's start and its end): above
# 1 only when threads overlap; inline psync at iodepth=4 stays at 1 (so the check can fail).
head -c 32M /dev/urandom >"$D/slow"
maxfl() {
	awk '/pread64\(/ && /unfinished/ { beg[$1] = $2; next }
	     /pread64 resumed/ { if ($1 in beg) { print beg[$1], 1; print $2, -1; delete beg[$1] } next }
	     /pread64\(/ { d = $NF; gsub(/[<>]/, "", d); print $2, 1; printf "%.6f -1\n", $2 + d }' "$1" |
		sort -k1,1n -k2,2n | awk '{ c += $2; if (c > m) m = c } END { print m + 0 }'
}
if command -v strace >/dev/null; then
	for mode in offload inline; do
		: >"$ERR"
		ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} timeout -k 5 120 strace -f -qq -ttt -T \
			-e trace=pread64 -o "$D/fl.$mode" "$IOGAUGE" run --name=q --filename="$D/slow" --size=32m --bs=4k \
			--rw=randread --direct=1 --ioengine=psync --iodepth=4 --io_submit_mode=$mode --number_ios=2000 \
			--allow-overwrite >/dev/null 2>"$ERR"
		STATUS=$?
		expect_status 0 "in flight, $mode: status 0"
	done
	mo=$(maxfl "$D/fl.offload") mi=$(maxfl "$D/fl.inline")
	echo "# direct randread 4k psync iodepth=4, most preads in progress at once: offload $mo, inline $mi"
	check "slow device: offload iodepth=4 has more than one pread in progress at once ($mo)" [ "$mo" -gt 1 ]
	check "slow device: offload iodepth=4 never more than 4 ($mo)" [ "$mo" -le 4 ]
	check "slow device: inline psync iodepth=4 has one at a time ($mi, control)" [ "$mi" = 1 ]
else
	skip "in flight: no strace"
fi
# Figures only (a shared disk and loaded CPUs make them noisy): IOPS, and requests in flight on
# average (IOPS x mean clat, Little's law).
busy() { # MODE DEPTH: "IOPS INFLIGHT"
	run_iogauge run --name=q --filename="$D/slow" --size=32m --bs=4k --rw=randread --direct=1 --ioengine=psync \
		--iodepth="$2" --io_submit_mode="$1" --runtime=1 --time_based --output-format=fio-json --allow-overwrite
	awk -v i="$(jf "$OUT" .jobs[0].read.iops)" -v c="$(jf "$OUT" .jobs[0].read.clat_ns.mean)" \
		'BEGIN { printf "%.0f %.2f", i, i * c / 1e9 }'
}
read -r o1 f1 <<<"$(busy offload 1)"
read -r o4 f4 <<<"$(busy offload 4)"
read -r i4 fi4 <<<"$(busy inline 4)"
echo "# direct randread 4k psync, IOPS (in flight on average): offload qd1 $o1 ($f1), offload qd4 $o4 ($f4, x$(ratio "$o4" "$o1") IOPS), inline iodepth=4 $i4 ($fi4)"
check "slow device: inline psync iodepth=4 at most 1 in flight on average ($fi4)" ge 1.02 "$fi4"

# ---- 4. SIGINT: early (while the file is laid out) and mid-run; a verify job mid-run.
# pool_sigint NAME ARGS...: SIGINT once the progress line shows requests done (the pool runs).
pool_sigint() {
	local name=$1 t
	shift
	start_iogauge run "$@" --output-format=json --eta=always
	if ! await_bg 'threads running, [0-9]+ s, [0-9]{2,} requests' 60; then
		fail "$name: requests done before SIGINT" "$WHY; stderr: $(head -c 300 "$ERR")"
		signal_bg KILL 5
		return
	fi
	t=$(ls "/proc/$BGPID/task" 2>/dev/null | wc -l)
	check "$name: the pool's threads while it runs (main, job, 4: $t tasks)" [ "$t" -ge 6 ]
	signal_bg INT 10
	# The pool's 4 threads each end their one request (O_DIRECT 4 KiB): 5 s is plenty loaded.
	check "$name: gone within 5 s of SIGINT (${WAITED_MS} ms)" [ "$WAITED_MS" -le 5000 ]
	expect_status 130 "$name: exit status 130"
	check "$name: \"interrupted\": true" [ "$(jf "$OUT" .interrupted)" = true ]
}
# laying_out FILE: FILE is there and short of its 256 MiB: the layout is under way.
laying_out() {
	local sz
	sz=$(stat -c %s "$1" 2>/dev/null) || return 1
	[ "$sz" -lt $((256 << 20)) ]
}
# SIGINT while the 256 MiB file is laid out (the file there, still short); a layout that ended
# before the signal came is tried again, up to 3 times.
for try in 1 2 3; do
	start_iogauge run --name=i --filename="$D/sig0" --size=256m --bs=4k --rw=randread --direct=1 \
		--ioengine=psync --iodepth=4 --io_submit_mode=offload --runtime=30 --time_based --output-format=json
	for ((n = 0; n < 3000; n++)); do
		laying_out "$D/sig0" && break
		bg_running || break
		sleep 0.01
	done
	signal_bg INT 10
	grep -q "interrupted while laying out" "$ERR" && break
	rm -f "$D/sig0"
done
check "SIGINT during the layout: gone within 5 s of SIGINT (${WAITED_MS} ms)" [ "$WAITED_MS" -le 5000 ]
expect_status 130 "SIGINT during the layout: exit status 130"
expect_err "interrupted while laying out" "SIGINT during the layout: said so (try $try of 3)"
check "SIGINT during the layout: the test file is removed" [ ! -e "$D/sig0" ]
pool_sigint "SIGINT mid-run" --name=i --filename="$D/slow" --size=32m --bs=4k --rw=randread --direct=1 \
	--ioengine=psync --iodepth=4 --io_submit_mode=offload --runtime=30 --time_based --allow-overwrite
n=$(jf "$OUT" .jobs[0].read.ios)
check "SIGINT mid-run: what was read so far is reported ($n requests)" gt "${n:-0}" 0
pool_sigint "SIGINT mid-run, verify" --name=i --filename="$D/sigv" --size=64m --bs=4k --rw=randwrite --direct=1 \
	--ioengine=psync --iodepth=4 --io_submit_mode=offload --verify=crc32c --loops=50
n=$(jf "$OUT" .jobs[0].write.ios)
check "SIGINT mid-run, verify: what was written so far is reported ($n requests)" gt "${n:-0}" 0
check "SIGINT mid-run, verify: the test file is removed" [ ! -e "$D/sigv" ]

# ---- 5. Errors and verify through the pool.
head -c 8M /dev/urandom >"$D/e"
run_iogauge run --name=e --filename="$D/e" --size=8m --bs=4k --rw=write --ioengine=inject --inject=eio@4m \
	--iodepth=4 --io_submit_mode=offload --allow-overwrite --json="$D/e.json"
expect_status 1 "EIO through offload: status 1"
expect_err "write error on .* at offset 4194304: Input/output error" "EIO through offload: the offset and errno"
check "EIO through offload: requests before it counted" gt "$(jf "$D/e.json" .jobs[0].write.ios)" 0
run_iogauge run --name=n --filename="$D/e" --size=8m --bs=4k --rw=randwrite --ioengine=inject --inject=enospc@2m \
	--iodepth=4 --io_submit_mode=offload --allow-overwrite --json="$D/n.json"
expect_status 1 "ENOSPC through offload: status 1"
expect_err "at offset 2097152: No space left on device" "ENOSPC through offload: the offset and errno"
run_iogauge run --name=v --filename="$D/v" --size=8m --bs=4k --rw=randwrite --ioengine=psync --iodepth=4 \
	--io_submit_mode=offload --verify=crc32c --json="$D/v.json"
expect_status 0 "verify through offload: status 0"
check "verify through offload: every block checked, no error" grep -q "2048 blocks checked (8.00 MiB) of 2048 written.*: no errors" "$OUT"


# cmdprio's draws follow submission order on one stream: with the pool's threads, refused.
run_iogauge run --name=p --filename="$D/p" --size=1m --ioengine=io_uring --iodepth=4 --io_submit_mode=offload \
	--cmdprio_percentage=20
expect_status 2 "cmdprio with offload: refused (status 2)"
expect_err "cmdprio and hipri_percentage options run with io_submit_mode=inline only" "cmdprio with offload: the message says why"
check "cmdprio with offload: no file made" test ! -e "$D/p"
