#!/usr/bin/env bash
# The main job, offline, on the bundled suite (make demo):
#   1. mechanical rewind of the strong/baseline pairs in ops/ into an experience bank;
#   2. an operator that was never mined (suite/untuned/axpb_custom) optimized with it:
#      transfer of the mined records (Stage I) then the tiling search (Stage II);
#   3. the study on every operator of ops/ (OP/baseline/ where there is one; an operator's own
#      records are never retrieved for it) with the methods that need no LLM, at one budget
#      per operator: ascendopt, its Stage I ablation, and Stage II alone;
#   4. the report (Markdown and one HTML file with gnuplot plots).
# Everything lands in demo-out/; a rerun resumes and repeats no evaluation. Latencies are the
# twin's simulated ones. DEMO_BUDGET changes the study's budget per method and operator.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BUILD:-build}/bin/ascendopt
out=demo-out
budget=${DEMO_BUDGET:-8}
mkdir -p "$out"
start=$(date +%s)
echo "== 1. rewind: experience bank from the strong/baseline pairs in ops/" >&2
"$bin" rewind ops --bank "$out/bank.db" --out "$out/rewind" -q
"$bin" bank list --bank "$out/bank.db"
echo "== 2. optimize an operator that was never mined: suite/untuned/axpb_custom" >&2
"$bin" optimize suite/untuned/axpb_custom --bank "$out/bank.db" --budget 12 --out "$out/optimize-axpb" -q
echo "== 3. the study: ascendopt, stage1, stage2 at budget $budget per operator" >&2
"$bin" bench ops --methods ascendopt,stage1,stage2 --budget "$budget" --bank "$out/bank.db" --out "$out/bench"
echo "== 4. report" >&2
"$bin" report "$out/bench"
echo "demo: done in $(( $(date +%s) - start )) s" >&2
