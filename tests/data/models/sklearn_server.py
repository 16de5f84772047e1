#!/usr/bin/python3
"""A scikit-learn pipeline (CountVectorizer + LogisticRegression, both with their defaults)
served to assay as a `cmd:` model: JSON lines on stdin/stdout.

    assay model predict --model 'cmd:/usr/bin/python3 sklearn_server.py --train train.tsv' ...

--train FILE: a TSV with a header and the columns `label` and `text` (UTF-8). The first line
written is {"labels": [...]} (scikit-learn's classes_, sorted); then every request
{"id": N, "text": "..."} gets {"id": N, "scores": [p_0, p_1, ...]} (predict_proba).
Requests are read as they come and answered in batches of whatever is already waiting, so a
pipelining client is served quickly. With --http PORT the same model is served over HTTP
instead: POST {"text": "..."} or {"texts": [...]} answers {"scores": [...]} or
{"scores": [[...], ...]}; the port actually used is printed on stdout ("port N").
--record FILE: every answer is also appended to FILE as it is sent, one JSON line
{"text": ..., "scores": [...]} per text (Python's shortest round-trip floats), flushed per batch,
so a test can check that the scores reached assay bit for bit, whatever the processor computed.
"""
import argparse
import csv
import json
import os
import select
import sys
import threading
import warnings

from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline


def train(path):
    texts, labels = [], []
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        for row in reader:
            texts.append(row["text"])
            labels.append(row["label"])
    model = make_pipeline(CountVectorizer(), LogisticRegression())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(texts, labels)
    return model


RECORD = None
RECORD_LOCK = threading.Lock()  # the HTTP server answers from several threads


def scores(model, texts):
    rows = [[float(p) for p in row] for row in model.predict_proba(texts)]
    if RECORD is not None:
        with RECORD_LOCK:
            RECORD.write("".join(json.dumps({"text": t, "scores": r}) + "\n"
                                 for t, r in zip(texts, rows)))
            RECORD.flush()
    return rows


def serve_lines(model):
    out = sys.stdout
    out.write(json.dumps({"labels": [str(c) for c in model.classes_]}) + "\n")
    out.flush()
    stdin = sys.stdin.buffer
    fd = stdin.fileno()
    buffered = b""
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        buffered += chunk
        # Take everything already waiting, then answer it as one batch.
        while select.select([fd], [], [], 0)[0]:
            more = os.read(fd, 1 << 16)
            if not more:
                break
            buffered += more
        *lines, buffered = buffered.split(b"\n")
        requests = [json.loads(line) for line in lines if line.strip()]
        if not requests:
            continue
        answers = scores(model, [r["text"] for r in requests])
        out.write("".join(json.dumps({"id": r["id"], "scores": s}) + "\n"
                          for r, s in zip(requests, answers)))
        out.flush()


def serve_http(model, port):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body are separate writes

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if "texts" in body:
                answer = {"scores": scores(model, body["texts"])}
            else:
                answer = {"scores": scores(model, [body["text"]])[0]}
            data = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print("port %d" % server.server_address[1], flush=True)
    server.serve_forever()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train", required=True)
    parser.add_argument("--http", type=int)
    parser.add_argument("--record")
    args = parser.parse_args()
    global RECORD
    if args.record:
        RECORD = open(args.record, "a", encoding="utf-8")
    model = train(args.train)
    print("trained on %s" % args.train, file=sys.stderr, flush=True)
    if args.http is not None:
        serve_http(model, args.http)
    else:
        serve_lines(model)


if __name__ == "__main__":
    main()
