#!/usr/bin/python3
"""Samples perturbations of real corpora for judging by eye, as rows of
tests/data/fairness/gender-judged/sampled.tsv or attribute-judged/<attribute>-sampled.tsv (the
tests GenderJudged.SampledFromCorpora and AttributeJudged.SampledFromCorpora read them; the
judging rule is in docs/fairness.md, "Judged sets").

    /usr/bin/python3 tools/judged/sample.py ASSAY SHARED_DATA OUT_DIR [--seed N]
        [--per-corpus N] [--attribute NAME] [--kind KIND] [--exclude JUDGED_TSV]...
        [--again JUDGED_TSV] [--corpus judged|held-out|fortunes|wordnet|mail|everyday|everyday-2]

For each corpus (rt-polarity's two files, SST-2's dev sentences, the IMDB sample; with --corpus
held-out, SST-2's labelled test sentences, which no judged set was drawn from; with --corpus
fortunes, wordnet or mail, the sentences tools/judged/corpora.py wrote to data/corpora/ from
text of other kinds, and with everyday and everyday-2 the hand-written tests/data/fairness/domains/everyday*.txt)
the lines are
shuffled with the seed and perturbed with `ASSAY fair perturb` (default options, --attribute,
default gender), and inputs are taken in shuffled order while they have perturbations (with
--kind, a perturbation of that kind: group, analogy, active, name), until the corpus has given
at least --per-corpus perturbations; every perturbation of a taken input is kept, so the test
can count precision over all that the perturbator makes of them. With --exclude, inputs (source
and line) already in that judged file are passed over, so that a second sample is new text.
With --again JUDGED_TSV, no sample is drawn: the inputs of that file (of the --corpus sources)
are perturbed again and only the perturbations the file does not judge yet are written, for
judging after the perturbator changed.
Writes:
  OUT_DIR/rows.tsv     source, line, changes, "?" and "?" — the verdict and the one-word
                       reason are filled in by the judge;
  OUT_DIR/review.txt   each input and its perturbations with the changed words marked, for
                       reading (not to be committed: the corpora may not be redistributed).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

CORPORA = [
    # source under ../shared/data, how a line is read
    ("rt-polarity-v1.0/rt-polarity.pos", "line"),
    ("rt-polarity-v1.0/rt-polarity.neg", "line"),
    ("sst2-glue/dev.tsv", "tsv"),
    ("imdb-sample/imdb_seeds.txt", "line"),
]
# Text none of the judged sets was drawn from, for a second sample (--corpus held-out): SST-2's
# labelled test sentences (label first, then the text).
HELD_OUT = [("sst2-glue/test-labeled.tsv", "label-tsv")]
# Text of other kinds than film reviews: a source "corpora/NAME.txt" is under the repository's
# data/ (made by tools/judged/corpora.py), "domains/NAME.txt" under tests/data/fairness/.
DOMAINS = {name: [("corpora/%s.txt" % name, "line")] for name in ("fortunes", "wordnet", "mail")}
DOMAINS["everyday"] = [("domains/everyday.txt", "line")]
# A second set of everyday text, written by someone who had read none of the rules.
DOMAINS["everyday-2"] = [("domains/everyday-2.txt", "line")]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def source_path(shared, source):
    if source.startswith("corpora/"):
        return os.path.join(ROOT, "data", source)
    if source.startswith("domains/"):
        return os.path.join(ROOT, "tests", "data", "fairness", source)
    return os.path.join(shared, source)


def read_lines(path, kind):
    with open(path, encoding="utf-8", newline="") as f:
        lines = [l.rstrip("\n").rstrip("\r") for l in f]
    out = []
    for n, line in enumerate(lines, 1):
        if kind == "tsv":
            if n == 1:
                continue  # header
            line = line.rsplit("\t", 1)[0]
        elif kind == "label-tsv":
            if n == 1:
                continue  # header
            line = line.split("\t", 1)[-1]
        if line.strip():
            out.append((n, line))
    return out


def signature(p):
    return "|".join("%d:%s>%s" % (s["begin"], s["old"], s["new"]) for s in p["spans"])


def marked(text, spans):
    out, at = [], 0
    for s in spans:
        out.append(text[at:s["begin"]])
        out.append("[%s→%s]" % (s["old"], s["new"]))
        at = s["end"]
    out.append(text[at:])
    return "".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("assay")
    ap.add_argument("shared")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--per-corpus", type=int, default=80)
    ap.add_argument("--attribute", default="gender")
    ap.add_argument("--kind", default=None)
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("--again", default=None)
    ap.add_argument("--corpus", choices=["judged", "held-out"] + sorted(DOMAINS), default="judged")
    a = ap.parse_args()
    judged, again, again_rows = set(), set(), set()
    for path in a.exclude + ([a.again] if a.again else []):
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.startswith("#") or not line.strip():
                    continue
                fields = line.rstrip("\n").split("\t")
                if len(fields) != 5 or not fields[1].isdigit():
                    print("%s:%d: expected source, line, changes, verdict, reason" % (path, n),
                          file=sys.stderr)
                    sys.exit(2)
                if path == a.again:
                    again.add((fields[0], int(fields[1])))
                    again_rows.add((fields[0], int(fields[1]), fields[2]))
                else:
                    judged.add((fields[0], int(fields[1])))
    os.makedirs(a.out, exist_ok=True)
    rows, review = [], []
    corpora = {"judged": CORPORA, "held-out": HELD_OUT}.get(a.corpus) or DOMAINS[a.corpus]
    for source, kind in corpora:
        lines = read_lines(source_path(a.shared, source), kind)
        if a.again:
            lines = [l for l in lines if (source, l[0]) in again]
        random.Random("%d %s" % (a.seed, source)).shuffle(lines)
        # rt-polarity's two files share the corpus' quota
        quota = a.per_corpus // 2 if source.startswith("rt-polarity") else a.per_corpus
        taken = 0
        for start in range(0, len(lines), 200):
            chunk = lines[start:start + 200]
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
                for _, text in chunk:
                    f.write(text.replace("\n", " ") + "\n")
                tmp = f.name
            out = tmp + ".jsonl"
            subprocess.run([a.assay, "fair", "perturb", "--input", tmp, "--out", out, "--quiet",
                            "--attribute", a.attribute], check=True)
            with open(out, encoding="utf-8") as f:
                records = [json.loads(l) for l in f]
            os.unlink(tmp)
            os.unlink(out)
            for (n, text), r in zip(chunk, records):
                if taken >= quota and not a.again:
                    break
                if a.again:
                    new = [p for p in r["perturbations"]
                           if (source, n, signature(p)) not in again_rows]
                    if new:
                        review.append("== %s:%d\n%s" % (source, n, text))
                    for p in new:
                        rows.append("%s\t%d\t%s\t?\t?" % (source, n, signature(p)))
                        review.append("  %s\t%s\n    %s" % (p["kind"], signature(p),
                                                           marked(text, p["spans"])))
                        taken += 1
                    continue
                if not r["perturbations"] or (source, n) in judged:
                    continue
                if a.kind and not any(p["kind"] == a.kind for p in r["perturbations"]):
                    continue
                review.append("== %s:%d\n%s" % (source, n, text))
                for p in r["perturbations"]:
                    rows.append("%s\t%d\t%s\t?\t?" % (source, n, signature(p)))
                    review.append("  %s\t%s\n    %s" % (p["kind"], signature(p), marked(text, p["spans"])))
                    taken += 1
            if taken >= quota and not a.again:
                break
        print("%s: %d perturbations" % (source, taken), file=sys.stderr)
    with open(os.path.join(a.out, "rows.tsv"), "w", encoding="utf-8") as f:
        f.write("\n".join(rows) + "\n")
    with open(os.path.join(a.out, "review.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(review) + "\n")


if __name__ == "__main__":
    main()
