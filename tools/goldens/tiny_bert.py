#!/usr/bin/python3
"""Generates the tiny random BERT under tests/data/lm/bert/ and its goldens.

Run with Debian's interpreter: /usr/bin/python3 tools/goldens/tiny_bert.py
Needs python3-torch (1.13); nothing else. Writes:
  tests/data/lm/bert/{config.json,vocab.txt,model.safetensors}   BertForPreTraining naming
      ("bert." prefix, legacy LayerNorm gamma/beta, MLM head with the decoder tied, an I64
      position_ids buffer as real checkpoints carry), float32;
  tests/data/lm/bert/simcse/{config.json,vocab.txt,model.safetensors}  BertModel naming (no
      prefix, LayerNorm weight/bias, pooler, no MLM head), the same weights stored as F16;
  tests/data/lm/bert/goldens.json        hidden states, pooled output, MLM logits;
  tests/data/lm/bert/tokenizer_goldens.json  BasicTokenizer and WordPiece outputs.

The forward pass below is written from the BERT equations (not transformers' code; the
package is not installed here) and runs in float64. The tokenizer is a line-by-line
reimplementation of Hugging Face's BasicTokenizer and WordpieceTokenizer
(transformers/models/bert/tokenization_bert.py, v4.3x: clean_text, CJK spacing, NFC,
whitespace split, lower + NFD accent stripping, punctuation split, greedy longest match,
max_input_chars_per_word=100), since HF's BertTokenizer itself cannot be run here.
"""
import json
import math
import os
import struct
import unicodedata

import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "data", "lm", "bert")

# ---------------------------------------------------------------- vocabulary
SPECIAL = ["[PAD]"] + [f"[unused{i}]" for i in range(5)] + ["[UNK]", "[CLS]", "[SEP]", "[MASK]"]
PUNCT = list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~") + ["\u2014", "\u00bf", "\u3002"]
LETTERS = [chr(c) for c in range(ord("a"), ord("z") + 1)]
DIGITS = [str(d) for d in range(10)]
WORDS = """the a an is was be it this that not very good bad great terrible movie film story
plot actor actress and of to in on for with but like likes liked hello world un i m don t s
naive cafe resume istanbul token tab new line fine sad happy funny boring love hate he she
they we you my his her one two best worst ever never really quite so too much more most
make made makes time people life man woman boy girl day night well just can will would
could should about what who how all some any no yes here there up down out over under""".split()
SUFFIXES = ["##happy", "##aff", "##able", "##ing", "##ed", "##s", "##ly", "##er", "##est",
            "##n", "##id", "##ful", "##ness", "##ment", "##tion", "##ive"]
CJK = ["中", "国", "人", "日", "本", "語"]


def build_vocab():
    vocab = SPECIAL + PUNCT + LETTERS + DIGITS + WORDS + SUFFIXES + CJK
    vocab += ["##" + c for c in LETTERS] + ["##" + d for d in DIGITS]
    seen, out = set(), []
    for t in vocab:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


# ---------------------------------------------------------------- HF tokenizer semantics
def _is_whitespace(ch):
    if ch in (" ", "\t", "\n", "\r"):
        return True
    return unicodedata.category(ch) == "Zs"


def _is_control(ch):
    if ch in ("\t", "\n", "\r"):
        return False
    return unicodedata.category(ch).startswith("C")


def _is_punctuation(ch):
    cp = ord(ch)
    if (33 <= cp <= 47) or (58 <= cp <= 64) or (91 <= cp <= 96) or (123 <= cp <= 126):
        return True
    return unicodedata.category(ch).startswith("P")


def _is_chinese_char(cp):
    return ((0x4E00 <= cp <= 0x9FFF) or (0x3400 <= cp <= 0x4DBF) or (0x20000 <= cp <= 0x2A6DF)
            or (0x2A700 <= cp <= 0x2B73F) or (0x2B740 <= cp <= 0x2B81F)
            or (0x2B820 <= cp <= 0x2CEAF) or (0xF900 <= cp <= 0xFAFF)
            or (0x2F800 <= cp <= 0x2FA1F))


def whitespace_tokenize(text):
    text = text.strip()
    return text.split() if text else []


