#!/usr/bin/python3
"""Writes a synthetic, realistic word-vector file for the analogy benchmark, deterministically.

    make_vectors.py OUT [--words 300000] [--dim 300] [--seed 1] [--format word2vec-bin|word2vec]

No 300,000-word vector file is available offline, so one is built from what is:
  * vocabulary: real English words, in this order: the 11,925 words of the shipped GloVe
    Twitter subset (most frequent first), then the WordNet lemmas (index.noun, .verb, .adj,
    .adv; multi-word lemmas joined by '_' as in GoogleNews) and the CMU pronouncing
    dictionary's words, in a seeded shuffle; then, to reach --words, capitalised forms
    ("Actor", "New_york" -> "New_York") as GoogleNews and fastText files hold them;
  * vectors: each GloVe word keeps its real 25-dimensional vector, mapped into --dim
    dimensions by a seeded random isometry (orthonormal columns: every cosine between two
    GloVe words, hence every analogy among them, is exactly GloVe's); every other word gets a
    derived row: the mapped vector of a seeded random GloVe word plus Gaussian noise of the
    same norm in all --dim dimensions (cosine about 0.7 to its source word, near 0 to
    others), scaled to a GloVe-like norm.
The file is never committed: bench/fairness/vectors.sh writes it into a temporary directory.
"""
import argparse
import os
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--words", type=int, default=300_000)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--format", default="word2vec-bin", choices=["word2vec-bin", "word2vec"])
    ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "../../../shared/data"))
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)

    glove_path = os.path.join(a.data, "word-vectors/glove.twitter.27B.25d.subset.txt")
    words, rows = [], []
    with open(glove_path, encoding="utf-8") as f:
        n, d = map(int, f.readline().split())
        for line in f:
            parts = line.rstrip("\n").split(" ")
            words.append(parts[0])
            rows.append([float(x) for x in parts[1:]])
    glove = np.array(rows, dtype=np.float64)
    assert glove.shape == (n, d), glove.shape
    if a.dim < d:
        sys.exit(f"--dim must be at least {d}")
    seen = set(words)

    extra = []
    for pos in ("noun", "verb", "adj", "adv"):
        with open(f"/usr/share/wordnet/index.{pos}", encoding="latin-1") as f:
            for line in f:
                if line.startswith(" "):
                    continue
                w = line.split(" ", 1)[0]
                if w not in seen:
                    seen.add(w)
                    extra.append(w)
    with open("/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict", encoding="latin-1") as f:
        for line in f:
            w = line.split(" ", 1)[0]
            if "(" in w:  # alternative pronunciations: "read(2)"
                continue
            if w not in seen:
                seen.add(w)
                extra.append(w)
    extra.sort()
    rng.shuffle(extra)
    vocab = words + extra
    # Capitalised forms, in the same order, until the vocabulary is full.
    for w in list(vocab):
        if len(vocab) >= a.words:
            break
        c = "_".join(p[:1].upper() + p[1:] for p in w.split("_"))
        if c not in seen:
            seen.add(c)
            vocab.append(c)
    if len(vocab) < a.words:
        sys.exit(f"only {len(vocab)} distinct words available")
    vocab = vocab[: a.words]
    n_real = min(len(words) + len(extra), a.words) - n

    # A random isometry R^d -> R^dim: Q of a Gaussian matrix's QR decomposition.
    q, _ = np.linalg.qr(rng.standard_normal((a.dim, d)))
    mapped = glove @ q.T  # n x dim, cosines preserved
    norms = np.linalg.norm(glove, axis=1)
    out = np.empty((a.words, a.dim), dtype=np.float32)
    out[:n] = mapped
    m = a.words - n
    block = 50_000
    for start in range(0, m, block):
        k = min(block, m - start)
        source = rng.integers(0, n, size=k)
        base = mapped[source]
        base_norm = np.linalg.norm(base, axis=1, keepdims=True)
        noise = rng.standard_normal((k, a.dim))
        noise *= base_norm / np.linalg.norm(noise, axis=1, keepdims=True)
        v = base + noise
        target = rng.choice(norms, size=k)[:, None]
        v *= target / np.linalg.norm(v, axis=1, keepdims=True)
        out[n + start : n + start + k] = v

    tmp = a.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(f"{a.words} {a.dim}\n".encode())
        if a.format == "word2vec-bin":
            for w, v in zip(vocab, out):
                f.write(w.encode("utf-8") + b" " + v.astype("<f4").tobytes() + b"\n")
        else:
            for w, v in zip(vocab, out):
                f.write((w + " " + " ".join(f"{x:.6g}" for x in v) + "\n").encode("utf-8"))
    os.replace(tmp, a.out)
    print(f"{a.out}: {a.words} words x {a.dim} ({n} GloVe words with their real vectors, "
          f"{n_real} WordNet/CMU words, {a.words - n - n_real} capitalised forms), "
          f"seed {a.seed}", file=sys.stderr)


if __name__ == "__main__":
    main()
