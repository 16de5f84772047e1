#!/usr/bin/python3
"""Regenerates tests/data/lm/sphinx_lm_eval_goldens.json: sentence scores from Debian's
sphinx_lm_eval (package sphinxbase-utils) on the CMU English trigram of pocketsphinx-en-us.

    /usr/bin/python3 tools/goldens/lm_sphinx_eval.py > tests/data/lm/sphinx_lm_eval_goldens.json

Two parts:
  "sentences": every line of tests/data/lm/sentences.txt, scored alone as "<s> line </s>"
     (-text): the lm score (integer log base 1.0001), words evaluated, OOVs and the per-token
     scores in text order.
  "corpora": the first N lines of ../shared/data/rt-polarity-v1.0/rt-polarity.{pos,neg}, each
     written "<s> line </s>" into one -lsn file: totals plus every per-token score in the order
     sphinx_lm_eval prints them (sentence by sentence, last token first). Only line counts and
     numbers are stored, not the text (the data stays in ../shared/data).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

MODEL = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SENTENCES = os.path.join(ROOT, "tests", "data", "lm", "sentences.txt")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "data")
CORPORA = [("rt-polarity-v1.0/rt-polarity.pos", 300), ("rt-polarity-v1.0/rt-polarity.neg", 300)]

TOKEN = re.compile(r"^log P\((.*?)\|.*\) = (-?\d+)$")


def run(args):
    out = subprocess.run(["sphinx_lm_eval", "-lm", MODEL, "-verbose", "yes"] + args,
                         check=True, capture_output=True, text=True).stdout
    tokens, result = [], {}
    for line in out.splitlines():
        m = TOKEN.match(line)
        if m:
            tokens.append(int(m.group(2)))
        elif line.startswith("lm score:"):
            result["lm_score"] = int(line.split(":")[1])
        elif "words evaluated" in line:
            result["n_words"] = int(line.split()[0])
        elif "OOVs" in line:
            result["n_oov"] = int(line.split()[0])
    result["token_scores"] = tokens
    return result


def main():
    sentences = []
    with open(SENTENCES, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            text = line.strip()
            r = run(["-text", "<s> " + text + " </s>"])
            r["token_scores"].reverse()  # printed last token first
            r = {"line": i, **r}
            sentences.append(r)
    corpora = []
    for rel, n in CORPORA:
        with open(os.path.join(SHARED, rel), encoding="utf-8") as f:
            lines = [next(f).strip() for _ in range(n)]
        with tempfile.NamedTemporaryFile("w", suffix=".lsn", encoding="utf-8") as tmp:
            for line in lines:
                tmp.write("<s> " + line + " </s>\n")
            tmp.flush()
            r = run(["-lsn", tmp.name])
        corpora.append({"file": rel, "n_lines": n, **r})
    json.dump({"model": MODEL, "tool": "sphinx_lm_eval (sphinxbase-utils)",
               "sentences": sentences, "corpora": corpora}, sys.stdout, indent=None)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
