#!/usr/bin/env bash
# Knowledge-graph benchmarks. $1: the release build dir. Prints medians of repeated runs.
set -euo pipefail
build="${1:?usage: run.sh BUILD_DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bench="$build/bench/knowledge/knowledge_bench"
shared="$repo/../shared/data"
labels="$repo/tests/data/knowledge/person_labels.tsv"
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "== WordNet load (target <= 1.5 s), 5 runs"
for i in 1 2 3 4 5; do "$bench" wordnet-load | awk '{print $2}'; done | median | sed 's/^/median wordnet_load_s /'

echo "== is_person: sense choice x hop limit on the shared word lists"
"$bench" person-eval "$shared" "$labels"

echo "== gendered counterparts"
"$bench" counterpart-eval "$shared" "$labels"

echo "== ConceptNet: synthetic 2,000,000-edge dump (seeded), build from .csv.gz, cache reload (target <= 1 s)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$bench" conceptnet-generate "$tmp/synthetic.csv.gz" 2000000
"$bench" conceptnet-build "$tmp/synthetic.csv.gz" "$tmp/synthetic.cache"
ls -l "$tmp/synthetic.cache" | awk '{print "cache_bytes", $5}'
for i in 1 2 3 4 5; do "$bench" conceptnet-reload "$tmp/synthetic.cache" | awk '{print $2}'; done | median |
  sed 's/^/median conceptnet_reload_s /'
