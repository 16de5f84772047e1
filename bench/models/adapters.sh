#!/usr/bin/env bash
# bench/models/adapters.sh BUILD_DIR [TEXTS] [REPEATS]: what the advice of docs/models.md for
# adapter authors is worth. `assay model predict` asks TEXTS (default 2,000) distinct texts of
# the word-list model of examples/models, served
#   - as a cmd: child that answers in batches and flushes once per batch (cmd_model.py), one
#     that answers and flushes one request at a time (naive_adapters.py cmd-per-line), and one
#     that never flushes (cmd-no-flush: its last answers stay in Python's buffer, so the run
#     fails after --timeout 5);
#   - over HTTP with Nagle's algorithm off (http_model.py) and on (naive_adapters.py
#     http-nagle), each with batches of 64 texts per request ({texts}) and with one text per
#     request ({text}) at concurrency 4.
# Prints the median wall time of REPEATS (default 5) runs of each and its ratio to the fastest.
# Needs python3 (standard library only).
set -euo pipefail
build="$(cd "${1:?usage: bench/models/adapters.sh BUILD_DIR [TEXTS] [REPEATS]}" && pwd)"
n="${2:-2000}"
repeats="${3:-5}"
here="$(cd "$(dirname "$0")" && pwd)"
examples="$here/../../examples/models"
assay="$build/apps/assay/assay"
python="${PYTHON:-/usr/bin/python3}"
# As a user's shell has it: Python buffers a pipe unless told otherwise.
unset PYTHONUNBUFFERED
tmp="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
for ((i = 0; i < n; i++)); do
  echo "review $i: the actor was wonderful but the plot was a dull mess"
done > "$tmp/texts.txt"
# start_server ARGS...: starts the server, waits for its "port N" line, sets $port.
start_server() {
  local log="$tmp/server-${#pids[@]}.out"
  "$@" > "$log" &
  pids+=($!)
  for _ in $(seq 300); do
    grep -q '^port ' "$log" 2>/dev/null && break
    sleep 0.1
  done
  port=$(sed -n 's/^port //p' "$log")
  [ -n "$port" ] || { echo "server $* did not start" >&2; exit 1; }
}
# measure NAME MODEL ARGS...: median seconds of $repeats runs of model predict.
declare -A median
measure() {
  local name=$1 model=$2
  shift 2
  local times=()
  for ((r = 0; r < repeats; r++)); do
    local t0 t1
    t0=$(date +%s%N)
    "$assay" model predict --quiet --model "$model" --input "$tmp/texts.txt" --out "$tmp/out.jsonl" \
      "$@"
    t1=$(date +%s%N)
    [ "$(wc -l < "$tmp/out.jsonl")" -eq "$n" ] || { echo "$name: wrong answer count" >&2; exit 1; }
    times+=("$(( (t1 - t0) / 1000 ))")
  done
  median[$name]=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (repeats + 1) / 2 ))p")
  printf '%-44s %9.1f ms   (runs: %s µs)\n' "$name" "$(echo "${median[$name]} / 1000" | bc -l)" \
    "${times[*]}"
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $n texts, median of $repeats"
measure "cmd: batched, one flush per batch" "cmd:$python $examples/cmd_model.py"
measure "cmd: one request at a time, flush each" "cmd:$python $here/naive_adapters.py cmd-per-line"
t0=$(date +%s%N)
status=0
"$assay" model predict --quiet --model "cmd:$python $here/naive_adapters.py cmd-no-flush" \
  --timeout 5 --restarts 0 --input "$tmp/texts.txt" --out "$tmp/out.jsonl" 2> "$tmp/err" || status=$?
t1=$(date +%s%N)
printf '%-44s exit %d after %.1f s: %s\n' "cmd: never flushes" "$status" \
  "$(echo "($t1 - $t0) / 1000000000" | bc -l)" "$(head -c 160 "$tmp/err")"
http=(--labels neg,pos --scores-pointer /scores)
batched=(--body-template '{"texts": {texts}}' --batch 64)
single=(--body-template '{"text": {text}}' --concurrency 4)
start_server "$python" "$examples/http_model.py" --port 0
measure "http: batches of 64, Nagle off" "http://127.0.0.1:$port/predict" "${http[@]}" "${batched[@]}"
measure "http: one text per request, Nagle off" "http://127.0.0.1:$port/predict" "${http[@]}" \
  "${single[@]}"
start_server "$python" "$here/naive_adapters.py" http-nagle 0
measure "http: batches of 64, Nagle on" "http://127.0.0.1:$port/predict" "${http[@]}" "${batched[@]}"
measure "http: one text per request, Nagle on" "http://127.0.0.1:$port/predict" "${http[@]}" \
  "${single[@]}"
echo "ratios to the batched form of the same adapter:"
for name in "cmd: one request at a time, flush each"; do
  printf '  %-44s %6.1fx\n' "$name" \
    "$(echo "${median[$name]} / ${median["cmd: batched, one flush per batch"]}" | bc -l)"
done
for name in "http: one text per request, Nagle off" "http: batches of 64, Nagle on" \
  "http: one text per request, Nagle on"; do
  printf '  %-44s %6.1fx\n' "$name" \
    "$(echo "${median[$name]} / ${median["http: batches of 64, Nagle off"]}" | bc -l)"
done
