#!/usr/bin/python3
"""DistilBERT-base and RoBERTa-base sequence classifiers (random weights) for
bench/bert/run_classifiers.sh: writes the two Hugging Face folders and the texts, then times
the same forward pass in PyTorch CPU.

Usage: hf_classifier_torch.py OUTDIR THREADS REPS BATCH
Writes OUTDIR/{distilbert,roberta}/ (config.json, tokenizer files, model.safetensors: the
torch.nn modules of tools/goldens/models_hf_encoders.py at base size, float32) and
OUTDIR/texts.txt (64 review-like sentences, fixed). Prints one JSON line: per model the
median ms (REPS runs) to classify all texts in batches of BATCH — padded ids and attention
mask as HF does, float32, torch.no_grad(), THREADS intra-op threads — with the batches taken
in input order (as HF's pipeline does: <name>_ms) and in order of length (as assay's bert:
does: <name>_sorted_ms). The tokenisation is done once beforehand and not timed (assay's
figure includes its own).
"""
import json
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "goldens"))
import models_hf_encoders as hf  # noqa: E402
import tiny_bert  # noqa: E402

WORDS = ("the movie film plot actor actress story was is very really quite not never "
         "good great bad terrible boring funny best worst and but with of a I liked hated "
         "it this that ever ending music characters").split()


def texts():
    g = torch.Generator().manual_seed(7)
    out = []
    for _ in range(64):
        n = int(torch.randint(8, 30, (1,), generator=g))
        words = [WORDS[int(i)] for i in torch.randint(len(WORDS), (n,), generator=g)]
        out.append(" ".join(words).capitalize() + ".")
    return out


def make_distilbert(folder):
    hf.resize(768, 6, 12, 3072, 512)
    vocab = tiny_bert.build_vocab()
    vocab += [f"[unused{i}]" for i in range(5, 30522 - len(vocab) + 5)]
    cfg = {"model_type": "distilbert", "vocab_size": len(vocab), "dim": 768, "n_layers": 6,
           "n_heads": 12, "hidden_dim": 3072, "max_position_embeddings": 512,
           "activation": "gelu", **hf.labels_config(["NEGATIVE", "POSITIVE"])}
    hf.write_config(folder, cfg)
    with open(os.path.join(folder, "vocab.txt"), "w") as f:
        f.write("\n".join(vocab) + "\n")
    torch.manual_seed(0)
    model = hf.DistilBertForSequenceClassification(len(vocab), 2)
    hf.randomise(model, torch.Generator().manual_seed(1))
    tiny_bert.write_safetensors(os.path.join(folder, "model.safetensors"), model.state_dict())
    vs = set(vocab)
    cls, sep = vocab.index("[CLS]"), vocab.index("[SEP]")

    def encode(t):
        return [cls] + [vocab.index(p) for p in tiny_bert.tokenize(t, vs)] + [sep]

    return model, encode, 0


def make_roberta(folder):
    hf.resize(768, 12, 12, 3072, 512)
    merges = hf.learn_merges(150)
    vocab = ["<s>", "<pad>", "</s>", "<unk>"] + [hf.BYTE_ENCODER[b] for b in range(256)]
    for a, b in merges:
        if a + b not in vocab:
            vocab.append(a + b)
    vocab += [f"<filler{i}>" for i in range(50264 - len(vocab))] + ["<mask>"]
    ids = {t: i for i, t in enumerate(vocab)}
    ranks = {m: i for i, m in enumerate(merges)}
    cfg = {"model_type": "roberta", "vocab_size": len(vocab), "hidden_size": 768,
           "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072,
           "max_position_embeddings": 514, "type_vocab_size": 1, "layer_norm_eps": 1e-5,
           "hidden_act": "gelu", "pad_token_id": 1,
           **hf.labels_config(["negative", "neutral", "positive"])}
    hf.write_config(folder, cfg)
    with open(os.path.join(folder, "vocab.json"), "w") as f:
        json.dump(ids, f, ensure_ascii=False)
    with open(os.path.join(folder, "merges.txt"), "w") as f:
        f.write("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges))
    torch.manual_seed(0)
    model = hf.RobertaForSequenceClassification(len(vocab), 1, 3)
    hf.randomise(model, torch.Generator().manual_seed(2))
    tiny_bert.write_safetensors(os.path.join(folder, "model.safetensors"), model.state_dict())

    def encode(t):
        return [0] + [ids.get(p, 3) for tok in hf.pre_tokenize(t) for p in hf.bpe(tok, ranks)] + [2]

    return model, encode, 1


def median_ms(reps, fn):
    fn()
    t = []
    for _ in range(reps):
        a = time.perf_counter()
        fn()
        t.append((time.perf_counter() - a) * 1000)
    return sorted(t)[len(t) // 2]


def main():
    out, threads, reps, batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    torch.set_num_threads(threads)
    ts = texts()
    with open(os.path.join(out, "texts.txt"), "w") as f:
        f.write("\n".join(ts) + "\n")
    result = {"threads": threads, "reps": reps, "batch": batch, "texts": len(ts),
              "torch": torch.__version__}
    for name, make in (("distilbert", make_distilbert), ("roberta", make_roberta)):
        model, encode, pad = make(os.path.join(out, name))
        model.eval()
        seqs = [encode(t) for t in ts]

        def batches(order):
            out = []
            for b in range(0, len(order), batch):
                chunk = [seqs[i] for i in order[b:b + batch]]
                T = max(len(s) for s in chunk)
                out.append((torch.tensor([s + [pad] * (T - len(s)) for s in chunk]),
                            [len(s) for s in chunk]))
            return out

        def run(bs):
            with torch.no_grad():
                for ids, lengths in bs:
                    torch.softmax(model(ids, lengths), dim=-1)

        in_order = batches(list(range(len(seqs))))
        by_length = batches(sorted(range(len(seqs)), key=lambda i: len(seqs[i])))
        result[name + "_ms"] = median_ms(reps, lambda: run(in_order))
        result[name + "_sorted_ms"] = median_ms(reps, lambda: run(by_length))
        result[name + "_tokens"] = sum(len(s) for s in seqs)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
