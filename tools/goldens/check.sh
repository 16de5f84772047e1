#!/usr/bin/env bash
# Re-runs the golden scripts whose oracles are Debian packages installed by
# `scripts/setup.sh --test` (Perl Lingua::EN::Tagger, NLTK's WordNet reader, gensim,
# sphinx_lm_eval, scipy/scikit-learn) in a scratch copy of the repository and fails if any
# committed golden under tests/data differs (numbers within 1e-6 absolute or relative, words
# and ranks exactly; see compare_goldens.py): the C++ checks then agree with the live oracles,
# not only with files written once. tiny_bert.py, models_bert_classifier.py and
# models_hf_encoders.py (PyTorch, not installed for tests) are left out.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
# Several goldens are made from ../shared/data; without it the check is skipped (exit 77, which
# CTest counts and names as skipped), like every other test whose data is absent.
if [[ ! -d "$repo/../shared/data/word-vectors" ]]; then
  echo "skipped: $repo/../shared/data is absent"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/repo"
cp -r "$repo/tools" "$repo/tests" "$tmp/repo/"
ln -s "$(cd "$repo/../shared" && pwd)" "$tmp/shared"
cd "$tmp/repo"
status=0
run() {
  local name=$1
  shift
  if ! "$@" > "$tmp/$name.log" 2>&1; then
    echo "golden script failed: $name"; cat "$tmp/$name.log"; status=1
  fi
}
run core_stats sh -c '/usr/bin/python3 tools/goldens/core_stats.py > tests/data/core/stats_goldens.json'
run lm_sphinx_eval sh -c '/usr/bin/python3 tools/goldens/lm_sphinx_eval.py > tests/data/lm/sphinx_lm_eval_goldens.json'
run knowledge_wordnet_nltk /usr/bin/python3 tools/goldens/knowledge_wordnet_nltk.py
run text_tagger bash tools/goldens/text_tagger.sh
run text_lemmas /usr/bin/python3 tools/goldens/text_lemmas.py
run vectors_gensim /usr/bin/python3 tools/goldens/vectors_gensim.py
run models_lr_sklearn sh -c '/usr/bin/python3 tools/goldens/models_lr_sklearn.py > tests/data/models/lr_rt_polarity_golden.json'
if ! /usr/bin/python3 "$repo/tools/goldens/compare_goldens.py" "$repo/tests/data" tests/data \
    > "$tmp/diff.txt"; then
  echo "committed goldens differ from what the oracles produce now:"; head -40 "$tmp/diff.txt"
  status=1
fi
if (( status == 0 )); then echo "goldens: every committed golden matches its oracle"; fi
exit $status
