#!/bin/bash
# fio's verification, data patterns and dedupe, and size-bound bssplit/bsrange
# randrw jobs, each run under fio 3.33 and iogauge in this run: the same
# io_bytes and total_ios per direction (verify reads count as reads), the same
# bytes on disk for buffer_pattern and verify_pattern, a corrupt block found by
# both (verify_dump, verify_fatal), fio's dedupe shapes; verify_state_save/load
# (iogauge's own files).  On ext4 on a RAM-backed loop device.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# Debian's python3 first: a pyenv shim on PATH costs seconds a call.
PATH=/usr/bin:$PATH

need_root
need_iogauge
need_loop
need_cmd mkfs.ext4 fio python3 cmp
need_json

IMG=$(mktemp /dev/shm/iogauge-e2e.XXXXXX) && truncate -s 160M "$IMG" && LOOP=$(losetup -f --show "$IMG") &&
	E2E_LOOPS+=("$LOOP") && rm -f "$IMG" && mkfs_ext4 "$LOOP" && mount_tmp "$LOOP" || {
	rm -f "$IMG"
	fail "ext4 on a RAM-backed loop device"
	exit 1
}
D=$MNT/work
mkdir "$D" || exit 1
# fio writes local-JOB-N-verify.state files to the current directory: the scratch one, never the tree.
cd "$E2E_TMP" || exit 1
j() { jget "$E2E_TMP/own.json" "$1" 2>/dev/null; }
# flip FILE OFFSET: invert one byte in place.
flip() {
	python3 -c 'import sys
f = open(sys.argv[1], "r+b"); o = int(sys.argv[2]); f.seek(o); b = f.read(1); f.seek(o); f.write(bytes([b[0] ^ 0xff]))' "$1" "$2"
}

# ---- 1. One job file under both: every job's io_bytes and total_ios per direction, no error.
cat >"$E2E_TMP/same.fio" <<'JOB'
[global]
size=512k
bs=4k

; fio counts a verifying job's read-back as its reads (rw=write verify=md5: read = write bytes)
[w-md5]
rw=write
verify=md5
[randw-crc-loops]
rw=randwrite
verify=crc32c
loops=2
[interval]
rw=write
bs=16k
verify=sha256
verify_interval=4k
[meta]
rw=randwrite
verify=meta
[pattern]
rw=write
verify_pattern="abcd"-120xdeadface
[meta-pattern]
rw=randwrite
verify=meta
verify_pattern=0x5a%o
[backlog]
rw=randwrite
verify=xxhash
verify_backlog=16
[aio]
rw=randwrite
verify=crc32c
ioengine=libaio
iodepth=8
direct=1
[bss-verify]
rw=randwrite
bssplit=4k/50:16k/50
verify=md5
[no-do-verify]
rw=write
verify=md5
do_verify=0
[experimental]
rw=randwrite
verify=crc32c
experimental_verify=1
loops=3
[randrw-verify]
rw=randrw
verify=crc32c
[fatal-clean]
rw=write
verify=crc32c
verify_fatal=1
; a read job checks what an earlier writer with the same settings wrote
[writer]
stonewall
filename=rd.file
rw=write
verify=md5
do_verify=0
[reader]
stonewall
filename=rd.file
rw=randread
verify=md5

