#!/usr/bin/env bash
# Installs every Debian package assay needs. Non-interactive and idempotent: when everything is
# already installed it changes nothing and does not touch the network.
#   scripts/setup.sh          what building and running needs (scripts/packages/*.build)
#   scripts/setup.sh --test   also what the tests need (scripts/packages/*.test), including
#                             the live oracles the goldens are re-checked against (the Perl
#                             tagger, NLTK, gensim, sphinx_lm_eval, scipy/scikit-learn)
#   scripts/setup.sh --oracles  also what only benchmarks, tools/goldens/tiny_bert.py and the
#                             fuzzers use (scripts/packages/*.oracle: PyTorch, clang, wrk)
# Each module lists its own packages in scripts/packages/<module>.{build,test,oracle}.
set -euo pipefail
cd "$(dirname "$0")/packages"

lists=(*.build)
case "${1:-}" in
  "") ;;
  --test) lists+=(*.test) ;;
  --oracles) lists+=(*.test *.oracle) ;;
  *) echo "usage: scripts/setup.sh [--test|--oracles]" >&2; exit 2 ;;
esac
mapfile -t packages < <(cat "${lists[@]}" | sed 's/#.*//' | tr -s ' \t' '\n' | grep -v '^$' | sort -u)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if (( ${#missing[@]} == 0 )); then
  echo "setup: all ${#packages[@]} packages already installed" >&2
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
