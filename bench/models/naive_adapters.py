#!/usr/bin/env python3
"""The adapter examples (examples/models) written the naive way, for bench/models/adapters.sh
to measure what the examples' advice saves. Same model (word_sentiment.predict), same answers.

    naive_adapters.py cmd-per-line     cmd: one request read, answered and flushed at a time
    naive_adapters.py cmd-no-flush     cmd: answers printed, never flushed (Python buffers a pipe)
    naive_adapters.py http-nagle PORT  http: the example's server with Nagle's algorithm left on
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "examples", "models"))
from word_sentiment import LABELS, predict  # noqa: E402


def cmd_per_line():
    print(json.dumps({"labels": LABELS}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        scores = predict([request["text"]])[0]
        print(json.dumps({"id": request["id"], "scores": scores}), flush=True)


def cmd_no_flush():
    print(json.dumps({"labels": LABELS}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps({"id": request["id"], "scores": predict([request["text"]])[0]}))


def http_nagle(port):
    from http.server import ThreadingHTTPServer

    import http_model

    class Handler(http_model.Handler):
        disable_nagle_algorithm = False

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print("port %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    if sys.argv[1:2] == ["cmd-per-line"]:
        cmd_per_line()
    elif sys.argv[1:2] == ["cmd-no-flush"]:
        cmd_no_flush()
    elif sys.argv[1:2] == ["http-nagle"] and len(sys.argv) == 3:
        http_nagle(int(sys.argv[2]))
    else:
        sys.exit(__doc__)
