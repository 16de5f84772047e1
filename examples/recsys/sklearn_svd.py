#!/usr/bin/python3
"""A matrix-factorisation recommender for `assay rec` (docs/stability.md): TruncatedSVD of the
user-item rating matrix (scikit-learn), each user's unrated items ranked by the reconstruction.

One-shot (`--algorithm "cmd:/usr/bin/python3 examples/recsys/sklearn_svd.py"`): assay appends
TRAIN_TSV USERS_FILE K SEED OUTPUT and runs it once per training.
Persistent (`--algorithm "cmd+persistent:/usr/bin/python3 examples/recsys/sklearn_svd.py"`):
no positional arguments; one JSON request per line on stdin, {"done": true} answered on stdout
once the output is written, so the imports are paid once.

--components N sets the rank (default 20); the SVD's random state is the SEED assay gives, so a
retraining with another seed measures this recommender's own noise."""
import argparse
import json
import sys

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.decomposition import TruncatedSVD


def recommend(train, users_path, k, seed, output, components):
    user_ids, item_ids, values = [], [], []
    with open(train, encoding="utf-8") as f:
        for line in f:
            u, i, r = line.rstrip("\n").split("\t")
            user_ids.append(u)
            item_ids.append(i)
            values.append(float(r))
    users = sorted(set(user_ids))
    items = sorted(set(item_ids))
    u_index = {u: n for n, u in enumerate(users)}
    i_index = {i: n for n, i in enumerate(items)}
    rows = np.fromiter((u_index[u] for u in user_ids), dtype=np.int64, count=len(user_ids))
    cols = np.fromiter((i_index[i] for i in item_ids), dtype=np.int64, count=len(item_ids))
    matrix = csr_matrix((np.asarray(values), (rows, cols)), shape=(len(users), len(items)))
    rank = max(1, min(components, min(matrix.shape) - 1))
    svd = TruncatedSVD(n_components=rank, random_state=seed % (2**32))
    scores = svd.fit_transform(matrix) @ svd.components_
    scores[matrix.nonzero()] = -np.inf  # never a rated item
    # Users absent from the training data get the items by number of ratings.
    popularity = np.asarray((matrix != 0).sum(axis=0)).ravel().astype(float)
    with open(users_path, encoding="utf-8") as f, open(output, "w", encoding="utf-8") as out:
        for line in f:
            user = line.rstrip("\n")
            row = scores[u_index[user]] if user in u_index else popularity
            # Best first, ties by item order; rated items (-inf) never.
            order = np.argsort(-row, kind="stable")
            top = [items[j] for j in order[:k] if np.isfinite(row[j])]
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
