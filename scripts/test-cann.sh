#!/usr/bin/env bash
# make test-cann: the cann-ops suites (suite/cann-ops-level1, -level2, -level3) on the twin,
# against a cann-ops checkout, one level after the other; every level runs even when an
# earlier one fails. Usage: scripts/test-cann.sh BUILD_DIR CANN_OPS_DIR [LEVEL...]
# (levels 1 2 3 by default; LEVELS="1" make test-cann runs only Level 1).
# Without a checkout it says so and succeeds: the suite is benchmark input, not part of ours.
set -euo pipefail
build=${1:?build folder}
cann_ops=${2:?cann-ops checkout}
shift 2
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(1 2 3)
if [ ! -d "$cann_ops/src/math" ]; then
    echo "test-cann: skipped: no cann-ops checkout at $cann_ops (make test-cann CANN_OPS=DIR names one)"
    exit 0
fi
# The hidden case's shape is drawn fresh for every evaluation: pinned here so that a run repeats
# (a published operator with a shape-dependent defect would otherwise pass or fail by draw).
export ASCENDOPT_HIDDEN_NONCE=${ASCENDOPT_HIDDEN_NONCE:-1}
status=0
for level in "${levels[@]}"; do
    suite="suite/cann-ops-level$level"
    if [ ! -d "$suite" ]; then
        echo "test-cann: error: no suite $suite (levels are 1, 2 and 3)" >&2
        exit 2
    fi
    ops=("$suite"/*/)
    echo "test-cann: $suite (${#ops[@]} operators) against $cann_ops"
    start=$(date +%s)
    rc=0
    "$build/bin/ascendopt" eval "${ops[@]}" --cann-ops "$cann_ops" -q || rc=$?
    echo "test-cann: $suite: $(( $(date +%s) - start )) s, exit $rc"
    [ "$rc" -eq 0 ] || status=$rc
done
exit "$status"
