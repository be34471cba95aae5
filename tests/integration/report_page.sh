#!/bin/sh
# report_page.sh - `dbscale report` over the two fixture sweeps in tests/data,
# read by a real browser (Debian's chromium, headless): the page loads with no
# console message, the browser's DOM holds every <svg> with its data points, a
# screenshot is not blank (many distinct colours), the page fetches nothing
# and runs no script, the headline's numbers are the medians of results.csv
# computed here independently, and a host or variant holding markup is shown
# as text. No server needed. $1 = dbscale binary. Exit 0 pass, 77 skip
# (no chromium; make check: a failure).
set -u
. "$(dirname "$0")/lib.sh" "$1"
root=$(cd "$(dirname "$0")/../.." && pwd)
data=$root/tests/data
need_tool chromium chromium
browser=$(command -v chromium)
out=$(mktemp -d /tmp/dbscale-report-XXXXXX)
trap 'rm -rf "$out"' EXIT

# browse PAGE WHAT...: chromium headless on a file, its own profile; stderr
# (the console log) in $out/console.
browse() {
    _page=$1
    shift
    HOME=$out timeout 90 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$out/profile" --enable-logging=stderr --v=0 "$@" "file://$_page" \
        2>"$out/console"
}

"$DBSCALE" report "$data/pgsql-sweep" "$data/mysql-sweep" --out "$out/page.html" >"$out/stdout" ||
    fail "dbscale report exited $?: $(cat "$out/stdout")"
grep -qx "report: $out/page.html" "$out/stdout" || fail "the page's path was not printed"
page=$out/page.html

# Self-contained: no script, nothing fetched.
grep -qi '<script' "$page" && fail "the page has a script"
grep -Eqi 'https?:|src=|<link|@import|url\(' "$page" && fail "the page refers to something outside it"

# The browser: no console message, and the DOM it built holds every chart
# with its points (a broken tag would swallow what follows it).
browse "$page" --dump-dom >"$out/dom.html" || fail "chromium --dump-dom failed: $(tail -3 "$out/console")"
grep CONSOLE "$out/console" && fail "the page logged to the browser console"
nsvg=$(grep -o '<svg' "$page" | wc -l)
[ "$nsvg" -ge 4 ] || fail "expected at least 4 charts, found $nsvg"
expect_eq "charts in the browser's DOM" "$(grep -o '<svg' "$out/dom.html" | wc -l)" "$nsvg"
expect_eq "points in the browser's DOM" "$(grep -o '<circle class="pt"' "$out/dom.html" | wc -l)" \
    "$(grep -o '<circle class="pt"' "$page" | wc -l)"
# Each chart has data points: count circles between each <svg and </svg>.
tr '\n' ' ' <"$out/dom.html" | sed 's/<svg/\n<svg/g' | grep '^<svg' | sed 's/<\/svg>.*//' |
    while read -r svg; do
        n=$(printf '%s' "$svg" | grep -o '<circle class="pt"' | wc -l)
        [ "$n" -gt 0 ] || { echo "a chart without points: $(printf '%s' "$svg" | cut -c1-120)"; exit 1; }
    done || fail "a chart in the browser has no data points"

# A screenshot that is not blank: the page's colours, not one background.
browse "$page" --window-size=1100,2400 --screenshot="$out/shot.png" >/dev/null ||
    fail "chromium --screenshot failed: $(tail -3 "$out/console")"
