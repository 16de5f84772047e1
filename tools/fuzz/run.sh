#!/usr/bin/env bash
# Builds the libFuzzer targets (tools/fuzz/CMakeLists.txt, clang, -fsanitize=fuzzer,address,
# undefined) into build/fuzz and runs them one after the other, each from its committed seeds
# (tools/fuzz/corpus/<target>/) plus what earlier runs found (build/fuzz/corpus/<target>/).
#
#   tools/fuzz/run.sh [--brief | --seconds N | --minutes N] [TARGET...]
#     --brief      5 seconds per target, from the seeds only (what scripts/test.sh runs in CI)
#     --seconds N  N seconds per target (default 60); --minutes N: N minutes per target
#     TARGET       csv jsonl vectors_text vectors_binary arpa conceptnet_dump conceptnet_cache
#                  modification_set aeon_annotations attribute_file safetensors tokenizer
#                  http_request serve_request cmd_output http_answer (default: all)
#     --list       print the target names and exit
#
# Any finding fails the run (exit 1): a crash, a sanitizer report, an exception other than
# assay::core::Error, an input slower than 10 s (a hang) or over 2 GB of memory. The input is
# saved as build/fuzz/artifacts/<target>/crash-* (or timeout-*, oom-*, leak-*); replay it with
# build/fuzz/<target>_fuzzer FILE. One line per target reports executions and executions/s.
# Needs clang and libclang-rt-14-dev (scripts/packages/fuzz.test). ASSAY_JOBS bounds the build.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
all=(csv jsonl vectors_text vectors_binary arpa conceptnet_dump conceptnet_cache modification_set
     aeon_annotations attribute_file safetensors tokenizer http_request serve_request cmd_output
     http_answer)
seconds=60
brief=0
targets=()
while (( $# > 0 )); do
  case "$1" in
    --brief) brief=1; seconds=5 ;;
    --seconds) seconds=${2:?--seconds needs a value}; shift ;;
    --minutes) minutes=${2:?--minutes needs a value}; shift
               [[ $minutes =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --minutes needs a positive whole number" >&2; exit 2; }
               seconds=$(( minutes * 60 )) ;;
    --list) printf '%s\n' "${all[@]}"; exit 0 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) [[ " ${all[*]} " == *" $1 "* ]] || { echo "run.sh: unknown target $1 (--list)" >&2; exit 2; }
       targets+=("$1") ;;
  esac
  shift
done
(( ${#targets[@]} > 0 )) || targets=("${all[@]}")
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: the time must be a positive whole number" >&2; exit 2; }

out=$root/build/fuzz
cmake -S "$root/tools/fuzz" -B "$out" -G Ninja -DCMAKE_CXX_COMPILER=clang++ > /dev/null
build_targets=()
for t in "${targets[@]}"; do build_targets+=(--target "${t}_fuzzer"); done
cmake --build "$out" -j "${ASSAY_JOBS:-$(nproc)}" "${build_targets[@]}"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=()
for t in "${targets[@]}"; do
  seeds=$root/tools/fuzz/corpus/$t
  if (( brief )); then
    corpus=$(mktemp -d)  # CI: start from the seeds alone, keep nothing
  else
    corpus=$out/corpus/$t
    mkdir -p "$corpus"
  fi
  mkdir -p "$out/artifacts/$t"
  log=$out/$t.log
  start=$(date +%s)
  rc=0
  "$out/${t}_fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -artifact_prefix="$out/artifacts/$t/" -print_final_stats=1 "$corpus" "$seeds" > "$log" 2>&1 \
    || rc=$?
  elapsed=$(( $(date +%s) - start ))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
  (( brief )) && rm -rf "$corpus"
  if (( rc != 0 )); then
    failed+=("$t")
    echo "fuzz: $t FINDING (exit $rc) after ${elapsed}s; log $log; input:" >&2
    ls "$out/artifacts/$t" >&2 || true
    grep -m 20 -E 'ERROR|runtime error|terminate|SUMMARY|Deadly|uncaught|abort' "$log" >&2 || true
  else
    echo "fuzz: $t ok: ${elapsed}s, ${runs:-?} executions, ${rate:-?}/s, ${cov:-cov: ?}" >&2
  fi
done
if (( ${#failed[@]} > 0 )); then
  echo "fuzz: findings in ${failed[*]}" >&2
  exit 1
fi
