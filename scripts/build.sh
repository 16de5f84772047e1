#!/usr/bin/env bash
# Configures and builds one of the two build trees:
#   scripts/build.sh release   optimised, build/release (the main job, benchmarks)
#   scripts/build.sh asan      AddressSanitizer + UndefinedBehaviorSanitizer, build/asan (tests)
# Further arguments name the targets to build (default: everything).
# Warnings are errors in both.
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-release}"
shift || true
targets=()
for t in "$@"; do targets+=(--target "$t"); done
jobs="${ASSAY_JOBS:-$(nproc)}"
case "$kind" in
  release) flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan) flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1"
               -DASSAY_SANITIZE=ON) ;;
  *) echo "usage: scripts/build.sh release|asan" >&2; exit 2 ;;
esac
cmake -S . -B "build/$kind" -G Ninja -DASSAY_WERROR=ON "${flags[@]}" > /dev/null
cmake --build "build/$kind" -j "$jobs" "${targets[@]}"
