#!/usr/bin/env bash
# Runs every libFuzzer target of fuzz/ for a bounded time (make fuzz; not part of make test).
# usage: scripts/run-fuzz.sh BUILD_DIR SECONDS_PER_TARGET
# Seeds: the bundled manifests and msopst files, and tests/fuzz-seeds/ for LLM replies. Crashing inputs land in fuzz/crashes/; once
# fixed, copy them to tests/fuzz-regressions/<target>/ so the test suite replays them.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?build dir}
seconds=${2:-60}
mkdir -p fuzz/crashes

run() {
  local target=$1; shift
  local corpus="$build/corpus/$target" seeds="$build/seeds/$target"
  mkdir -p "$corpus" "$seeds"
  for f in "$@"; do cp "$f" "$seeds/$(echo "$f" | tr '/' '_')"; done
  if [ -d "tests/fuzz-regressions/$target" ]; then cp tests/fuzz-regressions/"$target"/* "$seeds"/ 2>/dev/null || true; fi
  echo "fuzz: $target for ${seconds}s" >&2
  "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="fuzz/crashes/$target-" "$corpus" "$seeds" 2>&1 | tail -n 12
}

run manifest ops/*/ascendopt.toml
run msopst ops/*/tests/st/*.json
run reply tests/fuzz-seeds/reply/*
run chat tests/fuzz-seeds/chat/*
