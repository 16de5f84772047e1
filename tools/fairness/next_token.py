#!/usr/bin/env python3
"""The perturbed noun's right neighbour as the Lingua tagger reads it.

    assay fair perturb --input rt.txt --out p.jsonl --no-dropped
    assay text tag --input rt.txt --out tags.jsonl
    python3 tools/fairness/next_token.py p.jsonl tags.jsonl [--list active|analogy]

Counts perturbations by kind and by whether the token after the perturbed noun is a common
noun (nn, nns); with --list, prints those of that kind followed by a common noun (line, old
word, the next word, the perturbed text around the change) for reading by hand. Both files must
come from the same input file (the perturbation's `line` indexes the tagged lines); spans are
in code points, the tagger's offsets in bytes.
"""
import json
import sys


def char_offsets(text, byte_offsets):
    raw = text.encode("utf-8")
    return [len(raw[:b].decode("utf-8", "replace")) for b, _ in byte_offsets]


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    listing = argv[4] if len(argv) > 4 and argv[3] == "--list" else None
    tagged = [json.loads(line) for line in open(argv[2], encoding="utf-8")]
    counts = {}
    for line in open(argv[1], encoding="utf-8"):
        r = json.loads(line)
        if not r.get("perturbations"):
            continue
        t = tagged[r["line"] - 1]
        starts = char_offsets(t["text"], t["offsets"])
        for p in r["perturbations"]:
            span = next(s for s in p["spans"] if s["old"] == p["old"])
            i = starts.index(span["begin"]) if span["begin"] in starts else None
            if i is None:
                cls = "unaligned"
            elif i + 1 < len(starts) and t["tags"][i + 1] in ("nn", "nns"):
                cls = "common noun"
                if p["kind"] == listing:
                    b = span["begin"]
                    print("%d\t%s\t%s\t%s" % (r["line"], p["old"], t["tokens"][i + 1],
                                              p["text"][max(0, b - 30):b + len(span["new"]) + 30]))
            else:
                cls = "other"
            counts[p["kind"], cls] = counts.get((p["kind"], cls), 0) + 1
    if listing:
        return
    print("| next token | " + " | ".join(k for k in ("active", "analogy")) + " |")
    print("|---|---|---|")
    for cls in ("common noun", "other", "unaligned"):
        print("| %s | %s |" % (cls, " | ".join(
            "%d (%.1f %%)" % (counts.get((k, cls), 0), 100.0 * counts.get((k, cls), 0) /
                              max(1, sum(v for (kk, _), v in counts.items() if kk == k)))
            for k in ("active", "analogy"))))


if __name__ == "__main__":
    main(sys.argv)
