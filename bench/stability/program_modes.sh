#!/usr/bin/env bash
# Runs per second of a campaign against the user's own program, per mode, beside the built-in
# path, on MovieLens 100K (docs/stability.md, "Your own recommender"). $1 = build directory.
# Every configuration runs the same short campaign (RRAND, n = 10, TRIALS trials, no noise
# retraining, one thread) REPEATS times into a fresh store; the figure is trainings per second:
# (TRIALS runs + 1 baseline training) / the median wall time of the whole command (loading
# MovieLens and writing the report included).
#   sklearn-once        cmd:/usr/bin/python3 examples/recsys/sklearn_svd.py
#   sklearn-persistent  cmd+persistent:/usr/bin/python3 examples/recsys/sklearn_svd.py
#   copy-once           cmd:sh -c 'cp LISTS "$5"' (a program that does no work: the protocol's
#                       own cost per training: writing the training files, starting the
#                       program, reading and checking 943 lists)
#   sklearn-object      the same recommender as a Python object in one process
#                       (SvdRecommender of that file, through assay.rec.campaign: the module
#                       built into BUILD_DIR/python/site), the same campaign
#   funk-svd, item-item the built-in recommenders, for scale
# CONFIGS="a b ..." runs only those configurations (default: all, in the order above).
# Removals only (RRAND), so the precomputed lists of copy-once stay valid on every modified set.
set -euo pipefail
build=${1:?usage: program_modes.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
ml=${ML100K:-$repo/../shared/data/movielens-100k}
[[ -f $ml/u.data ]] || { echo "MovieLens 100K not found at $ml (set ML100K)" >&2; exit 2; }
data=movielens-100k:$ml
trials=${TRIALS:-10}
repeats=${REPEATS:-3}
assay=$build/apps/assay/assay
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$assay" rec recommend --data "$data" --algorithm "cmd:sh $repo/examples/recsys/popular.sh" \
  --quiet --out "$work/lists.jsonl"
py=/usr/bin/python3
declare -A specs=(
  [sklearn-once]="cmd:$py $repo/examples/recsys/sklearn_svd.py"
  [sklearn-persistent]="cmd+persistent:$py $repo/examples/recsys/sklearn_svd.py"
  [copy-once]="cmd:sh -c 'cp $work/lists.jsonl \"\$5\"' copy"
  [funk-svd]="funk-svd"
  [item-item]="item-item"
)
# The campaign above, from Python, with the recommender object.
object_campaign() {
  PYTHONPATH="$build/python/site:$repo/examples/recsys" "$py" -c "
import sys, assay
from sklearn_svd import SvdRecommender
assay.rec.campaign(sys.argv[1], [SvdRecommender()], heuristics=['RRAND'], sizes=[10],
                   trials=int(sys.argv[2]), noise_trials=0, threads=1, store=sys.argv[3],
                   out=sys.argv[4])" "$data" "$trials" "$work/store.sqlite" "$work/out"
}
configs=${CONFIGS:-copy-once sklearn-once sklearn-persistent sklearn-object funk-svd item-item}
printf '%-20s %8s %10s %12s\n' configuration trainings "median s" trainings/s
for name in $configs; do
  times=()
  for ((r = 0; r < repeats; r++)); do
    rm -rf "$work/store.sqlite"* "$work/out"
    start=$(date +%s.%N)
    if [[ $name == sklearn-object ]]; then
      object_campaign
    else
      "$assay" rec campaign --data "$data" --algorithm "${specs[$name]}" --heuristics RRAND \
        --sizes 10 --trials "$trials" --noise-trials 0 --threads 1 --quiet \
        --store "$work/store.sqlite" --out "$work/out" >/dev/null
    fi
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc -l)")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  n=$((trials + 1))
  printf '%-20s %8d %10.2f %12.2f\n' "$name" "$n" "$median" "$(echo "$n / $median" | bc -l)"
done
