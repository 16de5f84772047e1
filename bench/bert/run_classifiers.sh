#!/usr/bin/env bash
# bench/bert/run_classifiers.sh BUILD_DIR [REPS] [THREADS]: the `bert:` classifier on
# DistilBERT-base and RoBERTa-base shaped folders (random weights, made by
# hf_classifier_torch.py in a scratch directory) beside the same forward pass in PyTorch CPU,
# same threads, same 64 texts in batches of 32, in the same run; PyTorch takes its batches both
# in input order (as HF's pipeline) and in order of length (as assay). Prints the JSON lines,
# then the medians and the torch ÷ assay ratios.
set -euo pipefail
build=${1:?usage: run_classifiers.sh BUILD_DIR [REPS] [THREADS]}
reps=${2:-5}
threads=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
torch_json=$(/usr/bin/python3 "$here/hf_classifier_torch.py" "$tmp" "$threads" "$reps" 32)
distil_json=$("$build/bench/bert/hf_classifier_bench" "$tmp/distilbert" "$tmp/texts.txt" \
  --threads "$threads" --reps "$reps" --batch 32)
roberta_json=$("$build/bench/bert/hf_classifier_bench" "$tmp/roberta" "$tmp/texts.txt" \
  --threads "$threads" --reps "$reps" --batch 32)
echo "$torch_json"
echo "$distil_json"
echo "$roberta_json"
/usr/bin/python3 - "$torch_json" "$distil_json" "$roberta_json" <<'PY'
import json, sys
t, d, r = (json.loads(a) for a in sys.argv[1:])
print(f"{'median ms, 64 texts':20s} {'assay':>9s} {'torch':>9s} {'torch/assay':>11s} "
      f"{'torch sorted':>12s} {'sorted/assay':>12s}")
for name, a in (("distilbert", d), ("roberta", r)):
    ms, sm = t[name + "_ms"], t[name + "_sorted_ms"]
    print(f"{name:20s} {a['predict_ms']:9.1f} {ms:9.1f} {ms / a['predict_ms']:11.2f} "
          f"{sm:12.1f} {sm / a['predict_ms']:12.2f}")
PY
