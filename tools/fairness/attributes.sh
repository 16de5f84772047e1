#!/bin/bash
# Every sensitive attribute on real text: trains assay's built-in LR on SST-2 (or reuses it) and
# runs `assay fair test` (defaults) for gender and each shipped attribute file on rt-polarity
# and SST-2's dev sentences, with one answer cache, so a rerun asks the model nothing. Prints
# one table row per attribute and input (docs/fairness-reproduction.md, "Every attribute").
#
#   bash tools/fairness/attributes.sh build/release/apps/assay/assay /tmp/fair-attributes
#
# Run from the repository root; ../shared/data must hold rt-polarity-v1.0 and sst2-glue. The
# model, cache and outputs go to WORK (never into the repository).
set -euo pipefail
assay=$(realpath "${1:?usage: attributes.sh ASSAY WORK}")
work=${2:?usage: attributes.sh ASSAY WORK}
data=../shared/data
mkdir -p "$work"

[ -f "$work/sst2.lr" ] || "$assay" model train-lr --train $data/sst2-glue/train.tsv \
  --text-column sentence --out "$work/sst2.lr"
[ -f "$work/rt.txt" ] || cat $data/rt-polarity-v1.0/rt-polarity.pos \
  $data/rt-polarity-v1.0/rt-polarity.neg > "$work/rt.txt"
# SST-2's dev sentences without the header and the label.
[ -f "$work/sst2-dev.txt" ] || tail -n +2 $data/sst2-glue/dev.tsv | cut -f1 > "$work/sst2-dev.txt"

attributes=(gender race religion nationality age sexual-orientation)
for attribute in "${attributes[@]}"; do
  for input in rt sst2-dev; do
    status=0
    nice -n 10 "$assay" fair test --model "lr:$work/sst2.lr" --input "$work/$input.txt" \
      --attribute "$attribute" --out "$work/$attribute-$input" --cache "$work/lr.sqlite" \
      --quiet || status=$?
    # exit 1 means violations were found; anything else is a failure
    [ $status -le 1 ] || { echo "fair test failed ($attribute, $input): exit $status" >&2; exit $status; }
  done
done
/usr/bin/python3 - "$work" "${attributes[@]}" <<'PY'
import json, sys
work, attributes = sys.argv[1], sys.argv[2:]
print("| attribute | input | inputs | mutable | perturbations (group / analogy / active / name) "
      "| violations | share of perturbations | inputs with a violation |")
print("|---|---|---|---|---|---|---|---|")
for attribute in attributes:
    for data in ("rt", "sst2-dev"):
        s = json.load(open("%s/%s-%s/summary.json" % (work, attribute, data)))
        n, v = s["perturbations"], s["violations"]
        kinds = s.get("perturbations_by_kind", {})
        by_kind = " / ".join(str(kinds.get(k, 0)) for k in ("group", "analogy", "active", "name"))
        print("| %s | %s | %s | %s | %s (%s) | %s | %.1f %% | %s |" % (
            attribute, data, s["inputs"], s["mutable"], n, by_kind, v,
            100.0 * v / n if n else 0.0, s["inputs_with_violations"]))
PY
