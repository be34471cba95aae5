#!/bin/sh
# study_mysql.sh - dbscale study over a managed MariaDB run from a basedir
# (--server-bin /usr, as a tarball's would be given): its misuse refused
# (a PostgreSQL bin directory, a link farm), then one settings pair,
# innodb_flush_log_at_trx_commit=1 against 0, on a write workload, four
# rounds interleaved: the build labelled by its version and sha256, the
# difference found by compare (exit 3 for 1 against 0) and on the page.
. "$(dirname "$0")/lib.sh" "$1"
need_engine mysql
[ -x /usr/bin/mariadb-install-db ] || skip "mariadb-install-db not in /usr/bin"
work=$(mktemp -d /tmp/dbscale-study-XXXXXX)
at_exit '[ -n "${KEEP:-}" ] || rm -rf "$work"'
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
W="sweep oltp_update_non_index --db-driver=mysql --threads=1,2 --time=1 --tables=1 --table-size=1000"

# misuse: exit 2 naming it, nothing made
bad() {
    want=$1
    shift
    # shellcheck disable=SC2086
    out=$("$DBSCALE" study "$@" --out "$work/bad" -- $W 2>&1)
    expect_eq "exit of study $*" $? 2
    echo "$out" | grep -q -- "$want" || fail "study $*: no '$want' in: $out"
    [ ! -e "$work/bad" ] || fail "study $*: made $work/bad before refusing"
}
mkdir -p "$work/farm/sbin" "$work/farm/bin"
ln -s /usr/sbin/mariadbd "$work/farm/sbin/mariadbd"
ln -s /usr/bin/mariadb-install-db "$work/farm/bin/mariadb-install-db"
bad "farm/sbin/mariadbd is a symbolic link" --server-bin "$work/farm"
pg=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -n 1)
[ -z "$pg" ] || bad "holds PostgreSQL's programs" --server-bin "$pg"
bad "is no MariaDB installation" --server-bin "$work/farm/bin"
bad "innodb_flush_log_at_trx_comit" --settings x=innodb_flush_log_at_trx_comit=0

# the study: one build from a basedir x the settings pair
out=$work/s
# shellcheck disable=SC2086
"$DBSCALE" study --server-bin /usr --settings sync=innodb_flush_log_at_trx_commit=1 \
    --settings lazy=innodb_flush_log_at_trx_commit=0 --repeats=4 --quiet --out "$out" -- $W \
    >"$work/log" 2>&1
rc=$?
cat "$work/log"
expect_eq "exit of the study" $rc 0
ver=$(/usr/sbin/mariadbd --version | sed 's/.* Ver \([0-9.]*\).*/\1/')
order=$(json "$out/study.json" "' '.join(r['id'] for r in d['runs'])")
want=
for r in 1 2 3 4; do for s in sync lazy; do want="$want $ver.$s.r$r"; done; done
expect_eq "runs, interleaved (the build labelled by its version)" "$order" "${want# }"
sha=$(sha256sum /usr/sbin/mariadbd | cut -d' ' -f1)
expect_eq "build sha256" "$(json "$out/$ver.lazy/meta.json" "d['server_build']['sha256']")" "$sha"
expect_eq "basedir" "$(json "$out/$ver.lazy/meta.json" "d['server_build']['dir']")" /usr
expect_eq "the server says" \
    "$(json "$out/$ver.lazy/meta.json" "d['server_settings']['innodb_flush_log_at_trx_commit']")" 0
"$DBSCALE" compare "$out/$ver.lazy" "$out/$ver.sync" --out "$work/cmp" >"$work/cmp.log" 2>&1
rc=$?
cat "$work/cmp.log"
expect_eq "compare 0 -> 1 (a regression)" $rc 3
worse=$(json "$work/cmp/verdict.json" "sum(p['figure']=='tps' and p['class']=='worse' for p in d['points'])")
[ "$worse" -ge 1 ] || fail "no throughput point worse with innodb_flush_log_at_trx_commit=1"
n=$(json "$out/verdict.json" "sum(p['dir']=='$ver.lazy' and p['figure']=='tps' and p['class']=='better' for p in d['points'])")
[ "$n" -ge 1 ] || fail "the page finds no throughput point better with 0"
for want in 'id="study-runs"' "sha256 $(echo "$sha" | cut -c1-16)" \
    '--server-conf=innodb_flush_log_at_trx_commit=0' '--server-bin=/usr'; do
    grep -q -- "$want" "$out/report.html" || fail "report.html lacks $want"
done
echo "study_mysql: ok"
