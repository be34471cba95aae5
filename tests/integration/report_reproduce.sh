#!/bin/sh
# The report page's reproduce line runs and reproduces, and is safe to paste.
#  1. A real sweep (managed PostgreSQL; a --server-conf value with quotes in
#     it, a list option, a variant): its page's line names the workload and
#     only what was given (no MariaDB option beside --db-driver=pgsql, the
#     fault that made it exit 2), and run as printed it makes a new results
#     directory with the same levels and the same command.
#  2. A hostile meta.json (issue 28): a key `x;touch FILE;#` in "options" and
#     in "command" never reaches the line, and the line, pasted into a shell,
#     runs nothing but dbscale with its words.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
bin=$(cd "$(dirname "$DBSCALE")" && pwd)/$(basename "$DBSCALE")

# the <pre class="cmd"> line of a page, as text
page_cmd() {
    sed -n 's/^<pre class="cmd">\(.*\)<\/pre>$/\1/p' "$1" | head -n 1 |
        sed "s/&#39;/'/g; s/&quot;/\"/g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\\&/g"
}

levels() { # DIR: the sorted variant,cpus,threads of its rows
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["rank"] == "" || $c["rank"] == "-1" { print $c["variant"] "," $c["cpus"] "," $c["threads"] }' \
        "$1/results.csv" | sort -u
}

# ---- 1. a real sweep's line, run as printed ----
mkdir "$work/first" "$work/again"
(cd "$work/first" && "$bin" sweep oltp_point_select --db-driver=pgsql --threads=1,2 --repeats=1 \
    --time=0.5 --tables=1 --table-size=100 --cpus=all \
    "--server-conf=shared_preload_libraries='pg_stat_statements'" --server-conf=work_mem=8MB \
    --variant=v+1 --out=r >"$work/first.log" 2>&1) || fail "the sweep failed: $(tail -5 "$work/first.log")"
line=$(page_cmd "$work/first/r/report.html")
echo "reproduce: $line"
case $line in "dbscale sweep oltp_point_select "*) ;; *) fail "no workload first: $line" ;; esac
case $line in *--mysql-*) fail "a MariaDB option in a PostgreSQL study's line: $line" ;; esac
case $line in *--out*) fail "the line writes into the study's own directory: $line" ;; esac
(cd "$work/again" && dbscale() { "$bin" "$@"; } && eval "$line") >"$work/again.log" 2>&1 ||
    fail "the reproduce line failed: $(tail -5 "$work/again.log")"
new=$(ls -d "$work"/again/results/pgsql-oltp_point_select-* 2>/dev/null | head -n 1)
[ -f "$new/results.csv" ] || fail "the reproduce line made no results directory: $(tail -5 "$work/again.log")"
expect_eq "levels reproduced" "$(levels "$new")" "$(levels "$work/first/r")"
expect_eq "the reproduction's own line" "$(page_cmd "$new/report.html")" "$line"
echo "report_reproduce: the page's line ran and made the same levels"

# ---- 2. hostile keys in a copied meta.json ----
cp -r "$(dirname "$0")/../data/pgsql-sweep" "$work/h"
python3 - "$work/h/meta.json" "$work/PWNED" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
evil = "x;touch %s;#" % sys.argv[2]
m["options"][evil] = "1"
m["options"]["pgsql-host"] = "it's $(touch %s)" % sys.argv[2]
json.dump(m, open(sys.argv[1], "w"))
PY
ok "$DBSCALE" report "$work/h"
line=$(page_cmd "$work/h/report.html")
echo "hostile options: $line"
case $line in *"x;touch"*) fail "a key that names no option reached the line: $line" ;; esac
grep -q 'Left out of the command: 1 entry' "$work/h/report.html" || fail "the page does not say a key was left out"
# pasted into a shell, the line runs dbscale with its words and nothing else
words=$(dbscale() { printf '[%s]\n' "$@"; } && eval "$line")
[ ! -e "$work/PWNED" ] || fail "the reproduce line ran a command of meta.json's"
echo "$words" | grep -qxF "[--pgsql-host=it's \$(touch $work/PWNED)]" ||
    fail "a value was not passed as one word: $words"
# the same with a "command" list holding the hostile word
python3 - "$work/h/meta.json" "$work/PWNED" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["command"] = ["oltp_read_only", "--x;touch %s;#=1" % sys.argv[2], "--threads=1", "`touch %s`" % sys.argv[2]]
json.dump(m, open(sys.argv[1], "w"))
PY
ok "$DBSCALE" report "$work/h"
line=$(page_cmd "$work/h/report.html")
echo "hostile command: $line"
expect_eq "the line from a hostile command list" "$line" "dbscale sweep oltp_read_only --threads=1"
grep -q 'Left out of the command: 2 entries' "$work/h/report.html" || fail "the page does not say two entries were left out"
[ ! -e "$work/PWNED" ] || fail "the reproduce line ran a command of meta.json's"
echo "report_reproduce: meta.json's keys that name no option never reach the line"
