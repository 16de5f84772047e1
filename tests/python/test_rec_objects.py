"""A recommender written in Python as the system under test: assay.rec.recommend, fuzz and
campaign given an object with fit(ratings) and recommend(users, k). The object here is
examples/recsys/sklearn_svd.py's SvdRecommender, the same code the command line runs as
`cmd:` — so its lists equal the program's, and the sets a campaign saves replay with the
program to the oracle values recorded from the object."""
import json
import os
import signal
import sys

import numpy as np
import pytest

import assay
from conftest import SOURCE_DIR, read_jsonl, run_cli, shared

sys.path.insert(0, str(SOURCE_DIR / "examples" / "recsys"))
from sklearn_svd import SvdRecommender  # noqa: E402

PROGRAM = f"cmd:{sys.executable} {SOURCE_DIR / 'examples' / 'recsys' / 'sklearn_svd.py'}"


@pytest.fixture(scope="module")
def spec():
    return f"movielens-100k:{shared('movielens-100k')}"


@pytest.fixture(scope="module")
def data(spec):
    return assay.rec.load(spec)


class Recording:
    """Keeps what fit() and recommend() were given; recommends the first unrated items."""

    name = "recording"

    def fit(self, ratings, seed):
        self.ratings, self.seed = ratings, seed

    def recommend(self, users, k):
        self.users, self.k = users, k
        rated = {}
        for u, i in zip(self.ratings["user"].tolist(), self.ratings["item"].tolist()):
            rated.setdefault(u, set()).add(i)
        items = sorted(set(self.ratings["item"].tolist()), key=int)
        return [[i for i in items if i not in rated.get(u, ())][:k] for u in users]


def test_fit_gets_the_ratings_with_their_own_ids(data, spec):
    model = Recording()
    top = assay.rec.recommend(data, model, k=3, seed=11)
    r = model.ratings
    assert r.dtype.names == ("user", "item", "rating") and r["rating"].dtype == np.float64
    assert len(r) == 100000 and model.seed == 11 and model.k == 3
    assert model.users == [data.user_label(u) for u in range(data.n_users)]
    table = np.loadtxt(shared("movielens-100k") / "u.data", dtype=np.int64)
    expected = sorted(zip(table[:, 0].tolist(), table[:, 1].tolist(), table[:, 2].tolist()))
    got = sorted(zip(map(int, r["user"]), map(int, r["item"]), r["rating"].tolist()))
    assert got == expected
    assert top[0] == {"user": data.user_label(0), "items": [{"item": i} for i in
                                                            model.recommend([model.users[0]], 3)[0]]}


def test_object_lists_equal_the_program(data, spec, tmp_path):
    out = tmp_path / "top.jsonl"
    run_cli("rec", "recommend", "--data", spec, "--algorithm", PROGRAM, "--seed", 7, "--top-k", 10,
            "--out", out, "--quiet")
    assert assay.rec.recommend(data, SvdRecommender(), k=10, seed=7) == read_jsonl(out)


def test_fuzz_with_an_object(data):
    seen = []
    result = assay.rec.fuzz(data, SvdRecommender(), "AMU", size=10, trials=3, seed=5,
                            progress=lambda done, total: seen.append((done, total)))
    assert [t["algorithm"] for t in result["trials"]] == ["python:sklearn-svd"] * 3
    assert [t["trial"] for t in result["trials"]] == [0, 1, 2]
    assert all(t["n_modifications"] == 10 for t in result["trials"])
    assert result["summary"]["trials"] == 3 and sorted(seen) == [(1, 3), (2, 3), (3, 3)]
    assert any(t["jaccard"] > 0 for t in result["trials"])  # the SVD moves some lists
    # Trials in parallel: the same records (the object trains one at a time).
    again = assay.rec.fuzz(data, SvdRecommender(), "AMU", size=10, trials=3, seed=5, threads=2)
    assert again == result