NEVER_SPLIT = {"[UNK]", "[SEP]", "[PAD]", "[CLS]", "[MASK]"}


def basic_tokenize(text, lower=True):
    """HF BasicTokenizer; lower=False is do_lower_case=False with strip_accents unset (no
    lower-casing, no accent stripping)."""
    out = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or _is_control(ch):
            continue
        out.append(" " if _is_whitespace(ch) else ch)
    text = "".join(out)
    out = []
    for ch in text:
        if _is_chinese_char(ord(ch)):
            out += [" ", ch, " "]
        else:
            out.append(ch)
    text = unicodedata.normalize("NFC", "".join(out))
    split_tokens = []
    for token in whitespace_tokenize(text):
        if token not in NEVER_SPLIT:
            if lower:
                token = token.lower()
                token = "".join(c for c in unicodedata.normalize("NFD", token)
                                if unicodedata.category(c) != "Mn")
            pieces, start_new = [], True
            for ch in token:
                if _is_punctuation(ch):
                    pieces.append([ch])
                    start_new = True
                else:
                    if start_new:
                        pieces.append([])
                    start_new = False
                    pieces[-1].append(ch)
            split_tokens.extend("".join(p) for p in pieces)
        else:
            split_tokens.append(token)
    return whitespace_tokenize(" ".join(split_tokens))


def wordpiece(token, vocab_set):
    chars = list(token)
    if len(chars) > 100:
        return ["[UNK]"]
    out, start = [], 0
    while start < len(chars):
        end, cur = len(chars), None
        while start < end:
            sub = "".join(chars[start:end])
            if start > 0:
                sub = "##" + sub
            if sub in vocab_set:
                cur = sub
                break
            end -= 1
        if cur is None:
            return ["[UNK]"]
        out.append(cur)
        start = end
    return out


def tokenize(text, vocab_set, lower=True):
    return [p for w in basic_tokenize(text, lower) for p in wordpiece(w, vocab_set)]


TOKENIZER_CASES = [
    "Héllo, Wörld!",
    "naïve café résumé",
    "I'm unhappy.",
    "unaffable",
    "The movie wasn't good...",
    "中国人 likes 日本語!",
    "[MASK] is a token [SEP]",
    "x" * 100,
    "x" * 101,
    "tab\tnew\nline\r\x00\x07z\u200bz",
    "non\u00a0breaking  spaces   here ",
    "\u0130stanbul",
    "\u03a3\u038a\u03a3\u03a5\u03a6\u039f\u03a3",
    "e\u0301",
    "\uff21\uff22\uff23",
    "$5.00 & 100% 5\u20ac",
    "well\u2014quite",
    "\u00bfhow?\u3002",
    "happy \U0001F600 day",
    "hello\u2028world",
    "ﬁne",
    "",
    "   ",
    "goodness boringly happiest",
]


