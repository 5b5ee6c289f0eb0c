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
      One line per job of a fio-json output: "NAME R/r W/w T/t" (io_bytes/total_ios per direction)
      and the job's error; status 1 when the file holds no jobs.
  fio-examples.py compare FIO-JSON IOGAUGE-JSON
      Both tools' totals side by side per job; status 0 when every job has the same jobname,
      io_bytes and total_ios per direction and error 0 in both, 1 otherwise (the first difference
      on stderr).
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


def jobs(path):
    s = open(path).read()
    # fio writes error lines (and iogauge its notes) before the JSON on the same stream.
    i = s.find("{")
    if i < 0:
        return None
    try:
        return json.loads(s[i:])["jobs"]
    except (ValueError, KeyError):
        return None


def counts(j):
    return tuple((j[d]["io_bytes"], j[d]["total_ios"]) for d in ("read", "write", "trim"))


def fmt(c):
    return " ".join(f"{b}/{n}" for b, n in c)


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "rewrite":
        rewrite(sys.argv[2], sys.argv[3], sys.argv[4:])
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "totals":
        js = jobs(sys.argv[2])
        if not js:
            return 1
        for j in js:
            print(j.get("jobname"), fmt(counts(j)), "error", j.get("error"))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        a, b = jobs(sys.argv[2]), jobs(sys.argv[3])
        if a is None or b is None:
            print("no JSON from " + ("fio" if a is None else "iogauge"), file=sys.stderr)
            return 1
        first = None
        for i in range(max(len(a), len(b))):
            x = a[i] if i < len(a) else None
            y = b[i] if i < len(b) else None
            name = (x or y).get("jobname")
            cx = counts(x) if x else None
            cy = counts(y) if y else None
            ok = (x and y and x.get("jobname") == y.get("jobname") and cx == cy and
                  x.get("error") == 0 and y.get("error") == 0)
            print(f"  {'same' if ok else 'DIFF'} job {name}: fio {fmt(cx) if cx else '-'}"
                  f"{'' if not x or not x.get('error') else ' error %s' % x.get('error')}"
                  f" iogauge {fmt(cy) if cy else '-'}"
                  f"{'' if not y or not y.get('error') else ' error %s' % y.get('error')}")
            if not ok and first is None:
                if not x or not y:
                    first = f"job {name}: only under {'fio' if x else 'iogauge'}"
                elif x.get("jobname") != y.get("jobname"):
                    first = f"job {i}: fio's {x.get('jobname')}, iogauge's {y.get('jobname')}"
                elif x.get("error") or y.get("error"):
                    first = f"job {name}: error fio {x.get('error')} iogauge {y.get('error')}"
                else:
                    d = next(k for k in range(3) if cx[k] != cy[k])
                    first = (f"job {name}: {('read', 'write', 'trim')[d]} fio {fmt([cx[d]])}"
                             f" iogauge {fmt([cy[d]])}")
        if first:
            print(first, file=sys.stderr)
            return 1
        return 0
    print(__doc__, file=sys.stderr)
    return 2


sys.exit(main())
