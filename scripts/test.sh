#!/usr/bin/env bash
# README command 2: install, check the C++ layout, build with ASan + UBSan (warnings as errors),
# run every test.
#   scripts/test.sh          every test: unit, integration and oracle (what CI runs), and the
#                            recsys tests once more with ASSAY_ISA=scalar, then every libFuzzer
#                            target for 5 seconds (tools/fuzz/run.sh --brief)
#   scripts/test.sh --fast   the unit tests only (in-process library calls; a few minutes)
# Further arguments go to ctest (e.g. -R Campaign, -L knowledge). Tests whose data under
# ../shared/data is absent skip, and ctest's summary names them.
set -euo pipefail
cd "$(dirname "$0")/.."
selection=()
if [[ "${1:-}" == "--fast" ]]; then
  selection=(-L '^unit$')
  shift
fi
bash scripts/setup.sh --test
# Every tracked C++ file follows .clang-format (scripts/format.sh --fix rewrites those that do not).
bash scripts/format.sh
bash scripts/build.sh asan
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
jobs="${ASSAY_JOBS:-$(nproc)}"
if (( ${#selection[@]} == 0 && $# == 0 )); then
  # The recsys kernels once more on their plain paths (the AVX-512 and SSE2 kernels are chosen
  # at run time, so on a machine that has them the reference paths would otherwise go untested).
  echo "test: the recsys tests with ASSAY_ISA=scalar" >&2
  ASSAY_ISA=scalar ctest --test-dir build/asan --output-on-failure --timeout 900 -j "$jobs" -L '^recsys$'
fi
ctest --test-dir build/asan --output-on-failure --timeout 900 -j "$jobs" "${selection[@]}" "$@"
if (( ${#selection[@]} == 0 && $# == 0 )); then
  # The tests that compare a live BLAS-backed oracle (scikit-learn, scipy, gensim) with a
  # committed golden, once more under two fixed OpenBLAS kernels whatever this processor would
  # pick, so that a golden only one kind of processor reproduces fails here and not on a
  # user's machine (Haswell needs AVX2; any x86-64 runs Prescott).
  oracle_tests='^goldens[.]|ScikitLearn'
  coretypes=(Prescott)
  if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then coretypes+=(Haswell); fi
  for coretype in "${coretypes[@]}"; do
    echo "test: the live-oracle tests with OPENBLAS_CORETYPE=$coretype" >&2
    OPENBLAS_CORETYPE=$coretype ctest --test-dir build/asan --output-on-failure --timeout 900 \
      -j "$jobs" -R "$oracle_tests"
  done
  # The parsers against fuzzed input: a few seconds per libFuzzer target (docs/fuzzing.md).
  bash tools/fuzz/run.sh --brief
fi
