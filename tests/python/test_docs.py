"""docs/python.md runs as written: its ```python blocks, in order, in one session started in
the repository's root (where the examples' ../shared/data paths lead)."""
import os
import re

import pytest

from conftest import SOURCE_DIR, shared


def blocks():
    text = (SOURCE_DIR / "docs" / "python.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_docs_has_a_session_for_each_engine():
    code = "\n".join(blocks())
    for call in ("assay.fair.perturb", "assay.fair.test", "assay.fair.mitigate",
                 "assay.aeon.score", "assay.aeon.filter", "assay.rec.load",
                 "assay.rec.recommend", "assay.rec.fuzz", "assay.rec.campaign",
                 "def recommend(self, users, k)"):
        assert call in code


def test_docs_examples_run(monkeypatch):
    shared("rt-polarity-v1.0")
    shared("sst2-glue")
    shared("aeon-annotations")
    shared("movielens-100k")
    monkeypatch.chdir(SOURCE_DIR)
    session = {"__name__": "__docs__"}
    for i, block in enumerate(blocks()):
        try:
            exec(compile(block, f"docs/python.md block {i + 1}", "exec"), session)
        except Exception as e:  # name the block that failed
            pytest.fail(f"docs/python.md block {i + 1} failed: {e!r}\n{block}")
