#!/usr/bin/python3
"""A matrix-factorisation recommender for `assay rec` (docs/stability.md): TruncatedSVD of the
user-item rating matrix (scikit-learn), each user's unrated items ranked by the reconstruction.

One-shot (`--algorithm "cmd:/usr/bin/python3 examples/recsys/sklearn_svd.py"`): assay appends
TRAIN_TSV USERS_FILE K SEED OUTPUT and runs it once per training.
Persistent (`--algorithm "cmd+persistent:/usr/bin/python3 examples/recsys/sklearn_svd.py"`):
no positional arguments; one JSON request per line on stdin, {"done": true} answered on stdout
once the output is written, so the imports are paid once.
From Python (docs/python.md), `SvdRecommender()` is the same recommender as an object:
`assay.rec.fuzz(data, SvdRecommender(), "AMU")`.

--components N sets the rank (default 20); the SVD's random state is the SEED assay gives, so a
retraining with another seed measures this recommender's own noise."""
import argparse
import json
import sys

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.decomposition import TruncatedSVD


class SvdRecommender:
    """fit(ratings, seed) on the columns "user", "item" (ids) and "rating"; recommend(users, k)
    gives each user's k best unrated items, best first."""

    name = "sklearn-svd"

    def __init__(self, components=20):
        self.components = components

    def fit(self, ratings, seed=0):
        users, rows = np.unique(np.asarray(ratings["user"]), return_inverse=True)
        items, cols = np.unique(np.asarray(ratings["item"]), return_inverse=True)
        values = np.asarray(ratings["rating"], dtype=float)
        matrix = csr_matrix((values, (rows, cols)), shape=(len(users), len(items)))
        rank = max(1, min(self.components, min(matrix.shape) - 1))
        svd = TruncatedSVD(n_components=rank, random_state=seed % (2**32))
        self.scores = svd.fit_transform(matrix) @ svd.components_
        self.scores[matrix.nonzero()] = -np.inf  # never a rated item
        # Users absent from the training data get the items by number of ratings.
        self.popularity = np.asarray((matrix != 0).sum(axis=0)).ravel().astype(float)
        self.u_index = {u: n for n, u in enumerate(users.tolist())}
        self.items = items.tolist()

    def recommend(self, users, k):
        lists = []
        for user in users:
            row = self.scores[self.u_index[user]] if user in self.u_index else self.popularity
            # Best first, ties by item order; rated items (-inf) never.
            order = np.argsort(-row, kind="stable")
            lists.append([self.items[j] for j in order[:k] if np.isfinite(row[j])])
        return lists


def recommend(train, users_path, k, seed, output, components):
    columns = {"user": [], "item": [], "rating": []}
    with open(train, encoding="utf-8") as f:
        for line in f:
            u, i, r = line.rstrip("\n").split("\t")
            columns["user"].append(u)
            columns["item"].append(i)
            columns["rating"].append(float(r))
    model = SvdRecommender(components)
    model.fit(columns, seed)
    with open(users_path, encoding="utf-8") as f:
        users = [line.rstrip("\n") for line in f]
    with open(output, "w", encoding="utf-8") as out:
        for user, top in zip(users, model.recommend(users, k)):
            out.write(json.dumps({"user": user, "items": top}) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--components", type=int, default=20)
    parser.add_argument("args", nargs="*", help="TRAIN_TSV USERS_FILE K SEED OUTPUT")
    a = parser.parse_args()
    if a.args:
        if len(a.args) != 5:
            parser.error("expected TRAIN_TSV USERS_FILE K SEED OUTPUT")
        train, users, k, seed, output = a.args
        recommend(train, users, int(k), int(seed), output, a.components)
        return
    for line in sys.stdin:  # persistent mode
        request = json.loads(line)
        try:
            recommend(request["train"], request["users"], request["k"], request["seed"],
                      request["output"], a.components)
            answer = {"done": True}
        except Exception as e:  # reported as this training's failure; the process lives on
            answer = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
