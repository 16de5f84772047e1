"""assay.fair: perturb and test give the command line's records and summary on real data."""
import json
import os
import signal
import threading
import time

import subprocess
import pytest

import assay
from conftest import SOURCE_DIR, head_lines, read_jsonl, run_cli, shared


@pytest.fixture(scope="module")
def rt_inputs(tmp_path_factory):
    texts = head_lines(shared("rt-polarity-v1.0", "rt-polarity.pos"), 60)
    path = tmp_path_factory.mktemp("rt") / "inputs.txt"
    path.write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    return texts, path


def test_perturb_equals_the_command(rt_inputs, tmp_path):
    texts, path = rt_inputs
    cli = tmp_path / "cli.jsonl"
    run_cli("fair", "perturb", "--input", path, "--out", cli, "--quiet")
    seen = []
    records = assay.fair.perturb(texts, progress=lambda done, total: seen.append((done, total)))
    assert records == read_jsonl(cli)
    assert seen and seen[-1] == (len(texts), len(texts))
    assert sum(len(r["perturbations"]) for r in records) > 0


def test_perturb_options_are_the_command_options(rt_inputs, tmp_path):
    texts, path = rt_inputs
    cli = tmp_path / "cli.jsonl"
    run_cli("fair", "perturb", "--input", path, "--out", cli, "--quiet", "--no-dropped",
            "--no-coreference", "--max-per-input", "1", "--first-names", "none", "--threads", "1")
    records = assay.fair.perturb(texts, dropped=False, coreference=False, max_per_input=1,
                                 first_names=None, threads=1)
    assert records == read_jsonl(cli)


def test_perturb_skip_checks():
    text = ["Students should bring their own lunch."]
    assert assay.fair.perturb(text)[0]["perturbations"] == []
    records = assay.fair.perturb(text, skip_checks=["bare-plural", "modal-statement"])
    assert [p["text"] for p in records[0]["perturbations"]][0] == \
        "Male students should bring their own lunch."
    with pytest.raises(assay.UsageError, match="unknown check 'bare-plurals'"):
        assay.fair.perturb(text, skip_checks=["bare-plurals"])


def test_perturb_and_test_gate_as_the_command(tmp_path):
    texts = ["The actor thanked the teacher.", "My neighbor helped the laborer.", "The film."]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(texts) + "\n", encoding="utf-8")

    def cli(*gate):
        out = run_cli("fair", "perturb", "--input", path, "--quiet", "--gate", "aeon", *gate)
        return [json.loads(line) for line in out.splitlines()]

    flagged = assay.fair.perturb(texts, gate="aeon")
    assert flagged == cli()
    assert all("aeon" in p for r in flagged for p in r["perturbations"])
    strict = {"action": "drop", "sim": 0.95, "nat": 0.3}
    dropped = assay.fair.perturb(texts, gate=strict)
    assert dropped == cli("--gate-action", "drop", "--gate-sim", "0.95", "--gate-nat", "0.3")
    n_flagged = sum(len(r["perturbations"]) for r in flagged)
    assert sum(len(r["perturbations"]) for r in dropped) < n_flagged
    # fair.test asks the model only the perturbations the gate keeps.
    asked = []

    def model(batch):
        asked.extend(batch)
        return [[0.5, 0.5]] * len(batch)

    summary = assay.fair.test(model, texts, labels=["a", "b"], gate=strict)["summary"]
    assert summary["gate"]["scored"] == n_flagged
    assert summary["perturbations"] == summary["gate"]["kept"] < n_flagged
    assert len(asked) == summary["perturbations"] + summary["mutable"]
    with pytest.raises(assay.UsageError, match="gate: unknown setting 'threshold'"):
        assay.fair.perturb(texts, gate={"threshold": 1})
    with pytest.raises(assay.UsageError, match="gate: expected aeon, got 'bert'"):
        assay.fair.perturb(texts, gate="bert")
    with pytest.raises(assay.UsageError, match=r"gate\['sim'\]: expected a number"):
        assay.fair.perturb(texts, gate={"sim": "0.9"})
    with pytest.raises(assay.UsageError, match=r"gate\['nat'\]: expected a finite number"):
        assay.fair.perturb(texts, gate={"nat": float("nan")})
    with pytest.raises(assay.UsageError, match="gate action: expected drop or flag"):
        assay.fair.perturb(texts, gate={"action": "keep"})
    # A gate that drops nearly everything says so, as the command does on stderr.
    with pytest.warns(UserWarning, match="the aeon gate"):
        assay.fair.perturb(texts, gate={"action": "drop", "sim": 0.9999, "nat": 0.99})


