#!/usr/bin/python3
"""Regenerates the src/vectors goldens with Debian's python3-gensim (KeyedVectors):

    /usr/bin/python3 tools/goldens/vectors_gensim.py

Writes, under tests/data/vectors/:
  tiny.w2v.bin, tiny.w2v.txt, tiny.glove.txt  a seeded random 40 x 6 matrix saved by gensim's
                                              save_word2vec_format (binary, text, no header)
  gensim_goldens.json  most_similar results (words and cosines, topn 10) for neighbour and
                       3CosAdd analogy queries, with and without restrict_vocab, on
                       ../shared/data/word-vectors/glove.twitter.27B.25d.subset.txt, the
                       GoogleNews garg subset and the tiny matrix. Only query words and results
                       are stored, not the vectors of the shared data.
"""
import json
import os

import gensim
import numpy as np
from gensim.models import KeyedVectors

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "vectors")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "data")

NEIGHBOURS = ["king", "queen", "man", "woman", "actor", "actress", "uncle", "aunt", "doctor",
              "nurse", "computer", "happy", "love", "good", "paris", "london", "dog", "cat",
              "music", "football", "he", "she", "boy", "girl", "the", "money", "rain"]
ANALOGIES = [("man", "king", "woman"), ("man", "actor", "woman"), ("man", "uncle", "woman"),
             ("man", "boy", "woman"), ("man", "father", "woman"), ("man", "brother", "woman"),
             ("man", "son", "woman"), ("man", "husband", "woman"), ("he", "his", "she"),
             ("king", "queen", "prince"), ("boy", "girl", "brother"), ("good", "better", "bad"),
             ("big", "bigger", "small"), ("paris", "france", "london"), ("dog", "puppy", "cat"),
             ("man", "doctor", "woman"), ("woman", "nurse", "man"), ("walk", "walking", "swim"),
             ("king", "man", "queen"), ("man", "man", "woman")]


def query(kv, positive, negative, restrict):
    res = kv.most_similar(positive=positive, negative=negative, topn=10,
                          restrict_vocab=restrict)
    return {"positive": positive, "negative": negative, "topn": 10, "restrict": restrict,
            "results": [[w, float(s)] for w, s in res]}


def queries_for(kv, restricts, neighbours, analogies):
    out = []
    for restrict in restricts:
        for w in neighbours:
            if w in kv.key_to_index:
                out.append(query(kv, [w], [], restrict))
        for a, b, c in analogies:
            if all(x in kv.key_to_index for x in (a, b, c)):
                out.append(query(kv, [b, c], [a], restrict))
    return out


def main():
    files = []
    glove = "word-vectors/glove.twitter.27B.25d.subset.txt"
    kv = KeyedVectors.load_word2vec_format(os.path.join(SHARED, glove), binary=False)
    files.append({"file": glove, "format": "word2vec", "n_words": len(kv), "dim": kv.vector_size,
                  "queries": queries_for(kv, [None, 2000, 500], NEIGHBOURS, ANALOGIES)})

    garg = "word-vectors/word2vec-googlenews-300d.garg-subset.txt"
    kv = KeyedVectors.load_word2vec_format(os.path.join(SHARED, garg), binary=False)
    files.append({"file": garg, "format": "word2vec", "n_words": len(kv), "dim": kv.vector_size,
                  "queries": queries_for(kv, [None], ["nurse", "man", "woman", "engineer"],
                                         [("man", "engineer", "woman"), ("he", "doctor", "she")])})

    rng = np.random.default_rng(20261201)
    words = ["w%02d" % i for i in range(40)]
    tiny = KeyedVectors(6)
    tiny.add_vectors(words, rng.normal(0, 1, (40, 6)).astype(np.float32))
    tiny.save_word2vec_format(os.path.join(OUT, "tiny.w2v.bin"), binary=True)
    tiny.save_word2vec_format(os.path.join(OUT, "tiny.w2v.txt"), binary=False)
    tiny.save_word2vec_format(os.path.join(OUT, "tiny.glove.txt"), binary=False,
                              write_header=False)
    kv = KeyedVectors.load_word2vec_format(os.path.join(OUT, "tiny.w2v.bin"), binary=True)
    files.append({"file": "tiny.w2v.bin", "format": "word2vec-bin", "n_words": len(kv),
                  "dim": kv.vector_size,
                  "vectors": {w: [float(x) for x in kv[w]] for w in words[:3]},
                  "queries": queries_for(kv, [None, 20], ["w00", "w05", "w39"],
                                         [("w00", "w01", "w02"), ("w10", "w20", "w30")])})

    with open(os.path.join(OUT, "gensim_goldens.json"), "w") as f:
        json.dump({"oracle": "gensim %s KeyedVectors.most_similar" % gensim.__version__,
                   "files": files}, f)
        f.write("\n")


if __name__ == "__main__":
    main()
