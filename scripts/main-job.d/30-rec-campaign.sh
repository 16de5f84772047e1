#!/usr/bin/env bash
# Main job, recommender stability: a short AAAI-19 campaign (every heuristic, n = 1, 10, 100,
# 10 trials per cell) on the embedded synthetic generator, with 12 obscure items rated only 5
# stars planted at the end of its long tail as real data has them; about two minutes on 2 cores.
# Writes the report (summary.json, findings.md, figure2.svg, tables 3 and 4, report.html, mods/)
# to out/main-job/rec-campaign/ and prints the findings (the cells that beat their random
# baseline at p < 0.05 after Holm's correction) and Table 4.
# Usage: scripts/main-job.d/30-rec-campaign.sh [ASSAY_BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
assay=${1:-build/release/apps/assay/assay}
out=out/main-job/rec-campaign
data=synthetic:users=300,items=500,ratings=20000,seed=1,top_only=12
mkdir -p "$out"
algorithms=user-user,item-item,funk-svd
# The LightFM-style hybrid joins when this build has it.
if "$assay" rec fuzz --data synthetic:users=20,items=30,ratings=200 --algorithm hybrid \
     --heuristic ARAND --size 1 --trials 1 >/dev/null 2>&1; then
  algorithms+=,hybrid
fi
# A fresh store each time: the main job shows a whole campaign, not a resumed one.
rm -f "$out/campaign.sqlite" "$out/campaign.sqlite-wal" "$out/campaign.sqlite-shm"
echo "== assay rec campaign: $algorithms on $data"
"$assay" rec campaign --data "$data" --algorithms "$algorithms" --trials 10 --seed 1 \
  --threads "$(nproc)" --noise-trials 2 --delta 0.2 \
  --store "$out/campaign.sqlite" --out "$out"
cat "$out/findings.md"
echo
cat "$out/table4.md"
