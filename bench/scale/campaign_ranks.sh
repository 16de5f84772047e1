#!/usr/bin/env bash
# bench/scale/campaign_ranks.sh BUILD_DIR [REPEATS] [RANKS...]: the speed-up of a fixed
# `rec campaign` spread over ranks by Open MPI's mpirun on this machine. The campaign: ML-100K
# (../shared/data, else the synthetic generator's ML-100K shape), user-user and item-item,
# heuristics AMU and ARAND, set size 10, 8 trials, 1 noise retraining, one thread per rank:
# 32 runs, 2 noise retrainings and 2 baselines. For each rank count (default 1 2 4; more ranks
# than cores run oversubscribed) the ranks run their shards (--shard auto) and one more process
# merges the stores and writes the report; printed: the median over REPEATS (default 3) of the
# ranks' wall time, the merge's, and the total, the speed-up against one rank, and the check
# that the merged cells equal the single-rank campaign's.
set -euo pipefail
build="${1:?usage: bench/scale/campaign_ranks.sh BUILD_DIR [REPEATS] [RANKS...]}"
repeats="${2:-3}"
shift $(( $# >= 2 ? 2 : 1 ))
ranks_list="${*:-1 2 4}"
here="$(cd "$(dirname "$0")" && pwd)"
assay="$(cd "$build" && pwd)/apps/assay/assay"
data_dir="$here/../../../shared/data/movielens-100k"
data="movielens-100k:$data_dir"
[[ -f $data_dir/u.data ]] || data="synthetic"
command -v mpirun >/dev/null || { echo "mpirun not installed" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
args="rec campaign --data $data --algorithms user-user,item-item --heuristics AMU,ARAND \
--sizes 10 --trials 8 --seed 1 --noise-trials 1 --threads 1 --quiet"
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "data: $data; load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
printf 'ranks\tranks_s\tmerge_s\ttotal_s\tspeed-up\tcells equal\n'
base=""
for n in $ranks_list; do
  : > "$tmp/ranks.t"; : > "$tmp/merge.t"; : > "$tmp/total.t"
  for ((r = 0; r < repeats; ++r)); do
    run="$tmp/n$n-r$r"
    mkdir -p "$run"
    t0=$(now)
    mpirun --allow-run-as-root --oversubscribe -np "$n" sh -c "$assay $args --shard auto \
--store $run/shard-\$OMPI_COMM_WORLD_RANK.sqlite --out $run/part-\$OMPI_COMM_WORLD_RANK" \
      >"$run/mpirun.log" 2>&1
    t1=$(now)
    stores=$(ls "$run"/shard-*.sqlite | paste -sd, -)
    "$assay" $args --store "$run/all.sqlite" --out "$run/report" --merge "$stores" >/dev/null
    t2=$(now)
    echo "$t1 - $t0" | bc -l >> "$tmp/ranks.t"
    echo "$t2 - $t1" | bc -l >> "$tmp/merge.t"
    echo "$t2 - $t0" | bc -l >> "$tmp/total.t"
    /usr/bin/python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["cells"], sort_keys=True))' \
      "$run/report/summary.json" > "$run/cells.json"
  done
  [[ -z $base ]] && { base=$(median < "$tmp/total.t"); cp "$tmp/n$n-r0/cells.json" "$tmp/ref.json"; }
  total=$(median < "$tmp/total.t")
  same=yes
  for ((r = 0; r < repeats; ++r)); do cmp -s "$tmp/ref.json" "$tmp/n$n-r$r/cells.json" || same=no; done
  printf '%s\t%.2f\t%.2f\t%.2f\t%.2f\t%s\n' "$n" "$(median < "$tmp/ranks.t")" \
    "$(median < "$tmp/merge.t")" "$total" "$(echo "$base / $total" | bc -l)" "$same"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