# ---------------------------------------------------------------- safetensors writer
def write_safetensors(path, tensors, dtype_name="F32"):
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name, t in tensors.items():
        if t.dtype == torch.int64:
            dt, raw = "I64", t.contiguous().numpy().tobytes()
        elif dtype_name == "F16":
            dt, raw = "F16", t.to(torch.float16).contiguous().numpy().tobytes()
        else:
            dt, raw = "F32", t.to(torch.float32).contiguous().numpy().tobytes()
        header[name] = {"dtype": dt, "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)  # aligned data, as the reference writer does
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


# ---------------------------------------------------------------- model
CONFIG = {"architectures": ["BertForPreTraining"], "model_type": "bert", "vocab_size": None,
          "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
          "intermediate_size": 64, "hidden_act": "gelu", "max_position_embeddings": 64,
          "type_vocab_size": 2, "layer_norm_eps": 1e-12, "hidden_dropout_prob": 0.1,
          "attention_probs_dropout_prob": 0.1, "initializer_range": 0.02, "pad_token_id": 0}


def make_weights(cfg, gen):
    H, I, V = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    P, T = cfg["max_position_embeddings"], cfg["type_vocab_size"]

    def rnd(*shape, std=0.2):
        return torch.randn(*shape, generator=gen, dtype=torch.float64) * std

    def ln():
        return 1.0 + rnd(H, std=0.1), rnd(H, std=0.1)

    w = {"word": rnd(V, H, std=0.5), "pos": rnd(P, H, std=0.3), "type": rnd(T, H, std=0.3)}
    w["emb_ln"] = ln()
    w["layers"] = []
    for _ in range(cfg["num_hidden_layers"]):
        layer = {}
        for k in ("q", "k", "v", "o"):
            layer[k] = (rnd(H, H, std=0.25), rnd(H, std=0.1))
        layer["ln1"] = ln()
        layer["ffn1"] = (rnd(I, H, std=0.25), rnd(I, std=0.1))
        layer["ffn2"] = (rnd(H, I, std=0.2), rnd(H, std=0.1))
        layer["ln2"] = ln()
        w["layers"].append(layer)
    w["pooler"] = (rnd(H, H, std=0.25), rnd(H, std=0.1))
    w["mlm_dense"] = (rnd(H, H, std=0.25), rnd(H, std=0.1))
    w["mlm_ln"] = ln()
    w["mlm_bias"] = rnd(V, std=0.1)
    return w


def round_f16(w):
    if isinstance(w, torch.Tensor):
        return w.to(torch.float16).to(torch.float64)
    if isinstance(w, tuple):
        return tuple(round_f16(x) for x in w)
    if isinstance(w, list):
        return [round_f16(x) for x in w]
    return {k: round_f16(v) for k, v in w.items()}


def names_pretraining(w):
    t = {"bert.embeddings.position_ids": torch.arange(CONFIG["max_position_embeddings"]).unsqueeze(0)}
    t["bert.embeddings.word_embeddings.weight"] = w["word"]
    t["bert.embeddings.position_embeddings.weight"] = w["pos"]
    t["bert.embeddings.token_type_embeddings.weight"] = w["type"]
    t["bert.embeddings.LayerNorm.gamma"], t["bert.embeddings.LayerNorm.beta"] = w["emb_ln"]
    for i, L in enumerate(w["layers"]):
        p = f"bert.encoder.layer.{i}."
        for k, n in (("q", "query"), ("k", "key"), ("v", "value")):
            t[p + f"attention.self.{n}.weight"], t[p + f"attention.self.{n}.bias"] = L[k]
        t[p + "attention.output.dense.weight"], t[p + "attention.output.dense.bias"] = L["o"]
        t[p + "attention.output.LayerNorm.gamma"], t[p + "attention.output.LayerNorm.beta"] = L["ln1"]
        t[p + "intermediate.dense.weight"], t[p + "intermediate.dense.bias"] = L["ffn1"]
        t[p + "output.dense.weight"], t[p + "output.dense.bias"] = L["ffn2"]
        t[p + "output.LayerNorm.gamma"], t[p + "output.LayerNorm.beta"] = L["ln2"]
    t["bert.pooler.dense.weight"], t["bert.pooler.dense.bias"] = w["pooler"]
    t["cls.predictions.transform.dense.weight"], t["cls.predictions.transform.dense.bias"] = w["mlm_dense"]
    t["cls.predictions.transform.LayerNorm.gamma"], t["cls.predictions.transform.LayerNorm.beta"] = w["mlm_ln"]
    t["cls.predictions.bias"] = w["mlm_bias"]
    return t


def names_simcse(w):
    t = {}
    for name, v in names_pretraining(w).items():
        if name.startswith("cls.") or name.endswith("position_ids"):
            continue
        name = name[len("bert."):].replace("LayerNorm.gamma", "LayerNorm.weight").replace(
            "LayerNorm.beta", "LayerNorm.bias")
        t[name] = v
    return t


def layer_norm(x, g, b, eps):
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps) * g + b


def gelu(x):
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


