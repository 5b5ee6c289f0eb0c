#!/bin/bash
# fio's own verify header under `iogauge fio` (issue 28, items 2 and 3),
# against fio 3.33 in this run: data fio wrote passes `iogauge fio
# --verify_only` and data `iogauge fio` wrote passes `fio --verify_only`, for
# md5, crc32c, crc32c-intel, xxhash, sha256 and meta (rw=write and
# randwrite, several block sizes, verify_interval, numjobs=2, nrfiles=3, a
# filename list, verify_pattern with meta); the header's fields are fio's;
# hostile blocks (a header byte, another offset's block, the magic, a data
# byte, a pattern byte, another verify type, a stale block) are reported
# with fio's very lines and err=84; several files of one job, randrw and
# verify_backlog under a queue deeper than the backlog, and
# verify_state_load without verify_only move fio's reads and writes;
# `iogauge run` keeps its own header and reads fio's.  Small buffered files
# in the test's scratch directory.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
PATH=/usr/bin:$PATH # Debian's python3 (a pyenv shim costs seconds a call)
need_iogauge
need_cmd fio python3
need_json
T=$E2E_TMP
cd "$T" || exit 1

# counts FILE: "jobname read_bytes read_ios write_bytes write_ios error" of each job of fio's JSON.
counts() {
	python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
try:
    jobs = json.loads(t[t.index("{"):])["jobs"]
except ValueError:
    print("no-json")
    sys.exit(0)
for j in jobs:
    print(j["jobname"], j["read"]["io_bytes"], j["read"]["total_ios"], j["write"]["io_bytes"],
          j["write"]["total_ios"], j["error"])
PY
}
# vlines FILE: the lines of fio's verify messages in FILE, fio's io_u flags dropped (iogauge has none).
vlines() {
	grep -E '^(verify: |fio: got pattern|fio: bad pattern|fio: verify type|[a-z0-9-]+: verify failed|       (Expected|Received) CRC)' "$1" |
		sed 's/, flags=[0-9a-f]*)/)/'
}
# hdrs FILE BS: each block's header fields but its seed, time and crc: magic type len offset thread numberio.
hdrs() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
d, bs = open(sys.argv[1], "rb").read(), int(sys.argv[2])
for o in range(0, len(d), bs):
    m, t, ln, seed, off, s, ns, thr, nio, crc = struct.unpack_from("<HHIQQIIHHI", d, o)
    print("%x %d %d %d %d %d" % (m, t, ln, off, thr, nio))
PY
}
# flip FILE OFFSET: invert one byte in place.
flip() {
	python3 -c 'import sys
f = open(sys.argv[1], "r+b"); o = int(sys.argv[2]); f.seek(o); b = f.read(1); f.seek(o); f.write(bytes([b[0] ^ 0xff]))' "$1" "$2"
}
IOG=("$IOGAUGE" fio)

