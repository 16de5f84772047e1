#!/bin/sh
# A most-popular recommender for `assay rec` in POSIX shell tools (docs/stability.md): every
# user gets the k items with the most ratings that the user has not rated, ties by item id.
# Deterministic (SEED is unused), so its noise floor is zero.
#   --algorithm "cmd:sh examples/recsys/popular.sh"
# assay appends TRAIN_TSV USERS_FILE K SEED OUTPUT; the lists are written as TSV
# (user<TAB>item lines, best first).
set -eu
if [ $# -ne 5 ]; then
  echo "usage: popular.sh TRAIN_TSV USERS_FILE K SEED OUTPUT" >&2
  exit 2
fi
train=$1 users=$2 k=$3 out=$5
tab=$(printf '\t')
ranked="$out.ranked"
awk -F'\t' '{ n[$2]++ } END { for (i in n) print i "\t" n[i] }' "$train" |
  LC_ALL=C sort -t "$tab" -k2,2nr -k1,1 >"$ranked"
awk -F'\t' -v k="$k" '
  FILENAME == ARGV[1] { order[++m] = $1; next }
  FILENAME == ARGV[2] { rated[$1 SUBSEP $2] = 1; next }
  {
    c = 0
    for (j = 1; j <= m && c < k; j++) {
      if (!(($1 SUBSEP order[j]) in rated)) { print $1 "\t" order[j]; c++ }
    }
  }' "$ranked" "$train" "$users" >"$out"
rm -f "$ranked"
