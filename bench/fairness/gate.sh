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
# CPU seconds (user + sys, steadier than wall time on a loaded machine), one thread. The runs
# without and with the gate alternate, 9 pairs (REPS), and the ratio is taken pair by pair (its
# median and range: this machine's speed drifts between runs more than within a pair);
# --gate-exact is timed 3 times. Medians throughout.
reps="${REPS:-9}"
head -1000 "$data/rt-polarity-v1.0/rt-polarity.pos" > "$tmp/rt1k.txt"
cpu() {  # cpu FILE ARGS...: the user + sys CPU seconds of one run
  local file="$1"
  shift
  /usr/bin/time -f "%U %S" -o "$tmp/time" "$build/apps/assay/assay" fair perturb --input "$file" \
    --out "$tmp/p.jsonl" --quiet --no-dropped --threads 1 "$@"
  awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/time"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
for input in rt1k rt; do
  : > "$tmp/none"; : > "$tmp/gate"; : > "$tmp/ratio"; : > "$tmp/exact"
  for ((i = 0; i < reps; i++)); do
    a=$(cpu "$tmp/$input.txt")
    b=$(cpu "$tmp/$input.txt" --gate aeon --gate-action flag)
    echo "$a" >> "$tmp/none"; echo "$b" >> "$tmp/gate"
    awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f\n", b / a }' >> "$tmp/ratio"
  done
  for i in 1 2 3; do cpu "$tmp/$input.txt" --gate aeon --gate-action flag --gate-exact >> "$tmp/exact"; done
  none=$(median < "$tmp/none"); gate=$(median < "$tmp/gate"); exact=$(median < "$tmp/exact")
  echo "== AEON gate on $input: CPU s (user+sys), medians: no gate $none, gate $gate;" \
    "gate / no gate pair by pair: median $(median < "$tmp/ratio")x" \
    "(range $(sort -g "$tmp/ratio" | head -1)-$(sort -g "$tmp/ratio" | tail -1), $reps pairs);" \
    "--gate-exact $exact ($(awk -v a="$exact" -v b="$none" 'BEGIN { printf "%.2f", a / b }')x)"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
