#!/usr/bin/env bash
# make study-cann: the study on real operators (issue 17). The experience bank is mined from the
# cann-ops Level-1 operators by rule-based rewind (no LLM; 20 evaluations each), then every
# offline method runs on every operator at the reference budget with several seeds, then the
# report. Rerun to resume: rewind and bench both pick up where they stopped.
# Usage: scripts/study-cann.sh BUILD_DIR CANN_OPS_DIR OUT_DIR
# Settings from the environment: STUDY_BUDGET (230), STUDY_SEEDS (3), STUDY_REWIND (20),
# STUDY_METHODS (ascendopt,stage1,stage2), STUDY_SUITE (suite/cann-ops-level1),
# STUDY_SENSITIVITY (1: re-time every job across the SoC file's estimated ranges, bench
# --sensitivity; 0: not), STUDY_SENSITIVITY_SAMPLES (8).
set -euo pipefail
build=${1:?build folder}
cann_ops=${2:?cann-ops checkout}
out=${3:?output folder}
budget=${STUDY_BUDGET:-230}
seeds=${STUDY_SEEDS:-3}
rewind=${STUDY_REWIND:-20}
methods=${STUDY_METHODS:-ascendopt,stage1,stage2}
suite=${STUDY_SUITE:-suite/cann-ops-level1}
sensitivity=()
if [ "${STUDY_SENSITIVITY:-1}" != 0 ]; then sensitivity=(--sensitivity --sensitivity-samples "${STUDY_SENSITIVITY_SAMPLES:-8}"); fi
if [ ! -d "$cann_ops/src/math" ]; then
    echo "study-cann: skipped: no cann-ops checkout at $cann_ops (make study-cann CANN_OPS=DIR names one)"
    exit 0
fi
mkdir -p "$out"
start=$(date +%s)
elapsed() { echo "$(( $(date +%s) - start )) s"; }
echo "study-cann: rule-based rewind of $suite ($rewind evaluations per operator) into $out/bank.db"
"$build/bin/ascendopt" rewind "$suite" --mode rules --budget "$rewind" --cann-ops "$cann_ops" --bank "$out/bank.db" --out "$out/rewind"
echo "study-cann: rewind done after $(elapsed); the study: $methods, budget $budget ($rewind charged to rewind), $seeds seeds"
"$build/bin/ascendopt" bench "$suite" --cann-ops "$cann_ops" --methods "$methods" --budget "$budget" --rewind-share "$rewind" \
    --seeds "$seeds" --bank "$out/bank.db" --out "$out/bench" "${sensitivity[@]}"
"$build/bin/ascendopt" report "$out/bench"
echo "study-cann: done after $(elapsed); report: $out/bench/report.md and report.html"
