#!/usr/bin/env bash
# Tagging throughput on one core: assay's tokeniser + tagger (bench/text/text_tag_bench.cc)
# side by side with the Perl Lingua::EN::Tagger on the same text (all 10,662 lines of
# rt-polarity), medians of repeats, and the ratio. Usage: bench/text/run.sh BUILD_DIR
# (a Release build). REPEATS (default 7) and PERL_REPEATS (default 3) set the repeats.
set -euo pipefail
build=${1:?usage: bench/text/run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
data=${ASSAY_SHARED_DATA_DIR:-$here/../../../shared/data}/rt-polarity-v1.0
files=("$data/rt-polarity.pos" "$data/rt-polarity.neg")
repeats=${REPEATS:-7}
perl_repeats=${PERL_REPEATS:-3}
pin=()
if command -v taskset > /dev/null; then pin=(taskset -c 0); fi

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

ours=$("${pin[@]}" "$build/bench/text/text_tag_bench" "${files[@]}" --repeats "$repeats")
echo "$ours" | sed 's/^/  assay: /'
ours_med=$(echo "$ours" | awk '/^repeat/ {print $8}' | median)
viterbi=$("${pin[@]}" "$build/bench/text/text_tag_bench" "${files[@]}" --repeats "$repeats" --decoder viterbi)
viterbi_med=$(echo "$viterbi" | awk '/^repeat/ {print $8}' | median)

perl_runs=()
for ((i = 0; i < perl_repeats; i++)); do
  line=$("${pin[@]}" perl "$here/perl_reference.pl" "${files[@]}")
  echo "  perl:  $line"
  perl_runs+=("$(echo "$line" | awk '{print $6}')")
done
perl_med=$(printf '%s\n' "${perl_runs[@]}" | median)

echo "text tagging, one core, rt-polarity (10,662 lines), tokens/s (median):"
printf '  assay (lingua decoder)   %10.0f\n' "$ours_med"
printf '  assay (viterbi decoder)  %10.0f\n' "$viterbi_med"
printf '  perl Lingua::EN::Tagger  %10.0f\n' "$perl_med"
awk -v a="$ours_med" -v p="$perl_med" 'BEGIN {printf "  ratio assay / perl       %10.1fx\n", a / p}'
awk -v a="$ours_med" 'BEGIN {exit !(a >= 200000)}' && echo "  target >= 200,000 tokens/s: met" ||
  echo "  target >= 200,000 tokens/s: NOT met"

# Optional (AGREEMENT=1, about three minutes of Perl): tag agreement on all 10,662 lines.
if [[ "${AGREEMENT:-0}" == 1 ]]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  "$build/bench/text/text_tag_bench" "${files[@]}" --repeats 0 --dump "$tmp/ours" > /dev/null
  for f in "${files[@]}"; do
    PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 perl "$here/../../tools/goldens/text_tagger.pl" "$f" 1000000
  done > "$tmp/perl"
  paste -d '\t' "$tmp/ours" "$tmp/perl" | awk -F '\t' '
    { n1 = split($1, a, " "); n2 = split($2, b, " "); m = n1 > n2 ? n1 : n2; total += m
      if (n1 != n2) { bad++; next } for (i = 1; i <= n1; i++) agree += (a[i] == b[i]) }
    END { printf "  agreement with perl on all lines: %d / %d tokens = %.4f%%, %d lines tokenised differently\n",
          agree, total, 100 * agree / total, bad }'
fi
