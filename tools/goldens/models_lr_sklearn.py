#!/usr/bin/python3
"""Regenerates tests/data/models/lr_rt_polarity_golden.json: the accuracy of Debian's
python3-sklearn on the paper's local baseline (CountVectorizer with its defaults, then
LogisticRegression with its defaults: L2, C = 1, lbfgs) on rt-polarity v1.0, with the seeded
80/20 split stored next to it so the C++ test evaluates assay's built-in LR on the same split.

    /usr/bin/python3 tools/goldens/models_lr_sklearn.py > tests/data/models/lr_rt_polarity_golden.json

Data: ../shared/data/rt-polarity-v1.0/rt-polarity.{pos,neg}, which are UTF-8 (the Windows-1252
originals re-encoded; see the data set's MANIFEST.md). Documents are the lines of .pos (label
"pos") then the lines of .neg (label "neg"), in file order, with the line terminator removed.

Tolerances, stored with the golden ("tolerances": absolute, per key; compare_goldens.py and the
C++ tests read them). lbfgs stops at max_iter=100, far from its gradient tolerance (the last
iterate's gradient norm is about 1.2), so the iterate follows the rounding of the BLAS kernel
OpenBLAS picks for the processor: over the 8 kernels an x86-64 machine with AVX-512 can run
(OPENBLAS_CORETYPE=Prescott, Core2, Penryn, Nehalem, Sandybridge, Haswell, Zen, SkylakeX) the
test probabilities differ by up to 1.6e-3 (5.5e-4 on the first 20). PROBA_TOLERANCE is 3 times
that. A test label flips only where the probability is within PROBA_TOLERANCE of 0.5, so the
accuracy may move by at most that many documents over n: the accuracy's tolerance is counted
from this fit.
"""
import json
import os
import sys
import warnings

import numpy as np
import sklearn
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

SEED = 0
PROBA_TOLERANCE = 5e-3
here = os.path.dirname(os.path.abspath(__file__))
data = os.path.join(here, "..", "..", "..", "shared", "data", "rt-polarity-v1.0")


def read(name):
    with open(os.path.join(data, name), encoding="utf-8", newline="") as f:
        return [line.rstrip("\n").rstrip("\r") for line in f]


pos, neg = read("rt-polarity.pos"), read("rt-polarity.neg")
texts = pos + neg
labels = ["pos"] * len(pos) + ["neg"] * len(neg)
indices = np.arange(len(texts))
train_idx, test_idx = train_test_split(indices, test_size=0.2, random_state=SEED)
vectorizer = CountVectorizer()
x_train = vectorizer.fit_transform([texts[i] for i in train_idx])
x_test = vectorizer.transform([texts[i] for i in test_idx])
y_train = [labels[i] for i in train_idx]
y_test = [labels[i] for i in test_idx]
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # lbfgs stops at max_iter=100 (ConvergenceWarning)
    clf = LogisticRegression().fit(x_train, y_train)
accuracy = float((clf.predict(x_test) == np.array(y_test)).mean())
# Scores of the first test documents, for a looser check of the probabilities themselves.
proba = clf.predict_proba(x_test[:20])
near_half = int((abs(clf.predict_proba(x_test)[:, 1] - 0.5) < PROBA_TOLERANCE).sum())
json.dump({
    "sklearn_version": sklearn.__version__,
    "seed": SEED,
    "n_documents": len(texts),
    "n_features": len(vectorizer.vocabulary_),
    "classes": [str(c) for c in clf.classes_],
    "accuracy": accuracy,
    # Both in the split's order: scikit-learn's lbfgs stops at max_iter=100, short of the
    # optimum, so its answers depend slightly on the order of the training rows.
    "train_indices": [int(i) for i in train_idx],
    "test_indices": [int(i) for i in test_idx],
    "first_test_documents": [int(i) for i in test_idx[:20]],
    "first_test_proba": [[float(p) for p in row] for row in proba],
    "tolerances": {
        "first_test_proba": PROBA_TOLERANCE,
        "accuracy": near_half / len(test_idx),
    },
}, sys.stdout)
sys.stdout.write("\n")
