#!/usr/bin/env python3
"""Reference re-implementation (written for this spec, not fio code) of fio 3.33's
"normal" per-job text block and group line, rebuilt from a json+ document of the
same run.  Used to verify the rules in ../fio-formats.md:
    python3 fio_text_from_json.py v.json > regen.txt ; diff regen.txt v.normal
The header line's pid/time and the Disk stats block are not reproducible from JSON."""
import json, math, sys

BITS, VAL, GROUPS = 6, 64, 29
NR = GROUPS * VAL

def idx_to_val(i):
    if i < (VAL << 1):
        return i
    eb = (i >> BITS) - 1
    return int((1 << (eb + BITS)) + (i % VAL + 0.5) * (1 << eb))

VALS = [idx_to_val(i) for i in range(NR)]
V2I = {v: i for i, v in enumerate(VALS)}

def num2str(num, maxlen, base, pow2, unit):
    """fio lib/num2str.c semantics. unit: '', 'B', 'B/s'."""
    sistr = ["", "k", "M", "G", "T", "P"]
    iecstr = ["", "Ki", "Mi", "Gi", "Ti", "Pi"]
    pre = iecstr if pow2 else sistr
    thousand = 1024 if pow2 else 1000
    post = 0
    while base > 1:
        base //= thousand
        post += 1
    modulo = None
    carry = False
    while post < len(sistr):
        if len(str(num)) <= maxlen:
            break
        modulo = num % thousand
        num //= thousand
        carry = modulo >= thousand // 2
        post += 1
    if modulo is None or maxlen - len(str(num)) <= 1:
        if modulo is not None and carry:
            num += 1
        if post >= len(sistr):
            post = 0
        return "%d%s%s" % (num, pre[post], unit)
    decimals = maxlen - len(str(num)) - 1
    frac = ("%.*f" % (decimals, modulo / thousand))[2:]
    return "%d.%s%s%s" % (num, frac, pre[post], unit)

def display_lat(name, st):
    mn, mx, mean, dev = st["min"], st["max"], st["mean"], st["stddev"]
    base = "(nsec)"
    if mn > 2000000 and mx > 99999999 and dev > 1000000.0:
        mn //= 1000000; mx //= 1000000; mean /= 1e6; dev /= 1e6; base = "(msec)"
    elif mn > 2000 and mx > 99999 and dev > 1000.0:
        mn //= 1000; mx //= 1000; mean /= 1e3; dev /= 1e3; base = "(usec)"
    return "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n" % (
        name, base, num2str(mn, 6, 1, 0, ""), num2str(mx, 6, 1, 0, ""), mean, dev)

def percentiles(bins, n, plist):
    arr = [0] * NR
    for k, c in bins.items():
        arr[V2I[int(k)]] += c
    out, s, j = [], 0, 0
    for i in range(NR):
        s += arr[i]
        while j < len(plist) and s >= plist[j] / 100.0 * n:
            out.append(VALS[i]); j += 1
        if j == len(plist):
            break
    return out

