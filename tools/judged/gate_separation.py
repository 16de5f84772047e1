#!/usr/bin/python3
"""How well the AEON gate's offline scores separate perturbations judged right from those judged
wrong: reads the sampled judged sets (tests/data/fairness/gender-judged/sampled.tsv and
attribute-judged/*-sampled.tsv), perturbs their inputs with `ASSAY fair perturb --gate aeon
--gate-action flag` (thresholds 0: every score is recorded, nothing dropped), joins each scored
perturbation with its verdict and prints, per score, the area under the ROC curve (the chance
that a right perturbation outscores a wrong one) and the share of right and of wrong
perturbations each threshold keeps.

    /usr/bin/python3 tools/judged/gate_separation.py ASSAY SHARED_DATA [--gate-model-dir DIR]

Run from the repository root (docs/fairness.md, "The AEON gate", gives the figures).
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile


def read_judged(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            source, n, changes, verdict, reason = line.rstrip("\n").split("\t")
            rows.append((source, int(n), changes, verdict))
    return rows


def corpus_line(shared, source, n):
    with open(os.path.join(shared, source), encoding="utf-8", newline="") as f:
        for k, line in enumerate(f, 1):
            if k == n:
                line = line.rstrip("\n").rstrip("\r")
                return line.rsplit("\t", 1)[0] if source.endswith(".tsv") else line
    raise SystemExit("%s: no line %d" % (source, n))


def signature(p):
    return "|".join("%d:%s>%s" % (s["begin"], s["old"], s["new"]) for s in p["spans"])


def auc(right, wrong):
    if not right or not wrong:
        return float("nan")
    wins = 0.0
    for r in right:
        for w in wrong:
            wins += 1.0 if r > w else 0.5 if r == w else 0.0
    return wins / (len(right) * len(wrong))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("assay")
    ap.add_argument("shared")
    ap.add_argument("--gate-model-dir", default=None)
    a = ap.parse_args()
    sets = [("gender", "tests/data/fairness/gender-judged/sampled.tsv")]
    for path in sorted(glob.glob("tests/data/fairness/attribute-judged/*-sampled.tsv")):
        sets.append((os.path.basename(path)[:-len("-sampled.tsv")], path))
    scores = {"SemEval": ([], []), "SynEval": ([], [])}
    per_set = []
    for attribute, path in sets:
        rows = read_judged(path)
        verdict = {(s, n, c): v for s, n, c, v in rows}
        inputs = []
        for s, n, _, _ in rows:
            if (s, n) not in inputs:
                inputs.append((s, n))
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "in.txt")
            with open(src, "w", encoding="utf-8") as f:
                for s, n in inputs:
                    f.write(corpus_line(a.shared, s, n) + "\n")
            out = os.path.join(tmp, "out.jsonl")
            cmd = [a.assay, "fair", "perturb", "--input", src, "--out", out, "--quiet",
                   "--no-dropped", "--attribute", attribute, "--gate", "aeon",
                   "--gate-action", "flag", "--gate-sim", "0", "--gate-nat", "0"]
            if a.gate_model_dir:
                cmd += ["--gate-model-dir", a.gate_model_dir]
            subprocess.run(cmd, check=True)
            with open(out, encoding="utf-8") as f:
                records = [json.loads(l) for l in f]
        n_right = n_wrong = 0
        for (s, n), r in zip(inputs, records):
            for p in r["perturbations"]:
                v = verdict.get((s, n, signature(p)))
                if v is None:
                    continue
                for name in scores:
                    scores[name][0 if v == "right" else 1].append(p["aeon"][name])
                n_right += v == "right"
                n_wrong += v == "wrong"
        per_set.append((attribute, n_right, n_wrong))
    for attribute, r, w in per_set:
        print("%s: %d right, %d wrong scored" % (attribute, r, w))
    print("| score | AUC | right kept / wrong kept at thresholds |")
    print("|---|---|---|")
    for name, (right, wrong) in scores.items():
        marks = []
        for q in (0.05, 0.10, 0.25, 0.50):
            t = sorted(right)[int(q * len(right))]
            kr = sum(x >= t for x in right) / len(right)
            kw = sum(x >= t for x in wrong) / len(wrong)
            marks.append("≥ %.4g: %.0f %% / %.0f %%" % (t, 100 * kr, 100 * kw))
        print("| %s | %.3f | %s |" % (name, auc(right, wrong), "; ".join(marks)))


if __name__ == "__main__":
    main()