def test_campaign_of_a_built_in_equals_the_command(spec, tmp_path):
    args = dict(heuristics=["AMU", "ARAND"], sizes=[10], trials=2, noise_trials=1, seed=3,
                headline_oracle="jaccard", min_effect=0.1)
    run_cli("rec", "campaign", "--data", spec, "--algorithms", "item-item", "--heuristics",
            "AMU,ARAND", "--sizes", 10, "--trials", 2, "--noise-trials", 1, "--seed", 3,
            "--headline-oracle", "jaccard", "--min-effect", 0.1,
            "--store", tmp_path / "cli.sqlite", "--out", tmp_path / "cli", "--quiet")
    result = assay.rec.campaign(spec, ["item-item"], store=str(tmp_path / "py.sqlite"),
                                out=str(tmp_path / "py"), **args)
    with open(tmp_path / "cli" / "summary.json", encoding="utf-8") as f:
        cli = json.load(f)
    mine = result["summary"]
    for summary in (cli, mine):
        summary.pop("timing")  # wall times
    assert mine == cli
    assert mine["significance"]["headline_oracle"] == "jaccard"
    assert all(o["min_effect"] == 0.1 for o in mine["significance"]["oracles"])
    assert result["complete"] and result["executed"] == 4 and len(result["runs"]) == 4
    with pytest.raises(assay.UsageError, match="min_effect"):
        assay.rec.campaign(spec, ["item-item"], store=str(tmp_path / "bad.sqlite"),
                           **dict(args, min_effect=-1.0))
    with pytest.raises(assay.UsageError, match="unknown oracle 'kendall'"):
        assay.rec.campaign(spec, ["item-item"], store=str(tmp_path / "bad.sqlite"),
                           **dict(args, headline_oracle="kendall"))
    assert (tmp_path / "py" / "report.html").is_file()


def test_campaign_sweep_and_accuracy_equal_the_command(tmp_path):
    data = "synthetic:users=60,items=80,ratings=1500,seed=2"
    run_cli("rec", "campaign", "--data", data, "--algorithms", "funk-svd:epochs=5", "--sweep",
            "damping=0,5", "--heuristics", "ARAND", "--sizes", 1, "--trials", 2,
            "--noise-trials", 0, "--folds", 2, "--save-all", "--store", tmp_path / "cli.sqlite",
            "--out", tmp_path / "cli", "--quiet")
    result = assay.rec.campaign(data, ["funk-svd:epochs=5"], sweep="damping=0,5",
                                heuristics=["ARAND"], sizes=[1], trials=2, noise_trials=0,
                                folds=2, save_all=True, store=str(tmp_path / "py.sqlite"),
                                out=str(tmp_path / "py"))
    with open(tmp_path / "cli" / "summary.json", encoding="utf-8") as f:
        cli = json.load(f)
    mine = result["summary"]
    for summary in (cli, mine):
        summary.pop("timing")  # wall times
    assert mine == cli
    configurations = [c["algorithm"] for c in mine["configurations"]]
    # (The default value keeps the plain name, and with it the seeds and cells.)
    assert configurations == ["funk-svd:epochs=5:damping=0", "funk-svd:epochs=5"]
    assert all(c["folds"] == 2 and c["rmse"] > 0 for c in mine["configurations"])  # a sweep
    assert sorted(p.name for p in (tmp_path / "py" / "mods").iterdir()) == \
        sorted(p.name for p in (tmp_path / "cli" / "mods").iterdir())  # every set: save_all
    with pytest.raises(assay.UsageError, match="sweep"):
        assay.rec.campaign(data, ["funk-svd"], sweep="damping=", store=str(tmp_path / "b.sqlite"))
    with pytest.raises(assay.UsageError, match="folds"):
        assay.rec.campaign(data, ["funk-svd"], accuracy=True, folds=1,
                           store=str(tmp_path / "b.sqlite"))


