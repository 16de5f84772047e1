#!/usr/bin/env bash
# bench/lm/run.sh BUILD_DIR: CMU trigram scoring speed on the 10,662 rt-polarity sentences,
# against Debian's sphinx_lm_eval on the same sentences and model (the peer, same run).
set -euo pipefail
build="${1:?usage: bench/lm/run.sh BUILD_DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
data="$here/../../../shared/data/rt-polarity-v1.0"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat "$data/rt-polarity.pos" "$data/rt-polarity.neg" > "$tmp/plain.txt"
sed 's/^/<s> /; s/$/ <\/s>/' "$tmp/plain.txt" > "$tmp/sphinx.lsn"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/bench/lm/lm_bench" "$tmp/plain.txt" --repeats 5
if command -v sphinx_lm_eval > /dev/null; then
  times=()
  for _ in 1 2 3; do
    start=$(date +%s.%N)
    sphinx_lm_eval -lm /usr/share/pocketsphinx/model/en-us/en-us.lm.bin -lsn "$tmp/sphinx.lsn" \
      > "$tmp/sphinx.out" 2> /dev/null
    end=$(date +%s.%N)
    times+=("$(echo "($end - $start) * 1000" | bc -l)")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -g | sed -n 2p)
  printf 'peer: sphinx_lm_eval on the same sentences (load + score): %.0f ms median of 3\n' "$median"
  grep -E "lm score|words evaluated|OOVs" "$tmp/sphinx.out" | tr '\n' ' '; echo
else
  echo "peer: sphinx_lm_eval not installed (apt-get install sphinxbase-utils)"
fi
