#!/usr/bin/env bash
# bench/fairness/long_text.sh BUILD_DIR [REPEATS]: what one long text costs `fair perturb`.
# Each shape below (a phrase repeated into one line; "imdb": the IMDB sample's reviews joined)
# is written at 60 KB and at 240 KB and perturbed for gender and race with the defaults (at
# most 256 perturbations per text); the table gives the median wall time and peak memory of
# REPEATS runs (default 3) and the ratio of the two sizes' times. A cost linear in the text
# gives a ratio near 4 less the start-up (about 0.2 s: loading the resources); a quadratic
# one near 16.
set -euo pipefail
build="${1:?usage: bench/fairness/long_text.sh BUILD_DIR [REPEATS]}"
repeats="${2:-3}"
here="$(cd "$(dirname "$0")" && pwd)"
data="$here/../../../shared/data"
assay="$build/apps/assay/assay"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$tmp" "$data/imdb-sample/imdb_seeds.txt" <<'EOF'
import sys
out, imdb = sys.argv[1], sys.argv[2]
shapes = {
    "nouns": "actor actress king queen waiter waitress. ",
    "john": "John said he saw Mary and she smiled. ",
    "actor": "the actor ",
    "and": "the actor and the actress and ",
    "commas": "the actor, the actress, ",
    "caps": "The Actor Met The Waitress And The King ",
}
try:
    with open(imdb, encoding="utf-8") as f:
        shapes["imdb"] = " ".join(line.split("\t")[0] for line in f)
except OSError:
    pass
for name, unit in shapes.items():
    for kb in (60, 240):
        text = (unit * (kb * 1024 // len(unit) + 1))[: kb * 1024].rsplit(" ", 1)[0]
        with open(f"{out}/{name}_{kb}.txt", "w", encoding="utf-8") as f:
            f.write(text + "\n")
EOF
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-7s %12s %12s %8s %14s\n' shape attr "60 KB (s)" "240 KB (s)" ratio "240 KB peak MB"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for f in "$tmp"/*_60.txt; do
  shape=$(basename "$f" _60.txt)
  for attr in gender race; do
    declare -A t=() m=()
    for kb in 60 240; do
      runs=()
      mems=()
      for ((r = 0; r < repeats; ++r)); do
        out=$({ /usr/bin/time -f '%e %M' "$assay" fair perturb --attribute "$attr" --quiet \
                  --no-dropped --input "$tmp/${shape}_$kb.txt" > /dev/null; } 2>&1 | tail -1)
        runs+=("${out% *}")
        mems+=("${out#* }")
      done
      t[$kb]=$(printf '%s\n' "${runs[@]}" | median)
      m[$kb]=$(printf '%s\n' "${mems[@]}" | median)
    done
    printf '%-8s %-7s %12s %12s %8.1f %14d\n' "$shape" "$attr" "${t[60]}" "${t[240]}" \
      "$(awk -v a="${t[240]}" -v b="${t[60]}" 'BEGIN {print a / b}')" $((m[240] / 1024))
  done
done