def test_campaign_with_an_object_replays_with_the_program(spec, tmp_path):
    result = assay.rec.campaign(spec, [SvdRecommender()], store=str(tmp_path / "svd.sqlite"),
                                out=str(tmp_path / "svd"), heuristics=["AMU"], sizes=[10],
                                trials=2, noise_trials=1, seed=3, delta=0.0,
                                delta_oracle="jaccard")
    assert result["complete"] and not result["failures"]
    assert [r["algorithm"] for r in result["runs"]] == ["python:sklearn-svd"] * 2
    sets = result["summary"]["exceeding_delta"]["files"]
    assert sets, "no set moved a list"
    with open(tmp_path / "svd" / sets[0], encoding="utf-8") as f:
        recorded = json.load(f)
    lines = [json.loads(line) for line in run_cli(
        "rec", "replay", "--data", spec, "--mods", tmp_path / "svd" / sets[0],
        "--algorithm", PROGRAM).splitlines()]
    replayed = lines[-1]
    for oracle in ("top-out", "jaccard", "aod", "rbo"):
        assert replayed[oracle] == pytest.approx(recorded["oracles"][oracle], abs=1e-12), oracle
    # Again on the store (every run resumed) with a higher delta, into the same directory: mods/
    # holds exactly the sets the new summary lists, as with `rec campaign --out`.
    again = assay.rec.campaign(spec, [SvdRecommender()], store=str(tmp_path / "svd.sqlite"),
                               out=str(tmp_path / "svd"), heuristics=["AMU"], sizes=[10],
                               trials=2, noise_trials=1, seed=3, delta=1.0,
                               delta_oracle="jaccard")
    assert again["resumed"] == 2 and again["executed"] == 0
    assert again["summary"]["exceeding_delta"]["files"] == []
    assert list((tmp_path / "svd" / "mods").iterdir()) == []


SMALL = "synthetic:users=30,items=40,ratings=300,seed=1"


class Popular:
    """The most rated unrated items; `fail_after` fits, fit raises ValueError."""

    name = "popular"

    def __init__(self, fail_after=None):
        self.fits, self.fail_after = 0, fail_after

    def fit(self, ratings):
        self.fits += 1
        if self.fail_after is not None and self.fits > self.fail_after:
            raise ValueError("the object's own error")
        items, counts = np.unique(ratings["item"], return_counts=True)
        self.order = [items[j] for j in np.argsort(-counts, kind="stable")]
        self.rated = {}
        for u, i in zip(ratings["user"].tolist(), ratings["item"].tolist()):
            self.rated.setdefault(u, set()).add(i)

    def recommend(self, users, k):
        return [[i for i in self.order if i not in self.rated.get(u, ())][:k] for u in users]


def test_an_exception_inside_fit(tmp_path):
    data = assay.rec.load(SMALL)
    # The first training (nothing can be measured without it): the exception as itself.
    with pytest.raises(ValueError, match="own error"):
        assay.rec.recommend(data, Popular(fail_after=0), k=5)
    with pytest.raises(ValueError, match="own error"):
        assay.rec.fuzz(data, Popular(fail_after=0), "ARAND", trials=2)
    # A retraining: a failed trial with the reason and the traceback, as a program's failure.
    result = assay.rec.fuzz(data, Popular(fail_after=1), "ARAND", size=3, trials=2, seed=1)
    reason = "fit() raised ValueError: the object's own error"
    assert [t["failed"] for t in result["trials"]] == [reason, reason]
    first = result["trials"][0]
    assert "Traceback" in first["stderr_tail"] and "in fit" in first["stderr_tail"]
    assert result["summary"]["failed_runs"] == 2
    # In a campaign: failed runs, retried by the next call on the store.
    store = str(tmp_path / "store.sqlite")
    args = dict(store=store, heuristics=["ARAND"], sizes=[3], trials=2, noise_trials=1, seed=1)
    failing = assay.rec.campaign(SMALL, [Popular(fail_after=1)], **args)
    assert not failing["complete"] and failing["failed"] == 3 and len(failing["failures"]) == 3
    assert failing["failures"][0]["reason"] == reason
    fixed = assay.rec.campaign(SMALL, [Popular()], **args)
    assert fixed["complete"] and not fixed["failures"] and fixed["executed"] == 2


