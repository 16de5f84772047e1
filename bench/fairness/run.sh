#!/usr/bin/env bash
# bench/fairness/run.sh BUILD_DIR: perturbator speed, start-up and peak memory on rt-polarity
# (10,662 sentences) and the IMDB sample (400 reviews), gender, defaults; and the statistics
# docs/fairness-reproduction.md reports.
set -euo pipefail
build="${1:?usage: bench/fairness/run.sh BUILD_DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
data="$here/../../../shared/data"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat "$data/rt-polarity-v1.0/rt-polarity.pos" "$data/rt-polarity-v1.0/rt-polarity.neg" > "$tmp/rt.txt"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== rt-polarity (gender, defaults)"
"$build/bench/fairness/fairness_bench" "$tmp/rt.txt" --repeats 3
echo "== IMDB sample (gender, defaults)"
"$build/bench/fairness/fairness_bench" "$data/imdb-sample/imdb_seeds.txt" --input-format tsv --repeats 3
# The AEON gate's cost against perturbation alone (docs/fairness.md, "The AEON gate"): the
# first 1,000 positive sentences, `assay fair perturb` without the gate, with it (separable
# SynEval normaliser, the default) and with --gate-exact; median wall and user CPU of 3 runs.
head -1000 "$data/rt-polarity-v1.0/rt-polarity.pos" > "$tmp/rt1k.txt"
echo "== AEON gate on rt1k (1,000 sentences): median of 3, wall s / user CPU s"
for gate in "" "--gate aeon --gate-action flag" "--gate aeon --gate-action flag --gate-exact"; do
  for i in 1 2 3; do
    /usr/bin/time -f "%e %U" "$build/apps/assay/assay" fair perturb --input "$tmp/rt1k.txt" \
      --out "$tmp/p.jsonl" --quiet --no-dropped $gate 2>&1 | tail -1
  done | sort -n | sed -n 2p | sed "s|^|${gate:-no gate}: |"
done
bash "$here/serve.sh" "$build"
