#!/usr/bin/env bash
# Main job, test-case quality: AEON's agreement tables. The shipped example always; the paper's
# MR annotations (Tables 5 and 6) when ../shared/data is present.
set -euo pipefail
cd "$(dirname "$0")/../.."
assay=${1:-build/release/apps/assay/assay}
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
    --metric SemEval --out "$out/aeon-mr-consistency.txt"
  cat "$out/aeon-mr-consistency.txt"
  echo "== assay aeon eval: AEON's MR annotations (paper Table 6, naturalness)"
  "$assay" aeon eval --annotations "$mr" --dataset rtmr --target fluency \
    --metric BLEU --metric SimCSE --metric SynEval --out "$out/aeon-mr-fluency.txt"
  cat "$out/aeon-mr-fluency.txt"
fi
