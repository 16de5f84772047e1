#!/usr/bin/python3
"""A scikit-learn sentiment model (TF-IDF over word unigrams and bigrams, then logistic
regression) trained on SST-2 and served to assay as a `cmd:` model (JSON lines).

Train (deterministic; a few seconds on one core):

    /usr/bin/python3 tools/fairness/sst2_sklearn.py train \
        --train ../shared/data/sst2-glue/train.tsv --dev ../shared/data/sst2-glue/dev.tsv \
        --out /tmp/sst2.sklearn

Serve (the model file is an argument, so assay's identity of the model hashes it):

    assay fair test --model 'cmd:/usr/bin/python3 tools/fairness/sst2_sklearn.py serve /tmp/sst2.sklearn' ...

Protocol: first line {"labels": ["0", "1"]} (scikit-learn's classes_, sorted), then
{"id": N, "text": "..."} in, {"id": N, "scores": [p0, p1]} out (predict_proba), answered in
batches of whatever requests are already waiting. The pipeline: TfidfVectorizer(ngram_range=
(1, 2), min_df=2, sublinear_tf=True) + LogisticRegression(C=4, solver="liblinear").
Unlike assay's built-in `lr:` (word counts, unigrams, C = 1), it weighs words by rarity and
sees two-word phrases ("not good").
"""
import argparse
import csv
import json
import os
import pickle
import select
import sys
import time

from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline


def read_tsv(path, text_column, label_column):
    texts, labels = [], []
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            texts.append(row[text_column])
            labels.append(row[label_column])
    return texts, labels


def train(args):
    begun = time.time()
    texts, labels = read_tsv(args.train, args.text_column, args.label_column)
    model = make_pipeline(
        TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True),
        LogisticRegression(C=args.c, solver="liblinear"))
    model.fit(texts, labels)
    # stop_words_ (the terms min_df cut) is a set, pickled in hash order, which changes from
    # run to run; it is for introspection only, so dropping it makes the file reproducible.
    model.steps[0][1].stop_words_ = None
    line = "trained on %d rows in %.1f s" % (len(texts), time.time() - begun)
    if args.dev:
        dev_texts, dev_labels = read_tsv(args.dev, args.text_column, args.label_column)
        line += ", dev accuracy %.4f" % model.score(dev_texts, dev_labels)
    print(line, file=sys.stderr, flush=True)
    tmp = args.out + ".tmp"
    with open(tmp, "wb") as f:
        pickle.dump(model, f)
    os.replace(tmp, args.out)


def serve(args):
    with open(args.model, "rb") as f:
        model = pickle.load(f)
    print("loaded %s" % args.model, file=sys.stderr, flush=True)
    out = sys.stdout
    out.write(json.dumps({"labels": [str(c) for c in model.classes_]}) + "\n")
    out.flush()
    fd = sys.stdin.buffer.fileno()
    buffered = b""
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        buffered += chunk
        while select.select([fd], [], [], 0)[0]:
            more = os.read(fd, 1 << 16)
            if not more:
                break
            buffered += more
        *lines, buffered = buffered.split(b"\n")
        requests = [json.loads(line) for line in lines if line.strip()]
        if not requests:
            continue
        probabilities = model.predict_proba([r["text"] for r in requests])
        out.write("".join(json.dumps({"id": r["id"], "scores": [float(p) for p in row]}) + "\n"
                          for r, row in zip(requests, probabilities)))
        out.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    t = sub.add_parser("train", help="train on a TSV and save the model (pickle)")
    t.add_argument("--train", required=True, help="TSV with a header (SST-2: sentence, label)")
    t.add_argument("--dev", help="TSV to report accuracy on")
    t.add_argument("--out", required=True, help="where to save the model (outside the repository)")
    t.add_argument("--text-column", default="sentence")
    t.add_argument("--label-column", default="label")
    t.add_argument("--c", type=float, default=4.0)
    s = sub.add_parser("serve", help="answer assay's cmd: JSON lines")
    s.add_argument("model")
    args = parser.parse_args()
    train(args) if args.mode == "train" else serve(args)


if __name__ == "__main__":
    main()