def show_pct(pre, plist, ovals, precision=2):
    minv, maxv = min(ovals), max(ovals)
    if minv > 2000000 and maxv > 99999999:
        scale, div, unit = 2, 1000000, "msec"
    elif minv > 2000 and maxv > 99999:
        scale, div, unit = 1, 1000, "usec"
    else:
        scale, div, unit = 0, 1, "nsec"
    out = "    %s percentiles (%s):\n     |" % (pre, unit)
    tw = max(5, int(math.log10(maxv // div) + 1))
    per_line = (80 - 7) // (precision + 10 + tw)
    for j, (p, v) in enumerate(zip(plist, ovals)):
        if j and j % per_line == 0:
            out += "     |"
        for _ in range(scale):
            v = (v + 999) // 1000
        last = j == len(plist) - 1
        out += " %*.*fth=[%*d]%s" % (precision + 3, precision, p, tw, v, "\n" if last else ",")
        if last:
            break
        if j % per_line == per_line - 1:
            out += "\n"
    return out

def ddir_block(name, d, agg_bytes_per_s):
    out = ""
    runt = d["runtime"]
    bw = 1000 * d["io_bytes"] // runt
    iops = 1000 * d["total_ios"] // runt
    post = "; 0 zone resets" if name == "write" else ""
    out += "  %s: IOPS=%s, BW=%s (%s)(%s/%dmsec)%s\n" % (
        name, num2str(iops, 4, 1, 0, ""), num2str(bw, 4, 1, 1, "B/s"),
        num2str(bw, 4, 1, 0, "B/s"), num2str(d["io_bytes"], 4, 1, 1, "B"), runt, post)
    for lbl, key in (("slat", "slat_ns"), ("clat", "clat_ns"), (" lat", "lat_ns")):
        if d[key]["N"]:
            out += display_lat(lbl, d[key])
    c = d["clat_ns"]
    if "bins" in c:
        plist = [float(p) for p in c["percentile"]]
        out += show_pct("clat", plist, percentiles(c["bins"], c["N"], plist))
    if d["bw_samples"]:
        mn, mx, mean, dev = d["bw_min"], d["bw_max"], d["bw_mean"], d["bw_dev"]
        unit = "KiB"
        if mean > 1024 * 1024:
            mn //= 1024; mx //= 1024; mean /= 1024; dev /= 1024; unit = "MiB"
        out += "   bw (%5s/s): min=%5d, max=%5d, per=%3.2f%%, avg=%5.02f, stdev=%5.02f, samples=%d\n" % (
            unit, mn, mx, d["bw_agg"], mean, dev, d["bw_samples"])
    if d["iops_samples"]:
        out += "   iops        : min=%5d, max=%5d, avg=%5.02f, stdev=%5.02f, samples=%d\n" % (
            d["iops_min"], d["iops_max"], d["iops_mean"], d["iops_stddev"], d["iops_samples"])
    return out

def lat_lines(obj, unit):
    out, n = "", 0
    for k, v in obj.items():
        if v <= 0.0:
            continue
        if n % 5 == 0:
            out += ("\n" if n else "") + "  lat (%s)   : " % unit
        else:
            out += ", "
        out += "%s=%3.2f%%" % (k, v)
        n += 1
    return out + ("\n" if n else "")

def job_block(j):
    out = ""
    for dd in ("read", "write", "trim"):
        if j[dd]["io_bytes"]:
            out += ddir_block(dd, j[dd], None)
    out += lat_lines(j["latency_ns"], "nsec") + lat_lines(j["latency_us"], "usec") + lat_lines(j["latency_ms"], "msec")
    out += "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%d, majf=%d, minf=%d\n" % (
        j["usr_cpu"], j["sys_cpu"], j["ctx"], j["majf"], j["minf"])
    lv = list(j["iodepth_level"].values())
    out += "  IO depths    : 1=%3.1f%%, 2=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, >=64=%3.1f%%\n" % tuple(lv)
    sv = list(j["iodepth_submit"].values())
    out += "     submit    : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, 64=%3.1f%%, >=64=%3.1f%%\n" % tuple(sv)
    cv = list(j["iodepth_complete"].values())
    out += "     complete  : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, 64=%3.1f%%, >=64=%3.1f%%\n" % tuple(cv)
    t = [j[d]["total_ios"] for d in ("read", "write", "trim")] + [j["sync"]["total_ios"]]
    s = [j[d]["short_ios"] for d in ("read", "write", "trim")]
    dr = [j[d]["drop_ios"] for d in ("read", "write", "trim")]
    out += "     issued rwts: total=%d,%d,%d,%d short=%d,%d,%d,0 dropped=%d,%d,%d,0\n" % tuple(t + s + dr)
    if j.get("latency_depth"):
        out += "     latency   : target=%d, window=%d, percentile=%.2f%%, depth=%d\n" % (
            j["latency_target"], j["latency_window"], j["latency_percentile"], j["latency_depth"])
    return out

def group_line(jobs):
    out = "\nRun status group %d (all jobs):\n" % jobs[0]["groupid"]
    for dd, lbl in (("read", "   READ"), ("write", "  WRITE"), ("trim", "   TRIM")):
        runs = [j[dd]["runtime"] for j in jobs if j[dd]["runtime"]]
        if not runs:
            continue
        io = sum(j[dd]["io_bytes"] for j in jobs)
        bws = [j[dd]["io_bytes"] * 1000 // j[dd]["runtime"] for j in jobs if j[dd]["runtime"]]
        agg = io * 1000 // max(runs)
        f = lambda v, p: num2str(v, 4, 1, p, "B/s")
        out += "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%d-%dmsec\n" % (
            lbl, f(agg, 1), f(agg, 0), f(min(bws), 1), f(max(bws), 1), f(min(bws), 0), f(max(bws), 0),
            num2str(io, 4, 1, 1, "B"), num2str(io, 4, 1, 0, "B"), min(runs), max(runs))
    return out

if __name__ == "__main__":
    d = json.load(open(sys.argv[1]))
    for j in d["jobs"]:
        sys.stdout.write("%s: (groupid=%d, jobs=1): err=%2d: pid=PID: TIME\n" % (j["jobname"], j["groupid"], j["error"]))
        sys.stdout.write(job_block(j))
    for gid in sorted({j["groupid"] for j in d["jobs"]}):
        sys.stdout.write(group_line([j for j in d["jobs"] if j["groupid"] == gid]))
