#!/usr/bin/python3
"""Generates tiny random DistilBERT and RoBERTa sequence classifiers in the Hugging Face
layout, and what PyTorch computes for them, for the `bert:` loader's tests.

Run with Debian's interpreter: /usr/bin/python3 tools/goldens/models_hf_encoders.py
Needs python3-torch and python3-regex (transformers is not installed here). The models are
torch.nn modules written from the published architectures (DistilBERT: Sanh et al. 2019 and
transformers' modeling_distilbert.py; RoBERTa: Liu et al. 2019 and modeling_roberta.py),
with module names chosen so that state_dict() yields Hugging Face's tensor names; they run
in float64 on the float32-rounded weights that the folders store. Writes:
  tests/data/models/distilbert_classifier/
      config.json (model_type distilbert: dim, n_layers, n_heads, hidden_dim),
      tokenizer_config.json (do_lower_case false: a cased model), vocab.txt (WordPiece with
      capitalised words), model.safetensors (DistilBertForSequenceClassification naming),
      goldens.json (ids, logits and probabilities, singly and as one padded batch);
  tests/data/models/roberta_classifier/
      config.json (model_type roberta, type_vocab_size 1, pad_token_id 1, max positions
      T + 2), tokenizer_config.json, vocab.json + merges.txt (byte-level BPE learnt here from
      a small corpus with a fixed tie-break), model.safetensors (RobertaForSequenceClassification
      naming: no pooler, classifier.dense + classifier.out_proj), goldens.json,
      tokenizer_goldens.json (byte-level BPE pieces and ids on tricky text);
  tests/data/models/roberta_tokenizer_json/tokenizer.json
      the same BPE as a `tokenizers` tokenizer.json (model.vocab, model.merges).
The BPE reference is GPT-2's encoder.py algorithm (bytes_to_unicode, the pre-tokenisation
regex run by the `regex` module, lowest-rank merge first), which RobertaTokenizer uses.
"""
import json
import math
import os
import sys

import regex
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tiny_bert  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DATA = os.path.join(ROOT, "tests", "data", "models")
H, LAYERS, HEADS, INTER, T = 32, 2, 4, 64, 64  # the goldens' sizes; see resize()


def resize(hidden, layers, heads, inter, positions):
    """Sets the sizes the modules below are built with (bench/bert builds base-size models)."""
    global H, LAYERS, HEADS, INTER, T
    H, LAYERS, HEADS, INTER, T = hidden, layers, heads, inter, positions

TEXTS = ["The movie was very good.", "I didn't like this terrible film!", "Hello World",
         "She is a great actress, and the plot never makes sense.", "BORING", "",
         "Café naïve  résumé \U0001F600!"]


def gelu(x):
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


def additive_mask(lengths, t, dtype):
    mask = torch.zeros(len(lengths), 1, 1, t, dtype=dtype)
    for b, n in enumerate(lengths):
        mask[b, 0, 0, n:] = torch.finfo(dtype).min  # HF's extended attention mask
    return mask


def heads(x, nh):
    b, t, h = x.shape
    return x.view(b, t, nh, h // nh).transpose(1, 2)


def attend(q, k, v, mask, nh):
    b, t, h = q.shape
    q, k, v = heads(q, nh), heads(k, nh), heads(v, nh)
    s = q @ k.transpose(-1, -2) / math.sqrt(h // nh) + mask
    return (torch.softmax(s, dim=-1) @ v).transpose(1, 2).reshape(b, t, h)


# ---------------------------------------------------------------- DistilBERT
class DistilEmbeddings(nn.Module):
    def __init__(self, v):
        super().__init__()
        self.word_embeddings = nn.Embedding(v, H)
        self.position_embeddings = nn.Embedding(T, H)
        self.LayerNorm = nn.LayerNorm(H, eps=1e-12)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1]).unsqueeze(0)
        return self.LayerNorm(self.word_embeddings(ids) + self.position_embeddings(pos))


class DistilAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_lin, self.k_lin, self.v_lin, self.out_lin = (nn.Linear(H, H) for _ in range(4))

    def forward(self, x, mask):
        return self.out_lin(attend(self.q_lin(x), self.k_lin(x), self.v_lin(x), mask, HEADS))


