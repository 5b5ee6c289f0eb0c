#!/usr/bin/env python3
"""fio's example job files made runnable here, and fio's and iogauge's byte totals compared.

  fio-examples.py rewrite SRC DST [EDIT...]
      Copies job file SRC to DST with EDITs applied, in order:
        key=value   every line that sets key (in any section) sets value instead;
                    when none does, key=value goes into [global] (made first if the file has none)
        -key        every line that sets key is dropped
        [sec]k=v    k=v added at the end of section sec
      Keys are matched as written (fio's aliases are not resolved).
  fio-examples.py totals JSON
      One line per job of a fio-json output, tab-separated: the job's name, "R/r W/w T/t"
      (io_bytes/total_ios of reads, writes and trims) and its error; nothing when the file holds
      no JSON (a refused or hung run).
  fio-examples.py compare FIO-TOTALS IOGAUGE-TOTALS
      Both tools' totals (files of `totals` lines) side by side per job, a line each; status 0
      when both have the same jobs in the same order with the same io_bytes and total_ios in
      every direction and error 0, 1 otherwise (the first difference on stderr).
Used by scripts/fio-regression.sh.
"""
import json
import re
import sys

KEY = re.compile(r"^\s*([A-Za-z0-9_]+)\s*(=|$|\s)")
SECTION = re.compile(r"^\s*\[([^\]]+)\]")


def key_of(line):
    s = line.strip()
    if not s or s[0] in ";#" or SECTION.match(line):
        return None
    m = KEY.match(line)
    return m.group(1) if m else None


def rewrite(src, dst, edits):
    lines = open(src).read().split("\n")
    for e in edits:
        if e.startswith("["):
            sec, kv = e[1:].split("]", 1)
            at = None
            cur = None
            for i, line in enumerate(lines):
                m = SECTION.match(line)
                if m:
                    cur = m.group(1)
                    continue
                if cur == sec and line.strip():
                    at = i
                if cur == sec and at is None:
                    at = i
            if at is None:
                sys.exit(f"{src}: no section [{sec}] for {e}")
            lines.insert(at + 1, kv)
        elif e.startswith("-"):
            k = e[1:]
            lines = [line for line in lines if key_of(line) != k]
        else:
            k = e.split("=", 1)[0]
            hit = False
            for i, line in enumerate(lines):
                if key_of(line) == k:
                    lines[i] = e
                    hit = True
            if hit:
                continue
            g = next((i for i, line in enumerate(lines) if SECTION.match(line) and
                      SECTION.match(line).group(1) == "global"), None)
            if g is None:
                lines[0:0] = ["[global]", e]
            else:
                lines.insert(g + 1, e)
    open(dst, "w").write("\n".join(lines))


def totals(path):
    try:
        s = open(path).read()
    except OSError:
        return
    # fio writes error lines (and iogauge its notes) before the JSON on the same stream.
    i = s.find("{")
    try:
        js = json.loads(s[i:])["jobs"] if i >= 0 else []
    except (ValueError, KeyError):
        js = []
    for j in js:
        c = " ".join(f"{j[d]['io_bytes']}/{j[d]['total_ios']}" for d in ("read", "write", "trim"))
        print(f"{j.get('jobname')}\t{c}\t{j.get('error')}")


def read_totals(path):
    rows = []
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) == 3:
            rows.append((f[0], f[1], f[2]))
    return rows


def compare(fa, fb):
    a, b = read_totals(fa), read_totals(fb)
    if not a or not b:
        print("no result from " + ("fio" if not a else "iogauge"), file=sys.stderr)
        return 1
    first = None
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        name = (x or y)[0]
        ok = x and y and x[0] == y[0] and x[1] == y[1] and x[2] == "0" and y[2] == "0"
        def say(r):
            return "-" if not r else r[1] + ("" if r[2] == "0" else " error " + r[2])
        print(f"  {'same' if ok else 'DIFF'} job {name}: fio {say(x)} iogauge {say(y)}")
        if ok or first:
            continue
        if not x or not y:
            first = f"job {name}: only under {'fio' if x else 'iogauge'}"
        elif x[0] != y[0]:
            first = f"job {i}: fio's {x[0]}, iogauge's {y[0]}"
        elif x[1] != y[1]:
            d = next(k for k in range(3) if x[1].split()[k] != y[1].split()[k])
            first = (f"job {name}: {('read', 'write', 'trim')[d]} bytes/ios fio {x[1].split()[d]}"
                     f" iogauge {y[1].split()[d]}")
        else:
            first = f"job {name}: error fio {x[2]} iogauge {y[2]}"
    if first:
        print(first, file=sys.stderr)
        return 1
    return 0


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "rewrite":
        rewrite(sys.argv[2], sys.argv[3], sys.argv[4:])
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "totals":
        totals(sys.argv[2])
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        return compare(sys.argv[2], sys.argv[3])
    print(__doc__, file=sys.stderr)
    return 2


sys.exit(main())
