#!/usr/bin/env python3
"""The include graph of src/ (scripts/include-graph.py [REPO] [--strict]): include cycles
between modules (foo.c + foo.h) and includes that point up the folder layers of HACKING.md
(--strict: exit 1 when there is either).  Only #include lines are read, not calls."""
import os, re, sys, collections
args = [a for a in sys.argv[1:] if not a.startswith('--')]
root = args[0] if args else '.'
src = os.path.join(root, 'src')
files = []
for d, _, fs in os.walk(src):
    for f in fs:
        if f.endswith(('.c', '.h')):
            files.append(os.path.relpath(os.path.join(d, f), src))
headers = {f for f in files if f.endswith('.h')}
def mod(f):
    # A module's internal header (worker_int.h) is part of the module (worker.c): a cycle through it is not one.
    m = f[:-2]
    return m[:-4] if m.endswith('_int') else m
# header -> the module that owns it: its .c when there is one, else itself
edges = collections.defaultdict(set)
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
for f in files:
    d = os.path.dirname(f)
    for line in open(os.path.join(src, f), errors='replace'):
        m = inc.match(line)
        if not m:
            continue
        h = m.group(1)
        cand = [h, os.path.join(d, h)]
        t = next((c for c in cand if c in headers), None)
        if t and mod(t) != mod(f):
            edges[mod(f)].add(mod(t))
# function-call edges are not seen: only #include lines
nodes = sorted({mod(f) for f in files})
# Tarjan
index = {}; low = {}; st = []; on = set(); sccs = []; i = [0]
sys.setrecursionlimit(10000)
def sc(v):
    index[v] = low[v] = i[0]; i[0] += 1; st.append(v); on.add(v)
    for w in edges[v]:
        if w not in index:
            sc(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        sccs.append(comp)
for v in nodes:
    if v not in index: sc(v)
cyc = [sorted(c) for c in sccs if len(c) > 1]
print("include cycles (modules that reach each other through #include):")
for c in cyc:
    print("  %d: %s" % (len(c), " ".join(c)))
if not cyc:
    print("  none")
# The layers of HACKING.md, bottom to top: a file includes headers of its own folder or below.
ORDER = ['base', 'model', 'stats', 'options', 'run', 'engines', 'report', 'cluster', 'suite', 'suites', 'store', 'cmds', 'main']
def layer(m):
    top = m.split('/')[0]
    return top if top in ORDER else 'main'
L = collections.defaultdict(set)
for v in nodes:
    for w in edges[v]:
        if layer(v) != layer(w): L[layer(v)].add(layer(w))
print("folder graph (src/X -> src/Y):")
for k in ORDER:
    if L[k]: print("  %s -> %s" % (k, " ".join(sorted(L[k], key=ORDER.index))))
print("upward includes (a folder including a header of a folder above it; " + " < ".join(ORDER) + "):")
n = 0
for v in nodes:
    for w in sorted(edges[v]):
        if ORDER.index(layer(w)) > ORDER.index(layer(v)):
            print("  %s -> %s" % (v, w)); n += 1
if not n: print("  none")
sys.exit(1 if (n or cyc) and '--strict' in sys.argv else 0)
