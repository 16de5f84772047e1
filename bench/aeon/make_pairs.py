#!/usr/bin/python3
"""Test-case pairs from real text for bench/aeon: original = a real sentence or review cut to
N words, generated = the same with two mutations a word-level generator makes (one word
replaced by the word at the same position in the next text, two neighbouring words swapped).
  make_pairs.py SOURCE {rt|imdb} WORDS COUNT > pairs.jsonl"""
import json, re, sys

src, kind, n_words, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
texts = []
with open(src, encoding="utf-8", errors="replace") as f:
    for line in f:
        if kind == "imdb":
            line = re.sub(r"<br\s*/?>", " ", line.split("\t")[0])
        words = line.split()
        if kind == "rt" and not (n_words - 4 <= len(words) <= n_words + 4):
            continue
        if len(words) < n_words - 4:
            continue
        texts.append(words[:n_words])
for i in range(min(count, len(texts) - 1)):
    ori, donor = texts[i], texts[i + 1]
    gen = list(ori)
    k = len(gen) // 2
    gen[k] = donor[min(k, len(donor) - 1)]
    j = len(gen) // 4
    gen[j], gen[j + 1] = gen[j + 1], gen[j]
    print(json.dumps({"original": " ".join(ori), "generated": " ".join(gen)}))