class DistilFFN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1, self.lin2 = nn.Linear(H, INTER), nn.Linear(INTER, H)

    def forward(self, x):
        return self.lin2(gelu(self.lin1(x)))


class DistilBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = DistilAttention()
        self.sa_layer_norm = nn.LayerNorm(H, eps=1e-12)
        self.ffn = DistilFFN()
        self.output_layer_norm = nn.LayerNorm(H, eps=1e-12)

    def forward(self, x, mask):
        sa = self.sa_layer_norm(self.attention(x, mask) + x)
        return self.output_layer_norm(self.ffn(sa) + sa)


class DistilTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.ModuleList(DistilBlock() for _ in range(LAYERS))


class DistilBertModel(nn.Module):
    def __init__(self, v):
        super().__init__()
        self.embeddings = DistilEmbeddings(v)
        self.transformer = DistilTransformer()

    def forward(self, ids, lengths):
        x = self.embeddings(ids)
        mask = additive_mask(lengths, ids.shape[1], x.dtype)
        for block in self.transformer.layer:
            x = block(x, mask)
        return x


class DistilBertForSequenceClassification(nn.Module):
    def __init__(self, v, n_labels):
        super().__init__()
        self.distilbert = DistilBertModel(v)
        self.pre_classifier = nn.Linear(H, H)
        self.classifier = nn.Linear(H, n_labels)

    def forward(self, ids, lengths):
        h0 = self.distilbert(ids, lengths)[:, 0]
        return self.classifier(torch.relu(self.pre_classifier(h0)))


# ---------------------------------------------------------------- RoBERTa
class RobertaEmbeddings(nn.Module):
    def __init__(self, v, pad):
        super().__init__()
        self.pad = pad
        self.word_embeddings = nn.Embedding(v, H, padding_idx=pad)
        self.position_embeddings = nn.Embedding(T + pad + 1, H, padding_idx=pad)
        self.token_type_embeddings = nn.Embedding(1, H)
        self.LayerNorm = nn.LayerNorm(H, eps=1e-5)

    def forward(self, ids):
        # create_position_ids_from_input_ids: real tokens count from padding_idx + 1.
        real = ids.ne(self.pad).long()
        pos = torch.cumsum(real, dim=1) * real + self.pad
        x = self.word_embeddings(ids) + self.position_embeddings(pos)
        return self.LayerNorm(x + self.token_type_embeddings(torch.zeros_like(ids)))


class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.query, self.key, self.value = nn.Linear(H, H), nn.Linear(H, H), nn.Linear(H, H)


class DenseLayerNorm(nn.Module):
    def __init__(self, i):
        super().__init__()
        self.dense = nn.Linear(i, H)
        self.LayerNorm = nn.LayerNorm(H, eps=1e-5)

    def forward(self, x, residual):
        return self.LayerNorm(self.dense(x) + residual)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        setattr(self, "self", SelfAttention())
        self.output = DenseLayerNorm(H)

    def forward(self, x, mask):
        s = getattr(self, "self")
        return self.output(attend(s.query(x), s.key(x), s.value(x), mask, HEADS), x)


class Intermediate(nn.Module):
    def __init__(self):
        super().__init__()
        self.dense = nn.Linear(H, INTER)


class RobertaLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = Attention()
        self.intermediate = Intermediate()
        self.output = DenseLayerNorm(INTER)

    def forward(self, x, mask):
        a = self.attention(x, mask)
        return self.output(gelu(self.intermediate.dense(a)), a)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.ModuleList(RobertaLayer() for _ in range(LAYERS))


class RobertaModel(nn.Module):
    def __init__(self, v, pad):
        super().__init__()
        self.embeddings = RobertaEmbeddings(v, pad)
        self.encoder = Encoder()

    def forward(self, ids, lengths):
        x = self.embeddings(ids)
        mask = additive_mask(lengths, ids.shape[1], x.dtype)
        for layer in self.encoder.layer:
            x = layer(x, mask)
        return x


class RobertaClassificationHead(nn.Module):
    def __init__(self, n_labels):
        super().__init__()
        self.dense = nn.Linear(H, H)
        self.out_proj = nn.Linear(H, n_labels)

    def forward(self, h0):
        return self.out_proj(torch.tanh(self.dense(h0)))


