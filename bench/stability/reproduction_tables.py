#!/usr/bin/env python3
"""Markdown tables of docs/stability-reproduction.md from a campaign's summary.json.

usage: reproduction_tables.py OUT_DIR/summary.json
Prints: the paper's figures beside ours (with Welch's p, as the paper's tables were read),
every cell's mean Top Out with its ratio (`*`: Welch p < 0.05, uncorrected), the noise floor,
and per oracle the findings of the rank-sum test against those Welch's t-test would give (both
after Holm's correction), with every cell on which they disagree. Standard library only.
"""
import json
import sys


def fmt(x):
    return "n/a" if x is None else f"{x:.4g}"


def main():
    s = json.load(open(sys.argv[1]))
    cells = {}
    for c in s["cells"]:
        if c["oracle"] == "top-out":
            cells[(c["algorithm"], c["heuristic"], c["size"])] = c

    def ratio(c):
        if c["baseline_zero"]:
            return "baseline 0"
        return f"{fmt(c['ratio'])}×"

    print(f"Campaign: seed {s['seed']}, {s['runs']} runs, {s['trials_per_cell']} trials per cell, "
          f"complete: {s['complete']}.\n")
    paper_ratios = [("AMR", "user-user", 1, "128×"), ("AMR", "funk-svd", 10, ">40000×"),
                    ("CMU", "item-item", 100, "13.4×")]
    paper_means = [("APORTFOLIO", "user-user", 10, 0.0356), ("APORTFOLIO", "user-user", 100, 0.258),
                   ("APORTFOLIO", "funk-svd", 10, 0.131), ("APORTFOLIO", "funk-svd", 100, 0.769),
                   ("APORTFOLIO", "hybrid", 10, 0.0125), ("APORTFOLIO", "hybrid", 100, 0.0177),
                   ("APORTFOLIO", "item-item", 10, 0.000244),
                   ("APORTFOLIO", "item-item", 100, 0.00865),
                   ("ARAND", "user-user", 10, 0.00297), ("ARAND", "user-user", 100, 0.0313),
                   ("ARAND", "funk-svd", 10, 0.000011), ("ARAND", "funk-svd", 100, 0.0534)]
    print("| figure | paper | ours: mean ± sd (trials) | ours: ratio to baseline, Welch p |")
    print("|---|---:|---:|---:|")
    for h, a, n, paper in paper_ratios:
        c = cells.get((a, h, n))
        if c:
            print(f"| {h} on {a}, n={n}, ratio to {c['baseline']} | {paper} | "
                  f"{fmt(c['mean'])} ± {fmt(c['sd'])} ({c['trials']}) | {ratio(c)}, p {fmt(c['p_welch'])} |")
    for h, a, n, paper in paper_means:
        c = cells.get((a, h, n))
        if c:
            label = "hybrid (LightFM)" if a == "hybrid" else a
            print(f"| {h} Top Out, {label}, n={n} | {paper} | "
                  f"{fmt(c['mean'])} ± {fmt(c['sd'])} ({c['trials']}) | {ratio(c)}, p {fmt(c['p_welch'])} |")

    print("\n| algorithm | heuristic | n=1 | n=10 | n=100 |")
    print("|---|---|---:|---:|---:|")
    for a in s["algorithms"]:
        for h in s["heuristics"]:
            row = []
            for n in s["sizes"]:
                c = cells.get((a, h, n))
                if c is None:
                    row.append("")
                    continue
                r = "b0" if c["baseline_zero"] else f"{fmt(c['ratio'])}×"
                star = "*" if c["p_welch"] is not None and c["p_welch"] < 0.05 and h not in (
                    "ARAND", "RRAND", "CRAND") else ""
                row.append(f"{fmt(c['mean'])} ({r}{star})")
            print(f"| {a} | {h} | " + " | ".join(row) + " |")

    print("\n| algorithm | retrainings | Top Out | Jaccard | AOD | RBO |")
    print("|---|---:|---:|---:|---:|---:|")
    for f in s["noise_floor"]:
        print(f"| {f['algorithm']} | {f['trials']} | {fmt(f['top-out'])} | {fmt(f['jaccard'])} | "
              f"{fmt(f['aod'])} | {fmt(f['rbo'])} |")

    # Findings after Holm's correction: the rank-sum test (the report's) against Welch's.
    def welch_finding(c):
        return (c["p_welch_holm"] is not None and c["p_welch_holm"] < 0.05
                and c["mean"] > c["baseline_mean"])

    print("\n| oracle | targeted cells | rank-sum findings | Welch findings | both | rank-sum only "
          "| Welch only |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    disagree = []
    for o in ("top-out", "jaccard", "aod", "rbo"):
        targeted = [c for c in s["cells"] if c["oracle"] == o and c["baseline"] is not None
                    and c["heuristic"] not in ("ARAND", "RRAND", "CRAND")]
        rank = {id(c) for c in targeted if c["finding"]}
        welch = {id(c) for c in targeted if welch_finding(c)}
        print(f"| {o} | {sum(c['p'] is not None for c in targeted)} | {len(rank)} | {len(welch)} "
              f"| {len(rank & welch)} | {len(rank - welch)} | {len(welch - rank)} |")
        disagree += [c for c in targeted if (id(c) in rank) != (id(c) in welch)]
    if disagree:
        print("\n| oracle | algorithm | heuristic | n | mean | baseline | P(above) | rank-sum Holm p "
              "| Welch Holm p |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|")
        for c in disagree:
            print(f"| {c['oracle']} | {c['algorithm']} | {c['heuristic']} | {c['size']} | "
                  f"{fmt(c['mean'])} | {fmt(c['baseline_mean'])} | {fmt(c['superiority'])} | "
                  f"{fmt(c['p_holm'])} | {fmt(c['p_welch_holm'])} |")


if __name__ == "__main__":
    main()
