#!/usr/bin/env python3
"""A `cmd:` model for assay: JSON lines on stdin and stdout, standard library only.

    assay fair test --model 'cmd:python3 examples/models/cmd_model.py' --input FILE --out DIR

The first line written names the labels; then every request {"id": N, "text": "..."} gets
{"id": N, "scores": [...]}. assay writes up to 256 requests before it reads an answer, so:
- read everything that is waiting and answer it as one batch (one call of the model, one write);
- flush after each batch: Python buffers a pipe, and an answer left in the buffer while this
  process waits for more requests is never seen (assay gives up after --timeout seconds).
"""
import json
import os
import select
import sys

from word_sentiment import LABELS, predict


def main():
    out = sys.stdout
    out.write(json.dumps({"labels": LABELS}) + "\n")
    out.flush()
    fd = sys.stdin.fileno()
    pending = b""
    while True:
        chunk = os.read(fd, 1 << 16)  # blocks until requests arrive
        if not chunk:
            return  # assay closed the pipe: done
        pending += chunk
        while select.select([fd], [], [], 0)[0]:  # and take whatever else is already waiting
            more = os.read(fd, 1 << 16)
            if not more:
                break
            pending += more
        *lines, pending = pending.split(b"\n")  # a request cut in two waits for its end
        requests = [json.loads(line) for line in lines if line.strip()]
        if not requests:
            continue
        scores = predict([r["text"] for r in requests])
        out.write("".join(json.dumps({"id": r["id"], "scores": s}) + "\n"
                          for r, s in zip(requests, scores)))
        out.flush()  # one write per batch


if __name__ == "__main__":
    main()