class Answering(Popular):
    """Popular whose answer is replaced by answer(self, users, k, lists)."""

    def __init__(self, answer):
        super().__init__()
        self.answer = answer

    def fit(self, ratings):
        super().fit(ratings)
        self.first = (ratings["user"][0], ratings["item"][0])  # as train.tsv's first line

    def recommend(self, users, k):
        return self.answer(self, users, k, super().recommend(users, k))


@pytest.mark.parametrize("answer, message", [
    (lambda m, users, k, lists: lists[1:],
     r"malformed output: recommend\(\) returned 29 lists for 30 users"),
    (lambda m, users, k, lists: 7,
     r"malformed output: recommend\(\) returned int, expected one list of item ids per user"),
    (lambda m, users, k, lists: [lists[0][:2]] + lists[1:],
     r"incomplete output: user '\w+' has 2 items, expected 5 \(k = 5, \d+ items unrated\)"),
    (lambda m, users, k, lists: [[1.5]] + lists[1:],
     r"malformed output: recommend\(\) list 0: an item must be a string or an integer, got 1.5"),
    (lambda m, users, k, lists: [["nope"]] + lists[1:],
     r"malformed output: recommend\(\) list 0: unknown item 'nope' for user"),
    (lambda m, users, k, lists: [lists[0][:1] * 2] + lists[1:],
     r"malformed output: recommend\(\) list 0: item '\w+' twice in the list of user"),
    (lambda m, users, k, lists: Popular.recommend(m, users[:1], k + 1) + lists[1:],
     r"malformed output: recommend\(\) list 0: more than k = 5 items for user"),
    (lambda m, users, k, lists: np.array(lists), None),  # a 2-D array of ids is an answer too
])
def test_wrong_answers_are_the_programs_errors(answer, message):
    data = assay.rec.load(SMALL)
    if message is None:
        assert assay.rec.recommend(data, Answering(answer), k=5) == \
            assay.rec.recommend(data, Popular(), k=5)
        return
    with pytest.raises(assay.ModelError, match=message) as e:
        assay.rec.recommend(data, Answering(answer), k=5)
    assert str(e.value).startswith("python:popular: ")


def test_a_rated_item_is_the_same_failure_as_a_program_s(tmp_path):
    data = assay.rec.load(SMALL)
    model = Answering(lambda m, users, k, lists: [[m.first[1]]] + lists[1:])
    with pytest.raises(assay.ModelError) as mine:
        assay.rec.recommend(data, model, k=5)
    program = tmp_path / "rated.sh"  # recommends the first rating of train.tsv to its user
    program.write_text("#!/bin/sh\nhead -n 1 \"$1\" | cut -f 1,2 > \"$5\"\n", encoding="utf-8")
    program.chmod(0o755)
    with pytest.raises(assay.ModelError) as theirs:
        assay.rec.recommend(data, f"cmd:{program}", k=5)
    user, item = model.first
    assert str(mine.value) == (f"python:popular: recommends item '{item}' that user '{user}' "
                               "rated in the training data (recommend() list 0)")
    assert str(theirs.value) == (f"cmd:{program}: recommends item '{item}' that user '{user}' "
                                 f"rated in the training data (output line 1: {user}\t{item})")


def test_bad_arguments():
    data = assay.rec.load(SMALL)
    with pytest.raises(assay.UsageError, match="fit\\(ratings\\) and recommend"):
        assay.rec.fuzz(data, object(), "AMU")
    with pytest.raises(assay.UsageError, match="named twice"):
        assay.rec.campaign(SMALL, [Popular(), Popular()], store="unused.sqlite")
    with pytest.raises(assay.UsageError, match="no such recommender object"):
        assay.rec.recommend(data, "python:popular")


