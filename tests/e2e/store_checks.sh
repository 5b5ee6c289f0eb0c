# shellcheck shell=bash
# The results store's checks, the same for both back ends: sourced by test_store.sh (SQLite)
# and test_store_pg.sh (a PostgreSQL server of its own), which set DB (--db's value), STORE and
# define sql QUERY (one value a line).  Tiny runs: the null engine where a figure is not judged.
# What reads alike whatever stored it (labels, the spread, fio's settings, the HTML page) is
# checked on SQLite alone (STORE=sqlite), so the PostgreSQL pass stays short.

NULLRUN=(run --name=j --ioengine=null --size=1m --bs=4k --rw=randread --quiet)

# save NAME ARGS...: run iogauge ARGS --db=$DB, its stdout in $E2E_TMP/NAME.out.
save() {
	local n=$1
	shift
	run_iogauge "$@" --db="$DB"
	cp "$OUT" "$E2E_TMP/$n.out"
	cp "$ERR" "$E2E_TMP/$n.err"
}

count() {
	sql "SELECT count(*) FROM results${1:+ WHERE $1}"
}

# plant FILE IN FACTOR: a copy of result IN whose rates are FACTOR times its own (a slower run).
plant() {
	/usr/bin/python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
out, src, k = sys.argv[1], sys.argv[2], float(sys.argv[3])
d = json.load(open(src))
for j in d["jobs"]:
    for op in ("read", "write"):
        if op in j:
            j[op]["bw_bytes"] *= k
            j[op]["iops"] *= k
json.dump(d, open(out, "w"))
EOF
}

# plant_passes FILE IN K: a copy of suite result IN whose figures (a case's, and each job's of a
# case of several) are K times its own, each with the passes' range 0.5 to 1.5 times its own (K 1),
# or with no spread (K not 1).
plant_passes() {
	/usr/bin/python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
out, src, k = sys.argv[1], sys.argv[2], float(sys.argv[3])
d = json.load(open(src))
def scale(o):
    if isinstance(o, dict) and "median" in o and o["median"] is not None:
        v = o["median"]
        o["median"] = v * k
        o["min"], o["max"], o["passes"] = (v * 0.5, v * 1.5, 3) if k == 1 else (v * k, v * k, 1)
    elif isinstance(o, dict):
        for x in o.values():
            scale(x)
for t in d["suite"]["targets"]:
    scale(t["cases"])
json.dump(d, open(out, "w"))
EOF
}

