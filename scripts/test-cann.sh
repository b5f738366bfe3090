#!/usr/bin/env bash
# make test-cann: the cann-ops Level-1 suite (suite/cann-ops-level1) on the twin, against a
# cann-ops checkout. Usage: scripts/test-cann.sh BUILD_DIR CANN_OPS_DIR
# Without a checkout it says so and succeeds: the suite is benchmark input, not part of ours.
set -euo pipefail
build=${1:?build folder}
cann_ops=${2:?cann-ops checkout}
if [ ! -d "$cann_ops/src/math" ]; then
    echo "test-cann: skipped: no cann-ops checkout at $cann_ops (make test-cann CANN_OPS=DIR names one)"
    exit 0
fi
echo "test-cann: suite/cann-ops-level1 against $cann_ops"
start=$(date +%s)
status=0
"$build/bin/ascendopt" eval suite/cann-ops-level1/*/ --cann-ops "$cann_ops" -q || status=$?
echo "test-cann: $(( $(date +%s) - start )) s, exit $status"
exit "$status"
