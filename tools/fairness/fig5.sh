#!/bin/bash
# The neutral layer per model, as the MT-NLP paper's Fig. 5: after tools/fairness/table1.sh has
# trained the three SST-2 models into WORK and filled their answer caches, runs `assay fair
# mitigate` for each model on rt-polarity and the IMDB sample (asking the models only the
# classes' neighbourhoods), plus the adversarial-training comparison ("LR Base": the built-in LR retrained on SST-2 and
# its perturbations) on the built-in LR. Prints the violations remaining per epsilon: Theorem 1
# within each input's own set (the paper's measure), the deployed layer, the reference code's
# weighting.
#
#   bash tools/fairness/table1.sh build/release/apps/assay/assay /tmp/fair-table1
#   bash tools/fairness/fig5.sh build/release/apps/assay/assay /tmp/fair-table1
#
# Run from the repository root; outputs go to WORK/<model>-<input>-fm (never into the repository).
set -euo pipefail
assay=$(realpath "${1:?usage: fig5.sh ASSAY WORK}")
work=${2:?usage: fig5.sh ASSAY WORK}
data=../shared/data
py=/usr/bin/python3
for f in sst2.lr sst2.sklearn sst2.cnn rt.txt; do
  [ -f "$work/$f" ] || { echo "fig5.sh: $work/$f missing: run tools/fairness/table1.sh first" >&2; exit 2; }
done

declare -A spec=(
  [lr]="lr:$work/sst2.lr"
  [sklearn]="cmd:$py tools/fairness/sst2_sklearn.py serve $work/sst2.sklearn"
  [cnn]="cmd:$py tools/fairness/sst2_cnn.py serve $work/sst2.cnn"
)
for model in lr sklearn cnn; do
  for input in rt imdb; do
    if [ $input = rt ]; then args=(--input "$work/rt.txt")
    else args=(--input $data/imdb-sample/imdb_seeds.txt --input-format tsv-no-header); fi
    if [ $model = lr ]; then
      args+=(--adversarial-train $data/sst2-glue/train.tsv --adversarial-text-column sentence
             --adversarial-model-out "$work/sst2-adversarial.lr")
    fi
    nice -n 10 "$assay" fair mitigate --model "${spec[$model]}" "${args[@]}" \
      --out "$work/$model-$input-fm" --cache "$work/$model.sqlite" --quiet
  done
done
$py - "$work" <<'PY'
import json, sys
work = sys.argv[1]
rows = {}
for model in ("lr", "sklearn", "cnn"):
    for data in ("rt", "imdb"):
        rows[model, data] = json.load(open("%s/%s-%s-fm/mitigation.json" % (work, model, data)))
eps = [r["epsilon"] for r in rows["lr", "rt"]["epsilons"]]
print("| model | input | violations | " + " | ".join("ε = %g" % e for e in eps) + " | LR Base | asked |")
print("|---|---|---|" + "---|" * len(eps) + "---|---|")
for (model, data), m in rows.items():
    # The paper's Fig. 5: Theorem 1 within each input's own set (mitigation.json's input_set).
    cells = ["%d (%.1f %%)" % (r["input_set"]["violations"], r["input_set"]["remaining_percent"] or 0)
             for r in m["epsilons"]]
    adv = m.get("adversarial_training")
    base = "%d (%.1f %%)" % (adv["violations"], adv["remaining_percent"]) if adv else "—"
    print("| %s | %s | %d | %s | %s | %d |" % (model, data, m["violations_before"], " | ".join(cells), base,
                                              m["cost"].get("answers_asked", -1)))
print()
print("deployed layer (classes; what an audit of fair serve finds):")
for (model, data), m in rows.items():
    print("| %s | %s | %s |" % (model, data, " | ".join(
        "%d (%.1f %%)" % (r["violations"], r["remaining_percent"] or 0) for r in m["epsilons"])))
print()
print("reference weighting (certifies ln(1 + e^ε)):")
for (model, data), m in rows.items():
    print("| %s | %s | %s |" % (model, data, " | ".join(
        "%d (%.1f %%)" % (r["reference"]["violations"], r["reference"]["remaining_percent"] or 0)
        for r in m["epsilons"])))
for (model, data), m in rows.items():
    adv = m.get("adversarial_training")
    if adv:
        print("LR Base %s: %s" % (data, json.dumps(adv)))
PY
