#!/usr/bin/env python3
"""Write tests/data/blktrace-sdb.bin: a blktrace binary trace as another machine's
`blktrace -d /dev/sdb` (two CPUs) merged by `blkparse -i sdb -d blktrace-sdb.bin`
would give it, for read_iolog replay tests where this kernel cannot trace.

What a capture of an ext4 file system's disk holds, in blkparse -d's order (by
time across the CPUs, each CPU's records numbered in turn): a timestamp and the
process names (notify records with their payloads), then per request the block
layer's steps: A (remap, a 24-byte payload), Q (queue: the events fio replays),
M (a bio merged into the one before it: a queue event of its own first),
G, P, I, U (unplug, an 8-byte payload), D (issue) and C (complete); reads,
writes (sync, meta and FUA journal commits), a flush of no bytes, a discard,
a scheduler message and a SCSI passthrough request (smartctl: I, D, C with
BLK_TC_PC, no queue event).  Device 8:16, on little-endian CPUs.  Deterministic:
the same bytes on every run (no clock, no random numbers).

    python3 tests/data/mkblktrace.py tests/data/blktrace-sdb.bin

Its requests (the queue events, what fio 3.33 replays): printed on stderr.
"""
import struct
import sys

MAGIC = 0x65617407  # BLK_IO_TRACE_MAGIC | version 7
DEV = (8 << 20) | 16  # the kernel's dev_t of 8:16 (12 bits major, 20 minor)

# blktrace_api.h: categories (shifted into the action's top 16 bits) and actions.
TC = dict(R=1 << 0, W=1 << 1, F=1 << 2, S=1 << 3, Q=1 << 4, I=1 << 6, C=1 << 7, FS=1 << 8,
          PC=1 << 9, N=1 << 10, M=1 << 12, D=1 << 13, FUA=1 << 15)
TA = dict(Q=1, BM=2, G=5, I=7, D=8, C=9, P=10, U=11, A=13)
TN_PROCESS, TN_TIMESTAMP, TN_MESSAGE = 0, 1, 2

records = []  # (time_ns, cpu, pid, action, sector, bytes, error, pdu)


def act(what, cats):
    bits = 0
    for c in cats:
        bits |= TC[c]
    return (bits << 16) | what


def rec(t, cpu, pid, action, sector=0, nbytes=0, pdu=b"", error=0):
    records.append((t, cpu, pid, action, sector, nbytes, error, pdu))


def request(t, cpu, pid, cats, sector, nbytes, lat_us, merged=None):
    """A bio and the request it becomes; merged: a second bio (sector, bytes) joined to it."""
    remap = struct.pack(">IIQ", DEV + 1, DEV, sector - 2048)  # from sdb1, as the kernel maps it
    rec(t, cpu, pid, act(TA["A"], cats + ["Q"]), sector, nbytes, remap)
    rec(t + 300, cpu, pid, act(TA["Q"], cats + ["Q"]), sector, nbytes)
    rec(t + 900, cpu, pid, act(TA["G"], cats + ["Q"]), sector, nbytes)
    rec(t + 1100, cpu, pid, act(TA["P"], ["Q"]))
    total = nbytes
    if merged:
        ms, mb = merged
        rec(t + 1500, cpu, pid, act(TA["Q"], cats + ["Q"]), ms, mb)
        rec(t + 1700, cpu, pid, act(TA["BM"], cats + ["Q"]), ms, mb)
        total += mb
    rec(t + 2000, cpu, pid, act(TA["I"], cats + ["I", "FS"]), sector, total)
    rec(t + 2400, cpu, pid, act(TA["U"], ["Q"]), pdu=struct.pack(">Q", 1))
    rec(t + 3000, cpu, pid, act(TA["D"], cats + ["I", "FS"]), sector, total)
    rec(t + 3000 + lat_us * 1000, cpu, 0, act(TA["C"], cats + ["C", "FS"]), sector, total)


def notify(t, cpu, pid, kind, pdu):
    rec(t, cpu, pid, act(kind, ["N"]), pdu=pdu)


T0 = 5_000_000  # the first event, 5 ms after the trace began
for cpu in (0, 1):
    notify(0, cpu, 0, TN_TIMESTAMP, struct.pack("<II", 1700000000, 250000000 + cpu))
notify(T0 - 1000, 0, 4711, TN_PROCESS, b"postgres\0")
notify(T0 - 900, 1, 523, TN_PROCESS, b"jbd2/sdb1-8\0")
notify(T0 - 800, 1, 7001, TN_PROCESS, b"kworker/u4:2\0")
notify(T0 - 700, 0, 9120, TN_PROCESS, b"smartctl\0")

t = T0
# Reads of a table (postgres on CPU 0), one with a bio merged into it.
for i, (sec, nb) in enumerate([(4096, 8192), (4112, 8192), (8192, 65536), (2048, 4096)]):
    request(t, 0, 4711, ["R", "S"], sec, nb, 180 + 20 * i,
            merged=(sec + nb // 512, 4096) if i == 2 else None)
    t += 1_000_000
# Writeback of data (kworker on CPU 1), then the journal: a sync meta write, a flush, a FUA commit.
for i, sec in enumerate((10240, 10248, 10256)):
    request(t, 1, 7001, ["W"], sec, 4096, 400)
    t += 700_000
request(t, 1, 523, ["W", "S", "M"], 12288, 16384, 650)
t += 900_000
rec(t, 1, 523, act(TA["Q"], ["W", "S", "F", "Q"]))  # the preflush: a queue event of no bytes
rec(t + 600, 1, 523, act(TA["I"], ["W", "S", "F", "I", "FS"]))
rec(t + 900, 1, 523, act(TA["D"], ["W", "S", "F", "I", "FS"]))
rec(t + 1_200_000, 1, 0, act(TA["C"], ["W", "S", "F", "C", "FS"]))
t += 1_300_000
request(t, 1, 523, ["W", "S", "FUA"], 12320, 4096, 300)
t += 800_000
# The scheduler's note, and smartctl's passthrough (inserted and issued, never queued as a bio).
notify(t, 0, 0, TN_MESSAGE, b"mq-deadline dispatch batch 2\0")
rec(t + 100_000, 0, 9120, act(TA["I"], ["R", "PC"]), 0, 512)
rec(t + 150_000, 0, 9120, act(TA["D"], ["R", "PC"]), 0, 512)
rec(t + 900_000, 0, 0, act(TA["C"], ["R", "PC"]), 0, 512)
t += 1_000_000
# fstrim on CPU 0: a discard; a last read back of the journal block.
request(t, 0, 4711, ["W", "D"], 14336, 1048576, 2500)
t += 3_000_000
request(t, 1, 7001, ["R"], 12320, 4096, 150)

records.sort(key=lambda r: (r[0], r[1]))
seq = {0: 0, 1: 0}
out = bytearray()
for tm, cpu, pid, action, sector, nbytes, error, pdu in records:
    seq[cpu] += 1
    out += struct.pack("<IIQQIIIIIHH", MAGIC, seq[cpu], tm, sector, nbytes, action, pid, DEV, cpu, error, len(pdu))
    out += pdu
with open(sys.argv[1], "wb") as f:
    f.write(out)
for tm, cpu, pid, action, sector, nbytes, error, pdu in records:
    if action & 0xffff == TA["Q"] and not action & (TC["N"] << 16):
        kind = "flush" if action & (TC["F"] << 16) else "trim" if action & (TC["D"] << 16) else \
            "write" if action & (TC["W"] << 16) else "read"
        print(f"{tm} {kind} {sector * 512} {nbytes}", file=sys.stderr)