# ---- 1. Each verify type, both ways: fio writes, iogauge fio verifies; iogauge fio writes, fio verifies.
jobs_of() {
	cat <<JOB
[global]
verify=$1
[seq4k]
rw=write
bs=4k
size=256k
filename=seq4k.dat
[rand16k]
rw=randwrite
bs=16k
size=512k
filename=rand16k.dat
[interval]
rw=write
bs=32k
verify_interval=4k
size=256k
filename=interval.dat
[threads]
rw=randwrite
bs=8k
size=128k
numjobs=2
[files]
rw=randwrite
bs=4k
size=192k
nrfiles=3
[list]
rw=write
bs=4k
size=128k
filename=la.dat:lb.dat
[aio]
rw=randwrite
bs=4k
size=128k
ioengine=libaio
iodepth=8
filename=aio.dat
JOB
}
# What each job's verify_only reads: its blocks, each thread's (threads: two).
WANT="seq4k 262144 aio 131072 files 196608 interval 262144 list 131072 rand16k 524288 threads 131072 threads 131072"
# bytes FILE: "job read_bytes ..." of a run's JSON, sorted by job, and every job's error 0.
bytes_ok() {
	counts "$1" | sort -s -k1,1 | awk '{ if ($6 != 0) bad = 1; printf "%s%s %s", n++ ? " " : "", $1, $2 } END { exit bad }'
}
for v in md5 crc32c crc32c-intel xxhash sha256 meta; do
	jobs_of "$v" >"j.$v.fio"
	mkdir "fw.$v" "iw.$v"
	# fio writes (do_verify=0), iogauge fio checks what it wrote.
	(cd "fw.$v" && fio --do_verify=0 --output-format=json "../j.$v.fio" >w.json 2>w.err)
	(cd "fw.$v" && "${IOG[@]}" --verify_only --output-format=json "../j.$v.fio" >v.json 2>v.err)
	st=$?
	got=$(bytes_ok "fw.$v/v.json")
	if ok [ "$st" = 0 ] && ok [ "$got" = "$(echo "$WANT" | xargs -n2 | sort -s -k1,1 | xargs)" ] &&
		ok not grep -q "verify" "fw.$v/v.err"; then
		pass "$v: what fio 3.33 wrote passes iogauge fio --verify_only (every job's blocks read, none bad)"
	else
		fail "$v: what fio 3.33 wrote passes iogauge fio --verify_only" "$WHY (status $st: $got; $(head -c 300 "fw.$v/v.err"))"
	fi
	# iogauge fio writes, fio checks.
	(cd "iw.$v" && "${IOG[@]}" --do_verify=0 --output-format=json "../j.$v.fio" >w.json 2>w.err)
	(cd "iw.$v" && fio --verify_only --output-format=json "../j.$v.fio" >v.json 2>v.err)
	st=$?
	got=$(bytes_ok "iw.$v/v.json")
	if ok [ "$st" = 0 ] && ok [ "$got" = "$(echo "$WANT" | xargs -n2 | sort -s -k1,1 | xargs)" ] &&
		ok not grep -q "verify" "iw.$v/v.err"; then
		pass "$v: what iogauge fio wrote passes fio 3.33's --verify_only"
	else
		fail "$v: what iogauge fio wrote passes fio 3.33's --verify_only" "$WHY (status $st: $got; $(grep -m3 verify "iw.$v/v.err"))"
	fi
	# The headers of a sequential job: fio's fields (magic, verify_type, len, offset, thread, numberio).
	check "$v: iogauge fio's headers carry fio's fields, block for block (seq4k, interval's 4k pieces)" \
		[ "$(hdrs fw.$v/seq4k.dat 4096; hdrs fw.$v/interval.dat 4096)" = "$(hdrs iw.$v/seq4k.dat 4096; hdrs iw.$v/interval.dat 4096)" ]
done
echo "# fio's crc32c header of block 1: $(hdrs fw.crc32c/seq4k.dat 4096 | sed -n 2p); iogauge fio's: $(hdrs iw.crc32c/seq4k.dat 4096 | sed -n 2p)"
check "crc32c-intel is fio's crc32c (verify_type 5), as fio 3.33 writes it" \
	[ "$(hdrs iw.crc32c-intel/seq4k.dat 4096 | awk 'NR == 1 { print $2 }')" = 5 ]

# ---- 2. verify_pattern: with meta, alone (fio's "pattern" type, 17) and under a checksum, both ways.
cat >vp.fio <<'JOB'
[vp-meta]
rw=randwrite
bs=4k
size=128k
verify=meta
verify_pattern=0x5a%o
filename=vpm.dat
[vp-alone]
rw=write
bs=8k
size=128k
verify_pattern="iog"
filename=vpa.dat
[vp-crc]
rw=write
bs=4k
size=64k
verify=crc32c
verify_pattern=0xabcd
filename=vpc.dat
JOB
mkdir fvp ivp
(cd fvp && fio --do_verify=0 ../vp.fio >/dev/null 2>&1 && "${IOG[@]}" --verify_only --output-format=json ../vp.fio >v.json 2>v.err)
st=$?
if ok [ "$st" = 0 ] && ok [ "$(bytes_ok fvp/v.json)" = "vp-alone 131072 vp-crc 65536 vp-meta 131072" ]; then
	pass "verify_pattern (meta, alone, under crc32c): fio's blocks pass iogauge fio --verify_only"
