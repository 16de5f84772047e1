#!/usr/bin/env bash
# bench/fairness/vectors.sh BUILD_DIR [WORDS] [DIM]: `assay fair perturb` on rt-polarity (10,662
# sentences, gender, defaults) with AnalogyMutate on a WORDS-word (default 300,000), DIM-dimensional
# (default 300) word2vec binary file that bench/fairness/make_vectors.py generates, seeded, into a
# temporary directory (real GloVe vectors for 11,925 words, WordNet and CMU words with derived
# vectors for the rest; never committed). Three runs each of the whole file and of its first line
# (the load: tagger, WordNet, trigram and the vectors); prints per run wall, user and system CPU
# seconds and peak RSS, then the medians and the sentences per second of the perturbation alone
# (whole minus load), by wall time and by CPU time. One thread.
set -euo pipefail
build="${1:?usage: bench/fairness/vectors.sh BUILD_DIR [WORDS] [DIM]}"
words="${2:-300000}"
dim="${3:-300}"
here="$(cd "$(dirname "$0")" && pwd)"
data="$here/../../../shared/data"
assay="$build/apps/assay/assay"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat "$data/rt-polarity-v1.0/rt-polarity.pos" "$data/rt-polarity-v1.0/rt-polarity.neg" > "$tmp/rt.txt"
head -1 "$tmp/rt.txt" > "$tmp/one.txt"
# VECTORS=FILE: time an existing file (e.g. one make_vectors.py wrote before) instead.
if [[ -n "${VECTORS:-}" ]]; then
  ln -s "$(realpath "$VECTORS")" "$tmp/vectors.bin"
else
  /usr/bin/python3 "$here/make_vectors.py" "$tmp/vectors.bin" --words "$words" --dim "$dim" \
    --data "$data"
fi
echo "vector file: $(stat -L -c %s "$tmp/vectors.bin") bytes, $(head -1 "$tmp/vectors.bin" | tr -d '\n') (words dim)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
run() {  # INPUT -> "wall user sys maxrss_kib"
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$assay" fair perturb --input "$1" \
    --vectors "$tmp/vectors.bin" --vectors-format word2vec-bin --quiet \
    --no-dropped --threads 1 --out "$tmp/out.jsonl"
  cat "$tmp/time"
}
for what in one rt; do
  for i in 1 2 3; do run "$tmp/$what.txt"; done > "$tmp/$what.times"
  sed "s/^/$what: wall user sys maxrss_KiB = /" "$tmp/$what.times"
done
echo "analogy perturbations: $(grep -o '"kind":"analogy"' "$tmp/out.jsonl" | wc -l)," \
  "active: $(grep -o '"kind":"active"' "$tmp/out.jsonl" | wc -l)"
/usr/bin/python3 - "$tmp" "$(wc -l < "$tmp/rt.txt")" <<'PY'
import statistics, sys
tmp, n = sys.argv[1], int(sys.argv[2])
def rows(name):
    return [list(map(float, l.split())) for l in open(f"{tmp}/{name}.times")]
one, rt = rows("one"), rows("rt")
med = lambda rs, f: statistics.median(f(r) for r in rs)
wall1, wall = med(one, lambda r: r[0]), med(rt, lambda r: r[0])
cpu1, cpu = med(one, lambda r: r[1] + r[2]), med(rt, lambda r: r[1] + r[2])
rss = max(r[3] for r in rt) / 1024
print(f"load (first line alone), median of 3: {wall1:.2f} s wall, {cpu1:.2f} s CPU (user+sys)")
print(f"rt-polarity, median of 3: {wall:.2f} s wall, {cpu:.2f} s CPU; peak RSS {rss:.0f} MiB")
print(f"perturbation alone: {wall - wall1:.2f} s wall = {n / (wall - wall1):.0f} sentences/s, "
      f"{cpu - cpu1:.2f} s CPU = {n / (cpu - cpu1):.0f} sentences/s per CPU second")
PY
