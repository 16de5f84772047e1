#!/usr/bin/env bash
# README command 1: install, build, and run the main job on embedded defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release
assay=build/release/apps/assay/assay
out=out/main-job
mkdir -p "$out"

echo "== assay aeon eval: the shipped example annotations (tests/data/aeon)"
"$assay" aeon eval --annotations tests/data/aeon/example_annotations.csv \
  --metric SemEval --metric BLEU --target consistency --threshold 3.0

mr=../shared/data/aeon-annotations/annotation_rtmr.csv
if [[ -f "$mr" ]]; then
  echo "== assay aeon eval: AEON's MR annotations (paper Table 5, consistency)"
  "$assay" aeon eval --annotations "$mr" --dataset rtmr --target consistency \
    --metric BLEU --metric Meteor --metric BERTScore --metric SBERT --metric SimCSE \
    --metric SemEval | tee "$out/aeon-mr-consistency.txt"
  echo "== assay aeon eval: AEON's MR annotations (paper Table 6, naturalness)"
  "$assay" aeon eval --annotations "$mr" --dataset rtmr --target fluency \
    --metric BLEU --metric SimCSE --metric SynEval | tee "$out/aeon-mr-fluency.txt"
fi
echo "main job done; reports in $out/"