else
	fail "verify_pattern: fio's blocks pass iogauge fio --verify_only" "$WHY (status $st; $(head -c 300 fvp/v.err))"
fi
(cd ivp && "${IOG[@]}" --do_verify=0 ../vp.fio >/dev/null 2>&1 && fio --verify_only --output-format=json ../vp.fio >v.json 2>v.err)
st=$?
if ok [ "$st" = 0 ] && ok [ "$(bytes_ok ivp/v.json)" = "vp-alone 131072 vp-crc 65536 vp-meta 131072" ]; then
	pass "verify_pattern (meta, alone, under crc32c): iogauge fio's blocks pass fio's --verify_only"
else
	fail "verify_pattern: iogauge fio's blocks pass fio's --verify_only" "$WHY (status $st; $(grep -m3 -E 'verify|pattern' ivp/v.err))"
fi
check "verify_pattern: the headers' verify_type as fio's (meta 1, alone 17, crc32c 5) and the bytes after them" \
	[ "$(hdrs fvp/vpa.dat 8192 | cut -d' ' -f1-5; hdrs fvp/vpc.dat 4096 | cut -d' ' -f1-5; cmp -s <(tail -c +41 fvp/vpa.dat | head -c 8000) <(tail -c +41 ivp/vpa.dat | head -c 8000) && echo same)" = \
		"$(hdrs ivp/vpa.dat 8192 | cut -d' ' -f1-5; hdrs ivp/vpc.dat 4096 | cut -d' ' -f1-5; echo same)" ]
check "... meta's type 1" [ "$(hdrs ivp/vpm.dat 4096 | cut -d' ' -f2 | sort -u)" = 1 ]

# ---- 3. Hostile blocks: fio's own lines, err=84, in both; the same lines under iogauge fio.
H=(--name=h --filename=h.dat --size=64k --bs=4k --rw=write --verify=crc32c)
fio "${H[@]}" --do_verify=0 >/dev/null 2>&1
cp h.dat h.good
python3 - <<'PY'
d = open("h.good", "rb").read()
def put(name, b):
    open(name, "wb").write(bytes(b))
a = bytearray(d); a[4096 + 26] ^= 0xff; put("bad.hdr", a)        # a time byte of block 1: only the header's crc says
b = bytearray(d); b[8192:12288] = d[0:4096]; put("bad.mis", b)   # block 0's copy at offset 8192
c = bytearray(d); c[12288] ^= 0x01; put("bad.mag", c)            # the magic of block 3
e = bytearray(d); e[5 * 4096 + 100] ^= 0x10; put("bad.dat", e)   # a data byte of block 5
PY
for k in hdr mis mag dat; do
	cp "bad.$k" h.dat
	fio "${H[@]}" --verify_only --output-format=json >"f.$k.json" 2>"f.$k.err"
	fst=$?
	cp "bad.$k" h.dat
	run_iogauge fio "${H[@]}" --verify_only --output-format=json
	cp "$ERR" "i.$k.err"
	fl=$(vlines "f.$k.err") il=$(vlines "i.$k.err")
	if ok [ "$fst" = 1 ] && ok [ "$STATUS" = 1 ] && ok [ -n "$fl" ] && ok [ "$il" = "$fl" ] &&
		ok [ "$(jget "$OUT" .jobs[0].error)" = 84 ] && ok [ "$(counts "f.$k.json" | cut -d' ' -f6)" = 84 ]; then
		pass "hostile ($k): fio's very lines, status 1 and err=84 as fio 3.33 ($(echo "$fl" | head -1))"
	else
		fail "hostile ($k): fio's very lines, status 1 and err=84 as fio 3.33" "$WHY: fio [$fl] iogauge [$il] status $fst/$STATUS"
	fi
