#!/bin/sh
# --output=json|csv say what ran (workload, engine, server and dbscale
# versions, the options) without the password; error codes are a JSON
# object; CSV has a column per --percentile; --interval-output writes one
# JSON object or CSV row per --report-interval period (a Lua script's too).
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
need_tool python3 python3
start_server pgsql
PW=$(server_password)
CONN="$SERVER_OPTS --pgsql-password=$PW"
T=$SERVER_DIR/out
mkdir -p "$T"
ok "$DBSCALE" prepare oltp_read_only $CONN --tables=1 --table-size=1000
RUN="$DBSCALE run oltp_read_only $CONN --tables=1 --table-size=1000 --threads=2"

$RUN --time=1 --output=json --percentile=95,99.9 >"$T/run.json" 2>"$T/err" ||
    fail "json run: $(cat "$T/err")"
grep -q "$PW" "$T/run.json" && fail "the password is in the JSON report"
ver=$(pg_sql "SHOW server_version" | awk '{print $1}')
python3 - "$T/run.json" "$ver" <<'PY' || fail "JSON report: $(cat "$T/run.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["workload"] == "oltp_read_only", r["workload"]
assert r["engine"] == "pgsql", r["engine"]
assert r["server_version"] and sys.argv[2].startswith(r["server_version"]), r["server_version"]
assert r["dbscale_version"], "no dbscale_version"
o = r["options"]
assert o["threads"] == "2" and o["percentile"] == "95,99.9" and o["table-size"] == "1000", o
assert "pgsql-password" not in o, "password option in options"
assert isinstance(r["error_codes"], dict), r["error_codes"]
lat = r["latency_ms"]
for k in ("min", "avg", "max", "p50", "p95", "p99", "p99.9"):
    assert k in lat, k
assert lat["min"] <= lat["p99.9"] <= lat["max"], lat
assert r["transactions"] > 0
PY

# a conninfo string may carry the password too
"$DBSCALE" run oltp_read_only --db-driver=pgsql --tables=1 --table-size=1000 --time=1 \
    --pgsql-conninfo="host=127.0.0.1 port=$SERVER_PORT user=sbtest dbname=sbtest password=$PW" \
    --output=json >"$T/ci.json" 2>"$T/err" || fail "conninfo run: $(cat "$T/err")"
grep -q "$PW" "$T/ci.json" && fail "the password in --pgsql-conninfo is in the JSON report"

$RUN --time=1 --output=csv --percentile=95,99.9 >"$T/run.csv" 2>"$T/err" ||
    fail "csv run: $(cat "$T/err")"
grep -q "$PW" "$T/run.csv" && fail "the password is in the CSV report"
python3 - "$T/run.csv" <<'PY' || fail "CSV report: $(cat "$T/run.csv")"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 1, rows
r = rows[0]
assert None not in r, "row longer than header"
for k in ("lat_p50_ms", "lat_p95_ms", "lat_p99_ms", "lat_p99.9_ms", "workload", "engine",
          "server_version", "dbscale_version"):
    assert r[k], k
assert r["workload"] == "oltp_read_only" and r["engine"] == "pgsql"
assert json.loads(r["options"])["threads"] == "2"
PY

for fmt in json csv; do
    $RUN --time=2 --report-interval=0.5 --interval-output="$T/iv.$fmt" >"$T/iv.txt" 2>"$T/err" ||
        fail "interval run: $(cat "$T/err")"
    python3 - "$T/iv.$fmt" "$fmt" "$(grep -c '^\[' "$T/iv.txt")" <<'PY' || fail "--interval-output $fmt: $(cat "$T/iv.$fmt")"
import csv, json, sys
path, fmt, nlines = sys.argv[1], sys.argv[2], int(sys.argv[3])
if fmt == "json":
    rows = [json.loads(l) for l in open(path)]
else:
    rows = list(csv.DictReader(open(path)))
assert nlines >= 2 and len(rows) == nlines, (len(rows), nlines)
for r in rows:
    assert float(r["tps"]) > 0 and float(r["t_s"]) > 0 and int(r["threads"]) == 2, r
PY
done
# a Lua script's periods go to the same file in the same shape
if have_file /usr/share/sysbench/oltp_read_only.lua sysbench; then
    "$DBSCALE" /usr/share/sysbench/oltp_read_only.lua $CONN --tables=1 --table-size=1000 --threads=2 \
        --time=2 --report-interval=0.5 --interval-output="$T/lua.json" run >"$T/iv.txt" 2>"$T/err" ||
        fail "scripted interval run: $(cat "$T/err")"
    python3 - "$T/lua.json" "$(grep -c '^\[' "$T/iv.txt")" <<'PY' || fail "script --interval-output: $(cat "$T/lua.json")"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert int(sys.argv[2]) >= 2 and len(rows) == int(sys.argv[2]), (len(rows), sys.argv[2])
for r in rows:
    assert float(r["tps"]) > 0 and float(r["t_s"]) > 0 and int(r["threads"]) == 2, r
PY
fi
# accepted and ignored would be a lie: without --report-interval it is refused
$RUN --time=1 --interval-output="$T/none.json" >/dev/null 2>"$T/err"
expect_eq "--interval-output without --report-interval: exit" "$?" 2
grep -q 'report-interval' "$T/err" || fail "the refusal does not say why: $(cat "$T/err")"
# --histogram in JSON: [ms, count] rows adding up to the transactions; CSV refuses it
$RUN --time=1 --output=json --histogram >"$T/h.json" 2>"$T/err" || fail "json --histogram: $(cat "$T/err")"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert sum(c for v,c in r["latency_histogram"]) == r["transactions"]' "$T/h.json" ||
    fail "JSON histogram does not add up: $(cat "$T/h.json")"
$RUN --time=1 --output=csv --histogram >/dev/null 2>"$T/err"
expect_eq "--histogram --output=csv: exit" "$?" 2
# --report-checkpoints' reports are sysbench's text: refused with machine output
$RUN --time=1 --output=json --report-checkpoints=1 >/dev/null 2>"$T/err"
expect_eq "--report-checkpoints --output=json: exit" "$?" 2
grep -q 'report-checkpoints' "$T/err" || fail "--report-checkpoints refusal: $(cat "$T/err")"
echo "report_machine: JSON, CSV and interval files say what ran"
exit 0
