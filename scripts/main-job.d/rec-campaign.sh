#!/usr/bin/env bash
# Main job, recommender stability: a short AAAI-19 campaign (every heuristic, n = 1, 10, 100,
# 8 trials per cell) on the embedded synthetic generator; about a minute on 2 cores. Writes the
# report (summary.json, figure2.svg, tables 3 and 4, report.html, mods/) to
# out/main-job/rec-campaign/. Usage: scripts/main-job.d/rec-campaign.sh [ASSAY_BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
assay=${1:-build/release/apps/assay/assay}
out=out/main-job/rec-campaign
data=synthetic:users=300,items=500,ratings=20000,seed=1
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
"$assay" rec campaign --data "$data" --algorithms "$algorithms" --trials 8 --seed 1 \
  --threads "$(nproc)" --noise-trials 2 --delta 0.2 \
  --store "$out/campaign.sqlite" --out "$out"
cat "$out/table4.md"
