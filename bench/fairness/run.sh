#!/usr/bin/env bash
# bench/fairness/run.sh BUILD_DIR: perturbator speed, start-up and peak memory on rt-polarity
# (10,662 sentences) and the IMDB sample (400 reviews), gender, defaults and the paper's
# noun-only method; the cost of one long text (long_text.sh); and the statistics
# docs/fairness-reproduction.md reports; `fair serve`'s throughput (serve.sh), its certificate
# audited end to end (certificate.sh) and its behaviour under hostile load (serve_hostile.py).
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
"$build/bench/fairness/fairness_bench" "$data/imdb-sample/imdb_seeds.txt" --input-format tsv-no-header --repeats 3
echo "== rt-polarity and the IMDB sample, the paper's method (the noun alone changed)"
"$build/bench/fairness/fairness_bench" "$tmp/rt.txt" --noun-only 1
"$build/bench/fairness/fairness_bench" "$data/imdb-sample/imdb_seeds.txt" --input-format tsv-no-header \
  --noun-only 1
echo "== one long text (60 KB and 240 KB)"
bash "$here/long_text.sh" "$build"
bash "$here/gate.sh" "$build"
bash "$here/serve.sh" "$build"
bash "$here/certificate.sh" "$build"
/usr/bin/python3 "$here/serve_hostile.py" "$build"
