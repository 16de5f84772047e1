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
# TIMEOUT (seconds, default 900) bounds each process. Prints one TSV line per (size,
# algorithm): size users items ratings algorithm wall_s cpu_s max_rss_mb, then the fitted
# log-log exponent of CPU time (and memory) against ratings per algorithm.
set -euo pipefail
build="${1:?usage: bench/scale/recsys_scale.sh BUILD_DIR REPEATS SIZE...}"
repeats="${2:?usage: bench/scale/recsys_scale.sh BUILD_DIR REPEATS SIZE...}"
shift 2
bin="$build/bench/recsys/recsys_bench"
if [[ ! -x $bin ]]; then echo "missing $bin (build the release tree first)" >&2; exit 2; fi
algorithms="${ALGORITHMS:-user-user item-item funk-svd hybrid}"
timeout_s="${TIMEOUT:-900}"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores" >&2
printf 'size\tusers\titems\tratings\talgorithm\twall_s\tcpu_s\tmax_rss_mb\n'
for size in "$@"; do
  case "$size" in
    100k) shape="943/1682/100000" ;;
    300k) shape="2600/2900/300000" ;;
    1m) shape="6040/3706/1000209" ;;
    10m) shape="69878/10677/10000054" ;;
    25m) shape="162541/59047/25000095" ;;
    */*/*) shape="$size" ;;
    *) echo "unknown size '$size' (100k, 300k, 1m, 10m, 25m or USERS/ITEMS/RATINGS)" >&2; exit 2 ;;
  esac
  IFS=/ read -r users items ratings <<<"$shape"
  spec="synthetic:users=$users,items=$items,ratings=$ratings"
  for a in $algorithms; do
    if ! line=$( { timeout "$timeout_s" /usr/bin/time -f "rss %M" "$bin" "$spec" \
                     --repeats "$repeats" --only "$a" 2>&1; } 2>&1); then
      printf '%s\t%s\t%s\t%s\t%s\tover %ss\t-\t-\n' "$size" "$users" "$items" "$ratings" "$a" \
        "$timeout_s" | tee -a "$out"
      continue
    fi
    read -r wall cpu < <(awk -v a="$a" '$1 == a && NF == 3 {print $2, $3}' <<<"$line")
    rss=$(awk '$1 == "rss" {printf "%.0f", $2 / 1024}' <<<"$line")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$users" "$items" "$ratings" "$a" "$wall" \
      "$cpu" "$rss" | tee -a "$out"
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
/usr/bin/python3 - "$out" <<'PY'
import math, sys
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
by = {}
for size, users, items, ratings, a, wall, cpu, rss in rows:
    if cpu in ('-', ''):
        continue
    by.setdefault(a, []).append((float(ratings), float(cpu), float(rss)))
def slope(points):
    xs = [math.log(x) for x, _ in points]; ys = [math.log(y) for _, y in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else float('nan')
for a, pts in by.items():
    if len(pts) < 2:
        continue
    print(f"{a}: CPU time ~ ratings^{slope([(r, c) for r, c, _ in pts]):.2f}, "
          f"peak memory ~ ratings^{slope([(r, m) for r, _, m in pts]):.2f} "
          f"({len(pts)} sizes)")
PY
