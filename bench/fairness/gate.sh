#!/usr/bin/env bash
# bench/fairness/gate.sh BUILD_DIR: what `assay fair perturb --gate aeon` costs against
# perturbation alone, on rt1k (the first 1,000 positive rt-polarity sentences) and on all of
# rt-polarity (10,662 sentences); docs/fairness.md, "The AEON gate".
set -euo pipefail
build="${1:?usage: bench/fairness/gate.sh BUILD_DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
data="$here/../../../shared/data"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat "$data/rt-polarity-v1.0/rt-polarity.pos" "$data/rt-polarity-v1.0/rt-polarity.neg" > "$tmp/rt.txt"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# `assay fair perturb` without the gate, with it (separable SynEval normaliser, the default) and
# with --gate-exact, on rt1k (the first 1,000 positive sentences) and on all of rt-polarity.
# CPU seconds (user + sys, steadier than wall time on a loaded machine), one thread, runs paired
# (no gate, gate, exact gate, repeated 3 times), medians of 3; the ratios are gate / no gate.
head -1000 "$data/rt-polarity-v1.0/rt-polarity.pos" > "$tmp/rt1k.txt"
cpu() {  # cpu FILE ARGS...: the user + sys CPU seconds of one run
  local file="$1"
  shift
  /usr/bin/time -f "%U %S" -o "$tmp/time" "$build/apps/assay/assay" fair perturb --input "$file" \
    --out "$tmp/p.jsonl" --quiet --no-dropped --threads 1 "$@"
  awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/time"
}
median3() { sort -n | sed -n 2p; }
for input in rt1k rt; do
  : > "$tmp/none"; : > "$tmp/gate"; : > "$tmp/exact"
  for i in 1 2 3; do
    cpu "$tmp/$input.txt" >> "$tmp/none"
    cpu "$tmp/$input.txt" --gate aeon --gate-action flag >> "$tmp/gate"
    cpu "$tmp/$input.txt" --gate aeon --gate-action flag --gate-exact >> "$tmp/exact"
  done
  none=$(median3 < "$tmp/none"); gate=$(median3 < "$tmp/gate"); exact=$(median3 < "$tmp/exact")
  echo "== AEON gate on $input: CPU s (user+sys), median of 3: no gate $none, gate $gate" \
    "($(awk -v a="$gate" -v b="$none" 'BEGIN { printf "%.2f", a / b }')x)," \
    "--gate-exact $exact ($(awk -v a="$exact" -v b="$none" 'BEGIN { printf "%.2f", a / b }')x)"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
