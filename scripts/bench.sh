#!/usr/bin/env bash
# Runs the benchmarks: scripts/bench.sh [module ...] (default: every bench/<module>/run.sh).
# Each run.sh receives the release build directory as $1 and prints its figures (medians of
# repeated runs, ratios to the peer measured in the same run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --oracles
bash scripts/build.sh release
modules=("$@")
if (( ${#modules[@]} == 0 )); then
  for d in bench/*/run.sh; do modules+=("$(basename "$(dirname "$d")")"); done
fi
for m in "${modules[@]}"; do
  echo "== bench/$m"
  bash "bench/$m/run.sh" "$PWD/build/release"
done
