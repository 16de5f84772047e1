#!/usr/bin/env bash
# bench/fairness/serve.sh BUILD_DIR: the neutral-layer proxy (`assay fair serve`).
#  1. Throughput and latency with Debian's wrk against the proxy in front of the built-in LR
#     (lr:, trained on rt-polarity; in-process), in each request form (serve_post.lua: text,
#     Hugging Face JSON, KServe v2, a batch of 6): 1 wrk thread, 4 connections, 10 s, 3 runs;
#     the proxy's resident memory before and after, and its peak.
#  2. The same (text form) in front of the scikit-learn pipeline served over HTTP
#     (tests/data/models/sklearn_server.py --http), which takes batches: the proxy asks it one
#     request per proxy request.
#  3. Overhead over asking the upstream directly (serve_overhead_bench), k = 0…16, with the
#     scikit-learn upstream asked in batches (the default) and one text per request.
# Needs ../shared/data/rt-polarity-v1.0, wrk and /usr/bin/python3 with sklearn.
set -euo pipefail
build="$(cd "${1:?usage: bench/fairness/serve.sh BUILD_DIR}" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
data="$root/../shared/data/rt-polarity-v1.0"
assay="$build/apps/assay/assay"
tmp="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
{
  printf 'text\tlabel\n'
  sed 's/\t/ /g; s/$/\tpos/' "$data/rt-polarity.pos"
  sed 's/\t/ /g; s/$/\tneg/' "$data/rt-polarity.neg"
} > "$tmp/train.tsv"
"$assay" model train-lr --quiet --train "$tmp/train.tsv" --out "$tmp/m.lr"
# start_serve ARGS...: starts `assay fair serve ARGS --listen 127.0.0.1:0`, sets $port.
start_serve() {
  "$assay" fair serve --quiet --listen 127.0.0.1:0 "$@" > "$tmp/serve.out" &
  pids+=($!)
  for _ in $(seq 600); do
    grep -q listening "$tmp/serve.out" 2>/dev/null && break
    sleep 0.1
  done
  port="$(sed -n 's/^listening on http:\/\/127.0.0.1:\([0-9]*\)$/\1/p' "$tmp/serve.out")"
}
rss() { awk '/^VmRSS/ {printf "%.1f MB", $2 / 1024}' "/proc/${pids[-1]}/status"; }
peak() { awk '/^VmHWM/ {printf "%.1f MB", $2 / 1024}' "/proc/${pids[-1]}/status"; }
# load FORM: 3 wrk runs of 10 s against $port in request form FORM.
load() {
  for run in 1 2 3; do
    wrk -t1 -c4 -d10s --latency -s "$here/serve_post.lua" "http://127.0.0.1:$port" -- "$1" \
      > "$tmp/wrk$run"
    rps="$(awk '/Requests\/sec/ {print $2}' "$tmp/wrk$run")"
    p50="$(awk '$1 == "50%" {print $2}' "$tmp/wrk$run")"
    p99="$(awk '$1 == "99%" {print $2}' "$tmp/wrk$run")"
    non2xx="$(awk '/Non-2xx/ {print $5}' "$tmp/wrk$run")"
    echo "$1 run $run: ${rps} requests/s, p50 ${p50}, p99 ${p99}, non-2xx ${non2xx:-0}"
  done
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== 1. wrk against assay fair serve --upstream lr: (epsilon 1, max-k 16)"
start_serve --upstream "lr:$tmp/m.lr" --epsilon 1 --max-k 16
wrk -t1 -c4 -d2s -s "$here/serve_post.lua" "http://127.0.0.1:$port" > /dev/null  # warm-up
echo "resident before: $(rss)"
for form in text hf v2 batch; do load "$form"; done
echo "resident after: $(rss), peak $(peak)"
kill "${pids[-1]}"; wait "${pids[-1]}" || true

/usr/bin/python3 "$root/tests/data/models/sklearn_server.py" --train "$tmp/train.tsv" --http 0 \
  > "$tmp/sk.out" 2> /dev/null &
pids+=($!)
for _ in $(seq 600); do grep -q '^port' "$tmp/sk.out" 2>/dev/null && break; sleep 0.1; done
upstream="http://127.0.0.1:$(awk '{print $2}' "$tmp/sk.out")/predict"
echo "== 2. wrk against assay fair serve in front of scikit-learn over HTTP, batched (max-k 16)"
start_serve --upstream "$upstream" --labels neg,pos --scores-pointer /scores --epsilon 1 --max-k 16
wrk -t1 -c4 -d2s -s "$here/serve_post.lua" "http://127.0.0.1:$port" > /dev/null  # warm-up
echo "resident before: $(rss)"
load text
echo "resident after: $(rss), peak $(peak)"
echo "== 3. overhead over the upstream asked directly, max-k 16: batched upstream"
for run in 1 2 3; do
  echo "run $run (ms)"
  "$build/bench/fairness/serve_overhead_bench" "$port" "$upstream" --requests 100 --max-k 16 \
    --batched
done
kill "${pids[-1]}"; wait "${pids[-1]}" || true
echo "== 3. overhead over the upstream asked directly, max-k 16: one text per request"
start_serve --upstream "$upstream" --labels neg,pos --scores-pointer /scores --epsilon 1 \
  --max-k 16 --body-template '{"text": {text}}'
for run in 1 2 3; do
  echo "run $run (ms)"
  "$build/bench/fairness/serve_overhead_bench" "$port" "$upstream" --requests 100 --max-k 16
done
