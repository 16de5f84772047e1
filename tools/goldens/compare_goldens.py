#!/usr/bin/python3
"""Compares two trees of golden files: the committed ones and those the live oracles produce now.

    /usr/bin/python3 tools/goldens/compare_goldens.py COMMITTED_DIR REGENERATED_DIR

Words, ranks, keys and structure must match exactly. Numbers may differ by 1e-6, absolute or
relative: BLAS kernels chosen per processor change the last bits of a float32 computation
(gensim's cosines, dot products of unit vectors in float32, differ by up to a few 1e-8 between
two x86-64 machines, e.g. 0.0153181823 against 0.0153182046) while every ranking stays the
same. A committed JSON golden may carry "tolerances": {KEY: ABS, ...}; every number under KEY
then may differ by ABS instead (the golden script says how ABS follows from its computation,
e.g. an iterative solver stopped before convergence). Files that are not text (binary vectors)
must match byte for byte.
Exits 0 when every file matches, 1 otherwise, naming the first differences.
"""
import json
import math
import os
import re
import sys

REL = 1e-6
ABS = 1e-6
NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def close(a, b, tolerance=None):
    if tolerance is not None:
        return abs(a - b) <= tolerance
    return a == b or math.isclose(a, b, rel_tol=REL, abs_tol=ABS)


def json_diff(a, b, where, tolerances=None, tolerance=None):
    if isinstance(a, bool) or isinstance(b, bool):
        return None if a == b else f"{where}: {a!r} != {b!r}"
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if close(float(a), float(b), tolerance):
            return None
        return f"{where}: {a!r} != {b!r}" + (f" (tolerance {tolerance})" if tolerance else "")
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return f"{where}: keys {sorted(a.keys() ^ b.keys())} differ"
        tolerances = tolerances or {}
        for k in a:
            d = json_diff(a[k], b[k], f"{where}.{k}", tolerances, tolerances.get(k, tolerance))
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = json_diff(x, y, f"{where}[{i}]", tolerances, tolerance)
            if d:
                return d
        return None
    return None if a == b else f"{where}: {a!r} != {b!r}"


def text_diff(a, b):
    la, lb = a.splitlines(), b.splitlines()
    if len(la) != len(lb):
        return f"{len(la)} lines != {len(lb)}"
    for n, (x, y) in enumerate(zip(la, lb), 1):
        tx, ty = x.split(), y.split()
        if len(tx) != len(ty):
            return f"line {n}: {len(tx)} fields != {len(ty)}"
        for s, t in zip(tx, ty):
            if s == t:
                continue
            if NUMBER.match(s) and NUMBER.match(t) and close(float(s), float(t)):
                continue
            return f"line {n}: {s!r} != {t!r}"
    return None


def file_diff(path_a, path_b):
    with open(path_a, "rb") as f:
        a = f.read()
    with open(path_b, "rb") as f:
        b = f.read()
    if a == b:
        return None
    try:
        ta, tb = a.decode("utf-8"), b.decode("utf-8")
    except UnicodeDecodeError:
        return "binary files differ"
    if path_a.endswith(".json"):
        try:
            ja = json.loads(ta)
            tolerances = ja.get("tolerances") if isinstance(ja, dict) else None
            return json_diff(ja, json.loads(tb), "$", tolerances)
        except json.JSONDecodeError as e:
            return f"not JSON: {e}"
    return text_diff(ta, tb)


def files(root):
    out = set()
    for d, _, names in os.walk(root):
        for n in names:
            out.add(os.path.relpath(os.path.join(d, n), root))
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    committed, regenerated = sys.argv[1], sys.argv[2]
    a, b = files(committed), files(regenerated)
    problems = [f"{p}: only in {committed}" for p in sorted(a - b)]
    problems += [f"{p}: only in {regenerated}" for p in sorted(b - a)]
    for p in sorted(a & b):
        d = file_diff(os.path.join(committed, p), os.path.join(regenerated, p))
        if d:
            problems.append(f"{p}: {d}")
    for p in problems[:40]:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