def test_perturb_religion():
    records = assay.fair.perturb(["The Muslim teacher met a Jewish doctor."], "religion")
    assert records[0]["perturbations"], records


def test_bad_input_raises_the_library_errors(tmp_path):
    with pytest.raises(assay.UsageError):
        assay.fair.perturb(["a text"], attribute="no-such-attribute")
    with pytest.raises(TypeError, match="no_such_option"):
        assay.fair.perturb(["a text"], no_such_option=1)
    with pytest.raises(TypeError, match="seed"):
        assay.fair.perturb(["a text"], seed="not a number")
    with pytest.raises(assay.UsageError, match="vectors"):
        assay.fair.perturb(["a text"], min_cosine=0.5)
    with pytest.raises(assay.UsageError):
        assay.fair.perturb(["a text"], choice="nonsense")
    bad = tmp_path / "bad.attribute"
    bad.write_text("this is not an attribute file\n", encoding="utf-8")
    with pytest.raises(assay.Error) as e:
        assay.fair.perturb(["a text"], attribute=str(bad))
    # The same message as the command line's, naming the file.
    assert str(bad) in str(e.value)
    done = __import__("subprocess").run(
        [os.environ.get("ASSAY_BINARY", "assay"), "fair", "perturb", "--attribute", str(bad),
         "--input", "/dev/null", "--quiet"], capture_output=True, text=True)
    assert done.returncode == 2
    assert str(e.value) in done.stderr


def test_long_texts_are_refused_and_perturbations_limited():
    with pytest.raises(assay.UsageError, match=r"texts\[1\]: a text of 38 bytes, longer than "
                       r"max_line_bytes=30"):
        assay.fair.perturb(["short", "The actor met the waiter and the king."],
                           max_line_bytes=30)
    with pytest.raises(assay.UsageError, match=r"texts\[0\]"):
        assay.fair.test(lambda batch: [[1.0, 0.0]] * len(batch), ["x" * 11], labels=["a", "b"],
                        max_line_bytes=10)
    text = " ".join(["The actor met the waiter."] * 8)
    limited = assay.fair.perturb([text], "race", max_perturbations=3)[0]
    assert len(limited["perturbations"]) == 3 and limited["limit_reached"] is True
    full = assay.fair.perturb([text], "race", max_perturbations=0)[0]
    assert len(full["perturbations"]) > 3 and "limit_reached" not in full
    # The limit keeps the first perturbations built, not others.
    assert limited["perturbations"] == full["perturbations"][:3]


@pytest.fixture(scope="module")
def lr_model(tmp_path_factory):
    train = shared("sst2-glue", "dev.tsv")
    path = tmp_path_factory.mktemp("lr") / "sst2.lr"
    run_cli("model", "train-lr", "--train", train, "--text-column", "sentence", "--out", path)
    return path


def test_fair_test_equals_the_command(rt_inputs, lr_model, tmp_path):
    texts, path = rt_inputs
    out = tmp_path / "cli"
    run_cli("fair", "test", "--model", f"lr:{lr_model}", "--input", path, "--out", out,
            "--quiet", ok=(0, 1))
    model = assay.models.open(f"lr:{lr_model}")
    calls = []

    def predict(batch):
        calls.append(len(batch))
        return model.predict(batch)

    result = assay.fair.test(predict, texts, labels=model.labels, model_id="sst2-lr", batch=16,
                             out=str(tmp_path / "py"))
    assert result["violations"] == read_jsonl(out / "violations.jsonl")
    summary = json.loads((out / "summary.json").read_text())
    assert result["summary"]["model"] == "python:sst2-lr"
    assert summary["data"] == str(path)  # the command names its input file; Python has none
    del summary["model"], summary["data"], result["summary"]["model"]
    assert result["summary"] == summary
    assert result["summary"]["perturbations"] > 0
    assert max(calls) <= 16  # batched
    # The files written with out= are the command's.
    assert read_jsonl(tmp_path / "py" / "violations.jsonl") == result["violations"]


