#!/bin/bash
# read_iolog replays as fio's (issue 28, item 5), each against fio 3.33 in
# the same run: requests of more than 1 GiB (a 2 GiB read, cut where the
# kernel cuts it and fio sends the rest again) from a sparse loop device,
# reads only; one log of two files onto two loop devices (the bytes each
# device moved, and each direction's, as under fio); numjobs with a list of
# logs (the log each clone replays, as fio assigns them); two jobs each with
# its own replay_redirect; and tests/data/blktrace-sdb.bin, a trace of
# another machine's disk (tests/data/mkblktrace.py writes it), replayed.
# Writes are small; the large reads read the holes of a sparse backing file.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
PATH=/usr/bin:$PATH
need_iogauge
need_cmd fio python3
need_json
T=$E2E_TMP
ERR=$T/iog.err
cd "$T" || exit 1

# dirs FILE.json: "READBYTES READIOS WRITEBYTES WRITEIOS" of the first job.
dirs() { jget "$1" .jobs[0].read.io_bytes .jobs[0].read.total_ios .jobs[0].write.io_bytes .jobs[0].write.total_ios | tr '\n' ' '; }
settle() { command -v udevadm >/dev/null && udevadm settle 2>/dev/null; sync; }
# delta BEFORE AFTER: "READSECTORS WRITESECTORS" moved between two dev_sectors.
delta() {
	local a b
	read -ra a <<<"$1"
	read -ra b <<<"$2"
	echo "$((b[0] - a[0])) $((b[1] - a[1]))"
}

# big_fio: fio's replay of big.log, and in fd the sectors its device moved ("READ WRITE"), once
# per make test (fio takes 16 s, iogauge 4, here): the other pass takes this run's (fio_cached's
# directory, a lock so that it waits), its own device of the same size having the same to move.
big_fio() {
	local f=${IOGAUGE_FIO_CACHE:-}/replay-big rc
	if [ -z "${IOGAUGE_FIO_CACHE:-}" ] || [ ! -d "$IOGAUGE_FIO_CACHE" ]; then
		big_fio_run
		return
	fi
	{
		flock 9
		if [ ! -f "$f.rc" ]; then
			big_fio_run
			rc=$?
			cp big.fio.json "$f.json"
			echo "$fd" >"$f.delta"
			echo "$rc" >"$f.rc"
		fi
	} 9>"$f.lock"
	cp "$f.json" big.fio.json
	fd=$(cat "$f.delta")
	return "$(cat "$f.rc")"
}
big_fio_run() {
	local b0 b1 rc
	settle
	b0=$(dev_sectors "$BIG")
	timeout -k 5 300 fio --name=big --read_iolog=big.log --output-format=json >big.fio.json 2>big.fio.err
	rc=$?
	settle
	b1=$(dev_sectors "$BIG")
	fd=$(delta "$b0" "$b1")
	return $rc
}

