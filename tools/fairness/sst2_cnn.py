#!/usr/bin/python3
"""A small text CNN for sentiment (one convolution, two dense layers, as MT-NLP's local CNN),
trained on SST-2 and served to assay as a `cmd:` model (JSON lines on stdin/stdout).

Train (seeded, deterministic, CPU only, one thread; about a minute on SST-2's 67,349 rows):

    /usr/bin/python3 tools/fairness/sst2_cnn.py train \
        --train ../shared/data/sst2-glue/train.tsv --dev ../shared/data/sst2-glue/dev.tsv \
        --out /tmp/sst2.cnn

Serve (the model file is an argument, so assay's identity of the model hashes it):

    assay fair test --model 'cmd:/usr/bin/python3 tools/fairness/sst2_cnn.py serve /tmp/sst2.cnn' ...

Protocol: the first line written is {"labels": ["0", "1"]} (SST-2's labels: 0 negative,
1 positive); then every request {"id": N, "text": "..."} gets {"id": N, "scores": [p0, p1]}
(softmax). Each text is scored on its own, so its scores never depend on what else was in the
batch. Tokens: the text lower-cased, split into runs of word characters and single other
non-blank characters (SST-2 is already tokenised that way); unknown words map to one shared
index. Architecture: embedding 64 → Conv1d(64 → 128, width 3) + ReLU → max over time →
Linear(128 → 64) + ReLU → dropout 0.5 → Linear(64 → 2).
"""
import argparse
import csv
import io
import json
import os
import random
import re
import select
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

TOKEN = re.compile(r"\w+|[^\w\s]")
PAD, UNK = 0, 1
WIDTH = 3
MAX_TOKENS = 2000  # longer texts are cut (an IMDB review is rarely above 1,000 tokens)


def tokens(text):
    return TOKEN.findall(text.lower())[:MAX_TOKENS]


class TextCnn(nn.Module):
    def __init__(self, vocab_size, dim=64, filters=128, hidden=64, classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=PAD)
        self.conv = nn.Conv1d(dim, filters, WIDTH)
        self.dense1 = nn.Linear(filters, hidden)
        self.dropout = nn.Dropout(0.5)
        self.dense2 = nn.Linear(hidden, classes)

    def forward(self, ids, lengths):
        # ids: [batch, time] padded with PAD to at least WIDTH; lengths: real token counts.
        x = self.embed(ids).transpose(1, 2)
        h = F.relu(self.conv(x))  # [batch, filters, time - WIDTH + 1]
        valid = (lengths.clamp(min=WIDTH) - WIDTH + 1).unsqueeze(1)
        positions = torch.arange(h.shape[2]).unsqueeze(0)
        mask = (positions < valid).unsqueeze(1)
        h = h.masked_fill(~mask, float("-inf")).max(dim=2).values
        return self.dense2(self.dropout(F.relu(self.dense1(h))))


def read_tsv(path, text_column, label_column):
    texts, labels = [], []
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            texts.append(row[text_column])
            labels.append(row[label_column])
    return texts, labels


def encode(vocab, text):
    ids = [vocab.get(t, UNK) for t in tokens(text)]
    return ids


def batch_tensors(seqs):
    longest = max(WIDTH, max(len(s) for s in seqs))
    ids = torch.full((len(seqs), longest), PAD, dtype=torch.long)
    for i, s in enumerate(seqs):
        if s:
            ids[i, : len(s)] = torch.tensor(s, dtype=torch.long)
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.long)
    return ids, lengths


def accuracy(model, vocab, labels, texts, gold):
    model.eval()
    right = 0
    with torch.no_grad():
        for start in range(0, len(texts), 256):
            seqs = [encode(vocab, t) for t in texts[start : start + 256]]
            ids, lengths = batch_tensors(seqs)
            predicted = model(ids, lengths).argmax(dim=1).tolist()
            right += sum(labels[p] == g for p, g in zip(predicted, gold[start : start + 256]))
    return right / len(texts)


