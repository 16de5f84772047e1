#!/usr/bin/python3
"""A `cmd:` model that misbehaves on purpose, for assay's fault tests. It answers every text
with the scores [0.25, 0.75] (labels neg, pos) except as the mode says:

    crash5     exits abruptly (status 3) on its fifth request, after answering the first four
    hang       reads requests and never answers
    malformed  answers its third request with a line that is not JSON
    wrong-len  answers its third request with three scores
    nan        answers its third request with NaN (Python's json.dumps writes the bare NaN)
    deep       answers its third request with scores nested 100,000 arrays deep
    no-labels  sends no labels line (assay must be given --labels)
    twice      sends the labels line ["neg", "neg"]
    stderr     writes a line to stderr for every request
    endless    answers its first request with 64 MiB that end no line (then a newline)
"""
import json
import os
import sys

mode = sys.argv[1]
if mode != "no-labels":
    print(json.dumps({"labels": ["neg", "neg" if mode == "twice" else "pos"]}), flush=True)
n = 0
for line in sys.stdin:
    request = json.loads(line)
    n += 1
    answer = {"id": request["id"], "scores": [0.25, 0.75]}
    if mode == "crash5" and n == 5:
        sys.stdout.flush()
        os._exit(3)
    if mode == "hang":
        continue
    if mode == "endless":
        try:
            for _ in range(1024):
                sys.stdout.write('{"id": %d, "scores": [' % request["id"] + "0," * 32768)
            sys.stdout.write("1]}\n")
            sys.stdout.flush()
        except BrokenPipeError:
            os._exit(0)
        continue
    if mode == "stderr":
        print("working on %d" % request["id"], file=sys.stderr, flush=True)
    if n == 3 and mode == "malformed":
        print('{"id": %d, "scores": [0.25, 0.75' % request["id"], flush=True)
        continue
    if n == 3 and mode == "wrong-len":
        answer["scores"] = [0.2, 0.3, 0.5]
    if n == 3 and mode == "deep":
        print('{"id": %d, "scores": %s}' % (request["id"], "[" * 100000 + "]" * 100000), flush=True)
        continue
    if n == 3 and mode == "nan":
        answer["scores"] = [float("nan"), 0.5]
    print(json.dumps(answer), flush=True)