class RobertaForSequenceClassification(nn.Module):
    def __init__(self, v, pad, n_labels):
        super().__init__()
        self.roberta = RobertaModel(v, pad)
        self.classifier = RobertaClassificationHead(n_labels)

    def forward(self, ids, lengths):
        return self.classifier(self.roberta(ids, lengths)[:, 0])


# ---------------------------------------------------------------- weights
def randomise(model, gen):
    """Random weights of a scale that makes every layer matter (HF's 0.02 init would make the
    outputs nearly constant); LayerNorm gains near 1. Rounded to float32, as stored."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "LayerNorm" in name or "layer_norm" in name:
                base = 1.0 if name.endswith("weight") else 0.0
                p.copy_(base + torch.randn(p.shape, generator=gen, dtype=torch.float64) * 0.1)
            elif "embeddings" in name:
                p.copy_(torch.randn(p.shape, generator=gen, dtype=torch.float64) * 0.4)
            elif name.endswith("bias"):
                p.copy_(torch.randn(p.shape, generator=gen, dtype=torch.float64) * 0.1)
            else:
                p.copy_(torch.randn(p.shape, generator=gen, dtype=torch.float64) * 0.25)
            p.copy_(p.to(torch.float32).to(torch.float64))


def classify(model, seqs, pad):
    t = max(len(s) for s in seqs)
    ids = torch.tensor([s + [pad] * (t - len(s)) for s in seqs])
    with torch.no_grad():
        logits = model(ids, [len(s) for s in seqs])
    return logits, torch.softmax(logits, dim=-1)


def write_goldens(path, model, seqs, pad, labels, texts):
    single = [classify(model, [s], pad) for s in seqs]
    logits, probs = classify(model, seqs, pad)
    golden = {"labels": labels, "texts": texts, "ids": seqs,
              "single": [p[0].tolist() for _, p in single],
              "single_logits": [z[0].tolist() for z, _ in single],
              "batched": probs.tolist(), "batched_logits": logits.tolist()}
    with open(path, "w") as f:
        json.dump(golden, f, indent=1, ensure_ascii=False)


def write_config(folder, cfg):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)


def labels_config(labels):
    return {"id2label": {str(i): n for i, n in enumerate(labels)},
            "label2id": {n: i for i, n in enumerate(labels)}}


# ---------------------------------------------------------------- DistilBERT folder (cased)
CASED_WORDS = ["The", "Hello", "World", "She", "I", "BORING", "Good", "Movie", "Café"]


def distilbert():
    out = os.path.join(DATA, "distilbert_classifier")
    vocab = tiny_bert.build_vocab()
    for w in CASED_WORDS + list("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + ["é", "ï", "##é", "##ï"]:
        if w not in vocab:
            vocab.append(w)
    labels = ["NEGATIVE", "POSITIVE"]
    cfg = {"architectures": ["DistilBertForSequenceClassification"], "model_type": "distilbert",
           "vocab_size": len(vocab), "dim": H, "n_layers": LAYERS, "n_heads": HEADS,
           "hidden_dim": INTER, "max_position_embeddings": T, "activation": "gelu",
           "sinusoidal_pos_embds": False, "dropout": 0.1, "attention_dropout": 0.1,
           "seq_classif_dropout": 0.2, "qa_dropout": 0.1, "initializer_range": 0.02,
           "pad_token_id": 0, "tie_weights_": True, **labels_config(labels)}
    write_config(out, cfg)
    with open(os.path.join(out, "vocab.txt"), "w") as f:
        f.write("\n".join(vocab) + "\n")
    with open(os.path.join(out, "tokenizer_config.json"), "w") as f:
        json.dump({"do_lower_case": False, "model_max_length": 512,
                   "tokenizer_class": "DistilBertTokenizer", "cls_token": "[CLS]",
                   "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]",
                   "mask_token": "[MASK]"}, f, indent=2)
    torch.manual_seed(0)
    model = DistilBertForSequenceClassification(len(vocab), len(labels)).double()
    randomise(model, torch.Generator().manual_seed(20261205))
    tiny_bert.write_safetensors(os.path.join(out, "model.safetensors"), model.state_dict())
    vs = set(vocab)
    cls, sep = vocab.index("[CLS]"), vocab.index("[SEP]")
    seqs = [[cls] + [vocab.index(p) for p in tiny_bert.tokenize(t, vs, lower=False)] + [sep]
            for t in TEXTS]
    write_goldens(os.path.join(out, "goldens.json"), model, seqs, 0, labels, TEXTS)


# ---------------------------------------------------------------- byte-level BPE
PAT = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def bytes_to_unicode():
    bs = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) +
          list(range(ord("®"), ord("ÿ") + 1)))
    cs, n = bs[:], 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, [chr(c) for c in cs]))


BYTE_ENCODER = bytes_to_unicode()


def pre_tokenize(text):
    return ["".join(BYTE_ENCODER[b] for b in tok.encode("utf-8")) for tok in PAT.findall(text)]


def bpe(token, ranks):
    """GPT-2's encoder.py bpe(): merge the lowest-ranked adjacent pair until none is ranked."""
    word = tuple(token)
    if len(word) < 2:
        return list(word)
    while True:
        pairs = {(word[i], word[i + 1]) for i in range(len(word) - 1)}
        bigram = min(pairs, key=lambda p: ranks.get(p, float("inf")))
        if bigram not in ranks:
            break
        first, second = bigram
        new, i = [], 0
        while i < len(word):
            try:
                j = word.index(first, i)
            except ValueError:
                new.extend(word[i:])
                break
            new.extend(word[i:j])
            i = j
            if word[i] == first and i < len(word) - 1 and word[i + 1] == second:
                new.append(first + second)
                i += 2
            else:
                new.append(word[i])
                i += 1
        word = tuple(new)
        if len(word) == 1:
            break
    return list(word)


