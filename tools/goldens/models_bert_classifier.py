#!/usr/bin/python3
"""Generates the tiny random BertForSequenceClassification under
tests/data/models/bert_classifier/ and the class probabilities PyTorch computes for it.

Run with Debian's interpreter: /usr/bin/python3 tools/goldens/models_bert_classifier.py
Needs python3-torch. Reuses tiny_bert.py (same folder): its vocabulary, tokenizer and the
forward pass written from the BERT equations in float64 (transformers is not installed here).
Writes:
  tests/data/models/bert_classifier/{config.json,vocab.txt,model.safetensors}
      BertForSequenceClassification naming ("bert." prefix, LayerNorm weight/bias, pooler,
      classifier.weight [3, H] and classifier.bias), float32, id2label {0: neg, 1: neutral,
      2: pos};
  tests/data/models/bert_classifier/goldens.json
      softmax(classifier(pooler(h[CLS]))) for single texts and for one padded batch;
  tests/data/models/bert_bin_only/{config.json,pytorch_model.bin}
      a folder with only a PyTorch checkpoint (torch.save of the same state dict), for the
      message that says how to convert it.
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tiny_bert  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "data", "models", "bert_classifier")
BIN = os.path.join(ROOT, "tests", "data", "models", "bert_bin_only")
LABELS = {0: "neg", 1: "neutral", 2: "pos"}
TEXTS = ["The movie was very good.", "I didn't like this terrible film!", "Hello world",
         "She is a great actress, and the plot never makes sense.", "boring", ""]


def names(w, classifier):
    t = {}
    for name, v in tiny_bert.names_pretraining(w).items():
        if name.startswith("cls."):
            continue
        t[name.replace("LayerNorm.gamma", "LayerNorm.weight").replace("LayerNorm.beta",
                                                                       "LayerNorm.bias")] = v
    t["classifier.weight"], t["classifier.bias"] = classifier
    return t


def main():
    vocab = tiny_bert.build_vocab()
    vocab_set = set(vocab)
    cfg = dict(tiny_bert.CONFIG, vocab_size=len(vocab), architectures=["BertForSequenceClassification"],
               id2label={str(k): v for k, v in LABELS.items()},
               label2id={v: k for k, v in LABELS.items()})
    gen = torch.Generator().manual_seed(20261203)
    w = tiny_bert.make_weights(cfg, gen)
    H = cfg["hidden_size"]
    classifier = (torch.randn(len(LABELS), H, generator=gen, dtype=torch.float64) * 0.5,
                  torch.randn(len(LABELS), generator=gen, dtype=torch.float64) * 0.1)
    tensors = names(w, classifier)
    for d in (OUT, BIN):
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(cfg, f, indent=2)
    with open(os.path.join(OUT, "vocab.txt"), "w") as f:
        f.write("\n".join(vocab) + "\n")
    tiny_bert.write_safetensors(os.path.join(OUT, "model.safetensors"), tensors)
    # Only the head: the file exists to be recognised, not read.
    torch.save({k: tensors[k].to(torch.float32) for k in ("classifier.weight", "classifier.bias")},
               os.path.join(BIN, "pytorch_model.bin"))

    def to32(x):  # the C++ side reads the float32 file: the reference uses the same values
        if isinstance(x, torch.Tensor):
            return x.to(torch.float32).to(torch.float64)
        if isinstance(x, tuple):
            return tuple(to32(y) for y in x)
        if isinstance(x, list):
            return [to32(y) for y in x]
        return {k: to32(v) for k, v in x.items()}

    w32, c32 = to32(w), to32(classifier)
    cls, sep = vocab.index("[CLS]"), vocab.index("[SEP]")
    seqs = [[cls] + [vocab.index(p) for p in tiny_bert.tokenize(t, vocab_set)] + [sep] for t in TEXTS]

    def probabilities(batch):
        T = max(len(s) for s in batch)
        ids = torch.tensor([s + [0] * (T - len(s)) for s in batch])
        _, pooled, _ = tiny_bert.forward(w32, cfg, ids, [len(s) for s in batch])
        return torch.softmax(pooled @ c32[0].T + c32[1], dim=-1)

    single = [probabilities([s])[0].tolist() for s in seqs]
    batched = probabilities(seqs).tolist()
    golden = {"labels": [LABELS[i] for i in range(len(LABELS))], "texts": TEXTS,
              "ids": seqs, "single": single, "batched": batched}
    with open(os.path.join(OUT, "goldens.json"), "w") as f:
        json.dump(golden, f, indent=1)


if __name__ == "__main__":
    main()
