#!/usr/bin/env bash
# bench/recsys/run.sh BUILD_DIR [DATA_SPEC]: one core, train + top-10 for every user per
# algorithm (median of 5 runs, wall and CPU seconds), the plain FunkSVD floor and our ratio to
# it, then the peak memory of one run per algorithm (/usr/bin/time -v, else getrusage in the
# bench itself is not available: the line says so).
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [DATA_SPEC]}
here=$(cd "$(dirname "$0")" && pwd)
spec=${2:-movielens-100k:$here/../../../shared/data/movielens-100k}
bin="$build/bench/recsys/recsys_bench"
if [[ ! -x $bin ]]; then echo "missing $bin (build the release tree first)" >&2; exit 2; fi
if [[ $spec == movielens-100k:* && ! -f ${spec#movielens-100k:}/u.data ]]; then
  echo "no ML-100K at ${spec#movielens-100k:}; using the synthetic generator" >&2
  spec=synthetic
fi
taskset -c 0 "$bin" "$spec" --repeats 5 2>/dev/null || "$bin" "$spec" --repeats 5
echo "peak memory (one run each):"
for a in user-user item-item funk-svd hybrid plain-funk-svd; do
  if [[ -x /usr/bin/time ]]; then
    kb=$(/usr/bin/time -f "%M" "$bin" "$spec" --repeats 1 --only "$a" 2>&1 >/dev/null | tail -1)
    echo "  $a: $((kb / 1024)) MiB max RSS (incl. data)"
  else
    echo "  $a: /usr/bin/time not installed"
  fi
done
if [[ $spec == movielens-100k:* ]]; then
  echo "accuracy (official folds u1..u5 rebuilt from u.data, and ua):"
  "$build/bench/recsys/recsys_accuracy" "${spec#movielens-100k:}"
fi
