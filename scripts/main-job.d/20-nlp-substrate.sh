#!/usr/bin/env bash
# Main job, NLP substrate on the embedded Debian resources: tag and lemmatise sentences (the
# Lingua::EN::Tagger tables, WordNet), look person nouns and their gendered counterparts up in
# WordNet, and score fluency with the CMU English trigram.
set -euo pipefail
cd "$(dirname "$0")/../.."
assay=${1:-build/release/apps/assay/assay}
out=out/main-job/nlp
mkdir -p "$out"
cat > "$out/sentences.txt" <<'TEXT'
The actress thanked her brother after the show.
My uncle is a waiter in a small restaurant.
TEXT
echo "== assay text tag (Lingua::EN::Tagger tables, WordNet lemmas)"
"$assay" text tag --input "$out/sentences.txt" --format text
echo "== assay kg query: person nouns and gendered counterparts (WordNet 3.0)"
"$assay" kg query --word actress --word waiter --word uncle --word queen \
  --relation person --relation counterpart > "$out/counterparts.jsonl"
cat "$out/counterparts.jsonl"
echo "== assay lm score: fluency under the CMU English trigram"
printf 'the actor thanked his brother after the show\nthe show after brother his thanked actor the\n' \
  > "$out/fluency.txt"
"$assay" lm score --input "$out/fluency.txt" --out "$out/fluency.jsonl"
cat "$out/fluency.jsonl"