def test_fair_test_cache(rt_inputs, tmp_path):
    texts, _ = rt_inputs
    asked = []

    def model(batch):
        asked.extend(batch)
        return [[1.0, 0.0] if "he " in t else [0.0, 1.0] for t in batch]

    cache = str(tmp_path / "answers.sqlite")
    first = assay.fair.test(model, texts[:20], labels=["a", "b"], model_id="toy", cache=cache)
    n = len(asked)
    assert n > 0 and first["summary"]["answers_asked"] == n
    assert first["complete"] and first["executed"] == 1 and first["resumed"] == 0
    # The cache keeps the finished chunks too: a second call resumes them, as the command does.
    second = assay.fair.test(model, texts[:20], labels=["a", "b"], model_id="toy", cache=cache)
    assert len(asked) == n
    assert second["executed"] == 0 and second["resumed"] == 1
    assert second["summary"]["answers_asked"] == 0
    assert second["violations"] == first["violations"]
    # Other chunks ask again, through the cache.
    third = assay.fair.test(model, texts[:20], labels=["a", "b"], model_id="toy", cache=cache,
                            chunk=7)
    assert len(asked) == n and third["summary"]["answers_from_cache"] > 0
    assert third["violations"] == first["violations"]
    with pytest.raises(assay.UsageError, match="model_id"):
        assay.fair.test(model, texts[:2], labels=["a", "b"], cache=cache)


def test_fair_test_shards_and_min_delta_as_the_command(rt_inputs, lr_model, tmp_path):
    texts, path = rt_inputs  # 60 texts: six chunks of 10
    out = tmp_path / "cli"
    run_cli("fair", "test", "--model", f"lr:{lr_model}", "--input", path, "--out", out,
            "--min-delta", "0.1", "--chunk", "10", "--quiet", ok=(0, 1))
    model = assay.models.open(f"lr:{lr_model}")
    kw = dict(labels=model.labels, model_id="sst2-lr", chunk=10, min_delta=0.1)
    caches = [str(tmp_path / f"s{i}.sqlite") for i in range(2)]
    parts = [assay.fair.test(model.predict, texts, cache=caches[i], shard=f"{i}/2", **kw)
             for i in range(2)]
    assert not any(p["complete"] for p in parts) and "summary" not in parts[0]
    assert sorted(p["executed"] for p in parts) == [3, 3]
    merged = assay.fair.test(model.predict, texts, cache=str(tmp_path / "all.sqlite"),
                             merge=caches, out=str(tmp_path / "py"), **kw)
    assert merged["complete"] and merged["merged"] == 6 and merged["executed"] == 0
    assert merged["violations"] == read_jsonl(out / "violations.jsonl")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["min_delta"] == 0.1 and merged["summary"]["min_delta"] == 0.1
    for s in (summary, merged["summary"]):
        for key in ("model", "data", "answers_from_cache", "answers_asked"):
            s.pop(key, None)
    assert merged["summary"] == summary
    with pytest.raises(assay.UsageError, match="needs the answer cache"):
        assay.fair.test(model.predict, texts[:3], shard="0/2", **kw)
    with pytest.raises(assay.UsageError, match="min_delta"):
        assay.fair.test(model.predict, texts[:3], labels=model.labels, min_delta=-1)


def without_times(study):
    """mitigation.json without the model's name and the wall times."""
    if isinstance(study, dict):
        return {k: without_times(v) for k, v in study.items()
                if k != "model" and not k.startswith("seconds")}
    if isinstance(study, list):
        return [without_times(v) for v in study]
    return study


