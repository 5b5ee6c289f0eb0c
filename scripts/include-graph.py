#!/usr/bin/env python3
"""The include graph of src/ (scripts/include-graph.py [REPO]): include cycles between
modules (foo.c + foo.h), what src/report includes from above it, and upward includes
between the layers of HACKING.md.  Only #include lines are read, not calls."""
import os, re, sys, collections
root = sys.argv[1] if len(sys.argv) > 1 else '.'
src = os.path.join(root, 'src')
files = []
for d, _, fs in os.walk(src):
    for f in fs:
        if f.endswith(('.c', '.h')):
            files.append(os.path.relpath(os.path.join(d, f), src))
headers = {f for f in files if f.endswith('.h')}
def mod(f):
    return f[:-2]
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
up = ('commands', 'suite', 'docs', 'main', 'args', 'jobfile')
print("src/report/* including upper layers (commands.h, suite.h, cmds/, suites/):")
n = 0
for v in nodes:
    if v.startswith('report/'):
        for w in sorted(edges[v]):
            if w in ('commands', 'suite') or w.startswith(('cmds/', 'suites/')):
                print("  %s -> %s" % (v, w)); n += 1
if not n: print("  none")
def layer(m):
    return m.split('/')[0] if '/' in m else 'core'
L = collections.defaultdict(set)
for v in nodes:
    for w in edges[v]:
        if layer(v) != layer(w): L[layer(v)].add(layer(w))
print("directory graph (src/X -> src/Y; core = src/*.c):")
for k in sorted(L): print("  %s -> %s" % (k, " ".join(sorted(L[k]))))
# Layers, top to bottom: a file may include headers of its own layer or below.
def rank(m):
    if m in ('main', 'commands', 'suite', 'suite_read', 'suite_out') or m.startswith(('cmds/', 'suites/')):
        return 3, 'command'
    if m.startswith('report/'):
        return 2, 'report'
    return 1, 'core'
print("upward includes (a lower layer including a higher one's header; core < report < command):")
n = 0
for v in nodes:
    for w in sorted(edges[v]):
        if rank(w)[0] > rank(v)[0]:
            print("  %s (%s) -> %s (%s)" % (v, rank(v)[1], w, rank(w)[1])); n += 1
if not n: print("  none")
