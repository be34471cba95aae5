#!/bin/sh
# Every command README.md and docs/*.md show is accepted by the parser, so a
# renamed option or verb cannot drift out of the docs unnoticed. Commands
# are the `dbscale ...` (or `dbscale-mpi ...`, after an mpirun or srun)
# lines of code blocks, `$ ` prompts dropped and continuation lines joined,
# and `dbscale ...` spans in backquotes; a comment, pipe, redirection or
# second command after one is cut off. A line holding a placeholder in
# capitals (WORKLOAD, DIR, FILE.html, N) is a synopsis and is skipped, as is
# one with "..." or "[", and one running a script the repository does not
# hold (a third-party kit's).
# Each runs from the repository's root with DBSCALE_PARSE_ONLY=1: the real
# dispatch and the verb's real parser read it, and it ends there, before
# anything runs. A self-check first: a bad option in a doc must be caught.
. "$(dirname "$0")/lib.sh" "$1"
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$(dirname "$DBSCALE")" && pwd)/$(basename "$DBSCALE")
work=$(mktemp -d)
at_exit 'rm -rf "$work"'

# FILE...: "FILE:LINE<TAB>command" per command found
commands() {
    awk '
    function emit(file, line, cmd,    q, i, c, out) {
        sub(/^\$ /, "", cmd)
        # cut at an unquoted comment, pipe, redirection or command separator
        q = ""; out = ""
        for (i = 1; i <= length(cmd); i++) {
            c = substr(cmd, i, 1)
            if (q == "" && (c == "\047" || c == "\"")) q = c
            else if (q != "" && c == q) q = ""
            else if (q == "" && (c == "#" || c == "|" || c == ">" || c == ";" || c == "&") &&
                     (i == 1 || substr(cmd, i - 1, 1) == " ")) break
            out = out c
        }
        sub(/[ \t]+$/, "", out)
        if (out ~ /\.\.\.|\[|\|/) return
        # a placeholder: a word (or an option value) in capitals
        if (out ~ /(^|[ =,])[A-Z][A-Z0-9_]*(\.[a-z]+)?([ ,]|$)/ &&
            out !~ /=(REQUIRED|DISABLED|PREFERRED|VERIFY_CA|VERIFY_IDENTITY)( |$)/) return
        printf "%s:%d\t%s\n", file, line, out
    }
    FNR == 1 { fence = 0; pend = ""; start = 0 }
    /^[ \t]*```/ { fence = !fence; next }
    {
        code = fence || $0 ~ /^    /
        text = $0
        if (code) {
            sub(/^[ \t]+/, "", text)
            if (pend != "") {
                pend = pend " " text
            } else {
                t = text
                sub(/^\$ /, "", t)
                if (t ~ /^(mpirun|srun) / && t ~ / dbscale-mpi /) sub(/^.* dbscale-mpi /, "dbscale-mpi ", t)
                if (t !~ /^(dbscale|dbscale-mpi|build\/dbscale) /) next
                pend = t; start = FNR
            }
            if (pend ~ /\\$/) { sub(/[ \t]*\\$/, "", pend); next }
            emit(FILENAME, start, pend)
            pend = ""
            next
        }
        # spans in backquotes in the text
        while (match(text, /`(dbscale|dbscale-mpi) [^`]*`/)) {
            emit(FILENAME, FNR, substr(text, RSTART + 1, RLENGTH - 2))
            text = substr(text, RSTART + RLENGTH)
        }
    }' "$@"
}

# FILE:LINE<TAB>COMMAND lines on stdin: each through the parser; the bad
# ones printed, their count the status
check() {
    bad=0 n=0
    while IFS="$(printf '\t')" read -r where cmd; do
        n=$((n + 1))
        eval "set -- $cmd" 2>/dev/null || { echo "$where: cannot split: $cmd"; bad=$((bad + 1)); continue; }
        shift # dbscale, dbscale-mpi or build/dbscale: the one parser
        # a third-party script the repository does not hold (Percona's
        # tpcc.lua) cannot be read for its options: not checked here
        script=
        for w in "$@"; do case $w in -*) ;; *.lua) script=$w; break ;; esac; done
        if [ -n "$script" ] && [ ! -f "$root/$script" ] && [ ! -f "$script" ]; then
            n=$((n - 1))
            continue
        fi
        if ! out=$(cd "$root" && DBSCALE_PARSE_ONLY=1 "$bin" "$@" 2>&1 </dev/null); then
            echo "$where: $cmd"
            echo "    $(echo "$out" | head -n 2 | tr '\n' ' ')"
            bad=$((bad + 1))
        fi
    done
    echo "checked $n"
    return $bad
}

# the self-check: a drifted option and verb are caught, a synopsis skipped
cat >"$work/drift.md" <<'MD'
    dbscale run oltp_read_only --threds=4
    dbscale sweeep oltp_read_only
    dbscale plot RESULTS_DIR... --out DIR
Inline: `dbscale report tests/data/pgsql-sweep --outt=x.html`.
MD
commands "$work/drift.md" >"$work/drift.cmds"
expect_eq "commands found in the self-check" "$(wc -l <"$work/drift.cmds")" 3
if check <"$work/drift.cmds" >"$work/drift.out"; then
    fail "drifted commands were accepted: $(cat "$work/drift.out")"
fi
expect_eq "drifted commands caught" "$(grep -c '^[^ ].*drift.md:' "$work/drift.out")" 3

cd "$root" || fail "no repository root"
commands README.md docs/*.md >"$work/cmds"
found=$(wc -l <"$work/cmds")
[ "$found" -ge 40 ] || fail "only $found commands found in README.md and docs/: $(cat "$work/cmds")"
check <"$work/cmds" >"$work/out" || fail "commands the parser refuses:
$(grep -v '^checked' "$work/out")"
echo "docs_commands: of $found commands in README.md and docs/, $(sed -n 's/^checked //p' "$work/out") checked (the rest run scripts the repository does not hold): all accepted by the parser"
