#!/bin/bash
# Violations per model, as the MT-NLP paper's Table 1: trains the three SST-2 models (assay's
# built-in LR, the scikit-learn TF-IDF LR and the PyTorch CNN of tools/fairness) into WORK and
# runs `assay fair test` (gender, defaults) for each on rt-polarity and the IMDB sample, with
# one answer cache per model, so a rerun asks no model anything. Prints one table row per run.
#
#   bash tools/fairness/table1.sh build/release/apps/assay/assay /tmp/fair-table1
#
# Run from the repository root; ../shared/data must hold rt-polarity-v1.0, imdb-sample and
# sst2-glue. Models, caches and outputs go to WORK (never into the repository).
set -euo pipefail
assay=$(realpath "${1:?usage: table1.sh ASSAY WORK}")
work=${2:?usage: table1.sh ASSAY WORK}
data=../shared/data
py=/usr/bin/python3
mkdir -p "$work"

[ -f "$work/sst2.lr" ] || "$assay" model train-lr --train $data/sst2-glue/train.tsv \
  --text-column sentence --out "$work/sst2.lr"
[ -f "$work/sst2.sklearn" ] || nice -n 10 $py tools/fairness/sst2_sklearn.py train \
  --train $data/sst2-glue/train.tsv --dev $data/sst2-glue/dev.tsv --out "$work/sst2.sklearn"
[ -f "$work/sst2.cnn" ] || nice -n 10 $py tools/fairness/sst2_cnn.py train \
  --train $data/sst2-glue/train.tsv --dev $data/sst2-glue/dev.tsv --out "$work/sst2.cnn"
[ -f "$work/rt.txt" ] || cat $data/rt-polarity-v1.0/rt-polarity.pos \
  $data/rt-polarity-v1.0/rt-polarity.neg > "$work/rt.txt"

declare -A spec=(
  [lr]="lr:$work/sst2.lr"
  [sklearn]="cmd:$py tools/fairness/sst2_sklearn.py serve $work/sst2.sklearn"
  [cnn]="cmd:$py tools/fairness/sst2_cnn.py serve $work/sst2.cnn"
)
for model in lr sklearn cnn; do
  for input in rt imdb; do
    if [ $input = rt ]; then args=(--input "$work/rt.txt")
    else args=(--input $data/imdb-sample/imdb_seeds.txt --input-format tsv-no-header); fi
    status=0
    nice -n 10 "$assay" fair test --model "${spec[$model]}" "${args[@]}" \
      --out "$work/$model-$input" --cache "$work/$model.sqlite" --quiet || status=$?
    # exit 1 means violations were found; anything else is a failure
    [ $status -le 1 ] || { echo "fair test failed ($model, $input): exit $status" >&2; exit $status; }
  done
done
$py - "$work" <<'PY'
import json, sys
work = sys.argv[1]
print("| model | input | inputs | mutable | perturbations | violations (analogy / active) "
      "| share of perturbations | inputs with a violation |")
print("|---|---|---|---|---|---|---|---|")
for model in ("lr", "sklearn", "cnn"):
    for data in ("rt", "imdb"):
        s = json.load(open("%s/%s-%s/summary.json" % (work, model, data)))
        v, k, n = s["violations"], s["violations_by_kind"], s["perturbations"]
        print("| %s | %s | %s | %s | %s | %s (%s / %s) | %.1f %% | %s (%.1f %% of mutable) |" % (
            model, data, s["inputs"], s["mutable"], n, v, k.get("analogy", 0),
            k.get("active", 0), 100.0 * v / n, s["inputs_with_violations"],
            100.0 * s["inputs_with_violations"] / s["mutable"]))
PY
