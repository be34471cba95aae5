#!/bin/sh
# make demo: the main job on the embedded default. dbscale starts a
# throwaway PostgreSQL itself, runs a short CPU-count sweep (the server held
# to 1 CPU, then all), prints the summary, draws the graphs, writes the HTML
# report (the sweep writes it), and removes the server. The page's path
# is the last line.
# Usage: scripts/demo.sh path/to/dbscale
set -e
bin=$1
here=$(cd "$(dirname "$0")/.." && pwd)
out=${DEMO_OUT:-results/demo-$(date +%Y%m%d-%H%M%S)}
"$bin" sweep --config "$here/configs/demo.ini" --out "$out"
"$bin" plot "$out" --out "$out/plots"
echo
echo "demo done: results in $out, graphs in $out/plots"
echo "report: $out/report.html"