if [ "$(id -u)" = 0 ] && need_loop; then
	# 1. A 2 GiB read and a 1.5 GiB one (fio 3.33 takes either; iogauge took at most 1 GiB): the
	#    kernel moves 2 GiB - 4 KiB of the first in one call and fio sends the last 4 KiB again,
	#    so both make 3 calls and read 3.5 GiB off the device.  fio counts the cut request by the
	#    bytes of its last piece (1.5 GiB + 4 KiB in all); iogauge by the bytes it moved.
	if mkloop big 3584M; then
		BIG=$LOOP
		printf 'fio version 2 iolog\n%s add\n%s open\n%s read 0 2147483648\n%s read 2147483648 1610612736\n%s close\n' \
			"$BIG" "$BIG" "$BIG" "$BIG" "$BIG" >big.log
		big_fio
		check "fio 3.33 replays a 2 GiB read: exit 0" [ $? = 0 ]
		settle
		b1=$(dev_sectors "$BIG")
		"$IOGAUGE" fio --name=big --read_iolog=big.log --filename="$BIG" --output-format=json >big.iog.json 2>"$ERR"
		check "iogauge replays it: exit 0" [ $? = 0 ]
		san_check big
		settle
		b2=$(dev_sectors "$BIG")
		id=$(delta "$b1" "$b2")
		echo "# fio: $(dirs big.fio.json)short $(jget big.fio.json .jobs[0].read.short_ios), device $fd sectors;" \
			"iogauge: $(dirs big.iog.json)device $id sectors"
		check "the same calls as fio: 3 reads (one cut in two), no write" \
			[ "$(jget big.iog.json .jobs[0].read.total_ios .jobs[0].write.total_ios | tr '\n' ' ')" = \
			"$(jget big.fio.json .jobs[0].read.total_ios .jobs[0].write.total_ios | tr '\n' ' ')" ]
		check "fio reports the cut request as short" [ "$(jget big.fio.json .jobs[0].read.short_ios)" = 1 ]
		check "iogauge read 3.5 GiB: its bytes" [ "$(jget big.iog.json .jobs[0].read.io_bytes)" = 3758096384 ]
		check "... what the device moved under iogauge (read sectors)" [ "${id%% *}" = $((3758096384 / 512)) ]
		# fio reads through the page cache: when memory is short (the other pass replays the same
		# 3.5 GiB beside it) readahead pages go before they are used and are read again, a few
		# MiB here once; the requests are the same, so fio's device read is iogauge's, within 1%.
		n="... and under fio 3.33: the same requests reached the device (within 1%, no write)"
		if ok [ "${fd#* }" = 0 ] && ok [ "${fd%% *}" -ge "${id%% *}" ] &&
			ok [ "${fd%% *}" -le $((${id%% *} * 101 / 100)) ]; then pass "$n"; else fail "$n" "$WHY"; fi
		check "fio's own count: the cut request's last 4 KiB (3.5 GiB - (2 GiB - 4 KiB))" \
			[ "$(jget big.fio.json .jobs[0].read.io_bytes)" = $((3758096384 - 2147479552)) ]
		# A log of requests past what a length holds is not one fio reads either.
		printf 'fio version 2 iolog\n%s add\n%s read 0 4294967296\n' "$BIG" "$BIG" >huge.log
		"$IOGAUGE" fio --name=big --read_iolog=huge.log --filename="$BIG" >/dev/null 2>"$ERR"
		check "a 4 GiB request (past a 32-bit length): exit 2" [ $? = 2 ]
		check "... naming the line" grep -q "line 3: '4294967296' is not a length" "$ERR"
	else
		skip "2 GiB requests" "no loop device"
	fi

	# 2. One log (version 3) of two devices, reads and writes: each request onto its device, as
	#    fio replays it (the log names the devices; iogauge is given them as --filename=A:B).
	if mkloop la 8M && LA=$LOOP && mkloop lb 8M && LB=$LOOP; then
		{
			echo "fio version 3 iolog"
			echo "0 $LA add"
			echo "0 $LB add"
			echo "1 $LA open"
			echo "1 $LB open"
			echo "10 $LA write 0 65536"
			echo "20 $LB write 1048576 4096"
			echo "30 $LB write 8192 16384"
			echo "40 $LA read 0 65536"
			echo "50 $LB read 1048576 4096"
			echo "60 $LA read 4194304 131072"
			echo "70 $LB read 0 8192"
			echo "80 $LA write 7340032 4096"
			echo "90 $LA close"
			echo "90 $LB close"
		} >two.log
		settle
		a0=$(dev_sectors "$LA") c0=$(dev_sectors "$LB")
		fio --name=two --read_iolog=two.log --direct=1 --output-format=json >two.fio.json 2>two.fio.err
		check "fio 3.33 replays a log of two devices: exit 0" [ $? = 0 ]
		settle
		a1=$(dev_sectors "$LA") c1=$(dev_sectors "$LB")
		"$IOGAUGE" fio --name=two --read_iolog=two.log --filename="$LA:$LB" --direct=1 --allow-destroy \
			--output-format=json >two.iog.json 2>"$ERR"
		check "iogauge replays it onto --filename=A:B: exit 0" [ $? = 0 ]
		san_check two
		settle
		a2=$(dev_sectors "$LA") c2=$(dev_sectors "$LB")
		echo "# fio: $(dirs two.fio.json)A $(delta "$a0" "$a1"), B $(delta "$c0" "$c1");" \
			"iogauge: $(dirs two.iog.json)A $(delta "$a1" "$a2"), B $(delta "$c1" "$c2")"
		check "bytes and requests per direction as fio's" [ "$(dirs two.iog.json)" = "$(dirs two.fio.json)" ]
		check "... 4 reads (204 KiB), 4 writes (88 KiB)" [ "$(dirs two.iog.json)" = "208896 4 90112 4 " ]
		check "device A moved what it moved under fio (sectors read, written)" \
			[ "$(delta "$a1" "$a2")" = "$(delta "$a0" "$a1")" ]
		check "device B too" [ "$(delta "$c1" "$c2")" = "$(delta "$c0" "$c1")" ]
		check "... A: 192 KiB read, 68 KiB written; B: 12 KiB, 20 KiB" \
			[ "$(delta "$a1" "$a2") $(delta "$c1" "$c2")" = "384 136 24 40" ]
		"$IOGAUGE" fio --name=two --read_iolog=two.log --filename="$LA" --direct=1 --allow-destroy >/dev/null 2>"$ERR"
		check "the log's second device not among the job's files: exit 2" [ $? = 2 ]
		check "... naming it" grep -q "replays onto $LB, not this job's --filename=$LA" "$ERR"
	else
		skip "a log of two devices" "no loop devices"
	fi
