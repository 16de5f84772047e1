#!/usr/bin/env bash
# Main job, fairness (MT-NLP) on embedded defaults: gender perturbations of the
# rt-polarity sentences when ../shared/data is present (otherwise of a few shipped sentences),
# and of two for a file attribute (religion: a member noun, group words); then `fair test` and
# the neutral layer's effect (`fair mitigate`) of the built-in AFINN-165 word-list model
# (afinn:, the lexicon scripts/setup.sh fetches) and, with SST-2 present, of the built-in LR
# trained on it, and the HTML report of both (out/main-job/fairness/report.html).
set -euo pipefail
cd "$(dirname "$0")/../.."
assay=${1:-build/release/apps/assay/assay}
out=out/main-job/fairness
mkdir -p "$out"
rt=../shared/data/rt-polarity-v1.0
if [[ -f $rt/rt-polarity.pos ]]; then
  cat "$rt/rt-polarity.pos" "$rt/rt-polarity.neg" > "$out/inputs.txt"
else
  grep -v '^#' tests/data/fairness/expected_perturbations.tsv | cut -f2 > "$out/inputs.txt"
fi
echo "== assay fair perturb (gender, defaults): $(wc -l < "$out/inputs.txt") inputs"
"$assay" fair perturb --input "$out/inputs.txt" --out "$out/gender.jsonl" --no-dropped
head -c 1200 "$out/gender.jsonl"; echo
printf 'The priest thanked the doctor.\nThe Muslim teacher met a Jewish doctor.\n' > "$out/religion.txt"
echo "== assay fair perturb --attribute religion"
"$assay" fair perturb --input "$out/religion.txt" --attribute religion --no-dropped --quiet
runs=()
# fair_run NAME MODEL: fair test and fair mitigate of MODEL on the inputs into $out/NAME (the
# report names each run after its directory; mitigate takes its answers from the cache).
fair_run() {
  local name=$1 model=$2 status=0
  "$assay" fair test --model "$model" --input "$out/inputs.txt" --out "$out/$name" \
    --cache "$out/answers.sqlite" --quiet || status=$?
  [[ $status -le 1 ]] || exit "$status"  # 1: violations found, which is the finding
  head -c 1500 "$out/$name/summary.json"; echo
  echo "== assay fair mitigate: violations left by the neutral layer (answers from the cache)"
  "$assay" fair mitigate --model "$model" --input "$out/inputs.txt" --out "$out/$name" \
    --cache "$out/answers.sqlite" --epsilon 0.1,0.5,1,1.8,5,10 --quiet
  # What the layer leaves at each epsilon (mitigation.csv's first columns).
  awk -F, 'NR > 1 { printf "  epsilon %s: %s of %s violations remain (%.1f %%)\n", $1, $3, $2, $4 }' \
    "$out/$name/mitigation.csv"
  runs+=(--in "$out/$name")
}
if [[ -f data/sentiment/afinn-165/index.js ]]; then
  echo "== assay fair test: the built-in AFINN-165 word-list model (afinn:), on the inputs above"
  fair_run afinn afinn:
else
  echo "== no AFINN-165 lexicon (data/sentiment/afinn-165): scripts/setup.sh fetches it"
fi
sst2=../shared/data/sst2-glue/train.tsv
if [[ -f $sst2 ]]; then
  echo "== assay fair test: the built-in LR trained on SST-2, tested on the inputs above"
  "$assay" model train-lr --train "$sst2" --text-column sentence --out "$out/sst2.lr"
  fair_run lr-sst2 "lr:$out/sst2.lr"
fi
if ((${#runs[@]} > 0)); then
  echo "== assay fair report: $out/report.html"
  "$assay" fair report "${runs[@]}" --out "$out/report.html"
fi
