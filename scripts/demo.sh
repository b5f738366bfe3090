#!/usr/bin/env bash
# The main job, offline, on the bundled suite (make demo):
#   1. mechanical rewind of the strong/baseline pairs into an experience bank;
#   2. the study at one budget per operator: ascendopt (transfer + Stage II) and Stage II
#      alone, on every operator (OP/baseline/ where there is one; an
#      operator's own records are never retrieved for it);
#   3. the results table and the report (Markdown and HTML with gnuplot plots).
# Everything lands in demo-out/ (rerun to resume). Latencies are the twin's simulated ones.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BUILD:-build}/bin/ascendopt
out=demo-out
budget=${DEMO_BUDGET:-4}
mkdir -p "$out"
echo "== rewind: experience bank from the strong/baseline pairs in ops/" >&2
"$bin" rewind ops --bank "$out/bank.db" --out "$out/rewind"
"$bin" bank list --bank "$out/bank.db"
echo "== bench: ascendopt and stage2 at budget $budget per operator" >&2
"$bin" bench ops --methods ascendopt,stage2 --budget "$budget" --bank "$out/bank.db" --out "$out/bench"
"$bin" report "$out/bench" > /dev/null
echo "report: $(pwd)/$out/bench/report.html" >&2
echo "== an unmined operator: suite/untuned/axpb_custom" >&2
"$bin" optimize suite/untuned/axpb_custom --bank "$out/bank.db" --budget 12 --out "$out/optimize-axpb"