CORPUS = """The movie was very good. I didn't like this terrible film! Hello world.
She is a great actress, and the plot never makes sense. Boring, boring, boring.
the film is the best film of the year and the actors are great. It's not bad, it's fine.
They're happy, we've seen it, you'll love it, I'd watch it again, I'm sure.
What a wonderful story: the characters, the music, the ending. 10/10 would watch again.
Worst movie ever... I hated every minute of it. Don't waste your time on this one.
café naïve résumé""".split("\n")


def learn_merges(n_merges):
    counts = {}
    for line in CORPUS:
        for tok in pre_tokenize(line):
            counts[tuple(tok)] = counts.get(tuple(tok), 0) + 1
    merges = []
    for _ in range(n_merges):
        pairs = {}
        for word, c in counts.items():
            for i in range(len(word) - 1):
                pairs[(word[i], word[i + 1])] = pairs.get((word[i], word[i + 1]), 0) + c
        if not pairs:
            break
        best = min(pairs, key=lambda p: (-pairs[p], p))  # most frequent, then lexicographic
        merges.append(best)
        new_counts = {}
        for word, c in counts.items():
            out, i = [], 0
            while i < len(word):
                if i < len(word) - 1 and (word[i], word[i + 1]) == best:
                    out.append(word[i] + word[i + 1])
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            new_counts[tuple(out)] = new_counts.get(tuple(out), 0) + c
        counts = new_counts
    return merges


BPE_CASES = [
    "Hello world",
    " Hello world",
    "Hello   world  ",
    "I'm sure they're happy, we've seen it; DON'T stop.",
    "naïve café résumé",
    "e\u0301 vs \u00e9",
    "happy \U0001F600\U0001F44D\U0001F3FD day",
    "tab\tnew\nline\r\n  indented",
    "non\u00a0breaking\u3000spaces",
    "10/10 would watch 2x, costs $5.99 (50% off)",
    "中国人 likes 日本語!",
    "\u0130stanbul \u03a3\u038a\u03a3\u03a5\u03a6\u039f\u03a3",
    "well\u2014quite... !!!",
    "''s 's' x's",
    "<mask> is not split",
    "   ",
    "",
    "zzzzqqqq",
]


