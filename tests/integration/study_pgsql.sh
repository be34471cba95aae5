#!/bin/sh
# study_pgsql.sh - dbscale study over a managed PostgreSQL on the host:
#  1. --server-bin misuse (no such directory, an empty one, MariaDB's
#     basedir, a link farm, a file) and a bad --settings: exit 2 naming
#     it, before anything is made;
#  2. one study of two builds (the same bin directory under two labels:
#     an A/A pair) x two settings (synchronous_commit on and off) on a
#     write workload, four rounds (this shared VM's fsyncs vary 10x from
#     level to level; three repeats a side left the change short of the
#     false-discovery rate once in two runs): runs interleaved (the planned order,
#     start times rising, levels.csv's starts alternating between
#     variants), each variant labelled with its build's version and
#     sha256 and its settings in meta.json, on one page; the settings
#     difference found by compare (exit 3 for on against off) and on the
#     page's verdict, the A/A pair not;
#  3. a refused --append (another build, other settings) leaves the
#     directory byte for byte as it was.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d /tmp/dbscale-study-XXXXXX)
[ -z "${KEEP:-}" ] || echo "keeping $work"
at_exit '[ -n "${KEEP:-}" ] || rm -rf "$work"'
if [ -n "${DBSCALE_PGBIN:-}" ]; then
    pgbin=$DBSCALE_PGBIN
else
    pgbin=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/postgres | sort -V | tail -n 1)")
fi
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
tree() { (cd "$1" && find . -type f -exec sha256sum {} + | sort -k 2 | sha256sum); }
W="sweep oltp_update_non_index --db-driver=pgsql --threads=1,2 --time=1 --tables=1 --table-size=1000"

