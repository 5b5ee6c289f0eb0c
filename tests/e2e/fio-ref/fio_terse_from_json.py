#!/usr/bin/env python3
"""Reference (written for this spec): rebuild fio 3.33 terse v3/v5 lines from a json+
document of the same run.  python3 fio_terse_from_json.py run.json [3|5]"""
import json, sys
sys.path.insert(0, __import__("os").path.dirname(__file__))
from fio_text_from_json import percentiles

def ddir(d, ver, agg):
    o = []
    runt = d["runtime"]
    bw = (1000 * d["io_bytes"] // runt) // 1024 if runt else 0
    iops = 1000 * d["total_ios"] // runt if runt else 0
    o += ["%d" % (d["io_bytes"] >> 10), "%d" % bw, "%d" % iops, "%d" % runt]
    def lat(s):
        if s["N"]:
            return ["%d" % (s["min"] // 1000), "%d" % (s["max"] // 1000), "%f" % (s["mean"] / 1000), "%f" % (s["stddev"] / 1000)]
        return ["0", "0", "%f" % 0, "%f" % 0]
    o += lat(d["slat_ns"]) + lat(d["clat_ns"])
    c = d["clat_ns"]            # (lat_ns if lat_percentiles=1)
    # with samples: the job's percentile list; without samples fio 3.33 still walks the
    # (default) list and every value comes out 0 -> "1.000000%=0" ... not "0%=0"
    DEFAULT = [1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99]
    pl = [float(p) for p in c["percentile"]] if "percentile" in c else DEFAULT
    ov = percentiles(c["bins"], c["N"], pl) if c["N"] else [0] * len(pl)
    for i in range(20):
        o.append("%f%%=%d" % (pl[i], ov[i] // 1000) if i < len(ov) else "0%=0")
    o += lat(d["lat_ns"])
    if d["bw_samples"]:
        p = 100.0
        if agg:
            p = min(100.0, d["bw_mean"] * 100 / float(agg // 1024))
        o += ["%d" % d["bw_min"], "%d" % d["bw_max"], "%f%%" % p, "%f" % d["bw_mean"], "%f" % d["bw_dev"]]
    else:
        o += ["0", "0", "%f%%" % 0, "%f" % 0, "%f" % 0]
    if ver == 5:
        o += ["%d" % d["bw_samples"]]
        if d["iops_samples"]:
            o += ["%d" % d["iops_min"], "%d" % d["iops_max"], "%f" % d["iops_mean"], "%f" % d["iops_stddev"], "%d" % d["iops_samples"]]
        else:
            o += ["0", "0", "%f" % 0, "%f" % 0, "0"]
    return o

def terse(doc, j, ver):
    jobs = [x for x in doc["jobs"] if x["groupid"] == j["groupid"]]
    f = ["%d" % ver, doc["fio version"], j["jobname"], "%d" % j["groupid"], "%d" % j["error"]]
    for dd in (("read", "write", "trim") if ver != 3 else ("read", "write")):
        runs = [x[dd]["runtime"] for x in jobs if x[dd]["runtime"]]
        agg = sum(x[dd]["io_bytes"] for x in jobs) * 1000 // max(runs) if runs else 0
        f += ddir(j[dd], ver, agg)
    f += ["%f%%" % j["usr_cpu"], "%f%%" % j["sys_cpu"], "%d" % j["ctx"], "%d" % j["majf"], "%d" % j["minf"]]
    f += ["%3.1f%%" % v for v in j["iodepth_level"].values()]
    us = list(j["latency_us"].values())
    us[0] += sum(j["latency_ns"].values())   # approximation: fio adds 100*ns_count/total
    f += ["%3.2f%%" % v for v in us] + ["%3.2f%%" % v for v in j["latency_ms"].values()]
    for du in doc.get("disk_util", []):
        f += [du["name"], "%d" % du["read_ios"], "%d" % du["write_ios"], "%d" % du["read_merges"],
              "%d" % du["write_merges"], "%d" % du["read_ticks"], "%d" % du["write_ticks"], "%d" % du["in_queue"],
              "%3.2f%%" % du["util"]]
    return ";".join(f)

if __name__ == "__main__":
    doc = json.load(open(sys.argv[1]))
    ver = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    for j in doc["jobs"]:
        print(terse(doc, j, ver))