def test_fair_mitigate_equals_the_command(rt_inputs, lr_model, tmp_path):
    texts, path = rt_inputs
    out = tmp_path / "cli"
    run_cli("fair", "mitigate", "--model", f"lr:{lr_model}", "--input", path, "--out", out,
            "--epsilon", "0.5,2", "--max-k", "4", "--quiet")
    model = assay.models.open(f"lr:{lr_model}")
    result = assay.fair.mitigate(model.predict, texts, labels=model.labels, epsilons=[0.5, 2],
                                 max_k=4, out=str(tmp_path / "py"))
    assert result["complete"]
    cli = json.loads((out / "mitigation.json").read_text())
    assert cli["perturbations"] > 0 and [e["epsilon"] for e in cli["epsilons"]] == [0.5, 2]
    assert without_times(result["study"]) == without_times(cli)
    written = json.loads((tmp_path / "py" / "mitigation.json").read_text())
    assert without_times(written) == without_times(cli)
    with pytest.raises(assay.UsageError, match="epsilon"):
        assay.fair.mitigate(model.predict, texts[:2], labels=model.labels, epsilons=[])
    with pytest.raises(assay.UsageError, match="max_k"):
        assay.fair.mitigate(model.predict, texts[:2], labels=model.labels, max_k=0)
    with pytest.raises(assay.UsageError, match=r"gold\[1\]: 'maybe'"):
        assay.fair.mitigate(model.predict, texts[:2], labels=model.labels,
                            gold=[None, "maybe"])


def test_fair_test_never_writes_over_its_cache(tmp_path):
    def model(batch):
        raise AssertionError("asked before the paths were checked")

    def run(**kw):
        assay.fair.test(model, ["he is here"], labels=["a", "b"], model_id="m", **kw)

    out = tmp_path / "o"
    out.mkdir()
    cache = out / "summary.json"
    cache.write_bytes(b"")
    with pytest.raises(assay.UsageError, match="writes summary.json, which cache keeps"):
        run(cache=str(cache), out=str(out))
    os.symlink(cache, tmp_path / "link.sqlite")  # through a link
    with pytest.raises(assay.UsageError, match="which cache keeps"):
        run(cache=str(tmp_path / "link.sqlite"), out=str(out))
    with pytest.raises(assay.UsageError, match="same path"):
        run(cache=str(tmp_path / "new"), out=str(tmp_path / "new"))
    # An out= that is a file is refused before the model is asked.
    with pytest.raises(assay.IoError, match="cannot use as output directory"):
        run(out=str(cache))
    assert cache.read_bytes() == b""
    assert sorted(p.name for p in out.iterdir()) == ["summary.json"]


def test_fair_test_labels_are_a_list_of_distinct_names():
    def model(batch):
        return [[0.5, 0.5]] * len(batch)

    with pytest.raises(assay.UsageError, match="expected a list of label names, got the string"):
        assay.fair.test(model, ["he is here"], labels="np")
    with pytest.raises(assay.UsageError, match="'a' is named twice"):
        assay.fair.test(model, ["he is here"], labels=["a", "a"])


def test_fair_test_bad_models(rt_inputs):
    texts = rt_inputs[0][:10]
    with pytest.raises(assay.ModelError, match="rows"):
        assay.fair.test(lambda b: [[0.5, 0.5]], texts, labels=["a", "b"])
    with pytest.raises(assay.ModelError, match="one per label"):
        assay.fair.test(lambda b: [[1.0]] * len(b), texts, labels=["a", "b"])
    with pytest.raises(assay.ModelError, match="not finite"):
        assay.fair.test(lambda b: [[float("nan"), 1.0]] * len(b), texts, labels=["a", "b"])
    with pytest.raises(assay.UsageError, match="labels"):
        assay.fair.test(lambda b: [[1.0, 0.0]] * len(b), texts)

    def failing(batch):
        raise ZeroDivisionError("the model's own error")

    with pytest.raises(ZeroDivisionError, match="own error"):
        assay.fair.test(failing, texts, labels=["a", "b"])