def forward(w, cfg, ids, lengths):
    """BERT equations; ids [B, T] (padded), attention mask from lengths, token type 0."""
    B, T = ids.shape
    H, nh = cfg["hidden_size"], cfg["num_attention_heads"]
    d, eps = H // nh, cfg["layer_norm_eps"]
    x = w["word"][ids] + w["pos"][:T].unsqueeze(0) + w["type"][0]
    x = layer_norm(x, *w["emb_ln"], eps)
    mask = torch.zeros(B, 1, 1, T, dtype=torch.float64)
    for b, n in enumerate(lengths):
        mask[b, 0, 0, n:] = torch.finfo(torch.float64).min  # HF's additive mask
    for L in w["layers"]:
        def proj(key, inp):
            W, bias = L[key]
            return inp @ W.T + bias
        q, k, v = (proj(key, x).view(B, T, nh, d).transpose(1, 2) for key in ("q", "k", "v"))
        s = q @ k.transpose(-1, -2) / math.sqrt(d) + mask
        ctx = (torch.softmax(s, dim=-1) @ v).transpose(1, 2).reshape(B, T, H)
        x = layer_norm(proj("o", ctx) + x, *L["ln1"], eps)
        h1 = gelu(proj("ffn1", x))
        x = layer_norm(proj("ffn2", h1) + x, *L["ln2"], eps)
    pooled = torch.tanh(x[:, 0] @ w["pooler"][0].T + w["pooler"][1])
    t = layer_norm(gelu(x @ w["mlm_dense"][0].T + w["mlm_dense"][1]), *w["mlm_ln"], eps)
    logits = t @ w["word"].T + w["mlm_bias"]  # decoder tied to the word embeddings
    return x, pooled, logits


SENTENCES = ["The movie was very good.", "I didn't like this terrible film!", "Hello world",
             "She is a great actress, and the plot never makes sense."]


def flat(t):
    return [float(f"{v:.9g}") for v in t.reshape(-1).tolist()]


def levenshtein_edits(a, b):
    """Same DP and tie-breaking as src/aeon/levenshtein_alignment.cc (match/substitute, then
    delete, then insert, backtracking from the end)."""
    n, m = len(a), len(b)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), d[i - 1][j] + 1, d[i][j - 1] + 1)
    i, j, edits = n, m, []
    while i > 0 or j > 0:
        if i > 0 and j > 0 and d[i][j] == d[i - 1][j - 1] + (a[i - 1] != b[j - 1]):
            if a[i - 1] != b[j - 1]:
                edits.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif i > 0 and d[i][j] == d[i - 1][j] + 1:
            edits.append((i - 1, j))
            i -= 1
        else:
            edits.append((i, j - 1))
            j -= 1
    return edits[::-1]


def patches(edits, la, lb, r=2):
    out = []
    for i, j in edits:
        p = [max(i - r, 0), min(i + r, la), max(j - r, 0), min(j + r, lb)]
        if out and (p[0] < out[-1][1] or p[2] < out[-1][3]):
            out[-1][1] = max(out[-1][1], p[1])
            out[-1][3] = max(out[-1][3], p[3])
        else:
            out.append(p)
    return out


def cos(u, v):
    return float((u @ v) / torch.sqrt((u @ u) * (v @ v)))


def semeval(w, cfg, vocab, a_text, b_text, paper):
    """AEON SemEval on single-sentence texts with the pooled output as the embedding."""
    vs = set(vocab)
    cls, sep = vocab.index("[CLS]"), vocab.index("[SEP]")
    a = [vocab.index(t) for t in tokenize(a_text, vs)]
    b = [vocab.index(t) for t in tokenize(b_text, vs)]

    def run(seqs):
        seqs = [[cls] + s + [sep] for s in seqs]
        T = max(len(s) for s in seqs)
        ids = torch.tensor([s + [0] * (T - len(s)) for s in seqs])
        return forward(w, cfg, ids, [len(s) for s in seqs])

    x, pooled, _ = run([a, b])
    whole = cos(pooled[0], pooled[1])
    pcs = []
    for p in patches(levenshtein_edits(a, b), len(a), len(b)):
        if paper:
            pcs.append(cos(x[0, 1 + p[0]:1 + p[1]].mean(0), x[1, 1 + p[2]:1 + p[3]].mean(0)))
        else:
            _, pp, _ = run([a[p[0]:p[1]], b[p[2]:p[3]]])
            pcs.append(cos(pp[0], pp[1]))
    if not pcs:
        return whole
    return 0.1 * min(pcs) + 0.2 * sum(pcs) / len(pcs) + 0.7 * whole