def train(args):
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.use_deterministic_algorithms(True)
    texts, gold = read_tsv(args.train, args.text_column, args.label_column)
    labels = sorted(set(gold))
    counts = {}
    for t in texts:
        for w in tokens(t):
            counts[w] = counts.get(w, 0) + 1
    words = sorted(w for w, c in counts.items() if c >= args.min_count)
    vocab = {w: i + 2 for i, w in enumerate(words)}
    data = [(encode(vocab, t), labels.index(g)) for t, g in zip(texts, gold)]
    model = TextCnn(len(vocab) + 2)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    order = list(range(len(data)))
    rng = random.Random(args.seed)
    begun = time.time()
    for epoch in range(args.epochs):
        model.train()
        rng.shuffle(order)
        total = 0.0
        for start in range(0, len(order), args.batch):
            chunk = [data[i] for i in order[start : start + args.batch]]
            ids, lengths = batch_tensors([s for s, _ in chunk])
            target = torch.tensor([y for _, y in chunk], dtype=torch.long)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(ids, lengths), target)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(chunk)
        line = "epoch %d: loss %.4f, %.0f s" % (epoch + 1, total / len(data), time.time() - begun)
        if args.dev:
            dev_texts, dev_gold = read_tsv(args.dev, args.text_column, args.label_column)
            line += ", dev accuracy %.4f" % accuracy(model, vocab, labels, dev_texts, dev_gold)
        print(line, file=sys.stderr, flush=True)
    state = {"labels": labels, "words": words, "min_count": args.min_count,
             "state_dict": model.state_dict()}
    # Saved through memory so the archive does not embed the file's name: the same training
    # gives the same bytes wherever it is saved (and so the same model identity in assay).
    buffer = io.BytesIO()
    torch.save(state, buffer)
    tmp = args.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(buffer.getvalue())
    os.replace(tmp, args.out)
    print("saved %s (%d words)" % (args.out, len(vocab)), file=sys.stderr, flush=True)


def load(path):
    state = torch.load(path)
    vocab = {w: i + 2 for i, w in enumerate(state["words"])}
    model = TextCnn(len(vocab) + 2)
    model.load_state_dict(state["state_dict"])
    model.eval()
    return state["labels"], vocab, model


def serve(args):
    torch.set_num_threads(1)
    labels, vocab, model = load(args.model)
    print("loaded %s" % args.model, file=sys.stderr, flush=True)
    out = sys.stdout
    out.write(json.dumps({"labels": labels}) + "\n")
    out.flush()
    fd = sys.stdin.buffer.fileno()
    buffered = b""
    with torch.no_grad():
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
            answers = []
            for line in lines:
                if not line.strip():
                    continue
                request = json.loads(line)
                ids, lengths = batch_tensors([encode(vocab, request["text"])])
                scores = F.softmax(model(ids, lengths), dim=1)[0].tolist()
                answers.append(json.dumps({"id": request["id"], "scores": scores}) + "\n")
            out.write("".join(answers))
            out.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    t = sub.add_parser("train", help="train on a TSV and save the model")
    t.add_argument("--train", required=True, help="TSV with a header (SST-2: sentence, label)")
    t.add_argument("--dev", help="TSV to report accuracy on after every epoch")
    t.add_argument("--out", required=True, help="where to save the model (outside the repository)")
    t.add_argument("--text-column", default="sentence")
    t.add_argument("--label-column", default="label")
    t.add_argument("--epochs", type=int, default=3)
    t.add_argument("--batch", type=int, default=64)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--min-count", type=int, default=1)
    t.add_argument("--seed", type=int, default=13)
    s = sub.add_parser("serve", help="answer assay's cmd: JSON lines")
    s.add_argument("model")
    args = parser.parse_args()
    train(args) if args.mode == "train" else serve(args)


if __name__ == "__main__":
    main()