; size-bound bssplit / bsrange randrw: fio's very requests
[bss-same]
stonewall
size=2m
rw=randrw
bssplit=4k/50:16k/30:64k/20
[bss-dirs]
size=2m
rw=randrw
rwmixread=70
bssplit=512/10:4k/60:32k/30,8k/50:128k/50
[bss-loops]
size=2m
rw=randrw
rwmixread=30
bssplit=4k/20:8k/80,16k/40:64k/60
loops=2
[bss-align]
size=2m
rw=randrw
bssplit=1k/50:4k/50,4k/100
blockalign=4k
[bsrange-aio]
size=2m
rw=randrw
bsrange=4k-32k,8k-16k
ioengine=libaio
iodepth=4
[bss-threads]
size=2m
rw=randrw
bssplit=64k/50:128k/50,4k/100
numjobs=2
; dedupe options: accepted by both (their data: section 4)
[dedupe-ws]
rw=randwrite
dedupe_percentage=30
dedupe_mode=working_set
dedupe_working_set_percentage=20
dedupe_global=1
; io_size beyond size: more loops of size bytes, a verifying writer's read-backs counted toward it
[iosize-verify]
rw=randwrite
io_size=1536k
verify=crc32c
[iosize-loops]
rw=randwrite
io_size=1m
loops=2
[iosize-bss]
rw=randrw
bssplit=4k/50:64k/50
io_size=1536k
JOB
(cd "$E2E_TMP" && fio --directory="$D" --output-format=json same.fio >fio.json 2>fio.err)
rm -rf "${D:?}"/*
run_iogauge run --directory="$D" --output-format=fio-json --json="$E2E_TMP/own.json" "$E2E_TMP/same.fio"
expect_status 0 "verify, bssplit and dedupe jobs under iogauge: exit 0"
cat >"$E2E_TMP/same.py" <<'PY'
import json, sys
def load(p):
    t = open(p).read()
    return json.loads(t[t.index("{"):])["jobs"]
fio, iog = load(sys.argv[1]), load(sys.argv[2])
def c(j, d): return (j[d]["io_bytes"], j[d]["total_ios"])
bad = 0
if len(fio) != len(iog) or len(fio) != 26:
    print("threads: fio", len(fio), "iogauge", len(iog)); bad += 1
for a, b in zip(fio, iog):
    ok = a["jobname"] == b["jobname"] and c(a, "read") == c(b, "read") and c(a, "write") == c(b, "write") \
        and a["error"] == 0 and b["error"] == 0
    print("ok  " if ok else "DIFF", a["jobname"], "fio", c(a, "read"), c(a, "write"),
          "iogauge", c(b, "read"), c(b, "write"), "errors", a["error"], b["error"])
    bad += not ok
sys.exit(bad != 0)
PY
check "every thread: the same io_bytes and total_ios per direction as fio (verify reads are reads)" \
	python3 "$E2E_TMP/same.py" "$E2E_TMP/fio.json" "$OUT"
check "rw=write verify=md5: read 512 KiB, checked 128 blocks, none bad" \
	[ "$(j .jobs[0].read.bytes)/$(j .jobs[0].verify.checked_blocks)/$(j .jobs[0].verify.bad_blocks)" = "524288/128/0" ]
check "the read job checked each block it read against its header: 128, none bad" \
	[ "$(j .jobs[14].name)/$(j .jobs[14].verify.checked_blocks)/$(j .jobs[14].verify.bad_blocks)" = "reader/128/0" ]
check "verify_interval: a header every 4k of the 16k blocks (32 blocks, none bad)" \
	[ "$(j .jobs[2].verify.checked_blocks)/$(j .jobs[2].verify.bad_blocks)" = "32/0" ]
rm -rf "${D:?}"/*

# ---- 2. Patterns: the same bytes on disk as fio's (one run of each: four jobs).
printf 'FILEPAT' >"$E2E_TMP/pat.bin"
p1='"abcd"-120xdeadface' p2="0xff0x14-1\"z\"'$E2E_TMP/pat.bin'17"
for t in fio own; do
	if [ $t = fio ]; then R=(fio); else R=(run_iogauge run --keep); fi
	c=(--size=16k --bs=4k --rw=write)
	# verify=pattern: the pattern alone; verify_pattern alone: a header, then the pattern (fio's).
	"${R[@]}" --name=b1 --filename="$D/$t.b1" "${c[@]}" --buffer_pattern="$p1" \
		--name=b2 --filename="$D/$t.b2" "${c[@]}" --buffer_pattern="$p2" \
		--name=vp --filename="$D/$t.vp" "${c[@]}" --verify=pattern --verify_pattern='0x55"x"%o' \
		--name=vh --filename="$D/$t.vh" "${c[@]}" --verify_pattern='0x55"x"%o' >/dev/null 2>&1
done
cp "$OUT" "$E2E_TMP/own.txt"
expect_status 0 "buffer_pattern, verify=pattern and verify_pattern (with %o) jobs: exit 0"
check "buffer_pattern=$p1: the file is byte for byte fio's" cmp -s "$D/fio.b1" "$D/own.b1"
check "buffer_pattern=$p2: the file is byte for byte fio's" cmp -s "$D/fio.b2" "$D/own.b2"
check "$p1: 61 62 63 64 f4 ff ff ff de ad fa ce" \
	[ "$(head -c 12 "$D/own.b1" | od -An -tx1 | tr -d ' \n')" = 61626364f4ffffffdeadface ]
check "verify=pattern with %o (each block's offset): the file is byte for byte fio's" cmp -s "$D/fio.vp" "$D/own.vp"
check "verify_pattern alone: checked as meta (a header, then the pattern)" grep -q "^vh: .*verify=meta" "$E2E_TMP/own.txt"
check "verify_pattern alone: past the headers, each block is fio's" python3 -c 'import sys
a, b = (open(f, "rb").read() for f in sys.argv[1:])
sys.exit(len(a) != len(b) or any(a[i + 128:i + 4096] != b[i + 128:i + 4096] for i in range(0, len(a), 4096)))' \
	"$D/fio.vh" "$D/own.vh"
run_iogauge run --name=p --filename="$D/x" --size=16k --rw=write --buffer_pattern='0x12%o'
expect_status 2 "buffer_pattern takes no %o (as fio's): exit 2"
run_iogauge run --name=p --filename="$D/x" --size=16k --rw=write --buffer_pattern='"ab'
expect_status 2 "an unterminated string: exit 2"
expect_err "^iogauge: --buffer_pattern: '\"ab' is not a pattern" "an unterminated string: one line naming the option"
rm -rf "${D:?}"/*

# ---- 3. A corrupt block: found by both; verify_dump's files; verify_fatal.
mkdir "$E2E_TMP/dump-fio" "$E2E_TMP/dump-own"
wr=(--name=c --size=1m --bs=4k --rw=write --verify=crc32c --do_verify=0)
rd=(--name=c --size=1m --bs=4k --rw=read --verify=crc32c --verify_dump=1)
fio "${wr[@]}" --filename="$D/f.dat" >/dev/null 2>&1
flip "$D/f.dat" 70000
flip "$D/f.dat" 300000
(cd "$E2E_TMP/dump-fio" && fio "${rd[@]}" --filename="$D/f.dat" >out 2>err)
check "fio: the flipped block at 69632 fails its verify" grep -q "offset 69632" "$E2E_TMP/dump-fio/err"
rm -f "$D/f.dat"
run_iogauge run --keep "${wr[@]}" --filename="$D/f.dat"
flip "$D/f.dat" 70000
flip "$D/f.dat" 300000
cd "$E2E_TMP/dump-own" || exit 1
run_iogauge run --keep "${rd[@]}" --filename="$D/f.dat" --json="$E2E_TMP/own.json"
cd "$E2E_TMP" || exit 1
expect_status 1 "iogauge: a read job over corrupt blocks: exit 1"
expect_err "offset 69632 of .*f.dat: corrupt" "iogauge: names the block at 69632, corrupt"
check "iogauge: both bad blocks found (verify_fatal=0 checks on), 256 read" \
	[ "$(j .jobs[0].verify.bad_blocks)/$(j .jobs[0].read.ios)" = "2/256" ]
for f in f.dat.69632.received f.dat.69632.expected; do
	if ok [ -s "$E2E_TMP/dump-fio/$f" ] && ok [ -s "$E2E_TMP/dump-own/$f" ]; then
		pass "verify_dump: $f, as fio names it"
	else
		fail "verify_dump: $f, as fio names it" "$WHY"
	fi
done
check "verify_dump: the second block's files too" [ -s "$E2E_TMP/dump-own/f.dat.299008.received" ]
check "verify_dump: received and expected differ in the flipped byte alone" \
	[ "$(cmp -l "$E2E_TMP/dump-own/f.dat.69632.received" "$E2E_TMP/dump-own/f.dat.69632.expected" | tr -s ' ')" = " 369 321 56" ]
run_iogauge run --keep "${rd[@]}" --verify_dump=0 --verify_fatal=1 --filename="$D/f.dat" --json="$E2E_TMP/own.json"
expect_status 1 "verify_fatal=1: exit 1"
check "verify_fatal=1: stopped at the first bad block (1 bad, 18 read)" \
	[ "$(j .jobs[0].verify.bad_blocks)/$(j .jobs[0].read.ios)" = "1/18" ]
run_iogauge run --keep "${rd[@]}" --verify_dump=0 --verify=md5 --filename="$D/f.dat"
expect_status 1 "a read job with another --verify than the writer's: exit 1"
expect_err "offset 0 of .*written with --verify=crc32c" "another --verify: says which wrote the blocks (fio: verify type mismatch)"
rm -rf "${D:?}"/*

# ---- 4. verify_state_save / verify_state_load: only the writes the earlier run made are checked.
st=(--name=st --filename="$D/s.dat" --size=1m --bs=4k --rw=randwrite --verify=crc32c)
# (In the scratch directory: the state files go to the current one, as fio's.)
cd "$E2E_TMP" || exit 1
run_iogauge run --keep "${st[@]}" --number_ios=100 --do_verify=0 --verify_state_save=1
check "verify_state_save: local-st-0-verify.state written" [ -s "$E2E_TMP/local-st-0-verify.state" ]
run_iogauge run --keep "${st[@]}" --verify_only --verify_state_load=1 --json="$E2E_TMP/own.json"
expect_status 0 "verify_state_load: the 100 writes made, checked: exit 0"
check "verify_state_load: 100 blocks checked, none bad" \
	[ "$(j .jobs[0].verify.checked_blocks)/$(j .jobs[0].verify.bad_blocks)" = "100/0" ]
run_iogauge run --keep "${st[@]}" --verify_only
expect_status 1 "without the state: the 156 blocks never written are bad, exit 1"
rm -f "$E2E_TMP/local-st-0-verify.state"
run_iogauge run --keep "${st[@]}" --verify_only --verify_state_load=1
expect_status 2 "verify_state_load without a state file: exit 2"
expect_err "local-st-0-verify.state: No such file" "verify_state_load without a state file: names it"
rm -rf "${D:?}"/*

# ---- 5. dedupe_mode: the shapes fio's data has (distinct blocks, the blocks repeated, what threads share).
dd_py='import sys, collections
def blocks(f):
    d = open(f, "rb").read()
    return collections.Counter(d[i:i + 4096] for i in range(0, len(d), 4096))
c = [blocks(f) for f in sys.argv[1:]]
a = sum(c, collections.Counter())
print(len(a), sum(1 for v in a.values() if v > 1), len(set(c[0]) & set(c[-1])) if len(c) > 1 else 0)'
for t in fio own; do
	if [ $t = fio ]; then R=(fio); else R=("$IOGAUGE" run --keep); fi
	w=(--bs=4k --rw=write --dedupe_percentage=50)
	"${R[@]}" --name=ws --filename="$D/$t.ws" --size=2m "${w[@]}" --dedupe_mode=working_set \
		--dedupe_working_set_percentage=10 \
		--name=rp --filename="$D/$t.rp" --size=2m "${w[@]}" --dedupe_mode=repeat \
		--name=g --filename_format="$t.g.\$jobnum" --directory="$D" --numjobs=2 --size=1m "${w[@]}" \
		--dedupe_mode=working_set --dedupe_working_set_percentage=10 --dedupe_global=1 >/dev/null 2>&1
	read -r ws_n ws_rep _ < <(python3 -c "$dd_py" "$D/$t.ws")
	read -r rp_n rp_rep _ < <(python3 -c "$dd_py" "$D/$t.rp")
	read -r _ _ g_shared < <(python3 -c "$dd_py" "$D/$t.g.0" "$D/$t.g.1")
	eval "${t}_ws=$ws_n ${t}_wsrep=$ws_rep ${t}_rp=$rp_n ${t}_rprep=$rp_rep ${t}_g=$g_shared"
done
# Half of 512 blocks fresh: 256, give or take four standard deviations (fio's draws and ours differ).
if ok between "$own_ws" 210 302 && ok between "$fio_ws" 210 302; then
	pass "working_set 10%: distinct blocks about half, as fio's (iogauge $own_ws, fio $fio_ws)"
else
	fail "working_set 10%: distinct blocks about half, as fio's (iogauge $own_ws, fio $fio_ws)" "$WHY"
fi
if ok [ "$own_wsrep" -le 52 ] && ok [ "$fio_wsrep" -le 52 ] && ok [ "$own_wsrep" -ge 44 ]; then
	pass "working_set 10%: the repeated blocks ($own_wsrep, fio $fio_wsrep) are the set's (at most 52)"
else
	fail "working_set 10%: the repeated blocks ($own_wsrep, fio $fio_wsrep) are the set's (at most 52)" "$WHY"
fi
if ok between "$own_rp" 210 302 && ok between "$fio_rp" 210 302 && ok [ "$own_rprep" -gt 100 ] && ok [ "$fio_rprep" -gt 100 ]; then
	pass "repeat: distinct blocks about half (iogauge $own_rp, fio $fio_rp); repeats spread ($own_rprep, fio $fio_rprep)"
else
	fail "repeat: distinct blocks about half (iogauge $own_rp, fio $fio_rp); repeats spread ($own_rprep, fio $fio_rprep)" "$WHY"
fi
if ok [ "$own_g" -ge 20 ] && ok [ "$fio_g" -ge 20 ]; then
	pass "dedupe_global: the two threads' files share blocks ($own_g, fio $fio_g)"
else
	fail "dedupe_global: the two threads' files share blocks ($own_g, fio $fio_g)" "$WHY"
fi
rm -rf "${D:?}"/*

# ---- 6. fio's verify options iogauge does not have: refused by name before any I/O.
for o in verify_offset=8 trim_verify_zero=1 buffer_compress_chunk=4k scramble_buffers=1; do
	run_iogauge run --name=u --filename="$D/u" --size=1m --rw=write --verify=crc32c --"$o"
	expect_status 2 "--$o: exit 2"
	expect_err "unsupported fio option '${o%%=*}'" "--$o: named"
done
check "nothing left behind" dir_empty "$D"