done
run_iogauge fio "${H[@]}" --verify_only
check "the job's line says err=84" grep -q "^h: (groupid=0, jobs=1): err=84" "$OUT"
# A pattern byte of a meta block; another verify type than the one written (fio: type mismatch).
P=(--name=p --filename=p.dat --size=16k --bs=4k --rw=write --verify=meta --verify_pattern=0x5a%o)
fio "${P[@]}" --do_verify=0 >/dev/null 2>&1
flip p.dat 4200
fio "${P[@]}" --verify_only >/dev/null 2>f.pat.err
run_iogauge fio "${P[@]}" --verify_only
check "hostile (a pattern byte after a meta header): fio's three lines" \
	[ "$(vlines "$ERR")" = "$(vlines f.pat.err)" ]
M=(--name=m --filename=m.dat --size=16k --bs=4k --rw=write)
fio "${M[@]}" --verify=md5 --do_verify=0 >/dev/null 2>&1
fio "${M[@]}" --verify=crc32c --verify_only >/dev/null 2>f.mm.err
run_iogauge fio "${M[@]}" --verify=crc32c --verify_only
check "hostile (md5 blocks checked as crc32c): fio's lines, its CRC over the data after md5's header, the type mismatch" \
	[ "$(vlines "$ERR" | head -4)" = "$(vlines f.mm.err)" ]
# A stale block: the job's first write of block 0 put back after its second loop wrote it again
# (writes at 16 a second leave two seconds before that loop's verify reads it).
cat >plant.py <<'PY'
import os, struct, sys, time
path, n = sys.argv[1], int(sys.argv[2])
end, first = time.time() + 60, None
while time.time() < end:
    try:
        with open(path, "rb") as f:
            b = f.read(4096)
    except OSError:
        b = b""
    if len(b) == 4096 and b[:2] == b"\xca\xac":
        nio = struct.unpack_from("<H", b, 34)[0]
        if first is None and nio == 0:
            first = b
        elif first is not None and nio == n:
            fd = os.open(path, os.O_WRONLY)
            os.pwrite(fd, first, 0)
            os.close(fd)
            print("planted")
            sys.exit(0)
    time.sleep(0.005)
