#!/usr/bin/env bash
# bench/models/run.sh BUILD_DIR: speed of the model-under-test layer — the cmd: adapter against
# a raw pipe round trip of the same bytes (same run), http: requests/s at concurrency 8 against
# a local server, answer-cache hits/s, and the built-in LR's training time and predictions/s on
# rt-polarity. Each figure is the median of 5 runs.
set -euo pipefail
build="${1:?usage: bench/models/run.sh BUILD_DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
bench="$build/bench/models/models_bench"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bench" cmd 100000
timeout 120 "$bench" http 20000
"$bench" cache 200000
"$bench" lr "$here/../../../shared/data/rt-polarity-v1.0"
