#!/bin/bash
# The scheduler's cost of bench --executor slurm: the same study (Stage II on the given bundled
# operators, --no-replay so both runs evaluate everything) run locally with --parallel 2 and
# through a one-node Slurm cluster with two 1-CPU tasks at a time, wall times side by side.
# Usage: bench/slurm-overhead.sh [BUDGET] [OPERATOR...]     (from the repository, after make build)
set -euo pipefail
budget=${1:-8}; shift || true
ops=("$@"); [ ${#ops[@]} -gt 0 ] || ops=(exp_custom add_custom div_custom clip_custom)
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=$repo/build/bin/ascendopt
work=$(mktemp -d /tmp/ascendopt-slurm-overhead.XXXXXX)
chmod 755 "$work"  # munged needs every folder above its socket searchable
trap 'bash "$repo/tests/support/slurm-down.sh" "$work/cluster" >/dev/null 2>&1; rm -rf "$work"' EXIT
mkdir -p "$work/suite"
for op in "${ops[@]}"; do cp -r "$repo/ops/$op" "$work/suite/"; done
bash "$repo/tests/support/slurm-up.sh" "$work/cluster" munge >/dev/null
export SLURM_CONF=$work/cluster/slurm.conf ASCENDOPT_CONFIG=/dev/null ASCENDOPT_SLURM_CPUS_PER_TASK=1
study=(bench "$work/suite" --methods stage2 --budget "$budget" --no-replay -q)
# Warm the build cache first, so that neither timed run pays for compiling.
"$bin" "${study[@]}" --out "$work/warm" >/dev/null 2>&1 || true
t0=$(date +%s.%N); "$bin" "${study[@]}" --parallel 2 --out "$work/local" >/dev/null; t1=$(date +%s.%N)
"$bin" "${study[@]}" --executor slurm --out "$work/slurm" >/dev/null; t2=$(date +%s.%N)
python3 - "$t0" "$t1" "$t2" "$budget" "$work/local/results.json" "$work/slurm/results.json" <<'PY'
import json, sys
t0, t1, t2 = map(float, sys.argv[1:4])
budget = int(sys.argv[4])
def jobs(path):
    return [(o["operator"], o["evaluations_us"]) for o in json.load(open(path))["methods"]["stage2"]["operators"]]
local, slurm = t1 - t0, t2 - t1
n = len(jobs(sys.argv[5]))
print(f"jobs {n} (Stage II, budget {budget})")
print(f"local --parallel 2:        {local:7.1f} s")
print(f"slurm, 2 tasks at a time:  {slurm:7.1f} s")
print(f"ratio slurm/local:         {slurm / local:7.2f}")
print(f"overhead per task:         {(slurm - local) / n:7.2f} s")
print("same results:", "yes" if jobs(sys.argv[5]) == jobs(sys.argv[6]) else "NO")
PY
