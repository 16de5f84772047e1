#!/usr/bin/env bash
# Stability benchmarks. $1 = release build directory.
#  1. Modification-set generation: a set of 100 for every heuristic on MovieLens 100K
#     (median of 21 seeds; target <= 10 ms; the paper reports 0.46-3.75 s).
#  2. The default campaign (the paper's study) on MovieLens 100K with wall time and peak memory
#     (targets <= 60 min on 2 cores, <= 1 GiB). STABILITY_TRIALS (default 100) reduces the
#     trials per cell, STABILITY_THREADS (default nproc) the threads, STABILITY_ALGORITHMS the
#     algorithms; STABILITY_SKIP_CAMPAIGN=1 skips it.
set -euo pipefail
build=${1:?usage: run.sh RELEASE_BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
ml=${ML100K:-$repo/../shared/data/movielens-100k}
data=movielens-100k:$ml
if [[ ! -f $ml/u.data ]]; then
  echo "MovieLens 100K not found at $ml (set ML100K); using the synthetic generator"
  data=synthetic
fi
echo "== modification sets of 100 (influence from funk-svd)"
"$build/bench/stability/stability_set_bench" "$data" funk-svd 100 21

[[ ${STABILITY_SKIP_CAMPAIGN:-0} == 1 ]] && exit 0
trials=${STABILITY_TRIALS:-100}
threads=${STABILITY_THREADS:-$(nproc)}
algorithms=${STABILITY_ALGORITHMS:-user-user,item-item,funk-svd,hybrid}
out=${STABILITY_OUT:-$repo/out/bench/stability-campaign-t$trials}
mkdir -p "$out"
echo "== campaign on $data: $algorithms, all heuristics, n = 1,10,100, $trials trials, $threads threads"
/usr/bin/time -f "campaign wall %e s, peak RSS %M KB" \
  "$build/apps/assay/assay" rec campaign --data "$data" --algorithms "$algorithms" \
  --trials "$trials" --threads "$threads" --seed 2019 \
  --store "$out/campaign.sqlite" --out "$out"
echo "(a rerun resumes from $out/campaign.sqlite; delete it to time a fresh campaign)"