print("missed")
PY
# shellcheck disable=SC2054 # rate_iops=READ,WRITE: fio's pair, writes alone limited
S=(--name=s --filename=s.dat --size=128k --bs=4k --rw=write --verify=crc32c --loops=2 --rate_iops=,16)
rm -f s.dat
python3 plant.py s.dat 32 >plant.fio &
fio "${S[@]}" >/dev/null 2>f.stale.err
fst=$?
wait
rm -f s.dat
python3 plant.py s.dat 32 >plant.iog &
run_iogauge fio "${S[@]}" --output-format=json
wait
if ok [ "$(cat plant.fio plant.iog)" = "planted
planted" ] && ok [ "$fst" = 1 ] && ok [ "$STATUS" = 1 ] &&
	ok [ "$(vlines "$ERR")" = "$(vlines f.stale.err)" ] && ok [ "$(jget "$OUT" .jobs[0].error)" = 84 ]; then
	pass "hostile (a stale block, lower numberio): $(vlines "$ERR"), as fio 3.33"
else
	fail "hostile (a stale block, lower numberio): fio's line" "$WHY: fio [$(vlines f.stale.err)] iogauge [$(vlines "$ERR")]"
fi

# ---- 4. Several files of one job, written and verified in one run: fio's reads and writes.
cat >files.fio <<'JOB'
[nr3]
rw=randwrite
bs=4k
size=192k
nrfiles=3
verify=crc32c
loops=2
[list3]
rw=randrw
bs=4k
size=192k
filename=fa.dat:fb.dat:fc.dat
verify=md5
verify_backlog=4
[nr2-aio]
rw=write
bs=8k
size=256k
nrfiles=2
verify=xxhash
ioengine=libaio
iodepth=8
verify_backlog=8
JOB
mkdir ffiles ifiles
(cd ffiles && fio --output-format=json ../files.fio >r.json 2>r.err)
(cd ifiles && "${IOG[@]}" --output-format=json ../files.fio >r.json 2>r.err)
st=$?
echo "# several files: fio $(counts ffiles/r.json | xargs), iogauge $(counts ifiles/r.json | xargs)"
check "several files (nrfiles=3 loops=2, a filename list with randrw and verify_backlog, nrfiles=2 on libaio): fio's reads, writes and no error" \
	[ "$st/$(counts ifiles/r.json)" = "0/$(counts ffiles/r.json)" ]
# A bad block in the second of a job's files: found there and named, as fio does.
F=(--name=mf --filename=ma.dat:mb.dat --size=64k --bs=4k --rw=write --verify=crc32c)
"${IOG[@]}" "${F[@]}" --do_verify=0 >/dev/null 2>&1
flip mb.dat 5000
fio "${F[@]}" --verify_only >/dev/null 2>f.mf.err
run_iogauge fio "${F[@]}" --verify_only
if ok [ "$STATUS" = 1 ] && ok grep -q "at file mb.dat offset 4096" "$ERR" && ok [ "$(vlines "$ERR")" = "$(vlines f.mf.err)" ]; then
	pass "a corrupt block in a job's second file: named by its file, fio's lines"
else
	fail "a corrupt block in a job's second file: named by its file, fio's lines" "$WHY: $(vlines "$ERR" | head -1)"
fi

# ---- 5. randrw (and write) with verify_backlog under a queue deeper than the backlog: fio's counts.
for rw in randrw write; do
	for b in "" "--verify_backlog_batch=4"; do
		# shellcheck disable=SC2086 # b is one option or none
		fio --name=b --filename=fb.$rw --size=1m --bs=4k --rw=$rw --verify=crc32c --verify_backlog=8 $b \
			--ioengine=libaio --iodepth=16 --output-format=json >fb.json 2>/dev/null
		# shellcheck disable=SC2086
		"${IOG[@]}" --name=b --filename=ib.$rw --size=1m --bs=4k --rw=$rw --verify=crc32c --verify_backlog=8 $b \
			--ioengine=libaio --iodepth=16 --output-format=json >ib.json 2>"$ERR"
		check "rw=$rw verify_backlog=8 ${b:-(no batch)} iodepth=16: fio's reads and writes ($(counts fb.json | cut -d' ' -f2-5))" \
			[ "$(counts ib.json)" = "$(counts fb.json)" ]
		rm -f fb.$rw ib.$rw
	done
done

# iogauge's own JSON counts the read-backs apart: the workload's reads and writes are the job's
# requests (1m of 4k: 256), each written block read back once.
run_iogauge run --name=b --filename=ob.dat --size=1m --bs=4k --rw=randrw --verify=crc32c --verify_backlog=8 \
	--ioengine=libaio --iodepth=16 --json="$T/ob.json"
rr=$(jget ob.json .jobs[0].verify.readback_reads) rd=$(jget ob.json .jobs[0].read.ios) wr=$(jget ob.json .jobs[0].write.ios)
if ok [ "$STATUS" = 0 ] && ok [ "$rr" = "$wr" ] && ok [ $((rd - rr + wr)) = 256 ]; then
	pass "iogauge run's JSON: $rr read-backs apart from the workload's $((rd - rr)) reads and $wr writes (256 requests)"
else
	fail "iogauge run's JSON: read-backs apart from the workload's reads" "$WHY (status $STATUS, reads $rd, read-backs $rr, writes $wr)"
fi

# ---- 6. verify_state_load without verify_only: the job writes again, its verify checks what the
#         earlier run wrote (20 writes of 64: 20 reads a loop), as fio.
for l in 1 2; do
	for t in fio iog; do
		mkdir -p "st$l.$t"
		if [ $t = fio ]; then R=(fio); else R=("${IOG[@]}"); fi
		V=(--name=st --filename=s.dat --size=256k --bs=4k --rw=randwrite --verify=crc32c "--loops=$l")
		(cd "st$l.$t" && "${R[@]}" "${V[@]}" --number_ios=20 --do_verify=0 --verify_state_save=1 >/dev/null 2>&1 &&
			"${R[@]}" "${V[@]}" --verify_state_load=1 --output-format=json >l.json 2>l.err)
	done
	check "verify_state_load=1 loops=$l (no verify_only): fio's reads and writes ($(counts "st$l.fio/l.json" | cut -d' ' -f3,5))" \
		[ "$(counts "st$l.iog/l.json")" = "$(counts "st$l.fio/l.json")" ]
done

# State files across the tools: iogauge fio writes fio's binary file (fio loads it) and loads fio's
# (a sequential job: both name the same 20 blocks; a sparse file's holes are no refusal to verify_only).
V=(--name=sx --filename=sx.dat --size=256k --bs=4k --rw=write --verify=crc32c)
mkdir sx1 sx2
(cd sx1 && fio "${V[@]}" --number_ios=20 --do_verify=0 >/dev/null 2>&1 &&
	"${IOG[@]}" "${V[@]}" --verify_only --verify_state_load=1 --output-format=json >l.json 2>l.err)
st=$?
check "iogauge fio --verify_only --verify_state_load=1 loads fio's binary state: 20 blocks read, exit 0" 	[ "$st/$(counts sx1/l.json | cut -d' ' -f3,6)" = "0/20 0" ]
(cd sx2 && "${IOG[@]}" "${V[@]}" --number_ios=20 --do_verify=0 --verify_state_save=1 >/dev/null 2>&1 &&
	fio "${V[@]}" --verify_only --verify_state_load=1 --output-format=json >l.json 2>l.err)
st=$?
if ok [ "$st/$(counts sx2/l.json | cut -d' ' -f3,6)" = "0/20 0" ] && ok [ "$(od -An -tu8 -N8 sx2/local-sx-0-verify.state | xargs)" = 3 ]; then
	pass "fio --verify_state_load=1 loads iogauge fio's state file (fio's version 3): 20 blocks read"
else
	fail "fio --verify_state_load=1 loads iogauge fio's state file" "$WHY (status $st; $(head -c 200 sx2/l.err))"
fi

# ---- 7. iogauge run: its own header still, and it reads fio's.
run_iogauge run --keep --name=own --filename=own.dat --size=64k --bs=4k --rw=write --verify=crc32c
check "iogauge run writes its own header (IGVF)" [ "$(head -c 4 own.dat)" = IGVF ]
run_iogauge run --name=r --filename=fw.sha256/rand16k.dat --size=512k --bs=16k --rw=randread --verify=sha256 \
	--json="$T/r.json"
if ok [ "$STATUS" = 0 ] && ok [ "$(jget r.json .jobs[0].verify.checked_blocks)/$(jget r.json .jobs[0].verify.bad_blocks)" = 32/0 ]; then
	pass "iogauge run reads fio's sha256 headers: 32 blocks checked, none bad"
else
	fail "iogauge run reads fio's sha256 headers" "$WHY (status $STATUS)"
fi

# The runs above kept iogauge's stderr in files of their own (the ASan build's reports too).
check "no sanitizer report in any iogauge fio run's stderr" \
	not grep -rlE "ERROR: (Address|Leak)Sanitizer|runtime error:" --include='*.err' "$T"
