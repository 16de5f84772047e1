#!/usr/bin/python3
"""Rows of bench/scale/recsys_scale.sh and the log-log exponents fitted to them.
  scale_fit.py RESULTS.tsv : prints, per algorithm measured at two sizes or more, the
  least-squares slope of log CPU seconds and of log peak memory against log ratings.
A row is size, users, items, ratings, algorithm, wall_s, cpu_s, max_rss_mb separated by tabs;
a run stopped at the time limit has 'over Ns' for wall_s and 'over X' for cpu_s and max_rss_mb
(what it had used by then).
Lines equal to the header are skipped (outputs of several invocations may be concatenated).
Bad input: 'FILE:LINE: what was expected' on stderr, exit 2."""
import math
import sys
from typing import NamedTuple

HEADER = ["size", "users", "items", "ratings", "algorithm", "wall_s", "cpu_s", "max_rss_mb"]


class InputError(Exception):
    pass


class Row(NamedTuple):
    line: int
    size: str
    users: int
    items: int
    ratings: int
    algorithm: str
    wall_s: float       # a stopped run: the time limit
    cpu_s: float        # a stopped run: the CPU seconds used when stopped
    max_rss_mb: float   # a stopped run: the peak memory until stopped
    stopped: bool       # stopped at the time limit: every figure is a lower bound


def _count(where, name, text):
    if not text.isdigit() or int(text) == 0:
        raise InputError(f"{where}: expected {name} as a positive integer, got '{text}'")
    return int(text)


def _positive(where, name, text):
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not math.isfinite(v) or v <= 0:
        raise InputError(f"{where}: expected {name} as a positive number, got '{text}'")
    return v


def read_rows(path):
    """Every row of PATH, in order; raises InputError naming the file and line."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read: {e}") from None
    if lines and lines[-1] == "":
        lines.pop()
    rows, seen = [], {}
    for n, text in enumerate(lines, 1):
        where = f"{path}:{n}"
        fields = text.split("\t")
        if fields == HEADER:
            continue
        if len(fields) != len(HEADER):
            raise InputError(f"{where}: expected {len(HEADER)} tab-separated fields "
                             f"({' '.join(HEADER)}), got {len(fields)}")
        size, users, items, ratings, algorithm, wall, cpu, rss = fields
        if not size or not algorithm or any(c.isspace() for c in size + algorithm):
            raise InputError(f"{where}: expected a size and an algorithm name without spaces")
        users = _count(where, "users", users)
        items = _count(where, "items", items)
        ratings = _count(where, "ratings", ratings)
        if wall.startswith("over ") and wall.endswith("s"):
            if not cpu.startswith("over ") or not rss.startswith("over "):
                raise InputError(f"{where}: expected 'over X' for cpu_s and max_rss_mb of a run "
                                 f"stopped at the time limit ('{wall}')")
            row = Row(n, size, users, items, ratings, algorithm,
                      _positive(where, "the time limit in 'over Ns'", wall[5:-1]),
                      _positive(where, "cpu_s in 'over X'", cpu[5:]),
                      _positive(where, "max_rss_mb in 'over X'", rss[5:]), True)
        else:
            row = Row(n, size, users, items, ratings, algorithm,
                      _positive(where, "wall_s (or 'over Ns')", wall),
                      _positive(where, "cpu_s", cpu), _positive(where, "max_rss_mb", rss), False)
        key = (algorithm, ratings)
        if key in seen:
            raise InputError(f"{where}: expected one row per algorithm and size; {algorithm} "
                             f"at {ratings} ratings is already on line {seen[key]}")
        seen[key] = n
        rows.append(row)
    if not rows:
        raise InputError(f"{path}: expected at least one row ({' '.join(HEADER)})")
    return rows


def slope(points):
    """Least-squares slope of log y against log x."""
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else float("nan")


def exponents(rows):
    """{algorithm: (CPU exponent, memory exponent, sizes)} over the finished runs, algorithms
    in the order they first appear; only those measured at two sizes or more."""
    by = {}
    for r in rows:
        by.setdefault(r.algorithm, [])
        if not r.stopped:
            by[r.algorithm].append(r)
    return {a: (slope([(r.ratings, r.cpu_s) for r in pts]),
                slope([(r.ratings, r.max_rss_mb) for r in pts]), len(pts))
            for a, pts in by.items() if len({r.ratings for r in pts}) >= 2}


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        print("usage: scale_fit.py RESULTS.tsv", file=sys.stderr)
        return 2
    try:
        rows = read_rows(argv[1])
    except InputError as e:
        print(f"scale_fit.py: {e}", file=sys.stderr)
        return 2
    for a, (cpu, mem, n) in exponents(rows).items():
        print(f"{a}: CPU time ~ ratings^{cpu:.2f}, peak memory ~ ratings^{mem:.2f} ({n} sizes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
