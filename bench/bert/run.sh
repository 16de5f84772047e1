#!/usr/bin/env bash
# bench/bert/run.sh BUILD_DIR [REPS]: the BERT-base encoder in assay (OpenBLAS) beside the bare
# sgemm calls of the same shapes and beside the same equations in PyTorch CPU, 2 threads each,
# in the same run. Prints both JSON lines, then the medians and ratios.
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [REPS]}
reps=${2:-9}
here=$(cd "$(dirname "$0")" && pwd)
assay_json=$("$build/bench/bert/bert_bench" --threads 2 --reps "$reps")
torch_json=$(/usr/bin/python3 "$here/bert_torch.py" 2 "$reps")
echo "$assay_json"
echo "$torch_json"
/usr/bin/python3 - "$assay_json" "$torch_json" <<'PY'
import json, sys
a, t = json.loads(sys.argv[1]), json.loads(sys.argv[2])
rows = [("128-token sequence", "encode128_ms", 170), ("32-token sequence", "encode32_ms", 40),
        ("SynEval, 30-token sentence (30 masked copies)", "syneval30_ms", 1200)]
print(f"{'median ms (2 threads)':48s} {'assay':>9s} {'torch':>9s} {'torch/assay':>11s} {'target':>7s}")
for label, key, target in rows:
    print(f"{label:48s} {a[key]:9.1f} {t[key]:9.1f} {t[key] / a[key]:11.2f} {target:7d}")
for n in ("128", "32"):
    print(f"encode{n} / bare sgemm of the same shapes: {a['encode' + n + '_ms'] / a['sgemm' + n + '_ms']:.3f}"
          f"  (sgemm {a['sgemm' + n + '_gflops']:.0f} GFLOP/s)")
PY