def syneval_probs(w, cfg, vocab, sentence):
    vs = set(vocab)
    ids = [vocab.index("[CLS]")] + [vocab.index(t) for t in tokenize(sentence, vs)] + [vocab.index("[SEP]")]
    copies = []
    for p in range(1, len(ids) - 1):
        c = list(ids)
        c[p] = vocab.index("[MASK]")
        copies.append(c)
    _, _, logits = forward(w, cfg, torch.tensor(copies), [len(ids)] * len(copies))
    return [float(torch.softmax(logits[k, k + 1], -1)[ids[k + 1]]) for k in range(len(copies))]


SEMEVAL_PAIRS = [("the movie was very good", "the film was very good"),
                 ("she is a great actress", "she is a really great actress and"),
                 ("i liked this film , it was funny", "i hated this film , it was boring")]
SYNEVAL_SENTENCES = ["The movie was very good.", "Hello world"]


def main():
    vocab = build_vocab()
    vocab_set = set(vocab)
    cfg = dict(CONFIG, vocab_size=len(vocab))
    os.makedirs(os.path.join(OUT, "simcse"), exist_ok=True)
    for d in (OUT, os.path.join(OUT, "simcse")):
        with open(os.path.join(d, "vocab.txt"), "w") as f:
            f.write("\n".join(vocab) + "\n")
        c = dict(cfg)
        if d != OUT:
            c["architectures"] = ["BertModel"]
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(c, f, indent=2)
    gen = torch.Generator().manual_seed(20220718)
    w = make_weights(cfg, gen)
    write_safetensors(os.path.join(OUT, "model.safetensors"), names_pretraining(w))
    write_safetensors(os.path.join(OUT, "simcse", "model.safetensors"), names_simcse(w), "F16")
    # The C++ side reads float32 (or F16) weights: the reference uses the same rounded values.
    def to32(x):
        if isinstance(x, torch.Tensor):
            return x.to(torch.float32).to(torch.float64)
        if isinstance(x, tuple):
            return tuple(to32(y) for y in x)
        if isinstance(x, list):
            return [to32(y) for y in x]
        return {k: to32(v) for k, v in x.items()}
    w32 = to32(w)
    w16 = round_f16(w)

    ids = {s: [vocab.index("[CLS]")] + [vocab.index(p) for p in tokenize(s, vocab_set)] +
           [vocab.index("[SEP]")] for s in SENTENCES}
    batches = [[SENTENCES[0]], SENTENCES]  # a single sequence and a padded batch
    golden = {"sentences": [{"text": s, "ids": ids[s]} for s in SENTENCES], "batches": []}
    for batch in batches:
        seqs = [ids[s] for s in batch]
        T = max(len(s) for s in seqs)
        padded = torch.tensor([s + [0] * (T - len(s)) for s in seqs])
        lengths = [len(s) for s in seqs]
        x, pooled, logits = forward(w32, cfg, padded, lengths)
        positions = [[b, p] for b in range(len(seqs)) for p in range(lengths[b])]
        mlm = torch.stack([logits[b, p] for b, p in positions])
        x16, pooled16, _ = forward(w16, cfg, padded, lengths)
        golden["batches"].append({"seqs": seqs, "seq_len": T, "hidden": flat(x), "pooled": flat(pooled),
                                  "mlm_positions": positions, "mlm_logits": flat(mlm),
                                  "simcse_f16_hidden": flat(x16), "simcse_f16_pooled": flat(pooled16)})
    golden["semeval"] = [{"original": a, "generated": b, "reference": semeval(w32, cfg, vocab, a, b, False),
                          "paper": semeval(w32, cfg, vocab, a, b, True)} for a, b in SEMEVAL_PAIRS]
    golden["syneval"] = [{"sentence": s, "probs": syneval_probs(w32, cfg, vocab, s)} for s in SYNEVAL_SENTENCES]
    with open(os.path.join(OUT, "goldens.json"), "w") as f:
        json.dump(golden, f)
    cases = [{"text": t, "basic": basic_tokenize(t), "wordpiece": tokenize(t, vocab_set)}
             for t in TOKENIZER_CASES]
    with open(os.path.join(OUT, "tokenizer_goldens.json"), "w") as f:
        json.dump({"cases": cases}, f, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
