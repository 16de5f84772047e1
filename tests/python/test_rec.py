"""assay.rec: ratings from a spec or from columns, the built-in recommenders, top-k lists equal
to `assay rec recommend`'s on MovieLens 100K."""
import numpy as np
import pytest

import assay
from conftest import read_jsonl, run_cli, shared

ALGORITHM = "item-item"


@pytest.fixture(scope="module")
def ml100k():
    return shared("movielens-100k")


def test_recommend_equals_the_command(ml100k, tmp_path):
    out = tmp_path / "top.jsonl"
    run_cli("rec", "recommend", "--data", f"movielens-100k:{ml100k}", "--algorithm", ALGORITHM,
            "--top-k", "5", "--out", out, "--quiet")
    data = assay.rec.load(f"movielens-100k:{ml100k}")
    assert (data.n_users, data.n_items, data.n_ratings) == (943, 1682, 100000)
    lists = assay.rec.recommend(data, ALGORITHM, k=5)
    assert lists == read_jsonl(out)


def test_ratings_from_arrays_equal_the_loaded_file(ml100k):
    table = np.loadtxt(ml100k / "u.data", dtype=np.int64)
    columns = {"user": table[:, 0], "item": table[:, 1], "rating": table[:, 2].astype(float)}
    data = assay.rec.from_dataframe(columns)
    loaded = assay.rec.load(f"movielens-100k:{ml100k}")
    assert (data.n_users, data.n_items, data.n_ratings) == (943, 1682, 100000)
    assert [data.user_label(u) for u in range(5)] == [loaded.user_label(u) for u in range(5)]
    assert assay.rec.recommend(data, ALGORITHM, k=3) == assay.rec.recommend(loaded, ALGORITHM, k=3)


def test_synthetic_and_threads():
    data = assay.rec.load("synthetic:users=60,items=80,ratings=1500,seed=3")
    one = assay.rec.recommend(data, "funk-svd:epochs=5", k=4, seed=7)
    two = assay.rec.recommend(data, "funk-svd:epochs=5", k=4, seed=7, threads=2)
    assert one == two and len(one) == data.n_users
    assert "funk-svd" in assay.rec.algorithms()


def test_bad_input(tmp_path):
    with pytest.raises(assay.UsageError, match="no-such"):
        assay.rec.recommend(assay.rec.load("synthetic:users=5,items=5,ratings=10"), "no-such")
    with pytest.raises(assay.ParseError, match=r"ratings\[1\]"):
        assay.rec.ratings([1, 2], [1, 1], [3, 9])  # 9 is off the 1..5 scale
    with pytest.raises(assay.UsageError, match="same length"):
        assay.rec.ratings([1, 2], [1], [3, 4])
    bad = tmp_path / "ratings.csv"
    bad.write_text("user,item,rating\n1,2,3\n1,3,x\n", encoding="utf-8")
    with pytest.raises(assay.ParseError) as e:
        assay.rec.load(f"csv:{bad}")
    assert e.value.path == str(bad) and e.value.line == 3
    with pytest.raises(assay.IoError):
        assay.rec.load(f"movielens-100k:{tmp_path}/missing")
    with pytest.raises(IndexError):
        assay.rec.load("synthetic:users=5,items=5,ratings=10").user_label(99)


def test_fuzz_equals_the_command(ml100k, tmp_path):
    out = tmp_path / "fuzz.jsonl"
    spec = f"movielens-100k:{ml100k}"
    run_cli("rec", "fuzz", "--data", spec, "--algorithm", ALGORITHM, "--heuristic", "AMU",
            "--size", "10", "--trials", "3", "--seed", "5", "--out", out)
    seen = []
    result = assay.rec.fuzz(assay.rec.load(spec), ALGORITHM, "AMU", size=10, trials=3, seed=5,
                            progress=lambda done, total: seen.append(done))
    lines = read_jsonl(out)
    assert result["trials"] == lines[:-1]
    assert result["summary"] == lines[-1]
    assert sorted(seen) == [1, 2, 3]
    with pytest.raises(assay.UsageError):
        assay.rec.fuzz(assay.rec.load(spec), ALGORITHM, "NOPE")


def test_fuzz_delta_and_saved_sets_as_the_command(tmp_path):
    spec = "synthetic:users=40,items=60,ratings=800,seed=3"
    args = ["--data", spec, "--algorithm", ALGORITHM, "--heuristic", "RRAND", "--size", "60",
            "--trials", "4", "--seed", "2"]
    # Two of the four trials move some user's list: exit 1, as "failed" says.
    run_cli("rec", "fuzz", *args, "--delta", "0", "--save-dir", tmp_path / "cli",
            "--out", tmp_path / "cli.jsonl", ok=(1,))
    result = assay.rec.fuzz(assay.rec.load(spec), ALGORITHM, "RRAND", size=60, trials=4, seed=2,
                            delta=0.0, save_dir=str(tmp_path / "py"), data_name=spec)
    lines = read_jsonl(tmp_path / "cli.jsonl")
    assert result["trials"] == lines[:-1] and result["summary"] == lines[-1]
    exceeding = sum(t["top-out"] > 0 for t in result["trials"])
    assert result["exceeding"] == exceeding == result["saved"] == 2 and result["failed"]
    saved = sorted(p.name for p in (tmp_path / "py").iterdir())
    assert saved == sorted(p.name for p in (tmp_path / "cli").iterdir())
    for name in saved:  # the same sets, naming the same data
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()
    with pytest.raises(assay.UsageError, match="APORTFOLIO"):
        assay.rec.fuzz(assay.rec.load(spec), ALGORITHM, "AMU", portfolio=["AMU"])


def test_threads_are_bounded_like_the_command_line():
    data = assay.rec.load("synthetic:users=5,items=5,ratings=10")
    for call in (lambda t: assay.rec.recommend(data, ALGORITHM, threads=t),
                 lambda t: assay.rec.fuzz(data, ALGORITHM, "ARAND", size=2, trials=2, threads=t),
                 lambda t: assay.fair.test(lambda b: [[1.0, 0.0]] * len(b), ["he is here"],
                                           labels=["a", "b"], threads=t),
                 lambda t: assay.fair.perturb(["he is here"], threads=t)):
        with pytest.raises(assay.UsageError, match="threads: expected .* 4096, got 100000"):
            call(100000)


def test_ids_given_as_floats_are_the_integers():
    a = assay.rec.ratings([1.0, 2.0, 2.0], [10.0, 10.0, 11.0], [4, 5, 3])
    b = assay.rec.ratings(["1", "2", "2"], ["10", "10", "11"], [4, 5, 3])
    assert [a.user_label(u) for u in range(a.n_users)] == ["1", "2"]
    assert [a.item_label(i) for i in range(a.n_items)] == [b.item_label(i) for i in range(b.n_items)]
