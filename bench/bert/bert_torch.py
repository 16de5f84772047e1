#!/usr/bin/python3
"""The same BERT-base equations in PyTorch CPU (float32, no autograd) for bench/bert/run.sh.

Prints one JSON line of medians (ms): a 128-token and a 32-token sequence, and SynEval's
masked-LM pass for a 30-token sentence (30 masked copies of 32 tokens in one batch, MLM head
at the masked positions only). Usage: bert_torch.py THREADS REPS
"""
import json
import math
import sys
import time

import torch
import torch.nn.functional as F

H, L, NH, I, V, P = 768, 12, 12, 3072, 30522, 512


def weights():
    g = torch.Generator().manual_seed(20220718)

    def r(*shape, off=0.0, s=0.05):
        return off + s * (2 * torch.rand(*shape, generator=g) - 1)

    w = {"word": r(V, H), "pos": r(P, H), "type": r(2, H), "ln": (r(H, off=1.0, s=0.1), r(H, s=0.1)),
         "layers": [], "mlm": (r(H, H), r(H)), "mlm_ln": (r(H, off=1.0, s=0.1), r(H, s=0.1)),
         "bias": r(V)}
    for _ in range(L):
        w["layers"].append({"qkv": (r(3 * H, H), r(3 * H)), "o": (r(H, H), r(H)),
                            "ln1": (r(H, off=1.0, s=0.1), r(H, s=0.1)),
                            "f1": (r(I, H), r(I)), "f2": (r(H, I), r(H)),
                            "ln2": (r(H, off=1.0, s=0.1), r(H, s=0.1))})
    return w


def encode(w, ids):
    B, T = ids.shape
    d = H // NH
    x = F.layer_norm(w["word"][ids] + w["pos"][:T] + w["type"][0], (H,), *w["ln"], eps=1e-12)
    for lw in w["layers"]:
        q, k, v = F.linear(x, *lw["qkv"]).view(B, T, 3, NH, d).permute(2, 0, 3, 1, 4)
        p = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d), dim=-1)
        ctx = (p @ v).transpose(1, 2).reshape(B, T, H)
        x = F.layer_norm(F.linear(ctx, *lw["o"]) + x, (H,), *lw["ln1"], eps=1e-12)
        x = F.layer_norm(F.linear(F.gelu(F.linear(x, *lw["f1"])), *lw["f2"]) + x, (H,),
                         *lw["ln2"], eps=1e-12)
    return x


def median_ms(reps, fn):
    fn()
    t = []
    for _ in range(reps):
        a = time.perf_counter()
        fn()
        t.append((time.perf_counter() - a) * 1000)
    return sorted(t)[len(t) // 2]


def main():
    threads, reps = int(sys.argv[1]), int(sys.argv[2])
    torch.set_num_threads(threads)
    w = weights()
    g = torch.Generator().manual_seed(7)
    s128 = torch.randint(1000, 30000, (1, 128), generator=g)
    s32 = torch.randint(1000, 30000, (1, 32), generator=g)
    sent = torch.randint(1000, 30000, (32,), generator=g)
    copies = sent.repeat(30, 1)
    pos = torch.arange(1, 31)
    copies[torch.arange(30), pos] = 103

    def syneval():
        x = encode(w, copies)[torch.arange(30), pos]
        t = F.layer_norm(F.gelu(F.linear(x, *w["mlm"])), (H,), *w["mlm_ln"], eps=1e-12)
        probs = torch.softmax(F.linear(t, w["word"], w["bias"]), dim=-1)
        return probs[torch.arange(30), sent[pos]]

    with torch.no_grad():
        e128 = median_ms(reps, lambda: encode(w, s128))
        e32 = median_ms(reps, lambda: encode(w, s32))
        syn = median_ms(max(3, reps // 2), syneval)
    print(json.dumps({"impl": "torch", "version": torch.__version__, "threads": threads, "reps": reps,
                      "encode128_ms": round(e128, 2), "encode32_ms": round(e32, 2),
                      "syneval30_ms": round(syn, 2)}))


if __name__ == "__main__":
    main()