else
	skip "2 GiB requests and a log of two devices" "needs root and loop devices"
fi

# 3. numjobs with read_iolog=A:B: fio gives its clones the logs in turn (the first clone A; the
#    others by their subjob numbers, numjobs-1 down to 1, round the list): 3 clones replay A, A, B.
head -c 1048576 /dev/zero >fa
head -c 1048576 /dev/zero >fb
printf 'fio version 2 iolog\n%s/fa add\n%s/fa open\n%s/fa write 0 4096\n%s/fa close\n' "$T" "$T" "$T" "$T" >a.log
printf 'fio version 2 iolog\n%s/fb add\n%s/fb open\n%s/fb write 0 8192\n%s/fb write 65536 8192\n%s/fb close\n' \
	"$T" "$T" "$T" "$T" "$T" >b.log
fio_cached --name=nj --read_iolog=a.log:b.log --numjobs=3 --output-format=json >nj.fio.json 2>/dev/null
check "fio 3.33 replays a list of logs with numjobs=3: exit 0" [ $? = 0 ]
"$IOGAUGE" fio --name=nj --read_iolog=a.log:b.log --numjobs=3 --filename="$T/fa:$T/fb" --allow-overwrite \
	--output-format=json >nj.iog.json 2>"$ERR"
check "iogauge too (the logs' files given): exit 0" [ $? = 0 ]
san_check numjobs
per_clone() { jget "$1" .jobs[0].write.io_bytes .jobs[1].write.io_bytes .jobs[2].write.io_bytes | tr '\n' ' '; }
echo "# each clone's writes: fio $(per_clone nj.fio.json); iogauge $(per_clone nj.iog.json)"
check "each clone replays the log fio gives it: A, A, B (4 KiB, 4 KiB, 16 KiB)" \
	[ "$(per_clone nj.iog.json)" = "$(per_clone nj.fio.json)" ]
check "... as the logs say" [ "$(per_clone nj.iog.json)" = "4096 4096 16384 " ]
fio_cached --name=nj1 --read_iolog=b.log --numjobs=2 --group_reporting --output-format=json >nj1.fio.json 2>/dev/null
"$IOGAUGE" fio --name=nj1 --read_iolog=b.log --numjobs=2 --group_reporting --filename="$T/fb" --allow-overwrite \
	--output-format=json >nj1.iog.json 2>"$ERR"