def test_undecodable_child_output_is_a_model_error(tmp_path):
    child = tmp_path / "child.sh"
    child.write_text("printf '{\"labels\": [\"a\", \"b\"]}\\n'\n"
                     "read line\nprintf '\\377\\376 not json\\n'\nsleep 5\n")
    model = assay.models.open(f"cmd:sh {child}", timeout=10)
    with pytest.raises(assay.ModelError) as raised:
        model.predict(["he is here"])
    assert "\\xff\\xfe not json" in str(raised.value)


def interrupt_after(seconds, call):
    """call() interrupted by SIGINT after `seconds`: asserts KeyboardInterrupt; returns the
    seconds it took."""
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    return time.monotonic() - start


def test_keyboard_interrupt_cancels_a_waiting_library_model(tmp_path):
    # A cmd: child that never answers and a server that answers after 3 s, each given 60 s:
    # Ctrl-C cancels the wait (the child is killed, the connection closed) within a second or
    # two, and the model answers again afterwards.
    child = tmp_path / "child.sh"
    child.write_text("printf '{\"labels\": [\"a\", \"b\"]}\\n'\nsleep 3600\n")
    model = assay.models.open(f"cmd:sh {child}", timeout=60)
    assert interrupt_after(1.0, lambda: model.predict(["he is here"])) < 5
    server = subprocess.Popen(
        ["/usr/bin/python3", str(SOURCE_DIR / "tests/data/models/http_fault_server.py"), "slow"],
        stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().split()[1]
        slow = assay.models.open(f"http://127.0.0.1:{port}/", labels=["neg", "pos"], timeout=60)
        assert interrupt_after(0.5, lambda: slow.predict(["he is here"])) < 2.5
        # Still usable: asked again, the server's answer arrives (its {"scores": [...]} needs a
        # scores pointer, which open() does not take, so it is refused as an answer).
        with pytest.raises(assay.ModelError, match='got .{"scores":.0.25,0.75.}'):
            slow.predict(["she is here"])
    finally:
        server.kill()
        server.wait()


def test_thresholds_and_timeouts_must_be_finite():
    nan = float("nan")
    with pytest.raises(assay.UsageError, match="timeout: expected a finite number > 0, got nan"):
        assay.models.open("cmd:true", timeout=nan)
    with pytest.raises(assay.UsageError, match="timeout"):
        assay.models.open("cmd:true", timeout=0)
    for name in ("sim_threshold", "nat_threshold"):
        with pytest.raises(assay.UsageError, match=f"{name}: expected a finite number"):
            assay.aeon.filter([], "sa", **{name: nan})
    with pytest.raises(assay.UsageError, match="delta: expected a finite number >= 0"):
        assay.rec.campaign("synthetic:users=5,items=5,ratings=10", ["item-item"],
                           store="never.sqlite", delta=nan)
    for kw in ({"high": float("inf")}, {"step": nan}, {"step": 1e-300}):
        with pytest.raises(assay.UsageError, match="ratings"):
            assay.rec.ratings([1], [1], [1], **kw)


def test_keyboard_interrupt_stops_a_long_call(rt_inputs):
    texts = rt_inputs[0] * 20

    def slow(batch):
        time.sleep(0.05)
        return [[1.0, 0.0]] * len(batch)

    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            assay.fair.test(slow, texts, labels=["a", "b"], batch=4, threads=1)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 60


def test_keyboard_interrupt_stops_a_model_that_never_returns(rt_inputs):
    def stuck(batch):
        while True:
            time.sleep(0.01)

    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            assay.fair.test(stuck, rt_inputs[0][:4], labels=["a", "b"], threads=1)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 30


def test_keyboard_interrupt_stops_a_model_blocked_in_c(rt_inputs):
    # One sleep of an hour: no bytecode runs until it returns, so only a callable run where
    # Python delivers signals (the calling thread) is stopped by Ctrl-C.
    def blocked(batch):
        time.sleep(3600)

    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            assay.fair.test(blocked, rt_inputs[0][:4], labels=["a", "b"], threads=2)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 30


def test_progress_callback_can_stop_a_call(rt_inputs):
    def stop(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        assay.fair.perturb(rt_inputs[0], progress=stop)
