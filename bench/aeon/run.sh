#!/usr/bin/env bash
# bench/aeon/run.sh BUILD_DIR: offline AEON (`assay aeon score` without a checkpoint) in pairs/s
# at SNLI length (~22 words a side: rt-polarity sentences of 20-28 words) and Yelp length
# (~110 words: IMDb reviews cut to 110 words), each pair = a real text and a two-mutation
# variant of it. Before (the reference normaliser: every candidate looked up through
# sphinxbase) and after (back-off normaliser on the lock-free SphinxTrie), one and two threads,
# interleaved in one run. Inputs are made under a temporary directory from ../shared/data.
set -euo pipefail
build="${1:?usage: bench/aeon/run.sh BUILD_DIR [REPEATS]}"
repeats="${2:-3}"
here="$(cd "$(dirname "$0")" && pwd)"
data="$here/../../../shared/data"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat "$data/rt-polarity-v1.0/rt-polarity.pos" "$data/rt-polarity-v1.0/rt-polarity.neg" > "$tmp/rt.txt"
/usr/bin/python3 "$here/make_pairs.py" "$tmp/rt.txt" rt 24 400 > "$tmp/snli.jsonl"
/usr/bin/python3 "$here/make_pairs.py" "$data/imdb-sample/imdb_seeds.txt" imdb 110 100 > "$tmp/yelp.jsonl"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/bench/aeon/aeon_bench" "$tmp/snli.jsonl" --repeats "$repeats" --before-pairs 8
"$build/bench/aeon/aeon_bench" "$tmp/yelp.jsonl" --repeats "$repeats" --before-pairs 2
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