check "one log, numjobs=2: each clone replays it (the group's writes as fio's: $(jget nj1.fio.json .jobs[0].write.total_ios))" \
	[ "$(jget nj1.iog.json .jobs[0].write.io_bytes .jobs[0].write.total_ios)" = \
	"$(jget nj1.fio.json .jobs[0].write.io_bytes .jobs[0].write.total_ios)" ]

# 4. Two jobs, each its log onto its own replay_redirect: each job's requests as fio's.
printf '[global]\nreplay_no_stall=1\n[ja]\nread_iolog=%s/a.log\nreplay_redirect=%s/ra\n[jb]\nread_iolog=%s/b.log\nreplay_redirect=%s/rb\n' \
	"$T" "$T/fio" "$T" "$T/fio" >rr.fio
mkdir fio iog
head -c 1048576 /dev/zero >fio/ra
head -c 1048576 /dev/zero >fio/rb
fio --output-format=json rr.fio >rr.fio.json 2>/dev/null
check "fio 3.33: two jobs, each with its replay_redirect: exit 0" [ $? = 0 ]
sed "s|$T/fio/|$T/iog/|" rr.fio >rr.iog
"$IOGAUGE" fio --output-format=json rr.iog >rr.iog.json 2>"$ERR"
check "iogauge: exit 0" [ $? = 0 ]
jobs2() { jget "$1" .jobs[0].write.io_bytes .jobs[0].write.total_ios .jobs[1].write.io_bytes .jobs[1].write.total_ios | tr '\n' ' '; }
check "each job's writes as fio's ($(jobs2 rr.fio.json))" [ "$(jobs2 rr.iog.json)" = "$(jobs2 rr.fio.json)" ]
if ok [ "$(stat -c %s iog/ra 2>/dev/null)" -ge 4096 ] && ok [ "$(stat -c %s iog/rb 2>/dev/null)" -ge 73728 ]; then
	pass "... each onto its own file (A's 4 KiB, B's up to 72 KiB)"
else
	fail "... each onto its own file" "$WHY"
fi

# 5. A blktrace trace of another machine's disk (8:16; tests/data/mkblktrace.py made it, as a
#    capture merged by blkparse -d holds it: notify records, remaps, merges, completions, a
#    passthrough request, two CPUs): the queue events replayed, as fio 3.33 replays them.
BT=$E2E_ROOT/tests/data/blktrace-sdb.bin
python3 "$E2E_ROOT/tests/data/mkblktrace.py" again.bin 2>bt.requests
check "tests/data/blktrace-sdb.bin is what tests/data/mkblktrace.py writes" cmp -s "$BT" again.bin
head -c 8388608 /dev/zero >bt.f
fio_cached --name=bt --read_iolog="$BT" --replay_redirect="$T/bt.f" --replay_no_stall=1 --replay_skip=trim \
	--output-format=json >bt.fio.json 2>/dev/null
check "fio 3.33 replays the trace (its discard skipped: a file takes none): exit 0" [ $? = 0 ]
"$IOGAUGE" fio --name=bt --read_iolog="$BT" --replay_redirect="$T/bt.i" --replay_no_stall=1 --replay_skip=trim \
	--output-format=json >bt.iog.json 2>"$ERR"
check "iogauge replays it: exit 0" [ $? = 0 ]
san_check blktrace
bts() { echo "$(dirs "$1")$(jget "$1" .jobs[0].sync.total_ios)"; }
echo "# trace: fio $(bts bt.fio.json); iogauge $(bts bt.iog.json)"
check "bytes and requests per direction, and the flush, as fio's" [ "$(bts bt.iog.json)" = "$(bts bt.fio.json)" ]
check "... the trace's queue events: 6 reads (92 KiB, a merged bio among them), 5 writes (32 KiB), 1 flush" \
	[ "$(bts bt.iog.json)" = "94208 6 32768 5 1" ]
check "... the generator lists the same requests" [ "$(grep -c ' read ' bt.requests) $(grep -c ' write ' bt.requests)" = "6 5" ]