[ -s "$out/shot.png" ] || fail "no screenshot"
if have_tool python3 python3; then
    colours=$(python3 - "$out/shot.png" <<'PY'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, w = 8, b'', 0
while pos < len(d):
    n, kind = struct.unpack('>I4s', d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype, _, _, inter = struct.unpack('>IIBBBBB', body)
        assert depth == 8 and ctype in (2, 6) and inter == 0, 'unexpected PNG format'
        bpp = 3 if ctype == 2 else 4
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw, stride, prev, seen = zlib.decompress(idat), w * bpp, bytearray(w * bpp), set()
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        for x in range(0, stride, bpp * 2):
            seen.add(bytes(line[x:x + 3]))
    prev = line
print(len(seen))
PY
) || fail "could not read the screenshot"
    [ "$colours" -ge 50 ] || fail "the screenshot looks blank: $colours distinct colours"
    echo "screenshot: $colours distinct colours"
else
    echo "python3 not installed: screenshot colours not counted"
fi

# The headline sentences against results.csv: medians over repeats per
# (variant, threads), computed here with awk, not by dbscale.
# expected DIR: the sentences for its up (1 CPU) and smp (2 CPUs) curves.
expected() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { k = $col["variant"] SUBSEP $col["threads"]; v[k, ++n[k]] = $col["tps"]
          th[$col["threads"]] = 1; var[$col["variant"]] = 1 }
        function median(k,   m, i, j, t, a) {
            m = n[k]; for (i = 1; i <= m; i++) a[i] = v[k, i]
            for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
                if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
            return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
        function fl(x) { return x == int(x) ? x : (x < 0 ? int(x) - 1 : int(x)) }
        END {
            for (t in th) { last = (last == "" || t + 0 > last + 0) ? t : last }
            for (w in var) {
                peak = -1
                for (t in th) { m = median(w SUBSEP t)
                    if (m > peak || (m == peak && t + 0 < pt + 0)) { peak = m; pt = t } }
                drop = fl((median(w SUBSEP last) / peak - 1) * 100)
                tail = sprintf("peak %.0f tps at %d threads, %d%% at %d", peak, pt, drop, last)
                if (w == "up") printf "up on 1 CPU: %s\n", tail
                else printf "%s on 1 -> 2 CPUs: %.1fx at %d threads; %s\n", w,
                    median(w SUBSEP last) / median("up" SUBSEP last), last, tail
            } }' "$1/results.csv"
}
# The sentences as the browser shows them: entities undone.
grep -o '<li>[^<]*' "$out/dom.html" | sed 's/^<li>//; s/&gt;/>/g; s/&lt;/</g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&amp;/\&/g' \
    >"$out/sentences"
for d in pgsql-sweep mysql-sweep; do
    expected "$data/$d" >"$out/expect.$d"
    [ "$(wc -l <"$out/expect.$d")" -eq 2 ] || fail "fixture $d: expected two curves"
    while read -r s; do
        grep -F "$s" "$out/sentences" | grep -q "^$d: " ||
            fail "$d: no headline '$s'; the page says: $(head -4 "$out/sentences")"
    done <"$out/expect.$d"
done
grep -q '<p class="lead" id="headline">pgsql-sweep: PostgreSQL 15.8 oltp_read_only smp on 1 -&gt; 2 CPUs: ' \
    "$out/dom.html" || fail "the lead sentence is not the first directory's 2-CPU curve"

# Markup in a host name or variant is text in the browser, never run.
mkdir "$out/hostile"
printf '%s\n' 'engine,workload,variant,cpus,threads,repeat,tps,lat_p95_ms' \
    'pgsql,oltp_read_only,"<b>v""&'"'"'</b>",1,1,0,100,1' \
    'pgsql,oltp_read_only,"<b>v""&'"'"'</b>",1,2,0,180,2' >"$out/hostile/results.csv"
printf '%s\n' '{"hostname": "<script>document.title=\"pwned\"</script>", "kernel": "a&b",' \
    ' "options": {"workload": "x\"; rm -rf ~; echo \"y"}}' >"$out/hostile/meta.json"
"$DBSCALE" report "$out/hostile" >"$out/stdout" || fail "report of the hostile dir failed"
hp=$out/hostile/report.html
[ -s "$hp" ] || fail "the default --out is DIR/report.html"
grep -qi '<script' "$hp" && fail "a host name became a script"
grep -q '<b>' "$hp" && fail "a variant became markup"
browse "$hp" --dump-dom >"$out/hdom.html" || fail "chromium failed on the hostile page"
grep CONSOLE "$out/console" && fail "the hostile page logged to the console"
# (the browser writes its DOM back with quotes in text unescaped)
grep -qF '&lt;script&gt;document.title="pwned"&lt;/script&gt;' "$out/hdom.html" ||
    fail "the host name was not shown as text"
grep -q '<title>dbscale report: hostile</title>' "$out/hdom.html" || fail "a script changed the title"
grep -qF '&lt;b&gt;v"&amp;'"'"'&lt;/b&gt;' "$out/hdom.html" || fail "the variant is not shown as text"
# Bad input exits 2 naming what is wrong; a page that cannot be written, 1.
"$DBSCALE" report >/dev/null 2>&1
expect_eq "report without a directory: exit" "$?" 2
"$DBSCALE" report "$out/no-such-dir" >/dev/null 2>"$out/err"
expect_eq "report of a missing directory: exit" "$?" 2
grep -q "no-such-dir" "$out/err" || fail "the missing directory is not named: $(cat "$out/err")"
"$DBSCALE" report "$data/pgsql-sweep" --out "$out/no-such-dir/page.html" >/dev/null 2>"$out/err"
expect_eq "report into a missing directory: exit" "$?" 1
grep -q "cannot write the report" "$out/err" || fail "no clear message: $(cat "$out/err")"
"$DBSCALE" report --help | grep -q "usage: dbscale report" || fail "report --help"
echo "report_page: ok"
exit 0