store_checks() {
	local n0 i pids=() st

	# --save, and show prints it again as it printed
	save run "${NULLRUN[@]}" --save=ci --json="$E2E_TMP/run.json"
	if ok [ "$STATUS" -eq 0 ] && ok [ "$(count "label = 'ci'")" = 1 ]; then
		pass "$STORE: --save=ci keeps the run"
	else fail "$STORE: --save=ci keeps the run" "$WHY"; fi
	run_iogauge show --db="$DB" ci
	check "$STORE: show ci prints what the run printed" cmp -s "$OUT" "$E2E_TMP/run.out"
	run_iogauge show --db="$DB" --output-format=json @last
	check "$STORE: show --output-format=json is the --json file" cmp -s "$OUT" "$E2E_TMP/run.json"
	mkdir -p "$E2E_TMP/d"
	save quick quick --size=1m --runtime=0.1 --ramp_time=0 --ioengine=psync --quiet --save "$E2E_TMP/d" \
		--json="$E2E_TMP/quick.json"
	run_iogauge show --db="$DB" @last
	if ok [ -s "$OUT" ] && ok cmp -s "$OUT" "$E2E_TMP/quick.out" && ok [ "$(sql "SELECT count(*) FROM results WHERE command = 'quick' AND printed IS NULL")" = 1 ]; then
		pass "$STORE: a quick suite's table rebuilt from its JSON alone (no text kept)"
	else fail "$STORE: a quick suite's table rebuilt from its JSON alone (no text kept)" "$WHY"; fi
	save lat latency -c 3 -i 0 --save=lat "$E2E_TMP/d"
	run_iogauge show --db="$DB" lat
	if ok grep -q "request=3" "$OUT" && ok cmp -s "$OUT" "$E2E_TMP/lat.out"; then
		pass "$STORE: latency's lines per request shown again (kept as text)"
	else fail "$STORE: latency's lines per request shown again (kept as text)" "$WHY"; fi
	save dd dd if=/dev/zero of="$E2E_TMP/d/ddf" bs=64k count=4 --save=dd
	run_iogauge show --db="$DB" dd
	grep -v "saved as result" "$E2E_TMP/dd.err" >"$E2E_TMP/dd.lines"
	if ok grep -q "saved as result [0-9]*, label dd in" "$E2E_TMP/dd.err" && ok cmp -s "$OUT" "$E2E_TMP/dd.lines"; then
		pass "$STORE: dd's lines (its stderr) shown again; the save said where"
	else fail "$STORE: dd's lines (its stderr) shown again; the save said where" "$WHY"; fi

	# refusals before anything runs
	n0=$(count)
	run_iogauge "${NULLRUN[@]}" --save=1234 --db="$DB"
	if ok [ "$STATUS" -eq 2 ] && ok grep -q "a label is" "$ERR" && ok [ "$(count)" = "$n0" ]; then
		pass "$STORE: an all-digit label refused before the run"
	else fail "$STORE: an all-digit label refused before the run" "$WHY"; fi

	# What a label may be is the same on both back ends: SQLite alone.
	if [ "$STORE" = sqlite ]; then
		for l in 'two words' 'nvme-ü' -x 'a/b'; do
			run_iogauge "${NULLRUN[@]}" --save="$l" --db="$DB"
			if ok [ "$STATUS" -eq 2 ] && ok [ ! -s "$OUT" ] && ok [ "$(grep -c . "$ERR")" = 1 ] && ok grep -q -- "--save=$l: a label is" "$ERR" && ok [ "$(count)" = "$n0" ]; then
				pass "$STORE: a label '$l' refused before the run, one line"
			else fail "$STORE: a label '$l' refused before the run, one line" "$WHY"; fi
		done
	fi

	run_iogauge forget --db="$DB" --yes 999999
	if ok [ "$STATUS" -eq 2 ] && ok [ "$(grep -c . "$ERR")" = 1 ] && ok grep -q "no result 999999" "$ERR" && ok [ "$(count)" = "$n0" ]; then
		pass "$STORE: forget of an ID not in the store: exit 2, one line"
	else fail "$STORE: forget of an ID not in the store: exit 2, one line" "$WHY"; fi
	run_iogauge show --db="$DB" @last~99
	if ok [ "$STATUS" -eq 2 ] && ok [ ! -s "$OUT" ] && ok [ "$(grep -c . "$ERR")" = 1 ] && ok grep -q "no result @last~99: it holds $n0 results (@last to @last~$((n0 - 1)))" "$ERR"; then
		pass "$STORE: show @last~99 beyond the history: exit 2, one line that says how far it goes"
	else fail "$STORE: show @last~99 beyond the history: exit 2, one line that says how far it goes" "$WHY"; fi

	# history: filters, formats
	run_iogauge history --db="$DB" --label=ci
	if ok [ "$(grep -c ' ci ' "$OUT")" = 1 ] && ok [ "$(wc -l <"$OUT")" = 2 ]; then
		pass "$STORE: history --label"
	else fail "$STORE: history --label" "$WHY"; fi
	run_iogauge history --db="$DB" --output-format=csv --command=quick
	if ok [ "$(wc -l <"$OUT")" = 2 ] && ok grep -q '^id,measured,' "$OUT" && ok grep -q ',quick,' "$OUT"; then
		pass "$STORE: history --output-format=csv --command"
	else fail "$STORE: history --output-format=csv --command" "$WHY"; fi
	run_iogauge history --db="$DB" --output-format=json --since=2d
	if ok jget "$OUT" && ok [ "$(jget "$OUT" "|length")" = "$(count)" ]; then
		pass "$STORE: history --output-format=json --since"
	else fail "$STORE: history --output-format=json --since" "$WHY"; fi
	run_iogauge history --db="$DB" --output-format=json --until=2000-01-01
	check "$STORE: history --until before every run lists none" [ "$(jget "$OUT" "|length")" = 0 ]
	run_iogauge history --db="$DB" --since=yesterday
	check "$STORE: history refuses a date it cannot read" [ "$STATUS" -eq 2 ]

	# compare and report by reference
	save run2 "${NULLRUN[@]}" --save=ci
	run_iogauge compare --db="$DB" ci~1 @last
	if ok [ "$STATUS" -eq 0 ] && ok grep -q "2 results of \`run\`" "$OUT"; then
		pass "$STORE: compare ci~1 @last"
	else fail "$STORE: compare ci~1 @last" "$WHY"; fi
	run_iogauge report --db="$DB" ci "$E2E_TMP/run.json" -o "$E2E_TMP/r.html"
	if ok [ "$STATUS" -eq 0 ] && ok grep -q "iogauge report" "$E2E_TMP/r.html"; then
		pass "$STORE: report of a reference beside a file"
	else fail "$STORE: report of a reference beside a file" "$WHY"; fi
	run_iogauge compare --db="$DB" nosuchlabel @last
	if ok [ "$STATUS" -eq 2 ] && ok grep -q "no result labelled nosuchlabel" "$ERR"; then
		pass "$STORE: compare names an unknown label"
	else fail "$STORE: compare names an unknown label" "$WHY"; fi

	# check: flat history, then a planted slower result
	for i in 1 2 3; do
		run_iogauge import --db="$DB" --label=flat "$E2E_TMP/run.json"
	done
	run_iogauge check --db="$DB" flat
	if ok [ "$STATUS" -eq 0 ] && ok grep -q "0 fell" "$OUT"; then
		pass "$STORE: check passes an unchanged result"
	else fail "$STORE: check passes an unchanged result" "$WHY"; fi
	plant "$E2E_TMP/slow.json" "$E2E_TMP/run.json" 0.5
	run_iogauge import --db="$DB" --label=flat "$E2E_TMP/slow.json"
	run_iogauge check --db="$DB" flat
	if ok [ "$STATUS" -eq 1 ] && ok grep -q "^FELL j: read IOPS: .*50.0% below the median .* of 3 earlier runs" "$OUT"; then
		pass "$STORE: check fails a planted slower result (exit 1, which figure, how much, how many runs)"
	else fail "$STORE: check fails a planted slower result (exit 1, which figure, how much, how many runs)" "$WHY: $(head -c 300 "$OUT")"; fi
	run_iogauge check --db="$DB" --max-drop=60 flat
	check "$STORE: check --max-drop=60 lets a 50% fall pass" [ "$STATUS" -eq 0 ]
	run_iogauge check --db="$DB" dd
	check "$STORE: check with too little history exits 2" [ "$STATUS" -eq 2 ]
	run_iogauge report --db="$DB" --trend=flat -o "$E2E_TMP/t.html"
	if ok [ "$STATUS" -eq 0 ] && ok grep -q "iogauge trend: flat" "$E2E_TMP/t.html" && ok grep -q '"style":"band"' "$E2E_TMP/t.html"; then
		pass "$STORE: report --trend draws the label with its band"
	else fail "$STORE: report --trend draws the label with its band" "$WHY"; fi

	# every figure of every job: a run's jobs and their group, each job of a suite's case
	save jobs run --name=a --ioengine=null --size=1m --bs=4k --rw=randread --name=b --ioengine=null --size=1m \
		--bs=4k --rw=randwrite --quiet --save=jobs
	if ok [ "$STATUS" -eq 0 ] && ok [ "$(sql "SELECT count(DISTINCT job) FROM figures WHERE metric = 'iops' AND result_id IN (SELECT id FROM results WHERE label = 'jobs')")" = 3 ] &&
		ok [ "$(sql "SELECT count(*) FROM figures WHERE job = 'group 0' AND metric = 'iops' AND result_id IN (SELECT id FROM results WHERE label = 'jobs')")" = 2 ]; then
		pass "$STORE: a run of two jobs keeps both jobs' figures and their group's (read and write)"
	else fail "$STORE: a run of two jobs keeps both jobs' figures and their group's (read and write)" "$WHY"; fi
	save mx matrix --run=advanced --matrix=point --num-small=1 --num-large=1 --duration=0.1 --size=2m \
		--testname="$E2E_TMP/d/mx" --json="$E2E_TMP/mx.json" --save=mx "$E2E_TMP/d"
	if ok [ "$STATUS" -eq 0 ] && ok [ "$(sql "SELECT count(*) FROM figures WHERE metric = 'mb_s' AND job IN ('Small=1 Large=1 / small', 'Small=1 Large=1 / large') AND result_id IN (SELECT id FROM results WHERE label = 'mx')")" = 2 ]; then
		pass "$STORE: a matrix case of two jobs keeps each job's figures (small and large)"
	else fail "$STORE: a matrix case of two jobs keeps each job's figures (small and large)" "$WHY"; fi
	# check and trend read the figures stored above alike on both back ends: SQLite alone.
	if [ "$STORE" = sqlite ]; then
		plant_passes "$E2E_TMP/mxp.json" "$E2E_TMP/mx.json" 1
		plant_passes "$E2E_TMP/mxslow.json" "$E2E_TMP/mx.json" 0.4
		run_iogauge import --db="$DB" --label=mxh "$E2E_TMP/mxp.json" "$E2E_TMP/mxp.json" "$E2E_TMP/mxslow.json"
		run_iogauge check --db="$DB" mxh
		if ok [ "$STATUS" -eq 1 ] && ok grep -q "^FELL Small=1 Large=1 / large: read MB/s on " "$OUT" &&
			ok grep -q "^FELL Small=1 Large=1 / small: read IOPS on " "$OUT"; then
			pass "$STORE: check names the job of a case of several that fell"
		else fail "$STORE: check names the job of a case of several that fell" "$WHY: $(head -c 300 "$OUT")"; fi
		run_iogauge report --db="$DB" --trend=mxh -o "$E2E_TMP/mxh.html"
		check "$STORE: report --trend draws each job of a case of several" grep -q "Small=1 Large=1 / large: read MB/s on" "$E2E_TMP/mxh.html"
	fi

	# The spread is computed from figures read alike on both back ends: SQLite alone.
	if [ "$STORE" = sqlite ]; then
		# check and report --trend: one spread (each earlier run's passes' range included)
		plant_passes "$E2E_TMP/qp.json" "$E2E_TMP/quick.json" 1
		plant_passes "$E2E_TMP/qslow.json" "$E2E_TMP/quick.json" 0.4
		run_iogauge import --db="$DB" --label=spread "$E2E_TMP/qp.json" "$E2E_TMP/qp.json" "$E2E_TMP/qp.json" "$E2E_TMP/qslow.json"
		run_iogauge check --db="$DB" spread
		cp "$OUT" "$E2E_TMP/spread.check"
		run_iogauge report --db="$DB" --trend=spread -o "$E2E_TMP/spread.html"
		if /usr/bin/python3 - "$E2E_TMP/spread.check" "$E2E_TMP/spread.html" >"$E2E_TMP/spread.txt" 2>&1 <<'EOF'; then
import json, re, sys
fell = [l for l in open(sys.argv[1]) if l.startswith("FELL ")]
assert fell, "check found no fall"
html = open(sys.argv[2]).read()
data = json.loads(re.search(r'id="iogauge-data">(.*?)</script>', html, re.S).group(1))
charts = {c["title"]: c for c in data["charts"]}
n = 0
for l in fell:
    m = re.match(r"FELL (.*): [0-9.]+ (\S+), .* \(their spread ([0-9.]+) to ([0-9.]+)\)$", l.strip())
    c = charts["%s (%s)" % (m.group(1), m.group(2))]
    ds = {d["label"]: d["data"] for d in c["datasets"]}
    lo, hi = ds["spread of the runs before: lowest"][-1]["y"], ds["spread of the runs before: highest"][-1]["y"]
    for want, got in ((m.group(3), lo), (m.group(4), hi)):
        dec = len(want.split(".")[1])
        assert "%.*f" % (dec, got) == want, (m.group(1), want, got)
    n += 1
print(n, "falls, each on the band's edge")
EOF
			pass "$STORE: report --trend's band is check's spread (passes' ranges included): $(cat "$E2E_TMP/spread.txt")"
		else fail "$STORE: report --trend's band is check's spread (passes' ranges included)" "$(tail -n 3 "$E2E_TMP/spread.txt")"; fi
	fi

	# import: fio's json and json+, bonnie++'s CSV, a bad file
	fio_cached --name=j --filename="$E2E_TMP/fio.dat" --size=256k --bs=4k --rw=randread --ioengine=psync \
		--output-format=json --output="$E2E_TMP/fio.json" >/dev/null 2>&1
	fio_cached --name=j --filename="$E2E_TMP/fio.dat" --size=256k --bs=4k --rw=randread --ioengine=psync \
		--output-format=json+ --output="$E2E_TMP/fioplus.json" >/dev/null 2>&1
	printf '1.98,2.00a,host1,1,1700000000,8M,,8192,5,100,90,200000,30,100000,20,90,95,300000,25,500.5,40,16,,,,,1000,50,+++++,+++,2000,40,1000,50,+++++,+++,2000,40,10ms,20ms,30ms,1ms,2ms,50ms,100us,5us,200us,100us,6us,210us\n' >"$E2E_TMP/b.csv"
	echo "not a result" >"$E2E_TMP/bad.txt"
	n0=$(count)
	run_iogauge import --db="$DB" --label=arch "$E2E_TMP/fio.json" "$E2E_TMP/bad.txt" "$E2E_TMP/fioplus.json" "$E2E_TMP/b.csv"
	if ok [ "$STATUS" -eq 2 ] && ok [ "$(grep -c . "$ERR")" = 1 ] && ok grep -q "bad.txt" "$ERR" && ok [ "$(count)" = $((n0 + 3)) ]; then
		pass "$STORE: import: fio json and json+, bonnie++ CSV stored; the bad file gets one line"
	else fail "$STORE: import: fio json and json+, bonnie++ CSV stored; the bad file gets one line" "$WHY"; fi
	if ok [ "$(sql "SELECT count(*) FROM figures WHERE metric = 'iops' AND job = 'j' AND result_id IN (SELECT id FROM results WHERE format = 'fio-json')")" = 2 ] &&
		ok [ "$(sql "SELECT CAST(round(value) AS INTEGER) FROM figures WHERE job = 'Sequential Output Block' AND metric = 'mb_s'")" = 205 ]; then
		pass "$STORE: imported figures: fio's IOPS, bonnie++'s block output in MB/s"
	else fail "$STORE: imported figures: fio's IOPS, bonnie++'s block output in MB/s" "$WHY"; fi
	run_iogauge show --db="$DB" arch~1
	check "$STORE: show of an imported file prints it as it was" cmp -s "$OUT" "$E2E_TMP/fioplus.json"
	run_iogauge show --db="$DB" arch
	if command -v bon_csv2txt >/dev/null 2>&1; then
		bon_csv2txt <"$E2E_TMP/b.csv" >"$E2E_TMP/b.txt" 2>/dev/null
		if ok [ "$(sed -n '4p;5p;9p;10p' "$OUT" | cut -c20-)" = "$(sed -n '4p;5p;9p;10p' "$E2E_TMP/b.txt" | cut -c20-)" ] &&
			ok [ "$(tail -n 1 "$OUT")" = "$(cat "$E2E_TMP/b.csv")" ]; then
			pass "$STORE: show of an imported bonnie++ line prints bonnie++'s table (the cells bon_csv2txt prints), then the line"
		else fail "$STORE: show of an imported bonnie++ line prints bonnie++'s table (the cells bon_csv2txt prints), then the line" "$WHY: $(head -n 5 "$OUT")"; fi
	else
		skip "$STORE: show of an imported bonnie++ line prints bonnie++'s table" "no bon_csv2txt (bonnie++) to read the line"
	fi

	# compare and report of imported fio results: with each other, with iogauge's run of the job
	{ echo "note: a line fio writes before its JSON"; cat "$E2E_TMP/fio.json"; } >"$E2E_TMP/fionote.json"
	run_iogauge import --db="$DB" --label=fioj "$E2E_TMP/fionote.json" "$E2E_TMP/fioplus.json"
	run_iogauge compare --db="$DB" fioj~1 fioj
	iops=$(jget "$E2E_TMP/fio.json" .jobs[0].read.iops)
	if ok [ "$STATUS" -eq 0 ] && ok grep -q "^iogauge compare: 2 results of \`fio\`" "$OUT" &&
		ok grep -Eq "^fioj~1 \(#[0-9]+ fioj\): fio-[0-9.]+'s JSON, imported: fio's own figures of one run \(no spread\); no latency histogram carried" "$OUT" &&
		ok grep -Eq "^j: read IOPS +\| $(printf '%.0f' "$iops") +\| " "$OUT" && ok grep -q "^j: read p99 latency us " "$OUT"; then
		pass "$STORE: compare of two imported fio results (fio's notes before the JSON too): fio's figures, said so"
	else fail "$STORE: compare of two imported fio results (fio's notes before the JSON too): fio's figures, said so" "$WHY: $(head -c 400 "$OUT")"; fi
	run_iogauge run --name=j --filename="$E2E_TMP/fio.dat" --size=256k --bs=4k --rw=randread --ioengine=psync \
		--quiet --save=fioj-ig --db="$DB"
	run_iogauge compare --db="$DB" fioj fioj-ig
	if ok [ "$STATUS" -eq 0 ] && ok grep -q "^iogauge compare: 2 results of \`fio\` and \`run\`" "$OUT" && ok grep -Eq "^j: read IOPS +\| [0-9]+ +\| [0-9]+ [+-][0-9.]+% \?" "$OUT"; then
		pass "$STORE: compare of an imported fio result with iogauge's run of the same job"
	else fail "$STORE: compare of an imported fio result with iogauge's run of the same job" "$WHY: $(head -c 400 "$ERR$OUT")"; fi
	# Settings, the bonnie++ refusal, the page and files read alike on both back ends: SQLite alone.
	if [ "$STORE" = sqlite ]; then
		run_iogauge run --name=j --filename="$E2E_TMP/fio.dat" --size=256k --bs=8k --rw=randread --ioengine=psync \
			--quiet --save=fioj-8k --db="$DB"
		run_iogauge compare --db="$DB" fioj fioj-8k
		if ok [ "$STATUS" -eq 2 ] && ok grep -q "different settings (j.bs: 4096 vs 8192)" "$ERR"; then
			pass "$STORE: an imported fio result and a run of another block size: refused, naming bs"
		else fail "$STORE: an imported fio result and a run of another block size: refused, naming bs" "$WHY"; fi
		run_iogauge compare --db="$DB" arch fioj
		if ok [ "$STATUS" -eq 2 ] && ok grep -q "an imported bonnie-csv file: \`show\` prints it" "$ERR"; then
			pass "$STORE: compare of an imported bonnie++ line: refused, saying show prints it"
		else fail "$STORE: compare of an imported bonnie++ line: refused, saying show prints it" "$WHY"; fi
		run_iogauge report --db="$DB" fioj fioj-ig -o "$E2E_TMP/fioj.html"
		if ok [ "$STATUS" -eq 0 ] && ok grep -q "j: fio-[0-9.]*&#39;s figures, imported" "$E2E_TMP/fioj.html" &&
			ok grep -q "Not carried: fio&#39;s latency bins (json+: fio&#39;s buckets, not iogauge&#39;s, so not re-binned)" "$E2E_TMP/fioj.html" &&
			ok grep -q "<th>Measured by</th><td>fio-" "$E2E_TMP/fioj.html"; then
			pass "$STORE: report of an imported fio json+ result beside a run: fio's figures, its bins said not carried"
		else fail "$STORE: report of an imported fio json+ result beside a run: fio's figures, its bins said not carried" "$WHY"; fi
		run_iogauge compare "$E2E_TMP/fio.json" "$E2E_TMP/fioplus.json"
		check "$STORE: compare of two fio JSON files" [ "$STATUS" -eq 0 ]
	fi

	# OpenMetrics, read by a real parser
	run_iogauge history --db="$DB" --output-format=openmetrics
	if /usr/bin/python3 - "$OUT" >"$E2E_TMP/om.txt" 2>&1 <<'EOF'; then
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
fams = list(text_string_to_metric_families(open(sys.argv[1]).read()))
iops = [s for f in fams if f.name == "iogauge_read_iops" for s in f.samples]
assert iops, "no iogauge_read_iops"
for s in iops:
    assert set(s.labels) == {"host", "target", "label", "job"}, s.labels
labels = {s.labels["label"] for f in fams for s in f.samples}
assert {"ci", "flat", "arch", "jobs", "mx"} <= labels, labels
jobs = {s.labels["job"] for f in fams for s in f.samples if "job" in s.labels}
assert {"a", "b", "group 0", "Small=1 Large=1 / small", "Small=1 Large=1 / large"} <= jobs, jobs
print(len(fams), "families")
EOF
		pass "$STORE: history --output-format=openmetrics parses (prometheus_client), labels host/target/label/job, every job"
	else fail "$STORE: history --output-format=openmetrics parses (prometheus_client), labels host/target/label/job" "$(tail -n 2 "$E2E_TMP/om.txt")"; fi

	# forget
	n0=$(count)
	run_iogauge forget --db="$DB" @last </dev/null
	check "$STORE: forget asks, and refuses without a terminal or --yes" [ "$STATUS" -eq 2 ]
	run_iogauge forget --db="$DB" --yes @last
	if ok [ "$STATUS" -eq 0 ] && ok [ "$(count)" = $((n0 - 1)) ]; then
		pass "$STORE: forget --yes removes one"
	else fail "$STORE: forget --yes removes one" "$WHY"; fi
	check "$STORE: forget left no figures behind" [ "$(sql "SELECT count(*) FROM figures WHERE result_id NOT IN (SELECT id FROM results)")" = 0 ]

	# 8 savers at once lose nothing
	n0=$(count)
	for i in 1 2 3 4 5 6 7 8; do
		"$IOGAUGE" "${NULLRUN[@]}" --save=par --db="$DB" >/dev/null 2>"$E2E_TMP/par$i.err" &
		pids+=($!)
	done
	st=0
	for i in "${pids[@]}"; do
		wait "$i" || st=1
	done
	if ok [ "$st" = 0 ] && ok [ "$(count "label = 'par'")" = 8 ]; then
		pass "$STORE: 8 processes saving at once: all 8 saved"
	else fail "$STORE: 8 processes saving at once: all 8 saved" "$WHY: $(cat "$E2E_TMP"/par*.err | head -n 3)"; fi

	# SIGKILL during saves: the store stays whole, no half result
	local done=0 kpid
	for i in $(seq 1 16); do
		"$IOGAUGE" "${NULLRUN[@]}" --save=kill --db="$DB" >/dev/null 2>&1 &
		kpid=$!
		sleep "0.0$((RANDOM % 10))"
		kill -KILL "$kpid" 2>/dev/null
		{ wait "$kpid"; } 2>/dev/null && done=$((done + 1))
	done
	if ok [ "$(sql "SELECT count(*) FROM results WHERE label = 'kill' AND id NOT IN (SELECT result_id FROM figures)")" = 0 ] &&
		ok [ "$(count "label = 'kill'")" -ge "$done" ] && ok [ "$(count "label = 'kill'")" -le 16 ]; then
		pass "$STORE: SIGKILL during saves: every kept result whole ($(count "label = 'kill'") kept, $done ended by themselves)"
	else fail "$STORE: SIGKILL during saves: every kept result whole" "$WHY"; fi
	run_iogauge history --db="$DB" --label=kill
	check "$STORE: the store opens after the kills" [ "$STATUS" -eq 0 ]
}