# 1. misuse: exit 2 naming it, no directory made
bad() {
    want=$1
    shift
    # shellcheck disable=SC2086
    out=$("$DBSCALE" study "$@" --out "$work/bad" -- $W 2>&1)
    rc=$?
    expect_eq "exit of study $*" $rc 2
    echo "$out" | grep -q -- "$want" || fail "study $*: no '$want' in: $out"
    [ ! -e "$work/bad" ] || fail "study $*: made $work/bad before refusing"
}
mkdir "$work/empty" "$work/farm"
ln -s "$pgbin"/* "$work/farm/"
bad "/nonexistent/bin: No such file" --server-bin /nonexistent/bin
bad "$work/empty is no PostgreSQL installation" --server-bin "$work/empty"
bad "farm/postgres is a symbolic link" --server-bin "x=$work/farm"
bad "not a directory" --server-bin "$pgbin/postgres"
if [ -x /usr/sbin/mariadbd ] && [ -x /usr/bin/mariadb-install-db ]; then
    bad "holds MariaDB's programs" --server-bin /usr
fi
bad "label 'a' given twice" --server-bin "a=$pgbin" --server-bin "a=$pgbin"
bad "'listen_addresses' is PostgreSQL's" --settings on=listen_addresses=0.0.0.0
bad "not a setting the server knows" --settings on=synchronous_comit=off
bad "--settings '=x'" --settings =x
# the sweep's own --server-bin, the same checks
out=$("$DBSCALE" $W --server-bin "$work/farm" --out "$work/bad" 2>&1)
expect_eq "exit of sweep --server-bin (a link farm)" $? 2
echo "$out" | grep -q "symbolic link" || fail "sweep --server-bin: $out"
[ ! -e "$work/bad" ] || fail "sweep --server-bin made $work/bad"

# 2. the study: A/A builds x settings, interleaved
out=$work/s
# shellcheck disable=SC2086
"$DBSCALE" study --server-bin "a=$pgbin" --server-bin "b=$pgbin" \
    --settings on=synchronous_commit=on --settings off=synchronous_commit=off --repeats=4 \
    --quiet --out "$out" -- $W >"$work/log" 2>&1
rc=$?
cat "$work/log"
expect_eq "exit of the study" $rc 0
order=$(json "$out/study.json" "' '.join(r['id']+'='+r['status'] for r in d['runs'])")
want=
for r in 1 2 3 4; do for v in a.on a.off b.on b.off; do want="$want $v.r$r=ok"; done; done
expect_eq "runs, interleaved" "$order" "${want# }"
rising=$(json "$out/study.json" "all(a['t_start'] < b['t_start'] for a, b in zip(d['runs'], d['runs'][1:]))")
expect_eq "run start times rising in the planned order" "$rising" True
# every level's start, over all variants: the variants alternate round by round
seq=$(python3 - "$out" <<'EOF'
import csv, sys
rows = []
for v in ("a.on", "a.off", "b.on", "b.off"):
    for r in csv.DictReader(open(f"{sys.argv[1]}/{v}/levels.csv")):
        rows.append((float(r["started"]), v, r["repeat"]))
rows.sort()
print(" ".join(f"{v}:{rep}" for _, v, rep in rows))
EOF
)
want=
for r in 1 2 3 4; do for v in a.on a.off b.on b.off; do want="$want $v:$r $v:$r"; done; done
expect_eq "levels by start time" "$seq" "${want# }"
sha=$(sha256sum "$pgbin/postgres" | cut -d' ' -f1)
for v in a.on b.off; do
    expect_eq "$v: build sha256" "$(json "$out/$v/meta.json" "d['server_build']['sha256']")" "$sha"
    json "$out/$v/meta.json" "d['server_build']['version']" | grep -q "PostgreSQL" ||
        fail "$v: no version in meta.json"
done
expect_eq "a.off's settings" "$(json "$out/a.off/meta.json" "d['server_conf']")" "['synchronous_commit=off']"
expect_eq "a.off's server says" "$(json "$out/a.off/meta.json" "d['server_settings']['synchronous_commit']")" off
expect_eq "rows of a variant (2 points x 4 repeats)" "$(sed 1d "$out/b.on/results.csv" | wc -l)" 8
# the settings difference found: on against off is a regression (exit 3)
"$DBSCALE" compare "$out/a.off" "$out/a.on" --out "$work/cmp-set" >"$work/cmp-set.log" 2>&1
rc=$?
cat "$work/cmp-set.log"
expect_eq "compare off -> on (a regression)" $rc 3
worse=$(json "$work/cmp-set/verdict.json" "sum(p['figure']=='tps' and p['class']=='worse' for p in d['points'])")
[ "$worse" -ge 1 ] || fail "no throughput point worse with synchronous_commit=on"
# the A/A pair not: no throughput point better or worse, and no regression
"$DBSCALE" compare "$out/a.on" "$out/b.on" --out "$work/cmp-aa" >"$work/cmp-aa.log" 2>&1
rc=$?
cat "$work/cmp-aa.log"
[ $rc -eq 0 ] || [ $rc -eq 4 ] || fail "compare of the A/A pair exited $rc"
aa=$(json "$work/cmp-aa/verdict.json" "sum(p['figure']=='tps' and p['class'] in ('better','worse') for p in d['points'])")
expect_eq "A/A throughput points found better or worse" "$aa" 0
# one page: every variant, the runs in order, the drift, the verdict
page=$out/report.html
for want in 'id="study-variants"' 'id="study-runs"' 'id="study-drift"' \
    "sha256 $(echo "$sha" | cut -c1-16)" '--server-conf=synchronous_commit=off' \
    "--server-bin=$pgbin"; do
    grep -q -- "$want" "$page" || fail "report.html lacks $want"
done
expect_eq "runs on the page" "$(grep -c '<tr class="run">' "$page")" 16
# the page's verdict (verdict.json beside it is the same value): against
# a.on, a.off and b.off better in throughput, b.on (A/A) neither
for v in a.off b.off; do
    n=$(json "$out/verdict.json" "sum(p['dir']=='$v' and p['figure']=='tps' and p['class']=='better' for p in d['points'])")
    [ "$n" -ge 1 ] || fail "page: no throughput point of $v better"
done
n=$(json "$out/verdict.json" "sum(p['dir']=='b.on' and p['figure']=='tps' and p['class'] in ('better','worse') for p in d['points'])")
expect_eq "page: the A/A pair found different" "$n" 0
[ "$(grep -c '<li class="better">+[0-9]*% tps' "$page")" -ge 2 ] ||
    fail "the page lists fewer than 2 throughput points better: $(grep '<li class=' "$page")"
# report of the study directory: the same variants
ok "$DBSCALE" report "$out" --out "$work/again.html"
expect_eq "runs on report OUT's page" "$(grep -c '<tr class="run">' "$work/again.html")" 16

# 3. a refused --append changes nothing
h=$(tree "$out/a.on")
# shellcheck disable=SC2086
res=$("$DBSCALE" $W --server-conf synchronous_commit=off --out "$out/a.on" --append 2>&1)
expect_eq "exit of --append with other settings" $? 2
echo "$res" | grep -q "other settings" || fail "--append with other settings: $res"
expect_eq "a.on after the refused --append (settings)" "$(tree "$out/a.on")" "$h"
# another build: its meta.json names another sha256 (as a build of another version would)
python3 - "$out/b.off/meta.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["server_build"]["sha256"] = "0" * 64
d["server_build"]["version"] = "postgres (PostgreSQL) 99.0"
json.dump(d, open(sys.argv[1], "w"))
EOF
h=$(tree "$out/b.off")
# shellcheck disable=SC2086
res=$("$DBSCALE" $W --server-bin "$pgbin" --server-conf synchronous_commit=off --out "$out/b.off" --append 2>&1)
expect_eq "exit of --append with another build" $? 2
echo "$res" | grep -q "another server build" || fail "--append with another build: $res"
expect_eq "b.off after the refused --append (build)" "$(tree "$out/b.off")" "$h"
echo "study_pgsql: ok"