def test_keyboard_interrupt_during_a_campaign(spec, tmp_path):
    class Interrupting(SvdRecommender):
        def __init__(self, at):
            super().__init__()
            self.fits, self.at = 0, at

        def fit(self, ratings, seed=0):
            self.fits += 1
            # As Ctrl-C would, during the fourth training: it is stopped (KeyboardInterrupt
            # raised in it), the runs trained before it are kept.
            if self.fits == self.at:
                os.kill(os.getpid(), signal.SIGINT)
            super().fit(ratings, seed)

    args = dict(heuristics=["AMU"], sizes=[10], trials=3, noise_trials=1, seed=4)
    store = str(tmp_path / "stopped.sqlite")
    with pytest.raises(KeyboardInterrupt):
        assay.rec.campaign(spec, [Interrupting(at=4)], store=store, **args)
    # The runs finished before the interrupt are kept; the same call finishes the campaign with
    # the numbers of an uninterrupted one.
    resumed = assay.rec.campaign(spec, [Interrupting(at=0)], store=store, **args)
    assert resumed["complete"] and resumed["resumed"] >= 1 and resumed["executed"] <= 2
    whole = assay.rec.campaign(spec, [SvdRecommender()], store=str(tmp_path / "whole.sqlite"),
                               **args)
    assert resumed["runs"] == whole["runs"] and resumed["noise"] == whole["noise"]


def test_keyboard_interrupt_stops_an_object_blocked_in_c():
    # fit() waits an hour in one C call (no bytecode runs): Ctrl-C still stops the call at
    # once, since the object is run on the calling thread, where Python delivers signals.
    class Blocked(Popular):
        def fit(self, ratings):
            __import__("time").sleep(3600)

    import threading
    import time
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            assay.rec.fuzz(assay.rec.load(SMALL), Blocked(), "ARAND", trials=2, threads=2)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 30


def test_keyboard_interrupt_raised_by_the_object_ends_the_call():
    class Stopping(Popular):
        def recommend(self, users, k):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        assay.rec.fuzz(assay.rec.load(SMALL), Stopping(), "ARAND", trials=2)


def test_a_campaign_in_shards_merges_to_the_whole(spec, tmp_path):
    args = dict(heuristics=["AMU", "ARAND"], sizes=[10], trials=2, noise_trials=1, seed=2)
    stores = [str(tmp_path / f"shard{i}.sqlite") for i in range(2)]
    for i, store in enumerate(stores):
        part = assay.rec.campaign(spec, [Popular()], store=store, shard=f"{i}/2", **args)
        assert part["shard_complete"] and not part["complete"]
    merged = assay.rec.campaign(spec, [Popular()], store=str(tmp_path / "merged.sqlite"),
                                merge=stores, **args)
    assert merged["complete"] and merged["merged"] == 4 and merged["executed"] == 0
    whole = assay.rec.campaign(spec, [Popular()], store=str(tmp_path / "whole.sqlite"), **args)
    assert merged["runs"] == whole["runs"] and merged["noise"] == whole["noise"]
    with pytest.raises(assay.UsageError, match="shard"):
        assay.rec.campaign(spec, [Popular()], store=str(tmp_path / "x.sqlite"), shard="2/2", **args)


def test_a_campaign_never_writes_over_its_store_or_data(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    store = out / "summary.json"
    store.write_bytes(b"")
    data = out / "cells.csv"
    data.write_text("user,item,rating\n1,1,5\n")
    synthetic = "synthetic:users=60,items=40,ratings=800,seed=1"
    with pytest.raises(assay.UsageError, match="writes summary.json, which store keeps"):
        assay.rec.campaign(synthetic, ["item-item"], store=str(store), out=str(out))
    with pytest.raises(assay.UsageError, match="writes cells.csv, which data reads"):
        assay.rec.campaign(f"csv:{data}", ["item-item"], store=str(tmp_path / "s.sqlite"),
                           out=str(out))
    with pytest.raises(assay.UsageError, match="same path"):
        assay.rec.campaign(synthetic, ["item-item"], store=str(tmp_path / "x"),
                           out=str(tmp_path / "x"))
    assert store.read_bytes() == b"" and not (tmp_path / "s.sqlite").exists()
    assert sorted(p.name for p in out.iterdir()) == ["cells.csv", "summary.json"]
