#!/usr/bin/env bash
# README command 1: install, build, and run the main job on embedded defaults. The job is the
# scripts in scripts/main-job.d/, run in name order; each writes its reports under
# out/main-job/ and prints a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release assay
assay="$PWD/build/release/apps/assay/assay"
mkdir -p out/main-job
for step in scripts/main-job.d/*.sh; do
  bash "$step" "$assay"
done
echo "main job done; reports in out/main-job/"