def roberta():
    out = os.path.join(DATA, "roberta_classifier")
    merges = learn_merges(150)
    specials = ["<s>", "<pad>", "</s>", "<unk>"]
    vocab = specials + [BYTE_ENCODER[b] for b in range(256)]
    for a, b in merges:
        if a + b not in vocab:
            vocab.append(a + b)
    vocab.append("<mask>")
    ids = {t: i for i, t in enumerate(vocab)}
    ranks = {m: i for i, m in enumerate(merges)}
    pad = ids["<pad>"]
    labels = ["negative", "neutral", "positive"]
    cfg = {"architectures": ["RobertaForSequenceClassification"], "model_type": "roberta",
           "vocab_size": len(vocab), "hidden_size": H, "num_hidden_layers": LAYERS,
           "num_attention_heads": HEADS, "intermediate_size": INTER, "hidden_act": "gelu",
           "max_position_embeddings": T + pad + 1, "type_vocab_size": 1,
           "layer_norm_eps": 1e-5, "hidden_dropout_prob": 0.1,
           "attention_probs_dropout_prob": 0.1, "initializer_range": 0.02,
           "pad_token_id": pad, "bos_token_id": 0, "eos_token_id": 2, **labels_config(labels)}
    write_config(out, cfg)
    with open(os.path.join(out, "vocab.json"), "w") as f:
        json.dump(ids, f, ensure_ascii=False)
    with open(os.path.join(out, "merges.txt"), "w") as f:
        f.write("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges))
    with open(os.path.join(out, "tokenizer_config.json"), "w") as f:
        json.dump({"tokenizer_class": "RobertaTokenizer", "add_prefix_space": False,
                   "model_max_length": 512, "errors": "replace",
                   "bos_token": {"__type": "AddedToken", "content": "<s>", "lstrip": False,
                                 "normalized": True, "rstrip": False, "single_word": False},
                   "cls_token": "<s>", "sep_token": "</s>", "eos_token": "</s>",
                   "pad_token": "<pad>", "unk_token": "<unk>",
                   "mask_token": {"__type": "AddedToken", "content": "<mask>", "lstrip": True,
                                  "normalized": True, "rstrip": False, "single_word": False}},
                  f, indent=2)
    tj = os.path.join(DATA, "roberta_tokenizer_json")
    os.makedirs(tj, exist_ok=True)
    with open(os.path.join(tj, "tokenizer.json"), "w") as f:
        json.dump({"version": "1.0", "truncation": None, "padding": None,
                   "added_tokens": [{"id": ids[t], "content": t, "single_word": False,
                                     "lstrip": t == "<mask>", "rstrip": False,
                                     "normalized": t != "<mask>", "special": True}
                                    for t in specials + ["<mask>"]],
                   "normalizer": None,
                   "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False,
                                     "trim_offsets": True, "use_regex": True},
                   "post_processor": {"type": "RobertaProcessing", "sep": ["</s>", 2],
                                      "cls": ["<s>", 0], "trim_offsets": True,
                                      "add_prefix_space": False},
                   "decoder": {"type": "ByteLevel", "add_prefix_space": True,
                               "trim_offsets": True, "use_regex": True},
                   "model": {"type": "BPE", "dropout": None, "unk_token": None,
                             "continuing_subword_prefix": "", "end_of_word_suffix": "",
                             "fuse_unk": False, "byte_fallback": False, "vocab": ids,
                             "merges": [f"{a} {b}" for a, b in merges]}},
                  f, ensure_ascii=False)
    torch.manual_seed(0)
    model = RobertaForSequenceClassification(len(vocab), pad, len(labels)).double()
    randomise(model, torch.Generator().manual_seed(20261206))
    tiny_bert.write_safetensors(os.path.join(out, "model.safetensors"), model.state_dict())

    def encode(text):
        return [ids.get(p, ids["<unk>"]) for tok in pre_tokenize(text) for p in bpe(tok, ranks)]

    seqs = [[ids["<s>"]] + encode(t) + [ids["</s>"]] for t in TEXTS]
    write_goldens(os.path.join(out, "goldens.json"), model, seqs, pad, labels, TEXTS)
    cases = [{"text": t, "pieces": [p for tok in pre_tokenize(t) for p in bpe(tok, ranks)],
              "ids": encode(t)} for t in BPE_CASES]
    with open(os.path.join(out, "tokenizer_goldens.json"), "w") as f:
        json.dump({"cases": cases}, f, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    distilbert()
    roberta()
