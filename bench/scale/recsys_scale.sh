#!/usr/bin/env bash
# bench/scale/recsys_scale.sh BUILD_DIR REPEATS SIZE... : how each recommender's cost grows
# with the data. SIZE is a MovieLens shape: 100k (943 users, 1,682 items, 100,000 ratings),
# 300k (2,600 / 2,900 / 300,000: between the two), 1m (6,040 / 3,706 / 1,000,209), 10m
# (69,878 / 10,677 / 10,000,054), 25m (162,541 / 59,047 / 25,000,095), or
# USERS/ITEMS/RATINGS; the ratings come from the synthetic generator with those counts.
# For each size and each of user-user, item-item, funk-svd and hybrid (defaults; ALGORITHMS
# in the environment overrides the list): one process of bench/recsys/recsys_bench runs train
# + top-10 for every user on one thread REPEATS times and prints the median wall and CPU
# seconds; /usr/bin/time gives the process's peak resident memory (data included).
# TIMEOUT (seconds, default 900) bounds each process's wall time. Prints one TSV line per
# (size, algorithm): size users items ratings algorithm wall_s cpu_s max_rss_mb; a process
# stopped by TIMEOUT gets 'over Ns' and, for CPU and memory, 'over X': the CPU seconds and
# the peak memory it had used by then (data generation included). Then the fitted log-log
# exponent of CPU time (and memory) against ratings per algorithm over the finished runs
# (bench/scale/scale_fit.py; bench/scale/plot_scale.py draws the rows as an SVG).
set -euo pipefail
build="${1:?usage: bench/scale/recsys_scale.sh BUILD_DIR REPEATS SIZE...}"
repeats="${2:?usage: bench/scale/recsys_scale.sh BUILD_DIR REPEATS SIZE...}"
shift 2
if (( $# == 0 )); then
  echo "usage: bench/scale/recsys_scale.sh BUILD_DIR REPEATS SIZE..." >&2
  exit 2
fi
bin="$build/bench/recsys/recsys_bench"
if [[ ! -x $bin ]]; then echo "missing $bin (build the release tree first)" >&2; exit 2; fi
algorithms="${ALGORITHMS:-user-user item-item funk-svd hybrid}"
timeout_s="${TIMEOUT:-900}"
for a in $algorithms; do
  case "$a" in
    user-user | item-item | funk-svd | hybrid | plain-funk-svd) ;;
    *) echo "ALGORITHMS: unknown algorithm '$a' (user-user, item-item, funk-svd, hybrid," \
         "plain-funk-svd)" >&2; exit 2 ;;
  esac
done
if [[ ! $repeats =~ ^[1-9][0-9]*$ ]]; then
  echo "REPEATS: expected a positive integer, not '$repeats'" >&2
  exit 2
fi
if [[ ! $timeout_s =~ ^[1-9][0-9]*$ ]]; then
  echo "TIMEOUT: expected a positive number of seconds, not '$timeout_s'" >&2
  exit 2
fi
shape_of() {  # SIZE -> USERS/ITEMS/RATINGS
  case "$1" in
    100k) echo "943/1682/100000" ;;
    300k) echo "2600/2900/300000" ;;
    1m) echo "6040/3706/1000209" ;;
    10m) echo "69878/10677/10000054" ;;
    25m) echo "162541/59047/25000095" ;;
    *)
      if [[ ! $1 =~ ^[1-9][0-9]*/[1-9][0-9]*/[1-9][0-9]*$ ]]; then
        echo "unknown size '$1' (100k, 300k, 1m, 10m, 25m or USERS/ITEMS/RATINGS)" >&2
        exit 2
      fi
      echo "$1" ;;
  esac
}
for size in "$@"; do
  shape_of "$size" >/dev/null
done
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores" >&2
printf 'size\tusers\titems\tratings\talgorithm\twall_s\tcpu_s\tmax_rss_mb\n'
for size in "$@"; do
  IFS=/ read -r users items ratings <<<"$(shape_of "$size")"
  spec="synthetic:users=$users,items=$items,ratings=$ratings"
  for a in $algorithms; do
    rc=0
    line=$( { /usr/bin/time -f "rss %M cpu %U %S" timeout "$timeout_s" "$bin" "$spec" \
                --repeats "$repeats" --only "$a" 2>&1; } 2>&1) || rc=$?
    if (( rc != 0 && rc != 124 )); then
      echo "$size $a: recsys_bench failed (exit $rc): $(tail -n 2 <<<"$line")" >&2
      continue
    fi
    rss=$(awk '$1 == "rss" {printf "%.0f", $2 / 1024}' <<<"$line")
    if (( rc == 124 )); then
      used=$(awk '$1 == "rss" {printf "%.1f", $4 + $5}' <<<"$line")
      printf '%s\t%s\t%s\t%s\t%s\tover %ss\tover %s\tover %s\n' "$size" "$users" "$items" \
        "$ratings" "$a" "$timeout_s" "$used" "$rss" | tee -a "$out"
      continue
    fi
    read -r wall cpu < <(awk -v a="$a" '$1 == a && NF == 3 {print $2, $3}' <<<"$line")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$users" "$items" "$ratings" "$a" "$wall" \
      "$cpu" "$rss" | tee -a "$out"
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
if [[ -s $out ]]; then /usr/bin/python3 "$(dirname "$0")/scale_fit.py" "$out"; fi
