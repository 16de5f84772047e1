#!/usr/bin/env bash
# bench/fuzz/run.sh [BUILD_DIR]: every libFuzzer target for 10 minutes (tools/fuzz/run.sh
# --minutes 10; about two hours in all), continuing from the inputs earlier runs kept in
# build/fuzz/corpus/. Fails on any finding. BUILD_DIR is ignored: the fuzzers have their own
# clang tree (build/fuzz). FUZZ_MINUTES changes the time per target.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
bash "$here/../../tools/fuzz/run.sh" --minutes "${FUZZ_MINUTES:-10}"
