"""assay.aeon: score and filter give the command line's records on AEON's own examples."""
import pytest

import assay
from conftest import head_lines, read_jsonl, run_cli, shared

N = 40


@pytest.fixture(scope="module")
def pairs(tmp_path_factory):
    originals = head_lines(shared("aeon-annotations", "example_ori.txt"), N)
    generated = head_lines(shared("aeon-annotations", "example_adv.txt"), N)
    d = tmp_path_factory.mktemp("aeon")
    (d / "ori.txt").write_text("".join(t + "\n" for t in originals), encoding="utf-8")
    (d / "adv.txt").write_text("".join(t + "\n" for t in generated), encoding="utf-8")
    return originals, generated, d


def test_score_and_filter_equal_the_command(pairs):
    originals, generated, d = pairs
    run_cli("aeon", "score", "--original", d / "ori.txt", "--generated", d / "adv.txt",
            "--out", d / "scores.jsonl")
    seen = []
    records = assay.aeon.score(originals, generated, chunk=8,
                               progress=lambda *a: seen.append(a))
    assert records == read_jsonl(d / "scores.jsonl")
    assert seen[-1] == (N // 8, N // 8)  # chunks of pairs
    run_cli("aeon", "filter", "--scores", d / "scores.jsonl", "--task", "sa", "--kept",
            d / "kept.jsonl", "--dropped", d / "dropped.jsonl", ok=(0, 1))
    kept, dropped = assay.aeon.filter(records, "sa")
    assert kept == read_jsonl(d / "kept.jsonl")
    assert dropped == read_jsonl(d / "dropped.jsonl")
    assert len(kept) + len(dropped) == N and "reason" not in records[0]
    kept2, _ = assay.aeon.filter(records, "sa", sim_threshold=0.0, nat_threshold=0.0)
    assert len(kept2) == N


def test_score_resumes_and_shards_as_the_command(pairs, tmp_path):
    originals, generated, d = pairs
    whole = assay.aeon.score(originals, generated, chunk=8)
    stores = [str(tmp_path / f"s{i}.sqlite") for i in range(2)]
    for i in range(2):  # a shard's call keeps its chunks in its store and returns nothing
        assert assay.aeon.score(originals, generated, chunk=8, store=stores[i],
                                shard=f"{i}/2") == []
    merged = str(tmp_path / "all.sqlite")
    assert assay.aeon.score(originals, generated, chunk=8, store=merged, merge=stores) == whole
    run_cli("aeon", "score", "--original", d / "ori.txt", "--generated", d / "adv.txt",
            "--chunk", 8, "--store", tmp_path / "cli.sqlite", "--out", tmp_path / "cli.jsonl")
    assert whole == read_jsonl(tmp_path / "cli.jsonl")
    with pytest.raises(assay.UsageError, match="needs a store"):
        assay.aeon.score(originals, generated, shard="0/2")
    with pytest.raises(assay.UsageError, match="pooling: expected one of auto, pooler, cls"):
        assay.aeon.score(originals, generated, pooling="mean")


def test_bad_input():
    with pytest.raises(assay.UsageError, match="as many"):
        assay.aeon.score(["a"], ["a", "b"])
    with pytest.raises(assay.UsageError):
        assay.aeon.score(["a"], ["b"], variant="nonsense")
    with pytest.raises(assay.Error):
        assay.aeon.filter([], "no-such-task")
    with pytest.raises(assay.ParseError, match=r"records\[0\].*SemEval"):
        assay.aeon.filter([{"SynEval": 0.5}], "sa")
    with pytest.raises(assay.ParseError, match="not a number"):
        assay.aeon.filter([{"SemEval": "high", "SynEval": 0.5}], "sa")
