#!/usr/bin/env bash
# bench/scale/nlp_throughput.sh BUILD_DIR [INPUTS] [PAIRS] [REPEATS]: what one rank of a
# sharded `fair test` and `aeon score` gets through with the offline defaults, measured as
# one rank runs it (one thread, its own store), and what the merge of the stores costs.
#   fair test:  the first INPUTS (default 2000) rt-polarity sentences (alternately positive
#               and negative), then the first INPUTS sentences of SST-2's train split; gender
#               attribute and WordNet graph (the defaults), against the built-in LR trained on
#               SST-2's train split; --cache in a fresh file, --threads 1. The start-up (one
#               input) is timed apart, so the rate is that of the inputs alone.
#   aeon score: PAIRS (default 400) pairs made from rt-polarity sentences of 20-28 words
#               (bench/aeon/make_pairs.py), CMU trigram SynEval and WordNet SemEval (the
#               offline defaults), --store in a fresh file, --threads 1.
# Each is run REPEATS times (default 3); the median wall time is printed with the rates, then
# the time of the run that merges three shards' stores of the same inputs. Inputs are made
# under a temporary directory from ../shared/data.
set -euo pipefail
build="${1:?usage: bench/scale/nlp_throughput.sh BUILD_DIR [INPUTS] [PAIRS] [REPEATS]}"
inputs="${2:-2000}"
pairs="${3:-400}"
repeats="${4:-3}"
here="$(cd "$(dirname "$0")" && pwd)"
data="$here/../../../shared/data"
assay="$(cd "$build" && pwd)/apps/assay/assay"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
paste -d'\n' "$data/rt-polarity-v1.0/rt-polarity.pos" "$data/rt-polarity-v1.0/rt-polarity.neg" \
  > "$tmp/rt_alternate.txt"
head -n "$inputs" "$tmp/rt_alternate.txt" > "$tmp/rt.txt"
cat "$data/rt-polarity-v1.0/rt-polarity.pos" "$data/rt-polarity-v1.0/rt-polarity.neg" > "$tmp/rt_all.txt"
/usr/bin/python3 "$here/../aeon/make_pairs.py" "$tmp/rt_all.txt" rt 24 "$pairs" > "$tmp/pairs.jsonl"
"$assay" model train-lr --quiet --train "$data/sst2-glue/train.tsv" --text-column sentence \
  --label-column label --out "$tmp/sst2.lr"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"

# median of the wall times (seconds) in "$@"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# seconds a command takes (its output discarded; exit 1 is a finding, not a failure)
seconds() {
  local t0 t1 rc
  t0=$(date +%s.%N)
  set +e; "$@" > /dev/null 2> "$tmp/err"; rc=$?; set -e
  t1=$(date +%s.%N)
  if [ "$rc" -gt 1 ]; then cat "$tmp/err" >&2; exit "$rc"; fi
  echo "$t1 - $t0" | bc -l
}

fair_test() {  # fair_test NAME FILE
  local name="$1" file="$2" n t t0 asked
  local fair=("$assay" fair test --model "lr:$tmp/sst2.lr" --threads 1 --quiet)
  n=$(wc -l < "$file")
  head -n 1 "$file" > "$tmp/one.txt"
  times=()
  for r in $(seq "$repeats"); do
    rm -f "$tmp/c.sqlite"*
    times+=("$(seconds "${fair[@]}" --input "$tmp/one.txt" --cache "$tmp/c.sqlite" --out "$tmp/o1")")
  done
  t0=$(median "${times[@]}")
  times=()
  for r in $(seq "$repeats"); do
    rm -f "$tmp/c.sqlite"*
    times+=("$(seconds "${fair[@]}" --input "$file" --cache "$tmp/c.sqlite" --out "$tmp/out")")
  done
  t=$(median "${times[@]}")
  asked=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['answers_asked'])" "$tmp/out/summary.json")
  echo "fair test, $name: $n inputs, $asked texts asked; start-up $t0 s; median $t s of ${times[*]}:" \
    "$(echo "$n / ($t - $t0)" | bc -l | xargs printf '%.1f') inputs/s," \
    "$(echo "$asked / ($t - $t0)" | bc -l | xargs printf '%.1f') texts asked/s per rank after start-up"
  for i in 0 1 2; do
    rm -f "$tmp/s$i.sqlite"*
    "${fair[@]}" --input "$file" --cache "$tmp/s$i.sqlite" --shard "$i/3" --out "$tmp/x" || true
  done
  rm -f "$tmp/m.sqlite"*
  t=$(seconds "${fair[@]}" --input "$file" --cache "$tmp/m.sqlite" --merge "$tmp/s0.sqlite,$tmp/s1.sqlite,$tmp/s2.sqlite" --out "$tmp/merged")
  cmp "$tmp/out/violations.jsonl" "$tmp/merged/violations.jsonl"
  echo "fair test, $name: merge of 3 shards $t s ($(du -cb "$tmp"/s?.sqlite | tail -1 | cut -f1) bytes of stores); violations.jsonl identical"
}
fair_test rt-polarity "$tmp/rt.txt"
tail -n +2 "$data/sst2-glue/train.tsv" | cut -f1 > "$tmp/sst2_all.txt"
head -n "$inputs" "$tmp/sst2_all.txt" > "$tmp/sst2.txt"
fair_test SST-2 "$tmp/sst2.txt"

aeon=("$assay" aeon score --pairs "$tmp/pairs.jsonl" --threads 1 --quiet)
head -n 1 "$tmp/pairs.jsonl" > "$tmp/pair1.jsonl"
times=()
for r in $(seq "$repeats"); do
  rm -f "$tmp/a.sqlite"*
  times+=("$(seconds "$assay" aeon score --pairs "$tmp/pair1.jsonl" --threads 1 --quiet --store "$tmp/a.sqlite" --out "$tmp/one.jsonl")")
done
t0=$(median "${times[@]}")
times=()
for r in $(seq "$repeats"); do
  rm -f "$tmp/a.sqlite"*
  times+=("$(seconds "${aeon[@]}" --store "$tmp/a.sqlite" --out "$tmp/scores.jsonl")")
done
t=$(median "${times[@]}")
n=$(wc -l < "$tmp/pairs.jsonl")
echo "aeon score: $n pairs; start-up $t0 s; median $t s of ${times[*]}:" \
  "$(echo "$n / ($t - $t0)" | bc -l | xargs printf '%.2f') pairs/s per rank after start-up"
for i in 0 1 2; do
  rm -f "$tmp/as$i.sqlite"*
  "${aeon[@]}" --store "$tmp/as$i.sqlite" --shard "$i/3"
done
rm -f "$tmp/am.sqlite"*
t=$(seconds "${aeon[@]}" --store "$tmp/am.sqlite" --merge "$tmp/as0.sqlite,$tmp/as1.sqlite,$tmp/as2.sqlite" --out "$tmp/merged.jsonl")
cmp "$tmp/scores.jsonl" "$tmp/merged.jsonl"
echo "aeon score: merge of 3 shards $t s; output identical"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
