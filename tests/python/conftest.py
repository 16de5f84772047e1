"""Shared fixtures of the Python module's tests: the module, the assay program and the data.

ctest runs these with PYTHONPATH at the module in the build tree and ASSAY_BINARY,
ASSAY_SOURCE_DIR and ASSAY_SHARED_DATA_DIR set (tests/python/CMakeLists.txt).
"""
import json
import os
import subprocess
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("ASSAY_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SHARED = Path(os.environ.get("ASSAY_SHARED_DATA_DIR", SOURCE_DIR.parent / "shared" / "data"))
BINARY = os.environ.get("ASSAY_BINARY", "assay")


def shared(*parts):
    """A path under ../shared/data; the test skips when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent (../shared/data)")
    return path


def run_cli(*args, ok=(0,)):
    """Runs the assay program; returns its stdout. Fails on an unexpected exit code."""
    done = subprocess.run([BINARY, *map(str, args)], capture_output=True, text=True)
    assert done.returncode in ok, f"assay {' '.join(map(str, args))}: {done.returncode}\n{done.stderr}"
    return done.stdout


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def head_lines(path, n):
    """The first n lines of a text file (without newlines)."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            out.append(line.rstrip("\n"))
            if len(out) == n:
                break
    return out
